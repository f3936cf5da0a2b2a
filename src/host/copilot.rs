//! GitHub Copilot CLI (host `copilot`): whichever input dialect, the answer is top-level
//! `permissionDecision` (a Claude-style `hookSpecificOutput` is ignored there: fail-open).
//! The error row is a deny answer with exit 0.

use super::answer::{clip, js, json, silent, Answer, Kind, Rendered};

pub fn render(a: &Answer) -> Rendered {
    match a.kind {
        Kind::Allow => json(r#"{"permissionDecision":"allow"}"#.into()),
        Kind::Ask | Kind::Deny => json(format!(
            r#"{{"permissionDecision":"{}","permissionDecisionReason":{}}}"#,
            if a.kind == Kind::Ask { "ask" } else { "deny" },
            js(&clip(&a.reason))
        )),
        Kind::Default => silent(),
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
