//! Grouped entries: the segment patterns of deny/ask (sections 3, 4, 11) and allow (5, 6,
//! 12) rules, and the tool patterns (9, 14). Each has an entry section and an index:
//!
//! ```text
//! index:  group count G, wild-group start, wild-group count, wild-group filter (offset, length),
//!         G × (key offset, key length, first entry, entry count, filter offset, filter length)
//!                                                                     sorted by key bytes
//! ```
//!
//! The *wild group* holds entries with no key (a segment pattern whose first word has a `*`,
//! a tool name with a `*`) and is read for every lookup. Inside a group, entries are in rule
//! order. Segment indexes also have a [`KeyHash`] over the group keys.
//!
//! A segment group of at least [`FILTER_MIN`] entries (the wild group too) has a *filter*
//! (sections 16, 17; offset and length in words, 0 0 = none): a [`ContentIndex`] over its
//! entries whose guard is the pattern's `pattern::required_literal`. A reading with no
//! unknown bytes is matched only against the entries whose literal occurs in it, so a
//! decision does not grow with the number of globs that share a program (issue 16); a reading
//! with unknown bytes scans the whole group.
//!
//! Entries: a segment pattern is ([`SegEntry`]) rule, pattern (span in strings: a flag byte
//! then the body, `src/pattern.rs`); a tool pattern is ([`ToolEntry`]) rule, pattern kind,
//! text (span).

use super::content::IndexMemo;
use super::{
    push_words, records, Bad, ContentIndex, Kind, SectionError, Span, Strings, StringsWriter, Words,
};
use std::ops::Range;

/// Index header words, and words per group.
const HEAD: usize = 5;
const GROUP_WORDS: usize = 6;
/// Groups with at least this many entries get a filter.
pub const FILTER_MIN: usize = 8;
/// Words per segment entry and per tool entry.
const SEG_WORDS: usize = 3;
const TOOL_WORDS: usize = 4;

/// A segment pattern entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SegEntry {
    pub rule: u32,
    pub pattern: Span,
}

/// A tool pattern entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ToolEntry {
    pub rule: u32,
    pub kind: u32,
    pub text: Span,
}

impl ToolEntry {
    fn words(&self) -> [u32; TOOL_WORDS] {
        [self.rule, self.kind, self.text.off, self.text.len]
    }
}

/// One group of the index.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Group {
    pub key: Span,
    pub start: u32,
    pub count: u32,
    /// The filter's (word offset, word length) in the filter section; length 0: none.
    pub filter: (u32, u32),
}

/// An entry section with its index (and, for segments, its key hash).
#[derive(Clone, Copy, Debug)]
pub struct GroupIndex<'a> {
    entries: Words<'a>,
    width: usize,
    entry_count: u32,
    idx: Words<'a>,
    groups: u32,
    wild: Group,
    hash: Option<KeyHash<'a>>,
    filters: Words<'a>,
    filter_kind: Kind,
}

impl<'a> GroupIndex<'a> {
    /// A segment index: `kinds` = (patterns, index, hash, filters), and their bytes.
    pub fn segments(kinds: [Kind; 4], secs: [&'a [u8]; 4]) -> Result<GroupIndex<'a>, SectionError> {
        let mut g = GroupIndex::new(kinds[0], kinds[1], secs[0], SEG_WORDS, secs[1])?;
        g.hash = Some(KeyHash::new(kinds[2], secs[2])?);
        if !secs[3].len().is_multiple_of(4) {
            return Err(SectionError::new(kinds[3], "not whole words"));
        }
        g.filters = Words::new(secs[3]);
        g.filter_kind = kinds[3];
        Ok(g)
    }

    /// The path index (section 19 over the entries of section 15, with its key hash, 20).
    pub fn paths(
        pats: &'a [u8],
        idx: &'a [u8],
        hash: &'a [u8],
    ) -> Result<GroupIndex<'a>, SectionError> {
        let mut g = GroupIndex::new(Kind::Paths, Kind::PathIndex, pats, 8, idx)?;
        g.hash = Some(KeyHash::new(Kind::PathHash, hash)?);
        Ok(g)
    }

    /// The tool-pattern index.
    pub fn tools(pats: &'a [u8], idx: &'a [u8]) -> Result<GroupIndex<'a>, SectionError> {
        GroupIndex::new(Kind::ToolPatterns, Kind::ToolIndex, pats, TOOL_WORDS, idx)
    }

    fn new(
        ek: Kind,
        ik: Kind,
        entries: &'a [u8],
        width: usize,
        idx: &'a [u8],
    ) -> Result<GroupIndex<'a>, SectionError> {
        let n = records(ek, entries, width)?;
        let entry_count = u32::try_from(n).map_err(|_| SectionError::new(ek, "too many"))?;
        let iw = Words::new(idx);
        let bad = |what: &str| SectionError::new(ik, what);
        if !idx.len().is_multiple_of(4) || iw.len() < HEAD {
            return Err(bad("shorter than its header or not whole words"));
        }
        let head: [u32; HEAD] = iw.record(0).map_err(|_| bad("header"))?;
        let want = (head[0] as usize)
            .checked_mul(GROUP_WORDS)
            .and_then(|w| w.checked_add(HEAD));
        if want != Some(iw.len()) {
            return Err(bad(&format!(
                "{} groups do not fill {} words",
                head[0],
                iw.len()
            )));
        }
        if head[1]
            .checked_add(head[2])
            .is_none_or(|end| end > entry_count)
        {
            return Err(bad("the wild group runs past the entries"));
        }
        Ok(GroupIndex {
            entries: Words::new(entries),
            width,
            entry_count,
            idx: iw,
            groups: head[0],
            wild: Group {
                key: Span::default(),
                start: head[1],
                count: head[2],
                filter: (head[3], head[4]),
            },
            hash: None,
            filters: Words::new(&[]),
            filter_kind: ik,
        })
    }

    pub fn group_count(&self) -> u32 {
        self.groups
    }

    pub fn entry_count(&self) -> u32 {
        self.entry_count
    }

    /// The wild group (its key is empty).
    pub fn wild(&self) -> Group {
        self.wild
    }

    /// Entries of group `g`.
    pub fn entries(&self, g: &Group) -> Result<Range<u32>, Bad> {
        self.range(g.start, g.count)
    }

    /// The entries of `g` that may match `reading` (which has no unknown bytes), in entry
    /// order; `None` when the group has no filter (every entry may).
    pub fn candidates(
        &self,
        g: &Group,
        strings: &Strings<'a>,
        reading: &[u8],
    ) -> Result<Option<Vec<u32>>, Bad> {
        Ok(self
            .candidates_memo(g, strings, reading, &mut IndexMemo::default())?
            .map(|c| c.to_vec()))
    }

    /// [`Self::candidates`] with a memo kept across lookups of the same group's filter
    /// (`ContentIndex::candidates_memo`).
    pub fn candidates_memo(
        &self,
        g: &Group,
        strings: &Strings<'a>,
        reading: &[u8],
        memo: &mut IndexMemo<'a>,
    ) -> Result<Option<std::rc::Rc<[u32]>>, Bad> {
        if g.filter.1 == 0 {
            return Ok(None);
        }
        let w = self.filters.sub(g.filter.0 as usize, g.filter.1 as usize)?;
        let f = ContentIndex::new(self.filter_kind, w.bytes()).map_err(|_| Bad)?;
        let c = f.candidates_memo(strings, &[reading], memo)?;
        // Sorted: the first and last tell whether all are in the group.
        let range = self.entries(g)?;
        if c.first().is_some_and(|e| !range.contains(e))
            || c.last().is_some_and(|e| !range.contains(e))
        {
            return Err(Bad);
        }
        Ok(Some(c))
    }

    /// Entries `start .. start + count`, checked against the entry count.
    pub fn range(&self, start: u32, count: u32) -> Result<Range<u32>, Bad> {
        let end = start.checked_add(count).ok_or(Bad)?;
        if end > self.entry_count {
            return Err(Bad);
        }
        Ok(start..end)
    }

    pub fn group(&self, g: u32) -> Result<Group, Bad> {
        if g >= self.groups {
            return Err(Bad);
        }
        let w: [u32; GROUP_WORDS] = self.idx.record(HEAD + g as usize * GROUP_WORDS)?;
        Ok(Group {
            key: Span::new(w[0], w[1]),
            start: w[2],
            count: w[3],
            filter: (w[4], w[5]),
        })
    }

    pub fn seg_entry(&self, e: u32) -> Result<SegEntry, Bad> {
        debug_assert_eq!(self.width, SEG_WORDS);
        let w: [u32; SEG_WORDS] = self.entries.record(e as usize * self.width)?;
        Ok(SegEntry {
            rule: w[0],
            pattern: Span::new(w[1], w[2]),
        })
    }

    pub fn tool_entry(&self, e: u32) -> Result<ToolEntry, Bad> {
        debug_assert_eq!(self.width, TOOL_WORDS);
        let w: [u32; TOOL_WORDS] = self.entries.record(e as usize * self.width)?;
        Ok(ToolEntry {
            rule: w[0],
            kind: w[1],
            text: Span::new(w[2], w[3]),
        })
    }

    /// The first group whose key is ≥ `key` (binary search; keys are sorted).
    pub fn first_at_least(&self, strings: &Strings<'_>, key: &[u8]) -> Result<u32, Bad> {
        let (mut lo, mut hi) = (0u32, self.groups);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if strings.bytes(self.group(mid)?.key)? < key {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        Ok(lo)
    }

    /// The group with exactly this key: one hash bucket when the index has a hash, else a
    /// binary search.
    pub fn find(&self, strings: &Strings<'_>, key: &[u8]) -> Result<Option<Group>, Bad> {
        if let Some(h) = &self.hash {
            for g in h.bucket(key)? {
                let grp = self.group(g?)?;
                if strings.bytes(grp.key)? == key {
                    return Ok(Some(grp));
                }
            }
            return Ok(None);
        }
        let g = self.first_at_least(strings, key)?;
        if g < self.groups {
            let grp = self.group(g)?;
            if strings.bytes(grp.key)? == key {
                return Ok(Some(grp));
            }
        }
        Ok(None)
    }
}

/// Sort (key, rule, …) entries into the wild group then key groups, rule order inside.
/// Returns the groups: (key, first entry, count); the wild group is entries `0..wild`.
pub(super) fn groups_of<T>(
    entries: &mut [(Option<Vec<u8>>, u32, T)],
) -> (u32, Vec<(Vec<u8>, u32, u32)>) {
    entries.sort_by(|a, b| a.0.cmp(&b.0).then(a.1.cmp(&b.1)));
    let mut groups: Vec<(Vec<u8>, u32, u32)> = Vec::new();
    let mut wild = 0u32;
    for (i, (key, _, _)) in entries.iter().enumerate() {
        match key {
            None => wild += 1,
            Some(k) => match groups.last_mut() {
                Some(g) if &g.0 == k => g.2 += 1,
                _ => groups.push((k.clone(), i as u32, 1)),
            },
        }
    }
    (wild, groups)
}

/// The index section: header, then one record per group. `filters[g]` is group g's filter
/// (the wild group's last).
pub(super) fn index_bytes(
    strings: &mut StringsWriter,
    wild: u32,
    groups: &[(Vec<u8>, u32, u32)],
    filters: &[(u32, u32)],
) -> Vec<u8> {
    let none = (0, 0);
    let wf = filters.get(groups.len()).copied().unwrap_or(none);
    let mut idx = Vec::new();
    push_words(&mut idx, &[groups.len() as u32, 0, wild, wf.0, wf.1]);
    for (i, (k, s, c)) in groups.iter().enumerate() {
        let key = strings.add(k);
        let f = filters.get(i).copied().unwrap_or(none);
        push_words(&mut idx, &[key.off, key.len, *s, *c, f.0, f.1]);
    }
    idx
}

/// A group's filter over entries `start..start + count` of `pats` (pattern bytes: a flag
/// byte, then the body), appended to `out`; returns its (word offset, word length).
fn filter(
    strings: &mut StringsWriter,
    out: &mut Vec<u8>,
    entries: &[SegBuild],
    start: u32,
    count: u32,
) -> (u32, u32) {
    if (count as usize) < FILTER_MIN {
        return (0, 0);
    }
    let guards: Vec<(u32, Option<Vec<Vec<u8>>>)> = (start..start + count)
        .map(|e| {
            let body = entries[e as usize].2.get(1..).unwrap_or(&[]);
            let lit = crate::pattern::required_literal(body);
            (e, (!lit.is_empty()).then(|| vec![lit.to_vec()]))
        })
        .collect();
    let bytes = ContentIndex::build(&guards, |b| strings.add(b));
    let at = (out.len() / 4) as u32;
    out.extend_from_slice(&bytes);
    (at, (bytes.len() / 4) as u32)
}

/// A segment entry being built: (index key, rule, pattern bytes).
pub type SegBuild = (Option<Vec<u8>>, u32, Vec<u8>);

/// Build a segment index from (key, rule, pattern bytes): (patterns, index, key hash,
/// filters).
pub fn build_segments(strings: &mut StringsWriter, mut entries: Vec<SegBuild>) -> [Vec<u8>; 4] {
    let (wild, groups) = groups_of(&mut entries);
    let mut pats = Vec::new();
    for (_, rule, bytes) in &entries {
        let p = strings.add(bytes);
        push_words(&mut pats, &[*rule, p.off, p.len]);
    }
    let mut filters = Vec::new();
    let mut spans: Vec<(u32, u32)> = groups
        .iter()
        .map(|(_, s, c)| filter(strings, &mut filters, &entries, *s, *c))
        .collect();
    spans.push(filter(strings, &mut filters, &entries, 0, wild));
    let idx = index_bytes(strings, wild, &groups, &spans);
    let keys: Vec<&[u8]> = groups.iter().map(|k| k.0.as_slice()).collect();
    [pats, idx, KeyHash::build(&keys), filters]
}

/// Build the tool index from (key, entry): (tool patterns, index).
pub fn build_tools(
    strings: &mut StringsWriter,
    entries: Vec<(Option<Vec<u8>>, ToolEntry)>,
) -> (Vec<u8>, Vec<u8>) {
    let mut e: Vec<_> = entries.into_iter().map(|(k, t)| (k, t.rule, t)).collect();
    let (wild, groups) = groups_of(&mut e);
    let idx = index_bytes(strings, wild, &groups, &[]);
    let mut pats = Vec::new();
    for (_, _, t) in &e {
        push_words(&mut pats, &t.words());
    }
    (pats, idx)
}

/// Hash table over an index's group keys (sections 11, 12), so finding the group of a known
/// key costs one bucket, not a binary search. Words: `nbuckets` (a power of two ≥ 1),
/// `nbuckets + 1` bucket starts, then group numbers. Range scans (a word polc cannot know)
/// still use the sorted groups.
#[derive(Clone, Copy, Debug)]
pub struct KeyHash<'a> {
    words: Words<'a>,
    nb: u32,
}

impl<'a> KeyHash<'a> {
    pub fn bucket_of(key: &[u8], nbuckets: u32) -> u32 {
        (crate::ir::fnv1a64(key) >> 32) as u32 & (nbuckets.wrapping_sub(1))
    }

    /// The section for group keys in group order.
    pub fn build(keys: &[&[u8]]) -> Vec<u8> {
        let nb = (keys.len().max(1)).next_power_of_two() as u32;
        let mut buckets: Vec<Vec<u32>> = vec![Vec::new(); nb as usize];
        for (g, k) in keys.iter().enumerate() {
            buckets[KeyHash::bucket_of(k, nb) as usize].push(g as u32);
        }
        let mut w = vec![nb];
        let mut at = 0u32;
        for b in &buckets {
            w.push(at);
            at += b.len() as u32;
        }
        w.push(at);
        for b in &buckets {
            w.extend_from_slice(b);
        }
        let mut out = Vec::new();
        push_words(&mut out, &w);
        out
    }

    fn new(kind: Kind, bytes: &'a [u8]) -> Result<KeyHash<'a>, SectionError> {
        let words = Words::new(bytes);
        let bad = |what: &str| SectionError::new(kind, what);
        if !bytes.len().is_multiple_of(4) {
            return Err(bad("not whole words"));
        }
        let nb = words.get(0).map_err(|_| bad("empty"))?;
        if !nb.is_power_of_two() {
            return Err(bad("bucket count is not a power of two"));
        }
        let total = words.get(1 + nb as usize).map_err(|_| bad("short"))?;
        if Some(words.len()) != (nb as usize + 2).checked_add(total as usize) {
            return Err(bad("bucket starts and length disagree"));
        }
        Ok(KeyHash { words, nb })
    }

    /// The group numbers in `key`'s bucket.
    pub fn bucket(&self, key: &[u8]) -> Result<impl Iterator<Item = Result<u32, Bad>> + 'a, Bad> {
        let b = KeyHash::bucket_of(key, self.nb) as usize;
        let (s, e) = (self.words.get(1 + b)?, self.words.get(2 + b)?);
        let words = self.words;
        let base = 2 + self.nb as usize;
        Ok((s..e.max(s)).map(move |i| words.get(base + i as usize)))
    }
}
