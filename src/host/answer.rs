//! What every host renders: the answer polc reached (after host authority and the
//! cannot-prompt rule), and the bytes and exit code a host module turns it into.

/// The answer to render. `Default` means "no opinion": the host's own flow decides.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Allow,
    Ask,
    Deny,
    Default,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    pub kind: Kind,
    /// R of docs/contract.md#c-host-answers: names the rule (id, source:line, text), the construct or the table
    /// problem; at most [`MAX_REASON`] bytes.
    pub reason: String,
}

/// Bytes for stdout, a line for stderr, and the exit code.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Rendered {
    pub stdout: Vec<u8>,
    pub stderr: Option<String>,
    pub exit: i32,
}

/// Reasons are clipped where every stage can reach it (the session checks too).
pub use crate::hosts::{clip, MAX_REASON};

/// A JSON string literal.
pub fn js(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| "\"\"".into())
}

/// Nothing on stdout, exit 0: the host's own flow decides.
pub fn silent() -> Rendered {
    Rendered::default()
}

/// One JSON object on stdout (with a newline), exit 0.
pub fn json(body: String) -> Rendered {
    let mut stdout = body.into_bytes();
    stdout.push(b'\n');
    Rendered {
        stdout,
        stderr: None,
        exit: 0,
    }
}

/// The text a non-prompting host gets instead of a prompt.
pub fn approval_needed(reason: &str, who: &str) -> String {
    clip(&format!(
        "approval needed: {reason} ({who} cannot ask a person here, so polc denies; a person can run the command or change the policy)"
    ))
}
