//! Every host polc knows, and everything polc knows about each one: its name, who has the
//! last word on `default` (docs/contract.md#c-authority), whether a hook's `ask` can reach a
//! person in which permission mode, which answer protocol it speaks (and so its error row),
//! where it names the project, how it runs an argv array, and whether it skips its own
//! checks on a hook's allow. The compiler (host scoping of rules, the host bit of the
//! table), the runtime, lint and the host adapters (`src/host/`) all read these facts here;
//! the adapters only render them.
//!
//! The order of [`ALL`] is the order of the table's host bits (`Host::bit`): append, never
//! reorder. `polc import --from` reads the agents of [`IMPORT_SOURCES`]; one of them
//! (OpenCode) is not in [`ALL`]: polc reads its configuration but has no adapter for it, so
//! rules, `--host` and the table do not name it.

/// A host polc knows: the eight hook hosts and `openclaw`, a plugin caller that speaks the
/// exit-code protocol of `polc decide` (the hosts of [`ALL`]), and OpenCode, whose own
/// permission configuration `polc import` reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Host {
    Claude,
    Vscode,
    Copilot,
    Gemini,
    Cursor,
    Codex,
    Droid,
    Openclaw,
    Vibe,
    /// Only an import source: never in [`ALL`], so [`Host::parse`] never returns it.
    OpenCode,
}

/// Every host rules, `--host` and the table name, in the order of the table's host bits.
pub const ALL: [Host; 9] = [
    Host::Claude,
    Host::Vscode,
    Host::Copilot,
    Host::Gemini,
    Host::Cursor,
    Host::Codex,
    Host::Droid,
    Host::Openclaw,
    Host::Vibe,
];

/// Host names under Claude authority (`default` is the host's own flow), as rules and
/// `--host` spell them.
pub const CLAUDE_AUTHORITY_HOSTS: &[&str] = &[
    "claude", "vscode", "copilot", "gemini", "cursor", "codex", "droid",
];
/// Host-authoritative hosts: the host applies its own policy after polc, so `default`
/// becomes allow.
pub const HOST_AUTHORITATIVE_HOSTS: &[&str] = &["openclaw", "vibe"];
/// The hosts `polc hook --host` speaks to (the others run `polc decide`).
pub const HOOK_HOSTS: &[&str] = &[
    "claude", "vscode", "copilot", "gemini", "cursor", "codex", "droid", "vibe",
];

/// The agents `polc import --from` reads, in the order `polc import` lists them.
pub const IMPORT_SOURCES: [Host; 8] = [
    Host::Claude,
    Host::Gemini,
    Host::Codex,
    Host::Cursor,
    Host::Droid,
    Host::OpenCode,
    Host::Vibe,
    Host::Copilot,
];

/// Is `h` a host name polc knows?
pub fn is_known_host(h: &str) -> bool {
    Host::parse(h).is_some()
}

/// Every known host name, comma-separated (for messages).
pub fn known_hosts_list() -> String {
    ALL.iter().map(|h| h.name()).collect::<Vec<_>>().join(", ")
}

/// Who decides what polc leaves at `default`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Authority {
    /// The host's own rules and mode decide `default` (polc writes nothing).
    Claude,
    /// The host applies its own exec policy after polc: `default` becomes allow.
    Host,
}

/// The answer format a host reads, and so its error row (`src/host/README.md`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol {
    /// `hookSpecificOutput` (PreToolUse, PermissionRequest): claude, vscode, droid.
    Claude,
    /// `permissionDecision` at the top level (Copilot CLI).
    Copilot,
    /// `decision`/`reason` (Gemini CLI BeforeTool).
    Gemini,
    /// `permission`/`user_message` (Cursor).
    Cursor,
    /// Claude's shape, but only deny-with-reason blocks (Codex).
    Codex,
    /// `decision`/`reason`, host-authoritative (Vibe `pre_tool`).
    Vibe,
    /// The exit codes of `polc decide` (plugin callers).
    ExitCodes,
}

/// Where a host names the project folder (docs/contract.md#c-project-root).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProjectDir {
    /// The first of these environment variables that is set to an absolute path.
    Env(&'static [&'static str]),
    /// The input's `workspace_roots[0]`, else these variables (Cursor).
    WorkspaceRootsThenEnv(&'static [&'static str]),
    /// The hook's working folder (Vibe's input names neither folder nor session).
    HookCwd,
}

/// How a host runs a shell tool's `command` given as an argv array (issue 8, class 5).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArgvRun {
    /// Executes the array as argv, no shell (Codex: its `shell`/`container.exec`/
    /// `local_shell` tools take `command: [program, args…]` and spawn it directly). What
    /// runs is what the POSIX-quoted join of the array says, and `[bash, -lc, S]` runs S.
    Exec,
    /// Not documented (every other host sends `command` as a string): the array is
    /// unattestable, and both the exec reading and the space join are decided for denies.
    Unknown,
}

impl Host {
    /// A host name as rules, `--host` and the table spell it.
    pub fn parse(s: &str) -> Option<Host> {
        ALL.iter().copied().find(|h| h.name() == s)
    }

    /// An agent `polc import --from` reads, by name.
    pub fn parse_import(s: &str) -> Option<Host> {
        IMPORT_SOURCES.iter().copied().find(|h| h.name() == s)
    }

    /// A host `polc hook` answers (one with a hook protocol).
    pub fn parse_hook(s: &str) -> Option<Host> {
        Host::parse(s).filter(|h| h.has_hook())
    }

    /// The host name rules are scoped by.
    pub fn name(self) -> &'static str {
        match self {
            Host::Claude => "claude",
            Host::Vscode => "vscode",
            Host::Copilot => "copilot",
            Host::Gemini => "gemini",
            Host::Cursor => "cursor",
            Host::Codex => "codex",
            Host::Droid => "droid",
            Host::Openclaw => "openclaw",
            Host::Vibe => "vibe",
            Host::OpenCode => "opencode",
        }
    }

    /// This host's bit in a rule's host mask (the table's format; 0 = every host).
    pub fn bit(self) -> u32 {
        1u32 << (self as u32)
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
            Host::Openclaw => "OpenClaw",
            Host::Vibe => "a Vibe hook",
            Host::OpenCode => "OpenCode",
        }
    }

    pub fn authority(self) -> Authority {
        match self {
            Host::Openclaw | Host::Vibe => Authority::Host,
            _ => Authority::Claude,
        }
    }

    /// Host-authoritative hosts own approval: `default` becomes allow (docs/contract.md#c-authority).
    pub fn authoritative(self) -> bool {
        self.authority() == Authority::Host
    }

    /// The answer format this host reads.
    pub fn protocol(self) -> Protocol {
        match self {
            Host::Claude | Host::Vscode | Host::Droid => Protocol::Claude,
            Host::Copilot => Protocol::Copilot,
            Host::Gemini => Protocol::Gemini,
            Host::Cursor => Protocol::Cursor,
            Host::Codex => Protocol::Codex,
            Host::Vibe => Protocol::Vibe,
            // OpenCode's plugins would call `polc decide` (not offered yet: see [`ALL`]).
            Host::Openclaw | Host::OpenCode => Protocol::ExitCodes,
        }
    }

    /// Does `polc hook --host` speak to this host?
    pub fn has_hook(self) -> bool {
        self.protocol() != Protocol::ExitCodes
    }

    /// The permission modes this host sends in `permission_mode`, each with whether a hook's
    /// `ask` can reach a person there (`src/host/README.md`: per-host modes). Empty: the
    /// host sends no mode.
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
            Host::Gemini | Host::Cursor | Host::Openclaw | Host::Vibe | Host::OpenCode => &[],
        }
    }

    /// Can an `ask` reach a person? Never from Codex, Droid and Vibe hooks; on the other hosts
    /// it depends on the mode: a mode listed in [`Host::modes`] says; a mode polc does not know
    /// counts as cannot-prompt (an unknown mode must never turn a deny-worthy ask into a
    /// prompt nobody sees); no mode at all is the host's normal, prompting flow. (OpenClaw
    /// reads exit code 3 as "prompt or block".)
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

    /// Where the host names the project folder.
    pub fn project_dir(self) -> ProjectDir {
        match self {
            Host::Claude
            | Host::Vscode
            | Host::Codex
            | Host::Copilot
            | Host::Openclaw
            | Host::OpenCode => ProjectDir::Env(&["CLAUDE_PROJECT_DIR"]),
            Host::Droid => ProjectDir::Env(&["FACTORY_PROJECT_DIR", "CLAUDE_PROJECT_DIR"]),
            Host::Gemini => ProjectDir::Env(&["GEMINI_PROJECT_DIR", "CLAUDE_PROJECT_DIR"]),
            Host::Cursor => ProjectDir::WorkspaceRootsThenEnv(&["CURSOR_PROJECT_DIR"]),
            // Vibe's input names no folder and no session: it runs the hook in its working
            // folder, which the agent's commands cannot move.
            Host::Vibe => ProjectDir::HookCwd,
        }
    }

    /// How this host runs an argv array. No host is known to join one with spaces; the
    /// space join is one of the readings decided for a host whose behaviour is unknown.
    pub fn argv_run(self) -> ArgvRun {
        match self {
            Host::Codex => ArgvRun::Exec,
            _ => ArgvRun::Unknown,
        }
    }

    /// An input with a `command` and no tool name is a shell call (Cursor's
    /// beforeShellExecution, Copilot's CLI, Vibe).
    pub fn bare_command_is_shell(self) -> bool {
        matches!(self, Host::Cursor | Host::Copilot | Host::Vibe)
    }

    /// Does this host skip its own permission checks when a hook answers allow? Then polc
    /// keeps them (`src/runtime/host_checks.rs`). Proven for Claude Code; where a real-agent
    /// test shows another host doing so, add it here.
    pub fn skips_own_checks_on_allow(self) -> bool {
        matches!(self, Host::Claude)
    }

    /// How the agent combines its own permission rules, and how `polc import` keeps that
    /// (the imported file's header); None for a host `polc import` does not read.
    pub fn rule_combining(self) -> Option<&'static str> {
        Some(match self {
            Host::Claude => "Claude Code: deny > ask > allow across every settings file; polc's precedence is the same.",
            Host::Gemini => "Gemini CLI: the highest-priority matching rule wins (admin > user > workspace tiers, then priority); polc keeps each rule's tier and priority as its `priority`, but deny > ask > allow decides, so an allow that outranks a deny or ask in Gemini loses here (stricter).",
            Host::Codex => "Codex: the strictest decision of every matching rule wins (forbidden > prompt > allow); polc's deny > ask > allow is the same. `match`/`not_match` examples are polc examples.",
            Host::Cursor => "Cursor CLI: a deny beats an allow; anything else asks. polc's precedence is the same.",
            Host::Droid => "Droid: commandBlocklist blocks, commandDenylist always asks, commandAllowlist runs without asking; polc reads them as deny, ask and allow.",
            Host::OpenCode => "OpenCode: the last matching pattern wins. Where a later, less strict pattern makes an exception to an earlier one, polc (deny > ask > allow) cannot say it: the earlier rule is left to OpenCode's own engine (no rule here) and the native config must stay in place.",
            Host::Vibe => "Mistral Vibe: a tool's denylist blocks, its allowlist runs without asking, its `permission` (always/ask/never) applies to the rest; polc reads them as deny, allow and allow/ask/deny.",
            Host::Copilot => "Copilot CLI: --deny-tool beats --allow-tool; polc's precedence is the same. Flags are per run: this file is what the given flags said.",
            Host::Vscode | Host::Openclaw => return None,
        })
    }
}

/// Hosts cut long output; a reason (R of docs/contract.md#c-host-answers) stays under this
/// many bytes.
pub const MAX_REASON: usize = 1000;

/// Cut `s` to at most `MAX_REASON` bytes on a character boundary, marking the cut.
pub fn clip(s: &str) -> String {
    let one_line: String = s
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    if one_line.len() <= MAX_REASON {
        return one_line;
    }
    let mut cut = MAX_REASON - 3;
    while !one_line.is_char_boundary(cut) {
        cut -= 1;
    }
    format!("{}...", &one_line[..cut])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_name_lists_are_the_enum() {
        let names: Vec<&str> = ALL.iter().map(|h| h.name()).collect();
        let by_authority: Vec<&str> = CLAUDE_AUTHORITY_HOSTS
            .iter()
            .chain(HOST_AUTHORITATIVE_HOSTS)
            .copied()
            .collect();
        // The table's host bits follow this order: it must never change.
        assert_eq!(names, by_authority);
        for h in ALL {
            assert_eq!(Host::parse(h.name()), Some(h));
            assert_eq!(
                HOST_AUTHORITATIVE_HOSTS.contains(&h.name()),
                h.authoritative()
            );
            assert_eq!(HOOK_HOSTS.contains(&h.name()), h.has_hook(), "{h:?}");
            assert_eq!(Host::parse_hook(h.name()).is_some(), h.has_hook());
        }
        let hooks: Vec<&str> = ALL
            .iter()
            .filter(|h| h.has_hook())
            .map(|h| h.name())
            .collect();
        assert_eq!(hooks, HOOK_HOSTS);
        assert_eq!(Host::parse("x"), None);
        assert_eq!(Host::parse("Claude"), None);
        assert_eq!(Host::parse_hook("openclaw"), None);
    }

    #[test]
    fn import_sources_are_the_hosts_with_a_combining_rule() {
        let every = ALL.iter().copied().chain([Host::OpenCode]);
        let mut with_rules: Vec<Host> = every.filter(|h| h.rule_combining().is_some()).collect();
        let mut sources = IMPORT_SOURCES.to_vec();
        with_rules.sort_by_key(|h| h.name());
        sources.sort_by_key(|h| h.name());
        assert_eq!(with_rules, sources);
        for h in IMPORT_SOURCES {
            assert_eq!(Host::parse_import(h.name()), Some(h));
        }
        // OpenCode is only an import source: rules and `--host` do not name it.
        assert!(!ALL.contains(&Host::OpenCode));
        assert_eq!(Host::parse("opencode"), None);
        assert!(!is_known_host("opencode"));
        assert_eq!(Host::parse_import("vscode"), None);
        assert_eq!(Host::parse_import("openclaw"), None);
    }

    #[test]
    fn host_bits_are_stable() {
        // The table stores these bits: a change needs a format version bump.
        let bits: Vec<u32> = ALL.iter().map(|h| h.bit()).collect();
        assert_eq!(bits, [1, 2, 4, 8, 16, 32, 64, 128, 256]);
    }

    #[test]
    fn an_unknown_mode_cannot_prompt() {
        for h in ALL {
            assert!(!h.can_prompt(Some("no-such-mode")), "{h:?}");
        }
        assert!(Host::Claude.can_prompt(None));
        assert!(!Host::Claude.can_prompt(Some("dontAsk")));
        assert!(!Host::Codex.can_prompt(None));
        assert!(!Host::Droid.can_prompt(Some("off")));
    }
}
