//! Lowered policy → table sections (docs/contract.md#c-table). Deterministic: the same policy
//! gives the same bytes. The byte format of every section lives in `crate::table::sections`
//! (written here, read by `runtime::table_rules`); this module only decides what goes in.

use crate::ir::{PatternKind, Policy, Rule, Verdict, TOOL_BASH};
use crate::pattern::{rule_specificity, SegPattern};
use crate::table::sections::content::ContentIndex;
use crate::table::sections::groups::{build_segments, build_tools};
use crate::table::sections::keys::path_literal;
use crate::table::sections::keys::{host_bit, index_key, tool_key};
use crate::table::sections::paths::{build_paths, PathBuild};
use crate::table::sections::{
    ContentEntry, Kind, PathEntry, RuleRecord, Span, StringsWriter, ToolEntry,
};
use std::collections::BTreeMap;

pub mod session;

/// What `polc build` hands to the table writer.
pub struct Compiled {
    pub sections: Vec<(u32, Vec<u8>)>,
    pub counts: BTreeMap<String, u64>,
}

/// A pattern the compiler refused (regex outside the subset or over the DFA cap).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CompileError {
    /// Index of the rule in the policy; `usize::MAX` for a session sub-table's pattern (the
    /// message names which, `compile::session`).
    pub rule: usize,
    pub pattern: usize,
    pub message: String,
}

impl std::fmt::Display for CompileError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.rule == usize::MAX {
            write!(f, "pattern {}: {}", self.pattern + 1, self.message)
        } else {
            let (r, p) = (self.rule + 1, self.pattern + 1);
            write!(f, "rule {r}, pattern {p}: {}", self.message)
        }
    }
}

impl std::error::Error for CompileError {}

/// A pattern the DFA builder refused (its message); [`compile`] adds the rule and pattern.
#[derive(Debug)]
struct Refused(String);

/// Segment-index entries: (key, rule, pattern bytes).
type SegEntries = Vec<(Option<Vec<u8>>, u32, Vec<u8>)>;

/// The sections as they are being filled, rule by rule.
#[derive(Default)]
struct Builder {
    strings: StringsWriter,
    rules: Vec<u8>,
    deny_ask: SegEntries,
    allow: SegEntries,
    content: Vec<u8>,
    content_count: u32,
    regex: Vec<u8>,
    tools: Vec<(Option<Vec<u8>>, ToolEntry)>,
    paths: Vec<PathBuild>,
    /// (content entry, guard literals) for the content index.
    guards: Vec<(u32, Option<Vec<Vec<u8>>>)>,
}

impl Builder {
    /// Append a serialised DFA to the regex section, 8-aligned.
    fn add_dfa(&mut self, dfa: &[u8]) -> Span {
        while !self.regex.len().is_multiple_of(8) {
            self.regex.push(0);
        }
        let o = self.regex.len() as u32;
        self.regex.extend_from_slice(dfa);
        Span::new(o, dfa.len() as u32)
    }

    fn add_rule_record(&mut self, rule: &Rule) {
        let (literal, wildcards) = rule_specificity(rule);
        let s = &mut self.strings;
        let rec = RuleRecord {
            verdict: rule.verdict,
            tier: rule.tier,
            bash: rule.tool == TOOL_BASH,
            priority: rule.priority,
            literal,
            wildcards,
            hosts: rule.hosts.iter().fold(0, |m, h| m | host_bit(h)),
            tool: s.add(rule.tool.as_bytes()),
            id: s.add(rule.id.as_bytes()),
            text: s.add(rule.text.as_bytes()),
            reason: rule.reason.as_ref().map(|r| s.add(r.as_bytes())),
            file: s.add(rule.span.file.as_bytes()),
            line: rule.span.line,
            column: rule.span.column,
        };
        rec.write(&mut self.rules);
    }

    fn add_content(&mut self, r: u32, kind: PatternKind, data: Span, guards: Option<Vec<Vec<u8>>>) {
        self.guards.push((self.content_count, guards));
        ContentEntry {
            rule: r,
            kind: kind as u32,
            data,
        }
        .write(&mut self.content);
        self.content_count += 1;
    }

    /// Path globs of file tools: one DFA exact, one case-folded for deny/ask; indexed by
    /// class (side, tool, anchor, policy file for `/x`) and literal key. `Err`: the DFA
    /// builder's message.
    fn add_path(&mut self, r: u32, rule: &Rule, text: &str) -> Result<(), Refused> {
        let allow = rule.verdict == Verdict::Allow;
        let g = crate::paths::PathGlob::parse(text);
        let exact = crate::content::build_regex_dfa(&g.regex(false)).map_err(Refused)?;
        let folded = if allow {
            None
        } else {
            Some(crate::content::build_regex_dfa(&g.regex(true)).map_err(Refused)?)
        };
        let exact = self.add_dfa(&exact);
        let folded = folded.map(|f| self.add_dfa(&f)).unwrap_or_default();
        let glob = self.strings.add(g.glob.as_bytes());
        let file = if g.anchor == crate::paths::Anchor::PolicyDir {
            rule.span.file.as_bytes().to_vec()
        } else {
            Vec::new()
        };
        self.paths.push(PathBuild {
            allow,
            anchor: g.anchor as u32,
            tool: rule.tool.as_bytes().to_vec(),
            file,
            literal: path_literal(g.anchor, &g.glob),
            entry: PathEntry {
                rule: r,
                anchor: g.anchor as u32,
                exact,
                folded,
                glob,
            },
        });
        Ok(())
    }

    /// One pattern of rule `r`; `Err` for a refused pattern.
    fn add_pattern(
        &mut self,
        r: u32,
        rule: &Rule,
        kind: PatternKind,
        text: &str,
    ) -> Result<(), Refused> {
        let allow = rule.verdict == Verdict::Allow;
        match kind {
            PatternKind::Contains => {
                let data = self.strings.add(text.as_bytes());
                self.add_content(r, kind, data, Some(vec![text.as_bytes().to_vec()]));
            }
            PatternKind::Regex => {
                let dfa = crate::content::build_regex_dfa(text).map_err(Refused)?;
                let data = self.add_dfa(&dfa);
                self.add_content(r, kind, data, crate::content::regex_guards(text));
            }
            _ if crate::ir::is_path_tool(&rule.tool) && kind != PatternKind::Any => {
                self.add_path(r, rule, text)?;
            }
            _ if rule.tool == TOOL_BASH => {
                // Specifiers never reach bash (the front end turns them into globs).
                let kind = if kind == PatternKind::Specifier {
                    PatternKind::Glob
                } else {
                    kind
                };
                if let Some(sp) = SegPattern::compile(kind, text, !allow) {
                    let e = (index_key(&sp.body).map(|k| k.to_vec()), r, sp.to_bytes());
                    if allow {
                        self.allow.push(e);
                    } else {
                        self.deny_ask.push(e);
                    }
                }
            }
            _ => {
                // Domain rules and field/argument globs keep their text.
                // WebFetch domain rules are filed under their host as well
                // (`web::rule_index_key`), so a URL reads only the rules of its hosts.
                let mut key = tool_key(&rule.tool);
                if rule.tool == crate::tools::WEBFETCH && kind != PatternKind::Any {
                    if let (Some(k), Some(h)) = (key.as_mut(), crate::web::rule_index_key(text)) {
                        k.extend_from_slice(&h);
                    }
                }
                let text = self.strings.add(text.as_bytes());
                let e = ToolEntry {
                    rule: r,
                    kind: kind as u32,
                    text,
                };
                self.tools.push((key, e));
            }
        }
        Ok(())
    }

    /// The sections, in kind order.
    fn finish(mut self) -> Vec<(u32, Vec<u8>)> {
        let (tool_pats, tool_idx) = build_tools(&mut self.strings, std::mem::take(&mut self.tools));
        let strings = &mut self.strings;
        let content_idx = ContentIndex::build(&self.guards, |b| strings.add(b));
        let [da_pats, da_idx, da_hash, da_filters] =
            build_segments(strings, std::mem::take(&mut self.deny_ask));
        let [al_pats, al_idx, al_hash, al_filters] =
            build_segments(strings, std::mem::take(&mut self.allow));
        let [paths, path_classes, path_idx, path_hash] =
            build_paths(strings, std::mem::take(&mut self.paths));
        vec![
            (Kind::Strings as u32, self.strings.bytes),
            (Kind::Rules as u32, self.rules),
            (Kind::DenyAskPatterns as u32, da_pats),
            (Kind::DenyAskIndex as u32, da_idx),
            (Kind::AllowPatterns as u32, al_pats),
            (Kind::AllowIndex as u32, al_idx),
            (Kind::Content as u32, self.content),
            (Kind::Regex as u32, self.regex),
            (Kind::ToolPatterns as u32, tool_pats),
            (Kind::ContentIndex as u32, content_idx),
            (Kind::DenyAskHash as u32, da_hash),
            (Kind::AllowHash as u32, al_hash),
            (Kind::ToolIndex as u32, tool_idx),
            (Kind::Paths as u32, paths),
            (Kind::DenyAskFilters as u32, da_filters),
            (Kind::AllowFilters as u32, al_filters),
            (Kind::PathClasses as u32, path_classes),
            (Kind::PathIndex as u32, path_idx),
            (Kind::PathHash as u32, path_hash),
        ]
    }
}

/// Compile a lowered policy. Every refused pattern is reported.
#[cfg(feature = "compiler")]
pub fn compile(policy: &Policy) -> Result<Compiled, Vec<CompileError>> {
    let mut b = Builder::default();
    let mut errors = Vec::new();
    for (ri, rule) in policy.rules.iter().enumerate() {
        b.add_rule_record(rule);
        for (pi, p) in rule.patterns.iter().enumerate() {
            if let Err(Refused(message)) = b.add_pattern(ri as u32, rule, p.kind, &p.text) {
                errors.push(CompileError {
                    rule: ri,
                    pattern: pi,
                    message,
                });
            }
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let mut counts = BTreeMap::new();
    counts.insert("rules".to_string(), policy.rules.len() as u64);
    counts.insert("examples".to_string(), policy.examples.len() as u64);
    counts.insert("content_entries".to_string(), b.content_count as u64);
    // Session features (src/session/): their own sections, none without them.
    let session = session::sections(policy)?;
    let mut sections = b.finish();
    sections.extend(session);
    Ok(Compiled { sections, counts })
}

impl Compiled {
    pub fn section(&self, kind: u32) -> Option<&[u8]> {
        self.sections
            .iter()
            .find(|(k, _)| *k == kind)
            .map(|(_, v)| v.as_slice())
    }
}
