//! `polc lint`: findings about a lowered policy that its author should hear, reasoned exactly
//! on the pattern languages (see `lang.rs`), never guessed. Every code is documented with
//! an example and its fix in `src/lint/README.md`.
//!
//! Families:
//! - `shadow.rs` — L001 rule that can never win, L002 duplicate rule, L003 allow broader
//!   than a deny above it;
//! - `traps.rs` — L004/L005 the no-wildcard traps of Claude rule strings (docs/contract.md#c-claude-strings);
//! - `broad.rs` — L006 allow granting a whole interpreter or wrapper, L007 wildcard before
//!   the program name in an allow;
//! - `host.rs` — L008 (`--host claude`) polc allows overlapping the user's Claude ask rules;
//! - `content.rs` — L009 a content rule whose literal holds a deny literal (aho-corasick);
//! - `selfprot.rs` — L011 rules that can lift self-protection, L012 (note) allows that run
//!   code the agent can write.

pub mod lang;

mod broad;
mod content;
mod host;
mod selfprot;
mod shadow;
mod traps;

use crate::ir::{PatternKind, Policy, Rule, Verdict};
use crate::pattern::{SegPattern, STAR};
use crate::syntax::{self, Diagnostic, Diagnostics, Item, Severity, SourceKind, SourceText};
use crate::tools;
use lang::Lang;
use std::cell::RefCell;
use std::collections::HashMap;
use std::path::PathBuf;

/// What to lint for.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// Only rules that apply to this host; `claude` also turns on L008.
    pub host: Option<String>,
}

/// Load the sources and lint them. `Err` carries the load errors (the policy does not
/// lower, so there is nothing to lint); `Ok` carries load warnings then findings.
pub fn lint_paths(sources: &[PathBuf], opts: &Options) -> Result<Diagnostics, Diagnostics> {
    let (policy, warnings) = crate::lower::load(sources, crate::ir::Tier::Project, None)?;
    let mut out = warnings;
    out.extend(lint(&policy, opts, &HashMap::new()));
    Ok(out)
}

/// Lint a lowered policy. `texts` gives source texts by span file name (for snippets);
/// files not in it are read from disk, and a file that cannot be read just has no snippet.
pub fn lint(policy: &Policy, opts: &Options, texts: &HashMap<String, String>) -> Diagnostics {
    let cx = Cx::new(policy, opts, texts);
    let mut out = Vec::new();
    shadow::check(&cx, &mut out);
    traps::check(&cx, &mut out);
    broad::check(&cx, &mut out);
    host::check(&cx, &mut out);
    content::check(&cx, &mut out);
    selfprot::check(&cx, &mut out);
    // Source order: file, line, column, then code.
    out.sort_by(|a, b| {
        (&a.span.file, a.span.line, a.span.column, a.code).cmp(&(
            &b.span.file,
            b.span.line,
            b.span.column,
            b.code,
        ))
    });
    Diagnostics(out)
}

/// Shared context: the rules in scope, their languages, and source texts for snippets.
pub(crate) struct Cx<'p> {
    pub policy: &'p Policy,
    pub opts: &'p Options,
    /// Indices of the rules in scope (all, or those applying to `--host`).
    pub rules: Vec<usize>,
    texts: RefCell<HashMap<String, Option<SourceText>>>,
    given: &'p HashMap<String, String>,
}

impl<'p> Cx<'p> {
    fn new(policy: &'p Policy, opts: &'p Options, given: &'p HashMap<String, String>) -> Cx<'p> {
        let rules = (0..policy.rules.len())
            .filter(|&i| match &opts.host {
                Some(h) => policy.rules[i].applies_to_host(h),
                None => true,
            })
            .collect();
        Cx {
            policy,
            opts,
            rules,
            texts: RefCell::new(HashMap::new()),
            given,
        }
    }

    pub fn rule(&self, i: usize) -> &'p Rule {
        &self.policy.rules[i]
    }

    fn with_text<T>(&self, file: &str, f: impl FnOnce(Option<&SourceText>) -> T) -> T {
        let mut cache = self.texts.borrow_mut();
        let entry = cache.entry(file.to_string()).or_insert_with(|| {
            let text = match self.given.get(file) {
                Some(t) => Some(t.clone()),
                None => std::fs::read_to_string(file).ok(),
            };
            text.map(|t| SourceText::new(file, t))
        });
        f(entry.as_ref())
    }

    /// A finding with the caret under the rule's head (DSL) or its rule string (JSON).
    pub fn at_rule(
        &self,
        i: usize,
        severity: Severity,
        code: crate::syntax::codes::Code,
        message: String,
    ) -> Diagnostic {
        let r = self.rule(i);
        let line = self.with_text(&r.span.file, |t| {
            t.map(|t| t.line_text(r.span.line).to_string())
                .unwrap_or_default()
        });
        let len = caret_len(&line, r.span.column, &r.text);
        let d = Diagnostic::error(code, message, r.span.clone())
            .with_len(len)
            .with_line(line);
        Diagnostic { severity, ..d }
    }

    /// A finding at one pattern of a rule: the pattern's own string when the source can be
    /// re-read and still shows it, else the rule.
    pub fn at_pattern(
        &self,
        i: usize,
        p: usize,
        severity: Severity,
        code: crate::syntax::codes::Code,
        message: String,
    ) -> Diagnostic {
        let r = self.rule(i);
        if SourceKind::for_name(&r.span.file) == SourceKind::Dsl {
            let found = self.with_text(&r.span.file, |t| {
                let t = t?;
                let mut diags = Diagnostics::new();
                let ast = syntax::parse_source(t, &mut diags);
                ast.items.into_iter().find_map(|it| match it {
                    Item::Rule(a)
                        if a.span.line == r.span.line
                            && a.span.column == r.span.column
                            && a.patterns.len() == r.patterns.len()
                            && a.patterns[p].value == r.patterns[p] =>
                    {
                        let l = &a.patterns[p];
                        Some((l.span.clone(), l.len, t.line_text(l.span.line).to_string()))
                    }
                    _ => None,
                })
            });
            if let Some((span, len, line)) = found {
                let d = Diagnostic::error(code, message, span)
                    .with_len(len)
                    .with_line(line);
                return Diagnostic { severity, ..d };
            }
        }
        self.at_rule(i, severity, code, message)
    }

    /// `id (file:line:col)`, how findings name another rule.
    pub fn name(&self, i: usize) -> String {
        let r = self.rule(i);
        format!("`{}` ({})", r.id, r.span)
    }
}

/// Caret width under a rule: a JSON string token, else the rule's head text, else 1.
fn caret_len(line: &str, column: u32, text: &str) -> u32 {
    let rest: String = line
        .chars()
        .skip(column.saturating_sub(1) as usize)
        .collect();
    if let Some(body) = rest.strip_prefix('"') {
        let mut esc = false;
        for (n, c) in body.chars().enumerate() {
            if esc {
                esc = false;
            } else if c == '\\' {
                esc = true;
            } else if c == '"' {
                return n as u32 + 2;
            }
        }
        return rest.chars().count() as u32;
    }
    if !text.is_empty() && rest.starts_with(text) {
        return text.chars().count() as u32;
    }
    1
}

/// How a pattern is seen by the check at hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum View {
    /// As the runtime matches it (deny/ask program words case-folded).
    Runtime,
    /// An allow pattern as the deny readings of the words it matches look: its literal
    /// program word folded to its lower-case basename (`/usr/bin/Git` → `git`).
    Folded,
}

/// The language of pattern `p` of rule `r`, or `None` when lint does not reason about it
/// (content scanners, specifiers).
pub(crate) fn pattern_lang(r: &Rule, p: usize, view: View) -> Option<Lang> {
    let pat = &r.patterns[p];
    if r.tool == tools::BASH {
        let fold = r.verdict != Verdict::Allow;
        let mut sp = SegPattern::compile(pat.kind, &pat.text, fold)?;
        if view == View::Folded {
            let end = sp
                .body
                .iter()
                .position(|&b| b == b' ')
                .unwrap_or(sp.body.len());
            if !sp.body[..end].contains(&STAR) {
                let word = &sp.body[..end];
                let base = match word.iter().rposition(|&b| b == b'/') {
                    Some(k) => &word[k + 1..],
                    None => word,
                };
                let mut body = base.to_ascii_lowercase();
                body.extend_from_slice(&sp.body[end..]);
                sp.body = body;
            }
        }
        return Some(Lang::of(&sp));
    }
    match pat.kind {
        PatternKind::Any => Some(Lang::all()),
        PatternKind::Exact => Some(Lang {
            alts: vec![pat.text.as_bytes().to_vec()],
        }),
        PatternKind::Prefix => Some(Lang::byte_prefix(pat.text.as_bytes())),
        PatternKind::Glob => {
            SegPattern::compile(PatternKind::Glob, &pat.text, false).map(|s| Lang::of(&s))
        }
        _ => None,
    }
}

/// Is a language every string? (`*`, `any`, a bare `Bash`.)
pub(crate) fn is_everything(l: &Lang) -> bool {
    l.alts.iter().any(|a| a.as_slice() == [STAR])
}

/// Does rule `b` reach every call rule `a` reaches, tool- and host-wise?
pub(crate) fn reaches_all_of(cx: &Cx<'_>, b: usize, a: usize) -> bool {
    let (rb, ra) = (cx.rule(b), cx.rule(a));
    let tool = rb.tool == ra.tool
        || (!ra.tool.contains('*') && crate::pattern::tool_matches(&rb.tool, &ra.tool, false));
    if !tool {
        return false;
    }
    if cx.opts.host.is_some() {
        // Both are in scope, so both apply to that host.
        return true;
    }
    rb.hosts.is_empty() || (!ra.hosts.is_empty() && ra.hosts.iter().all(|h| rb.hosts.contains(h)))
}

/// Do two rules share a tool and at least one host?
pub(crate) fn meet(cx: &Cx<'_>, a: usize, b: usize) -> bool {
    let (ra, rb) = (cx.rule(a), cx.rule(b));
    ra.tool == rb.tool
        && (ra.hosts.is_empty()
            || rb.hosts.is_empty()
            || ra.hosts.iter().any(|h| rb.hosts.contains(h)))
}

/// Quote a witness word for a message, shortened.
pub(crate) fn quote(w: &[u8]) -> String {
    let s = lang::show(w);
    let s: String = if s.chars().count() > 60 {
        let mut t: String = s.chars().take(59).collect();
        t.push('…');
        t
    } else {
        s
    };
    format!("`{s}`")
}

#[cfg(test)]
mod tests;
