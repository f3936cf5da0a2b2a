//! Findings of `polc build`, `polc test` and `polc lint` for CI: GitHub Actions workflow
//! commands (`::error file=F,line=L,col=C,title=T::message`, printed as found) and SARIF
//! 2.1.0 (one document when the command ends), so a policy change shows each finding on its
//! line in the pull request or in code scanning. Both on stdout.

use super::Report;
use crate::syntax::diag::{Diagnostic, Diagnostics, Severity};
use std::cell::RefCell;

/// One finding, whatever its origin (a diagnostic, a failed example, `build --check`).
#[derive(Clone, Debug)]
pub struct Finding {
    pub severity: Severity,
    pub file: String,
    pub line: u32,
    pub col: u32,
    /// The code (`E021`, `L003`) or a name (`--check`).
    pub rule: String,
    pub message: String,
}

impl Finding {
    pub fn of(d: &Diagnostic) -> Finding {
        Finding {
            severity: d.severity,
            file: d.span.file.clone(),
            line: d.span.line,
            col: d.span.column,
            rule: d.code.to_string(),
            message: match &d.help {
                Some(h) => format!("{}\n{h}", d.message),
                None => d.message.clone(),
            },
        }
    }
}

/// Where findings go for `--format github|sarif` (None for text and json). GitHub lines are
/// printed as they come; SARIF findings are collected and the document printed when the
/// sink is dropped, so every return path of a command prints it.
pub struct Sink {
    pub tool: &'static str,
    sarif: bool,
    found: RefCell<Vec<Finding>>,
}

impl Sink {
    pub fn new(tool: &'static str, format: Report) -> Option<Sink> {
        match format {
            Report::Github | Report::Sarif => Some(Sink {
                tool,
                sarif: format == Report::Sarif,
                found: RefCell::new(Vec::new()),
            }),
            _ => None,
        }
    }

    pub fn diags(&self, ds: &Diagnostics) {
        for d in &ds.0 {
            self.finding(Finding::of(d));
        }
    }

    pub fn finding(&self, f: Finding) {
        if self.sarif {
            self.found.borrow_mut().push(f);
        } else {
            let level = match f.severity {
                Severity::Error => "error",
                Severity::Warning => "warning",
                Severity::Note => "notice",
            };
            println!(
                "{}",
                line(
                    level,
                    &f.file,
                    f.line,
                    f.col,
                    &format!("polc {} {}", self.tool, f.rule),
                    &f.message
                )
            );
        }
    }
}

impl Drop for Sink {
    fn drop(&mut self) {
        if self.sarif {
            let doc = sarif(self.tool, &self.found.borrow());
            println!("{}", serde_json::to_string_pretty(&doc).unwrap_or_default());
        }
    }
}

/// A file name as a SARIF relative URI reference: `/` separators, reserved and non-ASCII
/// bytes percent-encoded.
fn uri(path: &str) -> String {
    let mut out = String::new();
    for b in path.replace('\\', "/").bytes() {
        if b.is_ascii_alphanumeric() || b"-._~/".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// A SARIF 2.1.0 log with one run of polc.
pub fn sarif(tool: &str, found: &[Finding]) -> serde_json::Value {
    let mut rules: Vec<&str> = found.iter().map(|f| f.rule.as_str()).collect();
    rules.sort_unstable();
    rules.dedup();
    let results: Vec<serde_json::Value> = found
        .iter()
        .map(|f| {
            let mut loc = serde_json::json!({"artifactLocation": {"uri": uri(&f.file)}});
            if f.line > 0 {
                let mut region = serde_json::json!({"startLine": f.line});
                if f.col > 0 {
                    region["startColumn"] = f.col.into();
                }
                loc["region"] = region;
            }
            let mut r = serde_json::json!({
                "ruleId": f.rule,
                "ruleIndex": rules.iter().position(|x| *x == f.rule).unwrap_or(0),
                "level": match f.severity {
                    Severity::Error => "error",
                    Severity::Warning => "warning",
                    Severity::Note => "note",
                },
                "message": {"text": f.message},
            });
            if !f.file.is_empty() {
                r["locations"] = serde_json::json!([{"physicalLocation": loc}]);
            }
            r
        })
        .collect();
    serde_json::json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "polc",
                "semanticVersion": env!("CARGO_PKG_VERSION"),
                "rules": rules.iter().map(|r| serde_json::json!({
                    "id": r,
                    "shortDescription": {"text": format!("polc {tool} {r}")},
                })).collect::<Vec<_>>(),
            }},
            "results": results,
            "columnKind": "unicodeCodePoints",
        }],
    })
}

/// Escape a message (GitHub's rules: `%`, CR and LF), so a finding cannot end its own line
/// early or inject a second command.
fn data(s: &str) -> String {
    s.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// Escape a property value: also `:` and `,`, which separate properties.
fn prop(s: &str) -> String {
    data(s).replace(':', "%3A").replace(',', "%2C")
}

/// One annotation line (no trailing newline).
pub fn line(level: &str, file: &str, line: u32, col: u32, title: &str, message: &str) -> String {
    let mut loc = String::new();
    if !file.is_empty() {
        loc.push_str(&format!(" file={}", prop(file)));
        if line > 0 {
            loc.push_str(&format!(",line={line}"));
            if col > 0 {
                loc.push_str(&format!(",col={col}"));
            }
        }
        loc.push(',');
    } else {
        loc.push(' ');
    }
    format!("::{level}{loc}title={}::{}", prop(title), data(message))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn annotations_escape_what_would_break_the_line() {
        let l = line(
            "error",
            "policies/a,b:c.pol",
            3,
            5,
            "polc test E021",
            "50% done\nnext::x",
        );
        assert_eq!(
            l,
            "::error file=policies/a%2Cb%3Ac.pol,line=3,col=5,title=polc test E021::50%25 done%0Anext::x"
        );
        assert!(!l.contains('\n'));
        assert_eq!(line("warning", "", 0, 0, "t", "m"), "::warning title=t::m");
        assert_eq!(
            line("notice", "f", 2, 0, "t", "m"),
            "::notice file=f,line=2,title=t::m"
        );
    }
}
