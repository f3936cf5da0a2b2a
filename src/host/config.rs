//! `polc hook --print-config --host H`: the snippet that wires polc into an agent's hook
//! settings, with the absolute path of this polc. Printed on stdout; where it goes, on
//! stderr.

use super::Host;

/// (file to merge it into, JSON snippet) for `host`, running `exe`; None for a host
/// without a hook (OpenClaw runs `polc decide` from a plugin). Claude Code also gets
/// `PostToolUse`: a post-tool event for a call polc asked about is how a person's approval
/// resets the session's denial counters (src/session/README.md); the other hosts' asks
/// either never reach a person or their post-tool events name no call id.
pub fn snippet(host: Host, exe: &str) -> Option<(&'static str, String)> {
    let cmd = |extra: &str| {
        let c = format!("{} hook --host {}{extra}", shell_quote(exe), host.name());
        serde_json::to_string(&c).unwrap_or_default()
    };
    Some(match host {
        Host::Claude => (
            ".claude/settings.json (or ~/.claude/settings.json)",
            format!(
                r#"{{"hooks":{{"PreToolUse":[{{"matcher":"*","hooks":[{{"type":"command","command":{}}}]}}],"PermissionRequest":[{{"matcher":"*","hooks":[{{"type":"command","command":{}}}]}}],"PostToolUse":[{{"matcher":"*","hooks":[{{"type":"command","command":{}}}]}}]}}}}"#,
                cmd(""),
                cmd(" --event permission-request"),
                cmd("")
            ),
        ),
        Host::Vscode => (
            ".github/hooks/polc.json (VS Code agent hooks, Claude-shaped)",
            format!(
                r#"{{"hooks":{{"PreToolUse":[{{"type":"command","command":{}}}]}}}}"#,
                cmd("")
            ),
        ),
        Host::Copilot => (
            ".github/hooks/polc.json (Copilot CLI)",
            format!(
                r#"{{"version":1,"hooks":{{"preToolUse":[{{"type":"command","bash":{},"timeoutSec":10}}]}}}}"#,
                cmd("")
            ),
        ),
        Host::Gemini => (
            ".gemini/settings.json (or ~/.gemini/settings.json)",
            format!(
                r#"{{"hooks":{{"BeforeTool":[{{"matcher":".*","hooks":[{{"type":"command","command":{},"timeout":10000}}]}}]}}}}"#,
                cmd("")
            ),
        ),
        Host::Cursor => (
            ".cursor/hooks.json (or ~/.cursor/hooks.json)",
            format!(
                r#"{{"version":1,"hooks":{{"beforeShellExecution":[{{"command":{}}}],"preToolUse":[{{"command":{}}}]}}}}"#,
                cmd(""),
                cmd("")
            ),
        ),
        Host::Codex => (
            "~/.codex/hooks.json",
            format!(
                r#"{{"hooks":{{"PreToolUse":[{{"matcher":"*","hooks":[{{"type":"command","command":{}}}]}}]}}}}"#,
                cmd("")
            ),
        ),
        Host::Droid => (
            "~/.factory/settings.json (Droid hooks, Claude format)",
            format!(
                r#"{{"hooks":{{"PreToolUse":[{{"matcher":"*","hooks":[{{"type":"command","command":{}}}]}}]}}}}"#,
                cmd("")
            ),
        ),
        Host::Openclaw | Host::OpenCode => return None,
        Host::Vibe => (
            "Vibe's hook configuration (event pre_tool)",
            format!(
                r#"{{"hooks":{{"pre_tool":[{{"type":"command","command":{}}}]}}}}"#,
                cmd("")
            ),
        ),
    })
}

/// Quote for a POSIX shell when needed.
pub fn shell_quote(s: &str) -> String {
    if !s.is_empty()
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"/._-+:@%".contains(&b))
    {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', r"'\''"))
    }
}
