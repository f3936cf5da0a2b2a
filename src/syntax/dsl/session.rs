//! DSL parsing of the session items (`session …`, `VERDICT sequence { … }`).

use super::{Cx, R};
use crate::ir::Verdict;
use crate::syntax::session::{
    AstRewrite, AstRwExample, AstSeqExample, AstSequence, AstSession, AstStep,
};
use crate::syntax::{clip_text, Item, Located};
use pest::iterators::Pair;

impl Cx<'_> {
    pub(super) fn session_item(&mut self, p: Pair<'_, R>) -> Option<Item> {
        let span = self.located(&p, ()).span;
        let body = p.into_inner().nth(1)?;
        match body.as_rule() {
            R::sess_denials => {
                let (mut consecutive, mut total) = (None, None);
                for lim in body.into_inner().filter(|x| x.as_rule() == R::sess_limit) {
                    let mut it = lim.into_inner();
                    let kind = it.next()?;
                    let v = it.next()?;
                    let n = v.as_str().parse::<i64>().unwrap_or(i64::MAX);
                    let slot = if kind.as_str() == "consecutive" {
                        &mut consecutive
                    } else {
                        &mut total
                    };
                    if slot.is_some() {
                        self.error(
                            crate::syntax::codes::E016,
                            format!("duplicate limit `{}`", kind.as_str()),
                            &kind,
                        );
                        continue;
                    }
                    *slot = Some(self.located(&v, n));
                }
                Some(Item::Session(AstSession::Denials {
                    consecutive,
                    total,
                    span,
                }))
            }
            R::sess_audit => Some(Item::Session(AstSession::Audit {
                hash: body.into_inner().any(|x| x.as_rule() == R::kw_hash),
                span,
            })),
            _ => None,
        }
    }

    pub(super) fn sequence(&mut self, p: Pair<'_, R>) -> Option<Item> {
        let mut parts = p.into_inner();
        let verdict_p = parts.next()?;
        let verdict = Verdict::parse(verdict_p.as_str())?;
        let vloc = self.located(&verdict_p, ());
        let _kw = parts.next()?;
        let block = parts.next()?;
        let mut seq = AstSequence {
            verdict,
            id: None,
            reason: None,
            hosts: None,
            tags: Vec::new(),
            steps: Vec::new(),
            interrupt: false,
            examples: Vec::new(),
            text: String::new(),
            span: vloc.span,
            len: vloc.len,
        };
        let mut seen: Vec<&'static str> = Vec::new();
        let mut text = format!("{} sequence", verdict.as_str());
        for attr in block.into_inner() {
            if attr.as_rule() != R::seq_attr {
                continue;
            }
            let Some(a) = attr.into_inner().next() else {
                continue;
            };
            self.seq_attr(a, &mut seq, &mut seen, &mut text);
        }
        seq.text = clip_text(&text);
        Some(Item::Sequence(seq))
    }

    /// One attribute of a sequence block.
    fn seq_attr(
        &mut self,
        a: Pair<'_, R>,
        seq: &mut AstSequence,
        seen: &mut Vec<&'static str>,
        text: &mut String,
    ) {
        let common = Common {
            id: &mut seq.id,
            reason: &mut seq.reason,
            hosts: &mut seq.hosts,
            tags: &mut seq.tags,
        };
        let Some(a) =
            self.common_attr(a, (R::seq_interrupt, "interrupt"), "sequence", seen, common)
        else {
            return;
        };
        match a.as_rule() {
            R::seq_interrupt => seq.interrupt = true,
            R::seq_step => {
                let shown = a.as_str().split_whitespace().collect::<Vec<_>>().join(" ");
                if let Some(step) = self.seq_step(a) {
                    text.push_str(&format!("; {shown}"));
                    seq.steps.push(step);
                }
            }
            R::seq_example => {
                if let Some(e) = self.seq_example(a) {
                    seq.examples.push(e);
                }
            }
            _ => {}
        }
    }

    /// `step net` or `step TOOL PATTERN+`.
    fn seq_step(&mut self, a: Pair<'_, R>) -> Option<AstStep> {
        let span = self.located(&a, ()).span;
        let mut it = a.into_inner().skip(1);
        let first = it.next()?;
        let mut step = AstStep {
            net: false,
            tool: String::new(),
            patterns: Vec::new(),
            span,
        };
        if first.as_rule() == R::kw_net {
            step.net = true;
        } else {
            step.tool = self.tool(first).unwrap_or_default();
            for pat in it {
                if let Some(pt) = self.pattern(pat) {
                    step.patterns.push(pt);
                }
            }
        }
        Some(step)
    }

    /// `example "call" then "call" … [on HOST] => EXPECT`.
    fn seq_example(&mut self, a: Pair<'_, R>) -> Option<AstSeqExample> {
        let span = self.src.span(self.start(&a));
        let mut calls = Vec::new();
        let (mut host, mut expect) = (None, None);
        for part in a.into_inner() {
            match part.as_rule() {
                R::string => calls.extend(self.string(&part)),
                R::example_host => {
                    let h = part.into_inner().nth(1)?;
                    host = Some(self.located(&h, h.as_str().to_string()));
                }
                R::expectation => expect = Some(self.located(&part, part.as_str().to_string())),
                _ => {}
            }
        }
        Some(AstSeqExample {
            calls,
            host,
            expect: expect?,
            span,
        })
    }
}

impl Cx<'_> {
    /// `rewrite TOOL PATTERN* { … }`: shapes only (`lower::session` checks meaning).
    pub(super) fn rewrite(&mut self, p: Pair<'_, R>) -> Option<Item> {
        let start = self.start(&p);
        let mut parts = p.into_inner();
        let kw = parts.next()?;
        let kloc = self.located(&kw, ());
        let tool_p = parts.next()?;
        let tool = self.tool(tool_p).unwrap_or_default();
        let mut rw = AstRewrite {
            tool,
            patterns: Vec::new(),
            append: None,
            id: None,
            reason: None,
            hosts: None,
            tags: Vec::new(),
            examples: Vec::new(),
            text: String::new(),
            span: kloc.span,
            len: kloc.len,
        };
        let mut head_end = start;
        let mut block = None;
        for q in parts {
            match q.as_rule() {
                R::pattern => {
                    head_end = self.end(&q);
                    if let Some(pt) = self.pattern(q) {
                        rw.patterns.push(pt);
                    }
                }
                R::rw_block => block = Some(q),
                _ => {}
            }
        }
        if head_end == start {
            head_end = start + "rewrite".len();
        }
        rw.text = clip_text(&self.src.text[start..head_end.max(start)]);
        let mut seen: Vec<&'static str> = Vec::new();
        for attr in block?.into_inner() {
            if attr.as_rule() != R::rw_attr {
                continue;
            }
            let Some(a) = attr.into_inner().next() else {
                continue;
            };
            self.rw_attr(a, &mut rw, &mut seen);
        }
        Some(Item::Rewrite(rw))
    }

    fn rw_attr(&mut self, a: Pair<'_, R>, rw: &mut AstRewrite, seen: &mut Vec<&'static str>) {
        let common = Common {
            id: &mut rw.id,
            reason: &mut rw.reason,
            hosts: &mut rw.hosts,
            tags: &mut rw.tags,
        };
        let Some(a) = self.common_attr(a, (R::rw_append, "append"), "rewrite", seen, common) else {
            return;
        };
        match a.as_rule() {
            R::rw_append => {
                if let Some(v) = a.into_inner().nth(1) {
                    if let Some(text) = self.string(&v) {
                        rw.append = Some(self.located(&v, text));
                    }
                }
            }
            R::pattern => {
                if let Some(pt) = self.pattern(a) {
                    rw.patterns.push(pt);
                }
            }
            R::rw_example => {
                let span = self.src.span(self.start(&a));
                let mut strings = Vec::new();
                let mut host = None;
                for part in a.into_inner() {
                    match part.as_rule() {
                        R::string => strings.extend(self.string(&part)),
                        R::example_host => {
                            if let Some(h) = part.into_inner().nth(1) {
                                host = Some(self.located(&h, h.as_str().to_string()));
                            }
                        }
                        _ => {}
                    }
                }
                if let (Some(expect), Some(input), None) =
                    (strings.pop(), strings.pop(), strings.pop())
                {
                    rw.examples.push(AstRwExample {
                        input,
                        host,
                        expect,
                        span,
                    });
                }
            }
            _ => {}
        }
    }
}

/// The attributes sequences and rewrites share.
struct Common<'a> {
    id: &'a mut Option<Located<String>>,
    reason: &'a mut Option<String>,
    hosts: &'a mut Option<Vec<Located<String>>>,
    tags: &'a mut Vec<String>,
}

impl Cx<'_> {
    /// Read `a` if it is a shared attribute (`id`, `reason`, `hosts`, `tags`), after the
    /// duplicate check (E016) that also covers the item's own `extra` attribute; `Some(a)`
    /// when the item reads it itself.
    fn common_attr<'i>(
        &mut self,
        a: Pair<'i, R>,
        extra: (R, &'static str),
        what: &str,
        seen: &mut Vec<&'static str>,
        c: Common<'_>,
    ) -> Option<Pair<'i, R>> {
        let key = match a.as_rule() {
            R::attr_id => "id",
            R::attr_reason => "reason",
            R::attr_hosts => "hosts",
            R::attr_tags => "tags",
            r if r == extra.0 => extra.1,
            _ => "",
        };
        if !key.is_empty() {
            if seen.contains(&key) {
                self.error(
                    crate::syntax::codes::E016,
                    format!("duplicate attribute `{key}`"),
                    &a,
                )
                .help = Some(format!("give `{key}` once per {what}"));
                return None;
            }
            seen.push(key);
        }
        match a.as_rule() {
            R::attr_id => {
                if let Some(v) = a.into_inner().nth(1) {
                    *c.id = Some(self.located(&v, v.as_str().to_string()));
                }
            }
            R::attr_reason => {
                if let Some(v) = a.into_inner().nth(1) {
                    *c.reason = self.string(&v);
                }
            }
            R::attr_hosts => {
                *c.hosts = Some(
                    a.into_inner()
                        .skip(1)
                        .map(|h| self.located(&h, h.as_str().to_string()))
                        .collect(),
                );
            }
            R::attr_tags => {
                *c.tags = a
                    .into_inner()
                    .skip(1)
                    .map(|t| t.as_str().to_string())
                    .collect();
            }
            _ => return Some(a),
        }
        None
    }
}
