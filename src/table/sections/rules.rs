//! Section 2, rules: one [`RuleRecord`] per rule, [`RULE_WORDS`] little-endian `u32` words:
//!
//! | word | field |
//! |---|---|
//! | 0 | verdict (bits 0–7), tier (8–15), flags (16–23: 1 = bash rule) |
//! | 1 | priority (`i32`) |
//! | 2, 3 | specificity: literal bytes, wildcards |
//! | 4 | host mask ([`super::keys::host_bit`]; 0 = every host) |
//! | 5, 6 | tool (span in strings) |
//! | 7, 8 | id |
//! | 9, 10 | rule text |
//! | 11, 12 | reason; length `u32::MAX` = none |
//! | 13, 14 | source file |
//! | 15, 16 | line, column |
//! | 17 | reserved, 0 |

use super::{records, Bad, Kind, SectionError, Span, Words};
use crate::ir::{Tier, Verdict};

pub const RULE_WORDS: usize = 18;
/// Rule record flags.
pub const FLAG_BASH: u32 = 1;
/// A reason span's length when the rule has no reason.
const NO_REASON: u32 = u32::MAX;

/// A rule as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuleRecord {
    pub verdict: Verdict,
    pub tier: Tier,
    pub bash: bool,
    pub priority: i32,
    pub literal: u32,
    pub wildcards: u32,
    pub hosts: u32,
    pub tool: Span,
    pub id: Span,
    pub text: Span,
    pub reason: Option<Span>,
    pub file: Span,
    pub line: u32,
    pub column: u32,
}

impl RuleRecord {
    pub fn write(&self, out: &mut Vec<u8>) {
        let flags = if self.bash { FLAG_BASH } else { 0 };
        let w0 = self.verdict as u32 | (self.tier as u32) << 8 | flags << 16;
        let reason = self.reason.unwrap_or(Span::new(0, NO_REASON));
        super::push_words(
            out,
            &[
                w0,
                self.priority as u32,
                self.literal,
                self.wildcards,
                self.hosts,
                self.tool.off,
                self.tool.len,
                self.id.off,
                self.id.len,
                self.text.off,
                self.text.len,
                reason.off,
                reason.len,
                self.file.off,
                self.file.len,
                self.line,
                self.column,
                0,
            ],
        );
    }
}

/// The rules section.
#[derive(Clone, Copy, Debug)]
pub struct Rules<'a> {
    words: Words<'a>,
    count: u32,
}

impl<'a> Rules<'a> {
    pub fn new(bytes: &'a [u8]) -> Result<Rules<'a>, SectionError> {
        let n = records(Kind::Rules, bytes, RULE_WORDS)?;
        let count = u32::try_from(n).map_err(|_| SectionError::new(Kind::Rules, "too many"))?;
        Ok(Rules {
            words: Words::new(bytes),
            count,
        })
    }

    pub fn count(&self) -> u32 {
        self.count
    }

    /// Rule `i`'s record (a copy of its words).
    pub fn get(&self, i: u32) -> Result<Rule, Bad> {
        if i >= self.count {
            return Err(Bad);
        }
        Ok(Rule(self.words.record(i as usize * RULE_WORDS)?))
    }
}

/// One rule's words, with named accessors.
#[derive(Clone, Copy, Debug)]
pub struct Rule([u32; RULE_WORDS]);

impl Rule {
    fn span(&self, k: usize) -> Span {
        Span::new(self.0[k], self.0[k + 1])
    }

    pub fn verdict(&self) -> Result<Verdict, Bad> {
        Verdict::from_u8((self.0[0] & 0xFF) as u8).ok_or(Bad)
    }

    pub fn tier(&self) -> Result<Tier, Bad> {
        match (self.0[0] >> 8) & 0xFF {
            0 => Ok(Tier::Project),
            1 => Ok(Tier::User),
            2 => Ok(Tier::Managed),
            _ => Err(Bad),
        }
    }

    pub fn bash(&self) -> bool {
        (self.0[0] >> 16) & FLAG_BASH != 0
    }

    pub fn priority(&self) -> i32 {
        self.0[1] as i32
    }

    pub fn literal(&self) -> u32 {
        self.0[2]
    }

    pub fn wildcards(&self) -> u32 {
        self.0[3]
    }

    pub fn hosts(&self) -> u32 {
        self.0[4]
    }

    pub fn tool(&self) -> Span {
        self.span(5)
    }

    pub fn id(&self) -> Span {
        self.span(7)
    }

    pub fn text(&self) -> Span {
        self.span(9)
    }

    pub fn reason(&self) -> Option<Span> {
        (self.0[12] != NO_REASON).then(|| self.span(11))
    }

    pub fn file(&self) -> Span {
        self.span(13)
    }

    pub fn line(&self) -> u32 {
        self.0[15]
    }

    pub fn column(&self) -> u32 {
        self.0[16]
    }

    /// The whole record, decoded.
    pub fn record(&self) -> Result<RuleRecord, Bad> {
        Ok(RuleRecord {
            verdict: self.verdict()?,
            tier: self.tier()?,
            bash: self.bash(),
            priority: self.priority(),
            literal: self.literal(),
            wildcards: self.wildcards(),
            hosts: self.hosts(),
            tool: self.tool(),
            id: self.id(),
            text: self.text(),
            reason: self.reason(),
            file: self.file(),
            line: self.line(),
            column: self.column(),
        })
    }
}
