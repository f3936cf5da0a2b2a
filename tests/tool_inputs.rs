//! Issue 8, class 7 through the real binary: every path-bearing field of every agent's
//! tools is read (arrays, include globs, notebook and folder fields, patches), each path is
//! decided (the most restrictive wins), a path tool whose path polc cannot read is never
//! allowed, and MCP and other tools' path fields meet the deny/ask path rules.

mod common;
use common::Project;
use serde_json::{json, Value};

const POLICY: &str = r#"
deny read glob "./.env" { id no-env }
deny read glob "~/.ssh" { id no-ssh }
allow read glob "./src/**" { id read-src }
allow read glob "./src" { id read-src-folder }
allow edit glob "./src/**" { id edit-src }
deny edit glob "./Cargo.lock" { id lock }
allow mcp__docs__* { id docs-mcp }
"#;

fn setup() -> Project {
    let p = Project::new();
    p.write("policies/main.pol", POLICY);
    p.write(".env", "SECRET=1");
    p.write("Cargo.lock", "");
    p.write("README.md", "");
    p.write("src/main.rs", "fn main() {}");
    p.build_trusted();
    p
}

/// One tool call of `host`'s shape.
fn input(host: &str, root: &std::path::Path, tool: &str, ti: Value) -> Value {
    match host {
        "copilot" => json!({"sessionId": "s1", "timestamp": 1, "cwd": root,
            "toolName": tool, "toolArgs": ti}),
        "gemini" => json!({"session_id": "s1", "cwd": root,
            "hook_event_name": "BeforeTool", "tool_name": tool, "tool_input": ti}),
        "cursor" => json!({"hook_event_name": "preToolUse", "conversation_id": "c",
            "workspace_roots": [root], "tool_name": tool, "tool_input": ti, "cwd": root}),
        "vibe" => json!({"tool_name": tool, "tool_input": ti, "hook_event_name": "pre_tool"}),
        _ => json!({"session_id": "s1", "cwd": root, "permission_mode": "default",
            "hook_event_name": "PreToolUse", "tool_name": tool, "tool_input": ti}),
    }
}

/// deny / ask / allow / none; "approval needed" denies (hosts that cannot prompt) are ask.
fn verdict(p: &Project, host: &str, tool: &str, ti: Value) -> String {
    let root = p.dir.path().canonicalize().unwrap();
    common::host_verdict(p, host, &input(host, &root, tool, ti))
}

#[test]
fn the_issue_examples() {
    let p = setup();
    assert_eq!(
        verdict(&p, "gemini", "read_many_files", json!({"paths": [".env"]})),
        "deny"
    );
    assert_eq!(verdict(&p, "claude", "Read", json!({})), "ask");
}

/// (host, tool, input, expected) for every agent's path-bearing fields.
#[test]
fn every_path_field_of_every_agent() {
    let p = setup();
    let root = p.dir.path().canonicalize().unwrap();
    let abs = |r: &str| root.join(r).to_string_lossy().into_owned();
    let home_ssh = root.join("home/.ssh/id_x").to_string_lossy().into_owned();
    let cases: Vec<(&str, &str, Value, &str)> = vec![
        // Gemini
        (
            "gemini",
            "read_many_files",
            json!({"paths": ["src/main.rs", ".env"]}),
            "deny",
        ),
        (
            "gemini",
            "read_many_files",
            json!({"paths": ["src", ".env"], "exclude": [".env"]}),
            "deny",
        ),
        (
            "gemini",
            "read_many_files",
            json!({"paths": ["**/.env"]}),
            "ask",
        ),
        (
            "gemini",
            "read_many_files",
            json!({"paths": ["{src,..}/.env"]}),
            "ask",
        ),
        (
            "gemini",
            "read_many_files",
            json!({"include": [".env"]}),
            "ask",
        ),
        (
            "gemini",
            "read_many_files",
            json!({"paths": ["src/main.rs", 3]}),
            "ask",
        ),
        (
            "gemini",
            "read_many_files",
            json!({"paths": ".env"}),
            "deny",
        ),
        (
            "gemini",
            "read_many_files",
            json!({"paths": ["src/main.rs", "README.md"]}),
            "none",
        ),
        (
            "gemini",
            "read_many_files",
            json!({"paths": ["src/main.rs"]}),
            "allow",
        ),
        (
            "gemini",
            "read_many_files",
            json!({"paths": ["src/**/*.rs"]}),
            "allow",
        ),
        (
            "gemini",
            "read_file",
            json!({"absolute_path": abs(".env")}),
            "deny",
        ),
        (
            "gemini",
            "read_file",
            json!({"file_path": abs(".env")}),
            "deny",
        ),
        (
            "gemini",
            "list_directory",
            json!({"dir_path": abs(".env")}),
            "deny",
        ),
        (
            "gemini",
            "search_file_content",
            json!({"pattern": "x", "dir_path": abs(".env")}),
            "deny",
        ),
        ("gemini", "glob", json!({"pattern": "~/.ssh/*"}), "ask"),
        (
            "gemini",
            "write_file",
            json!({"file_path": abs("Cargo.lock"), "content": ""}),
            "deny",
        ),
        // Claude (also vscode, droid, codex)
        ("claude", "Read", json!({"file_path": 7}), "ask"),
        ("claude", "Read", json!({"file_path": ""}), "ask"),
        (
            "claude",
            "Read",
            json!({"file_path": abs("src/main.rs")}),
            "allow",
        ),
        (
            "claude",
            "NotebookEdit",
            json!({"notebook_path": abs(".env"), "new_source": "x"}),
            "deny",
        ),
        (
            "claude",
            "NotebookRead",
            json!({"notebook_path": abs(".env")}),
            "deny",
        ),
        (
            "claude",
            "Grep",
            json!({"pattern": "x", "path": abs(".env")}),
            "deny",
        ),
        (
            "claude",
            "Grep",
            json!({"pattern": "TODO", "path": abs("src")}),
            "allow",
        ),
        ("claude", "Glob", json!({"pattern": &home_ssh}), "ask"),
        (
            "claude",
            "Glob",
            json!({"pattern": "../*", "path": abs("src")}),
            "ask",
        ),
        (
            "claude",
            "Glob",
            json!({"pattern": "**/*.rs", "path": abs("src")}),
            "allow",
        ),
        (
            "claude",
            "Edit",
            json!({"old_string": "a", "new_string": "b"}),
            "ask",
        ),
        (
            "droid",
            "LS",
            json!({"directory_path": abs(".env")}),
            "deny",
        ),
        (
            "droid",
            "Create",
            json!({"file_path": abs(".env"), "content": "x"}),
            "deny",
        ),
        (
            "codex",
            "apply_patch",
            json!({"command": "*** Begin Patch\n*** Update File: src/main.rs\n*** Move to: Cargo.lock\n*** End Patch"}),
            "deny",
        ),
        (
            "codex",
            "apply_patch",
            json!({"command": "*** Begin Patch\n*** Add File: .env\n+X=1\n*** End Patch"}),
            "deny",
        ),
        ("codex", "apply_patch", json!({"command": "garbage"}), "ask"),
        // Copilot CLI
        ("copilot", "view", json!({"path": abs(".env")}), "deny"),
        (
            "copilot",
            "create",
            json!({"path": abs(".env"), "file_text": "x"}),
            "deny",
        ),
        (
            "copilot",
            "str_replace",
            json!({"path": abs("Cargo.lock")}),
            "deny",
        ),
        (
            "copilot",
            "view",
            json!({"path": abs("src/main.rs")}),
            "allow",
        ),
        // Cursor
        (
            "cursor",
            "read_file",
            json!({"target_file": ".env"}),
            "deny",
        ),
        (
            "cursor",
            "edit_file",
            json!({"target_file": "Cargo.lock"}),
            "deny",
        ),
        (
            "cursor",
            "delete_file",
            json!({"target_file": ".env"}),
            "deny",
        ),
        (
            "cursor",
            "list_dir",
            json!({"relative_workspace_path": ".env"}),
            "deny",
        ),
        (
            "cursor",
            "grep_search",
            json!({"query": "x", "include_pattern": ".env"}),
            "ask",
        ),
        // OpenCode's names (through a Claude-shaped caller) and Vibe
        ("claude", "read", json!({"filePath": abs(".env")}), "deny"),
        (
            "claude",
            "write",
            json!({"filePath": abs("Cargo.lock")}),
            "deny",
        ),
        ("vibe", "read_file", json!({"path": abs(".env")}), "deny"),
        (
            "vibe",
            "search_replace",
            json!({"file_path": abs("Cargo.lock"), "content": "x"}),
            "deny",
        ),
        ("vibe", "read_file", json!({"path": 1}), "ask"),
        // MCP and other tools: read- and edit-denied paths deny (the tool's direction is
        // unknown: a deny of either applies; red team session 3, H7), path allows never
        // grant.
        (
            "claude",
            "mcp__fs__read_file",
            json!({"path": abs(".env")}),
            "deny",
        ),
        (
            "claude",
            "mcp__fs__write_file",
            json!({"path": abs("Cargo.lock")}),
            "deny",
        ),
        (
            "claude",
            "mcp__fs__read_file",
            json!({"path": abs("src/main.rs")}),
            "none",
        ),
        (
            "claude",
            "mcp__fs__read_many",
            json!({"paths": [abs("src"), abs(".env")]}),
            "deny",
        ),
        (
            "claude",
            "mcp__docs__fetch",
            json!({"file_path": abs(".env")}),
            "deny",
        ),
        (
            "claude",
            "mcp__docs__fetch",
            json!({"file_path": abs("src/main.rs")}),
            "allow",
        ),
        (
            "claude",
            "mcp__docs__search",
            json!({"query": "x"}),
            "allow",
        ),
    ];
    let mut bad = Vec::new();
    for (host, tool, ti, want) in cases {
        let got = verdict(&p, host, tool, ti.clone());
        if got != want {
            bad.push(format!("{host} {tool} {ti}: got {got}, want {want}"));
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

/// Every agent's shell tool is decided as a shell command, under any of its names: Vibe's
/// `git_bash` and Gemini's `ShellTool` were once other tools (no bash rule met them, and
/// Vibe's `default` is allow).
#[test]
fn every_shell_tool_name_meets_the_bash_rules() {
    let p = Project::new();
    p.write(
        "policies/main.pol",
        "deny bash prefix \"rm\" { id no-rm }\n",
    );
    p.build_trusted();
    for (host, tool) in [
        ("vibe", "bash"),
        ("vibe", "git_bash"),
        ("gemini", "run_shell_command"),
        ("gemini", "ShellTool"),
        ("claude", "Bash"),
    ] {
        let got = verdict(&p, host, tool, json!({"command": "rm -rf build"}));
        assert_eq!(got, "deny", "{host} {tool}");
    }
}
