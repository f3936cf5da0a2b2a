//! OpenAI Codex CLI hooks: Claude-shaped, but strict and fail-open — `allow` and `ask` mark
//! the hook as failed and the command runs. So only deny-with-reason is ever written; an ask
//! arrives here already turned into a deny (Codex cannot prompt from a hook), and allow or
//! default is no output. The error row is the deny answer (exit 0) plus R on stderr.

use super::answer::{clip, js, json, silent, Answer, Kind, Rendered};

pub fn render(a: &Answer) -> Rendered {
    match a.kind {
        // Ask is converted upstream; render it as deny anyway rather than fail open.
        Kind::Deny | Kind::Ask => json(format!(
            r#"{{"hookSpecificOutput":{{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":{}}}}}"#,
            js(&clip(&a.reason))
        )),
        Kind::Allow | Kind::Default => silent(),
    }
}

pub fn error(reason: &str) -> Rendered {
    let mut r = render(&Answer {
        kind: Kind::Deny,
        reason: reason.into(),
    });
    r.stderr = Some(clip(reason));
    r
}
