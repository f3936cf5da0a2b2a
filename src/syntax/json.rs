//! The JSON front end: `permcheck.json` (polc's JSON policy form) and agent settings files
//! (`settings.json`, `settings.local.json`), parsed with the pest JSON grammar so every value
//! keeps its position.

use super::claude::{map_rule, Mapped};
use super::{claude, Ast};
use super::{
    clip_text, dsl_tool, AstExample, AstRule, Diagnostic, Diagnostics, Item, Located, PolicyParser,
    SourceText,
};
use crate::ir::{Pattern, PatternKind, Verdict};
use pest::error::InputLocation;
use pest::iterators::Pair;
use pest::Parser;

type R = super::Rule;

/// A JSON value with its byte range in the source.
#[derive(Clone, Debug, PartialEq)]
pub struct JNode {
    pub value: JValue,
    pub start: usize,
    pub end: usize,
}

#[derive(Clone, Debug, PartialEq)]
pub enum JValue {
    Str(String),
    /// The number as written.
    Num(String),
    Bool(bool),
    Null,
    Arr(Vec<JNode>),
    /// Pairs in source order, duplicates kept (the caller reports them).
    Obj(Vec<(JNode, JNode)>),
}

impl JValue {
    fn type_name(&self) -> &'static str {
        match self {
            JValue::Str(_) => "a string",
            JValue::Num(_) => "a number",
            JValue::Bool(_) => "a boolean",
            JValue::Null => "null",
            JValue::Arr(_) => "an array",
            JValue::Obj(_) => "an object",
        }
    }
}

/// Parse a JSON document, or return the syntax error (E001).
pub fn parse_json(src: &SourceText) -> Result<JNode, Box<Diagnostic>> {
    let mut pairs = PolicyParser::parse(R::json_doc, &src.text).map_err(|e| {
        let off = match e.location {
            InputLocation::Pos(p) => p,
            InputLocation::Span((s, _)) => s,
        };
        let found = match src.text[off..].chars().next() {
            None => "end of file".to_string(),
            Some(c) if c == '\n' || c == '\r' => "end of line".to_string(),
            Some(c) => format!("`{c}`"),
        };
        let mut wanted: Vec<&str> = Vec::new();
        if let pest::error::ErrorVariant::ParsingError { positives, .. } = &e.variant {
            for p in positives {
                let d = match p {
                    R::json_value => "a JSON value",
                    R::json_pair | R::json_string => "a string",
                    R::json_comma => "`,`",
                    R::json_colon => "`:`",
                    R::json_obj_end => "`}`",
                    R::json_arr_end => "`]`",
                    R::EOI => "end of file",
                    _ => continue,
                };
                if !wanted.contains(&d) {
                    wanted.push(d);
                }
            }
        }
        let message = match wanted.len() {
            0 => format!("syntax error: invalid JSON, unexpected {found}"),
            1 => format!("syntax error: invalid JSON, expected {}, found {found}", wanted[0]),
            _ => {
                let last = wanted.pop().unwrap_or_default();
                format!(
                    "syntax error: invalid JSON, expected {} or {last}, found {found}",
                    wanted.join(", ")
                )
            }
        };
        Box::new(src.error(
            crate::syntax::codes::E001,
            message,
            off,
            off + 1,
        )
        .with_help("check for a missing or extra `,`, `:`, quote or bracket (JSON allows no comments or trailing commas)"))
    })?;
    let doc = pairs.next().expect("json_doc");
    let value = doc
        .into_inner()
        .find(|p| p.as_rule() == R::json_value)
        .expect("json_value");
    convert(src, value)
}

fn convert(src: &SourceText, p: Pair<'_, R>) -> Result<JNode, Box<Diagnostic>> {
    let (start, end) = (p.as_span().start(), p.as_span().end());
    let inner = if p.as_rule() == R::json_value {
        p.into_inner().next().expect("value")
    } else {
        p
    };
    let value = match inner.as_rule() {
        R::json_object => {
            let mut pairs = Vec::new();
            for pair in inner.into_inner().filter(|p| p.as_rule() == R::json_pair) {
                let mut kv = pair.into_inner();
                let k = convert(src, kv.next().expect("key"))?;
                let v = convert(
                    src,
                    kv.find(|p| p.as_rule() == R::json_value).expect("value"),
                )?;
                pairs.push((k, v));
            }
            JValue::Obj(pairs)
        }
        R::json_array => JValue::Arr(
            inner
                .into_inner()
                .filter(|p| p.as_rule() == R::json_value)
                .map(|v| convert(src, v))
                .collect::<Result<_, _>>()?,
        ),
        R::json_string => {
            let raw = inner.into_inner().next().map_or("", |i| i.as_str());
            JValue::Str(unescape(raw).ok_or_else(|| {
                Box::new(src.error(
                    crate::syntax::codes::E001,
                    "syntax error: invalid `\\u` escape (unpaired surrogate)",
                    start,
                    end,
                ))
            })?)
        }
        R::json_number => JValue::Num(inner.as_str().to_string()),
        R::json_true => JValue::Bool(true),
        R::json_false => JValue::Bool(false),
        _ => JValue::Null,
    };
    Ok(JNode { value, start, end })
}

fn unescape(raw: &str) -> Option<String> {
    let mut out = String::with_capacity(raw.len());
    let mut chars = raw.chars();
    let hex4 = |chars: &mut std::str::Chars<'_>| -> Option<u32> {
        let h: String = chars.by_ref().take(4).collect();
        u32::from_str_radix(&h, 16).ok()
    };
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next()? {
            'b' => out.push('\u{8}'),
            'f' => out.push('\u{c}'),
            'n' => out.push('\n'),
            'r' => out.push('\r'),
            't' => out.push('\t'),
            'u' => {
                let hi = hex4(&mut chars)?;
                let cp = if (0xD800..0xDC00).contains(&hi) {
                    if chars.next()? != '\\' || chars.next()? != 'u' {
                        return None;
                    }
                    let lo = hex4(&mut chars)?;
                    if !(0xDC00..0xE000).contains(&lo) {
                        return None;
                    }
                    0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00)
                } else {
                    hi
                };
                out.push(char::from_u32(cp)?);
            }
            other => out.push(other),
        }
    }
    Some(out)
}

/// Canonical tool of a JSON `"tool"` value: the DSL's names (`bash`, `shell`, `read`, `edit`,
/// `write`, `webfetch`, `websearch`, `mcp__…`), Claude's names (`Bash`, `Read`, `Grep`, …,
/// mapped), or any other name starting with an uppercase letter (kept as written).
pub fn json_tool(name: &str) -> Option<String> {
    if let Some(t) = dsl_tool(name) {
        return Some(t);
    }
    let first = name.chars().next()?;
    if first.is_ascii_uppercase()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "_-.".contains(c))
    {
        return Some(claude::map_tool(name));
    }
    None
}

const JSON_TOOL_HELP: &str = "expected bash, read, edit, webfetch, websearch, mcp__server__tool, or a tool name as the agent spells it (starting with an uppercase letter, e.g. \"Task\")";

/// Reads a parsed document into items, reporting shape errors.
struct Reader<'a> {
    src: &'a SourceText,
    settings: bool,
    diags: &'a mut Diagnostics,
    items: Vec<Item>,
}

/// Parse `permcheck.json` (`settings == false`: unknown keys are errors) or an agent settings
/// file (`settings == true`: only `permissions.allow/ask/deny` are read; those rules are
/// scoped to the hosts that read Claude settings, `claude` and `vscode`).
pub fn parse_policy(src: &SourceText, settings: bool, diags: &mut Diagnostics) -> Ast {
    let root = match parse_json(src) {
        Ok(r) => r,
        Err(d) => {
            diags.push(*d);
            return Ast::default();
        }
    };
    let mut r = Reader {
        src,
        settings,
        diags,
        items: Vec::new(),
    };
    r.root(&root);
    Ast { items: r.items }
}

impl Reader<'_> {
    fn err(
        &mut self,
        code: crate::syntax::codes::Code,
        msg: impl Into<String>,
        n: &JNode,
    ) -> &mut Diagnostic {
        let d = self.src.error(code, msg, n.start, n.end);
        self.diags.push(d);
        self.diags.0.last_mut().expect("pushed")
    }

    fn located<T>(&self, n: &JNode, value: T) -> Located<T> {
        let (span, len) = self.src.locate(n.start, n.end);
        Located { value, span, len }
    }

    fn wrong_type(&mut self, what: &str, expected: &str, n: &JNode) {
        let got = n.value.type_name();
        self.err(
            crate::syntax::codes::E013,
            format!("wrong JSON type: {what} must be {expected}, found {got}"),
            n,
        );
    }

    /// The pairs of an object, reporting duplicate keys (E015). `None` if not an object.
    fn object<'n>(
        &mut self,
        what: &str,
        n: &'n JNode,
    ) -> Option<Vec<(&'n str, &'n JNode, &'n JNode)>> {
        let JValue::Obj(pairs) = &n.value else {
            self.wrong_type(what, "an object", n);
            return None;
        };
        let mut out: Vec<(&str, &JNode, &JNode)> = Vec::new();
        for (k, v) in pairs {
            let JValue::Str(key) = &k.value else { continue };
            if let Some(prev) = out.iter().find(|(p, _, _)| p == key) {
                let first = self.src.span(prev.1.start);
                self.err(
                    crate::syntax::codes::E015,
                    format!("duplicate JSON key `{key}`"),
                    k,
                )
                .help = Some(format!(
                    "first given at {first}; JSON readers disagree on which one wins"
                ));
                continue;
            }
            out.push((key.as_str(), k, v));
        }
        Some(out)
    }

    fn unknown_key(&mut self, key: &str, k: &JNode, expected: &str) {
        self.err(
            crate::syntax::codes::E012,
            format!("unknown JSON key `{key}`"),
            k,
        )
        .help = Some(format!("expected {expected}"));
    }

    /// A key of Claude Code's settings schema that polc does not use: a note (N001).
    fn unused_key(&mut self, key: &str, k: &JNode) {
        let d = self
            .src
            .diag(
                super::Severity::Note,
                crate::syntax::codes::N001,
                format!("`{key}` is a Claude Code setting polc does not use"),
                k.start,
                k.end,
            )
            .with_help("Claude Code reads it from its own settings; polc ignores it here");
        self.diags.push(d);
    }

    fn root(&mut self, n: &JNode) {
        let Some(pairs) = self.object("the document", n) else {
            return;
        };
        for (key, k, v) in pairs {
            match key {
                "permissions" => self.permissions(v),
                _ if self.settings => {}
                "rules" => self.array("`rules`", v, |r, e| r.json_rule(e)),
                "examples" => self.array("`examples`", v, |r, e| {
                    if let Some(ex) = r.example(e) {
                        r.items.push(Item::Example(ex));
                    }
                }),
                "$schema" | "description" => {}
                _ if claude::SETTINGS_KEYS.contains(&key) => self.unused_key(key, k),
                _ => self.unknown_key(
                    key,
                    k,
                    "`permissions`, `rules`, `examples`, `$schema` or `description`",
                ),
            }
        }
    }

    fn array(&mut self, what: &str, n: &JNode, mut f: impl FnMut(&mut Self, &JNode)) {
        match &n.value {
            JValue::Arr(items) => {
                for e in items {
                    f(self, e);
                }
            }
            _ => self.wrong_type(what, "an array", n),
        }
    }

    fn permissions(&mut self, n: &JNode) {
        let Some(pairs) = self.object("`permissions`", n) else {
            return;
        };
        for (key, k, v) in pairs {
            let verdict = match key {
                "allow" => Verdict::Allow,
                "ask" => Verdict::Ask,
                "deny" => Verdict::Deny,
                _ if self.settings => continue,
                // Claude Code's other permission keys: accepted verbatim, not polc's business.
                _ if claude::PERMISSIONS_KEYS.contains(&key) => {
                    self.unused_key(&format!("permissions.{key}"), k);
                    continue;
                }
                _ => {
                    self.unknown_key(key, k, "`allow`, `ask` or `deny` (or another key of Claude Code's `permissions`: `defaultMode`, `additionalDirectories`, `disableBypassPermissionsMode`, `disableAutoMode`)");
                    continue;
                }
            };
            self.array(&format!("`permissions.{key}`"), v, |r, e| {
                r.permission(verdict, e)
            });
        }
    }

    /// One entry of `permissions.allow/ask/deny`: a rule string or `{"rule": …, …}`.
    fn permission(&mut self, verdict: Verdict, n: &JNode) {
        let (rule_node, attrs) = match &n.value {
            JValue::Str(_) => (n, None),
            JValue::Obj(_) => {
                let Some(pairs) = self.object("a permission entry", n) else {
                    return;
                };
                let Some(rule) = pairs.iter().find(|(k, _, _)| *k == "rule").map(|p| p.2) else {
                    self.err(
                        crate::syntax::codes::E013,
                        "wrong JSON type: a permission entry object needs a `\"rule\"` string",
                        n,
                    );
                    return;
                };
                (rule, Some(pairs))
            }
            _ => {
                self.wrong_type("a permission entry", "a rule string or an object", n);
                return;
            }
        };
        let JValue::Str(s) = &rule_node.value else {
            self.wrong_type("`rule`", "a string", rule_node);
            return;
        };
        let loc = self.located(rule_node, ());
        let mut rule = AstRule {
            verdict,
            tool: String::new(),
            patterns: Vec::new(),
            id: None,
            reason: None,
            priority: None,
            hosts: None,
            tags: Vec::new(),
            examples: Vec::new(),
            remember: None,
            text: clip_text(s),
            span: loc.span.clone(),
            len: loc.len,
        };
        if let Some(pairs) = attrs {
            for (key, k, v) in pairs {
                if key != "rule" {
                    self.attribute(
                        &mut rule,
                        key,
                        k,
                        v,
                        "`rule`, `id`, `reason`, `priority`, `hosts`, `tags` or `examples`",
                    );
                }
            }
        }
        if self.settings {
            rule.hosts = Some(
                ["claude", "vscode"]
                    .iter()
                    .map(|h| Located {
                        value: h.to_string(),
                        span: loc.span.clone(),
                        len: loc.len,
                    })
                    .collect(),
            );
        }
        let mapped = map_rule(s, verdict);
        if let (Ok(_), Some(why)) = (&mapped, claude::claude_rejects(s)) {
            // Claude Code skips a rule its validator rejects. A skipped allow grants nothing
            // there, so polc drops it too; a deny or ask is kept (stricter than Claude).
            let keep = verdict != Verdict::Allow;
            let d = self
                .src
                .diag(
                    super::Severity::Warning,
                    crate::syntax::codes::W002,
                    format!("Claude Code rejects the rule `{s}`: {why}"),
                    rule_node.start,
                    rule_node.end,
                )
                .with_help(if keep {
                    format!("Claude Code skips this {verdict} rule; polc keeps it as written (stricter). Fix the rule so both read it")
                } else {
                    "Claude Code skips this allow rule, and so does polc. Fix the rule to allow what you meant".to_string()
                });
            self.diags.push(d);
            if !keep {
                return;
            }
        }
        self.push_mapped(s, rule_node, rule, mapped);
    }

    /// The rule a Claude permission string maps to, or the warning or error why it is not
    /// kept.
    fn push_mapped(
        &mut self,
        s: &str,
        rule_node: &JNode,
        mut rule: AstRule,
        mapped: Result<Mapped, claude::ClaudeError>,
    ) {
        match mapped {
            Ok(Mapped::Rule { tool, pattern }) => {
                rule.tool = tool;
                rule.patterns.push(Located {
                    value: pattern,
                    span: rule.span.clone(),
                    len: rule.len,
                });
                self.items.push(Item::Rule(rule));
            }
            Ok(Mapped::IgnoredInputField { tool, param }) => {
                let d = self
                .src
                .diag(
                    super::Severity::Warning,
                    crate::syntax::codes::W001,
                    format!("allow rule `{s}` is an input-field rule (`{param}:`) and is ignored"),
                    rule_node.start,
                    rule_node.end,
                )
                .with_help(format!(
                    "Claude Code ignores input-field rules in allow lists; `{tool}` calls are not allowed by it (deny and ask honour them)"
                ));
                self.diags.push(d);
            }
            Ok(Mapped::IgnoredDomainWildcard) => {
                let d = self
                .src
                .diag(
                    super::Severity::Warning,
                    crate::syntax::codes::W004,
                    format!("allow rule `{s}` has a wildcard domain, which Claude Code never matches; it is ignored"),
                    rule_node.start,
                    rule_node.end,
                )
                .with_help(
                    "Claude Code compares `domain:` exactly in WebFetch rules; list each host (`WebFetch(domain:api.github.com)`)",
                );
                self.diags.push(d);
            }
            Ok(Mapped::IgnoredPathRule { tool }) => {
                let d = self
                .src
                .diag(
                    super::Severity::Warning,
                    crate::syntax::codes::W003,
                    format!("allow rule `{s}` is a path rule for `{tool}`, which Claude Code never consults; it is ignored"),
                    rule_node.start,
                    rule_node.end,
                )
                .with_help(
                    "Claude Code checks paths against `Read(…)` (every tool that reads) and `Edit(…)` (every tool that edits) rules only; write `Read(…)` or `Edit(…)`",
                );
                self.diags.push(d);
            }
            Err(e) => {
                let d = self.err(e.code, e.message, rule_node);
                d.help = e.help;
            }
        }
    }

    /// Attributes shared by permission entry objects and `rules` objects.
    fn attribute(&mut self, rule: &mut AstRule, key: &str, k: &JNode, v: &JNode, expected: &str) {
        match key {
            "id" => {
                if let JValue::Str(s) = &v.value {
                    rule.id = Some(self.located(v, s.clone()));
                } else {
                    self.wrong_type("`id`", "a string", v);
                }
            }
            "reason" => match &v.value {
                JValue::Str(s) => rule.reason = Some(s.clone()),
                JValue::Null => {}
                _ => self.wrong_type("`reason`", "a string", v),
            },
            "priority" => match &v.value {
                JValue::Num(s) if !s.contains(['.', 'e', 'E']) => {
                    let n = s.parse::<i64>().unwrap_or(if s.starts_with('-') {
                        i64::MIN
                    } else {
                        i64::MAX
                    });
                    rule.priority = Some(self.located(v, n));
                }
                JValue::Num(_) => {
                    self.err(
                        crate::syntax::codes::E013,
                        "wrong JSON type: `priority` must be an integer",
                        v,
                    );
                }
                _ => self.wrong_type("`priority`", "an integer", v),
            },
            "hosts" => {
                if let Some(list) = self.strings("`hosts`", v) {
                    if !self.settings {
                        rule.hosts = Some(list);
                    }
                }
            }
            "tags" => {
                if let Some(list) = self.strings("`tags`", v) {
                    rule.tags = list.into_iter().map(|l| l.value).collect();
                }
            }
            "examples" => {
                let mut exs = Vec::new();
                self.array("`examples`", v, |r, e| {
                    if let Some(ex) = r.example(e) {
                        exs.push(ex);
                    }
                });
                rule.examples.extend(exs);
            }
            _ => self.unknown_key(key, k, expected),
        }
    }

    /// An array of strings (a single string is accepted as a one-element list).
    fn strings(&mut self, what: &str, v: &JNode) -> Option<Vec<Located<String>>> {
        match &v.value {
            JValue::Str(s) => Some(vec![self.located(v, s.clone())]),
            JValue::Arr(items) => {
                let mut out = Vec::new();
                for e in items {
                    match &e.value {
                        JValue::Str(s) => out.push(self.located(e, s.clone())),
                        _ => self.wrong_type(&format!("each entry of {what}"), "a string", e),
                    }
                }
                Some(out)
            }
            _ => {
                self.wrong_type(what, "an array of strings", v);
                None
            }
        }
    }

    fn tool(&mut self, v: &JNode) -> Option<String> {
        let JValue::Str(s) = &v.value else {
            self.wrong_type("`tool`", "a string", v);
            return None;
        };
        match json_tool(s) {
            Some(t) => Some(t),
            None => {
                self.err(crate::syntax::codes::E003, format!("unknown tool `{s}`"), v)
                    .help = Some(JSON_TOOL_HELP.into());
                None
            }
        }
    }

    /// One object of `rules`.
    fn json_rule(&mut self, n: &JNode) {
        let Some(pairs) = self.object("a rule", n) else {
            return;
        };
        let loc = self.located(n, ());
        let mut rule = AstRule {
            verdict: Verdict::Deny,
            tool: String::new(),
            patterns: Vec::new(),
            id: None,
            reason: None,
            priority: None,
            hosts: None,
            tags: Vec::new(),
            examples: Vec::new(),
            remember: None,
            text: String::new(),
            span: loc.span,
            len: 1,
        };
        let mut ok = true;
        let mut has_verdict = false;
        let mut has_tool = false;
        for (key, k, v) in pairs {
            match key {
                "verdict" => {
                    has_verdict = true;
                    match &v.value {
                        JValue::Str(s) => match Verdict::parse(s) {
                            Some(verdict) => rule.verdict = verdict,
                            None => {
                                ok = false;
                                self.err(crate::syntax::codes::E013, format!("wrong JSON value: unknown verdict `{s}`"), v).help =
                                    Some("expected \"allow\", \"ask\" or \"deny\"".into());
                            }
                        },
                        _ => {
                            ok = false;
                            self.wrong_type("`verdict`", "a string", v);
                        }
                    }
                }
                "tool" => {
                    has_tool = true;
                    match self.tool(v) {
                        Some(t) => rule.tool = t,
                        None => ok = false,
                    }
                }
                "exact" | "prefix" | "glob" | "contains" | "regex" => {
                    self.json_patterns(&mut rule, key, v)
                }
                "any" => match &v.value {
                    JValue::Bool(true) => rule.patterns.push(self.located(
                        v,
                        Pattern {
                            kind: PatternKind::Any,
                            text: String::new(),
                        },
                    )),
                    JValue::Bool(false) => {}
                    _ => self.wrong_type("`any`", "a boolean", v),
                },
                _ => self.attribute(&mut rule, key, k, v, "`verdict`, `tool`, `exact`, `prefix`, `glob`, `contains`, `regex`, `any`, `id`, `reason`, `priority`, `hosts`, `tags` or `examples`"),
            }
        }
        if !has_verdict {
            ok = false;
            self.err(
                crate::syntax::codes::E013,
                "wrong JSON type: a rule needs a `\"verdict\"`",
                n,
            );
        }
        if !has_tool {
            rule.tool = "bash".into();
        }
        if !ok {
            return;
        }
        let text = rule_text(&rule);
        rule.text = clip_text(&text);
        self.items.push(Item::Rule(rule));
    }

    /// `"exact"`, `"prefix"`, `"glob"`, `"contains"`, `"regex"`: a list of pattern strings.
    fn json_patterns(&mut self, rule: &mut AstRule, key: &str, v: &JNode) {
        let kind = match key {
            "exact" => PatternKind::Exact,
            "prefix" => PatternKind::Prefix,
            "glob" => PatternKind::Glob,
            "contains" => PatternKind::Contains,
            _ => PatternKind::Regex,
        };
        if let Some(list) = self.strings(&format!("`{key}`"), v) {
            for l in list {
                rule.patterns.push(Located {
                    value: Pattern {
                        kind,
                        text: l.value,
                    },
                    span: l.span,
                    len: l.len,
                });
            }
        }
    }

    /// `{"command": …}` or `{"tool": …, "input": …}`, with `"expect"` and optional `"host"`.
    fn example(&mut self, n: &JNode) -> Option<AstExample> {
        let pairs = self.object("an example", n)?;
        let mut tool = "bash".to_string();
        let mut input = None;
        let mut host = None;
        let mut expect = None;
        for (key, k, v) in pairs {
            match key {
                "tool" => tool = self.tool(v)?,
                "command" | "input" => match &v.value {
                    JValue::Str(s) => input = Some(s.clone()),
                    _ => self.wrong_type(&format!("`{key}`"), "a string", v),
                },
                "expect" | "host" => match &v.value {
                    JValue::Str(s) => {
                        let l = Some(self.located(v, s.clone()));
                        if key == "expect" {
                            expect = l;
                        } else {
                            host = l;
                        }
                    }
                    _ => self.wrong_type(&format!("`{key}`"), "a string", v),
                },
                _ => self.unknown_key(key, k, "`command`, `tool`, `input`, `expect` or `host`"),
            }
        }
        if input.is_none() || expect.is_none() {
            self.err(
                crate::syntax::codes::E013,
                "wrong JSON type: an example needs `\"command\"` (or `\"input\"`) and `\"expect\"`",
                n,
            );
            return None;
        }
        Some(AstExample {
            tool,
            input: input?,
            host,
            expect: expect?,
            span: self.src.span(n.start),
        })
    }
}

/// How a canonical tool is written in DSL-like rule texts.
fn dsl_display_tool(tool: &str) -> String {
    if dsl_tool(tool).is_some_and(|t| t == tool) {
        tool.to_string()
    } else {
        format!("tool {tool:?}")
    }
}

/// A JSON rule as the DSL would write it (explain and reasons show it).
fn rule_text(rule: &AstRule) -> String {
    let mut text = format!("{} {}", rule.verdict, dsl_display_tool(&rule.tool));
    for p in &rule.patterns {
        if p.value.kind == PatternKind::Any {
            text.push_str(" any");
        } else {
            text.push_str(&format!(" {} {:?}", p.value.kind.as_str(), p.value.text));
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(name: &str, text: &str) -> (Ast, Diagnostics) {
        let src = SourceText::new(name, text);
        let mut d = Diagnostics::new();
        let settings =
            super::super::SourceKind::for_name(name) == super::super::SourceKind::AgentSettings;
        let ast = parse_policy(&src, settings, &mut d);
        (ast, d)
    }

    fn rules(ast: &Ast) -> Vec<&AstRule> {
        ast.items
            .iter()
            .filter_map(|i| match i {
                Item::Rule(r) => Some(r),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn json_values_keep_positions() {
        let src = SourceText::new(
            "x.json",
            "{\n  \"a\": [1, -2.5e3, true, false, null, \"\\u00e9\\ud83d\\ude00\\n\"]\n}",
        );
        let root = parse_json(&src).unwrap();
        let JValue::Obj(pairs) = &root.value else {
            panic!()
        };
        assert_eq!(src.line_col(pairs[0].0.start), (2, 3));
        let JValue::Arr(items) = &pairs[0].1.value else {
            panic!()
        };
        assert_eq!(items[1].value, JValue::Num("-2.5e3".into()));
        assert_eq!(items[5].value, JValue::Str("é😀\n".into()));
        assert_eq!(src.line_col(items[5].start), (2, 39));
    }

    #[test]
    fn json_syntax_errors_have_positions() {
        for (text, line, col) in [
            ("{\"a\": [1, 2,]}", 1, 13),
            ("{\n  \"a\": 1\n  \"b\": 2\n}", 3, 3),
            ("{\"a\": 'x'}", 1, 7),
            ("", 1, 1),
            ("{\"a\": \"\\q\"}", 1, 7),
        ] {
            let e = parse_json(&SourceText::new("x.json", text)).unwrap_err();
            assert_eq!(
                (e.code, e.span.line, e.span.column),
                (crate::syntax::codes::E001, line, col),
                "{text}"
            );
        }
    }

    #[test]
    fn permcheck_json_reads_everything() {
        let text = r#"{
  "permissions": {
    "allow": ["Bash(git status)", "Bash(cargo *)"],
    "ask": ["Bash(git push:*)"],
    "deny": ["Bash(rm -rf:*)", "Read(./.env)", {"rule": "WebFetch(domain:evil.example)", "id": "evil", "reason": "no", "priority": 3, "hosts": ["claude"]}, "mcp__github__*"]
  },
  "rules": [ { "verdict": "deny", "tool": "bash", "prefix": ["git push --force"], "glob": [], "exact": [], "contains": [], "regex": [], "id": "no-force", "reason": "r", "priority": 10, "hosts": ["claude"], "tags": ["git"], "examples": [ {"command": "git push -f", "expect": "deny"} ] } ],
  "examples": [ {"command": "git status", "expect": "allow", "host": "claude"}, {"tool": "read", "input": ".env", "expect": "deny"} ]
}"#;
        let (ast, d) = parse("permcheck.json", text);
        assert!(d.is_empty(), "{}", d.render_all());
        let r = rules(&ast);
        assert_eq!(r.len(), 8);
        assert_eq!((r[0].span.line, r[0].span.column), (3, 15));
        assert_eq!(r[0].patterns[0].value.kind, PatternKind::Exact);
        assert_eq!(r[0].text, "Bash(git status)");
        assert_eq!(r[5].tool, "webfetch");
        assert_eq!(r[5].id.as_ref().unwrap().value, "evil");
        assert_eq!(r[5].priority.as_ref().unwrap().value, 3);
        assert_eq!(r[7].text, "deny bash prefix \"git push --force\"");
        assert_eq!(r[7].examples.len(), 1);
        assert_eq!(r[7].tags, vec!["git"]);
        assert_eq!(ast.items.len(), 10);
    }

    #[test]
    fn shape_errors_are_all_reported() {
        let text = r#"{
  "permisions": {},
  "permissions": {"allow": "Bash(ls)", "deyn": []},
  "rules": [ {"verdict": "deny", "tool": "bsah", "prefix": "x", "priorty": 1}, {"verdict": "nope"}, 3 ],
  "examples": [ {"command": "ls"} ]
}"#;
        let (_, d) = parse("permcheck.json", text);
        let got: Vec<_> = d
            .iter()
            .map(|d| (d.code, d.span.line, d.span.column))
            .collect();
        assert_eq!(
            got,
            vec![
                (crate::syntax::codes::E012, 2, 3),
                (crate::syntax::codes::E013, 3, 28),
                (crate::syntax::codes::E012, 3, 40),
                (crate::syntax::codes::E003, 4, 42),
                (crate::syntax::codes::E012, 4, 65),
                (crate::syntax::codes::E013, 4, 92),
                (crate::syntax::codes::E013, 4, 101),
                (crate::syntax::codes::E013, 5, 17),
            ],
            "{}",
            d.render_all()
        );
    }

    #[test]
    fn settings_file_reads_only_permissions() {
        let text = r#"{
  "$schema": "https://json.schemastore.org/claude-code-settings.json",
  "model": "opus",
  "env": {"FOO": "1"},
  "hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "polc hook --host claude"}]}]},
  "permissions": {
    "defaultMode": "acceptEdits",
    "additionalDirectories": ["../other"],
    "somethingNew": true,
    "allow": ["Bash(npm run test:*)", "Task(model:opus)"],
    "deny": ["Read(./secrets/**)"]
  },
  "enabledPlugins": {}
}"#;
        let (ast, d) = parse(".claude/settings.json", text);
        assert_eq!(d.len(), 1);
        assert_eq!(
            (d.0[0].code, d.0[0].span.line, d.0[0].span.column),
            (crate::syntax::codes::W001, 10, 39)
        );
        let r = rules(&ast);
        assert_eq!(r.len(), 2);
        let hosts: Vec<_> = r[0]
            .hosts
            .as_ref()
            .unwrap()
            .iter()
            .map(|h| h.value.as_str())
            .collect();
        assert_eq!(hosts, vec!["claude", "vscode"]);
        assert_eq!(r[1].tool, "read");
        // In permcheck.json, Claude Code's own keys are notes; a key outside its schema is
        // an error.
        let (_, d) = parse("permcheck.json", text);
        let codes = |c: crate::syntax::codes::Code| d.iter().filter(|d| d.code == c).count();
        assert_eq!(
            (
                codes(crate::syntax::codes::E012),
                codes(crate::syntax::codes::N001)
            ),
            (1, 6),
            "{}",
            d.render_all()
        );
    }

    #[test]
    fn duplicate_keys() {
        let (_, d) = parse(
            "permcheck.json",
            "{\"permissions\": {\"deny\": [], \"deny\": [\"Bash\"]}}",
        );
        assert_eq!(
            (d.0[0].code, d.0[0].span.column),
            (crate::syntax::codes::E015, 30)
        );
    }
}
