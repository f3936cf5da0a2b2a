//! The `polc` binary: one call into `polc::cli::run`.
//!
//! **Entry point (issue 16).** On Linux with glibc, polc defines the C `main` itself
//! (`no_main`) instead of Rust's runtime start (`lang_start`). That start installs a
//! stack-overflow handler whose set-up calls `pthread_getattr_np` for the main thread, and
//! glibc answers it by reading and `sscanf`-parsing `/proc/self/maps`: about 100,000
//! instructions, a ninth of a whole hook call (`benches/README.md`). polc does the rest of that
//! start itself, before anything else runs ([`start`]):
//!
//! - standard descriptors 0–2 that are closed are opened on `/dev/null` (else the first file
//!   polc opens, a table, could become its stdout and receive the answer);
//! - `SIGPIPE` is ignored (a closed pipe is an error polc handles: the hook must answer or
//!   fail closed, never die of a signal; `cli::run` restores the default for the other
//!   commands, as before);
//! - the arguments: glibc hands them to Rust's `std::env` through `.init_array`, so nothing
//!   is needed.
//!
//! The hook's fatal signals (a stack overflow included) are caught on polc's own alternate
//! stack (`host/failsafe.rs`), as before; other commands that overflow their stack now end
//! with SIGSEGV instead of Rust's "has overflowed its stack" message. Elsewhere (musl, other
//! systems) the usual Rust `main` runs: there `std::env::args` needs the runtime start.

#![cfg_attr(all(target_os = "linux", target_env = "gnu", not(test)), no_main)]

/// The system allocator, and a bump arena once a command is one decision (`decide`,
/// `hook`): see `src/cli/arena.rs` (issue 12 item 6).
#[global_allocator]
static ALLOC: polc::cli::arena::Arena = polc::cli::arena::Arena;

// (`cargo test` builds this file with its own test harness `main`: the usual one then.)
#[cfg(not(all(target_os = "linux", target_env = "gnu", not(test))))]
fn main() {
    // Every `polc` command is one call per process (a hook call, a decision, an explain):
    // walks are not freed piece by piece before the exit (`shell::walk::keep_walks_until_exit`).
    polc::shell::walk::keep_walks_until_exit();
    std::process::exit(polc::cli::run());
}

/// The C entry point (glibc Linux). `std::process::exit` flushes stdout as a return from
/// Rust's `main` would.
#[cfg(all(target_os = "linux", target_env = "gnu", not(test)))]
#[no_mangle]
pub extern "C" fn main(_argc: libc::c_int, _argv: *const *const libc::c_char) -> libc::c_int {
    start();
    // As the Rust `main` above: one call per process, walks are not freed before the exit
    // (the C entry had lost this call: 25 M instructions of frees on 10,000 segments).
    polc::shell::walk::keep_walks_until_exit();
    std::process::exit(polc::cli::run())
}

/// What Rust's runtime start does that polc relies on (see the module notes).
#[cfg(all(target_os = "linux", target_env = "gnu", not(test)))]
fn start() {
    // SAFETY: fcntl(F_GETFD) only queries a descriptor; open of a constant NUL-terminated
    // path; signal() sets a disposition before any thread exists.
    unsafe {
        for fd in 0..3 {
            if libc::fcntl(fd, libc::F_GETFD) == -1
                && std::io::Error::last_os_error().raw_os_error() == Some(libc::EBADF)
            {
                // The lowest free descriptor: this one.
                let got = libc::open(c"/dev/null".as_ptr(), libc::O_RDWR);
                if got != fd {
                    // As Rust's own start does when it cannot: stop before reading anything.
                    libc::abort();
                }
            }
        }
        libc::signal(libc::SIGPIPE, libc::SIG_IGN);
    }
}
