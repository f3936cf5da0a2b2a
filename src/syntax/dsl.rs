//! The DSL front end (`*.pol`): text → [`Ast`].
//!
//! The file is read one item at a time (`next_item` in the grammar). After a syntax error
//! the reader skips to the next line that starts, at column 1, with `allow`, `ask`, `deny`,
//! `include` or `example`, so each rule region reports its own first syntax error.

use super::{
    clip_text, dsl_tool, AstExample, AstRule, Diagnostics, Item, Located, PolicyParser, SourceText,
    TOOL_HELP,
};
use super::{Ast, Diagnostic};
use crate::ir::{Pattern, PatternKind, Verdict};
use pest::error::{ErrorVariant, InputLocation};
use pest::iterators::Pair;
use pest::Parser;

type R = super::Rule;

mod session;

/// Parse a DSL source. Syntax and tool errors go to `diags`.
pub fn parse(src: &SourceText, diags: &mut Diagnostics) -> Ast {
    let text = src.text.as_str();
    let mut items = Vec::new();
    let mut pos = if text.starts_with('\u{FEFF}') { 3 } else { 0 };
    while pos < text.len() {
        match PolicyParser::parse(R::next_item, &text[pos..]) {
            Ok(mut pairs) => {
                let Some(step) = pairs.next() else { break };
                let end = pos + step.as_span().end();
                let mut cx = Cx {
                    src,
                    base: pos,
                    diags,
                };
                for p in step.into_inner() {
                    if p.as_rule() == R::item {
                        if let Some(item) = cx.item(p) {
                            items.push(item);
                        }
                    }
                }
                if end <= pos {
                    break;
                }
                pos = end;
            }
            Err(e) => {
                let rel = match e.location {
                    InputLocation::Pos(p) => p,
                    InputLocation::Span((s, _)) => s,
                };
                let off = pos + rel;
                let positives = match &e.variant {
                    ErrorVariant::ParsingError { positives, .. } => positives.clone(),
                    ErrorVariant::CustomError { .. } => Vec::new(),
                };
                diags.push(syntax_error(src, off, &positives));
                pos = next_sync(text, off);
            }
        }
    }
    Ast { items }
}

/// The start of the next line after `off` that begins with an item keyword, or the end.
fn next_sync(text: &str, off: usize) -> usize {
    let mut i = off;
    while let Some(nl) = text[i..].find('\n') {
        i += nl + 1;
        let rest = &text[i..];
        for kw in [
            "allow", "ask", "deny", "include", "example", "session", "rewrite",
        ] {
            if let Some(after) = rest.strip_prefix(kw) {
                if !after
                    .chars()
                    .next()
                    .is_some_and(|c| c.is_ascii_alphanumeric() || "_.-".contains(c))
                {
                    return i;
                }
            }
        }
    }
    text.len()
}

fn describe(r: &R) -> &'static str {
    match r {
        R::next_item | R::item => "`allow`, `ask`, `deny`, `include` or `example`",
        R::include | R::kw_include => "`include`",
        R::top_example | R::kw_example | R::attr_example => "`example`",
        R::rule | R::rule_head | R::verdict => "`allow`, `ask` or `deny`",
        R::tool_spec | R::quoted_tool | R::tool_word | R::kw_tool => "a tool",
        R::pattern | R::pattern_kind | R::kw_any => {
            "a pattern (`exact`, `prefix`, `glob`, `contains` or `regex` and a string, or `any`)"
        }
        R::block => "`{`",
        R::block_end => "`}`",
        R::attribute
        | R::attr_id
        | R::attr_reason
        | R::attr_priority
        | R::attr_hosts
        | R::attr_tags
        | R::kw_id
        | R::kw_reason
        | R::kw_priority
        | R::kw_hosts
        | R::kw_tags => {
            "an attribute (`id`, `reason`, `priority`, `hosts`, `tags`, `example`) or a pattern"
        }
        R::eol | R::EOI => "end of line",
        R::string | R::dq_string | R::sq_string | R::dq_inner | R::sq_inner => "a string",
        R::ident => "a name",
        R::integer => "an integer",
        R::expectation => "`allow`, `ask`, `deny` or `default`",
        R::example_host | R::kw_on => "`on HOST`",
        R::arrow => "`=>`",
        _ => "valid syntax",
    }
}

fn found(text: &str, off: usize) -> (String, usize) {
    let rest = &text[off..];
    match rest.chars().next() {
        None => ("end of file".into(), 0),
        Some('\n') | Some('\r') => ("end of line".into(), 0),
        Some(c) if c.is_ascii_alphanumeric() || c == '_' => {
            let n = rest
                .find(|c: char| !(c.is_ascii_alphanumeric() || "_.-*".contains(c)))
                .unwrap_or(rest.len());
            (format!("`{}`", &rest[..n]), n)
        }
        Some(c) => (format!("`{c}`"), c.len_utf8()),
    }
}

fn syntax_error(src: &SourceText, off: usize, positives: &[R]) -> Diagnostic {
    let text = src.text.as_str();
    // An unterminated string or a bad escape: pest reports the opening quote; point at the
    // offending character instead.
    let (found_s, n) = found(text, off);
    let mut wanted: Vec<&str> = Vec::new();
    for p in positives {
        let d = describe(p);
        if !wanted.contains(&d) {
            wanted.push(d);
        }
    }
    let message = match wanted.len() {
        0 => format!("unexpected {found_s}"),
        1 => format!("expected {}, found {found_s}", wanted[0]),
        _ => {
            let last = wanted.pop().unwrap_or_default();
            format!("expected {} or {last}, found {found_s}", wanted.join(", "))
        }
    };
    let mut d = src.error(
        crate::syntax::codes::E001,
        format!("syntax error: {message}"),
        off,
        off + n,
    );
    if let Some(q) = text[off..]
        .chars()
        .next()
        .filter(|c| *c == '"' || *c == '\'')
    {
        let line_end = src.line_end(off);
        let body = &text[off + 1..line_end];
        if !body.contains(q) {
            d.message = "syntax error: unterminated string".into();
            d.help = Some("strings end on the line they start on".into());
        } else if q == '"' {
            if let Some(b) = bad_escape(body) {
                let at = off + 1 + b;
                d = src.error(
                    crate::syntax::codes::E001,
                    "syntax error: invalid escape in string",
                    at,
                    at + 2,
                );
                d.help = Some(
                    "double-quoted strings know \\\" \\\\ \\n \\t \\r \\u{HEX}; use 'single quotes' for raw text such as regexes"
                        .into(),
                );
            }
        }
    }
    d
}

/// Byte offset of the first invalid escape in the body of a double-quoted string.
fn bad_escape(body: &str) -> Option<usize> {
    let b = body.as_bytes();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'"' => return None,
            b'\\' => {
                match b.get(i + 1) {
                    Some(b'"' | b'\\' | b'n' | b't' | b'r') => {}
                    Some(b'u') if b.get(i + 2) == Some(&b'{') => {}
                    _ => return Some(i),
                }
                i += 2;
            }
            _ => i += 1,
        }
    }
    None
}

/// Conversion context: byte offsets of pairs are relative to `base`.
struct Cx<'a> {
    src: &'a SourceText,
    base: usize,
    diags: &'a mut Diagnostics,
}

impl Cx<'_> {
    fn start(&self, p: &Pair<'_, R>) -> usize {
        self.base + p.as_span().start()
    }
    fn end(&self, p: &Pair<'_, R>) -> usize {
        self.base + p.as_span().end()
    }
    fn located<T>(&self, p: &Pair<'_, R>, value: T) -> Located<T> {
        let (span, len) = self.src.locate(self.start(p), self.end(p));
        Located { value, span, len }
    }
    fn error(
        &mut self,
        code: crate::syntax::codes::Code,
        msg: impl Into<String>,
        p: &Pair<'_, R>,
    ) -> &mut Diagnostic {
        let d = self.src.error(code, msg, self.start(p), self.end(p));
        self.diags.push(d);
        self.diags.0.last_mut().expect("just pushed")
    }

    fn item(&mut self, p: Pair<'_, R>) -> Option<Item> {
        let inner = p.into_inner().next()?;
        match inner.as_rule() {
            R::include => {
                let s = inner.into_inner().nth(1)?;
                let value = self.string(&s)?;
                Some(Item::Include(self.located(&s, value)))
            }
            R::top_example => {
                let body = inner.into_inner().nth(1)?;
                self.example(body).map(Item::Example)
            }
            R::rule => self.rule(inner).map(Item::Rule),
            R::session_item => self.session_item(inner),
            R::sequence => self.sequence(inner),
            R::rewrite => self.rewrite(inner),
            _ => None,
        }
    }

    fn rule(&mut self, p: Pair<'_, R>) -> Option<AstRule> {
        let mut parts = p.into_inner();
        let head = parts.next()?;
        let head_start = self.start(&head);
        let head_end = self.end(&head);
        let mut h = head.into_inner();
        let verdict_p = h.next()?;
        let verdict = Verdict::parse(verdict_p.as_str())?;
        let vloc = self.located(&verdict_p, ());
        let tool_p = h.next()?;
        let tool = self.tool(tool_p);
        let mut rule = AstRule {
            verdict,
            tool: tool.unwrap_or_default(),
            patterns: Vec::new(),
            id: None,
            reason: None,
            priority: None,
            hosts: None,
            tags: Vec::new(),
            examples: Vec::new(),
            remember: None,
            text: clip_text(&self.src.text[head_start..head_end]),
            span: vloc.span,
            len: vloc.len,
        };
        for pat in h {
            if let Some(pt) = self.pattern(pat) {
                rule.patterns.push(pt);
            }
        }
        if let Some(block) = parts.next() {
            let mut seen: Vec<&'static str> = Vec::new();
            for attr in block.into_inner() {
                if attr.as_rule() != R::attribute {
                    continue;
                }
                let Some(a) = attr.into_inner().next() else {
                    continue;
                };
                let key = match a.as_rule() {
                    R::attr_id => "id",
                    R::attr_reason => "reason",
                    R::attr_priority => "priority",
                    R::attr_hosts => "hosts",
                    R::attr_tags => "tags",
                    R::attr_remember => "remember",
                    _ => "",
                };
                if !key.is_empty() {
                    if seen.contains(&key) {
                        self.error(
                            crate::syntax::codes::E016,
                            format!("duplicate attribute `{key}`"),
                            &a,
                        )
                        .help = Some(format!("give `{key}` once per rule"));
                        continue;
                    }
                    seen.push(key);
                }
                self.attribute(a, &mut rule);
            }
        }
        Some(rule)
    }

    fn attribute(&mut self, a: Pair<'_, R>, rule: &mut AstRule) {
        match a.as_rule() {
            R::attr_id => {
                if let Some(v) = a.into_inner().nth(1) {
                    rule.id = Some(self.located(&v, v.as_str().to_string()));
                }
            }
            R::attr_reason => {
                if let Some(v) = a.into_inner().nth(1) {
                    rule.reason = self.string(&v);
                }
            }
            R::attr_priority => {
                if let Some(v) = a.into_inner().nth(1) {
                    // Digits that overflow i64 are certainly out of the i32 range.
                    let n = v
                        .as_str()
                        .parse::<i64>()
                        .unwrap_or(if v.as_str().starts_with('-') {
                            i64::MIN
                        } else {
                            i64::MAX
                        });
                    rule.priority = Some(self.located(&v, n));
                }
            }
            R::attr_hosts => {
                let hosts = a
                    .into_inner()
                    .skip(1)
                    .map(|h| self.located(&h, h.as_str().to_string()))
                    .collect();
                rule.hosts = Some(hosts);
            }
            R::attr_tags => {
                rule.tags = a
                    .into_inner()
                    .skip(1)
                    .map(|t| t.as_str().to_string())
                    .collect();
            }
            R::attr_example => {
                if let Some(body) = a.into_inner().nth(1) {
                    if let Some(ex) = self.example(body) {
                        rule.examples.push(ex);
                    }
                }
            }
            R::attr_remember => rule.remember = Some(self.located(&a, ()).span),
            R::pattern => {
                if let Some(p) = self.pattern(a) {
                    rule.patterns.push(p);
                }
            }
            _ => {}
        }
    }

    fn pattern(&mut self, p: Pair<'_, R>) -> Option<Located<Pattern>> {
        let mut inner = p.into_inner();
        let first = inner.next()?;
        if first.as_rule() == R::kw_any {
            return Some(self.located(
                &first,
                Pattern {
                    kind: PatternKind::Any,
                    text: String::new(),
                },
            ));
        }
        let kind = match first.as_str() {
            "exact" => PatternKind::Exact,
            "prefix" => PatternKind::Prefix,
            "glob" => PatternKind::Glob,
            "contains" => PatternKind::Contains,
            _ => PatternKind::Regex,
        };
        let s = inner.next()?;
        let text = self.string(&s)?;
        Some(self.located(&s, Pattern { kind, text }))
    }

    fn tool(&mut self, p: Pair<'_, R>) -> Option<String> {
        let inner = p.into_inner().next()?;
        match inner.as_rule() {
            R::quoted_tool => {
                let s = inner.into_inner().nth(1)?;
                let name = self.string(&s)?;
                if name.trim().is_empty() {
                    self.error(crate::syntax::codes::E003, "empty tool name", &s)
                        .help = Some(TOOL_HELP.into());
                    return None;
                }
                Some(name)
            }
            _ => {
                let word = inner.as_str();
                if let Some(t) = dsl_tool(word) {
                    return Some(t);
                }
                self.error(
                    crate::syntax::codes::E003,
                    format!("unknown tool `{word}`"),
                    &inner,
                )
                .help = Some(TOOL_HELP.into());
                None
            }
        }
    }

    fn example(&mut self, body: Pair<'_, R>) -> Option<AstExample> {
        let start = self.start(&body);
        let span = self.src.span(start);
        let mut tool = "bash".to_string();
        let mut input = None;
        let mut host = None;
        let mut expect = None;
        for part in body.into_inner() {
            match part.as_rule() {
                R::tool_spec => tool = self.tool(part)?,
                R::string => {
                    input = self.string(&part);
                }
                R::example_host => {
                    let h = part.into_inner().nth(1)?;
                    host = Some(self.located(&h, h.as_str().to_string()));
                }
                R::expectation => expect = Some(self.located(&part, part.as_str().to_string())),
                _ => {}
            }
        }
        Some(AstExample {
            tool,
            input: input?,
            host,
            expect: expect?,
            span,
        })
    }

    /// Decode a `string` pair. `None` (with an error) for an invalid `\u{…}`.
    fn string(&mut self, p: &Pair<'_, R>) -> Option<String> {
        let q = p.clone().into_inner().next()?;
        let raw = q.clone().into_inner().next().map_or("", |i| i.as_str());
        if q.as_rule() == R::sq_string {
            return Some(raw.to_string());
        }
        let mut out = String::with_capacity(raw.len());
        let mut chars = raw.char_indices();
        while let Some((_, c)) = chars.next() {
            if c != '\\' {
                out.push(c);
                continue;
            }
            match chars.next().map(|x| x.1) {
                Some('n') => out.push('\n'),
                Some('t') => out.push('\t'),
                Some('r') => out.push('\r'),
                Some('u') => {
                    let rest: String = chars
                        .by_ref()
                        .map(|x| x.1)
                        .skip(1)
                        .take_while(|c| *c != '}')
                        .collect();
                    match u32::from_str_radix(&rest, 16).ok().and_then(char::from_u32) {
                        Some(ch) => out.push(ch),
                        None => {
                            self.error(
                                crate::syntax::codes::E001,
                                format!(
                                    "syntax error: `\\u{{{rest}}}` is not a Unicode scalar value"
                                ),
                                p,
                            );
                            return None;
                        }
                    }
                }
                Some(other) => out.push(other),
                None => {}
            }
        }
        Some(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_str(text: &str) -> (Ast, Diagnostics) {
        let src = SourceText::new("t.pol", text);
        let mut d = Diagnostics::new();
        let ast = parse(&src, &mut d);
        (ast, d)
    }

    fn errs(text: &str) -> Vec<(crate::syntax::codes::Code, u32, u32, String)> {
        parse_str(text)
            .1
             .0
            .into_iter()
            .map(|d| (d.code, d.span.line, d.span.column, d.message))
            .collect()
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
    fn full_example_parses() {
        let text = r#"# comment
include "other.pol"

deny bash prefix "git push --force" prefix "git push -f" {   # trailing comment
  id       no-force-push
  reason   "Force-pushing rewrites history."
  priority -10
  hosts    claude codex
  tags     git history
  glob     "git push * --force*"
  example  "git push --force origin main" => deny
  example  "git push origin main" on openclaw => default
  example  read "/home/u/.env" => deny
}
allow bash prefix "git status"
ask tool "Task" any
deny mcp__github__delete_repo
allow shell regex '^ls\s'
example "rm -rf /" => deny
"#;
        let (ast, d) = parse_str(text);
        assert!(d.is_empty(), "{}", d.render_all());
        assert_eq!(ast.items.len(), 7);
        assert!(
            matches!(&ast.items[0], Item::Include(l) if l.value == "other.pol" && l.span.line == 2 && l.span.column == 9)
        );
        let r = rules(&ast);
        assert_eq!(r[0].verdict, Verdict::Deny);
        assert_eq!(r[0].tool, "bash");
        assert_eq!(
            r[0].text,
            r#"deny bash prefix "git push --force" prefix "git push -f""#
        );
        assert_eq!((r[0].span.line, r[0].span.column), (4, 1));
        assert_eq!(r[0].patterns.len(), 3);
        assert_eq!(r[0].patterns[2].value.kind, PatternKind::Glob);
        assert_eq!(
            (r[0].patterns[2].span.line, r[0].patterns[2].span.column),
            (10, 12)
        );
        assert_eq!(r[0].id.as_ref().unwrap().value, "no-force-push");
        assert_eq!(r[0].priority.as_ref().unwrap().value, -10);
        assert_eq!(r[0].hosts.as_ref().unwrap().len(), 2);
        assert_eq!(r[0].tags, vec!["git", "history"]);
        assert_eq!(r[0].examples.len(), 3);
        assert_eq!(r[0].examples[1].host.as_ref().unwrap().value, "openclaw");
        assert_eq!(r[0].examples[2].tool, "read");
        assert_eq!(r[2].tool, "Task");
        assert_eq!(r[2].patterns[0].value.kind, PatternKind::Any);
        assert_eq!(r[3].tool, "mcp__github__delete_repo");
        assert!(r[3].patterns.is_empty());
        assert_eq!(r[4].patterns[0].value.text, r"^ls\s");
        assert!(
            matches!(&ast.items[6], Item::Example(e) if e.input == "rm -rf /" && e.expect.value == "deny")
        );
    }

    #[test]
    fn escapes_decode() {
        let (ast, d) = parse_str("deny bash exact \"a\\\"b\\\\c\\n\\t\\r\\u{41}\"\n");
        assert!(d.is_empty());
        assert_eq!(rules(&ast)[0].patterns[0].value.text, "a\"b\\c\n\t\rA");
    }

    #[test]
    fn syntax_error_positions() {
        // A bad item keyword at the start of the file.
        let e = errs("alow bash prefix \"x\"\n");
        assert_eq!(e.len(), 1);
        assert_eq!((e[0].0, e[0].1, e[0].2), (crate::syntax::codes::E001, 1, 1));
        assert!(e[0].3.contains("`alow`"), "{}", e[0].3);
        assert!(e[0].3.contains("`allow`"), "{}", e[0].3);
        // Junk after the patterns.
        let e = errs("deny bash prefix \"x\" junk\n");
        assert_eq!(
            (e[0].0, e[0].1, e[0].2),
            (crate::syntax::codes::E001, 1, 22)
        );
        // A string without a pattern kind.
        let e = errs("\n\ndeny bash \"x\"\n");
        assert_eq!((e[0].1, e[0].2), (3, 11));
        // Unterminated string.
        let e = errs("deny bash prefix \"x\n");
        assert_eq!((e[0].1, e[0].2), (1, 18));
        assert!(e[0].3.contains("unterminated"));
        // Bad escape points at the backslash.
        let e = errs("deny bash regex \"\\d+\"\n");
        assert_eq!((e[0].1, e[0].2), (1, 18));
        assert!(e[0].3.contains("escape"));
        // Unclosed block.
        let e = errs("deny bash {\n  id x\n");
        assert_eq!(e[0].1, 3);
        // Example without `=>`.
        let e = errs("example \"ls\" deny\n");
        assert_eq!((e[0].1, e[0].2), (1, 14));
        assert!(e[0].3.contains("`=>`"), "{}", e[0].3);
        // Attributes need separators.
        let e = errs("deny bash { id x reason \"y\" }\n");
        assert_eq!((e[0].1, e[0].2), (1, 18));
    }

    #[test]
    fn resynchronises_per_rule_region() {
        let text = "deny bash prefix \"a\" oops\nallow bash prefix \"ok\"\ndeny bash {\n  bogus 1\n}\nask bash prefix ??\nallow bash any\n";
        let (ast, d) = parse_str(text);
        let pos: Vec<_> = d
            .iter()
            .map(|d| (d.code, d.span.line, d.span.column))
            .collect();
        assert_eq!(
            pos,
            vec![
                (crate::syntax::codes::E001, 1, 22),
                (crate::syntax::codes::E001, 4, 3),
                (crate::syntax::codes::E001, 6, 17)
            ]
        );
        // The good rules between the bad ones are still read.
        let r = rules(&ast);
        assert_eq!(r.len(), 2);
        assert_eq!(r[0].span.line, 2);
        assert_eq!(r[1].span.line, 7);
    }

    #[test]
    fn unknown_tool_points_at_the_word() {
        let e = parse_str("\ndeny bsah prefix \"rm -rf\"\n").1;
        assert_eq!(e.len(), 1);
        let d = &e.0[0];
        assert_eq!(
            (d.code, d.span.line, d.span.column, d.len),
            (crate::syntax::codes::E003, 2, 6, 4)
        );
        assert_eq!(d.message, "unknown tool `bsah`");
        assert!(d.render().contains("     ^^^^"));
        let e = errs("deny prefix \"x\"\n");
        assert_eq!((e[0].0, e[0].2), (crate::syntax::codes::E001, 6));
        assert!(e[0].3.contains("expected a tool"), "{}", e[0].3);
        let e = errs("example bsh \"x\" => deny\n");
        assert_eq!((e[0].0, e[0].2), (crate::syntax::codes::E003, 9));
    }

    #[test]
    fn duplicate_attribute() {
        let e = errs("deny bash any {\n  id a\n  id b\n}\n");
        assert_eq!((e[0].0, e[0].1, e[0].2), (crate::syntax::codes::E016, 3, 3));
    }

    #[test]
    fn long_text_is_clipped() {
        let long = "x".repeat(300);
        let (ast, _) = parse_str(&format!("deny bash prefix \"{long}\"\n"));
        assert_eq!(rules(&ast)[0].text.chars().count(), 200);
    }
}
