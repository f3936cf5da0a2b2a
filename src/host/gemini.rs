//! Gemini CLI `BeforeTool`: top-level `decision` and `reason`. The error row is exit 2 with
//! R on stderr *and* the deny answer on stdout (either one blocks).

use super::answer::{clip, js, json, silent, Answer, Kind, Rendered};

pub fn render(a: &Answer) -> Rendered {
    match a.kind {
        Kind::Allow => json(r#"{"decision":"allow"}"#.into()),
        Kind::Ask | Kind::Deny => json(format!(
            r#"{{"decision":"{}","reason":{}}}"#,
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
    r.exit = 2;
    r
}
