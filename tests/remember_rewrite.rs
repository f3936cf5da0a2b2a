//! Remembered approvals (Claude PermissionRequest `updatedPermissions`) and rewrites
//! (`updatedInput`) through the real binary, with the attempts to widen either kept as
//! tests. src/session/README.md#remembered-approvals, #rewrites.

mod common;
use common::Project;
use serde_json::{json, Value};
use std::io::Write;
use std::process::Stdio;

const POLICY: &str = r#"
allow bash exact "git status" { id status; remember }
allow bash prefix "git log" { id log; remember }
allow bash prefix "make" { id make }
allow bash prefix "cat" { id cat; remember }
allow bash prefix "curl https://x.io" { id curl; remember }
allow bash prefix "npm run" { id npm; remember }
allow bash glob "terraform apply*--dry-run" { id tf-dry }
deny bash glob "terraform apply * -destroy --dry-run" { id no-destroy }
rewrite bash prefix "terraform apply" {
  id      tf-rewrite
  append  "--dry-run"
  example "terraform apply" => "terraform apply --dry-run"
}
rewrite bash prefix "kubectl apply" {
  id      kube-rewrite
  append  "--dry-run=server"
}
deny bash prefix "kubectl apply" { id no-kube }
"#;

fn project(policy: &str) -> Project {
    let p = Project::new();
    p.write("policies/main.pol", policy);
    p.build_trusted();
    p
}

fn hook(p: &Project, host: &str, input: Value) -> Value {
    let root = p.dir.path().canonicalize().unwrap();
    let mut c = p.cmd(&["hook", "--host", host]);
    c.current_dir(&root)
        .env("CLAUDE_PROJECT_DIR", &root)
        .env("HOME", root.join("home"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = c.spawn().unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.to_string().as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8_lossy(&out.stdout);
    if text.trim().is_empty() {
        return Value::Null;
    }
    serde_json::from_str(&text).unwrap()
}

fn input(p: &Project, event: &str, mode: Option<&str>, cmd: &str) -> Value {
    let mut v = json!({
        "session_id": "s1", "cwd": p.dir.path().canonicalize().unwrap(),
        "hook_event_name": event, "tool_name": "Bash",
        "tool_input": {"command": cmd, "description": "d", "timeout": 5000},
        "tool_use_id": "toolu_1"
    });
    if let Some(m) = mode {
        v["permission_mode"] = json!(m);
    }
    v
}

/// PermissionRequest: (behavior or "none", the updatedPermissions if any).
fn permreq(p: &Project, cmd: &str) -> (String, Option<Value>) {
    let v = hook(
        p,
        "claude",
        input(p, "PermissionRequest", Some("default"), cmd),
    );
    if v.is_null() {
        return ("none".into(), None);
    }
    let d = &v["hookSpecificOutput"]["decision"];
    let up = d.get("updatedPermissions").cloned();
    (d["behavior"].as_str().unwrap().to_string(), up)
}

#[test]
fn a_remembered_allow_adds_exactly_one_session_rule() {
    let p = project(POLICY);
    let (b, up) = permreq(&p, "git status");
    assert_eq!(b, "allow");
    assert_eq!(
        up.unwrap(),
        json!([{"type": "addRules", "rules": [{"toolName": "Bash", "ruleContent": "git status"}],
                "behavior": "allow", "destination": "session"}])
    );
    // A prefix rule remembers the command itself, never the prefix.
    let (b, up) = permreq(&p, "git log --oneline");
    assert_eq!(b, "allow");
    assert_eq!(
        up.unwrap()[0]["rules"][0]["ruleContent"],
        json!("git log --oneline")
    );
}

#[test]
fn only_opted_in_plain_exact_commands_are_remembered() {
    let p = project(POLICY);
    for (cmd, want) in [
        // Not opted in.
        ("make test", "allow"),
        // A wildcard Claude Code would read more widely, or no exact form.
        // (quoted, so polc allows them: the star is a literal to bash, a wildcard to Claude).
        ("git log '--format=*'", "allow"),
        // git reads `:*` and a literal `*` as pathspecs (every file): no allow covers that
        // read, so they are not even allowed.
        ("git log ':*'", "none"),
        ("git log \\*", "none"),
        // Compound, multi-line, redirected, nested.
        ("git status && git log", "allow"),
        ("git log; git status", "allow"),
        ("git log\ngit status", "allow"),
        ("git log > out.txt", "none"),
        ("(git status)", "allow"),
        // A path or URL check decided part of it.
        ("cat README.md", "allow"),
        ("curl https://x.io", "allow"),
        // Leading or trailing blanks Claude Code would trim.
        ("git log ", "allow"),
    ] {
        let (b, up) = permreq(&p, cmd);
        assert_eq!(b, want, "{cmd:?}");
        assert!(up.is_none(), "{cmd:?} must not be remembered: {up:?}");
    }
    // PreToolUse never carries it; nor does any other host.
    let v = hook(
        &p,
        "claude",
        input(&p, "PreToolUse", Some("default"), "git status"),
    );
    assert!(v["hookSpecificOutput"].get("updatedPermissions").is_none());
    assert!(!v.to_string().contains("updatedPermissions"));
    let v = hook(
        &p,
        "vscode",
        input(&p, "PermissionRequest", Some("default"), "git status"),
    );
    assert!(!v.to_string().contains("updatedPermissions"), "{v}");
}

#[test]
fn an_allow_that_depended_on_session_state_is_not_remembered() {
    let limits = format!("session denials\n{POLICY}");
    let p = project(&limits);
    let (b, up) = permreq(&p, "git status");
    assert_eq!(b, "allow");
    assert!(up.is_none(), "denial limits are on: {up:?}");
    // A sequence whose step this command matches.
    let seq = format!(
        "{POLICY}\ndeny sequence {{\n  step read glob \".env\"\n  step bash prefix \"git status\"\n}}\n"
    );
    let p = project(&seq);
    let (b, up) = permreq(&p, "git status");
    assert_eq!(b, "allow");
    assert!(up.is_none(), "a sequence step matched: {up:?}");
    // A command no step matches is still remembered.
    let (_, up) = permreq(&p, "git log -1");
    assert!(up.is_some());
}

#[test]
fn remember_on_anything_but_a_bash_allow_is_an_error() {
    for bad in [
        "deny bash prefix \"rm\" { remember }",
        "ask bash prefix \"git push\" { remember }",
        "allow read glob \"src/**\" { remember }",
    ] {
        let p = Project::new();
        p.write("policies/main.pol", bad);
        let r = p.run(&["build"]);
        let r = r.exits(1);
        assert!(r.stderr().contains("E018"), "{bad}: {}", r.stderr());
    }
}

/// PreToolUse in `mode`: (decision, the command Claude Code would run).
fn pretool(p: &Project, mode: Option<&str>, cmd: &str) -> (String, String) {
    let v = hook(p, "claude", input(p, "PreToolUse", mode, cmd));
    if v.is_null() {
        return ("none".into(), cmd.into());
    }
    let h = &v["hookSpecificOutput"];
    let d = h["permissionDecision"].as_str().unwrap().to_string();
    match h.get("updatedInput") {
        Some(u) => {
            // The whole input is kept; only the command changes.
            assert_eq!(u["description"], json!("d"));
            assert_eq!(u["timeout"], json!(5000));
            assert_eq!(d, "allow", "a rewrite rides only on an allow: {v}");
            (d, u["command"].as_str().unwrap().to_string())
        }
        None => (d, cmd.into()),
    }
}

#[test]
fn a_rewrite_is_decided_by_the_whole_policy() {
    let p = project(POLICY);
    assert_eq!(
        pretool(&p, Some("default"), "terraform apply"),
        ("allow".into(), "terraform apply --dry-run".into())
    );
    assert_eq!(
        pretool(&p, Some("bypassPermissions"), "terraform apply -target=x"),
        ("allow".into(), "terraform apply -target=x --dry-run".into())
    );
    // The rewritten command is denied: the original is decided (no rule: default).
    assert_eq!(
        pretool(&p, Some("default"), "terraform apply x -destroy"),
        ("none".into(), "terraform apply x -destroy".into())
    );
    // An original deny stays a deny, whatever the rewrite would give.
    assert_eq!(
        pretool(&p, Some("default"), "kubectl apply -f x.yaml"),
        ("deny".into(), "kubectl apply -f x.yaml".into())
    );
}

#[test]
fn a_rewrite_never_applies_where_it_could_be_swallowed_or_dropped() {
    let p = project(POLICY);
    for cmd in [
        "terraform apply # comment",
        "terraform apply \\",
        "terraform apply; rm -rf ~",
        "terraform apply && echo ok",
        "terraform apply | tee log",
        "terraform apply > log",
        "terraform apply\necho x",
        "terraform apply $(cat f)",
        "terraform apply 'x",
    ] {
        let (d, run) = pretool(&p, Some("default"), cmd);
        assert_eq!(run, cmd, "{cmd:?} was rewritten ({d})");
        assert_ne!(d, "allow", "{cmd:?}");
    }
    // A mode polc has not seen Claude Code apply the rewrite in, or none: the original.
    for mode in [None, Some("someNewMode")] {
        assert_eq!(
            pretool(&p, mode, "terraform apply"),
            ("none".into(), "terraform apply".into())
        );
    }
    // PermissionRequest and the other hosts: the original.
    let v = hook(
        &p,
        "claude",
        input(&p, "PermissionRequest", Some("default"), "terraform apply"),
    );
    assert!(!v.to_string().contains("updatedInput"), "{v}");
    for host in ["gemini", "copilot", "codex", "cursor"] {
        let v = hook(
            &p,
            host,
            input(&p, "PreToolUse", Some("default"), "terraform apply"),
        );
        assert!(!v.to_string().contains("dry-run"), "{host}: {v}");
    }
}

#[test]
fn an_untrusted_project_table_cannot_rewrite() {
    let p = Project::new();
    p.write("policies/main.pol", POLICY);
    let r = p.run(&["build"]);
    let r = r.exits(0);
    assert!(r.stderr().contains("W007"), "{}", r.stderr());
    // Not trusted: no allow and no rewrite.
    assert_eq!(
        pretool(&p, Some("default"), "terraform apply"),
        ("none".into(), "terraform apply".into())
    );
    p.trust("compiled/policy.bin");
    assert_eq!(pretool(&p, Some("default"), "terraform apply").0, "allow");
}

#[test]
fn bad_rewrites_are_errors() {
    for bad in [
        "rewrite read glob \"x\" { append \"--dry-run\" }",
        "rewrite bash contains \"x\" { append \"--dry-run\" }",
        "rewrite bash prefix \"x\" { id a }",
        "rewrite bash prefix \"x\" { append \"; rm -rf ~\" }",
        "rewrite bash prefix \"x\" { append \"$HOME\" }",
        "rewrite bash prefix \"x\" { append \"*\" }",
        "rewrite bash prefix \"x\" { append \"a b c d e f g h i\" }",
    ] {
        let p = Project::new();
        p.write("policies/main.pol", bad);
        let r = p.run(&["build"]);
        let r = r.exits(1);
        assert!(r.stderr().contains("E019"), "{bad}: {}", r.stderr());
    }
}

#[test]
fn explain_shows_the_rewrite() {
    let p = project(POLICY);
    let r = p.run(&["explain", "--", "terraform", "apply"]);
    assert!(
        r.stdout().contains("rewrite: rule tf-rewrite")
            && r.stdout().contains("`terraform apply --dry-run`")
            && r.stdout().contains("the rewritten command: allow"),
        "{}",
        r.stdout()
    );
}

#[test]
fn the_language_reference_example_builds_and_its_examples_pass() {
    let text = std::fs::read_to_string(common::root().join("src/syntax/README.md")).unwrap();
    let sec = &text[text.find("**`rewrite bash PATTERN+").unwrap()..];
    let start = sec.find("```\n").unwrap() + 4;
    let block = &sec[start..start + sec[start..].find("```").unwrap()];
    assert!(block.contains("rewrite bash") && block.contains("remember"));
    let p = Project::new();
    p.write("policies/main.pol", block);
    let r = p.run(&["build"]);
    assert_eq!(r.code(), 0, "{}", r.stderr());
    assert!(
        r.stderr().contains("2 example(s)") || r.stdout().contains("2 example(s)"),
        "{}{}",
        r.stderr(),
        r.stdout()
    );
    // A wrong expectation fails the build.
    p.write(
        "policies/main.pol",
        &block.replace("=> \"terraform apply --dry-run\"", "=> \"terraform apply\""),
    );
    let r = p.run(&["build"]);
    assert_eq!(r.code(), 1, "{}", r.stderr());
    assert!(r.stderr().contains("rewrite example"), "{}", r.stderr());
}
