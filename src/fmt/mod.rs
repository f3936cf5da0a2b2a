//! `polc fmt`: the canonical layout of `.pol` files (documented in `src/fmt/README.md`).
//!
//! The pest grammar skips comments, so the formatter works on its own token stream. It
//! only runs on text the real parser accepts without an error (checked first), so the
//! token stream is known to have the grammar's shape; the layout is then a function of
//! the tokens alone, which is what makes it idempotent.

use crate::syntax::{self, Diagnostics, SourceText};
use std::fmt::Write as _;

/// Format one `.pol` source. `Err` holds the parser's errors (the text is not formatted).
pub fn format_source(name: &str, text: &str) -> Result<String, Diagnostics> {
    let src = SourceText::new(name, text);
    let mut diags = Diagnostics::new();
    let _ = syntax::dsl::parse(&src, &mut diags);
    if diags.has_errors() {
        return Err(diags);
    }
    let toks = lex(text.strip_prefix('\u{FEFF}').unwrap_or(text));
    Ok(layout(&toks))
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Tok {
    /// A bare word: keyword, tool, identifier, integer, `=>`.
    Word(String),
    /// A string, decoded.
    Str(String),
    Open,
    Close,
    Semi,
    /// A comment's text after `#`, right blanks trimmed.
    Comment(String),
    Nl,
}

fn lex(text: &str) -> Vec<Tok> {
    let mut out = Vec::new();
    let mut it = text.char_indices().peekable();
    while let Some(&(i, c)) = it.peek() {
        match c {
            ' ' | '\t' | '\r' | '\u{FEFF}' => {
                it.next();
            }
            '\n' => {
                it.next();
                out.push(Tok::Nl);
            }
            '#' => {
                let end = text[i..].find('\n').map_or(text.len(), |n| i + n);
                out.push(Tok::Comment(text[i + 1..end].trim_end().to_string()));
                while it.peek().is_some_and(|&(j, _)| j < end) {
                    it.next();
                }
            }
            '{' | '}' | ';' => {
                it.next();
                out.push(match c {
                    '{' => Tok::Open,
                    '}' => Tok::Close,
                    _ => Tok::Semi,
                });
            }
            '"' => {
                it.next();
                let mut s = String::new();
                while let Some((_, c)) = it.next() {
                    match c {
                        '"' => break,
                        '\\' => match it.next().map(|x| x.1) {
                            Some('n') => s.push('\n'),
                            Some('t') => s.push('\t'),
                            Some('r') => s.push('\r'),
                            Some('u') => {
                                it.next(); // `{`
                                let mut hex = String::new();
                                for (_, h) in it.by_ref() {
                                    if h == '}' {
                                        break;
                                    }
                                    hex.push(h);
                                }
                                if let Some(ch) =
                                    u32::from_str_radix(&hex, 16).ok().and_then(char::from_u32)
                                {
                                    s.push(ch);
                                }
                            }
                            Some(o) => s.push(o),
                            None => {}
                        },
                        o => s.push(o),
                    }
                }
                out.push(Tok::Str(s));
            }
            '\'' => {
                it.next();
                let mut s = String::new();
                for (_, c) in it.by_ref() {
                    if c == '\'' {
                        break;
                    }
                    s.push(c);
                }
                out.push(Tok::Str(s));
            }
            '=' if text[i..].starts_with("=>") => {
                it.next();
                it.next();
                out.push(Tok::Word("=>".into()));
            }
            _ => {
                let mut w = String::new();
                while let Some(&(_, c)) = it.peek() {
                    if matches!(
                        c,
                        ' ' | '\t' | '\r' | '\n' | '#' | '{' | '}' | ';' | '"' | '\'' | '='
                    ) && !w.is_empty()
                    {
                        break;
                    }
                    w.push(c);
                    it.next();
                }
                out.push(Tok::Word(w));
            }
        }
    }
    out
}

/// A string in canonical quotes: double quotes unless the text holds `"` or `\` (then
/// single quotes, raw, when it can: no `'` and no control characters).
pub fn quote(s: &str) -> String {
    let raw_ok = !s.contains('\'') && !s.chars().any(char::is_control);
    if (s.contains('"') || s.contains('\\')) && raw_ok {
        return format!("'{s}'");
    }
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if c.is_control() => {
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn show(t: &Tok) -> String {
    match t {
        Tok::Word(w) => w.clone(),
        Tok::Str(s) => quote(s),
        Tok::Open => "{".into(),
        Tok::Close => "}".into(),
        Tok::Semi => ";".into(),
        Tok::Comment(c) => format!("#{c}"),
        Tok::Nl => "\n".into(),
    }
}

fn join(ts: &[Tok]) -> String {
    ts.iter().map(show).collect::<Vec<_>>().join(" ")
}

const PATTERN_KINDS: &[&str] = &["exact", "prefix", "glob", "contains", "regex"];

/// One line of a block.
enum Entry {
    /// Key and the rest of the attribute, with its trailing comment.
    Attr(String, Vec<Tok>, Option<String>),
    Comment(String),
    Blank,
}

/// A top-level unit: lines, whether it is a rule with a block, and whether the source had
/// a blank line before it.
struct Unit {
    lines: Vec<String>,
    block: bool,
    blank_before: bool,
}

struct Cursor<'a> {
    t: &'a [Tok],
    i: usize,
}

impl Cursor<'_> {
    fn peek(&self) -> Option<&Tok> {
        self.t.get(self.i)
    }
    fn next(&mut self) -> Option<Tok> {
        let t = self.t.get(self.i).cloned();
        self.i += 1;
        t
    }
    /// Tokens up to (not including) the end of the line or a trailing comment; then the
    /// trailing comment, if any. Consumes the newline.
    fn rest_of_line(&mut self) -> (Vec<Tok>, Option<String>) {
        let mut v = Vec::new();
        let mut comment = None;
        while let Some(t) = self.next() {
            match t {
                Tok::Nl => break,
                Tok::Comment(c) => comment = Some(c),
                t => v.push(t),
            }
        }
        (v, comment)
    }
}

fn layout(toks: &[Tok]) -> String {
    let mut c = Cursor { t: toks, i: 0 };
    let mut units: Vec<Unit> = Vec::new();
    // Comment lines waiting for the item they sit on.
    let mut pending: Vec<String> = Vec::new();
    let mut pending_blank = false;
    let mut blank = false;
    while let Some(t) = c.peek().cloned() {
        match t {
            Tok::Nl => {
                c.next();
                // An empty line ends a comment group: it stands alone.
                if !pending.is_empty() {
                    units.push(Unit {
                        lines: std::mem::take(&mut pending),
                        block: false,
                        blank_before: pending_blank,
                    });
                }
                blank = true;
            }
            Tok::Comment(s) => {
                c.next();
                c.next(); // its newline
                if pending.is_empty() {
                    pending_blank = blank;
                }
                pending.push(format!("#{s}"));
                blank = false;
            }
            _ => {
                let (mut lines, block) = item(&mut c);
                let blank_before = if pending.is_empty() {
                    blank
                } else {
                    pending_blank
                };
                let mut all = std::mem::take(&mut pending);
                all.append(&mut lines);
                units.push(Unit {
                    lines: all,
                    block,
                    blank_before,
                });
                blank = false;
            }
        }
    }
    if !pending.is_empty() {
        units.push(Unit {
            lines: pending,
            block: false,
            blank_before: pending_blank,
        });
    }
    let mut out = String::new();
    for (k, u) in units.iter().enumerate() {
        if k > 0 && (u.blank_before || u.block || units[k - 1].block) {
            out.push('\n');
        }
        for l in &u.lines {
            out.push_str(l);
            out.push('\n');
        }
    }
    out
}

fn with_comment(mut line: String, comment: Option<String>) -> String {
    if let Some(cm) = comment {
        if !line.is_empty() {
            line.push(' ');
        }
        line.push('#');
        line.push_str(&cm);
    }
    line
}

/// One top-level item; returns its lines and whether it is a rule with a block.
fn item(c: &mut Cursor<'_>) -> (Vec<String>, bool) {
    let Some(Tok::Word(first)) = c.peek().cloned() else {
        // Cannot happen on parsed text; keep the line as it is.
        let (v, cm) = c.rest_of_line();
        return (vec![with_comment(join(&v), cm)], false);
    };
    if first != "allow" && first != "ask" && first != "deny" {
        let (v, cm) = c.rest_of_line();
        return (vec![with_comment(join(&v), cm)], false);
    }
    let (mut head, patterns) = rule_head(c);
    let mut entries: Vec<Entry> = Vec::new();
    let mut header_comment = None;
    let mut close_comment = None;
    let mut has_block = false;
    match c.next() {
        Some(Tok::Open) => {
            has_block = true;
            block(c, &mut entries, &mut header_comment, &mut close_comment);
        }
        Some(Tok::Comment(cm)) => {
            header_comment = Some(cm);
            c.next(); // newline
        }
        _ => {} // newline or end of input
    }
    let mut extra: Vec<Entry> = patterns
        .iter()
        .skip(1)
        .map(|p| {
            let key = show(&p[0]);
            Entry::Attr(key, p[1..].to_vec(), None)
        })
        .collect();
    extra.append(&mut entries);
    let mut entries = extra;
    // Blank lines at the edges of a block, and repeated ones, go.
    trim_blanks(&mut entries);
    if let Some(p) = patterns.first() {
        head.extend(p.iter().cloned());
    }
    let header = join(&head);
    let attrs = entries.iter().any(|e| matches!(e, Entry::Attr(..)));
    let block_needed = attrs || entries.iter().any(|e| matches!(e, Entry::Comment(_)));
    if !block_needed {
        // `{}` (or a block of blank lines) says nothing: drop it, keep its comments.
        let cm = match (header_comment, close_comment) {
            (Some(a), Some(b)) => Some(format!("{a} #{b}")),
            (a, b) => a.or(b),
        };
        return (vec![with_comment(header, cm)], false);
    }
    let _ = has_block;
    (
        block_lines(header, header_comment, entries, close_comment),
        true,
    )
}

/// A rule's head (verdict and tool) and its patterns (kind and string each).
fn rule_head(c: &mut Cursor<'_>) -> (Vec<Tok>, Vec<Vec<Tok>>) {
    let mut head: Vec<Tok> = vec![c.next().expect("peeked")];
    match c.next() {
        Some(Tok::Word(w)) if w == "tool" => {
            head.push(Tok::Word(w));
            if let Some(s) = c.next() {
                head.push(s);
            }
        }
        Some(t) => head.push(t),
        None => {}
    }
    let mut patterns: Vec<Vec<Tok>> = Vec::new();
    loop {
        match c.peek() {
            Some(Tok::Word(w)) if w == "any" => {
                patterns.push(vec![c.next().expect("peeked")]);
            }
            Some(Tok::Word(w)) if PATTERN_KINDS.contains(&w.as_str()) => {
                let k = c.next().expect("peeked");
                let s = c.next().expect("a pattern has a string");
                patterns.push(vec![k, s]);
            }
            _ => break,
        }
    }
    (head, patterns)
}

/// A rule with a block: the header, its attributes aligned, comments and blank lines kept.
fn block_lines(
    mut header: String,
    header_comment: Option<String>,
    entries: Vec<Entry>,
    close_comment: Option<String>,
) -> Vec<String> {
    header.push_str(" {");
    let mut lines = vec![with_comment(header, header_comment)];
    let width = entries
        .iter()
        .filter_map(|e| match e {
            Entry::Attr(k, v, _) if !v.is_empty() => Some(k.chars().count()),
            _ => None,
        })
        .max()
        .unwrap_or(0);
    for e in entries {
        match e {
            Entry::Attr(k, v, cm) => {
                let line = if v.is_empty() {
                    format!("  {k}")
                } else {
                    format!("  {k:<w$} {}", join(&v), w = width)
                };
                lines.push(with_comment(line, cm));
            }
            Entry::Comment(cm) => lines.push(format!("  #{cm}")),
            Entry::Blank => lines.push(String::new()),
        }
    }
    lines.push(with_comment("}".into(), close_comment));
    lines
}

fn trim_blanks(entries: &mut Vec<Entry>) {
    let mut out: Vec<Entry> = Vec::with_capacity(entries.len());
    for e in entries.drain(..) {
        if matches!(e, Entry::Blank) && matches!(out.last(), None | Some(Entry::Blank)) {
            continue;
        }
        out.push(e);
    }
    while matches!(out.last(), Some(Entry::Blank)) {
        out.pop();
    }
    *entries = out;
}

/// The inside of a block, after `{`, through `}` and what follows it on its line.
fn block(
    c: &mut Cursor<'_>,
    entries: &mut Vec<Entry>,
    header_comment: &mut Option<String>,
    close_comment: &mut Option<String>,
) {
    // Still on the header line; whether the current line has an attribute yet; whether the
    // current line is empty so far.
    let mut on_header = true;
    let mut line_attr: Option<usize> = None;
    let mut line_empty = false;
    while let Some(t) = c.next() {
        match t {
            Tok::Nl => {
                if line_empty && !on_header {
                    entries.push(Entry::Blank);
                }
                on_header = false;
                line_attr = None;
                line_empty = true;
            }
            Tok::Semi => {
                line_empty = false;
            }
            Tok::Comment(cm) => {
                match line_attr {
                    Some(k) => {
                        if let Some(Entry::Attr(_, _, slot)) = entries.get_mut(k) {
                            *slot = Some(cm);
                        }
                    }
                    None if on_header => *header_comment = Some(cm),
                    None => entries.push(Entry::Comment(cm)),
                }
                line_empty = false;
            }
            Tok::Close => {
                // What follows `}` on its line: a comment, then the newline.
                match c.peek() {
                    Some(Tok::Comment(_)) => {
                        if let Some(Tok::Comment(cm)) = c.next() {
                            *close_comment = Some(cm);
                        }
                        if c.peek() == Some(&Tok::Nl) {
                            c.next();
                        }
                    }
                    Some(Tok::Nl) => {
                        c.next();
                    }
                    _ => {}
                }
                return;
            }
            Tok::Word(key) => {
                let mut v = Vec::new();
                while let Some(n) = c.peek() {
                    if matches!(n, Tok::Nl | Tok::Semi | Tok::Close | Tok::Comment(_)) {
                        break;
                    }
                    v.push(c.next().expect("peeked"));
                }
                entries.push(Entry::Attr(key, v, None));
                line_attr = Some(entries.len() - 1);
                line_empty = false;
            }
            Tok::Str(_) | Tok::Open => {
                line_empty = false;
            }
        }
    }
}

#[cfg(test)]
mod tests;
