//! Diagnostics: collected (never first-error-only), each with a code, a lowercase message,
//! a position with a caret under the offending text, and optional help.

use crate::ir::Span;
use serde_json::json;
use std::fmt::Write as _;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    Error,
    Warning,
    /// Information only (a Claude Code settings key polc does not use).
    Note,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Note => "note",
        }
    }
}

/// One problem found in a source. `span.line == 0` means "the whole file" (no snippet).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub severity: Severity,
    /// `E001`.. for errors, `W001`.. for warnings; listed in `src/syntax/README.md`.
    pub code: crate::syntax::codes::Code,
    pub message: String,
    pub span: Span,
    /// Caret width in characters, at least 1.
    pub len: u32,
    /// The source line the span points into (without its newline); empty when unknown.
    pub line_text: String,
    pub help: Option<String>,
}

impl Diagnostic {
    pub fn error(
        code: crate::syntax::codes::Code,
        message: impl Into<String>,
        span: Span,
    ) -> Diagnostic {
        Diagnostic {
            severity: Severity::Error,
            code,
            message: message.into(),
            span,
            len: 1,
            line_text: String::new(),
            help: None,
        }
    }

    pub fn warning(
        code: crate::syntax::codes::Code,
        message: impl Into<String>,
        span: Span,
    ) -> Diagnostic {
        Diagnostic {
            severity: Severity::Warning,
            ..Diagnostic::error(code, message, span)
        }
    }

    pub fn with_len(mut self, len: u32) -> Diagnostic {
        self.len = len.max(1);
        self
    }

    pub fn with_line(mut self, line_text: impl Into<String>) -> Diagnostic {
        self.line_text = line_text.into();
        self
    }

    pub fn with_help(mut self, help: impl Into<String>) -> Diagnostic {
        self.help = Some(help.into());
        self
    }

    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    /// Human form (rustc/cedar-like):
    ///
    /// ```text
    /// error[E003]: unknown tool `bsah`
    ///   --> policies/default.pol:12:7
    ///    |
    /// 12 | deny bsah prefix "rm -rf"
    ///    |      ^^^^
    ///    = help: expected bash, read, ...
    /// ```
    pub fn render(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "{}[{}]: {}",
            self.severity.as_str(),
            self.code,
            self.message
        );
        let width = if self.span.line == 0 {
            1
        } else {
            self.span.line.to_string().len()
        };
        let pad = " ".repeat(width);
        if self.span.line == 0 {
            let _ = writeln!(out, "{pad}--> {}", self.span.file);
        } else {
            let _ = writeln!(out, "{pad}--> {}", self.span);
            let _ = writeln!(out, "{pad} |");
            let _ = writeln!(out, "{} | {}", self.span.line, self.line_text);
            let mut caret = String::new();
            for c in self
                .line_text
                .chars()
                .take(self.span.column.saturating_sub(1) as usize)
            {
                caret.push(if c == '\t' { '\t' } else { ' ' });
            }
            caret.push_str(&"^".repeat(self.len.max(1) as usize));
            let _ = writeln!(out, "{pad} | {caret}");
        }
        if let Some(help) = &self.help {
            let _ = writeln!(out, "{pad} = help: {help}");
        }
        out
    }

    pub fn to_json(&self) -> serde_json::Value {
        json!({
            "severity": self.severity.as_str(),
            "code": self.code,
            "message": self.message,
            "file": self.span.file,
            "line": self.span.line,
            "column": self.span.column,
            "len": self.len,
            "line_text": self.line_text,
            "help": self.help,
        })
    }
}

/// A list of diagnostics in the order they were found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Diagnostics(pub Vec<Diagnostic>);

impl Diagnostics {
    pub fn new() -> Diagnostics {
        Diagnostics(Vec::new())
    }
    pub fn push(&mut self, d: Diagnostic) {
        self.0.push(d);
    }
    pub fn extend(&mut self, other: Diagnostics) {
        self.0.extend(other.0);
    }
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
    pub fn len(&self) -> usize {
        self.0.len()
    }
    pub fn iter(&self) -> std::slice::Iter<'_, Diagnostic> {
        self.0.iter()
    }
    pub fn has_errors(&self) -> bool {
        self.0.iter().any(Diagnostic::is_error)
    }
    pub fn errors(&self) -> impl Iterator<Item = &Diagnostic> {
        self.0.iter().filter(|d| d.is_error())
    }
    pub fn warnings(&self) -> impl Iterator<Item = &Diagnostic> {
        self.0.iter().filter(|d| d.severity == Severity::Warning)
    }
    /// Every diagnostic rendered, separated by blank lines, then a one-line summary.
    pub fn render_all(&self) -> String {
        let mut out = String::new();
        for d in &self.0 {
            out.push_str(&d.render());
            out.push('\n');
        }
        let errors = self.errors().count();
        let warnings = self.warnings().count();
        if errors > 0 {
            let _ = writeln!(
                out,
                "error: {errors} error{}{}",
                if errors == 1 { "" } else { "s" },
                if warnings > 0 {
                    format!(
                        ", {warnings} warning{}",
                        if warnings == 1 { "" } else { "s" }
                    )
                } else {
                    String::new()
                }
            );
        } else if warnings > 0 {
            let _ = writeln!(
                out,
                "warning: {warnings} warning{}",
                if warnings == 1 { "" } else { "s" }
            );
        }
        out
    }
    /// `{"errors": n, "warnings": n, "notes": n, "diagnostics": [...]}`.
    pub fn to_json(&self) -> serde_json::Value {
        let errors = self.errors().count();
        let warnings = self.warnings().count();
        json!({
            "errors": errors,
            "warnings": warnings,
            "notes": self.0.len() - errors - warnings,
            "diagnostics": self.0.iter().map(Diagnostic::to_json).collect::<Vec<_>>(),
        })
    }
}

impl IntoIterator for Diagnostics {
    type Item = Diagnostic;
    type IntoIter = std::vec::IntoIter<Diagnostic>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.into_iter()
    }
}

/// A source text with a line index: turns byte offsets into 1-based line/column (columns
/// count characters) and hands out line texts for snippets.
#[derive(Clone, Debug)]
pub struct SourceText {
    pub name: String,
    pub text: String,
    line_starts: Vec<usize>,
    /// Characters before each `CHAR_BLOCK`-byte boundary of the text, so a column costs at
    /// most one block of counting. (Counting from the line start made a policy on one long
    /// line — a `permcheck.json` written by a program — quadratic: 20,000 rules took 5.6 s.)
    chars_before_block: Vec<u32>,
}

const CHAR_BLOCK: usize = 1024;

/// Characters starting in `b` (bytes that are not UTF-8 continuation bytes).
fn char_starts(b: &[u8]) -> usize {
    b.iter().filter(|&&x| x & 0xC0 != 0x80).count()
}

impl SourceText {
    pub fn new(name: impl Into<String>, text: impl Into<String>) -> SourceText {
        let text = text.into();
        let mut line_starts = vec![0];
        for (i, b) in text.bytes().enumerate() {
            if b == b'\n' {
                line_starts.push(i + 1);
            }
        }
        let mut chars_before_block = vec![0u32];
        let mut n = 0u32;
        for block in text.as_bytes().chunks(CHAR_BLOCK) {
            n = n.saturating_add(char_starts(block) as u32);
            chars_before_block.push(n);
        }
        SourceText {
            name: name.into(),
            text,
            line_starts,
            chars_before_block,
        }
    }

    /// Characters in `text[..at]` (`at` a char boundary).
    fn chars_to(&self, at: usize) -> usize {
        let b = at / CHAR_BLOCK;
        let base = self.chars_before_block.get(b).copied().unwrap_or(0) as usize;
        base + char_starts(&self.text.as_bytes()[b * CHAR_BLOCK..at])
    }

    /// 1-based (line, column) of a byte offset.
    pub fn line_col(&self, offset: usize) -> (u32, u32) {
        let offset = offset.min(self.text.len());
        let line_idx = match self.line_starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i - 1,
        };
        let start = self.line_starts[line_idx];
        // Both ends are char boundaries: characters between them = char starts. A short
        // distance is counted directly (two block counts cost up to 2 KiB of scanning a
        // token: 100 M instructions, a tenth of building 10,000 `.pol` rules); a long line
        // uses the per-block counts, so a token is never located by scanning its line.
        let end = floor_char(&self.text, offset);
        let col = if end - start <= 64 {
            char_starts(&self.text.as_bytes()[start..end])
        } else {
            self.chars_to(end) - self.chars_to(start)
        };
        (line_idx as u32 + 1, col as u32 + 1)
    }

    pub fn span(&self, offset: usize) -> Span {
        let (line, column) = self.line_col(offset);
        Span {
            file: self.name.clone(),
            line,
            column,
        }
    }

    /// The text of a 1-based line, without `\n` or `\r`.
    pub fn line_text(&self, line: u32) -> &str {
        let i = (line as usize).wrapping_sub(1);
        let Some(&start) = self.line_starts.get(i) else {
            return "";
        };
        let end = self.next_newline(i);
        self.text[start..end].trim_end_matches('\r')
    }

    /// The `\n` ending line index `i` (0-based), or the end of the text. From the line index,
    /// not a search: a search from each token to the end of its line made a one-line JSON
    /// policy quadratic.
    fn next_newline(&self, i: usize) -> usize {
        self.line_starts
            .get(i + 1)
            .map_or(self.text.len(), |next| next - 1)
    }

    /// Byte offset of the end of the line containing `offset` (before `\n`/`\r\n`).
    pub fn line_end(&self, offset: usize) -> usize {
        let offset = offset.min(self.text.len());
        let i = match self.line_starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i - 1,
        };
        let end = self.next_newline(i);
        if end > offset && self.text.as_bytes()[end - 1] == b'\r' {
            end - 1
        } else {
            end
        }
    }

    /// The span of byte `start` and the caret width of `start..end` (characters, clipped to
    /// the line), without copying the line's text.
    pub fn locate(&self, start: usize, end: usize) -> (Span, u32) {
        let span = self.span(start);
        let s = floor_char(&self.text, start.min(self.text.len()));
        let line_end = self.line_end(s);
        let end = end.clamp(start, line_end.max(start));
        let len = self.text[s..floor_char(&self.text, end.min(self.text.len()))]
            .chars()
            .count() as u32;
        (span, len.max(1))
    }

    /// A diagnostic at byte range `start..end` (caret width = characters, clipped to the line).
    pub fn diag(
        &self,
        severity: Severity,
        code: crate::syntax::codes::Code,
        message: impl Into<String>,
        start: usize,
        end: usize,
    ) -> Diagnostic {
        let (span, len) = self.locate(start, end);
        let line_text = self.line_text(span.line).to_string();
        Diagnostic {
            severity,
            code,
            message: message.into(),
            span,
            len,
            line_text,
            help: None,
        }
    }

    pub fn error(
        &self,
        code: crate::syntax::codes::Code,
        message: impl Into<String>,
        start: usize,
        end: usize,
    ) -> Diagnostic {
        self.diag(Severity::Error, code, message, start, end)
    }
}

fn floor_char(s: &str, mut i: usize) -> usize {
    while i > 0 && !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_like_rustc() {
        let src = SourceText::new(
            "policies/default.pol",
            format!("{}deny bsah prefix \"rm -rf\"\n", "\n".repeat(11)),
        );
        let start = src.text.find("bsah").unwrap();
        let d = src
            .error(crate::syntax::codes::E003, "unknown tool `bsah`", start, start + 4)
            .with_help(
            "expected bash, read, edit, webfetch, websearch, mcp__server__tool, or tool \"Name\"",
        );
        assert_eq!(
            d.render(),
            "error[E003]: unknown tool `bsah`\n  --> policies/default.pol:12:6\n   |\n12 | deny bsah prefix \"rm -rf\"\n   |      ^^^^\n   = help: expected bash, read, edit, webfetch, websearch, mcp__server__tool, or tool \"Name\"\n"
        );
    }

    #[test]
    fn line_col_counts_characters_across_blocks() {
        let text: String = (0..3000)
            .map(|i| if i % 7 == 0 { "é→x" } else { "ab\n" })
            .collect();
        let src = SourceText::new("f", text.clone());
        for (off, _) in text.char_indices().step_by(97) {
            let start = text[..off].rfind('\n').map_or(0, |i| i + 1);
            let line = text[..off].matches('\n').count() as u32 + 1;
            let col = text[start..off].chars().count() as u32 + 1;
            assert_eq!(src.line_col(off), (line, col), "at {off}");
        }
        // Mid-character offsets round down, as before.
        let e = text.find('é').unwrap();
        assert_eq!(src.line_col(e + 1), src.line_col(e));
        // Long lines (counted through the blocks) and short ones (counted directly) agree.
        let text = format!("ab\n{}x\n{}", "é→".repeat(700), "é".repeat(40));
        let src = SourceText::new("f", text.clone());
        for (off, _) in text.char_indices() {
            let start = text[..off].rfind('\n').map_or(0, |i| i + 1);
            let line = text[..off].matches('\n').count() as u32 + 1;
            let col = text[start..off].chars().count() as u32 + 1;
            assert_eq!(src.line_col(off), (line, col), "at {off}");
        }
    }

    /// Locating a token costs the same on a 4 MB line as on a short one (issue 16: columns
    /// counted from the line start, the line end searched and the line copied for every
    /// token made a `permcheck.json` on one line quadratic: 20,000 rules in 9.3 s).
    #[test]
    fn locating_a_token_does_not_scan_its_line() {
        let rule = "\"Bash(git push zzzz:*)\", ";
        let n = 160_000;
        let one_line: String = rule.repeat(n);
        let lines: String = rule.repeat(n).replace(", ", ",\n");
        let time = |text: &str| {
            let src = SourceText::new("permcheck.json", text.to_string());
            let step = text.len() / 20_000;
            (0..3)
                .map(|_| {
                    let t = std::time::Instant::now();
                    let mut sum = 0u64;
                    for i in 0..20_000 {
                        let (span, len) = src.locate(i * step, i * step + 10);
                        sum += (span.column + len) as u64;
                    }
                    assert!(sum > 0);
                    t.elapsed()
                })
                .min()
                .unwrap()
        };
        let (long, short) = (time(&one_line), time(&lines));
        // Equal work: ×1 give or take noise. Scanning the line was ×1000 and more; the
        // margin is wide because the shared machine's load moves single runs by ×10.
        assert!(
            long.as_secs_f64() < 50.0 * short.as_secs_f64().max(1e-4),
            "one 4 MB line {long:?}, short lines {short:?}"
        );
    }

    #[test]
    fn line_col_counts_characters() {
        let src = SourceText::new("f", "é x\r\nab");
        assert_eq!(src.line_col(3), (1, 3));
        assert_eq!(src.line_col(6), (2, 1));
        assert_eq!(src.line_text(1), "é x");
        assert_eq!(src.line_text(2), "ab");
        assert_eq!(src.line_text(3), "");
    }

    #[test]
    fn whole_file_diagnostic_has_no_snippet() {
        let d = Diagnostic::error(
            crate::syntax::codes::E002,
            "cannot read `x.pol`: not found",
            Span {
                file: "x.pol".into(),
                line: 0,
                column: 0,
            },
        );
        assert_eq!(
            d.render(),
            "error[E002]: cannot read `x.pol`: not found\n --> x.pol\n"
        );
        let all = Diagnostics(vec![d]);
        assert!(all.has_errors());
        assert_eq!(all.to_json()["errors"], 1);
    }
}
