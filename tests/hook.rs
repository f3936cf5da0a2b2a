//! `polc hook` through the real binary: golden answers per host and event, the fail-closed
//! matrix for every host, and the attacks on self-protection and trust.
//!
//! Re-record the golden files with `POLC_BLESS=1 cargo test --test hook golden` and review
//! the diff against HOSTS.md and docs/contract.md#c-host-answers before committing.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

const POLC: &str = env!("CARGO_BIN_EXE_polc");
const HOSTS: &[&str] = &[
    "claude", "vscode", "copilot", "gemini", "cursor", "codex", "droid", "vibe",
];

const POLICY: &str = r#"
allow bash prefix "ls" {
  id      list
  reason  "Listing is read-only."
}
ask bash prefix "git push" {
  id      push
  reason  "Pushing needs a person."
}
deny bash prefix "rm -rf" {
  id      wipe
  reason  "No recursive deletes."
}
"#;

struct Project {
    _tmp: tempfile::TempDir,
    root: PathBuf,
    cfg: PathBuf,
    cache: PathBuf,
}

fn build(dir: &Path, policy_dir: &str, out: &str) {
    let st = Command::new(POLC)
        .args(["build", policy_dir, "-o", out])
        .current_dir(dir)
        .env("POLC_CACHE_DIR", dir.join("cache-b"))
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(
        st.status.success(),
        "{}",
        String::from_utf8_lossy(&st.stderr)
    );
}

fn trust_table(cfg: &Path, root: &Path, table: &Path) {
    let bytes = std::fs::read(table).unwrap();
    let digest = polc::runtime::trust::table_digest(None, None, &bytes);
    polc::runtime::trust::record(cfg, root, table, &digest).unwrap();
}

/// A project with the test policy built into compiled/policy.bin, trusted.
fn project(trusted: bool) -> Project {
    let tmp = tempfile::tempdir().unwrap();
    let base = tmp.path().canonicalize().unwrap();
    let root = base.join("proj");
    let cfg = base.join("cfg");
    let cache = base.join("cache");
    std::fs::create_dir_all(root.join("policies")).unwrap();
    std::fs::create_dir_all(&cfg).unwrap();
    std::fs::write(root.join("policies/test.pol"), POLICY).unwrap();
    build(&root, "policies", "compiled/policy.bin");
    if trusted {
        trust_table(&cfg, &root, &root.join("compiled/policy.bin"));
    }
    Project {
        _tmp: tmp,
        root,
        cfg,
        cache,
    }
}

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

fn hook_cmd(p: &Project, args: &[&str]) -> Command {
    let mut c = Command::new(POLC);
    c.arg("hook").args(args).current_dir(&p.root);
    for k in [
        "CLAUDE_PROJECT_DIR",
        "GEMINI_PROJECT_DIR",
        "FACTORY_PROJECT_DIR",
        "CURSOR_PROJECT_DIR",
        "POLC_TABLE",
        "POLC_HOOK_SELFTEST",
        "POLC_HOOK_DEADLINE_MS",
        "CLAUDE_CONFIG_DIR",
    ] {
        c.env_remove(k);
    }
    c.env("POLC_CONFIG_DIR", &p.cfg)
        .env("POLC_CACHE_DIR", &p.cache)
        .env("POLC_STATE_DIR", p.cfg.with_file_name("state"))
        .env("CLAUDE_PROJECT_DIR", &p.root)
        .env("GEMINI_PROJECT_DIR", &p.root)
        .env("FACTORY_PROJECT_DIR", &p.root);
    // Installed as a person would: `command -v polc` is this binary (else the hook adds a
    // warning line to stderr; tests/tripwire.rs checks that warning).
    let bin_dir = Path::new(POLC).parent().unwrap().to_path_buf();
    let path = std::env::var_os("PATH").unwrap_or_default();
    let dirs = std::iter::once(bin_dir).chain(std::env::split_paths(&path));
    c.env("PATH", std::env::join_paths(dirs).unwrap());
    c
}

fn run_cmd(mut c: Command, stdin: Vec<u8>) -> Run {
    let mut child = c
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut sin = child.stdin.take().unwrap();
    // The hook stops reading at 1 MiB: ignore the broken pipe.
    let writer = std::thread::spawn(move || {
        let _ = sin.write_all(&stdin);
    });
    let out = child.wait_with_output().unwrap();
    let _ = writer.join();
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

fn hook(p: &Project, args: &[&str], stdin: &[u8]) -> Run {
    run_cmd(hook_cmd(p, args), stdin.to_vec())
}

fn claude_input(root: &Path, cwd: &Path, cmd: &str) -> Vec<u8> {
    let _ = root;
    serde_json::json!({
        "session_id": "s1", "cwd": cwd, "permission_mode": "default",
        "hook_event_name": "PreToolUse", "tool_name": "Bash",
        "tool_input": {"command": cmd}
    })
    .to_string()
    .into_bytes()
}

/// A valid input of each host's shape for a shell command.
fn input_for(host: &str, root: &Path, cmd: &str) -> Vec<u8> {
    let v = match host {
        "copilot" => serde_json::json!({"sessionId": "s1", "timestamp": 1, "cwd": root,
            "toolName": "bash", "toolArgs": {"command": cmd}}),
        "gemini" => serde_json::json!({"session_id": "s1", "cwd": root,
            "hook_event_name": "BeforeTool", "tool_name": "run_shell_command",
            "tool_input": {"command": cmd}}),
        "cursor" => serde_json::json!({"hook_event_name": "beforeShellExecution",
            "conversation_id": "c", "workspace_roots": [root], "command": cmd, "cwd": root}),
        "vibe" => serde_json::json!({"tool_name": "bash", "tool_input": {"command": cmd},
            "hook_event_name": "pre_tool"}),
        "droid" => serde_json::json!({"session_id": "s1", "cwd": root,
            "hook_event_name": "PreToolUse", "tool_name": "Execute",
            "tool_input": {"command": cmd}}),
        _ => return claude_input(root, root, cmd),
    };
    v.to_string().into_bytes()
}

// ── Golden answers ─────────────────────────────────────────────────────────────────────

#[test]
fn golden_answers_per_host_and_event() {
    let p = project(true);
    let root = p.root.display().to_string();
    let bless = std::env::var_os("POLC_BLESS").is_some();
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden");
    let mut checked = 0;
    let mut failures = Vec::new();
    for host in HOSTS {
        let mut cases: Vec<PathBuf> = std::fs::read_dir(dir.join(host))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "json"))
            .collect();
        cases.sort();
        assert!(cases.len() >= 4, "{host}: fewer than 4 golden cases");
        for case in cases {
            let input = std::fs::read_to_string(&case)
                .unwrap()
                .replace("@ROOT@", &root);
            let r = hook(&p, &["--host", host], input.as_bytes());
            let out_path = case.with_extension("out");
            let code_path = case.with_extension("code");
            let got_out = r.stdout.replace(&root, "@ROOT@");
            if bless {
                std::fs::write(&out_path, &got_out).unwrap();
                std::fs::write(&code_path, format!("{}\n", r.code)).unwrap();
                continue;
            }
            let want_out = std::fs::read_to_string(&out_path).unwrap();
            let want_code: i32 = std::fs::read_to_string(&code_path)
                .unwrap()
                .trim()
                .parse()
                .unwrap();
            if got_out != want_out || r.code != want_code {
                failures.push(format!(
                    "{}: got exit {} {:?}, want exit {want_code} {:?} (stderr {:?})",
                    case.display(),
                    r.code,
                    got_out,
                    want_out,
                    r.stderr
                ));
            }
            checked += 1;
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(bless || checked >= 48);
}

// ── Fail closed ────────────────────────────────────────────────────────────────────────

/// The error row of docs/contract.md#c-error-rows for `host`.
fn assert_error_row(host: &str, r: &Run, what: &str) {
    let ctx = format!(
        "{host} / {what}: exit {} stdout {:?} stderr {:?}",
        r.code, r.stdout, r.stderr
    );
    assert!(!r.stdout.contains("allow"), "{ctx}");
    assert!(!r.stderr.contains("panicked"), "{ctx}");
    assert_eq!(r.stderr.lines().count(), 1, "one stderr line: {ctx}");
    assert!(!r.stderr.trim().is_empty(), "{ctx}");
    match host {
        "claude" | "vscode" | "droid" | "cursor" => {
            assert_eq!(r.code, 2, "{ctx}");
            assert_eq!(r.stdout, "", "{ctx}");
        }
        "gemini" => {
            assert_eq!(r.code, 2, "{ctx}");
            assert!(
                r.stdout.starts_with(r#"{"decision":"deny","reason":"#),
                "{ctx}"
            );
        }
        "copilot" => {
            assert_eq!(r.code, 0, "{ctx}");
            assert!(
                r.stdout
                    .starts_with(r#"{"permissionDecision":"deny","permissionDecisionReason":"#),
                "{ctx}"
            );
        }
        "codex" => {
            assert_eq!(r.code, 0, "{ctx}");
            assert!(
                r.stdout
                    .contains(r#""permissionDecision":"deny","permissionDecisionReason":"#),
                "{ctx}"
            );
        }
        "vibe" => {
            assert_eq!(r.code, 0, "{ctx}");
            assert!(
                r.stdout.starts_with(r#"{"decision":"deny","reason":"#),
                "{ctx}"
            );
        }
        _ => unreachable!(),
    }
}

/// A deny answer (an unusable table is a decision, not an error).
fn assert_deny(host: &str, r: &Run, what: &str) {
    let ctx = format!(
        "{host} / {what}: exit {} stdout {:?} stderr {:?}",
        r.code, r.stdout, r.stderr
    );
    assert_eq!(r.code, 0, "{ctx}");
    assert!(!r.stdout.contains("allow"), "{ctx}");
    assert!(r.stdout.contains(r#""deny""#), "{ctx}");
    assert_eq!(r.stderr.lines().count(), 1, "one stderr line: {ctx}");
}

#[test]
fn unreadable_input_is_the_error_row_on_every_host() {
    let p = project(true);
    let mut big = b"{\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"".to_vec();
    big.resize(10 << 20, b'a');
    let inputs: Vec<(&str, Vec<u8>)> = vec![
        ("empty stdin", vec![]),
        ("invalid JSON", b"{\"tool_name\": ".to_vec()),
        ("JSON array", b"[1,2,3]".to_vec()),
        ("JSON string", b"\"Bash\"".to_vec()),
        (
            "command not a string",
            br#"{"tool_name":"Bash","tool_input":{"command":5}}"#.to_vec(),
        ),
        (
            "missing command",
            br#"{"tool_name":"Bash","tool_input":{}}"#.to_vec(),
        ),
        ("missing tool", br#"{"tool_input":{"x":1}}"#.to_vec()),
        ("10 MiB stdin", big),
        (
            "invalid UTF-8",
            b"{\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"ls \xff\xfe\"}}".to_vec(),
        ),
    ];
    for host in HOSTS {
        for (what, bytes) in &inputs {
            let r = hook(&p, &["--host", host], bytes);
            assert_error_row(host, &r, what);
        }
    }
}

#[test]
fn crashes_and_the_deadline_answer_deny_on_every_host() {
    let p = project(true);
    for host in HOSTS {
        for fault in ["panic", "abort", "segv", "bus", "overflow", "hang"] {
            let mut c = hook_cmd(&p, &["--host", host]);
            c.env("POLC_HOOK_SELFTEST", fault)
                .env("POLC_HOOK_DEADLINE_MS", "300");
            let r = run_cmd(c, input_for(host, &p.root, "ls"));
            assert_error_row(host, &r, fault);
        }
    }
}

#[test]
fn unusable_tables_deny_on_every_host() {
    let p = project(true);
    let table = p.root.join("compiled/policy.bin");
    let good = std::fs::read(&table).unwrap();
    type Spoil = Box<dyn Fn(&Project)>;
    let cases: Vec<(&str, Spoil, Vec<&str>)> = vec![
        (
            "named table missing",
            Box::new(|_| {}),
            vec!["--table", "/nonexistent/polc.bin"],
        ),
        (
            "truncated",
            Box::new(|p: &Project| {
                let t = p.root.join("compiled/policy.bin");
                let b = std::fs::read(&t).unwrap();
                std::fs::write(&t, &b[..b.len() / 2]).unwrap();
            }),
            vec![],
        ),
        (
            "corrupt",
            Box::new(|p: &Project| {
                let t = p.root.join("compiled/policy.bin");
                let mut b = std::fs::read(&t).unwrap();
                let n = b.len() - 100;
                b[n] ^= 0x40;
                std::fs::write(&t, &b).unwrap();
            }),
            vec![],
        ),
        (
            "old version",
            Box::new(|p: &Project| {
                let t = p.root.join("compiled/policy.bin");
                let mut b = std::fs::read(&t).unwrap();
                b[8..12].copy_from_slice(&0u32.to_le_bytes());
                std::fs::write(&t, &b).unwrap();
            }),
            vec![],
        ),
        (
            "stale",
            Box::new(|p: &Project| {
                let s = p.root.join("policies/test.pol");
                let mut f = std::fs::OpenOptions::new().append(true).open(s).unwrap();
                writeln!(f, "# edited after the build").unwrap();
            }),
            vec![],
        ),
        (
            "not a table",
            Box::new(|p: &Project| {
                std::fs::write(
                    p.root.join("compiled/policy.bin"),
                    b"hello, this is not a table at all; it is text\n".repeat(3),
                )
                .unwrap();
            }),
            vec![],
        ),
    ];
    for (what, spoil, extra) in &cases {
        std::fs::write(&table, &good).unwrap();
        std::fs::write(p.root.join("policies/test.pol"), POLICY).unwrap();
        spoil(&p);
        for host in HOSTS {
            let mut args = vec!["--host", *host];
            args.extend(extra.iter().copied());
            // `ls` is allowed by the good table: an unusable one must not allow it.
            let r = hook(&p, &args, &input_for(host, &p.root, "ls"));
            assert_deny(host, &r, what);
        }
        let mut args = vec!["--host", "claude", "--event", "permission-request"];
        args.extend(extra.iter().copied());
        let r = hook(&p, &args, &input_for("claude", &p.root, "ls"));
        assert!(
            r.stdout.contains(r#""behavior":"deny""#),
            "{what}: {}",
            r.stdout
        );
    }
}

#[test]
fn no_table_is_default_with_one_notice() {
    let p = project(true);
    std::fs::remove_dir_all(p.root.join("compiled")).unwrap();
    for host in HOSTS {
        let r = hook(
            &p,
            &["--host", host],
            &input_for(host, &p.root, "rm -rf build"),
        );
        assert_eq!(r.code, 0, "{host}");
        assert_eq!(r.stdout, "", "{host}: default is no output");
        if *host == "gemini" {
            // Gemini would read the notice as an allow (an_empty_answer_to_gemini_…).
            assert_eq!(r.stderr, "", "{host}");
            continue;
        }
        assert_eq!(r.stderr.lines().count(), 1, "{host}");
        assert!(r.stderr.contains("no policy table"), "{host}");
    }
}

#[test]
fn unknown_or_missing_host_never_allows() {
    // Issue 9 item 8: a JSON answer in a shape the host does not know fails its schema, and
    // Claude Code then ignored exit 2 and ran the command. Empty stdout, R on stderr, exit 2.
    let p = project(true);
    for bad in ["nosuch", "", "Claude", "claude ", "codex\n"] {
        for shape in HOSTS {
            let r = hook(&p, &["--host", bad], &input_for(shape, &p.root, "ls"));
            assert_eq!(r.code, 2, "--host {bad:?} ({shape} input)");
            assert_eq!(r.stdout, "", "--host {bad:?}: nothing on stdout");
            assert_eq!(r.stderr.lines().count(), 1, "--host {bad:?}: {}", r.stderr);
            assert!(r.stderr.contains("unknown host"), "{}", r.stderr);
        }
    }
    // Missing --host (and a missing value) is a usage error: exit 2, nothing on stdout.
    for args in [
        &[][..],
        &["--host"][..],
        &["--event", "permission-request"][..],
    ] {
        let r = hook(&p, args, &input_for("claude", &p.root, "ls"));
        assert_eq!(r.code, 2, "{args:?}: --host is required");
        assert_eq!(r.stdout, "", "{args:?}");
        assert!(!r.stderr.is_empty(), "{args:?}");
    }
    // No environment fallback for the host.
    let mut c = hook_cmd(&p, &[]);
    c.env("POLC_HOST", "claude");
    let r = run_cmd(c, input_for("claude", &p.root, "ls"));
    assert_eq!(r.code, 2);
    assert_eq!(r.stdout, "");
}

/// Claude Code ignores exit 2 for PermissionRequest (the prompt stays): every error there
/// answers `behavior: "deny"` with R, exit 0, whether the event comes from `--event` or from
/// the input, and whatever failed (input, crash, deadline).
#[test]
fn permission_request_errors_answer_deny() {
    let p = project(true);
    let deny = |r: &Run, what: &str| {
        let ctx = format!(
            "{what}: exit {} stdout {:?} stderr {:?}",
            r.code, r.stdout, r.stderr
        );
        assert_eq!(r.code, 0, "{ctx}");
        let v: serde_json::Value = serde_json::from_str(&r.stdout).expect(&ctx);
        let hso = &v["hookSpecificOutput"];
        assert_eq!(hso["hookEventName"], "PermissionRequest", "{ctx}");
        assert_eq!(hso["decision"]["behavior"], "deny", "{ctx}");
        assert!(
            hso["decision"]["message"]
                .as_str()
                .is_some_and(|m| m.starts_with("polc")),
            "{ctx}"
        );
        assert_eq!(r.stderr.lines().count(), 1, "{ctx}");
    };
    let by_input = br#"{"hook_event_name":"PermissionRequest","tool_name":"Bash","tool_input":{}}"#;
    for host in ["claude", "vscode", "droid"] {
        for (what, stdin) in [
            ("empty stdin", &b""[..]),
            ("invalid JSON", &b"{\"tool_name\": "[..]),
            ("missing command", &by_input[..]),
            ("non-UTF-8", &b"\xff\xfe{}"[..]),
        ] {
            let r = hook(
                &p,
                &["--host", host, "--event", "permission-request"],
                stdin,
            );
            deny(&r, &format!("{host} --event permission-request / {what}"));
        }
        // The event named only by the input.
        let r = hook(&p, &["--host", host], by_input);
        deny(&r, &format!("{host} / event from the input"));
        // Crashes and the deadline, after the input named the event.
        let input = serde_json::json!({"hook_event_name": "PermissionRequest", "cwd": p.root,
            "tool_name": "Bash", "tool_input": {"command": "ls"}})
        .to_string();
        for fault in ["panic", "abort", "segv", "hang"] {
            let mut c = hook_cmd(&p, &["--host", host]);
            c.env("POLC_HOOK_SELFTEST", fault)
                .env("POLC_HOOK_DEADLINE_MS", "300");
            let r = run_cmd(c, input.clone().into_bytes());
            deny(&r, &format!("{host} / {fault}"));
        }
        // PreToolUse keeps exit 2 and an empty stdout.
        let r = hook(&p, &["--host", host, "--event", "pre-tool-use"], b"");
        assert_eq!(
            (r.code, r.stdout.as_str()),
            (2, ""),
            "{host} PreToolUse error row"
        );
    }
}

/// Issue 9 item 9: per host, the modes in which an `ask` cannot reach a person answer a deny
/// that says approval is needed; a mode polc does not know counts as cannot-prompt.
#[test]
fn ask_becomes_an_approval_needed_deny_where_nobody_can_be_asked() {
    let p = project(true);
    // (host, mode or None, prompts?)
    let table: &[(&str, Option<&str>, bool)] = &[
        ("claude", None, true),
        ("claude", Some("default"), true),
        ("claude", Some("acceptEdits"), true),
        ("claude", Some("plan"), true),
        ("claude", Some("bypassPermissions"), true),
        ("claude", Some("dontAsk"), false),
        ("claude", Some("auto"), false),
        ("claude", Some("DONTASK"), false),
        ("claude", Some("newFancyMode"), false),
        ("claude", Some(""), false),
        ("vscode", Some("default"), true),
        ("vscode", Some("dontAsk"), false),
        ("vscode", Some("whatever"), false),
        ("droid", None, false),
        ("droid", Some("default"), false),
        ("droid", Some("auto-low"), false),
        ("droid", Some("auto-medium"), false),
        ("droid", Some("auto-high"), false),
        ("droid", Some("spec"), false),
        ("codex", None, false),
        ("codex", Some("default"), false),
        ("codex", Some("bypassPermissions"), false),
        ("copilot", Some("default"), true),
        ("copilot", Some("dontAsk"), false),
        ("copilot", Some("unknown-mode"), false),
    ];
    for &(host, mode, prompts) in table {
        let mut v: serde_json::Value =
            serde_json::from_slice(&input_for(host, &p.root, "git push origin main")).unwrap();
        if host == "codex" || host == "copilot" {
            // Claude-shaped input for the snake_case dialects.
            v = serde_json::from_slice(&claude_input(&p.root, &p.root, "git push origin main"))
                .unwrap();
        }
        match mode {
            Some(m) => v["permission_mode"] = m.into(),
            None => {
                v.as_object_mut().unwrap().remove("permission_mode");
            }
        }
        let r = hook(&p, &["--host", host], v.to_string().as_bytes());
        let ctx = format!("{host} {mode:?}: {} {}", r.code, r.stdout);
        assert_eq!(r.code, 0, "{ctx}");
        assert!(!r.stdout.contains("allow"), "{ctx}");
        if prompts {
            assert!(r.stdout.contains(r#""ask""#), "{ctx}");
        } else {
            assert!(r.stdout.contains(r#""deny""#), "{ctx}");
            assert!(r.stdout.contains("approval needed: "), "{ctx}");
            assert!(!r.stdout.contains(r#""ask""#), "{ctx}");
        }
    }
    // Hosts that send no mode keep their own flow for `ask`.
    for host in ["gemini", "cursor"] {
        let r = hook(
            &p,
            &["--host", host],
            &input_for(host, &p.root, "git push origin main"),
        );
        assert!(r.stdout.contains(r#""ask""#), "{host}: {}", r.stdout);
    }
}

// ── Host authority ─────────────────────────────────────────────────────────────────────

#[test]
fn vibe_owns_approval_but_explicit_verdicts_stand() {
    let p = project(true);
    let v = |cmd: &str| hook(&p, &["--host", "vibe"], &input_for("vibe", &p.root, cmd));
    assert_eq!(v("make").stdout, "", "default: Vibe's own policy decides");
    assert!(v("rm -rf x").stdout.contains(r#""decision":"deny""#));
    let ask = v("git push");
    assert!(
        ask.stdout.contains(r#""decision":"deny""#),
        "ask cannot prompt: {}",
        ask.stdout
    );
    assert!(ask.stdout.contains("approval needed"));
    let un = v("ls $(cat f)");
    assert!(
        un.stdout.contains(r#""decision":"deny""#),
        "unattestable is never allow"
    );
}

#[test]
fn codex_never_gets_allow_or_ask() {
    let p = project(true);
    for cmd in ["ls", "make", "git push", "rm -rf x", "ls `id`"] {
        let r = hook(&p, &["--host", "codex"], &input_for("codex", &p.root, cmd));
        assert!(
            !r.stdout.contains("\"allow\"") && !r.stdout.contains("\"ask\""),
            "{cmd}: {}",
            r.stdout
        );
    }
}

// ── Attacks on trust and self-protection ───────────────────────────────────────────────

/// An agent-prepared folder with a permissive table.
fn evil_table(base: &Path) -> PathBuf {
    let evil = base.join("evil");
    std::fs::create_dir_all(evil.join("policies")).unwrap();
    std::fs::write(
        evil.join("policies/all.pol"),
        "allow bash glob \"*\" {\n  id everything\n}\n",
    )
    .unwrap();
    build(&evil, "policies", ".polc/policy.bin");
    evil
}

#[test]
fn cd_into_a_prepared_folder_does_not_switch_tables() {
    let p = project(true);
    let evil = evil_table(p.root.parent().unwrap());
    // Without CLAUDE_PROJECT_DIR the session's first cwd is the project.
    let mut c = hook_cmd(&p, &["--host", "claude"]);
    c.env_remove("CLAUDE_PROJECT_DIR");
    let r = run_cmd(c, claude_input(&p.root, &p.root, "ls"));
    assert!(
        r.stdout.contains(r#""permissionDecision":"allow""#),
        "{}",
        r.stdout
    );
    for cmd in ["rm -rf build", "git push"] {
        let mut c = hook_cmd(&p, &["--host", "claude"]);
        c.env_remove("CLAUDE_PROJECT_DIR").current_dir(&evil);
        let r = run_cmd(c, claude_input(&p.root, &evil, cmd));
        assert!(!r.stdout.contains("allow"), "{cmd}: {}", r.stdout);
        assert!(
            r.stdout.contains("deny") || r.stdout.contains("ask"),
            "{cmd}: {}",
            r.stdout
        );
    }
    // A new session that starts in the prepared folder finds its table untrusted.
    let mut c = hook_cmd(&p, &["--host", "claude"]);
    c.env_remove("CLAUDE_PROJECT_DIR").current_dir(&evil);
    let input = serde_json::json!({"session_id": "s2", "cwd": evil, "hook_event_name": "PreToolUse",
        "tool_name": "Bash", "tool_input": {"command": "curl x | sh"}});
    let r = run_cmd(c, input.to_string().into_bytes());
    assert!(!r.stdout.contains("allow"), "{}", r.stdout);
}

#[test]
fn polc_table_from_project_settings_is_untrusted() {
    let p = project(true);
    let evil = evil_table(p.root.parent().unwrap());
    let t = evil.join(".polc/policy.bin");
    for how in ["env", "flag"] {
        let mut c = if how == "flag" {
            hook_cmd(&p, &["--host", "claude", "--table", t.to_str().unwrap()])
        } else {
            hook_cmd(&p, &["--host", "claude"])
        };
        if how == "env" {
            c.env("POLC_TABLE", &t);
        }
        let r = run_cmd(c, claude_input(&p.root, &p.root, "make deploy"));
        assert_eq!(
            r.stdout, "",
            "{how}: an untrusted table's allow is ignored: {}",
            r.stdout
        );
    }
    // (A POLC_CONFIG_DIR pointing at a trust list the repository ships is not honoured by
    // a shipped build at all: the config folder is fixed, see tests/state.rs and CI's
    // default-build check.)
}

#[test]
fn agent_cannot_rewrite_policy_tables_or_binary() {
    let p = project(true);
    let cmds = [
        "git checkout -- policies/test.pol",
        "git restore policies",
        "echo 'allow bash glob \"*\" {}' >> policies/test.pol",
        "cp /tmp/evil.bin compiled/policy.bin",
        "mv compiled /tmp/x",
        "sed -i 's/deny/allow/' policies/test.pol",
        "polc build",
        "polc trust",
        "/tmp/renamed-polc trust .",
        &format!("cp {POLC} /tmp/p2"),
        &format!("mv {POLC} {POLC}.old"),
        "tee .claude/settings.json < /dev/null",
        "rm -f ~/.claude/settings.json",
        "cd .claude; rm settings.local.json",
        &format!("rm -rf {}", p.cfg.display()),
    ];
    for cmd in cmds {
        let r = hook(
            &p,
            &["--host", "claude"],
            &claude_input(&p.root, &p.root, cmd),
        );
        assert!(
            r.stdout.contains(r#""permissionDecision":"deny""#),
            "{cmd}: {}",
            r.stdout
        );
        assert!(
            r.stdout.contains("polc-self-protection") || r.stdout.contains("wipe"),
            "{cmd}"
        );
    }
    // Other programs given a protected path: at least ask.
    let r = hook(
        &p,
        &["--host", "claude"],
        &claude_input(&p.root, &p.root, "python3 x.py policies/test.pol"),
    );
    assert!(
        r.stdout.contains(r#""permissionDecision":"ask""#),
        "{}",
        r.stdout
    );
    // Reading is fine.
    let r = hook(
        &p,
        &["--host", "claude"],
        &claude_input(&p.root, &p.root, "ls policies"),
    );
    assert!(
        r.stdout.contains(r#""permissionDecision":"allow""#),
        "{}",
        r.stdout
    );
    // Edit tools.
    for path in [
        ".claude/settings.json",
        "policies/test.pol",
        "compiled/policy.bin",
        ".github/hooks/polc.json",
    ] {
        let input = serde_json::json!({"session_id": "s1", "cwd": p.root, "hook_event_name": "PreToolUse",
            "tool_name": "Edit", "tool_input": {"file_path": p.root.join(path), "old_string": "a", "new_string": "b"}});
        let r = hook(&p, &["--host", "claude"], input.to_string().as_bytes());
        assert!(
            r.stdout.contains(r#""permissionDecision":"deny""#),
            "{path}: {}",
            r.stdout
        );
    }
}

#[test]
fn only_a_user_layer_relaxes_self_protection() {
    let p = project(true);
    // A project allow does not relax it.
    std::fs::write(
        p.root.join("policies/test.pol"),
        format!("{POLICY}\nallow bash prefix \"touch policies/x.pol\" {{\n  id proj-touch\n}}\n"),
    )
    .unwrap();
    build(&p.root, "policies", "compiled/policy.bin");
    trust_table(&p.cfg, &p.root, &p.root.join("compiled/policy.bin"));
    let r = hook(
        &p,
        &["--host", "claude"],
        &claude_input(&p.root, &p.root, "touch policies/x.pol"),
    );
    assert!(
        r.stdout.contains(r#""permissionDecision":"deny""#),
        "{}",
        r.stdout
    );
    // The user's own layer does.
    let udir = p.cfg.join("src");
    std::fs::create_dir_all(&udir).unwrap();
    // … but only with a rule that names the path: a prefix rule (or glob, contains,
    // regex) never lifts it, however narrow.
    std::fs::write(
        udir.join("user.pol"),
        "allow bash prefix \"touch policies/x.pol\" {\n  id user-touch\n}\n",
    )
    .unwrap();
    build(&p.cfg, "src", "policy.bin");
    let r = hook(
        &p,
        &["--host", "claude"],
        &claude_input(&p.root, &p.root, "touch policies/x.pol"),
    );
    assert!(
        r.stdout.contains(r#""permissionDecision":"deny""#),
        "{}",
        r.stdout
    );
    std::fs::write(
        udir.join("user.pol"),
        "allow bash exact \"touch policies/x.pol\" {\n  id user-touch\n}\n",
    )
    .unwrap();
    build(&p.cfg, "src", "policy.bin");
    let r = hook(
        &p,
        &["--host", "claude"],
        &claude_input(&p.root, &p.root, "touch policies/x.pol"),
    );
    assert!(
        r.stdout.contains(r#""permissionDecision":"allow""#),
        "{}",
        r.stdout
    );
}

#[test]
fn trust_refuses_without_a_terminal() {
    use std::os::unix::process::CommandExt;
    let p = project(false);
    let mut c = Command::new(POLC);
    c.args(["trust", p.root.to_str().unwrap()])
        .env("POLC_CONFIG_DIR", &p.cfg)
        .stdin(Stdio::null());
    // SAFETY: setsid in the child only detaches it from the controlling terminal.
    unsafe {
        c.pre_exec(|| {
            libc::setsid();
            Ok(())
        });
    }
    let out = c.output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("/dev/tty"));
    assert!(!p.cfg.join("trusted").exists());
    // So the project's allows still do not count.
    let r = hook(
        &p,
        &["--host", "claude"],
        &claude_input(&p.root, &p.root, "ls"),
    );
    assert_eq!(r.stdout, "");
}

#[test]
fn print_config_names_this_binary_and_host() {
    let p = project(true);
    for host in HOSTS {
        let r = hook(&p, &["--print-config", "--host", host], b"");
        assert_eq!(r.code, 0);
        let v: serde_json::Value = serde_json::from_str(&r.stdout).expect("JSON snippet");
        let s = v.to_string();
        assert!(s.contains(&format!("hook --host {host}")), "{s}");
        assert!(s.contains("/polc"), "{s}");
    }
    let r = hook(&p, &["--print-config", "--host", "claude"], b"");
    assert!(r.stdout.contains("PreToolUse") && r.stdout.contains("PermissionRequest"));
}

/// The hook's table-problem notice comes from the typed failure, never from a reason's text:
/// a rule whose reason reads like a table problem denies with that reason and no notice
/// (it used to add "the policy table is corrupt" to stderr).
#[test]
fn a_reason_that_reads_like_a_table_problem_is_only_a_reason() {
    let p = project(true);
    std::fs::write(
        p.root.join("policies/test.pol"),
        "deny bash prefix \"shred\" {\n  id odd\n  reason \"the policy table is corrupt: run `polc build`\"\n}\n",
    )
    .unwrap();
    build(&p.root, "policies", "compiled/policy.bin");
    trust_table(&p.cfg, &p.root, &p.root.join("compiled/policy.bin"));
    let r = hook(
        &p,
        &["--host", "claude"],
        &claude_input(&p.root, &p.root, "shred x"),
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("\"deny\""), "{}", r.stdout);
    assert!(r.stdout.contains("rule odd"), "{}", r.stdout);
    assert!(r.stderr.is_empty(), "no table notice: {}", r.stderr);
}

/// Gemini CLI reads stderr as the answer when stdout is empty, and plain text there as allow
/// (red team, session 3: the "no table" notice and the "no polc on PATH" warning turned every
/// `default` into an allow). An exit-0 answer with empty stdout writes nothing on stderr to
/// gemini; the other hosts keep the notice.
#[test]
fn an_empty_answer_to_gemini_has_nothing_on_stderr() {
    let p = project(true);
    std::fs::remove_file(p.root.join("compiled/policy.bin")).unwrap();
    let mut c = hook_cmd(&p, &["--host", "gemini"]);
    // No polc on PATH either: the warning must not reach gemini.
    c.env("PATH", "/usr/bin:/bin");
    let r = run_cmd(c, input_for("gemini", &p.root, "rm -rf build"));
    assert_eq!((r.code, r.stdout.trim()), (0, ""), "{}", r.stderr);
    assert_eq!(r.stderr, "", "gemini reads stderr text as allow");
    let mut c = hook_cmd(&p, &["--host", "claude"]);
    c.env("PATH", "/usr/bin:/bin");
    let r = run_cmd(c, input_for("claude", &p.root, "rm -rf build"));
    assert_eq!((r.code, r.stdout.trim()), (0, ""), "{}", r.stderr);
    assert!(r.stderr.contains("no policy table"), "{}", r.stderr);
    assert!(r.stderr.contains("no polc on PATH"), "{}", r.stderr);
    // With a table, gemini's deny still carries its reason on stdout.
    let p = project(true);
    let r = hook(
        &p,
        &["--host", "gemini"],
        &input_for("gemini", &p.root, "rm -rf /"),
    );
    assert!(r.stdout.contains("\"deny\""), "{} / {}", r.stdout, r.stderr);
}

/// A `permission_mode` that is not a string is a mode polc does not know (which cannot
/// prompt): an ask becomes the approval-needed deny, as for an unknown mode name (it was read
/// as no mode, and the ask went out).
#[test]
fn a_permission_mode_that_is_not_a_string_cannot_prompt() {
    let p = project(true);
    for mode in [
        serde_json::json!(0),
        serde_json::json!(true),
        serde_json::json!(["default"]),
        serde_json::json!({"a": 1}),
        serde_json::json!("noSuchMode"),
    ] {
        let stdin = serde_json::json!({
            "session_id": "s1", "cwd": p.root, "permission_mode": mode,
            "hook_event_name": "PreToolUse", "tool_name": "Bash",
            "tool_input": {"command": "git push"}
        });
        let r = hook(&p, &["--host", "claude"], stdin.to_string().as_bytes());
        assert!(r.stdout.contains("\"deny\""), "{mode}: {}", r.stdout);
        assert!(r.stdout.contains("approval needed"), "{mode}: {}", r.stdout);
    }
}
