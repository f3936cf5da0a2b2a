//! Read leases on mapped tables (issue 12 item 1): a large table is mapped, not copied,
//! so its bytes stay the file's. A read lease (`F_SETLEASE F_RDLCK`) is granted only while
//! no one has the file open for writing (a writable shared map counts), and the kernel
//! breaks it — sending SIGIO to us before the writer's `open`/`truncate` returns — the
//! moment anyone opens it for writing or truncates it. The handler releases every lease
//! at once (so the writer waits microseconds, not the lease-break timeout) and marks them
//! broken; a decision that read a broken lease's map is denied ("changed while read").
//!
//! Async-signal safety: the handler only loads/stores atomics and calls `fcntl`.

use std::os::fd::RawFd;
use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};
use std::sync::Once;

const SLOTS: usize = 16;

#[allow(clippy::declare_interior_mutable_const)]
const FREE: AtomicI32 = AtomicI32::new(-1);
static FDS: [AtomicI32; SLOTS] = [FREE; SLOTS];
#[allow(clippy::declare_interior_mutable_const)]
const CLEAN: AtomicBool = AtomicBool::new(false);
static BROKEN: [AtomicBool; SLOTS] = [CLEAN; SLOTS];
static INSTALL: Once = Once::new();

extern "C" fn on_sigio(_sig: libc::c_int) {
    for (fd, broken) in FDS.iter().zip(BROKEN.iter()) {
        let f = fd.load(Ordering::SeqCst);
        if f >= 0 {
            broken.store(true, Ordering::SeqCst);
            // SAFETY: fcntl is async-signal-safe; releasing a lease on our own descriptor.
            unsafe {
                libc::fcntl(f, libc::F_SETLEASE, libc::F_UNLCK);
            }
        }
    }
}

fn install() {
    INSTALL.call_once(|| {
        // SAFETY: the handler only touches atomics and calls fcntl.
        unsafe {
            let mut sa: libc::sigaction = std::mem::zeroed();
            sa.sa_sigaction = on_sigio as *const () as usize;
            sa.sa_flags = libc::SA_RESTART;
            libc::sigemptyset(&mut sa.sa_mask);
            libc::sigaction(libc::SIGIO, &sa, std::ptr::null_mut());
        }
    });
}

/// A held read lease; released on drop.
#[derive(Debug)]
pub struct Lease {
    slot: usize,
    fd: RawFd,
}

impl Lease {
    /// Takes a read lease on `fd`. `None` when the kernel refuses (someone has the file open
    /// for writing, we do not own it, leases are off, the file system lacks them) or every
    /// slot is taken: the caller then copies the file instead.
    pub fn take(fd: RawFd) -> Option<Lease> {
        install();
        let slot = (0..SLOTS).find(|&i| {
            FDS[i]
                .compare_exchange(-1, fd, Ordering::SeqCst, Ordering::SeqCst)
                .is_ok()
        })?;
        BROKEN[slot].store(false, Ordering::SeqCst);
        // SAFETY: fcntl on a descriptor the caller owns.
        if unsafe { libc::fcntl(fd, libc::F_SETLEASE, libc::F_RDLCK) } != 0 {
            FDS[slot].store(-1, Ordering::SeqCst);
            return None;
        }
        Some(Lease { slot, fd })
    }

    /// Did anyone open the file for writing or truncate it since the lease was taken?
    pub fn broken(&self) -> bool {
        BROKEN[self.slot].load(Ordering::SeqCst)
            // SAFETY: F_GETLEASE only reports. A pending break reads as F_UNLCK.
            || unsafe { libc::fcntl(self.fd, libc::F_GETLEASE) } != libc::F_RDLCK
    }
}

impl Drop for Lease {
    fn drop(&mut self) {
        // SAFETY: releasing our lease on a descriptor still open (the table owns both).
        unsafe {
            libc::fcntl(self.fd, libc::F_SETLEASE, libc::F_UNLCK);
        }
        FDS[self.slot].store(-1, Ordering::SeqCst);
    }
}
