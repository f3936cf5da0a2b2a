//! Hosts: each agent's hook protocol (one file per protocol), the shared input model, the
//! hook runner and its fail-safe, and the exit-code protocol for plugin callers. The
//! authority model and a table per host are in `README.md` here.

pub mod after;
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
pub mod kernel;
pub mod remember;
pub mod rewrite;
pub mod session;
pub mod vibe;

use answer::{clip, Answer, Rendered};
use input::Event;

use crate::hosts::Protocol;
pub use crate::hosts::{Host, HOOK_HOSTS};

/// Each host's answer, in its protocol (the facts about a host live in `crate::hosts`).
impl Host {
    pub fn render(self, a: &Answer, ev: Event) -> Rendered {
        match self.protocol() {
            Protocol::Claude => claude::render(a, ev),
            Protocol::Copilot => copilot::render(a),
            Protocol::Gemini => gemini::render(a),
            Protocol::Cursor => cursor::render(a),
            Protocol::Codex => codex::render(a),
            Protocol::Vibe => vibe::render(a),
            Protocol::ExitCodes => exit::render(a),
        }
    }

    /// The error row of docs/contract.md#c-error-rows (unreadable input, internal error, signal, deadline).
    pub fn error(self, reason: &str) -> Rendered {
        self.error_for(Event::PreToolUse, reason)
    }

    /// The error row for an event: Claude Code ignores exit 2 for PermissionRequest (the
    /// prompt stays; a person may approve what polc could not judge), so there the error is
    /// an explicit `behavior: "deny"` answer.
    pub fn error_for(self, ev: Event, reason: &str) -> Rendered {
        match self.protocol() {
            Protocol::Claude => claude::error(ev, reason),
            Protocol::Copilot => copilot::error(reason),
            Protocol::Gemini => gemini::error(reason),
            Protocol::Cursor => cursor::error(reason),
            Protocol::Codex => codex::error(reason),
            Protocol::Vibe => vibe::error(reason),
            Protocol::ExitCodes => exit::error(reason),
        }
    }
}

/// An unknown `--host`: polc cannot know the protocol, so it writes nothing on stdout (a
/// JSON answer in the wrong shape fails the host's schema, and Claude Code then ignored the
/// exit code and ran the command), the reason on stderr, and exits 2 (a block for Claude
/// Code, Codex, Gemini, Cursor and exit-code readers).
pub fn unknown_host_error(host: &str) -> Rendered {
    let r = clip(&format!(
        "polc: unknown host `{}` (hook hosts: {}; plugin callers use `polc decide`); denied",
        host.escape_debug(),
        HOOK_HOSTS.join(", ")
    ));
    Rendered {
        stdout: Vec::new(),
        stderr: Some(r),
        exit: 2,
    }
}
