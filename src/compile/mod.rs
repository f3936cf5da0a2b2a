//! Lowered policy → table sections (docs/contract.md#c-table). Deterministic: the same policy gives the
//! same bytes. The layout is read by `runtime::table_rules`.

use crate::ir::{PatternKind, Policy, Rule, Verdict, TOOL_BASH};
use crate::pattern::SegPattern;
use crate::runtime::table_rules::*;
use std::collections::BTreeMap;

/// What `polc build` hands to the table writer.
pub struct Compiled {
    pub sections: Vec<(u32, Vec<u8>)>,
    pub counts: BTreeMap<String, u64>,
}

/// A pattern the compiler refused (regex outside the subset or over the DFA cap).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CompileError {
    pub rule: usize,
    pub pattern: usize,
    pub message: String,
}

#[derive(Default)]
struct Strings {
    bytes: Vec<u8>,
}

impl Strings {
    fn add(&mut self, b: &[u8]) -> (u32, u32) {
        let off = self.bytes.len() as u32;
        self.bytes.extend_from_slice(b);
        (off, b.len() as u32)
    }
}

fn push_u32s(out: &mut Vec<u8>, ws: &[u32]) {
    for w in ws {
        out.extend_from_slice(&w.to_le_bytes());
    }
}

/// The rule's most specific segment/tool pattern: literal bytes and wildcards.
pub fn rule_specificity(rule: &Rule) -> (u32, u32) {
    let mut best: Option<(u32, u32)> = None;
    for p in &rule.patterns {
        let s = match p.kind {
            PatternKind::Exact | PatternKind::Prefix | PatternKind::Glob | PatternKind::Any => {
                SegPattern::compile(p.kind, &p.text, false)
                    .map(|sp| sp.specificity())
                    .unwrap_or((0, 1))
            }
            PatternKind::Contains | PatternKind::Specifier => (p.text.len() as u32, 0),
            PatternKind::Regex => (0, 1),
        };
        best = Some(match best {
            None => s,
            Some(b) => {
                if (s.0, std::cmp::Reverse(s.1)) > (b.0, std::cmp::Reverse(b.1)) {
                    s
                } else {
                    b
                }
            }
        });
    }
    best.unwrap_or((0, 1))
}

/// Build the index for a list of (first word or None, rule, pattern bytes).
fn index(
    strings: &mut Strings,
    mut entries: Vec<(Option<Vec<u8>>, u32, Vec<u8>)>,
) -> (Vec<u8>, Vec<u8>, Vec<u8>) {
    // Wild group first, then groups sorted by key; inside a group, rule order.
    entries.sort_by(|a, b| a.0.cmp(&b.0).then(a.1.cmp(&b.1)));
    let mut pats = Vec::new();
    let mut groups: Vec<(Vec<u8>, u32, u32)> = Vec::new();
    let mut wild = (0u32, 0u32);
    for (i, (key, rule, bytes)) in entries.iter().enumerate() {
        let (off, len) = strings.add(bytes);
        push_u32s(&mut pats, &[*rule, off, len]);
        match key {
            None => wild.1 += 1,
            Some(k) => match groups.last_mut() {
                Some(g) if &g.0 == k => g.2 += 1,
                _ => groups.push((k.clone(), i as u32, 1)),
            },
        }
    }
    let mut idx = Vec::new();
    push_u32s(&mut idx, &[groups.len() as u32, wild.0, wild.1]);
    for (k, s, c) in &groups {
        let (ko, kl) = strings.add(k);
        push_u32s(&mut idx, &[ko, kl, *s, *c]);
    }
    let keys: Vec<&[u8]> = groups.iter().map(|g| g.0.as_slice()).collect();
    (pats, idx, key_hash::build(&keys))
}

/// Compile a lowered policy. Every refused pattern is reported.
#[cfg(feature = "compiler")]
pub fn compile(policy: &Policy) -> Result<Compiled, Vec<CompileError>> {
    let mut strings = Strings::default();
    let mut rules = Vec::new();
    let mut da = Vec::new();
    let mut al = Vec::new();
    let mut content = Vec::new();
    let mut regex = Vec::new();
    let mut toolpats = Vec::new();
    let mut pathpats = Vec::new();
    // (content entry, guard literals) for the content index.
    let mut guards: Vec<(u32, Option<Vec<Vec<u8>>>)> = Vec::new();
    let mut errors = Vec::new();
    for (ri, rule) in policy.rules.iter().enumerate() {
        let r = ri as u32;
        let bash = rule.tool == TOOL_BASH;
        let allow = rule.verdict == Verdict::Allow;
        let (lit, wild) = rule_specificity(rule);
        let mut mask = 0u32;
        for h in &rule.hosts {
            mask |= host_bit(h);
        }
        let tool = strings.add(rule.tool.as_bytes());
        let id = strings.add(rule.id.as_bytes());
        let text = strings.add(rule.text.as_bytes());
        let reason = match &rule.reason {
            Some(s) => strings.add(s.as_bytes()),
            None => (0, NO_REASON),
        };
        let file = strings.add(rule.span.file.as_bytes());
        let w0 = rule.verdict as u32
            | (rule.tier as u32) << 8
            | (if bash { FLAG_BASH } else { 0 }) << 16;
        push_u32s(
            &mut rules,
            &[
                w0,
                rule.priority as u32,
                lit,
                wild,
                mask,
                tool.0,
                tool.1,
                id.0,
                id.1,
                text.0,
                text.1,
                reason.0,
                reason.1,
                file.0,
                file.1,
                rule.span.line,
                rule.span.column,
                0,
            ],
        );
        for (pi, p) in rule.patterns.iter().enumerate() {
            match p.kind {
                PatternKind::Contains => {
                    let (o, l) = strings.add(p.text.as_bytes());
                    guards.push((
                        (content.len() / 16) as u32,
                        Some(vec![p.text.as_bytes().to_vec()]),
                    ));
                    push_u32s(&mut content, &[r, p.kind as u32, o, l]);
                }
                PatternKind::Regex => match crate::content::build_regex_dfa(&p.text) {
                    Ok(dfa) => {
                        while regex.len() % 8 != 0 {
                            regex.push(0);
                        }
                        let o = regex.len() as u32;
                        regex.extend_from_slice(&dfa);
                        guards.push((
                            (content.len() / 16) as u32,
                            crate::content::regex_guards(&p.text),
                        ));
                        push_u32s(&mut content, &[r, p.kind as u32, o, dfa.len() as u32]);
                    }
                    Err(message) => errors.push(CompileError {
                        rule: ri,
                        pattern: pi,
                        message,
                    }),
                },
                _ if crate::ir::is_path_tool(&rule.tool) && p.kind != PatternKind::Any => {
                    // Path globs: one DFA exact, one case-folded for deny/ask.
                    let g = crate::paths::PathGlob::parse(&p.text);
                    let mut add = |re: &str| -> Result<(u32, u32), String> {
                        let dfa = crate::content::build_regex_dfa(re)?;
                        while regex.len() % 8 != 0 {
                            regex.push(0);
                        }
                        let o = regex.len() as u32;
                        regex.extend_from_slice(&dfa);
                        Ok((o, dfa.len() as u32))
                    };
                    let exact = add(&g.regex(false));
                    let folded = if allow {
                        Ok((0, 0))
                    } else {
                        add(&g.regex(true))
                    };
                    let fx = strings.add(g.glob.as_bytes());
                    match (exact, folded) {
                        (Ok(e), Ok(f)) => push_u32s(
                            &mut pathpats,
                            &[r, g.anchor as u32, e.0, e.1, f.0, f.1, fx.0, fx.1],
                        ),
                        (Err(message), _) | (_, Err(message)) => errors.push(CompileError {
                            rule: ri,
                            pattern: pi,
                            message,
                        }),
                    }
                }
                _ if bash => {
                    // Specifiers never reach bash (the front end turns them into globs).
                    let kind = if p.kind == PatternKind::Specifier {
                        PatternKind::Glob
                    } else {
                        p.kind
                    };
                    if let Some(sp) = SegPattern::compile(kind, &p.text, !allow) {
                        let key = index_key(&sp.body).map(|k| k.to_vec());
                        let e = (key, r, sp.to_bytes());
                        if allow {
                            al.push(e);
                        } else {
                            da.push(e);
                        }
                    }
                }
                _ => {
                    // Domain rules and field/argument globs keep their text.
                    let bytes = p.text.as_bytes();
                    let (o, l) = strings.add(bytes);
                    let key = tool_key(&rule.tool);
                    toolpats.push((key, [r, p.kind as u32, o, l]));
                }
            }
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    // Tool patterns grouped by tool name (wild group: names with `*`), rule order inside.
    toolpats.sort_by(|a, b| a.0.cmp(&b.0).then(a.1[0].cmp(&b.1[0])));
    let mut tool_groups: Vec<(Vec<u8>, u32, u32)> = Vec::new();
    let mut tool_wild = 0u32;
    let mut toolpat_bytes = Vec::new();
    for (i, (key, e)) in toolpats.iter().enumerate() {
        push_u32s(&mut toolpat_bytes, e);
        match key {
            None => tool_wild += 1,
            Some(k) => match tool_groups.last_mut() {
                Some(g) if &g.0 == k => g.2 += 1,
                _ => tool_groups.push((k.clone(), i as u32, 1)),
            },
        }
    }
    let mut tool_idx = Vec::new();
    push_u32s(&mut tool_idx, &[tool_groups.len() as u32, 0, tool_wild]);
    for (k, s, c) in &tool_groups {
        let (ko, kl) = strings.add(k);
        push_u32s(&mut tool_idx, &[ko, kl, *s, *c]);
    }
    let content_idx = content_index::build(&guards, |b| strings.add(b));
    let (da_pats, da_idx, da_hash) = index(&mut strings, da);
    let (al_pats, al_idx, al_hash) = index(&mut strings, al);
    let mut counts = BTreeMap::new();
    counts.insert("rules".to_string(), policy.rules.len() as u64);
    counts.insert("examples".to_string(), policy.examples.len() as u64);
    counts.insert("content_entries".to_string(), (content.len() / 16) as u64);
    // Session features (src/session/): their own sections, none without them.
    let session = crate::session::compile::sections(policy)?;
    Ok(Compiled {
        sections: session
            .into_iter()
            .chain(vec![
                (SEC_STRINGS, strings.bytes),
                (SEC_RULES, rules),
                (SEC_DA_PATS, da_pats),
                (SEC_DA_INDEX, da_idx),
                (SEC_AL_PATS, al_pats),
                (SEC_AL_INDEX, al_idx),
                (SEC_CONTENT, content),
                (SEC_REGEX, regex),
                (SEC_TOOLPATS, toolpat_bytes),
                (SEC_CONTENT_INDEX, content_idx),
                (SEC_DA_HASH, da_hash),
                (SEC_AL_HASH, al_hash),
                (SEC_TOOL_INDEX, tool_idx),
                (SEC_PATHS, pathpats),
            ])
            .collect(),
        counts,
    })
}

impl Compiled {
    pub fn section(&self, kind: u32) -> Option<&[u8]> {
        self.sections
            .iter()
            .find(|(k, _)| *k == kind)
            .map(|(_, v)| v.as_slice())
    }
}
