//! The table's section format, in one place: the section kinds, the keys the compiler files
//! entries under and a lookup recomputes (`keys`), and one typed record per section that
//! writes, reads and validates itself. `compile` writes through these types and
//! `runtime::table_rules` reads through them; neither knows a byte offset of its own.
//! The layout of every section is documented in `src/table/README.md` ("Sections").
//!
//! Validation happens once per open, in [`Sections::new`]: every section is present, its
//! length is a whole number of records, and its header words (group counts, bucket counts,
//! the wild group) agree with its length. That check is O(1) per section, so it costs the
//! same for 10 rules and 100,000. Records are then read lazily, each read bounds-checked (a
//! [`Bad`] record, never a panic): the bytes of a mapped table may change after the check
//! (an agent rewriting an untrusted project table), and nothing read from them is trusted
//! as an index without `get`.

pub mod content;
pub mod groups;
pub mod keys;
pub mod paths;
pub mod rules;
pub mod strings;

use std::fmt;

pub use content::{ContentEntry, ContentIndex, Contents};
pub use groups::{GroupIndex, KeyHash, SegEntry, ToolEntry};
pub use paths::{PathClass, PathClasses, PathEntry, Paths};
pub use rules::{Rule, RuleRecord, Rules, RULE_WORDS};
pub use strings::{Span, Strings, StringsWriter};

/// Section kinds. The numbers are the kinds stored in the table directory (kind 13 was an
/// earlier tool index; it is never written).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
#[repr(u32)]
pub enum Kind {
    /// Every string and pattern body, concatenated.
    Strings = 1,
    /// One [`RuleRecord`] per rule.
    Rules = 2,
    /// Deny/ask segment patterns ([`SegEntry`]).
    DenyAskPatterns = 3,
    /// Deny/ask segment index ([`GroupIndex`]).
    DenyAskIndex = 4,
    /// Allow segment patterns.
    AllowPatterns = 5,
    /// Allow segment index.
    AllowIndex = 6,
    /// Content entries ([`ContentEntry`]).
    Content = 7,
    /// Serialised regex DFAs, 8-aligned.
    Regex = 8,
    /// Tool-pattern entries ([`ToolEntry`]).
    ToolPatterns = 9,
    /// The content-literal hash index ([`ContentIndex`]).
    ContentIndex = 10,
    /// Hash over the deny/ask index keys ([`KeyHash`]).
    DenyAskHash = 11,
    /// Hash over the allow index keys.
    AllowHash = 12,
    /// Tool-pattern index ([`GroupIndex`] keyed by [`keys::tool_key`]).
    ToolIndex = 14,
    /// Path rules of file tools ([`PathEntry`]).
    Paths = 15,
    /// Filters of the large deny/ask segment groups ([`GroupIndex`]).
    DenyAskFilters = 16,
    /// Filters of the large allow segment groups.
    AllowFilters = 17,
    /// Classes of path entries ([`PathClass`]: side, tool, anchor, policy file).
    PathClasses = 18,
    /// Path index ([`GroupIndex`] over section 15, keyed by class and literal folders).
    PathIndex = 19,
    /// Hash over the path index keys ([`KeyHash`]).
    PathHash = 20,
}

impl Kind {
    pub const ALL: [Kind; 19] = [
        Kind::Strings,
        Kind::Rules,
        Kind::DenyAskPatterns,
        Kind::DenyAskIndex,
        Kind::AllowPatterns,
        Kind::AllowIndex,
        Kind::Content,
        Kind::Regex,
        Kind::ToolPatterns,
        Kind::ContentIndex,
        Kind::DenyAskHash,
        Kind::AllowHash,
        Kind::ToolIndex,
        Kind::Paths,
        Kind::DenyAskFilters,
        Kind::AllowFilters,
        Kind::PathClasses,
        Kind::PathIndex,
        Kind::PathHash,
    ];

    /// The sections of the deny/ask segment index, and of the allow one.
    pub const DENY_ASK: [Kind; 4] = [
        Kind::DenyAskPatterns,
        Kind::DenyAskIndex,
        Kind::DenyAskHash,
        Kind::DenyAskFilters,
    ];
    pub const ALLOW: [Kind; 4] = [
        Kind::AllowPatterns,
        Kind::AllowIndex,
        Kind::AllowHash,
        Kind::AllowFilters,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Kind::Strings => "strings",
            Kind::Rules => "rules",
            Kind::DenyAskPatterns => "deny/ask patterns",
            Kind::DenyAskIndex => "deny/ask index",
            Kind::AllowPatterns => "allow patterns",
            Kind::AllowIndex => "allow index",
            Kind::Content => "content",
            Kind::Regex => "regex DFAs",
            Kind::ToolPatterns => "tool patterns",
            Kind::ContentIndex => "content index",
            Kind::DenyAskHash => "deny/ask key hash",
            Kind::AllowHash => "allow key hash",
            Kind::ToolIndex => "tool index",
            Kind::Paths => "paths",
            Kind::DenyAskFilters => "deny/ask group filters",
            Kind::AllowFilters => "allow group filters",
            Kind::PathClasses => "path classes",
            Kind::PathIndex => "path index",
            Kind::PathHash => "path key hash",
        }
    }
}

/// A record that does not hold together, found at read time (the table then decides
/// nothing: the caller turns it into a deny).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bad;

/// A section that failed its check at open: which one and what was wrong. Shown in
/// `LoadError::Corrupt`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SectionError {
    pub kind: Kind,
    pub what: String,
}

impl SectionError {
    pub fn new(kind: Kind, what: impl Into<String>) -> SectionError {
        SectionError {
            kind,
            what: what.into(),
        }
    }
}

impl fmt::Display for SectionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "section {} ({}): {}",
            self.kind as u32,
            self.kind.name(),
            self.what
        )
    }
}

impl std::error::Error for SectionError {}

/// A section read as little-endian `u32` words; every read is bounds-checked.
#[derive(Clone, Copy, Debug)]
pub struct Words<'a>(&'a [u8]);

impl<'a> Words<'a> {
    pub fn new(bytes: &'a [u8]) -> Words<'a> {
        Words(bytes)
    }

    /// Whole words in the section.
    pub fn len(&self) -> usize {
        self.0.len() / 4
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn get(&self, i: usize) -> Result<u32, Bad> {
        let off = i.checked_mul(4).ok_or(Bad)?;
        let b = self.0.get(off..off.checked_add(4).ok_or(Bad)?).ok_or(Bad)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    /// `n` words from word `at`, copied (a record read once is a consistent snapshot even if
    /// the mapped bytes change meanwhile).
    pub fn record<const N: usize>(&self, at: usize) -> Result<[u32; N], Bad> {
        let off = at.checked_mul(4).ok_or(Bad)?;
        let end = off.checked_add(N * 4).ok_or(Bad)?;
        let b = self.0.get(off..end).ok_or(Bad)?;
        let mut out = [0u32; N];
        for (o, c) in out.iter_mut().zip(b.chunks_exact(4)) {
            *o = u32::from_le_bytes([c[0], c[1], c[2], c[3]]);
        }
        Ok(out)
    }

    /// The bytes.
    pub fn bytes(&self) -> &'a [u8] {
        self.0
    }

    /// Words `at..at + n` as their own section.
    pub fn sub(&self, at: usize, n: usize) -> Result<Words<'a>, Bad> {
        let off = at.checked_mul(4).ok_or(Bad)?;
        let end = n
            .checked_mul(4)
            .and_then(|l| off.checked_add(l))
            .ok_or(Bad)?;
        Ok(Words(self.0.get(off..end).ok_or(Bad)?))
    }
}

/// Append `u32` words, little-endian.
pub fn push_words(out: &mut Vec<u8>, ws: &[u32]) {
    for w in ws {
        out.extend_from_slice(&w.to_le_bytes());
    }
}

/// A section whose length must be a whole number of `width`-word records.
pub(crate) fn records(kind: Kind, bytes: &[u8], width: usize) -> Result<usize, SectionError> {
    if !bytes.len().is_multiple_of(width * 4) {
        return Err(SectionError::new(
            kind,
            format!(
                "length {} is not a whole number of {}-byte records",
                bytes.len(),
                width * 4
            ),
        ));
    }
    Ok(bytes.len() / (width * 4))
}

/// Every section of a table, checked once (see the module docs).
#[derive(Clone, Copy, Debug)]
pub struct Sections<'a> {
    pub strings: Strings<'a>,
    pub rules: Rules<'a>,
    pub deny_ask: GroupIndex<'a>,
    pub allow: GroupIndex<'a>,
    pub content: Contents<'a>,
    pub regex: &'a [u8],
    pub tools: GroupIndex<'a>,
    pub paths: Paths<'a>,
    pub path_classes: PathClasses<'a>,
    /// The path index over `paths` (its entries are section 15's).
    pub path_index: GroupIndex<'a>,
}

impl<'a> Sections<'a> {
    /// Borrow and check every section; `get` returns a section's bytes by kind.
    pub fn new(get: impl Fn(u32) -> Option<&'a [u8]>) -> Result<Sections<'a>, SectionError> {
        let sec = |k: Kind| get(k as u32).ok_or_else(|| SectionError::new(k, "missing"));
        let four = |k: [Kind; 4]| -> Result<[&'a [u8]; 4], SectionError> {
            Ok([sec(k[0])?, sec(k[1])?, sec(k[2])?, sec(k[3])?])
        };
        let strings = Strings::new(sec(Kind::Strings)?);
        Ok(Sections {
            strings,
            rules: Rules::new(sec(Kind::Rules)?)?,
            deny_ask: GroupIndex::segments(Kind::DENY_ASK, four(Kind::DENY_ASK)?)?,
            allow: GroupIndex::segments(Kind::ALLOW, four(Kind::ALLOW)?)?,
            content: Contents::new(sec(Kind::Content)?, sec(Kind::ContentIndex)?)?,
            regex: sec(Kind::Regex)?,
            tools: GroupIndex::tools(sec(Kind::ToolPatterns)?, sec(Kind::ToolIndex)?)?,
            paths: Paths::new(sec(Kind::Paths)?)?,
            path_classes: PathClasses::new(sec(Kind::PathClasses)?)?,
            path_index: GroupIndex::paths(
                sec(Kind::Paths)?,
                sec(Kind::PathIndex)?,
                sec(Kind::PathHash)?,
            )?,
        })
    }
}

#[cfg(test)]
mod tests;
