//! Issue 8, class 5 through the real binary: a shell tool's `command` given as an argv
//! array is decided as the host runs it — Codex execs the array (the POSIX-quoted join, and
//! `[bash, -lc, S]` is the script S); every other host does not document arrays, so the
//! array is unattestable (never better than ask) and both the exec reading and the space
//! join are decided for denies.

mod common;
use common::Project;
use proptest::prelude::*;
use serde_json::{json, Value};

const POLICY: &str = r#"
allow bash prefix "ls" { id list }
allow bash prefix "echo" { id echo }
allow bash prefix "env" { id env }
deny bash prefix "rm" { id no-rm }
allow bash prefix "cat" { id cat }
deny read glob "~/.ssh" { id no-ssh }
"#;

const HOSTS: &[&str] = &[
    "claude", "vscode", "copilot", "gemini", "cursor", "codex", "droid", "vibe",
];

fn setup() -> Project {
    let p = Project::new();
    p.write("policies/main.pol", POLICY);
    p.build_trusted();
    p
}

/// A shell-tool input of `host`'s shape whose `command` is `cmd` (a JSON array here).
fn input(host: &str, root: &std::path::Path, cmd: Value) -> Value {
    match host {
        "copilot" => json!({"sessionId": "s1", "timestamp": 1, "cwd": root,
            "toolName": "bash", "toolArgs": {"command": cmd}}),
        "gemini" => json!({"session_id": "s1", "cwd": root,
            "hook_event_name": "BeforeTool", "tool_name": "run_shell_command",
            "tool_input": {"command": cmd}}),
        "cursor" => json!({"hook_event_name": "beforeShellExecution",
            "conversation_id": "c", "workspace_roots": [root], "command": cmd, "cwd": root}),
        "vibe" => json!({"tool_name": "bash", "tool_input": {"command": cmd},
            "hook_event_name": "pre_tool"}),
        "droid" => json!({"session_id": "s1", "cwd": root, "hook_event_name": "PreToolUse",
            "tool_name": "Execute", "tool_input": {"command": cmd}}),
        "codex" => json!({"session_id": "s1", "cwd": root, "hook_event_name": "PreToolUse",
            "tool_name": "shell", "turn_id": "t", "tool_input": {"command": cmd}}),
        _ => json!({"session_id": "s1", "cwd": root, "permission_mode": "default",
            "hook_event_name": "PreToolUse", "tool_name": "Bash",
            "tool_input": {"command": cmd}}),
    }
}

/// The host's answer reduced to deny / ask / allow / none (no output), with "approval
/// needed" denies (hosts that cannot prompt) reported as ask.
fn verdict(p: &Project, host: &str, cmd: Value) -> String {
    let root = p.dir.path().canonicalize().unwrap();
    common::host_verdict(p, host, &input(host, &root, cmd))
}

#[test]
fn the_issue_example_runs_rm_and_is_denied_on_every_host() {
    let p = setup();
    for host in HOSTS {
        assert_eq!(
            verdict(&p, host, json!(["env", "X='", "rm", "-rf", "x", "'"])),
            "deny",
            "{host}"
        );
    }
}

#[test]
fn codex_execs_the_array() {
    let p = setup();
    let v = |c: Value| verdict(&p, "codex", c);
    // Codex answers allow and default alike with no output; ask is an "approval needed" deny.
    assert_eq!(v(json!(["ls", "-la"])), "none", "allowed argv");
    assert_eq!(
        v(json!(["bash", "-lc", "ls -la"])),
        "none",
        "the script S is analysed"
    );
    assert_eq!(v(json!(["bash", "-lc", "ls; rm -rf x"])), "deny");
    assert_eq!(v(json!(["/bin/sh", "-c", "rm -rf x", "sh"])), "deny");
    assert_eq!(
        v(json!(["zsh", "-o", "pipefail", "-c", "echo $(rm x)"])),
        "deny"
    );
    assert_eq!(v(json!(["rm", "-rf", "x"])), "deny");
    assert_eq!(v(json!(["/usr/bin/rm", "x"])), "deny");
    // Exec'd, `x; rm -rf y` is one argument to echo: nothing else runs.
    assert_eq!(v(json!(["echo", "x;", "rm", "-rf", "y"])), "none");
    assert_eq!(v(json!(["echo", "$(rm x)"])), "none");
    // A relative `./bash` is not a known shell: its -c is not read as the command run.
    assert_eq!(v(json!(["./bash", "-c", "ls"])), "ask");
    // execve would cut at the NUL byte: never attested (ask is a deny on codex).
    assert_eq!(v(json!(["rm\0x", "-rf", "y"])), "deny");
    assert_eq!(v(json!(["ls\0", "-la"])), "ask");
    // Not a command array at all: the error row (deny on codex).
    assert_eq!(v(json!([])), "deny");
    assert_eq!(v(json!(["ls", 1])), "deny");
}

/// Codex's `workdir`: relative paths in the command resolve there.
#[test]
fn codex_workdir_is_where_paths_resolve() {
    let p = setup();
    let root = p.dir.path().canonicalize().unwrap();
    let ssh = root.join("home/.ssh");
    std::fs::create_dir_all(&ssh).unwrap();
    let run = |ti: Value| {
        let stdin = json!({"session_id": "s1", "cwd": root, "hook_event_name": "PreToolUse",
            "tool_name": "shell", "tool_input": ti})
        .to_string();
        let mut c = p.cmd(&["hook", "--host", "codex"]);
        c.env("HOME", root.join("home"));
        let r = common::spawn_with_stdin(c, stdin.as_bytes())
            .wait_with_output()
            .unwrap();
        String::from_utf8_lossy(&r.stdout).into_owned()
    };
    assert_eq!(run(json!({"command": ["cat", "id_rsa"]})), "");
    for ti in [
        json!({"command": ["cat", "id_rsa"], "workdir": ssh}),
        json!({"command": ["cat", "id_rsa"], "workdir": "home/.ssh"}),
        json!({"command": ["bash", "-lc", "cat id_rsa"], "workdir": ssh}),
        json!({"command": "cat id_rsa", "workdir": ssh}),
    ] {
        assert!(run(ti.clone()).contains("no-ssh"), "{ti}");
    }
    let out = run(json!({"command": ["cat", "x"], "workdir": 7}));
    assert!(out.contains("approval needed"), "{out}");
}

#[test]
fn other_hosts_never_allow_an_array_and_deny_either_reading() {
    let p = setup();
    for host in HOSTS.iter().filter(|h| **h != "codex") {
        let v = |c: Value| verdict(&p, host, c);
        assert_eq!(v(json!(["ls", "-la"])), "ask", "{host}: unattestable");
        assert_eq!(v(json!(["bash", "-lc", "ls"])), "ask", "{host}");
        // The space join runs rm; the exec reading does not: deny either way.
        assert_eq!(v(json!(["echo", "x;", "rm", "-rf", "y"])), "deny", "{host}");
        assert_eq!(v(json!(["bash", "-lc", "rm -rf /"])), "deny", "{host}");
        // A string command is as before.
        let allow = if *host == "vibe" { "none" } else { "allow" };
        assert_eq!(v(json!("ls -la")), allow, "{host} string");
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// The quoted join reads back in bash as exactly the argv (so the exec reading polc
    /// decides is the command Codex runs).
    #[test]
    fn quoted_join_round_trips_through_bash(
        argv in prop::collection::vec("[ -~\t\n]{0,8}|[a-z=;'\"$`\\\\*?~{}]{1,6}", 1..6)
    ) {
        let words: Vec<&str> = argv.iter().map(String::as_str).collect();
        let join = polc::host::input::quoted_join(&words);
        let out = std::process::Command::new("bash")
            .arg("-c")
            .arg(format!("printf '%s\\0' {join}"))
            .output()
            .unwrap();
        let got: Vec<String> = String::from_utf8_lossy(&out.stdout)
            .split_terminator('\0')
            .map(str::to_string)
            .collect();
        prop_assert_eq!(&got, &argv, "join {:?}", join);
    }
}

/// Gemini CLI's `run_shell_command` runs in `dir_path` (relative to the project; older
/// releases: `directory`): relative paths in the command resolve there (red team 4, C4-10).
#[test]
fn gemini_dir_path_is_where_paths_resolve() {
    let p = setup();
    let root = p.dir.path().canonicalize().unwrap();
    let ssh = root.join("home/.ssh");
    std::fs::create_dir_all(&ssh).unwrap();
    let v = |ti: Value| {
        let stdin = json!({"session_id": "s1", "cwd": root, "hook_event_name": "BeforeTool",
            "tool_name": "run_shell_command", "tool_input": ti});
        common::host_verdict(&p, "gemini", &stdin)
    };
    assert_eq!(v(json!({"command": "cat id_rsa"})), "allow");
    for ti in [
        json!({"command": "cat id_rsa", "dir_path": ssh}),
        json!({"command": "cat id_rsa", "dir_path": "home/.ssh"}),
        json!({"command": "cat ./id_rsa", "directory": "home/.ssh"}),
        json!({"command": "cat ../.ssh/id_rsa", "dir_path": "home/x"}),
    ] {
        assert_eq!(v(ti.clone()), "deny", "{ti}");
    }
    // A folder polc cannot read is never an allow.
    assert_ne!(v(json!({"command": "cat x", "dir_path": 7})), "allow");
}

/// Tools that send text to a shell without being shell tools (red team 4, C4-26): the text
/// is decided as a command and never allowed.
#[test]
fn text_sent_to_a_shell_is_a_command() {
    let p = setup();
    let root = p.dir.path().canonicalize().unwrap();
    let copilot = |tool: &str, args: Value| {
        let stdin = json!({"sessionId": "s1", "timestamp": 1, "cwd": root,
            "toolName": tool, "toolArgs": args});
        common::host_verdict(&p, "copilot", &stdin)
    };
    assert_eq!(
        copilot(
            "write_bash",
            json!({"sessionId": "1", "input": "rm -rf /\n"})
        ),
        "deny"
    );
    assert_ne!(
        copilot("write_bash", json!({"sessionId": "1", "input": "ls\n"})),
        "allow"
    );
    let vscode = |tool: &str, ti: Value| {
        let stdin = json!({"session_id": "s1", "cwd": root, "hook_event_name": "PreToolUse",
            "tool_name": tool, "tool_input": ti});
        common::host_verdict(&p, "vscode", &stdin)
    };
    assert_eq!(
        vscode(
            "create_and_run_task",
            json!({"task": {"command": "rm", "args": ["-rf", "/"]}})
        ),
        "deny"
    );
    assert_ne!(
        vscode("create_and_run_task", json!({"task": {"command": "ls"}})),
        "allow"
    );
    assert_eq!(
        vscode(
            "run_vscode_command",
            json!({"commandId": "workbench.action.terminal.sendSequence", "args": {"text": "rm -rf /\n"}})
        ),
        "deny"
    );
}

/// Codex's hook input for `exec_command` leaves out the model's `workdir` (red team 4,
/// C4-11): a relative write of a protected file's name is asked (a deny on Codex) because
/// the folder it lands in is not known; with `workdir` sent it is judged there.
#[test]
fn codex_relative_writes_of_protected_names_without_a_workdir() {
    let p = Project::new();
    p.write(
        "policies/main.pol",
        "allow bash prefix \"cp\" { id cp }\nallow bash prefix \"go build\" { id go }\n",
    );
    p.build_trusted();
    let root = p.dir.path().canonicalize().unwrap();
    let v = |ti: Value| {
        let stdin = json!({"session_id": "s1", "cwd": root, "hook_event_name": "PreToolUse",
            "tool_name": "Bash", "turn_id": "t", "tool_input": ti});
        common::host_verdict(&p, "codex", &stdin)
    };
    for c in [
        "cp /tmp/x settings.json",
        "go build -o hooks.json /tmp/x/main.go",
        "cp /tmp/x sub/settings.local.json",
    ] {
        assert_eq!(v(json!({ "command": c })), "ask", "{c}");
    }
    assert_eq!(v(json!({"command": "cp /tmp/x notes.json"})), "none");
    assert_eq!(
        v(json!({"command": "cp /tmp/x settings.json", "workdir": "sub"})),
        "none"
    );
}

/// `CDPATH` exported into the agent's environment moves a relative `cd` as one set in the
/// command does (red team 4, C4-7 variant): the folder is unknown, never allowed.
#[test]
fn an_inherited_cdpath_makes_a_relative_cd_unknown() {
    let p = Project::new();
    p.write("policies/main.pol", "allow bash glob \"*\" { id all }\n");
    p.write(".claude/hooks/h.sh", "#!/bin/sh\n");
    p.build_trusted();
    let root = p.dir.path().canonicalize().unwrap();
    let run = |cdpath: Option<&std::path::Path>| {
        let stdin = json!({"session_id": "s1", "cwd": root, "permission_mode": "default",
            "hook_event_name": "PreToolUse", "tool_name": "Bash",
            "tool_input": {"command": "cd hooks && rm -f h.sh"}})
        .to_string();
        let mut c = p.cmd(&["hook", "--host", "claude"]);
        c.env("CLAUDE_PROJECT_DIR", &root)
            .env("HOME", root.join("home"));
        match cdpath {
            Some(d) => c.env("CDPATH", d),
            None => c.env_remove("CDPATH"),
        };
        let r = common::spawn_with_stdin(c, stdin.as_bytes())
            .wait_with_output()
            .unwrap();
        String::from_utf8_lossy(&r.stdout).into_owned()
    };
    assert!(run(None).contains("\"allow\""), "{}", run(None));
    let out = run(Some(&root.join(".claude")));
    assert!(out.contains("\"ask\"") || out.contains("\"deny\""), "{out}");
}
