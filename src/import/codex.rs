//! Codex: `prefix_rule(...)` entries of every `.rules` file under `rules/` of each active
//! config layer (system `/etc/codex`, user `$CODEX_HOME` or `~/.codex`, the project's
//! `.codex`). The strictest decision of the matching rules wins (forbidden > prompt > allow),
//! as polc's deny > ask > allow. A pattern is a list of tokens, a nested list meaning
//! alternatives; polc writes each alternative as a word prefix. `match`/`not_match`
//! examples become polc examples, their expectation computed the way Codex decides over the
//! rules of the same output file, and each is checked against polc's own decision before it
//! is written (one that polc decides differently is reported and left out).

use super::text::{plain_word, shell_join, shlex};
use super::{pat, Ctx, Import, Native, Rule, Scope, Tool};
use crate::ir::{Decision, PatternKind, Verdict};
use std::path::PathBuf;

/// At most this many alternatives per pattern are written out.
const MAX_ALTERNATIVES: usize = 64;

pub fn locate(ctx: &Ctx) -> Vec<(PathBuf, Scope, &'static str)> {
    let mut v = Vec::new();
    for p in super::files_in(&ctx.sys("/etc/codex/rules"), "rules") {
        v.push((p, Scope::User, "system rules"));
    }
    let home = ctx
        .codex_home
        .clone()
        .unwrap_or_else(|| ctx.home.join(".codex"));
    for p in super::files_in(&home.join("rules"), "rules") {
        v.push((p, Scope::User, "user rules"));
    }
    for p in super::files_in(&ctx.project.join(".codex/rules"), "rules") {
        v.push((p, Scope::Project, "project rules (trusted projects only)"));
    }
    v
}

// ---- a Starlark subset: calls with keyword arguments, strings, lists, True/False/None ----

#[derive(Clone, Debug, PartialEq)]
enum Val {
    Str(String),
    List(Vec<(Val, usize, usize)>),
    Bool(bool),
    None,
    Int(i64),
}

struct P<'a> {
    s: &'a str,
    i: usize,
}

type PErr = (usize, String);

impl<'a> P<'a> {
    fn skip(&mut self) {
        let b = self.s.as_bytes();
        while self.i < b.len() {
            match b[self.i] {
                b' ' | b'\t' | b'\r' | b'\n' => self.i += 1,
                b'\\' if b.get(self.i + 1) == Some(&b'\n') => self.i += 2,
                b'#' => {
                    while self.i < b.len() && b[self.i] != b'\n' {
                        self.i += 1;
                    }
                }
                _ => break,
            }
        }
    }

    fn peek(&mut self) -> Option<u8> {
        self.skip();
        self.s.as_bytes().get(self.i).copied()
    }

    fn eat(&mut self, c: u8) -> Result<(), PErr> {
        if self.peek() == Some(c) {
            self.i += 1;
            Ok(())
        } else {
            Err((self.i, format!("expected `{}`", c as char)))
        }
    }

    fn ident(&mut self) -> Result<(String, usize), PErr> {
        self.skip();
        let start = self.i;
        let b = self.s.as_bytes();
        while self.i < b.len() && (b[self.i].is_ascii_alphanumeric() || b[self.i] == b'_') {
            self.i += 1;
        }
        if self.i == start || b[start].is_ascii_digit() {
            return Err((start, "expected a name".into()));
        }
        Ok((self.s[start..self.i].to_string(), start))
    }

    fn string(&mut self) -> Result<String, PErr> {
        let q = self.s.as_bytes()[self.i];
        let start = self.i;
        let triple = self.s[self.i..].starts_with(if q == b'"' { "\"\"\"" } else { "'''" });
        self.i += if triple { 3 } else { 1 };
        let mut out = String::new();
        loop {
            let rest = &self.s[self.i..];
            let Some(c) = rest.chars().next() else {
                return Err((start, "unterminated string".into()));
            };
            if triple {
                if rest.starts_with(if q == b'"' { "\"\"\"" } else { "'''" }) {
                    self.i += 3;
                    return Ok(out);
                }
            } else if c as u32 == q as u32 {
                self.i += 1;
                return Ok(out);
            } else if c == '\n' {
                return Err((start, "unterminated string".into()));
            }
            if c == '\\' {
                let e = rest[1..]
                    .chars()
                    .next()
                    .ok_or((start, "unterminated string".to_string()))?;
                self.i += 1 + e.len_utf8();
                match e {
                    'n' => out.push('\n'),
                    't' => out.push('\t'),
                    'r' => out.push('\r'),
                    '\\' | '"' | '\'' => out.push(e),
                    '\n' => {}
                    _ => return Err((self.i - 2, format!("unsupported escape `\\{e}`"))),
                }
                continue;
            }
            out.push(c);
            self.i += c.len_utf8();
        }
    }

    fn value(&mut self) -> Result<(Val, usize, usize), PErr> {
        let start = {
            self.skip();
            self.i
        };
        let v = match self.peek() {
            Some(b'"') | Some(b'\'') => Val::Str(self.string()?),
            Some(b'[') => {
                self.i += 1;
                let mut items = Vec::new();
                loop {
                    if self.peek() == Some(b']') {
                        self.i += 1;
                        break;
                    }
                    items.push(self.value()?);
                    match self.peek() {
                        Some(b',') => self.i += 1,
                        Some(b']') => {}
                        _ => return Err((self.i, "expected `,` or `]`".into())),
                    }
                }
                Val::List(items)
            }
            Some(c) if c.is_ascii_digit() || c == b'-' => {
                let s = self.i;
                self.i += 1;
                while self
                    .s
                    .as_bytes()
                    .get(self.i)
                    .is_some_and(|c| c.is_ascii_digit())
                {
                    self.i += 1;
                }
                Val::Int(
                    self.s[s..self.i]
                        .parse()
                        .map_err(|_| (s, "bad number".to_string()))?,
                )
            }
            _ => {
                let (w, at) = self.ident()?;
                match w.as_str() {
                    "True" => Val::Bool(true),
                    "False" => Val::Bool(false),
                    "None" => Val::None,
                    _ => return Err((at, format!("`{w}`: only literals are supported here"))),
                }
            }
        };
        Ok((v, start, self.i))
    }
}

/// A top-level call: name, its start, keyword arguments with their positions.
type Call = (
    String,
    usize,
    usize,
    Vec<(String, usize, Val, usize, usize)>,
);

fn parse_calls(s: &str) -> Result<Vec<Call>, PErr> {
    let mut p = P { s, i: 0 };
    let mut calls = Vec::new();
    while p.peek().is_some() {
        let (name, at) = p.ident()?;
        p.eat(b'(')?;
        let mut args = Vec::new();
        loop {
            if p.peek() == Some(b')') {
                p.i += 1;
                break;
            }
            let (k, kat) = p.ident()?;
            p.eat(b'=').map_err(|(i, _)| {
                (
                    i,
                    "expected `name = value` (keyword arguments only)".to_string(),
                )
            })?;
            let (v, vs, ve) = p.value()?;
            args.push((k, kat, v, vs, ve));
            match p.peek() {
                Some(b',') => p.i += 1,
                Some(b')') => {}
                _ => return Err((p.i, "expected `,` or `)`".into())),
            }
        }
        calls.push((name, at, p.i, args));
        if p.peek() == Some(b';') {
            p.i += 1;
        }
    }
    Ok(calls)
}

// ---- prefix_rule → polc ----

const AGENT: &str = "Codex reports the error and does not load this policy";

fn str_list(v: &Val) -> Option<Vec<String>> {
    match v {
        Val::List(items) => items
            .iter()
            .map(|(x, _, _)| match x {
                Val::Str(s) => Some(s.clone()),
                _ => None,
            })
            .collect(),
        _ => None,
    }
}

pub fn import(n: &Native, imp: &mut Import) {
    let calls = match parse_calls(&n.src.text) {
        Ok(c) => c,
        Err((at, msg)) => {
            imp.error(n, at, at + 1, format!("Starlark: {msg}"), AGENT);
            return;
        }
    };
    for (name, at, end, args) in calls {
        match name.as_str() {
            "prefix_rule" => prefix_rule(n, imp, at, end, &args),
            "host_executable" | "network_rule" => imp.warn(
                n,
                at,
                at + name.len(),
                format!("{name}(…) is not a command rule: not imported"),
            ),
            _ => imp.error(
                n,
                at,
                at + name.len(),
                format!("unknown function `{name}`"),
                AGENT,
            ),
        }
    }
}

/// A keyword argument of a call: name, name offset, value, value start and end.
type Arg = (String, usize, Val, usize, usize);

fn prefix_rule(n: &Native, imp: &mut Import, at: usize, end: usize, args: &[Arg]) {
    let arg = |k: &str| args.iter().find(|a| a.0 == k);
    for a in args {
        if !["pattern", "decision", "justification", "match", "not_match"].contains(&a.0.as_str()) {
            imp.error(
                n,
                a.1,
                a.1 + a.0.len(),
                format!("prefix_rule has no argument `{}`", a.0),
                AGENT,
            );
            return;
        }
    }
    let Some((_, _, Val::List(items), ps, pe)) = arg("pattern") else {
        imp.error(
            n,
            at,
            at + 11,
            "prefix_rule needs `pattern = [...]`, a non-empty list",
            AGENT,
        );
        return;
    };
    if items.is_empty() {
        imp.error(n, *ps, *pe, "pattern cannot be empty", AGENT);
        return;
    }
    let Some(positions) = pattern_positions(n, imp, items) else {
        return;
    };
    let Some(verdict) = decision(n, imp, at, arg("decision")) else {
        return;
    };
    let justification = match arg("justification").map(|a| &a.2) {
        Some(Val::Str(j)) => Some(j.clone()),
        _ => None,
    };
    let native = one_line_src(&n.src.text[at..end.min(n.src.text.len())]);
    let (seqs, capped) = alternatives(&positions);
    let mut r = Rule::new(verdict, Tool::Bash, Vec::new(), n, at, &native);
    r.reason = justification;
    r.prefixes = positions.clone();
    let mut notes = Vec::new();
    if capped {
        if verdict == Verdict::Allow {
            imp.dropped(
                n,
                *ps,
                *pe,
                format!("allow not imported: more than {MAX_ALTERNATIVES} alternatives"),
            );
            return;
        }
        notes.push(format!("more than {MAX_ALTERNATIVES} alternatives: only the leading tokens are kept (stricter)"));
    }
    let texts = prefix_texts(&seqs, verdict, &mut notes);
    if verdict == Verdict::Allow && texts.is_empty() {
        imp.dropped(
            n,
            *ps,
            *pe,
            "allow not imported: no alternative can be held by polc's prefix",
        );
        return;
    }
    for t in texts {
        r.patterns.push(pat(PatternKind::Prefix, t));
    }
    for (key, is_match) in [("match", true), ("not_match", false)] {
        if let Some(a) = arg(key) {
            let Some(pending) = examples(n, imp, a, is_match, &positions) else {
                return;
            };
            r.pending.extend(pending);
        }
    }
    for m in notes {
        imp.warn(n, *ps, *pe, m.clone());
        r.notes.push(m);
    }
    imp.rules.push(r);
}

/// A pattern's positions, each with its alternatives; None after a located error.
fn pattern_positions(
    n: &Native,
    imp: &mut Import,
    items: &[(Val, usize, usize)],
) -> Option<Vec<Vec<String>>> {
    let mut positions: Vec<Vec<String>> = Vec::new();
    for (v, s, e) in items {
        match v {
            Val::Str(t) => positions.push(vec![t.clone()]),
            Val::List(_) => match str_list(v) {
                Some(alts) if !alts.is_empty() => positions.push(alts),
                _ => {
                    imp.error(
                        n,
                        *s,
                        *e,
                        "alternatives must be a non-empty list of strings",
                        AGENT,
                    );
                    return None;
                }
            },
            _ => {
                imp.error(
                    n,
                    *s,
                    *e,
                    "a pattern token must be a string or a list of strings",
                    AGENT,
                );
                return None;
            }
        }
    }
    Some(positions)
}

/// The `decision` argument (absent: allow); None after a located error.
fn decision(n: &Native, imp: &mut Import, at: usize, a: Option<&Arg>) -> Option<Verdict> {
    match a.map(|a| &a.2) {
        None => Some(Verdict::Allow),
        Some(Val::Str(d)) if d == "allow" => Some(Verdict::Allow),
        Some(Val::Str(d)) if d == "prompt" => Some(Verdict::Ask),
        Some(Val::Str(d)) if d == "forbidden" => Some(Verdict::Deny),
        Some(_) => {
            let (s, e) = a.map_or((at, at + 1), |a| (a.3, a.4));
            imp.error(
                n,
                s,
                e,
                "decision must be \"allow\", \"prompt\" or \"forbidden\"",
                AGENT,
            );
            None
        }
    }
}

/// Every token sequence the positions' alternatives spell, up to [`MAX_ALTERNATIVES`]
/// (true: capped, the sequences then hold the leading positions only).
fn alternatives(positions: &[Vec<String>]) -> (Vec<Vec<String>>, bool) {
    let mut seqs: Vec<Vec<String>> = vec![Vec::new()];
    for alts in positions {
        let mut next = Vec::new();
        for s in &seqs {
            for a in alts {
                let mut t = s.clone();
                t.push(a.clone());
                next.push(t);
            }
        }
        if next.len() > MAX_ALTERNATIVES {
            return (seqs, true);
        }
        seqs = next;
    }
    (seqs, false)
}

/// The `prefix` texts of the sequences: an allow alternative with a token polc's prefix
/// cannot hold is left out; a deny/ask keeps the tokens before it (none: every command).
fn prefix_texts(seqs: &[Vec<String>], verdict: Verdict, notes: &mut Vec<String>) -> Vec<String> {
    let mut texts: Vec<String> = Vec::new();
    for s in seqs {
        let plain = s.iter().take_while(|w| plain_word(w)).count();
        if plain == s.len() {
            texts.push(s.join(" "));
        } else if verdict == Verdict::Allow {
            notes.push(format!(
                "alternative {:?} has a token polc's prefix cannot hold: not allowed here",
                s
            ));
        } else if plain == 0 {
            texts.clear();
            notes.push(format!("alternative {:?} starts with a token polc's prefix cannot hold: every shell command (stricter)", s));
            break;
        } else {
            notes.push(format!(
                "alternative {:?}: kept up to the token polc's prefix cannot hold (stricter)",
                s
            ));
            texts.push(s[..plain].join(" "));
        }
    }
    texts.dedup();
    texts
}

/// A `match` (`is_match`) or `not_match` argument's examples, tokenised as Codex does
/// (strings with shlex) and checked against the pattern as Codex checks them when it loads
/// the policy: (text, tokens) each, kept for `after`; None after a located error.
fn examples(
    n: &Native,
    imp: &mut Import,
    a: &Arg,
    is_match: bool,
    positions: &[Vec<String>],
) -> Option<Vec<(String, Vec<String>)>> {
    let (key, _, v, vs, ve) = a;
    let Val::List(exs) = v else {
        imp.error(n, *vs, *ve, format!("{key} must be a list"), AGENT);
        return None;
    };
    let mut out = Vec::new();
    for (ex, s, e) in exs {
        let tokens = match ex {
            Val::Str(t) => shlex(t).map(|tok| (t.clone(), tok)),
            Val::List(_) => str_list(ex).map(|tok| (shell_join(&tok), tok)),
            _ => None,
        };
        let (text, tokens) = match tokens {
            Some((text, tok)) if !tok.is_empty() => (text, tok),
            _ => {
                let msg = if matches!(ex, Val::Str(_)) {
                    format!("{key} example cannot be split into words")
                } else {
                    format!("{key} example must be a string or a list of strings")
                };
                imp.error(n, *s, *e, msg, AGENT);
                return None;
            }
        };
        if matches(positions, &tokens) != is_match {
            let how = if is_match {
                "does not match"
            } else {
                "matches"
            };
            imp.error(
                n,
                *s,
                *e,
                format!("{key} example `{text}` {how} the pattern"),
                AGENT,
            );
            return None;
        }
        out.push((text, tokens));
    }
    Some(out)
}

fn one_line_src(s: &str) -> String {
    super::one_line(s)
}

/// Codex's match: the command's first tokens are the pattern's, one alternative each.
fn matches(positions: &[Vec<String>], tokens: &[String]) -> bool {
    positions.len() <= tokens.len()
        && positions
            .iter()
            .zip(tokens)
            .all(|(alts, t)| alts.iter().any(|a| a == t))
}

/// Compute each pending example's expectation over the rules of its own output file (the
/// strictest decision of the matching rules, Codex's way), then keep only the examples
/// polc decides the same way.
pub fn after(imp: &mut Import) {
    for scope in [Scope::User, Scope::Project] {
        let idx: Vec<usize> = (0..imp.rules.len())
            .filter(|&i| imp.rules[i].scope == scope)
            .collect();
        for &i in &idx {
            let pending = std::mem::take(&mut imp.rules[i].pending);
            for (text, tokens) in pending {
                let expect = idx
                    .iter()
                    .filter(|&&j| matches(&imp.rules[j].prefixes, &tokens))
                    .map(|&j| match imp.rules[j].verdict {
                        Verdict::Allow => Decision::Allow,
                        Verdict::Ask => Decision::Ask,
                        Verdict::Deny => Decision::Deny,
                    })
                    .max()
                    .unwrap_or(Decision::Default);
                imp.rules[i].examples.push((text, expect));
            }
        }
        // polc's decision of each example, from the file as it will be written.
        let verdicts = polc_decisions(imp, scope);
        for (i, ex, got) in verdicts {
            let r = &mut imp.rules[i];
            if let Some(pos) = r.examples.iter().position(|e| e.0 == ex) {
                let want = r.examples[pos].1;
                if got != want {
                    r.examples.remove(pos);
                    let msg = format!(
                        "example `{ex}`: Codex decides {}, polc {} — left out of the examples",
                        want.as_str(),
                        got.as_str()
                    );
                    r.notes.push(msg.clone());
                    let span = r.origin.clone();
                    imp.diags.push(crate::syntax::diag::Diagnostic::warning(
                        crate::syntax::codes::W005,
                        msg,
                        span,
                    ));
                }
            }
        }
    }
}

/// (rule index, example, polc's decision) for every example of `scope`.
fn polc_decisions(imp: &Import, scope: Scope) -> Vec<(usize, String, Decision)> {
    let mut out = Vec::new();
    let text = super::render_without_examples(imp, scope);
    let Ok((policy, _)) = crate::lower::load_str("imported.pol", &text, crate::ir::Tier::Project)
    else {
        return out;
    };
    let Ok(compiled) = crate::compile::compile(&policy) else {
        return out;
    };
    let Ok(rules) = crate::runtime::table_rules::TableRules::new(|k| compiled.section(k)) else {
        return out;
    };
    for (i, r) in imp.rules.iter().enumerate() {
        if r.scope != scope {
            continue;
        }
        for (ex, _) in &r.examples {
            let req = crate::runtime::Request::Bash {
                command: ex.clone(),
            };
            let got = crate::runtime::decide(&rules, "claude", &req)
                .map(|o| o.decision)
                .unwrap_or(Decision::Deny);
            out.push((i, ex.clone(), got));
        }
    }
    out
}
