//! Section 15, paths: one [`PathEntry`] per path glob of a file tool (`read`, `edit`): rule,
//! anchor (`crate::paths::Anchor`), the exact DFA (span in section 8), the case-folded DFA
//! (deny/ask only; empty for allow), and the glob below the anchor (span in strings).
//!
//! Since format version 4 the entries are indexed (issue 16), so a decision reads only the
//! path rules that can match the path it asks about:
//!
//! - section 18, *path classes*: one [`PathClass`] per distinct (side, tool, anchor, policy
//!   file — only for `/x` patterns, whose base is their file's folder). A lookup reads the
//!   classes of its (side, tool) and works out, once per class, the texts a pattern of that
//!   class is matched against (the path relative to each base of the anchor, in both forms).
//! - section 19, the *path index*: a [`GroupIndex`](super::GroupIndex) over section 15, keyed
//!   by the class number (4 bytes, little-endian) and the glob's literal key
//!   ([`keys::path_literal`](super::keys::path_literal)): its leading literal folders,
//!   ASCII-lowercased (or, for a bare name at any depth, the name). A glob with no literal
//!   start has the empty key, looked up always; a text is looked up under the empty key and
//!   each of its folder prefixes (bare names: each of its components), or — a text with a
//!   non-ASCII byte, which case folding may map onto ASCII (`K` U+212A is `k`) — under every
//!   key of the class.
//! - section 20, the key hash of section 19 ([`KeyHash`](super::KeyHash)).

use super::groups::{groups_of, index_bytes};
use super::{push_words, records, Bad, KeyHash, Kind, SectionError, Span, StringsWriter, Words};

const PATH_WORDS: usize = 8;
const CLASS_WORDS: usize = 6;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PathEntry {
    pub rule: u32,
    pub anchor: u32,
    pub exact: Span,
    pub folded: Span,
    pub glob: Span,
}

impl PathEntry {
    fn words(&self) -> [u32; PATH_WORDS] {
        [
            self.rule,
            self.anchor,
            self.exact.off,
            self.exact.len,
            self.folded.off,
            self.folded.len,
            self.glob.off,
            self.glob.len,
        ]
    }

    pub fn write(&self, out: &mut Vec<u8>) {
        push_words(out, &self.words());
    }
}

#[derive(Clone, Copy, Debug)]
pub struct Paths<'a> {
    words: Words<'a>,
    count: u32,
}

impl<'a> Paths<'a> {
    pub fn new(bytes: &'a [u8]) -> Result<Paths<'a>, SectionError> {
        let n = records(Kind::Paths, bytes, PATH_WORDS)?;
        Ok(Paths {
            words: Words::new(bytes),
            count: u32::try_from(n).map_err(|_| SectionError::new(Kind::Paths, "too many"))?,
        })
    }

    pub fn count(&self) -> u32 {
        self.count
    }

    pub fn get(&self, e: u32) -> Result<PathEntry, Bad> {
        if e >= self.count {
            return Err(Bad);
        }
        let w: [u32; PATH_WORDS] = self.words.record(e as usize * PATH_WORDS)?;
        Ok(PathEntry {
            rule: w[0],
            anchor: w[1],
            exact: Span::new(w[2], w[3]),
            folded: Span::new(w[4], w[5]),
            glob: Span::new(w[6], w[7]),
        })
    }
}

/// A class of path entries that share their bases: side, tool, anchor and (for `/x`
/// patterns) the policy file. `file` is empty for other anchors.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PathClass {
    pub allow: bool,
    pub anchor: u32,
    pub tool: Span,
    pub file: Span,
}

/// The class section (18): count, then one 6-word record per class (allow, anchor, tool
/// span, file span).
#[derive(Clone, Copy, Debug)]
pub struct PathClasses<'a> {
    words: Words<'a>,
    count: u32,
}

impl<'a> PathClasses<'a> {
    pub fn new(bytes: &'a [u8]) -> Result<PathClasses<'a>, SectionError> {
        let bad = |what: &str| SectionError::new(Kind::PathClasses, what);
        let words = Words::new(bytes);
        if !bytes.len().is_multiple_of(4) {
            return Err(bad("not whole words"));
        }
        let count = words.get(0).map_err(|_| bad("empty"))?;
        let want = (count as usize)
            .checked_mul(CLASS_WORDS)
            .and_then(|w| w.checked_add(1));
        if want != Some(words.len()) {
            return Err(bad(&format!(
                "{count} classes do not fill {} words",
                words.len()
            )));
        }
        Ok(PathClasses { words, count })
    }

    pub fn count(&self) -> u32 {
        self.count
    }

    pub fn get(&self, c: u32) -> Result<PathClass, Bad> {
        if c >= self.count {
            return Err(Bad);
        }
        let w: [u32; CLASS_WORDS] = self.words.record(1 + c as usize * CLASS_WORDS)?;
        let allow = match w[0] {
            0 => false,
            1 => true,
            _ => return Err(Bad),
        };
        Ok(PathClass {
            allow,
            anchor: w[1],
            tool: Span::new(w[2], w[3]),
            file: Span::new(w[4], w[5]),
        })
    }
}

/// The index key of literal `lit` in class `class`.
pub fn class_key(class: u32, lit: &[u8]) -> Vec<u8> {
    let mut k = Vec::with_capacity(4 + lit.len());
    k.extend_from_slice(&class.to_le_bytes());
    k.extend_from_slice(lit);
    k
}

/// A path entry being built: its class (allow, anchor, tool, file — empty unless the anchor
/// is the policy folder), its literal key, and the entry.
pub struct PathBuild {
    pub allow: bool,
    pub anchor: u32,
    pub tool: Vec<u8>,
    pub file: Vec<u8>,
    pub literal: Vec<u8>,
    pub entry: PathEntry,
}

/// Build the path sections: (entries 15, classes 18, index 19, key hash 20).
pub fn build_paths(strings: &mut StringsWriter, entries: Vec<PathBuild>) -> [Vec<u8>; 4] {
    // Classes numbered in order of first appearance after sorting (deterministic).
    let mut classes: Vec<(bool, u32, Vec<u8>, Vec<u8>)> = entries
        .iter()
        .map(|b| (b.allow, b.anchor, b.tool.clone(), b.file.clone()))
        .collect();
    classes.sort();
    classes.dedup();
    let mut keyed: Vec<(Option<Vec<u8>>, u32, PathEntry)> = entries
        .into_iter()
        .map(|b| {
            let c = classes
                .binary_search(&(b.allow, b.anchor, b.tool, b.file))
                .unwrap_or(0) as u32;
            (Some(class_key(c, &b.literal)), b.entry.rule, b.entry)
        })
        .collect();
    let (wild, groups) = groups_of(&mut keyed);
    let mut pats = Vec::new();
    for (_, _, e) in &keyed {
        e.write(&mut pats);
    }
    let idx = index_bytes(strings, wild, &groups, &[]);
    let keys: Vec<&[u8]> = groups.iter().map(|g| g.0.as_slice()).collect();
    let hash = KeyHash::build(&keys);
    let mut cls = Vec::new();
    push_words(&mut cls, &[classes.len() as u32]);
    for (allow, anchor, tool, file) in &classes {
        let t = strings.add(tool);
        let f = if file.is_empty() {
            Span::default()
        } else {
            strings.add(file)
        };
        push_words(
            &mut cls,
            &[u32::from(*allow), *anchor, t.off, t.len, f.off, f.len],
        );
    }
    [pats, cls, idx, hash]
}
