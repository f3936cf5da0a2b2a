//! Claude Code's hook protocol (hosts `claude`, `vscode`, `droid`): PreToolUse answers with
//! `hookSpecificOutput.permissionDecision`; PermissionRequest with `decision.behavior`.
//! The error row is exit 2 with R on stderr (exit 2 blocks the call in Claude Code), except
//! for PermissionRequest, which ignores exit 2: there an error is a `behavior: "deny"` answer.

use super::answer::{clip, js, json, silent, Answer, Kind, Rendered};
use super::input::Event;

pub fn render(a: &Answer, ev: Event) -> Rendered {
    match ev {
        Event::PreToolUse => {
            let d = match a.kind {
                Kind::Allow => "allow",
                Kind::Ask => "ask",
                Kind::Deny => "deny",
                Kind::Default => return silent(),
            };
            json(format!(
                r#"{{"hookSpecificOutput":{{"hookEventName":"PreToolUse","permissionDecision":"{d}","permissionDecisionReason":{}}}}}"#,
                js(&clip(&a.reason))
            ))
        }
        Event::PermissionRequest => match a.kind {
            Kind::Allow => json(
                r#"{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow"}}}"#.into(),
            ),
            Kind::Deny => json(format!(
                r#"{{"hookSpecificOutput":{{"hookEventName":"PermissionRequest","decision":{{"behavior":"deny","message":{}}}}}}}"#,
                js(&clip(&a.reason))
            )),
            // The prompt Claude Code was about to show is the ask.
            Kind::Ask | Kind::Default => silent(),
        },
    }
}

/// The error row: exit 2 with R on stderr blocks a PreToolUse call; PermissionRequest ignores
/// exit 2 (a real run left the prompt in place), so there it is an explicit deny.
pub fn error(ev: Event, reason: &str) -> Rendered {
    match ev {
        Event::PreToolUse => Rendered {
            stdout: Vec::new(),
            stderr: Some(clip(reason)),
            exit: 2,
        },
        Event::PermissionRequest => {
            let mut r = render(
                &Answer {
                    kind: Kind::Deny,
                    reason: reason.into(),
                },
                ev,
            );
            r.stderr = Some(clip(reason));
            r
        }
    }
}

/// A PreToolUse allow with `updatedInput` (a rewrite, `host::rewrite`): the whole input
/// Claude Code runs instead. Any other answer is returned as it was.
pub fn with_updated_input(r: Rendered, input: &serde_json::Value) -> Rendered {
    let Ok(text) = std::str::from_utf8(&r.stdout) else {
        return r;
    };
    let Ok(mut v) = serde_json::from_str::<serde_json::Value>(text) else {
        return r;
    };
    let Some(h) = v
        .get_mut("hookSpecificOutput")
        .and_then(|h| h.as_object_mut())
    else {
        return r;
    };
    if h.get("permissionDecision").and_then(|d| d.as_str()) != Some("allow") {
        return r;
    }
    h.insert("updatedInput".into(), input.clone());
    json(v.to_string())
}
