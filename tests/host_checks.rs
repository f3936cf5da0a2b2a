//! Issue "Claude's own rules", item 4: the checks Claude Code skips when polc allows are kept
//! by polc (reads and writes outside the project, destructive commands on critical paths,
//! globs in write targets), unless a rule names the path.

mod common;
use common::Project;
use serde_json::json;

const CLAUDE_RULES: &str = r#"{"permissions": {"allow": [
  "Bash(cat:*)", "Bash(rm:*)", "Bash(mkdir:*)", "Bash(find:*)", "Bash(mv:*)", "Bash(grep:*)",
  "Bash(touch:*)", "Bash(sed:*)", "Bash(chmod:*)", "Bash(cat /etc/hostname)", "Bash(ls:*)"
]}}"#;

fn project(extra: &str) -> Project {
    let p = Project::new();
    p.write("policies/permcheck.json", CLAUDE_RULES);
    p.write("policies/extra.pol", extra);
    p.write("src/main.rs", "");
    p.build_trusted();
    p
}

fn hook(p: &Project, host: &str, tool: &str, input: serde_json::Value) -> String {
    if host == "claude" {
        // The real `$HOME`: `~` must stay outside the project.
        let (d, _) = common::claude_decision(p, tool, input, "", &[]);
        return d.unwrap_or_else(|| "default".into());
    }
    let root = p.dir.path().canonicalize().unwrap();
    let stdin = json!({
        "session_id": "s1", "cwd": root, "hook_event_name": "BeforeTool",
        "tool_name": tool, "tool_input": input
    });
    match common::host_verdict(p, host, &stdin).as_str() {
        "none" => "default".into(),
        d => d.to_string(),
    }
}

fn bash(p: &Project, cmd: &str) -> String {
    hook(p, "claude", "Bash", json!({ "command": cmd }))
}

#[test]
fn claude_checks_kept_under_an_allow() {
    let p = project("");
    let mut bad = Vec::new();
    for (cmd, want) in [
        ("cat ~/.ssh/id_rsa", "ask"),
        ("cat /etc/passwd", "ask"),
        ("rm /tmp/x", "ask"),
        ("mkdir /tmp/newdir", "ask"),
        ("find /etc -name x", "ask"),
        ("find . -name x", "allow"),
        ("mv a /tmp/b", "ask"),
        ("grep root /etc/passwd", "ask"),
        ("touch /tmp/x", "ask"),
        ("sed -i s/a/b/ /etc/hosts", "ask"),
        ("cat ../other/secret", "ask"),
        ("rm -rf /", "deny"),
        ("rm -rf ~", "deny"),
        ("rm -rf /usr", "deny"),
        ("chmod -R 777 /", "deny"),
        ("rm -rf $HOME", "ask"),
        ("rm -f build/*.o", "ask"),
        ("cat /etc/hostname", "allow"),
        ("cat src/main.rs", "allow"),
        ("rm -f src/old.rs", "allow"),
        ("mkdir -p out/x", "allow"),
        ("ls /etc", "allow"),
    ] {
        let got = bash(&p, cmd);
        if got != want {
            bad.push(format!("{cmd}: want {want}, got {got}"));
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn a_rule_naming_the_folder_lists_it() {
    let p = project("allow read glob \"//tmp/**\" { id tmp-read }\nallow edit glob \"//tmp/**\" { id tmp-edit }\n");
    for (cmd, want) in [
        ("cat /tmp/x", "allow"),
        ("rm /tmp/x", "allow"),
        ("touch /tmp/x", "allow"),
        ("cat /etc/passwd", "ask"),
    ] {
        assert_eq!(bash(&p, cmd), want, "{cmd}");
    }
    // A rule with a wildcard before the path does not name it.
    let p = project("allow read glob \"**\" { id all-read }\n");
    assert_eq!(bash(&p, "cat /etc/passwd"), "ask");
    assert_eq!(
        hook(&p, "claude", "Read", json!({"file_path": "/etc/passwd"})),
        "ask"
    );
    let p = project("allow read glob \"//etc/**\" { id etc }\n");
    assert_eq!(
        hook(&p, "claude", "Read", json!({"file_path": "/etc/passwd"})),
        "allow"
    );
}

#[test]
fn other_hosts_are_not_changed() {
    let p = project("");
    assert_eq!(
        hook(
            &p,
            "gemini",
            "run_shell_command",
            json!({"command": "cat /etc/passwd"})
        ),
        "allow"
    );
}
