//! The reference interpreter: answers the decision procedure's questions straight from the
//! lowered rules, by a linear scan with no index, no table and no byte encoding. The
//! differential test requires the compiled table to agree with it on every input.

use super::toolmatch::tool_pattern_match;
use super::{Corrupt, RuleDesc, RuleFacts, RuleSource, Score, Side};
use crate::ir::{PatternKind, Policy, Verdict, TOOL_BASH};
use crate::pattern::tool_matches;
use crate::pattern::{rule_specificity, Match, SegPattern};

/// A path pattern's anchor with its exact and case-folded DFAs.
type PathDfas = (crate::paths::PathGlob, Vec<u8>, Vec<u8>);

pub struct Reference<'p> {
    policy: &'p Policy,
    /// Compiled regex DFAs per (rule, pattern), built once.
    dfas: Vec<Vec<Option<Vec<u8>>>>,
    /// Path rules' (anchor, exact DFA, folded DFA) per (rule, pattern).
    path_dfas: Vec<Vec<Option<PathDfas>>>,
}

impl<'p> Reference<'p> {
    pub fn new(policy: &'p Policy) -> Reference<'p> {
        let dfas = policy
            .rules
            .iter()
            .map(|r| {
                r.patterns
                    .iter()
                    .map(|p| {
                        // (This module exists only with the compiler feature.)
                        (p.kind == PatternKind::Regex)
                            .then(|| crate::content::build_regex_dfa(&p.text).ok())
                            .flatten()
                    })
                    .collect()
            })
            .collect();
        let path_dfas = policy
            .rules
            .iter()
            .map(|r| {
                r.patterns
                    .iter()
                    .map(|p| {
                        if !crate::ir::is_path_tool(&r.tool)
                            || p.kind.is_content()
                            || p.kind == PatternKind::Any
                        {
                            return None;
                        }
                        let g = crate::paths::PathGlob::parse(&p.text);
                        let exact = crate::content::build_regex_dfa(&g.regex(false)).ok()?;
                        let folded = if r.verdict == Verdict::Allow {
                            Vec::new()
                        } else {
                            crate::content::build_regex_dfa(&g.regex(true)).ok()?
                        };
                        Some((g, exact, folded))
                    })
                    .collect()
            })
            .collect();
        Reference {
            policy,
            dfas,
            path_dfas,
        }
    }

    fn rule(&self, i: u32) -> Result<&crate::ir::Rule, Corrupt> {
        self.policy.rules.get(i as usize).ok_or(Corrupt::rule(i))
    }
}

impl RuleFacts for Reference<'_> {
    fn verdict(&self, rule: u32) -> Result<Verdict, Corrupt> {
        Ok(self.rule(rule)?.verdict)
    }

    fn score(&self, rule: u32) -> Result<Score, Corrupt> {
        let r = self.rule(rule)?;
        let (literal, wildcards) = rule_specificity(r);
        Ok(Score {
            tier: r.tier,
            priority: r.priority,
            literal,
            wildcards,
        })
    }

    fn describe(&self, rule: u32) -> Result<RuleDesc, Corrupt> {
        let r = self.rule(rule)?;
        Ok(RuleDesc {
            id: r.id.clone(),
            verdict: r.verdict,
            tool: r.tool.clone(),
            source: r.span.file.clone(),
            line: r.span.line,
            column: r.span.column,
            text: r.text.clone(),
            reason: r.reason.clone(),
        })
    }
}

impl RuleSource for Reference<'_> {
    fn match_segment(
        &self,
        reading: &[u8],
        side: Side,
        host: &str,
        f: &mut dyn FnMut(u32, Match),
    ) -> Result<(), Corrupt> {
        let allow = side.is_allow();
        for (i, r) in self.policy.rules.iter().enumerate() {
            if r.tool != TOOL_BASH
                || (r.verdict == Verdict::Allow) != allow
                || !r.applies_to_host(host)
            {
                continue;
            }
            let mut best: Option<Match> = None;
            for p in &r.patterns {
                if p.kind.is_content() {
                    continue;
                }
                let kind = if p.kind == PatternKind::Specifier {
                    PatternKind::Glob
                } else {
                    p.kind
                };
                if let Some(sp) = SegPattern::compile(kind, &p.text, !allow) {
                    if let Some(m) = sp.matches(reading) {
                        best = best.max(Some(m));
                    }
                }
            }
            if let Some(m) = best {
                // The table reports one entry per pattern; report likewise so the
                // procedure's de-duplication is exercised the same way.
                f(i as u32, m);
            }
        }
        Ok(())
    }

    fn match_content(
        &self,
        tool: &str,
        texts: &[&[u8]],
        side: Side,
        host: &str,
        f: &mut dyn FnMut(u32),
    ) -> Result<(), Corrupt> {
        let allow = side.is_allow();
        for (i, r) in self.policy.rules.iter().enumerate() {
            if (r.verdict == Verdict::Allow) != allow
                || !r.applies_to_host(host)
                || !tool_matches(&r.tool, tool, allow)
            {
                continue;
            }
            let mut hit = false;
            for (pi, p) in r.patterns.iter().enumerate() {
                match p.kind {
                    PatternKind::Contains => {
                        let lit = p.text.as_bytes();
                        hit |= texts.iter().any(|t| {
                            t.windows(lit.len().max(1)).any(|w| w == lit) || lit.is_empty()
                        });
                    }
                    PatternKind::Regex => {
                        let dfa = self.dfas[i][pi].as_ref().ok_or(Corrupt::rule(i as u32))?;
                        for t in texts {
                            hit |= crate::content::regex_dfa_is_match(dfa, t)
                                .ok_or(Corrupt::rule(i as u32))?;
                        }
                    }
                    _ => {}
                }
            }
            if hit {
                f(i as u32);
            }
        }
        Ok(())
    }

    fn match_path(
        &self,
        tool: &str,
        q: &super::PathQuery,
        ctx: &super::Context,
        side: Side,
        host: &str,
        f: &mut dyn FnMut(u32),
    ) -> Result<(), Corrupt> {
        let allow = side.is_allow();
        for (i, r) in self.policy.rules.iter().enumerate() {
            if r.tool != tool || (r.verdict == Verdict::Allow) != allow || !r.applies_to_host(host)
            {
                continue;
            }
            for entry in self.path_dfas[i].iter().flatten() {
                let (g, exact, folded) = entry;
                let dir = super::pathmatch::policy_dir(&r.span.file, ctx);
                if super::pathmatch::rule_matches(
                    g.anchor,
                    dir.as_deref(),
                    exact,
                    folded,
                    q,
                    ctx,
                    allow,
                )? {
                    f(i as u32);
                }
            }
        }
        Ok(())
    }

    fn match_path_under(
        &self,
        tool: &str,
        folder: &std::path::Path,
        ctx: &super::Context,
        host: &str,
        f: &mut dyn FnMut(u32),
    ) -> Result<(), Corrupt> {
        for (i, r) in self.policy.rules.iter().enumerate() {
            if r.tool != tool || r.verdict == Verdict::Allow || !r.applies_to_host(host) {
                continue;
            }
            for (g, _, _) in self.path_dfas[i].iter().flatten() {
                let dir = super::pathmatch::policy_dir(&r.span.file, ctx);
                if super::pathmatch::path_could_hold(g.anchor, dir.as_deref(), &g.glob, folder, ctx)
                {
                    f(i as u32);
                }
            }
        }
        Ok(())
    }

    fn match_tool(
        &self,
        tool: &str,
        subject: &str,
        input_text: &str,
        host: &str,
        f: &mut dyn FnMut(u32, Match),
    ) -> Result<(), Corrupt> {
        for (i, r) in self.policy.rules.iter().enumerate() {
            let allow = r.verdict == Verdict::Allow;
            if r.tool == TOOL_BASH
                || !r.applies_to_host(host)
                || !tool_matches(&r.tool, tool, allow)
            {
                continue;
            }
            for p in &r.patterns {
                if p.kind.is_content()
                    || (crate::ir::is_path_tool(&r.tool) && p.kind != PatternKind::Any)
                {
                    continue;
                }
                let text = p.text.as_bytes().to_vec();
                if let Some(m) =
                    tool_pattern_match(&r.tool, p.kind, &text, subject, input_text, allow)
                {
                    f(i as u32, m);
                }
            }
        }
        Ok(())
    }
}
