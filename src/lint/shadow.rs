//! L001 rule that can never win, L002 duplicate rule, L003 allow broader than a deny above it.

use super::lang::{includes, Answer, Lang};
use super::{is_everything, meet, pattern_lang, quote, reaches_all_of, Cx, View};
use crate::ir::{PatternKind, Rule, Verdict};
use crate::pattern::SegPattern;
use crate::syntax::{Diagnostic, Severity};
use crate::tools;

pub(super) fn check(cx: &Cx<'_>, out: &mut Vec<Diagnostic>) {
    never_wins(cx, out);
    duplicates(cx, out);
    broader_allow(cx, out);
}

/// Languages of every pattern of a rule in a view; `None` if any pattern is outside lint's
/// reasoning (then the rule as a whole is never claimed to be covered, unless a stronger
/// rule matches everything).
fn rule_langs(r: &Rule, view: View) -> Vec<Option<Lang>> {
    (0..r.patterns.len())
        .map(|p| pattern_lang(r, p, view))
        .collect()
}

/// Does `cover` hold every word of every pattern of `a` (seen in `views`)?
fn covered(cover: &Lang, a: &Rule, views: &[View]) -> bool {
    if is_everything(cover) {
        return true;
    }
    (0..a.patterns.len()).all(|p| {
        views.iter().any(|&v| match pattern_lang(a, p, v) {
            Some(l) => includes(cover, &l) == Answer::Yes,
            None => false,
        })
    })
}

fn union_of(cx: &Cx<'_>, rules: &[usize]) -> Lang {
    let mut u = Lang::default();
    for &b in rules {
        for l in rule_langs(cx.rule(b), View::Runtime).into_iter().flatten() {
            u = u.union(&l);
        }
    }
    u
}

/// L001: every command a rule matches is matched by rules of a stronger verdict that reach
/// every call it reaches, so it can never decide anything.
fn never_wins(cx: &Cx<'_>, out: &mut Vec<Diagnostic>) {
    for &a in &cx.rules {
        let ra = cx.rule(a);
        if ra.verdict == Verdict::Deny || ra.patterns.is_empty() {
            continue;
        }
        // An allow is matched against the literal reading; the deny readings of the same
        // segment hold it raw and with the program folded. Either view covered suffices.
        let views: &[View] = if ra.verdict == Verdict::Allow {
            &[View::Runtime, View::Folded]
        } else {
            &[View::Runtime]
        };
        let stronger: Vec<usize> = cx
            .rules
            .iter()
            .copied()
            .filter(|&b| b != a && cx.rule(b).verdict > ra.verdict && reaches_all_of(cx, b, a))
            .collect();
        if stronger.is_empty() {
            continue;
        }
        // One rule that covers it alone names the culprit best; else the union.
        let single = stronger
            .iter()
            .copied()
            .find(|&b| covered(&union_of(cx, &[b]), ra, views));
        let culprits: Vec<usize> = match single {
            Some(b) => vec![b],
            None => {
                if !covered(&union_of(cx, &stronger), ra, views) {
                    continue;
                }
                // Keep only the rules that overlap it at all, to name few.
                stronger
                    .iter()
                    .copied()
                    .filter(|&b| overlaps(cx, b, a))
                    .collect()
            }
        };
        let names: Vec<String> = culprits
            .iter()
            .take(3)
            .map(|&b| format!("{} {}", cx.rule(b).verdict, cx.name(b)))
            .collect();
        let more = if culprits.len() > 3 {
            format!(" and {} more", culprits.len() - 3)
        } else {
            String::new()
        };
        let by = if culprits.len() == 1 {
            format!("rule {}", names[0])
        } else {
            format!("rules {}{more} together", names.join(", "))
        };
        let strongest = culprits
            .iter()
            .map(|&b| cx.rule(b).verdict)
            .max()
            .unwrap_or(Verdict::Deny);
        out.push(
            cx.at_rule(
                a,
                Severity::Error,
                crate::syntax::codes::L001,
                format!(
                    "{} rule `{}` can never win: everything it matches is also matched by {by}, and {strongest} beats {}",
                    ra.verdict, ra.id, ra.verdict
                ),
            )
            .with_help(format!(
                "remove this rule, or narrow the {strongest} rule so that it no longer covers what this one should decide"
            )),
        );
    }
}

fn overlaps(cx: &Cx<'_>, b: usize, a: usize) -> bool {
    let (la, lb) = (
        rule_langs(cx.rule(a), View::Folded),
        rule_langs(cx.rule(b), View::Runtime),
    );
    la.iter().flatten().any(|x| {
        lb.iter()
            .flatten()
            .any(|y| !matches!(super::lang::disjoint(x, y), Answer::Yes))
    }) || la.iter().any(Option::is_none)
}

/// A pattern's identity for duplicate detection: its compiled form when it has one (so
/// `git *`, `git:*` and `prefix "git"` are the same), else kind and text.
fn pattern_key(r: &Rule, p: usize) -> String {
    let pat = &r.patterns[p];
    if r.tool == tools::BASH {
        if let Some(sp) = SegPattern::compile(pat.kind, &pat.text, r.verdict != Verdict::Allow) {
            return format!("seg:{}:{:?}", sp.tail, sp.body);
        }
    }
    if pat.kind == PatternKind::Any {
        return "any".into();
    }
    format!("{}:{}", pat.kind.as_str(), pat.text)
}

/// Verdict, tool, pattern keys and hosts (both sorted).
type RuleKey = (Verdict, String, Vec<String>, Vec<String>);

fn rule_key(r: &Rule) -> RuleKey {
    let mut pats: Vec<String> = (0..r.patterns.len()).map(|p| pattern_key(r, p)).collect();
    pats.sort();
    pats.dedup();
    let mut hosts = r.hosts.clone();
    hosts.sort();
    hosts.dedup();
    (r.verdict, r.tool.clone(), pats, hosts)
}

/// L002: same verdict, tool, patterns (as compiled) and hosts as an earlier rule.
fn duplicates(cx: &Cx<'_>, out: &mut Vec<Diagnostic>) {
    let mut seen: Vec<(usize, RuleKey)> = Vec::new();
    for &a in &cx.rules {
        let key = rule_key(cx.rule(a));
        if let Some((first, _)) = seen.iter().find(|(_, k)| *k == key) {
            out.push(
                cx.at_rule(
                    a,
                    Severity::Warning,
                    crate::syntax::codes::L002,
                    format!(
                        "rule `{}` duplicates rule {}: same verdict, tool, patterns and hosts",
                        cx.rule(a).id,
                        cx.name(*first)
                    ),
                )
                .with_help(
                    "remove one of them (merge their examples, reason and tags into the other)",
                ),
            );
        } else {
            seen.push((a, key));
        }
    }
}

/// L003: an allow written below a deny whose every command it also matches, and more. The
/// deny always wins, wherever it is written; the allow never grants those commands, which a
/// reader used to "later rules override" (gitignore, many ACLs) may not expect.
fn broader_allow(cx: &Cx<'_>, out: &mut Vec<Diagnostic>) {
    for &a in &cx.rules {
        let ra = cx.rule(a);
        if ra.verdict != Verdict::Allow || ra.patterns.is_empty() {
            continue;
        }
        let Some(allow) = rule_langs(ra, View::Folded)
            .into_iter()
            .try_fold(Lang::default(), |u, l| l.map(|l| u.union(&l)))
        else {
            continue;
        };
        for &d in cx.rules.iter().take_while(|&&d| d < a) {
            let rd = cx.rule(d);
            if rd.verdict != Verdict::Deny || !meet(cx, a, d) || rd.patterns.is_empty() {
                continue;
            }
            let Some(deny) = rule_langs(rd, View::Runtime)
                .into_iter()
                .try_fold(Lang::default(), |u, l| l.map(|l| u.union(&l)))
            else {
                continue;
            };
            // The deny is inside the allow, and the allow is strictly larger (if not, L001).
            if includes(&allow, &deny) != Answer::Yes {
                continue;
            }
            let Answer::No(extra) = includes(&deny, &allow) else {
                continue;
            };
            let blocked = match super::lang::disjoint(&deny, &deny) {
                Answer::No(w) => quote(&w),
                _ => "them".into(),
            };
            out.push(
                cx.at_rule(
                    a,
                    Severity::Warning,
                    crate::syntax::codes::L003,
                    format!(
                        "allow rule `{}` is broader than deny rule {} written above it: the allow never grants what the deny blocks (e.g. {blocked}), only the rest (e.g. {})",
                        ra.id,
                        cx.name(d),
                        quote(&extra)
                    ),
                )
                .with_help(format!(
                    "deny beats allow wherever each is written; if that is what you mean, move this allow above `{}` so the file reads the way polc decides, else narrow the allow",
                    rd.id
                )),
            );
        }
    }
}
