//! L009 — a content rule that can never decide: every literal of a `contains` rule holds a
//! literal of a `contains` deny rule for the same tool, so wherever it matches, the deny
//! matches too and wins. All deny literals are searched at once with one aho-corasick
//! automaton (built here, at lint time: the hook never builds one).

use super::Cx;
use crate::ir::{PatternKind, Verdict};
use crate::syntax::{Diagnostic, Severity};

pub(crate) fn check(cx: &Cx<'_>, out: &mut Vec<Diagnostic>) {
    // Deny literals of rules that apply wherever the candidate does (no host scope).
    let mut lits: Vec<(&str, usize)> = Vec::new();
    for &i in &cx.rules {
        let r = cx.rule(i);
        if r.verdict != Verdict::Deny || !r.hosts.is_empty() {
            continue;
        }
        for p in &r.patterns {
            if p.kind == PatternKind::Contains && !p.text.is_empty() {
                lits.push((p.text.as_str(), i));
            }
        }
    }
    if lits.is_empty() {
        return;
    }
    let Ok(ac) = aho_corasick::AhoCorasick::new(lits.iter().map(|l| l.0)) else {
        return;
    };
    for &i in &cx.rules {
        let r = cx.rule(i);
        if r.verdict == Verdict::Deny
            || r.patterns.is_empty()
            || !r.patterns.iter().all(|p| p.kind == PatternKind::Contains)
        {
            continue;
        }
        // Every literal must hold a deny literal of the same tool.
        let mut by: Option<usize> = None;
        let all = r.patterns.iter().all(|p| {
            ac.find_overlapping_iter(p.text.as_str()).any(|m| {
                let (_, d) = lits[m.pattern().as_usize()];
                let same_tool = cx.rule(d).tool == r.tool;
                if same_tool {
                    by = Some(d);
                }
                same_tool
            })
        });
        if let (true, Some(d)) = (all, by) {
            out.push(
                cx.at_rule(
                    i,
                    Severity::Warning,
                    crate::syntax::codes::L009,
                    format!(
                        "{} rule `{}` can never decide: its literal holds the literal of deny rule {}, which then matches too",
                        r.verdict,
                        r.id,
                        cx.name(d)
                    ),
                )
                .with_help("remove this rule, or narrow the deny literal"),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn content_literal_under_a_deny_literal() {
        let src = "deny bash contains \"prod\"\nask bash contains \"db.prod.internal\" { id a }\nask bash contains \"staging\" { id b }\nask edit contains \"prod-x\" { id c }\n";
        let (p, _) = crate::lower::load_str("t.pol", src, crate::ir::Tier::Project).unwrap();
        let d = super::super::lint(&p, &Default::default(), &Default::default());
        let l009: Vec<_> =
            d.0.iter()
                .filter(|x| x.code == crate::syntax::codes::L009)
                .collect();
        assert_eq!(l009.len(), 1, "{:?}", d.0);
        assert_eq!(l009[0].span.line, 2);
    }
}
