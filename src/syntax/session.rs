//! Session features as written (issue 14): `session denials …`, `session audit …` and
//! `deny sequence { … }`. Shapes only; `crate::lower::session` checks meaning.

use super::Located;
use crate::ir::{Pattern, Span, Verdict};

/// A `session …` line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AstSession {
    /// `session denials [consecutive N] [total N]`.
    Denials {
        consecutive: Option<Located<i64>>,
        total: Option<Located<i64>>,
        span: Span,
    },
    /// `session audit [hash]`.
    Audit { hash: bool, span: Span },
}

/// One `step` of a sequence rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AstStep {
    /// `step net`: a program that can send data over the network.
    pub net: bool,
    /// Canonical tool name (empty for `net`).
    pub tool: String,
    pub patterns: Vec<Located<Pattern>>,
    pub span: Span,
}

/// `example "a" then "b" … => EXPECT` inside a sequence rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AstSeqExample {
    pub calls: Vec<String>,
    pub host: Option<Located<String>>,
    pub expect: Located<String>,
    pub span: Span,
}

/// `VERDICT sequence { … }`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AstSequence {
    pub verdict: Verdict,
    pub id: Option<Located<String>>,
    pub reason: Option<String>,
    pub hosts: Option<Vec<Located<String>>>,
    pub tags: Vec<String>,
    pub steps: Vec<AstStep>,
    pub interrupt: bool,
    pub examples: Vec<AstSeqExample>,
    /// `VERDICT sequence` and its steps, one line.
    pub text: String,
    pub span: Span,
    pub len: u32,
}

/// `example "input" [on HOST] => "rewritten"` inside a rewrite rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AstRwExample {
    pub input: String,
    pub host: Option<Located<String>>,
    pub expect: String,
    pub span: Span,
}

/// `rewrite TOOL PATTERN* { append "WORDS"; … }` (src/session/README.md#rewrites).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AstRewrite {
    /// Canonical tool name.
    pub tool: String,
    pub patterns: Vec<Located<Pattern>>,
    pub append: Option<Located<String>>,
    pub id: Option<Located<String>>,
    pub reason: Option<String>,
    pub hosts: Option<Vec<Located<String>>>,
    pub tags: Vec<String>,
    pub examples: Vec<AstRwExample>,
    /// The first line as written.
    pub text: String,
    /// The `rewrite` keyword.
    pub span: Span,
    pub len: u32,
}
