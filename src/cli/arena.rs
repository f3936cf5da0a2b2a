//! The `polc` binary's allocator for one decision (issue 12 item 6): a bump arena.
//!
//! A hook call or `polc decide` is one decision per process, and its walk of a 100 kB
//! command makes some 360,000 small allocations that live until the exit (they are not
//! freed: `shell::walk::keep_walks_until_exit`). glibc's `malloc` carves each of them from
//! the top of its heap (its caches hold only freed blocks): ≈ 120 instructions a call, a
//! quarter of the instructions of `ls x0; ls x1; …` (10,000 segments). Here an allocation is
//! a pointer bump (≈ 15 instructions), a free gives back only the last block, and a `realloc`
//! of the last block (a growing `Vec` or `String`) grows it in place.
//!
//! Only after [`enable`] (the `decide` and `hook` commands), and only inside one reserved
//! region of [`REGION`] bytes (mapped on [`enable`], without reserving swap; pages are taken
//! when first written): what was allocated before, what does not fit and everything once the
//! region is full goes to the system allocator, as does any block that does not lie in the
//! region when it is freed or resized. A decision at the documented bounds allocates
//! 30–40 MB in all (`valgrind --tool=dhat`), so the region is never the limit; past it the
//! process is as before. The compiler, `explain` and the tests keep the system allocator
//! (nothing enables the arena there; the library's unit tests use an [`Arena`] value
//! directly).

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

/// The region's size: address space, not memory (only written pages are resident).
pub const REGION: usize = 256 << 20;

/// The region `[BASE, END)` once enabled (0 before), and the first free byte in it.
static BASE: AtomicUsize = AtomicUsize::new(0);
static END: AtomicUsize = AtomicUsize::new(0);
static TOP: AtomicUsize = AtomicUsize::new(0);

/// The binary's global allocator: the system allocator until [`enable`], then the arena.
pub struct Arena;

/// Map the region and allocate from it from now on (the rest of the process is one
/// decision). Does nothing when called again or when the region cannot be mapped (the
/// system allocator then serves everything, as before).
pub fn enable() {
    if BASE.load(Ordering::Acquire) != 0 {
        return;
    }
    // SAFETY: an anonymous private mapping at an address the kernel chooses; the result is
    // checked before use and never unmapped (the process exits after its decision).
    let p = unsafe {
        libc::mmap(
            std::ptr::null_mut(),
            REGION,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE,
            -1,
            0,
        )
    };
    if p == libc::MAP_FAILED || p.is_null() {
        return;
    }
    let base = p as usize;
    if BASE
        .compare_exchange(0, base, Ordering::AcqRel, Ordering::Acquire)
        .is_err()
    {
        // Enabled by another thread meanwhile: give this mapping back.
        // SAFETY: the mapping made just above, used by nothing.
        unsafe { libc::munmap(p, REGION) };
        return;
    }
    TOP.store(base, Ordering::Release);
    END.store(base + REGION, Ordering::Release);
}

/// Whether `p` lies in the region (an arena block).
fn owned(p: usize) -> bool {
    let end = END.load(Ordering::Acquire);
    end != 0 && p >= BASE.load(Ordering::Acquire) && p < end
}

/// A block of `size` bytes aligned to `align` from the region, or None when the arena is
/// off or full.
fn bump(size: usize, align: usize) -> Option<*mut u8> {
    let end = END.load(Ordering::Acquire);
    if end == 0 {
        return None;
    }
    let mut top = TOP.load(Ordering::Relaxed);
    loop {
        let start = top.checked_add(align - 1)? & !(align - 1);
        let next = start.checked_add(size.max(1))?;
        if next > end {
            return None;
        }
        match TOP.compare_exchange_weak(top, next, Ordering::Relaxed, Ordering::Relaxed) {
            Ok(_) => return Some(start as *mut u8),
            Err(now) => top = now,
        }
    }
}

// SAFETY: every block handed out is either the system allocator's (and goes back to it:
// `owned` is false for it) or a range of the region no other live block overlaps: `TOP`
// only moves past a block when it is handed out, and only moves back over the last block
// (`dealloc`, `realloc` in place) with a compare-and-swap that fails when another block was
// handed out after it.
unsafe impl GlobalAlloc for Arena {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        match bump(layout.size(), layout.align()) {
            Some(p) => p,
            // SAFETY: the caller's layout, passed on.
            None => unsafe { System.alloc(layout) },
        }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        let p = ptr as usize;
        if owned(p) {
            // The last block gives its bytes back; any other is left (the process exits
            // soon).
            let _ = TOP.compare_exchange(
                p + layout.size().max(1),
                p,
                Ordering::Relaxed,
                Ordering::Relaxed,
            );
        } else {
            // SAFETY: a block of the system allocator with its layout.
            unsafe { System.dealloc(ptr, layout) }
        }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let p = ptr as usize;
        if !owned(p) {
            // SAFETY: a block of the system allocator, as the caller gives it.
            return unsafe { System.realloc(ptr, layout, new_size) };
        }
        if new_size <= layout.size() {
            // Shrinking: the block stays where it is (its tail is left unless it is last).
            let _ = TOP.compare_exchange(
                p + layout.size().max(1),
                p + new_size.max(1),
                Ordering::Relaxed,
                Ordering::Relaxed,
            );
            return ptr;
        }
        // The last block grows where it is.
        let old_end = p + layout.size().max(1);
        if let Some(new_end) = p.checked_add(new_size.max(1)) {
            if new_end <= END.load(Ordering::Acquire)
                && TOP
                    .compare_exchange(old_end, new_end, Ordering::Relaxed, Ordering::Relaxed)
                    .is_ok()
            {
                return ptr;
            }
        }
        // SAFETY: `new_size` with the block's alignment is a valid layout (the caller's
        // contract for `realloc`).
        let new_layout = unsafe { Layout::from_size_align_unchecked(new_size, layout.align()) };
        // SAFETY: as `alloc`.
        let new = unsafe { self.alloc(new_layout) };
        if !new.is_null() {
            // SAFETY: both blocks are live, distinct, and at least this long.
            unsafe {
                std::ptr::copy_nonoverlapping(ptr, new, layout.size().min(new_size));
                self.dealloc(ptr, layout);
            }
        }
        new
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // One test: the region is process-wide (the test binary's own allocator is the system
    // one; this drives an `Arena` value by hand).
    #[test]
    fn arena_blocks_are_disjoint_aligned_and_fall_back_to_the_system() {
        let a = Arena;
        // Before `enable`: the system's blocks, freed by it.
        let l = Layout::from_size_align(24, 8).unwrap();
        // SAFETY: valid layouts; every block is written within its size and freed once.
        unsafe {
            let s = a.alloc(l);
            assert!(!s.is_null() && !owned(s as usize));
            s.write_bytes(7, 24);
            a.dealloc(s, l);
        }
        enable();
        enable(); // a second call changes nothing
        let base = BASE.load(Ordering::Acquire);
        assert_ne!(base, 0);
        // SAFETY: as above.
        unsafe {
            let x = a.alloc(Layout::from_size_align(3, 1).unwrap());
            let y = a.alloc(Layout::from_size_align(16, 16).unwrap());
            assert!(owned(x as usize) && owned(y as usize));
            assert_eq!(y as usize % 16, 0);
            assert!(y as usize >= x as usize + 3);
            x.write_bytes(1, 3);
            y.write_bytes(2, 16);
            // The last block grows in place; the first one, not last, moves with its bytes.
            let y2 = a.realloc(y, Layout::from_size_align(16, 16).unwrap(), 64);
            assert_eq!(y2, y);
            let x2 = a.realloc(x, Layout::from_size_align(3, 1).unwrap(), 10);
            assert_ne!(x2, x);
            assert_eq!(std::slice::from_raw_parts(x2, 3), &[1, 1, 1]);
            assert!(x2 as usize >= y2 as usize + 64);
            // Freeing the last block gives it back: the next block starts there.
            a.dealloc(x2, Layout::from_size_align(10, 1).unwrap());
            let z = a.alloc(Layout::from_size_align(1, 1).unwrap());
            assert_eq!(z, x2);
            // Too big for what is left of the region: the system's block, freed by it,
            // and resized by it.
            let big = Layout::from_size_align(REGION, 8).unwrap();
            let b = a.alloc(big);
            assert!(!b.is_null() && !owned(b as usize));
            b.write_bytes(3, 16);
            let b2 = a.realloc(b, big, REGION + 4096);
            assert!(!owned(b2 as usize));
            assert_eq!(*b2.add(15), 3);
            a.dealloc(b2, Layout::from_size_align(REGION + 4096, 8).unwrap());
            // Zeroed blocks are zero even over given-back bytes.
            let w = a.alloc(Layout::from_size_align(32, 8).unwrap());
            w.write_bytes(9, 32);
            a.dealloc(w, Layout::from_size_align(32, 8).unwrap());
            let zw = a.alloc_zeroed(Layout::from_size_align(32, 8).unwrap());
            assert!(std::slice::from_raw_parts(zw, 32).iter().all(|&b| b == 0));
        }
    }
}
