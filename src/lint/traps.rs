//! L004 / L005: the no-wildcard traps of Claude rule strings (docs/contract.md#c-claude-strings).
//!
//! A Claude `Bash(X)` string without an unescaped `*` means different things by verdict:
//! in `allow` it is exact (`Bash(npm test)` does not allow `npm test -- --watch`), in
//! `deny`/`ask` polc reads it as a word-bounded prefix (it also stops `git push origin`),
//! where Claude Code itself reads it exact. Both are easy to misread, so lint says which
//! reading applies and how to write it so that the text says it.
//!
//! L010: a `*` inside a legacy `Bash(X:*)` rule is a literal star to Claude Code
//! (`Bash(node *:*)` matches only commands that begin `node *`, never `node server.js`).

use super::Cx;
use crate::ir::Verdict;
use crate::syntax::claude::{has_unescaped_star, legacy_literal_star, legacy_prefix};
use crate::syntax::{Diagnostic, Severity, SourceKind};
use crate::tools;

/// `X` of a rule text `Bash(X)`.
fn bash_content(text: &str) -> Option<&str> {
    text.strip_prefix("Bash(")?.strip_suffix(')')
}

pub(super) fn check(cx: &Cx<'_>, out: &mut Vec<Diagnostic>) {
    for &i in &cx.rules {
        let r = cx.rule(i);
        if r.tool != tools::BASH || SourceKind::for_name(&r.span.file) == SourceKind::Dsl {
            continue;
        }
        let Some(x) = bash_content(&r.text) else {
            continue;
        };
        if legacy_literal_star(x) {
            let p = legacy_prefix(x).unwrap_or_default();
            let wild = format!("{} *", p.trim_end_matches([' ', '*']));
            let msg = if r.verdict == Verdict::Allow {
                format!(
                    "Claude Code reads the `*` in `{}` literally: it allows only commands that begin `{p}`, not what the `*` seems to stand for; polc reads it the same way",
                    r.text
                )
            } else {
                format!(
                    "Claude Code reads the `*` in `{}` literally (commands that begin `{p}`); polc's {} also reads it as a wildcard, so it matches more than Claude's",
                    r.text, r.verdict
                )
            };
            out.push(
                cx.at_rule(i, Severity::Warning, crate::syntax::codes::L010, msg)
                    .with_help(format!("write `Bash({wild})` for a wildcard")),
            );
            continue;
        }
        if x.trim().is_empty() || has_unescaped_star(x) {
            continue;
        }
        let d = if r.verdict == Verdict::Allow {
            cx.at_rule(
                i,
                Severity::Warning,
                crate::syntax::codes::L004,
                format!(
                    "`{}` in allow has no wildcard, so it is exact: it allows `{x}` and nothing longer (not `{x} --help`)",
                    r.text
                ),
            )
            .with_help(format!(
                "write `Bash({x}:*)` to allow arguments too; to keep it exact and say so, move it to a `rules` object with \"exact\": \"{x}\" (or `allow bash exact \"{x}\"` in a .pol file)"
            ))
        } else {
            cx.at_rule(
                i,
                Severity::Warning,
                crate::syntax::codes::L005,
                format!(
                    "`{}` in {} has no wildcard: polc reads it as a word-bounded prefix, so it also matches `{x} …` (Claude Code itself would match `{x}` exactly)",
                    r.text, r.verdict
                ),
            )
            .with_help(format!(
                "write `Bash({x}:*)`: the same meaning, said in the text"
            ))
        };
        out.push(d);
    }
}
