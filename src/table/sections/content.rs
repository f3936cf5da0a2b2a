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
    pub fn candidates(&self, strings: &Strings<'_>, texts: &[&[u8]]) -> Result<Vec<u32>, Bad> {
        let mut c = self.index.candidates(strings, texts)?;
        c.sort_unstable();
        c.dedup();
        Ok(c)
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
        for (e, guards) in entries {
            match guards {
                None => short.push([*e, 0, NO_GUARD]),
                Some(gs) => {
                    for g in gs {
                        let s = add(g);
                        if g.len() >= 4 {
                            long.push((hash4(g), [*e, s.off, s.len]));
                        } else {
                            short.push([*e, s.off, s.len]);
                        }
                    }
                }
            }
        }
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

    /// Entries that may match one of `texts` (with repeats).
    pub fn candidates(&self, strings: &Strings<'_>, texts: &[&[u8]]) -> Result<Vec<u32>, Bad> {
        let idx = self.words;
        let mut out = Vec::new();
        for i in 0..self.nshort {
            let [e, o, l]: [u32; 3] = idx.record(2 + i * GUARD_WORDS)?;
            if l == NO_GUARD {
                out.push(e);
                continue;
            }
            let lit = strings.bytes(Span::new(o, l))?;
            if texts.iter().any(|t| memchr::memmem::find(t, lit).is_some()) {
                out.push(e);
            }
        }
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
}
