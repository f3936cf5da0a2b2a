//! Section 15, paths: one [`PathEntry`] per path glob of a file tool (`read`, `edit`): rule,
//! anchor (`crate::paths::Anchor`), the exact DFA (span in section 8), the case-folded DFA
//! (deny/ask only; empty for allow), and the glob below the anchor (span in strings).

use super::{push_words, records, Bad, Kind, SectionError, Span, Words};

const PATH_WORDS: usize = 8;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PathEntry {
    pub rule: u32,
    pub anchor: u32,
    pub exact: Span,
    pub folded: Span,
    pub glob: Span,
}

impl PathEntry {
    pub fn write(&self, out: &mut Vec<u8>) {
        push_words(
            out,
            &[
                self.rule,
                self.anchor,
                self.exact.off,
                self.exact.len,
                self.folded.off,
                self.folded.len,
                self.glob.off,
                self.glob.len,
            ],
        );
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
