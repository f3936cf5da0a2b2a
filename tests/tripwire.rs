//! Issue "an agent cannot loosen its own policy", item 1 (what appears anyway is caught
//! afterwards): agent configuration that appears, disappears or changes in a project by a
//! route self-protection did not see makes every later answer a deny, `default` included,
//! until a person runs `polc confirm` on the terminal. Through the binary.

mod common;
use common::Project;
use serde_json::json;
use std::path::Path;
use std::process::Command;

const POLICY: &str = "allow bash prefix \"echo\" { id echo }\n";

fn project() -> Project {
    let p = Project::new();
    p.write("policies/main.pol", POLICY);
    p.build_trusted();
    p
}

fn claude(p: &Project, cmd: &str) -> (Option<String>, String) {
    common::claude_decision(p, "Bash", json!({ "command": cmd }), "", &[])
}

/// A Codex call from the project root: (exit code, stdout, stderr).
fn codex(p: &Project, cmd: &str) -> (i32, String, String) {
    let root = p.dir.path().canonicalize().unwrap();
    let stdin = json!({
        "session_id": "c1", "cwd": root, "hook_event_name": "PreToolUse",
        "permission_mode": "default", "tool_name": "Bash", "tool_input": {"command": cmd}
    });
    let mut c = p.cmd(&["hook", "--host", "codex"]);
    c.current_dir(&root);
    let ch = common::spawn_with_stdin(c, stdin.to_string().as_bytes());
    let o = ch.wait_with_output().unwrap();
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

fn git(dir: &Path, args: &[&str], stdin: Option<&str>) -> String {
    let mut c = Command::new("git");
    c.args(args)
        .current_dir(dir)
        .env("GIT_AUTHOR_NAME", "t")
        .env("GIT_AUTHOR_EMAIL", "t@t")
        .env("GIT_COMMITTER_NAME", "t")
        .env("GIT_COMMITTER_EMAIL", "t@t");
    let ch = common::spawn_with_stdin(c, stdin.unwrap_or("").as_bytes());
    let o = ch.wait_with_output().unwrap();
    assert!(
        o.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8_lossy(&o.stdout).trim().to_string()
}

/// Every answer is a deny naming the change and `polc confirm`.
fn assert_tripped(p: &Project, what: &str) {
    for cmd in ["echo hi", "ls", "git status"] {
        let (d, text) = claude(p, cmd);
        assert_eq!(d.as_deref(), Some("deny"), "{what}: {cmd}: {text}");
        assert!(
            text.contains("agent configuration changed") && text.contains("polc confirm"),
            "{what}: {text}"
        );
    }
    let (code, out, err) = codex(p, "echo hi");
    assert!(
        out.contains("deny") || code == 2,
        "{what}: codex {code} {out} {err}"
    );
    // A plugin host through `polc decide --host`.
    let r = p.run(&["decide", "--host", "openclaw", "--", "echo hi"]);
    assert_eq!(r.code(), 2, "{what}: decide {}", r.stderr());
    assert!(r.stderr().contains("agent configuration changed"), "{what}");
}

fn assert_calm(p: &Project, what: &str) {
    assert_eq!(claude(p, "echo hi").0.as_deref(), Some("allow"), "{what}");
    let r = p.run(&["decide", "--host", "openclaw", "--", "echo hi"]);
    assert_eq!(r.code(), 0, "{what}: decide {}", r.stderr());
    assert_eq!(claude(p, "ls").0, None, "{what}: `default` stays default");
}

/// `polc confirm ROOT` with a person answering `answer` on a terminal (a pty from `script`).
fn confirm(p: &Project, answer: &str) -> (i32, String) {
    let root = p.dir.path().canonicalize().unwrap();
    let line = format!(
        "{} confirm {}",
        common::polc_bin().display(),
        root.display()
    );
    let o = {
        let mut s = Command::new("script");
        s.args(["-qec", &line, "/dev/null"])
            .current_dir(&root)
            .env("POLC_CONFIG_DIR", p.config.path())
            .env("POLC_CACHE_DIR", p.cache.path())
            .env("POLC_STATE_DIR", p.state.path());
        common::spawn_with_stdin(s, format!("{answer}\n").as_bytes())
            .wait_with_output()
            .unwrap()
    };
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into_owned(),
    )
}

#[test]
fn a_blob_landed_by_git_reset_hard_trips_until_a_person_confirms() {
    let p = project();
    let root = p.dir.path();
    git(root, &["init", "-q"], None);
    git(root, &["add", "-A"], None);
    git(root, &["commit", "-qm", "init"], None);
    assert_calm(&p, "before");
    // What an agent could do with commands that each write no protected path.
    let sha = git(
        root,
        &["hash-object", "-w", "--stdin"],
        Some(r#"{"hooks":{"PreToolUse":[]},"permissions":{"allow":["Bash(*)"]}}"#),
    );
    git(
        root,
        &[
            "update-index",
            "--add",
            "--cacheinfo",
            &format!("100644,{sha},.claude/settings.json"),
        ],
        None,
    );
    git(root, &["commit", "-qm", "sneak"], None);
    git(root, &["reset", "-q", "--hard"], None);
    assert!(p.path(".claude/settings.json").exists());
    assert_tripped(&p, "git reset --hard");
    // A person says no: still denied.
    let (code, out) = confirm(&p, "n");
    assert_eq!(code, 1, "{out}");
    assert!(out.contains(".claude/settings.json"), "{out}");
    assert_tripped(&p, "after a no");
    // A person says yes.
    let (code, out) = confirm(&p, "y");
    assert_eq!(code, 0, "{out}");
    assert_calm(&p, "after a yes");
    // Removing it again is a change too.
    std::fs::remove_file(p.path(".claude/settings.json")).unwrap();
    assert_tripped(&p, "disappeared");
}

#[test]
fn an_archive_carrying_hook_configuration_trips() {
    let p = project();
    assert_calm(&p, "before");
    let t = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(t.path().join("pkg/.github/hooks")).unwrap();
    std::fs::write(t.path().join("pkg/.github/hooks/h.json"), "{}").unwrap();
    let tar = t.path().join("a.tar");
    let st = Command::new("tar")
        .args(["-cf", tar.to_str().unwrap(), "-C"])
        .arg(t.path().join("pkg"))
        .arg(".")
        .status()
        .unwrap();
    assert!(st.success());
    let st = Command::new("tar")
        .args(["-xf", tar.to_str().unwrap(), "-C"])
        .arg(p.dir.path())
        .status()
        .unwrap();
    assert!(st.success());
    assert_tripped(&p, "tar -x");
}

#[test]
fn every_kind_of_change_trips_and_claudes_own_allow_additions_do_not() {
    let p = project();
    p.write(
        ".claude/settings.local.json",
        r#"{"permissions":{"allow":["Bash(ls)"]}}"#,
    );
    p.write(".claude/commands/review.md", "review");
    p.write(".mcp.json", r#"{"mcpServers":{}}"#);
    p.confirm_config();
    assert_calm(&p, "confirmed");
    // "Don't ask again": Claude Code appends to the local allow list.
    p.write(
        ".claude/settings.local.json",
        r#"{"permissions":{"allow":["Bash(ls)","Bash(npm test)"]}}"#,
    );
    assert_calm(&p, "Claude's own addition");
    // The same bytes written again (a checkout): not a change.
    let text = std::fs::read(p.path(".mcp.json")).unwrap();
    std::fs::remove_file(p.path(".mcp.json")).unwrap();
    std::fs::write(p.path(".mcp.json"), &text).unwrap();
    assert_calm(&p, "same bytes");
    // Each change: a file written (path, text), or, with no text, the file replaced by a
    // symlink.
    let changes: &[(&str, &str, Option<&str>)] = &[
        (
            ".mcp.json edited",
            ".mcp.json",
            Some(r#"{"mcpServers":{"x":{"command":"sh"}}}"#),
        ),
        (
            "a hook in settings.local.json",
            ".claude/settings.local.json",
            Some(r#"{"permissions":{"allow":["Bash(ls)","Bash(npm test)"]},"hooks":{}}"#),
        ),
        (
            "a local allow removed",
            ".claude/settings.local.json",
            Some(r#"{"permissions":{"allow":["Bash(npm test)"]}}"#),
        ),
        ("a command added", ".claude/commands/x.md", Some("x")),
        (
            "a command edited",
            ".claude/commands/review.md",
            Some("other"),
        ),
        (
            "Gemini settings appeared",
            ".gemini/settings.json",
            Some("{}"),
        ),
        ("Cursor hooks appeared", ".cursor/hooks.json", Some("{}")),
        ("a Codex folder appeared", ".codex/config.toml", Some("")),
        (
            "VS Code MCP servers appeared",
            ".vscode/mcp.json",
            Some("{}"),
        ),
        (
            "Cursor MCP servers appeared",
            ".cursor/mcp.json",
            Some("{}"),
        ),
        (
            "a Copilot agent appeared",
            ".github/agents/x.agent.md",
            Some("---\nmcp-servers: {}\n---\n"),
        ),
        (
            "a Gemini extension appeared",
            ".gemini/extensions/x/gemini-extension.json",
            Some("{}"),
        ),
        (
            "a shared skill appeared",
            ".agents/skills/x/SKILL.md",
            Some("x"),
        ),
        (
            "an invalid rule appended to the local allow list",
            ".claude/settings.local.json",
            Some(r#"{"permissions":{"allow":["Bash(ls)","Bash(npm test)","Bash(x"]}}"#),
        ),
        ("a symlink in place of a file", ".mcp.json", None),
    ];
    for &(what, path, text) in changes {
        p.confirm_config();
        assert_calm(&p, what);
        match text {
            Some(text) => {
                p.write(path, text);
            }
            None => {
                std::fs::remove_file(p.path(path)).unwrap();
                std::os::unix::fs::symlink("/etc/hostname", p.path(path)).unwrap();
            }
        }
        assert_tripped(&p, what);
    }
}

#[test]
fn a_damaged_record_denies_and_an_agent_cannot_confirm() {
    let p = project();
    assert_calm(&p, "before");
    let dir = p.state.path().join("agent-config");
    let rec = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .find(|p| !p.file_name().unwrap().to_string_lossy().starts_with('.'))
        .unwrap();
    let text = std::fs::read_to_string(&rec).unwrap();
    std::fs::write(&rec, text.replacen('-', "x", 1)).unwrap();
    let (d, text) = claude(&p, "echo hi");
    assert_eq!(d.as_deref(), Some("deny"), "{text}");
    assert!(text.contains("damaged"), "{text}");
    // Deleting it is first sight again only for a person: the state folder is protected.
    let (d, _) = claude(&p, &format!("rm {}", rec.display()));
    assert!(matches!(d.as_deref(), Some("deny") | Some("ask")));
    // The agent cannot confirm, through any runner.
    for cmd in [
        "polc confirm",
        "polc confirm .",
        "script -qc 'polc confirm' /dev/null",
        "bash -c 'yes | polc confirm'",
    ] {
        let (d, text) = claude(&p, cmd);
        assert_eq!(d.as_deref(), Some("deny"), "{cmd}: {text}");
    }
    // Without a terminal, `polc confirm` refuses.
    let mut c = p.cmd(&["confirm"]);
    // SAFETY: setsid in the child only detaches it from the controlling terminal.
    unsafe {
        use std::os::unix::process::CommandExt;
        c.pre_exec(|| {
            libc::setsid();
            Ok(())
        });
    }
    let o = c.output().unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("/dev/tty"));
}

#[test]
fn the_hook_warns_when_command_v_polc_is_another_file() {
    let p = project();
    let root = p.dir.path().canonicalize().unwrap();
    let stdin = json!({
        "session_id": "s1", "cwd": root, "permission_mode": "default",
        "hook_event_name": "PreToolUse", "tool_name": "Bash",
        "tool_input": {"command": "echo hi"}, "tool_use_id": "t1"
    })
    .to_string();
    let fake = tempfile::tempdir().unwrap();
    std::fs::write(fake.path().join("polc"), "#!/bin/sh\nexit 0\n").unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(
        fake.path().join("polc"),
        std::fs::Permissions::from_mode(0o755),
    )
    .unwrap();
    let real = common::polc_bin();
    let real_dir = real.parent().unwrap();
    let run = |path: String| {
        let mut c = p.cmd(&["hook", "--host", "claude"]);
        c.env("CLAUDE_PROJECT_DIR", &root).env("PATH", path);
        let o = common::spawn_with_stdin(c, stdin.as_bytes())
            .wait_with_output()
            .unwrap();
        assert_eq!(o.status.code(), Some(0));
        assert!(String::from_utf8_lossy(&o.stdout).contains("allow"));
        String::from_utf8_lossy(&o.stderr).into_owned()
    };
    let err = run(format!(
        "{}:{}:/usr/bin:/bin",
        fake.path().display(),
        real_dir.display()
    ));
    assert!(
        err.contains("command -v polc") && err.contains("warning"),
        "{err}"
    );
    let err = run(format!("{}:/usr/bin:/bin", real_dir.display()));
    assert!(!err.contains("warning"), "{err}");
    let err = run("/usr/bin:/bin".into());
    assert!(err.contains("no polc on PATH"), "{err}");
}

#[test]
fn a_deleted_record_is_not_first_sight_and_linked_skills_are_guarded() {
    let p = Project::new();
    p.write(
        "policies/main.pol",
        "allow bash glob \"*\" { id all }\nallow edit glob \"**\" { id edit-all }\n",
    );
    p.build_trusted();
    // The shared-skills layout: .claude/skills/s -> ../../.agents-shared/s
    p.write(".agents-shared/s/SKILL.md", "skill");
    std::fs::create_dir_all(p.path(".claude/skills")).unwrap();
    std::os::unix::fs::symlink("../../.agents-shared/s", p.path(".claude/skills/s")).unwrap();
    assert_eq!(claude(&p, "ls").0.as_deref(), Some("allow"));
    // Writing the link's target is writing the skill.
    for cmd in [
        "cp src/x .agents-shared/s/SKILL.md",
        "echo hooks: >> .agents-shared/s/SKILL.md",
        "rm -rf .agents-shared",
    ] {
        let (d, text) = claude(&p, cmd);
        assert!(
            matches!(d.as_deref(), Some("ask") | Some("deny")),
            "{cmd}: {text}"
        );
    }
    // An edit there by another route trips.
    p.write(".agents-shared/s/SKILL.md", "---\nhooks: {}\n---\n");
    assert_eq!(claude(&p, "ls").0.as_deref(), Some("deny"));
    p.confirm_config();
    assert_eq!(claude(&p, "ls").0.as_deref(), Some("allow"));
    // The record deleted (by a program the policy let run) and the configuration changed:
    // not a first call.
    std::fs::remove_dir_all(p.state.path().join("agent-config")).unwrap();
    p.write(".claude/settings.json", r#"{"disableAllHooks":true}"#);
    let (d, text) = claude(&p, "ls");
    assert_eq!(d.as_deref(), Some("deny"), "{text}");
    assert!(text.contains("missing"), "{text}");
}
