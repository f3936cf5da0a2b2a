//! Cursor (`beforeShellExecution`, `preToolUse`): `permission` plus the messages, written in
//! both spellings (`user_message`/`agent_message` and the older `userMessage`/`agentMessage`)
//! so either generation reads them. The error row is exit 2 with R on stderr.

use super::answer::{clip, js, json, silent, Answer, Kind, Rendered};

pub fn render(a: &Answer) -> Rendered {
    let p = match a.kind {
        Kind::Allow => return json(r#"{"permission":"allow"}"#.into()),
        Kind::Ask => "ask",
        Kind::Deny => "deny",
        Kind::Default => return silent(),
    };
    let m = js(&clip(&a.reason));
    json(format!(
        r#"{{"permission":"{p}","user_message":{m},"agent_message":{m},"userMessage":{m},"agentMessage":{m}}}"#
    ))
}

pub fn error(reason: &str) -> Rendered {
    Rendered {
        stdout: Vec::new(),
        stderr: Some(clip(reason)),
        exit: 2,
    }
}
