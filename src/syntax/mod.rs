//! The syntax front ends — the only user of pest in polc.
//!
//! One grammar (`grammar/policy.pest`) holds the DSL, JSON and Claude Code rule strings.
//! Each front end turns a source text into an [`Ast`]: items with the position of every
//! token that a later error may need to point at. Nothing here checks meaning beyond shape
//! (unknown tools are the exception: the tool decides how a Claude string is read); that is
//! `crate::lower`'s job. The language is documented in `src/syntax/README.md`.

pub mod claude;
pub mod codes;
pub mod diag;
pub mod dsl;
pub mod json;
pub mod session;

pub use diag::{Diagnostic, Diagnostics, Severity, SourceText};

use crate::ir::{Pattern, Span, Verdict};

/// The pest parser generated from `grammar/policy.pest`.
#[derive(pest_derive::Parser)]
#[grammar = "../grammar/policy.pest"]
pub(crate) struct PolicyParser;

/// A value with the position of the token it came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Located<T> {
    pub value: T,
    pub span: Span,
    /// Width of the token in characters (caret width), at least 1.
    pub len: u32,
}

/// A rule as written, before validation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AstRule {
    pub verdict: Verdict,
    /// Canonical tool name (see `README.md`): already resolved by the front end.
    pub tool: String,
    pub patterns: Vec<Located<Pattern>>,
    pub id: Option<Located<String>>,
    pub reason: Option<String>,
    /// Unchecked: `lower` checks the `i32` range.
    pub priority: Option<Located<i64>>,
    /// `None` = every host. Unchecked: `lower` checks the names.
    pub hosts: Option<Vec<Located<String>>>,
    pub tags: Vec<String>,
    pub examples: Vec<AstExample>,
    /// `remember` (DSL only): the keyword, where written (src/session/README.md).
    pub remember: Option<Span>,
    /// The rule as written, one line, at most 200 characters.
    pub text: String,
    /// The verdict keyword (DSL) or the rule string token (JSON).
    pub span: Span,
    pub len: u32,
}

/// An inline example, before validation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AstExample {
    /// Canonical tool name (`bash` when not given).
    pub tool: String,
    pub input: String,
    pub host: Option<Located<String>>,
    /// As written (`allow`, `ask`, `deny`, `default`; anything else is an error in `lower`).
    pub expect: Located<String>,
    pub span: Span,
}

/// One top-level item of a source file, in source order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Item {
    Rule(AstRule),
    Example(AstExample),
    /// `include "path"` (DSL only): the path as written, relative to the including file.
    Include(Located<String>),
    /// `session …` (DSL only; src/session/README.md).
    Session(session::AstSession),
    /// `deny sequence { … }` (DSL only).
    Sequence(session::AstSequence),
    /// `rewrite TOOL PATTERN* { … }` (DSL only).
    Rewrite(session::AstRewrite),
}

/// A parsed source file. Items that could be read are kept even when others had errors, so
/// one run reports every problem.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Ast {
    pub items: Vec<Item>,
}

/// Which front end reads a file, from its name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SourceKind {
    /// `*.pol` and anything else that is not JSON.
    Dsl,
    /// `permcheck.json` and other `*.json` polc policies: unknown keys are errors.
    PolicyJson,
    /// `settings.json` / `settings.local.json`: only `permissions.allow/ask/deny` are read.
    AgentSettings,
}

impl SourceKind {
    pub fn for_name(name: &str) -> SourceKind {
        let base = name.rsplit(['/', '\\']).next().unwrap_or(name);
        if base == "settings.json" || base == "settings.local.json" {
            SourceKind::AgentSettings
        } else if base.ends_with(".json") {
            SourceKind::PolicyJson
        } else {
            SourceKind::Dsl
        }
    }
}

/// Parse one source text with the front end its name selects. Errors and warnings go to
/// `diags`; the returned AST holds everything that could be read.
pub fn parse_source(src: &SourceText, diags: &mut Diagnostics) -> Ast {
    match SourceKind::for_name(&src.name) {
        SourceKind::Dsl => dsl::parse(src, diags),
        SourceKind::PolicyJson => json::parse_policy(src, false, diags),
        SourceKind::AgentSettings => json::parse_policy(src, true, diags),
    }
}

/// The last path component of a span's file, for derived ids (`default.pol:12`).
pub fn file_name(path: &str) -> &str {
    path.rsplit(['/', '\\']).next().unwrap_or(path)
}

/// Keep rule texts to one line of at most 200 characters.
pub(crate) fn clip_text(s: &str) -> String {
    let line = s.lines().next().unwrap_or("").trim();
    if line.chars().count() <= 200 {
        line.to_string()
    } else {
        let mut t: String = line.chars().take(199).collect();
        t.push('…');
        t
    }
}

/// Help text listing the DSL's tool choices.
pub const TOOL_HELP: &str =
    "expected bash, read, edit, webfetch, websearch, mcp__server__tool, or tool \"Name\"";

/// Canonical name of a DSL tool word (`crate::tools`).
pub use crate::tools::dsl_word as dsl_tool;

#[cfg(test)]
mod tests {
    use super::*;
    use pest::Parser;

    /// (rule, start, end) of every non-silent pair, depth first.
    fn tokens(start: Rule, input: &str) -> Vec<(Rule, usize, usize)> {
        PolicyParser::parse(start, input)
            .unwrap_or_else(|e| panic!("{e}"))
            .flatten()
            .map(|p| (p.as_rule(), p.as_span().start(), p.as_span().end()))
            .collect()
    }

    #[test]
    fn token_tree_of_a_rule() {
        use Rule::*;
        assert_eq!(
            tokens(next_item, "deny bash prefix 'x' # c"),
            vec![
                (next_item, 0, 24),
                // `item` and `rule` take the blanks and comment skipped while looking for a
                // block; `rule_head` does not, which is why a rule's text comes from it.
                (item, 0, 24),
                (rule, 0, 24),
                (rule_head, 0, 20),
                (verdict, 0, 4),
                (tool_spec, 5, 9),
                (tool_word, 5, 9),
                (pattern, 10, 20),
                (pattern_kind, 10, 16),
                (string, 17, 20),
                (sq_string, 17, 20),
                (sq_inner, 18, 19),
                (eol, 24, 24),
                (EOI, 24, 24),
            ]
        );
    }

    #[test]
    fn token_tree_of_a_claude_string() {
        use Rule::*;
        assert_eq!(
            tokens(claude_rule, "Bash(echo (x))"),
            vec![
                (claude_rule, 0, 14),
                (claude_tool, 0, 4),
                (claude_content, 5, 13),
                (EOI, 14, 14),
            ]
        );
    }

    #[test]
    fn last_item_without_newline_and_crlf() {
        let src = SourceText::new("t.pol", "deny bash any\r\nallow bash exact \"a\"");
        let mut d = Diagnostics::new();
        let ast = parse_source(&src, &mut d);
        assert!(d.is_empty(), "{}", d.render_all());
        assert_eq!(ast.items.len(), 2);
    }

    #[test]
    fn source_kind_by_name() {
        assert_eq!(SourceKind::for_name("a/b.pol"), SourceKind::Dsl);
        assert_eq!(
            SourceKind::for_name("permcheck.json"),
            SourceKind::PolicyJson
        );
        assert_eq!(
            SourceKind::for_name(".claude/settings.local.json"),
            SourceKind::AgentSettings
        );
    }
}
