fn main() {
    // Every `polc` command is one call per process (a hook call, a decision, an explain):
    // walks are not freed piece by piece before the exit (`shell::walk::keep_walks_until_exit`).
    polc::shell::walk::keep_walks_until_exit();
    std::process::exit(polc::cli::run());
}
