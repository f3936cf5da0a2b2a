//! The per-scan memo: many rules sharing one pattern are matched once per reading.

use crate::pattern::Match;
use std::collections::HashMap;

/// Scans of more entries than this remember each pattern's result: many rules with the same
/// pattern (10,000 copies of one glob) are matched once per reading.
const MEMO_MIN: usize = 16;

#[derive(Default)]
pub(super) struct Memo<'a> {
    on: bool,
    seen: HashMap<(&'a [u8], bool), Option<Match>, std::hash::BuildHasherDefault<PatternHasher>>,
}

/// A multiply-rotate hash for the memo's keys: pattern bytes from the table (the policy's
/// author chose them, not the command's), hashed once per entry scanned, where SipHash cost
/// as much as the match.
#[derive(Default)]
struct PatternHasher(u64);

impl std::hash::Hasher for PatternHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for c in bytes.chunks(8) {
            let mut w = [0u8; 8];
            w[..c.len()].copy_from_slice(c);
            self.0 =
                (self.0.rotate_left(5) ^ u64::from_le_bytes(w)).wrapping_mul(0x517c_c1b7_2722_0a95);
        }
    }
}

impl<'a> Memo<'a> {
    /// A memo for a scan of `entries` entries: on only past `MEMO_MIN`.
    pub(super) fn for_scan(entries: usize) -> Memo<'a> {
        Memo {
            on: entries > MEMO_MIN,
            ..Memo::default()
        }
    }

    pub(super) fn get(
        &mut self,
        p: &'a [u8],
        definite: bool,
        f: impl FnOnce() -> Option<Match>,
    ) -> Option<Match> {
        if !self.on {
            return f();
        }
        *self.seen.entry((p, definite)).or_insert_with(f)
    }
}
