//! GitHub Actions workflow commands (`::error file=F,line=L,col=C,title=T::message`) for
//! `polc build`, `polc test` and `polc lint` findings, so a policy change shows each
//! finding on its line in the pull request. Printed on stdout, where the runner reads them.

use crate::syntax::diag::{Diagnostic, Diagnostics, Severity};

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

pub fn diagnostic(tool: &str, d: &Diagnostic) -> String {
    let level = match d.severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Note => "notice",
    };
    let msg = match &d.help {
        Some(h) => format!("{}\n{h}", d.message),
        None => d.message.clone(),
    };
    line(
        level,
        &d.span.file,
        d.span.line,
        d.span.column,
        &format!("polc {tool} {}", d.code),
        &msg,
    )
}

pub fn print_all(tool: &str, ds: &Diagnostics) {
    for d in &ds.0 {
        println!("{}", diagnostic(tool, d));
    }
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
