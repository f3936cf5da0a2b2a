//! Content rules: section 7 holds one [`ContentEntry`] per `contains` literal or `regex`
//! (rule, pattern kind, span: the literal in strings, or the DFA in section 8), and section
//! 10 the [`ContentIndex`]: which entries can match a text, found without looking at every
//! entry.
//!
//! Every entry has *guard* literals, one of which occurs in any text it matches: a
//! `contains` entry's own literal; a regex's required prefixes (extracted at build time), or
//! no guard (the regex always runs). Guards of 4 bytes or more go into a hash table on their
//! first 4 bytes; shorter ones, and unguarded regexes, into a short list. Words:
//!
//! ```text
//! nbuckets (a power of two, or 0)   nshort
//! nshort × (entry, offset, length)        length = NO_GUARD: always a candidate
//! (nbuckets + 1) × bucket start           into the bucket entries
//! bucket entries × (entry, offset, length)
//! ```
//!
//! A lookup hashes each 4-byte window of each text and checks that bucket's guards: the
//! work is proportional to the text, and the pages touched to the buckets it hashes to.

use super::{push_words, records, Bad, Kind, SectionError, Span, Strings, Words};

const ENTRY_WORDS: usize = 4;
const GUARD_WORDS: usize = 3;
pub const NO_GUARD: u32 = u32::MAX;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ContentEntry {
    pub rule: u32,
    pub kind: u32,
    pub data: Span,
}

impl ContentEntry {
    pub fn write(&self, out: &mut Vec<u8>) {
        push_words(out, &[self.rule, self.kind, self.data.off, self.data.len]);
    }
}

/// Sections 7 and 10.
#[derive(Clone, Copy, Debug)]
pub struct Contents<'a> {
    entries: Words<'a>,
    count: u32,
    index: ContentIndex<'a>,
}

impl<'a> Contents<'a> {
    pub fn new(entries: &'a [u8], index: &'a [u8]) -> Result<Contents<'a>, SectionError> {
        let n = records(Kind::Content, entries, ENTRY_WORDS)?;
        Ok(Contents {
            entries: Words::new(entries),
            count: u32::try_from(n).map_err(|_| SectionError::new(Kind::Content, "too many"))?,
            index: ContentIndex::new(Kind::ContentIndex, index)?,
        })
    }

    pub fn count(&self) -> u32 {
        self.count
    }

    pub fn get(&self, e: u32) -> Result<ContentEntry, Bad> {
        if e >= self.count {
            return Err(Bad);
        }
        let w: [u32; ENTRY_WORDS] = self.entries.record(e as usize * ENTRY_WORDS)?;
        Ok(ContentEntry {
            rule: w[0],
            kind: w[1],
            data: Span::new(w[2], w[3]),
        })
    }

    /// Entries that may match one of `texts`, sorted, without repeats.
    pub fn candidates(&self, strings: &Strings<'a>, texts: &[&[u8]]) -> Result<Vec<u32>, Bad> {
        self.candidates_memo(strings, texts, &mut IndexMemo::default())
    }

    /// [`Self::candidates`] with a memo kept across lookups ([`ContentIndex::candidates_memo`]).
    pub fn candidates_memo(
        &self,
        strings: &Strings<'a>,
        texts: &[&[u8]],
        memo: &mut IndexMemo<'a>,
    ) -> Result<Vec<u32>, Bad> {
        Ok(self.index.candidates_memo(strings, texts, memo)?.to_vec())
    }
}

/// Section 10 (see the module docs).
#[derive(Clone, Copy, Debug)]
pub struct ContentIndex<'a> {
    words: Words<'a>,
    nb: u32,
    nshort: usize,
}

pub fn hash4(b: &[u8]) -> u32 {
    u32::from_le_bytes([b[0], b[1], b[2], b[3]]).wrapping_mul(0x9E37_79B1)
}

pub fn bucket(h: u32, nbuckets: u32) -> u32 {
    // nbuckets is a power of two ≥ 1: take the high bits.
    if nbuckets <= 1 {
        0
    } else {
        h >> (32 - nbuckets.trailing_zeros())
    }
}

impl<'a> ContentIndex<'a> {
    /// Check an index (the content index, or a segment group's filter, `groups.rs`).
    pub fn new(kind: Kind, bytes: &'a [u8]) -> Result<ContentIndex<'a>, SectionError> {
        let bad = |what: &str| SectionError::new(kind, what);
        let words = Words::new(bytes);
        if !bytes.len().is_multiple_of(4) {
            return Err(bad("not whole words"));
        }
        let [nb, nshort]: [u32; 2] = words.record(0).map_err(|_| bad("short header"))?;
        if nb != 0 && !nb.is_power_of_two() {
            return Err(bad("bucket count is not a power of two"));
        }
        let nshort = nshort as usize;
        let starts = nshort
            .checked_mul(GUARD_WORDS)
            .and_then(|w| w.checked_add(2))
            .ok_or_else(|| bad("short list overflows"))?;
        // The build always writes nb + 1 bucket starts (one when there are no buckets).
        let total = words
            .get(starts + nb as usize)
            .map_err(|_| bad("bucket starts run past the end"))?;
        let want = (total as usize)
            .checked_mul(GUARD_WORDS)
            .and_then(|t| t.checked_add(starts + nb as usize + 1));
        if want != Some(words.len()) {
            return Err(bad("counts and length disagree"));
        }
        Ok(ContentIndex { words, nb, nshort })
    }

    /// Build the section from (entry, guards); `None` guards: always a candidate.
    /// Guard bytes go to `strings` through `add`.
    pub fn build(
        entries: &[(u32, Option<Vec<Vec<u8>>>)],
        mut add: impl FnMut(&[u8]) -> Span,
    ) -> Vec<u8> {
        let mut short: Vec<[u32; 3]> = Vec::new();
        let mut long: Vec<(u32, [u32; 3])> = Vec::new();
        // One copy of each guard: short guards with one span are searched once per text
        // (10,000 rules with the same short literal cost one `memmem`, not 10,000).
        let mut spans: std::collections::HashMap<&[u8], Span> = std::collections::HashMap::new();
        for (e, guards) in entries {
            match guards {
                None => short.push([*e, 0, NO_GUARD]),
                Some(gs) => {
                    for g in gs {
                        let s = *spans.entry(g.as_slice()).or_insert_with(|| add(g));
                        if g.len() >= 4 {
                            long.push((hash4(g), [*e, s.off, s.len]));
                        } else {
                            short.push([*e, s.off, s.len]);
                        }
                    }
                }
            }
        }
        // Short guards grouped by span (entry order inside), so a lookup reuses the last
        // search's answer.
        short.sort_by_key(|g| (g[2] == NO_GUARD, g[1], g[2], g[0]));
        let nb = if long.is_empty() {
            0
        } else {
            (long.len() * 2).next_power_of_two() as u32
        };
        let mut buckets: Vec<Vec<[u32; 3]>> = vec![Vec::new(); nb as usize];
        for (h, g) in long {
            buckets[bucket(h, nb) as usize].push(g);
        }
        let mut w: Vec<u32> = vec![nb, short.len() as u32];
        for g in &short {
            w.extend_from_slice(g);
        }
        let mut at = 0u32;
        for b in &buckets {
            w.push(at);
            at += b.len() as u32;
        }
        w.push(at);
        for b in &buckets {
            for g in b {
                w.extend_from_slice(g);
            }
        }
        let mut out = Vec::new();
        push_words(&mut out, &w);
        out
    }

    /// Entries that may match one of `texts`, sorted, without repeats.
    pub fn candidates(&self, strings: &Strings<'a>, texts: &[&[u8]]) -> Result<Vec<u32>, Bad> {
        Ok(self
            .candidates_memo(strings, texts, &mut IndexMemo::default())?
            .to_vec())
    }

    /// [`Self::candidates`], keeping in `memo` what one lookup learns about this index's
    /// layout (pass the same memo for the same index only). A command's segments, readings
    /// and whole-command texts ask one index thousands of times: without it each lookup
    /// walks the whole short list (10,000 rules sharing the guard `a1` made every lookup
    /// 10,000 steps) and every guard of a crowded bucket at each window (2,000 `needleNx`
    /// literals share the bucket of `need`), and builds the same list of 10,000 candidates
    /// again for every segment that holds `a1`.
    pub fn candidates_memo(
        &self,
        strings: &Strings<'a>,
        texts: &[&[u8]],
        memo: &mut IndexMemo<'a>,
    ) -> Result<std::rc::Rc<[u32]>, Bad> {
        let idx = self.words;
        if memo.runs.is_none() {
            memo.runs = Some(self.short_runs()?);
        }
        let mut found: Vec<u32> = Vec::new();
        for (k, r) in memo.runs.as_deref().unwrap_or_default().iter().enumerate() {
            let hit = r.len == NO_GUARD || {
                let lit = strings.bytes(Span::new(r.off, r.len))?;
                texts.iter().any(|t| memchr::memmem::find(t, lit).is_some())
            };
            if hit {
                found.push(k as u32);
            }
        }
        let mut long = self.long_hits(strings, texts, memo)?;
        long.sort_unstable();
        long.dedup();
        let key = (found, long);
        if let Some(c) = memo.sets.get(&key) {
            return Ok(c.clone());
        }
        let mut out = key.1.clone();
        for &k in &key.0 {
            let r = &memo.runs.as_deref().unwrap_or_default()[k as usize];
            for i in r.start..r.end {
                let [e, _, _]: [u32; 3] = idx.record(2 + i * GUARD_WORDS)?;
                out.push(e);
            }
        }
        out.sort_unstable();
        out.dedup();
        let c: std::rc::Rc<[u32]> = out.into();
        if memo.sets.len() >= MAX_SETS {
            memo.sets.clear();
        }
        memo.sets.insert(key, c.clone());
        Ok(c)
    }

    /// The entries whose long guard occurs in one of `texts` (with repeats).
    fn long_hits(
        &self,
        strings: &Strings<'a>,
        texts: &[&[u8]],
        memo: &mut IndexMemo<'a>,
    ) -> Result<Vec<u32>, Bad> {
        let idx = self.words;
        let mut out = Vec::new();
        let nb = self.nb;
        if nb == 0 {
            return Ok(out);
        }
        let starts = 2 + self.nshort * GUARD_WORDS;
        let ents = starts + nb as usize + 1;
        // The bucket starts, bounds-checked once: the loop below runs for every 4-byte window
        // of every text (10,000-character commands), and most buckets are empty.
        let st = idx.sub(starts, nb as usize + 1)?;
        for t in texts {
            for (i, w) in t.windows(4).enumerate() {
                let b = bucket(hash4(w), nb) as usize;
                let (s, end) = (st.get(b)?, st.get(b + 1)?);
                if end.saturating_sub(s) as usize > CROWDED {
                    let m = match memo.crowded.entry(b as u32) {
                        std::collections::hash_map::Entry::Occupied(o) => o.into_mut(),
                        std::collections::hash_map::Entry::Vacant(v) => {
                            v.insert(Crowded::new(idx, strings, ents, s..end)?)
                        }
                    };
                    m.find(&t[i..], &mut out);
                    continue;
                }
                for g in s..end {
                    let [e, o, l]: [u32; 3] = idx.record(ents + g as usize * GUARD_WORDS)?;
                    let lit = strings.bytes(Span::new(o, l))?;
                    if t[i..].starts_with(lit) {
                        out.push(e);
                    }
                }
            }
        }
        Ok(out)
    }

    /// The short list as runs of records with one guard (the build sorts it by guard; an
    /// unsorted list only makes more runs).
    fn short_runs(&self) -> Result<Vec<Run>, Bad> {
        let mut runs: Vec<Run> = Vec::new();
        for i in 0..self.nshort {
            let [_, o, l]: [u32; 3] = self.words.record(2 + i * GUARD_WORDS)?;
            match runs.last_mut() {
                Some(r) if (r.off, r.len) == (o, l) && r.end == i => r.end = i + 1,
                _ => runs.push(Run {
                    off: o,
                    len: l,
                    start: i,
                    end: i + 1,
                }),
            }
        }
        Ok(runs)
    }
}

/// Buckets with more guards than this are looked up by guard bytes (see [`Crowded`]).
const CROWDED: usize = 8;

/// Candidate lists remembered per index (by which guards were found).
const MAX_SETS: usize = 256;

/// What lookups learnt about one index (see [`ContentIndex::candidates_memo`]).
#[derive(Default)]
pub struct IndexMemo<'a> {
    runs: Option<Vec<Run>>,
    crowded: std::collections::HashMap<u32, Crowded<'a>>,
    /// (found short runs, long-guard entries found) → the candidates.
    #[allow(clippy::type_complexity)]
    sets: std::collections::HashMap<(Vec<u32>, Vec<u32>), std::rc::Rc<[u32]>>,
}

/// Short-list records `start..end`, all with the guard at (off, len).
struct Run {
    off: u32,
    len: u32,
    start: usize,
    end: usize,
}

/// A crowded bucket's guards by their bytes, with their distinct lengths: a window is
/// looked up once per length, not compared with every guard.
struct Crowded<'a> {
    lens: Vec<usize>,
    by: std::collections::HashMap<&'a [u8], Vec<u32>>,
}

impl<'a> Crowded<'a> {
    fn new(
        idx: Words<'a>,
        strings: &Strings<'a>,
        ents: usize,
        guards: std::ops::Range<u32>,
    ) -> Result<Crowded<'a>, Bad> {
        let mut by: std::collections::HashMap<&'a [u8], Vec<u32>> = Default::default();
        for g in guards {
            let [e, o, l]: [u32; 3] = idx.record(ents + g as usize * GUARD_WORDS)?;
            by.entry(strings.bytes(Span::new(o, l))?)
                .or_default()
                .push(e);
        }
        let mut lens: Vec<usize> = by.keys().map(|k| k.len()).collect();
        lens.sort_unstable();
        lens.dedup();
        Ok(Crowded { lens, by })
    }

    /// Push the entries whose guard starts `text`.
    fn find(&self, text: &[u8], out: &mut Vec<u32>) {
        for &n in &self.lens {
            let Some(w) = text.get(..n) else {
                break;
            };
            if let Some(es) = self.by.get(w) {
                out.extend_from_slice(es);
            }
        }
    }
}
