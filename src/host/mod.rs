//! Hosts: each agent's hook protocol (one file per protocol), the shared input model, the
//! hook runner and its fail-safe, and the exit-code protocol for plugin callers. The
//! authority model and a table per host are in `README.md` here.

pub mod answer;
pub mod claude;
pub mod codex;
pub mod config;
pub mod copilot;
pub mod cursor;
pub mod exit;
pub mod failsafe;
pub mod gemini;
pub mod hook;
pub mod input;
pub mod session;
pub mod vibe;

use answer::{clip, js, Answer, Rendered};
use input::Event;

/// The hosts `polc hook` speaks to (openclaw and other plugin callers use `polc decide`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Host {
    Claude,
    Vscode,
    Copilot,
    Gemini,
    Cursor,
    Codex,
    Droid,
    Vibe,
}

pub const HOOK_HOSTS: &[&str] = &[
    "claude", "vscode", "copilot", "gemini", "cursor", "codex", "droid", "vibe",
];

impl Host {
    pub fn parse(s: &str) -> Option<Host> {
        Some(match s {
            "claude" => Host::Claude,
            "vscode" => Host::Vscode,
            "copilot" => Host::Copilot,
            "gemini" => Host::Gemini,
            "cursor" => Host::Cursor,
            "codex" => Host::Codex,
            "droid" => Host::Droid,
            "vibe" => Host::Vibe,
            _ => return None,
        })
    }

    /// The host name rules are scoped by.
    pub fn name(self) -> &'static str {
        HOOK_HOSTS[self as usize]
    }

    /// How a reason names the host.
    pub fn display(self) -> &'static str {
        match self {
            Host::Claude => "Claude Code in this permission mode",
            Host::Vscode => "VS Code in this permission mode",
            Host::Copilot => "Copilot CLI",
            Host::Gemini => "Gemini CLI",
            Host::Cursor => "Cursor",
            Host::Codex => "a Codex hook",
            Host::Droid => "Droid in this permission mode",
            Host::Vibe => "a Vibe hook",
        }
    }

    /// Host-authoritative hosts own approval: `default` becomes allow (SPEC §5).
    pub fn authoritative(self) -> bool {
        exit::host_authoritative(self.name())
    }

    /// Can an `ask` reach a person? Codex and Vibe hooks cannot; Claude-shaped hosts cannot
    /// in `dontAsk` and `auto` modes.
    pub fn can_prompt(self, mode: Option<&str>) -> bool {
        match self {
            Host::Codex | Host::Vibe => false,
            _ => !matches!(mode, Some("dontAsk") | Some("auto")),
        }
    }

    pub fn render(self, a: &Answer, ev: Event) -> Rendered {
        match self {
            Host::Claude | Host::Vscode | Host::Droid => claude::render(a, ev),
            Host::Copilot => copilot::render(a),
            Host::Gemini => gemini::render(a),
            Host::Cursor => cursor::render(a),
            Host::Codex => codex::render(a),
            Host::Vibe => vibe::render(a),
        }
    }

    /// The error row of SPEC §6 (unreadable input, internal error, signal, deadline).
    pub fn error(self, reason: &str) -> Rendered {
        match self {
            Host::Claude | Host::Vscode | Host::Droid => claude::error(reason),
            Host::Copilot => copilot::error(reason),
            Host::Gemini => gemini::error(reason),
            Host::Cursor => cursor::error(reason),
            Host::Codex => codex::error(reason),
            Host::Vibe => vibe::error(reason),
        }
    }
}

/// An unknown `--host`: polc cannot know the protocol, so it writes one object that every
/// JSON protocol above reads as deny, and exits 2 (a block for exit-code readers).
pub fn unknown_host_error(host: &str) -> Rendered {
    let r = clip(&format!(
        "polc: unknown host `{}` (hook hosts: {}; plugin callers use `polc decide`); denied",
        host.escape_debug(),
        HOOK_HOSTS.join(", ")
    ));
    let m = js(&r);
    let body = format!(
        r#"{{"hookSpecificOutput":{{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":{m}}},"permissionDecision":"deny","permissionDecisionReason":{m},"decision":"deny","reason":{m},"permission":"deny","user_message":{m},"agent_message":{m}}}"#
    );
    let mut stdout = body.into_bytes();
    stdout.push(b'\n');
    Rendered {
        stdout,
        stderr: Some(r),
        exit: 2,
    }
}
