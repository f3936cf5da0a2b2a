//! The tool vocabulary: polc's canonical tool names (what rules are kept under) and every
//! agent's names for them. The family lists below ([`SHELL_TOOLS`], [`READ_TOOLS`], …) are
//! the one map from an agent's tool name to polc's: a hook's input goes through it
//! ([`canonical`]), and so does a Claude Code settings rule naming one of Claude's own tools
//! ([`claude::canonical`]): a `Grep` or `NotebookRead` counts as `read` in both. The
//! importer's per-agent shell lists ([`gemini`], [`vibe`]) are parts of [`SHELL_TOOLS`].
//! The tests below hold every map together. Used by the syntax readers (DSL, JSON, Claude
//! settings), the importer, the runtime (self-protection, the decision), lint and the host
//! adapters.

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
    // Gemini CLI's other name for its shell tool (its rules accept both).
    "ShellTool",
    // Mistral Vibe's Git Bash shell (Windows).
    "git_bash",
    // VS Code's and other agents' terminal tools (red team, session 6).
    "runInTerminal",
    "copilot_runInTerminal",
    "run_terminal_cmd",
    "execute_command",
    "execute_bash",
    "run_command",
    // Codex's current shell tools (`exec_command {"cmd"}`, `shell_command {"command"}`):
    // decided as shell commands and session steps like its legacy `shell` (red team,
    // session 8: a read of a secret through them armed no exfiltration sequence).
    "exec_command",
    "shell_command",
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
    // Cursor's `Delete` (a file or a folder), and other agents' spellings.
    "Delete",
    "DeleteFile",
    "remove_file",
    "search_replace",
    "insert",
];

/// Factory Droid's web tool is `FetchUrl` (red team, session 7: its calls met no webfetch
/// rule and no exfiltration step).
pub const WEBFETCH_TOOLS: &[&str] = &[
    "WebFetch",
    "web_fetch",
    "fetch",
    "webfetch",
    "FetchUrl",
    "fetch_url",
    "FetchURL",
    "url_fetch",
    // VS Code's web tools (red team, session 8: after a secret's read they were not network
    // steps): `fetch_webpage {"urls": […]}` and its internal id, `open_simple_browser {"url"}`.
    "fetch_webpage",
    "vscode_fetchWebPage_internal",
    "open_simple_browser",
];
pub const WEBSEARCH_TOOLS: &[&str] = &["WebSearch", "google_web_search", "web_search", "websearch"];

/// Tools that type text into a shell or a task runner without being a shell tool (their
/// text is decided as a command by the hook's input mapping): Copilot CLI's `write_bash`,
/// Codex's `write_stdin`, VS Code's `create_and_run_task` and `run_vscode_command`.
pub const TYPED_SHELL_TOOLS: &[&str] = &[
    "write_bash",
    "write_powershell",
    "write_stdin",
    "create_and_run_task",
    "run_vscode_command",
];

/// A tool name's spelling-free key: ASCII letters and digits, lowercased (`createAndRunTask`,
/// `create_and_run_task`, `Create-And-Run-Task` are one key), after a `copilot_`/`vscode_`
/// prefix (VS Code's internal ids).
fn spelling_key(name: &str) -> String {
    let lower = name.to_ascii_lowercase();
    let rest = ["copilot_", "vscode_"]
        .iter()
        .find_map(|p| lower.strip_prefix(p))
        .unwrap_or(&lower);
    rest.chars().filter(char::is_ascii_alphanumeric).collect()
}

/// The name polc knows for a tool an agent spells its own way: a host's tool name is read
/// whatever its case and word separators (red team, session 8: VS Code names its tools
/// `createAndRunTask`, `runVscodeCommand`, the forms `runInTerminal` uses, and polc knew
/// only `create_and_run_task`, `run_vscode_command`: a deny never met them). A name polc
/// lists is returned as is; an MCP tool (`mcp__…`, Gemini's `mcp_…`) is never respelled;
/// a name no listed one matches is kept as written.
pub fn known_spelling(name: &str) -> &str {
    let lists: [&[&'static str]; 7] = [
        SHELL_TOOLS,
        POWERSHELL_TOOLS,
        TYPED_SHELL_TOOLS,
        READ_TOOLS,
        EDIT_TOOLS,
        WEBFETCH_TOOLS,
        WEBSEARCH_TOOLS,
    ];
    if name.starts_with("mcp_") || lists.iter().any(|l| l.contains(&name)) {
        return name;
    }
    let key = spelling_key(name);
    if key.is_empty() {
        return name;
    }
    lists
        .iter()
        .flat_map(|l| l.iter())
        .find(|n| spelling_key(n) == key)
        .copied()
        .unwrap_or(name)
}

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

/// The family of an agent's tool name: [`BASH`] for a shell tool, else [`canonical`].
pub fn family(name: &str) -> String {
    if is_shell(name) {
        BASH.to_string()
    } else {
        canonical(name)
    }
}

/// Claude Code's tool names in its settings' permission rules (`Bash(…)`, `Read(…)`).
pub mod claude {
    /// Claude Code's built-in tools that belong to one of polc's families; a settings rule
    /// naming one is kept under that family ([`canonical`]).
    pub const TOOLS: &[&str] = &[
        "Bash",
        "Read",
        "Grep",
        "Glob",
        "LS",
        "NotebookRead",
        "Edit",
        "Write",
        "MultiEdit",
        "NotebookEdit",
        "WebFetch",
        "WebSearch",
    ];

    /// Claude Code's built-in file tools, whose bare rules keep their own name (a bare
    /// `Glob` allow does not allow `Grep`).
    pub const FILE_TOOLS: &[&str] = &[
        "Read",
        "Grep",
        "Glob",
        "LS",
        "Edit",
        "Write",
        "MultiEdit",
        "NotebookEdit",
        "NotebookRead",
    ];

    /// The tools whose path rule names a path (`Edit(./.claude/**)`): self-protection's lift
    /// reads them (`runtime::protect`).
    pub const PATH_RULE_TOOLS: &[&str] = &["Edit", "Write", "MultiEdit", "NotebookEdit", "Read"];

    /// Claude tool name in a settings rule → polc's canonical tool name: one of Claude's
    /// own tools ([`TOOLS`]) through the one map ([`super::family`]); any other name (`Task`,
    /// `mcp__…`, another agent's tool) as written.
    pub fn canonical(name: &str) -> String {
        if TOOLS.contains(&name) {
            super::family(name)
        } else {
            name.to_string()
        }
    }
}

/// Gemini CLI's tool names, as its settings and policies name them.
pub mod gemini {
    /// Its shell tool (`run_shell_command`, also accepted as `ShellTool`).
    pub const SHELL_TOOLS: &[&str] = &["run_shell_command", "ShellTool"];
}

/// Mistral Vibe's tool names, as its `config.toml` names them.
pub mod vibe {
    /// Its shell tools (`[tools.bash]`, `[tools.git_bash]`).
    pub const SHELL_TOOLS: &[&str] = &["bash", "git_bash"];
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A settings rule and a hook call name a Claude tool the same way: a `Read(./.env)` deny
    /// must meet a `Grep` call (`Grep` counts as `read` in both maps), and a
    /// `NotebookRead(./.env)` deny a `Read` call.
    #[test]
    fn claude_settings_and_hook_input_agree() {
        for name in claude::TOOLS {
            let rule = claude::canonical(name);
            assert_eq!(rule, family(name), "{name}");
            // Each of Claude's own tools is in a family: none is kept under its own name.
            assert_ne!(&rule, name, "{name}");
        }
        assert_eq!(claude::canonical("NotebookRead"), READ);
        assert_eq!(claude::canonical("LS"), READ);
        // Other agents' names are not Claude's: a settings rule keeps them as written (a
        // bare `Create` allow must not become an allow of every edit).
        for name in [
            "Create",
            "ApplyPatch",
            "view",
            "Execute",
            "Task",
            "mcp__s__t",
        ] {
            assert_eq!(claude::canonical(name), name);
        }
        // Every Claude file tool is read-like or edit-like in a hook call.
        for name in claude::FILE_TOOLS {
            assert!(is_path_tool(&canonical(name)), "{name}");
        }
        for name in claude::PATH_RULE_TOOLS {
            assert!(claude::FILE_TOOLS.contains(name), "{name}");
            assert!(is_path_tool(&claude::canonical(name)), "{name}");
        }
        // The file tools are exactly Claude's tools of the read and edit families.
        let files: Vec<&str> = claude::TOOLS
            .iter()
            .copied()
            .filter(|n| is_path_tool(&family(n)))
            .collect();
        let mut want = claude::FILE_TOOLS.to_vec();
        let mut got = files.clone();
        want.sort_unstable();
        got.sort_unstable();
        assert_eq!(got, want);
    }

    /// Every agent's shell tool the importer knows is a shell tool in a hook's input too: a
    /// deny imported from Vibe's `[tools.git_bash]` must meet a `git_bash` call.
    #[test]
    fn the_importers_shell_tools_are_shell_tools() {
        for name in gemini::SHELL_TOOLS.iter().chain(vibe::SHELL_TOOLS) {
            assert!(is_shell(name), "{name}");
            assert_eq!(family(name), BASH);
        }
    }

    /// Every spelling of a listed name finds one family: no two listed names of different
    /// families share a key (a camelCase shell tool must not become a read).
    #[test]
    fn spellings_map_to_one_family() {
        let lists = [
            SHELL_TOOLS,
            POWERSHELL_TOOLS,
            TYPED_SHELL_TOOLS,
            READ_TOOLS,
            EDIT_TOOLS,
            WEBFETCH_TOOLS,
            WEBSEARCH_TOOLS,
        ];
        for (i, a) in lists.iter().enumerate() {
            for b in &lists[i + 1..] {
                for n in *a {
                    for m in *b {
                        assert_ne!(spelling_key(n), spelling_key(m), "{n} / {m}");
                    }
                }
            }
        }
        for (spelt, want) in [
            ("createAndRunTask", "create_and_run_task"),
            ("CreateAndRunTask", "create_and_run_task"),
            ("copilot_createAndRunTask", "create_and_run_task"),
            ("runVscodeCommand", "run_vscode_command"),
            ("runVSCodeCommand", "run_vscode_command"),
            ("writeBash", "write_bash"),
            ("writeStdin", "write_stdin"),
            ("runShellCommand", "run_shell_command"),
            ("readFile", "read_file"),
            ("editFile", "edit_file"),
            ("webFetch", "WebFetch"),
            ("Bash", "Bash"),
            ("mcp_github_x", "mcp_github_x"),
            ("mcp__ide__executeCode", "mcp__ide__executeCode"),
            ("Task", "Task"),
        ] {
            let got = known_spelling(spelt);
            assert_eq!(family(got), family(want), "{spelt}");
            assert_eq!(spelling_key(got), spelling_key(want), "{spelt}");
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
