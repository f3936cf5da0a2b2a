//! The tool vocabulary: polc's canonical tool names (what rules are kept under) and every
//! agent's names for them. A `Grep` counts as `read` whether it arrives in a hook's input
//! ([`canonical`]) or names a rule in Claude Code's settings ([`claude::canonical`]); the
//! tests below hold the two maps together. Used by the syntax readers (DSL, JSON, Claude
//! settings), the runtime (self-protection, the decision), lint and the host adapters.

/// The shell tool's canonical name. Every agent's shell tool maps to it.
pub const BASH: &str = "bash";
/// File tools: every agent's read-like and edit-like tools map to these.
pub const READ: &str = "read";
pub const EDIT: &str = "edit";
/// Web tools.
pub const WEBFETCH: &str = "webfetch";
pub const WEBSEARCH: &str = "websearch";

/// Tools whose patterns are path globs (docs/contract.md#c-paths).
pub fn is_path_tool(tool: &str) -> bool {
    tool == READ || tool == EDIT
}

/// polc's built-in non-shell tools (their rules have polc's own meaning: paths, domains).
pub fn is_builtin(tool: &str) -> bool {
    matches!(tool, READ | EDIT | WEBFETCH | WEBSEARCH)
}

/// Shell tools, as each host spells them.
pub const SHELL_TOOLS: &[&str] = &[
    "Bash",
    "bash",
    "run_shell_command",
    "runTerminalCommand",
    "run_in_terminal",
    "Execute",
    "RunCommand",
    "shell",
    "exec",
    "Shell",
    "local_shell",
    "container.exec",
    "beforeShellExecution",
];

/// PowerShell tools: polc has no PowerShell segmenter, so these are unattestable.
pub const POWERSHELL_TOOLS: &[&str] = &["powershell", "PowerShell", "pwsh"];

/// Every agent's read-like tools (Claude, Gemini, Copilot, Cursor, Codex, Droid, Vibe).
pub const READ_TOOLS: &[&str] = &[
    "Read",
    "Grep",
    "Glob",
    "LS",
    "view",
    "read_file",
    "read",
    "glob",
    "grep",
    "search_file_content",
    "list_directory",
    "read_many_files",
    "NotebookRead",
    "list_dir",
    "list",
    "file_search",
    "grep_search",
    "codebase_search",
];

/// Every agent's edit-like tools.
pub const EDIT_TOOLS: &[&str] = &[
    "Edit",
    "Write",
    "MultiEdit",
    "NotebookEdit",
    "create",
    "edit",
    "write",
    "write_file",
    "replace",
    "str_replace",
    "apply_patch",
    "Create",
    "ApplyPatch",
    "patch",
    "edit_file",
    "delete_file",
    "search_replace",
    "insert",
];

pub const WEBFETCH_TOOLS: &[&str] = &["WebFetch", "web_fetch", "fetch", "webfetch"];
pub const WEBSEARCH_TOOLS: &[&str] = &["WebSearch", "google_web_search", "web_search", "websearch"];

/// Is `name` a shell tool of some agent?
pub fn is_shell(name: &str) -> bool {
    SHELL_TOOLS.contains(&name)
}

/// Canonical name of a non-shell tool as an agent's hook input names it; a name polc has no
/// family for is kept as written (MCP tools, `Task`, …).
pub fn canonical(name: &str) -> String {
    let family = if READ_TOOLS.contains(&name) {
        READ
    } else if EDIT_TOOLS.contains(&name) {
        EDIT
    } else if WEBFETCH_TOOLS.contains(&name) {
        WEBFETCH
    } else if WEBSEARCH_TOOLS.contains(&name) {
        WEBSEARCH
    } else {
        name
    };
    family.to_string()
}

/// Canonical name of a DSL tool word (`bash`/`shell`, `read`, `edit`/`write`, `webfetch`,
/// `websearch`, `mcp__…`), or `None` if it is not one.
pub fn dsl_word(word: &str) -> Option<String> {
    let canon = match word {
        "bash" | "shell" => BASH,
        "read" => READ,
        "edit" | "write" => EDIT,
        "webfetch" => WEBFETCH,
        "websearch" => WEBSEARCH,
        w if w.starts_with("mcp__") && w.len() > 5 => return Some(w.to_string()),
        _ => return None,
    };
    Some(canon.to_string())
}

/// Claude Code's tool names in its settings' permission rules (`Bash(…)`, `Read(…)`).
pub mod claude {
    /// Claude Code's built-in file tools, whose bare rules keep their own name.
    pub const FILE_TOOLS: &[&str] = &[
        "Read",
        "Grep",
        "Glob",
        "Edit",
        "Write",
        "MultiEdit",
        "NotebookEdit",
        "NotebookRead",
    ];

    /// The tools whose path rule names a path (`Edit(./.claude/**)`): self-protection's lift
    /// reads them (`runtime::protect`).
    pub const PATH_RULE_TOOLS: &[&str] = &["Edit", "Write", "MultiEdit", "NotebookEdit", "Read"];

    /// Claude tool name in a settings rule → polc's canonical tool name.
    pub fn canonical(name: &str) -> String {
        match name {
            "Bash" => super::BASH,
            "Read" | "Grep" | "Glob" => super::READ,
            "Edit" | "Write" | "MultiEdit" | "NotebookEdit" => super::EDIT,
            "WebFetch" => super::WEBFETCH,
            "WebSearch" => super::WEBSEARCH,
            other => other,
        }
        .to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A settings rule and a hook call name a Claude tool the same way: a `Read(./.env)` deny
    /// must meet a `Grep` call (`Grep` counts as `read` in both maps).
    #[test]
    fn claude_settings_and_hook_input_agree() {
        for name in ["Bash", "Read", "Grep", "Glob", "Edit", "Write", "MultiEdit"]
            .iter()
            .chain(&["NotebookEdit", "WebFetch", "WebSearch"])
        {
            let rule = claude::canonical(name);
            let call = if is_shell(name) {
                BASH.to_string()
            } else {
                canonical(name)
            };
            assert_eq!(rule, call, "{name}");
        }
        // Every Claude file tool is read-like or edit-like in a hook call.
        for name in claude::FILE_TOOLS {
            assert!(is_path_tool(&canonical(name)), "{name}");
        }
        for name in claude::PATH_RULE_TOOLS {
            assert!(claude::FILE_TOOLS.contains(name), "{name}");
            assert!(is_path_tool(&claude::canonical(name)), "{name}");
        }
    }

    #[test]
    fn the_families_do_not_overlap() {
        let lists = [
            SHELL_TOOLS,
            POWERSHELL_TOOLS,
            READ_TOOLS,
            EDIT_TOOLS,
            WEBFETCH_TOOLS,
            WEBSEARCH_TOOLS,
        ];
        for (i, a) in lists.iter().enumerate() {
            for b in &lists[i + 1..] {
                for n in *a {
                    assert!(!b.contains(n), "{n} is in two families");
                }
            }
        }
        // The canonical names map to themselves.
        for t in [READ, EDIT, WEBFETCH, WEBSEARCH] {
            assert_eq!(canonical(t), t);
            assert_eq!(dsl_word(t).as_deref(), Some(t));
            assert!(is_builtin(t));
        }
        assert!(is_shell(BASH));
        assert_eq!(dsl_word(BASH).as_deref(), Some(BASH));
        assert_eq!(canonical("mcp__s__t"), "mcp__s__t");
        assert_eq!(dsl_word("mcp__"), None);
    }
}
