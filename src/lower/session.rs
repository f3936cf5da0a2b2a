//! Lowering the session items (`session …`, `VERDICT sequence { … }`; src/session/README.md).

use super::Loader;
use crate::ir::session::{
    Audit, Limits, Rewrite, RwExample, SeqExample, Sequence, SessionPolicy, Step,
    DEFAULT_CONSECUTIVE, DEFAULT_TOTAL,
};
use crate::ir::{Decision, Verdict};
use crate::syntax::session::{AstRewrite, AstSequence, AstSession};
use crate::syntax::{AstRule, Located};

/// The longest chain a sequence rule may have (each step is one more state to keep).
pub const MAX_STEPS: usize = 4;

impl Loader<'_> {
    pub(super) fn session_item(&mut self, s: AstSession, out: &mut SessionPolicy) {
        match s {
            AstSession::Denials {
                consecutive,
                total,
                span,
            } => {
                let mut lim = |v: Option<Located<i64>>, dflt: u32| -> u32 {
                    match v {
                        None => dflt,
                        Some(l) if (1..=10_000).contains(&l.value) => l.value as u32,
                        Some(l) => {
                            let d = self
                                .at(
                                    crate::syntax::codes::E014,
                                    "limit out of range",
                                    &l.span,
                                    l.len,
                                )
                                .with_help("a denial limit is between 1 and 10000");
                            self.diags.push(d);
                            dflt
                        }
                    }
                };
                let l = Limits {
                    consecutive: lim(consecutive, DEFAULT_CONSECUTIVE),
                    total: lim(total, DEFAULT_TOTAL),
                };
                if out.limits.is_some() {
                    let d = self
                        .at(
                            crate::syntax::codes::E016,
                            "denial limits given twice",
                            &span,
                            7,
                        )
                        .with_help("give `session denials` once across all sources");
                    self.diags.push(d);
                }
                out.limits = Some(l);
            }
            AstSession::Audit { hash, .. } => {
                let prev = out.audit.map(|a| a.hash).unwrap_or(false);
                out.audit = Some(Audit { hash: hash || prev });
            }
        }
    }

    pub(super) fn sequence(&mut self, s: AstSequence, id: String) -> Option<Sequence> {
        let mut ok = self.hosts_ok(s.hosts.as_deref().unwrap_or(&[]));
        let bad = |this: &mut Self, msg: &str, help: &str| {
            let d = this
                .at(crate::syntax::codes::E017, msg, &s.span, s.len)
                .with_help(help.to_string());
            this.diags.push(d);
        };
        if s.verdict == Verdict::Allow {
            ok = false;
            bad(
                self,
                "a sequence rule cannot allow",
                "write `deny sequence` or `ask sequence`",
            );
        }
        if s.steps.len() < 2 || s.steps.len() > MAX_STEPS {
            ok = false;
            bad(
                self,
                &format!(
                    "a sequence needs 2 to {MAX_STEPS} steps, this one has {}",
                    s.steps.len()
                ),
                "give each step on its own `step` line, in order",
            );
        }
        let mut steps = Vec::new();
        for (i, st) in s.steps.iter().enumerate() {
            if st.net {
                steps.push(Step::Net);
                continue;
            }
            if st.tool.is_empty() {
                ok = false;
                continue;
            }
            let ast = AstRule {
                verdict: Verdict::Deny,
                tool: st.tool.clone(),
                patterns: st.patterns.clone(),
                id: None,
                reason: None,
                priority: None,
                hosts: s.hosts.clone(),
                tags: Vec::new(),
                examples: Vec::new(),
                remember: None,
                text: crate::syntax::clip_text(&format!("step {}", i + 1)),
                span: st.span.clone(),
                len: 4,
            };
            match self.rule(ast, format!("{id}#{}", i + 1)) {
                Some(r) => steps.push(Step::Rule(Box::new(r))),
                None => ok = false,
            }
        }
        let examples = self.sequence_examples(&s, &mut ok);
        if !ok {
            return None;
        }
        Some(Sequence {
            id,
            verdict: s.verdict,
            reason: s.reason,
            steps,
            interrupt: s.interrupt,
            hosts: s
                .hosts
                .unwrap_or_default()
                .into_iter()
                .map(|h| h.value)
                .collect(),
            text: s.text,
            span: s.span,
            tier: self.tier,
            examples,
        })
    }

    /// A sequence rule's examples; `ok` turns false on a bad host or expectation.
    fn sequence_examples(&mut self, s: &AstSequence, ok: &mut bool) -> Vec<SeqExample> {
        let mut examples = Vec::new();
        for e in &s.examples {
            if let Some(h) = &e.host {
                *ok &= self.hosts_ok(std::slice::from_ref(h));
            }
            match Decision::parse(&e.expect.value) {
                Some(expect) => examples.push(SeqExample {
                    calls: e.calls.clone(),
                    host: e.host.as_ref().map(|h| h.value.clone()),
                    expect,
                    span: e.span.clone(),
                }),
                None => {
                    *ok = false;
                    let d = self
                        .at(
                            crate::syntax::codes::E011,
                            format!("bad example expectation `{}`", e.expect.value),
                            &e.expect.span,
                            e.expect.len,
                        )
                        .with_help("expected allow, ask, deny or default");
                    self.diags.push(d);
                }
            }
        }
        examples
    }
}

impl Loader<'_> {
    /// Every session item read, lowered; sequence ids share the rules' id space.
    pub(super) fn lower_session(
        &mut self,
        taken: &mut std::collections::HashSet<String>,
        explicit: &std::collections::HashMap<String, crate::ir::Span>,
    ) -> SessionPolicy {
        let mut out = SessionPolicy::default();
        let items = std::mem::take(&mut self.session_items);
        for it in items {
            match it {
                crate::syntax::Item::Session(s) => self.session_item(s, &mut out),
                crate::syntax::Item::Sequence(s) => {
                    let id = self.item_id(s.id.as_ref(), &s.span, taken, explicit);
                    if let Some(seq) = self.sequence(s, id) {
                        out.sequences.push(seq);
                    }
                }
                crate::syntax::Item::Rewrite(r) => {
                    let id = self.item_id(r.id.as_ref(), &r.span, taken, explicit);
                    if let Some(rw) = self.rewrite(r, id) {
                        out.rewrites.push(rw);
                    }
                }
                _ => {}
            }
        }
        out.remember = std::mem::take(&mut self.remember);
        out
    }

    /// A session item's id: explicit (unique across rules and items), else derived.
    fn item_id(
        &mut self,
        id: Option<&Located<String>>,
        span: &crate::ir::Span,
        taken: &mut std::collections::HashSet<String>,
        explicit: &std::collections::HashMap<String, crate::ir::Span>,
    ) -> String {
        match id {
            Some(id) => {
                if explicit.contains_key(&id.value) || !taken.insert(id.value.clone()) {
                    let d = self
                        .at(
                            crate::syntax::codes::E007,
                            format!("duplicate rule id `{}`", id.value),
                            &id.span,
                            id.len,
                        )
                        .with_help("ids must be unique across all sources");
                    self.diags.push(d);
                }
                id.value.clone()
            }
            None => super::derive_id(span, taken),
        }
    }

    /// `remember` on a lowered rule: only a bash allow may carry it (E018).
    pub(super) fn remember_rule(&mut self, rule: &crate::ir::Rule, at: Option<crate::ir::Span>) {
        let Some(span) = at else {
            return;
        };
        if rule.verdict == Verdict::Allow && rule.tool == "bash" {
            self.remember.push(rule.id.clone());
            return;
        }
        let d = self
            .at(
                crate::syntax::codes::E018,
                "`remember` on a rule that is not a bash allow",
                &span,
                8,
            )
            .with_help("only `allow bash …` rules may be remembered by Claude Code");
        self.diags.push(d);
    }
}

/// The longest `append` of a rewrite, in words.
pub const MAX_APPEND_WORDS: usize = 8;

use crate::ir::session::plain_word;

impl Loader<'_> {
    fn rewrite_error(&mut self, msg: &str, help: &str, span: &crate::ir::Span, len: u32) {
        let d = self
            .at(crate::syntax::codes::E019, msg, span, len)
            .with_help(help.to_string());
        self.diags.push(d);
    }

    /// `rewrite bash PATTERN+ { append "WORDS" }`, checked (E019) and lowered.
    fn rewrite(&mut self, r: AstRewrite, id: String) -> Option<Rewrite> {
        let mut ok = self.hosts_ok(r.hosts.as_deref().unwrap_or(&[]));
        if r.tool != "bash" {
            ok = false;
            self.rewrite_error(
                "a rewrite applies to bash commands only",
                "write `rewrite bash PATTERN { append \"WORDS\" }`",
                &r.span,
                r.len,
            );
        }
        let segment_kind = |k: crate::ir::PatternKind| {
            use crate::ir::PatternKind::*;
            matches!(k, Exact | Prefix | Glob)
        };
        if r.patterns.is_empty() || r.patterns.iter().any(|p| !segment_kind(p.value.kind)) {
            ok = false;
            self.rewrite_error(
                "a rewrite needs `exact`, `prefix` or `glob` patterns",
                "name the commands it applies to, e.g. `prefix \"terraform apply\"`",
                &r.span,
                r.len,
            );
        }
        let append = self.rewrite_append(&r);
        ok &= append.is_some();
        let examples = self.rewrite_examples(&r, &mut ok);
        let ast = crate::syntax::AstRule {
            verdict: Verdict::Allow,
            tool: r.tool.clone(),
            patterns: r.patterns.clone(),
            id: None,
            reason: None,
            priority: None,
            hosts: r.hosts.clone(),
            tags: Vec::new(),
            examples: Vec::new(),
            remember: None,
            text: r.text.clone(),
            span: r.span.clone(),
            len: r.len,
        };
        let rule = self.rule(ast, format!("{id}#match"));
        // A table's layer is known only where it is loaded: say what a project table does.
        let line = self
            .texts
            .get(&r.span.file)
            .map(|t| t.line_text(r.span.line).to_string())
            .unwrap_or_default();
        self.diags.push(
            crate::syntax::diag::Diagnostic::warning(
                crate::syntax::codes::W007,
                format!("rewrite `{id}`: in a project table the hook applies it only while the project is trusted; untrusted, it is ignored"),
                r.span.clone(),
            )
            .with_len(r.len)
            .with_line(line)
            .with_help("run `polc trust` after `polc build` for a project table; managed and user tables rewrite as built"),
        );
        Some(Rewrite {
            id,
            rule: Box::new(rule.filter(|_| ok)?),
            append: append?,
            reason: r.reason,
            text: r.text,
            span: r.span,
            tier: self.tier,
            examples,
        })
    }

    /// The `append` words: required, plain, at most [`MAX_APPEND_WORDS`].
    fn rewrite_append(&mut self, r: &AstRewrite) -> Option<Vec<String>> {
        let Some(a) = &r.append else {
            self.rewrite_error(
                "a rewrite needs `append \"WORDS\"`",
                "give the words to add at the end of the command",
                &r.span,
                r.len,
            );
            return None;
        };
        let words: Vec<String> = a
            .value
            .split([' ', '\t'])
            .filter(|w| !w.is_empty())
            .map(str::to_string)
            .collect();
        if words.is_empty()
            || words.len() > MAX_APPEND_WORDS
            || !words.iter().all(|w| plain_word(w))
        {
            self.rewrite_error(
                "`append` takes 1 to 8 plain words",
                "letters, digits and `_ . / = : , @ + % -` only: no quotes, `$`, globs, `~` or operators",
                &a.span,
                a.len,
            );
            return None;
        }
        Some(words)
    }

    fn rewrite_examples(&mut self, r: &AstRewrite, ok: &mut bool) -> Vec<RwExample> {
        let mut out = Vec::new();
        for e in &r.examples {
            if let Some(h) = &e.host {
                *ok &= self.hosts_ok(std::slice::from_ref(h));
            }
            out.push(RwExample {
                input: e.input.clone(),
                host: e.host.as_ref().map(|h| h.value.clone()),
                expect: e.expect.clone(),
                span: e.span.clone(),
            });
        }
        out
    }
}
