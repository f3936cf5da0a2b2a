//! L008 (`--host claude`): polc allow rules that overlap the user's own Claude ask rules.
//!
//! Under a PermissionRequest hook a polc `allow` answers the prompt Claude Code was about
//! to show, so it overrides the user's own `ask` rules in `.claude/settings.json` for that
//! call (docs/contract.md#c-host-answers). Lint names each overlap with a command both match.

use super::lang::{disjoint, Answer};
use super::{pattern_lang, quote, Cx, View};
use crate::ir::Verdict;
use crate::syntax::{Diagnostic, Severity, SourceKind};

pub(super) fn check(cx: &Cx<'_>, out: &mut Vec<Diagnostic>) {
    if cx.opts.host.as_deref() != Some(crate::hosts::Host::Claude.name()) {
        return;
    }
    let settings =
        |i: usize| SourceKind::for_name(&cx.rule(i).span.file) == SourceKind::AgentSettings;
    let asks: Vec<usize> = cx
        .rules
        .iter()
        .copied()
        .filter(|&i| settings(i) && cx.rule(i).verdict == Verdict::Ask)
        .collect();
    for &a in &cx.rules {
        let ra = cx.rule(a);
        if ra.verdict != Verdict::Allow || settings(a) {
            continue;
        }
        'asks: for &k in &asks {
            let rk = cx.rule(k);
            if rk.tool != ra.tool {
                continue;
            }
            for p in 0..ra.patterns.len() {
                let Some(la) = pattern_lang(ra, p, View::Runtime) else {
                    continue;
                };
                for q in 0..rk.patterns.len() {
                    let Some(lk) = pattern_lang(rk, q, View::Runtime) else {
                        continue;
                    };
                    if let Answer::No(w) = disjoint(&la, &lk) {
                        out.push(
                            cx.at_pattern(
                                a,
                                p,
                                Severity::Warning,
                                crate::syntax::codes::L008,
                                format!(
                                    "allow rule `{}` overlaps your Claude ask rule `{}` ({}): as a PermissionRequest hook polc would allow {} without the prompt you asked for",
                                    ra.id, rk.text, rk.span, quote(&w)
                                ),
                            )
                            .with_help(
                                "narrow the allow so it leaves those commands alone, or drop the Claude ask rule if polc should decide them",
                            ),
                        );
                        break 'asks;
                    }
                }
            }
        }
    }
}
