//! A large group's candidates in one pass (issue 12 item 6).
//!
//! A segment group with a filter is asked, for each reading, which of its entries may match
//! definitely: those whose required literal (`pattern::required_literal`, the guard the
//! table's filter holds) occurs in the reading's known bytes. The table's filter answers
//! with one substring search per distinct short guard and a hash probe per 4-byte window:
//! for 10,000 globs `* *aN*b*…` that is ≈ 1,100 searches a reading, ≈ 17,000 instructions
//! for a reading as short as `ls x0`, so 10,000 segments spent more on finding candidates
//! than on anything else. A group asked often enough gets a [`GuardScan`] instead: one
//! automaton over the group's distinct guards (`literals.rs`), built from the entries' own
//! patterns, that finds every guard occurring in a reading in one pass over it.
//!
//! The answer is the same set: guards are computed by the same function from the same
//! pattern bytes, every occurrence is reported (overlapping search), and an entry with an
//! empty guard is always a candidate. `index_tests.rs` compares both on random groups.

use super::literals::Literals;
use crate::pattern::required_literal;
use std::collections::HashMap;
use std::rc::Rc;

/// Lookups of a group through the table's filter before its automaton is built: building
/// costs about as much as a few dozen filter lookups of a large group, and a short command
/// asks each group only a few times.
pub(super) const BUILD_AFTER: u32 = 64;

/// Groups with fewer entries keep the table's filter (its lookups are cheap there).
pub(super) const MIN_ENTRIES: usize = 64;

/// Candidate lists remembered per group (by which guards were found).
const MAX_SETS: usize = 256;

/// What a group's lookups use: the table's filter until [`BUILD_AFTER`] lookups, then an
/// automaton (or `Off`: the group is too small).
pub(super) enum GroupScan {
    Counting(u32),
    Built(Box<GuardScan>),
    Off,
}

impl Default for GroupScan {
    fn default() -> GroupScan {
        GroupScan::Counting(0)
    }
}

/// One group's entries by guard, and the automaton over the guards.
pub(super) struct GuardScan {
    ac: Literals,
    /// Guard `k`'s entries are `entries[starts[k]..starts[k + 1]]`, ascending.
    starts: Vec<u32>,
    entries: Vec<u32>,
    /// Entries with an empty guard: candidates for every reading (`none`: only they).
    always: Vec<u32>,
    none: Rc<[u32]>,
    /// Found guards (sorted pattern ids) → the candidates.
    sets: HashMap<Vec<u32>, Rc<[u32]>>,
    found: Vec<u32>,
}

impl GuardScan {
    /// The scan of entries `(entry, pattern body)`, in entry order.
    pub(super) fn build<'p>(entries: impl Iterator<Item = (u32, &'p [u8])>) -> GuardScan {
        // (guard, entry), sorted: each distinct guard is one run, its entries ascending.
        // The guard's first 8 bytes as a number order them as the bytes do (a tie is
        // settled by the bytes): most comparisons are one integer comparison, not a
        // `memcmp` call.
        let mut by: Vec<(u64, &'p [u8], u32)> = Vec::new();
        let mut always = Vec::new();
        for (e, body) in entries {
            match required_literal(body) {
                [] => always.push(e),
                lit => {
                    let mut head = [0u8; 8];
                    let n = lit.len().min(8);
                    head[..n].copy_from_slice(&lit[..n]);
                    by.push((u64::from_be_bytes(head), lit, e));
                }
            }
        }
        by.sort_unstable();
        let mut guards: Vec<&'p [u8]> = Vec::new();
        let mut starts = Vec::new();
        let mut flat = Vec::with_capacity(by.len());
        for (_, lit, e) in by {
            if guards.last() != Some(&lit) {
                guards.push(lit);
                starts.push(flat.len() as u32);
            }
            flat.push(e);
        }
        starts.push(flat.len() as u32);
        GuardScan {
            ac: Literals::new(&guards),
            starts,
            entries: flat,
            none: always.clone().into(),
            always,
            sets: HashMap::new(),
            found: Vec::new(),
        }
    }

    /// The entries whose guard occurs in `known`, and those with none: sorted, no repeats.
    pub(super) fn candidates(&mut self, known: &[u8]) -> Rc<[u32]> {
        self.found.clear();
        self.ac.find_all(known, &mut self.found);
        if self.found.is_empty() {
            return self.none.clone();
        }
        self.found.sort_unstable();
        if let Some(c) = self.sets.get(&self.found) {
            return c.clone();
        }
        let mut out = self.always.clone();
        for &k in &self.found {
            let (s, e) = (self.starts[k as usize], self.starts[k as usize + 1]);
            out.extend_from_slice(&self.entries[s as usize..e as usize]);
        }
        out.sort_unstable();
        out.dedup();
        let c: Rc<[u32]> = out.into();
        if self.sets.len() >= MAX_SETS {
            self.sets.clear();
        }
        self.sets.insert(self.found.clone(), c.clone());
        c
    }
}
