//! Never end a hook in a way the host reads as "proceed" (docs/contract.md#c-error-rows): the error answer for
//! the host is rendered *before* deciding, and written by whichever comes first of
//!
//! - a fatal signal (SIGBUS from a mapped table truncated under us, SIGSEGV, SIGABRT, SIGILL,
//!   SIGFPE), caught by a handler running on an alternate stack (so a stack overflow still
//!   answers), which only calls `write(2)` and `_exit(2)` — async-signal-safe;
//! - a termination request: SIGTERM, SIGINT, SIGHUP (an agent that times a hook out sends
//!   one; Claude Code reads a hook that dies without an answer as a non-blocking error and
//!   runs the call), and SIGQUIT, SIGUSR1/2, SIGXCPU, SIGXFSZ, SIGVTALRM, SIGPROF — every
//!   catchable signal whose default would end the process silently (SIGKILL and SIGSTOP
//!   cannot be caught: the residual in `src/host/README.md`);
//! - the internal deadline (`setitimer` and SIGALRM);
//! - a panic (caught by the caller with `catch_unwind`; the panic hook stays quiet).
//!
//! [`claim`] makes sure exactly one of these and the normal path writes an answer.

use std::sync::atomic::{AtomicBool, AtomicI32, AtomicPtr, AtomicUsize, Ordering};
use std::time::Duration;

static ANSWERED: AtomicBool = AtomicBool::new(false);
static OUT_PTR: AtomicPtr<u8> = AtomicPtr::new(std::ptr::null_mut());
static OUT_LEN: AtomicUsize = AtomicUsize::new(0);
static ERR_PTR: AtomicPtr<u8> = AtomicPtr::new(std::ptr::null_mut());
static ERR_LEN: AtomicUsize = AtomicUsize::new(0);
static EXIT: AtomicI32 = AtomicI32::new(2);
/// A termination request already let the normal answer finish once.
static DEFERRED: AtomicBool = AtomicBool::new(false);

/// The default deadline, well under every host's hook timeout (Copilot's suggested
/// `timeoutSec` is 10; Claude Code's default is 60 s).
pub const DEADLINE: Duration = Duration::from_secs(5);

/// Take the right to answer. False if another path (signal, deadline) already answers.
pub fn claim() -> bool {
    ANSWERED
        .compare_exchange(false, true, Ordering::SeqCst, Ordering::SeqCst)
        .is_ok()
}

/// Store the pre-rendered error answer (leaked: it lives until exit). May be called again
/// (the hook re-arms once the input names its event): the asynchronous signals the handler
/// answers (the deadline, termination requests) are blocked meanwhile, so none writes a
/// pointer with another answer's length. The fatal signals are synchronous and cannot arise
/// from these stores.
pub fn arm(stdout: Vec<u8>, stderr_line: String, exit: i32) {
    // SAFETY: an all-zero sigset_t is a valid value (it is filled by pthread_sigmask below).
    let mut old: libc::sigset_t = unsafe { std::mem::zeroed() };
    // SAFETY: sigprocmask only reads and writes the sets given; restored below.
    unsafe {
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        for sig in [
            libc::SIGALRM,
            libc::SIGTERM,
            libc::SIGINT,
            libc::SIGHUP,
            libc::SIGQUIT,
            libc::SIGUSR1,
            libc::SIGUSR2,
            libc::SIGXCPU,
            libc::SIGXFSZ,
            libc::SIGVTALRM,
            libc::SIGPROF,
        ] {
            libc::sigaddset(&mut set, sig);
        }
        libc::pthread_sigmask(libc::SIG_BLOCK, &set, &mut old);
    }
    store(stdout, stderr_line, exit);
    // SAFETY: restores the mask saved above.
    unsafe {
        libc::pthread_sigmask(libc::SIG_SETMASK, &old, std::ptr::null_mut());
    }
}

fn store(stdout: Vec<u8>, stderr_line: String, exit: i32) {
    let out: &'static mut [u8] = Box::leak(stdout.into_boxed_slice());
    let mut e = stderr_line.into_bytes();
    e.push(b'\n');
    let err: &'static mut [u8] = Box::leak(e.into_boxed_slice());
    OUT_LEN.store(out.len(), Ordering::SeqCst);
    OUT_PTR.store(out.as_mut_ptr(), Ordering::SeqCst);
    ERR_LEN.store(err.len(), Ordering::SeqCst);
    ERR_PTR.store(err.as_mut_ptr(), Ordering::SeqCst);
    EXIT.store(exit, Ordering::SeqCst);
}

/// Write the armed answer and `_exit`. Async-signal-safe: atomics, `write`, `_exit` only.
fn answer_and_exit() -> ! {
    if claim() {
        write_all(
            1,
            OUT_PTR.load(Ordering::SeqCst),
            OUT_LEN.load(Ordering::SeqCst),
        );
        write_all(
            2,
            ERR_PTR.load(Ordering::SeqCst),
            ERR_LEN.load(Ordering::SeqCst),
        );
    }
    // SAFETY: _exit is async-signal-safe and ends the process at once.
    unsafe { libc::_exit(EXIT.load(Ordering::SeqCst)) }
}

fn write_all(fd: i32, mut p: *const u8, mut n: usize) {
    if p.is_null() {
        return;
    }
    while n > 0 {
        // SAFETY: p..p+n lies inside a leaked, never-freed buffer stored by `arm`.
        let w = unsafe { libc::write(fd, p as *const libc::c_void, n) };
        if w <= 0 {
            if w < 0 && std::io::Error::last_os_error().raw_os_error() == Some(libc::EINTR) {
                continue;
            }
            return;
        }
        // SAFETY: w <= n bytes were written from the buffer.
        p = unsafe { p.add(w as usize) };
        n -= w as usize;
    }
}

extern "C" fn on_signal(sig: libc::c_int) {
    // A termination request that arrives while the normal path is already writing its
    // answer: let that answer finish whole (the process ends right after it) rather than
    // cut it. Synchronous faults cannot return (the fault would repeat).
    let asynchronous = !matches!(
        sig,
        libc::SIGBUS | libc::SIGSEGV | libc::SIGILL | libc::SIGFPE | libc::SIGABRT
    );
    // Only once: a second request while the answer is still being written ends the process.
    if asynchronous && ANSWERED.load(Ordering::SeqCst) && !DEFERRED.swap(true, Ordering::SeqCst) {
        return;
    }
    answer_and_exit()
}

/// Install the fatal-signal handlers on an alternate stack, the quiet panic hook and the
/// watchdog. Call after [`arm`].
pub fn install(deadline: Duration) {
    std::panic::set_hook(Box::new(|_| {}));
    // SAFETY: sigaltstack gets a never-unmapped (or leaked) buffer that outlives the process;
    // mmap of fresh anonymous memory has no preconditions; sigaction installs
    // a handler that only performs async-signal-safe calls.
    unsafe {
        // 128 KiB mapped directly: pages the kernel zeroes only if a signal ever uses them.
        // (A zeroed heap allocation of this size came from the heap's top and was memset
        // on every call: 131,000 instructions and 32 page faults, a tenth of a hook call.)
        // Never unmapped: it outlives the process's last signal.
        let size = 128 * 1024;
        let mut sp = libc::mmap(
            std::ptr::null_mut(),
            size,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
            -1,
            0,
        );
        if sp == libc::MAP_FAILED {
            let stack: &'static mut [u8] = Box::leak(vec![0u8; size].into_boxed_slice());
            sp = stack.as_mut_ptr() as *mut libc::c_void;
        }
        let ss = libc::stack_t {
            ss_sp: sp,
            ss_flags: 0,
            ss_size: size,
        };
        libc::sigaltstack(&ss, std::ptr::null_mut());
        for sig in [
            libc::SIGBUS,
            libc::SIGSEGV,
            libc::SIGABRT,
            libc::SIGILL,
            libc::SIGFPE,
            libc::SIGALRM,
            libc::SIGTERM,
            libc::SIGINT,
            libc::SIGHUP,
            libc::SIGQUIT,
            libc::SIGUSR1,
            libc::SIGUSR2,
            libc::SIGXCPU,
            libc::SIGXFSZ,
            libc::SIGVTALRM,
            libc::SIGPROF,
        ] {
            let mut sa: libc::sigaction = std::mem::zeroed();
            sa.sa_sigaction = on_signal as *const () as usize;
            sa.sa_flags = libc::SA_ONSTACK;
            // Every other handled signal is blocked while one answers (the answer is
            // claimed once anyway; this keeps a second signal from interrupting the write).
            libc::sigfillset(&mut sa.sa_mask);
            libc::sigaction(sig, &sa, std::ptr::null_mut());
        }
    }
    // The deadline: a real-time interval timer whose SIGALRM answers like a fatal signal.
    // (A watchdog thread did the same for ~30 µs more per call: a clone and its stack.)
    let tv = libc::timeval {
        tv_sec: deadline.as_secs() as libc::time_t,
        tv_usec: deadline.subsec_micros() as libc::suseconds_t,
    };
    let it = libc::itimerval {
        it_interval: libc::timeval {
            tv_sec: 0,
            tv_usec: 0,
        },
        it_value: tv,
    };
    // SAFETY: setitimer only reads the struct; the SIGALRM handler is installed above.
    unsafe {
        libc::setitimer(libc::ITIMER_REAL, &it, std::ptr::null_mut());
    }
}
