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

use answer::{clip, Answer, Rendered};
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
            Host::Droid => "Droid (it runs what a hook asks about)",
            Host::Vibe => "a Vibe hook",
        }
    }

    /// Host-authoritative hosts own approval: `default` becomes allow (docs/contract.md#c-authority).
    pub fn authoritative(self) -> bool {
        exit::host_authoritative(self.name())
    }

    /// The permission modes this host sends in `permission_mode`, each with whether a hook's
    /// `ask` can reach a person there, and where that fact comes from (README: per-host
    /// modes). Empty: the host sends no mode.
    pub fn modes(self) -> &'static [(&'static str, bool)] {
        match self {
            // Claude Code 2.1.112's mode list; `dontAsk` denies what is not pre-approved and
            // `auto` hands prompts to a classifier: no person sees an ask there.
            // Copilot's snake_case dialect is Claude's shape: the same names, unobserved.
            Host::Claude | Host::Vscode | Host::Copilot => &[
                ("default", true),
                ("acceptEdits", true),
                ("plan", true),
                ("bypassPermissions", true),
                ("dontAsk", false),
                ("auto", false),
            ],
            // Droid's autonomy levels as its 0.215 binary names them (`off` is the TUI's normal
            // level; `droid exec` sends `auto-low` without `--auto`). A hook's raw `ask` ran the
            // command at every `droid exec` level (tests/agents), so no level prompts.
            Host::Droid => &[
                ("off", false),
                ("spec", false),
                ("auto-low", false),
                ("auto-medium", false),
                ("auto-high", false),
            ],
            // `codex exec` 0.171 sends `bypassPermissions` under every sandbox and approval
            // setting (tests/agents); the other names are Claude's, which Codex's hooks mimic.
            Host::Codex => &[
                ("default", false),
                ("acceptEdits", false),
                ("plan", false),
                ("dontAsk", false),
                ("bypassPermissions", false),
            ],
            Host::Gemini | Host::Cursor | Host::Vibe => &[],
        }
    }

    /// Can an `ask` reach a person? Never from Codex, Droid and Vibe hooks; on the other hosts
    /// it depends on the mode: a mode listed in [`Host::modes`] says; a mode polc does not know
    /// counts as cannot-prompt (an unknown mode must never turn a deny-worthy ask into a
    /// prompt nobody sees); no mode at all is the host's normal, prompting flow.
    pub fn can_prompt(self, mode: Option<&str>) -> bool {
        if matches!(self, Host::Codex | Host::Droid | Host::Vibe) {
            return false;
        }
        match mode {
            None => true,
            Some(m) => self
                .modes()
                .iter()
                .find(|(name, _)| *name == m)
                .is_some_and(|(_, prompts)| *prompts),
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

    /// The error row of docs/contract.md#c-error-rows (unreadable input, internal error, signal, deadline).
    pub fn error(self, reason: &str) -> Rendered {
        self.error_for(Event::PreToolUse, reason)
    }

    /// The error row for an event: Claude Code ignores exit 2 for PermissionRequest (the
    /// prompt stays; a person may approve what polc could not judge), so there the error is
    /// an explicit `behavior: "deny"` answer.
    pub fn error_for(self, ev: Event, reason: &str) -> Rendered {
        match self {
            Host::Claude | Host::Vscode | Host::Droid => claude::error(ev, reason),
            Host::Copilot => copilot::error(reason),
            Host::Gemini => gemini::error(reason),
            Host::Cursor => cursor::error(reason),
            Host::Codex => codex::error(reason),
            Host::Vibe => vibe::error(reason),
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
