fn main() {
    std::process::exit(polc::cli::run());
}
