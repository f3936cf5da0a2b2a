//! The compiler core through the real binary: build, check, test, explain, decide.

mod common;
use common::Project;

fn strs(v: &serde_json::Value) -> Vec<String> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_str().unwrap().to_string())
        .collect()
}

fn vectors(name: &str) -> Vec<serde_json::Value> {
    let text =
        std::fs::read_to_string(common::root().join("tests/conformance").join(name)).unwrap();
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn project_for(rules: &serde_json::Value) -> Project {
    let p = Project::new();
    let json = serde_json::json!({"permissions": {"allow": strs(&rules["allow"]), "ask": strs(&rules["ask"]), "deny": strs(&rules["deny"])}});
    p.write("policies/permcheck.json", &json.to_string());
    p.build_trusted();
    p
}

#[test]
fn exit_code_vectors() {
    let vs = vectors("exit-codes.jsonl");
    assert_eq!(vs.len(), 20);
    for v in vs {
        let p = project_for(&v["rules"]);
        let cmd = v["command"].as_str().unwrap();
        let host = v["host"].as_str().unwrap();
        let got = p.run(&["decide", "--host", host, "--", cmd]).code();
        assert_eq!(
            got as i64,
            v["exit"].as_i64().unwrap(),
            "vector {} ({cmd:?} on {host})",
            v["id"]
        );
    }
}

#[test]
fn claude_rule_vectors_through_the_binary() {
    let vs = vectors("claude-rules.jsonl");
    assert_eq!(vs.len(), 75);
    for v in vs {
        let p = project_for(&v["rules"]);
        let cmd = v["command"].as_str().unwrap();
        let r = p.run(&[
            "explain",
            "--table",
            "compiled/policy.bin",
            "--format",
            "json",
            "--",
            cmd,
        ]);
        let j = r.json();
        if j["winner"]["id"] == "polc-self-protection" {
            // Self-protection (docs/contract.md#c-self-protection) is stricter than the rules alone: `rm -rf ~` deletes
            // the agents' hook configuration. The safer reading wins; the rules alone are
            // checked against the vector in-process (src/runtime/tests.rs).
            let rank = |d: &str| {
                ["default", "allow", "ask", "deny"]
                    .iter()
                    .position(|x| *x == d)
                    .unwrap()
            };
            assert!(
                rank(j["decision"].as_str().unwrap()) >= rank(v["expect"].as_str().unwrap()),
                "vector {}",
                v["id"]
            );
            assert!(
                cmd.contains("rm -rf ~") || cmd.contains("rm -rf /"),
                "only deleting home or root touches protected paths: {}",
                v["id"]
            );
            continue;
        }
        assert_eq!(j["decision"], v["expect"], "vector {} ({cmd:?})", v["id"]);
    }
}

#[test]
fn decide_takes_trailing_words() {
    let p = project_for(
        &serde_json::json!({"allow": ["Bash(ls *)", "Bash(head *)"], "ask": [], "deny": []}),
    );
    p.run(&["decide", "ls", "-al"]).exits(0);
    p.run(&["decide", "head", "-50", "file.txt"]).exits(0);
    p.run(&["decide", "--host", "claude", "--", "ls", "-al"])
        .exits(0);
    p.run(&["decide", "--", "rm", "-rf", "x"]).exits(3);
    p.run(&["decide", "--host", "nosuch", "--", "ls"])
        .exits(2)
        .stderr_has("unknown host");
    p.cmd(&[]).output().unwrap();
    let r = p
        .cmd(&["decide", "--", "ls"])
        .env("POLC_HOST", "openclaw")
        .output()
        .unwrap();
    assert_eq!(r.status.code(), Some(0));
}

#[test]
fn decide_without_any_table_is_1_and_a_named_missing_table_is_2() {
    let p = Project::new();
    p.run(&["decide", "--", "ls"])
        .exits(1)
        .stderr_has("no polc table");
    p.run(&["decide", "--table", "nope.bin", "--", "ls"])
        .exits(2)
        .stderr_has("nope.bin");
    let r = p
        .cmd(&["decide", "--", "ls"])
        .env("POLC_TABLE", p.path("missing.bin"))
        .output()
        .unwrap();
    assert_eq!(r.status.code(), Some(2));
}

fn built(policy: &str) -> Project {
    let p = Project::new();
    p.write("policies/main.pol", policy);
    p.build_trusted();
    p
}

const SMALL: &str = "allow bash prefix \"git status\"\ndeny bash prefix \"rm -rf\" {\n  id no-rm\n  reason \"no\"\n  example \"rm -rf x\" => deny\n}\n";

#[test]
fn broken_tables_fail_closed_with_one_line() {
    let p = built(SMALL);
    let table = p.path("compiled/policy.bin");
    let good = std::fs::read(&table).unwrap();
    p.run(&["decide", "--", "git status"]).exits(0);
    let cases: Vec<(&str, Vec<u8>)> = vec![
        ("truncated", good[..good.len() / 2].to_vec()),
        ("empty", Vec::new()),
        ("flipped", {
            let mut b = good.clone();
            let i = b.len() - 7;
            b[i] ^= 0x40;
            b
        }),
        ("version", {
            let mut b = good.clone();
            b[8] = b[8].wrapping_add(1);
            b
        }),
        ("garbage", b"not a table at all".to_vec()),
    ];
    for (what, bytes) in cases {
        std::fs::write(&table, &bytes).unwrap();
        let r = p.run(&["decide", "--", "git status"]);
        assert_eq!(r.code(), 2, "{what}: {}", r.stderr());
        assert_eq!(
            r.stderr().trim().lines().count(),
            1,
            "{what}: one line: {}",
            r.stderr()
        );
        assert!(
            r.stderr().contains("polc build"),
            "{what}: says what to run: {}",
            r.stderr()
        );
    }
    // A directory or a FIFO where the table should be: no hang, deny.
    std::fs::remove_file(&table).unwrap();
    std::fs::create_dir(&table).unwrap();
    p.run(&["decide", "--", "git status"]).exits(2);
}

#[test]
fn stale_table_fails_closed() {
    let p = built(SMALL);
    p.run(&["decide", "--", "git status"]).exits(0);
    p.write(
        "policies/main.pol",
        &format!("{SMALL}allow bash prefix \"ls\"\n"),
    );
    p.run(&["decide", "--", "git status"])
        .exits(2)
        .stderr_has("polc build");
    p.run(&["build"]).exits(0);
    p.trust("compiled/policy.bin");
    p.run(&["decide", "--", "ls"]).exits(0);
}

#[test]
fn untrusted_table_grants_nothing() {
    let p = Project::new();
    p.write("policies/main.pol", SMALL);
    p.run(&["build"]).exits(0);
    // Not trusted: allows ignored (default → 3), denies still apply.
    p.run(&["decide", "--", "git status"]).exits(3);
    p.run(&["decide", "--", "rm -rf /tmp/x"]).exits(2);
    p.trust("compiled/policy.bin");
    p.run(&["decide", "--", "git status"]).exits(0);
    // Trust is for that exact table: a rebuilt, different table is untrusted again.
    p.write(
        "policies/main.pol",
        &format!("{SMALL}allow bash prefix \"ls\"\n"),
    );
    p.run(&["build"]).exits(0);
    p.run(&["decide", "--", "ls"]).exits(3);
}

#[test]
fn build_check_and_determinism() {
    let p = built(SMALL);
    let first = std::fs::read(p.path("compiled/policy.bin")).unwrap();
    p.run(&["build", "--check"]).exits(0);
    p.run(&["build"]).exits(0);
    assert_eq!(
        first,
        std::fs::read(p.path("compiled/policy.bin")).unwrap(),
        "same sources, same bytes"
    );
    p.write(
        "policies/main.pol",
        &format!("{SMALL}# a comment changes the source hash\n"),
    );
    p.run(&["build", "--check"])
        .exits(1)
        .stderr_has("polc build");
    assert_eq!(
        first,
        std::fs::read(p.path("compiled/policy.bin")).unwrap(),
        "--check writes nothing"
    );
}

#[test]
fn shipped_policy_is_fresh_and_explains_force_push() {
    let root = common::root();
    let out = std::process::Command::new(common::polc_bin())
        .args(["build", "--check"])
        .current_dir(root)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = std::process::Command::new(common::polc_bin())
        .args([
            "explain",
            "--format",
            "json",
            "--",
            "git push --force origin main",
        ])
        .current_dir(root)
        .output()
        .unwrap();
    let j: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(j["decision"], "deny");
    assert_eq!(j["winner"]["id"], "no-force-push");
    assert!(j["winner"]["source"]
        .as_str()
        .unwrap()
        .ends_with("default.pol"));
    assert!(j["winner"]["line"].as_u64().unwrap() > 0);
    assert!(j["segments"][0]["verdict"] == "deny");
}

#[test]
fn bad_policies_write_nothing_and_say_where() {
    let p = built(SMALL);
    let before = std::fs::read(p.path("compiled/policy.bin")).unwrap();
    let cases: &[(&str, &[u8], &str)] = &[
        (
            "syntax",
            b"deny bash prefix \"x\" {\n  reason\n}\n",
            "main.pol:",
        ),
        ("verdict", b"permit bash prefix \"x\"\n", "main.pol:1:1"),
        ("tool", b"deny bsah prefix \"x\"\n", "unknown tool"),
        ("empty", b"deny bash prefix \"\"\n", "E005"),
        ("regex", b"deny bash regex '(a'\n", "E006"),
        ("lookaround", b"deny bash regex 'a(?=b)'\n", "main.pol:1"),
        (
            "example",
            b"deny bash prefix \"rm\" {\n  example \"ls\" => deny\n}\n",
            "main.pol:2",
        ),
        (
            "dup",
            b"deny bash prefix \"a\" {\n  id x\n}\ndeny bash prefix \"b\" {\n  id x\n}\n",
            "E007",
        ),
        ("utf8", b"deny bash prefix \"\xff\"\n", "E008"),
    ];
    for (what, src, needle) in cases {
        p.write_bytes("policies/main.pol", src);
        let r = p.run(&["build"]);
        assert_eq!(r.code(), 1, "{what}: {}", r.stderr());
        assert!(
            r.stderr().contains(needle),
            "{what}: stderr lacks {needle:?}:\n{}",
            r.stderr()
        );
        assert!(
            r.stderr().contains('^'),
            "{what}: has a caret:\n{}",
            r.stderr()
        );
        assert_eq!(
            before,
            std::fs::read(p.path("compiled/policy.bin")).unwrap(),
            "{what}: previous table intact"
        );
    }
    // Several semantic errors at once.
    p.write(
        "policies/main.pol",
        "deny bsah prefix \"x\"\ndeny bash prefix \"\"\ndeny bash regex '(a'\n",
    );
    let r = p.run(&["build"]).exits(1);
    for code in ["E003", "E005", "E006"] {
        assert!(r.stderr().contains(code), "missing {code}: {}", r.stderr());
    }
    // An unreadable source.
    let r = p.run(&["build", "no/such/dir"]).exits(1);
    assert!(r.stderr().contains("E002"), "{}", r.stderr());
}

#[test]
fn polc_test_reports_each_example() {
    let p = Project::new();
    p.write(
        "policies/main.pol",
        "deny bash prefix \"rm\" {\n  example \"rm x\" => deny\n  example \"ls\" => deny\n}\nexample \"ls\" => default\n",
    );
    let r = p.run(&["test"]).exits(1);
    let out = r.stdout();
    assert!(out.contains("ok   ") && out.contains("FAIL "), "{out}");
    assert!(out.contains("main.pol:3:"), "{out}");
    assert!(out.contains("2 passed, 1 failed"), "{out}");
}

#[test]
fn claude_settings_file_builds() {
    let p = Project::new();
    p.write(
        ".claude/settings.json",
        r#"{"model": "opus", "env": {"X": "1"}, "hooks": {"PreToolUse": []},
            "permissions": {"allow": ["Bash(npm test)", "Read(./src/**)", "WebFetch(domain:docs.rs)"],
                            "deny": ["Bash(curl:*)", "Read(./.env)", "mcp__github__delete_repo"]}}"#,
    );
    p.run(&["build", ".claude/settings.json"]).exits(0);
    p.trust("compiled/policy.bin");
    p.run(&["decide", "--", "npm test"]).exits(0);
    p.run(&["decide", "--", "curl x"]).exits(2);
    // Claude settings rules apply to claude and vscode only.
    p.run(&["decide", "--host", "gemini", "--", "curl x"])
        .exits(3);
}

#[test]
fn explain_text_names_rule_and_losers() {
    let p = built("allow bash prefix \"git\"\nask bash prefix \"git push\"\ndeny bash prefix \"git push --force\" {\n  id nf\n  reason \"history\"\n}\n");
    let r = p.run(&["explain", "--", "git push --force"]).exits(2);
    let out = r.stdout();
    assert!(out.contains("decision: deny"), "{out}");
    assert!(out.contains("nf (deny)"), "{out}");
    assert!(out.contains("main.pol:3:1"), "{out}");
    assert!(out.contains("reason:   history"), "{out}");
    assert!(out.contains("ask loses to deny"), "{out}");
    assert!(out.contains("allow loses to deny"), "{out}");
    let r = p.run(&["explain", "--", "git status $(rm -rf x)"]).exits(0);
    assert!(r.stdout().contains("cannot attest"), "{}", r.stdout());
}

#[test]
fn init_refuses_in_a_test_build_and_changes_nothing() {
    // `cargo test` builds polc with `test-paths`, which refuses to install itself
    // (runtime::state::refuse_install); the file is left byte for byte.
    let p = Project::new();
    let orig = "{\n  \"model\": \"opus\"\n}\n";
    p.write(".claude/settings.json", orig);
    for args in [
        &["init", "--host", "claude"][..],
        &["init", "--uninstall", "--host", "claude"][..],
        &["init", "--host", "gemini", "--scope", "user"][..],
    ] {
        p.run(args).exits(2).stderr_has("refusing to install");
    }
    assert_eq!(
        std::fs::read_to_string(p.path(".claude/settings.json")).unwrap(),
        orig
    );
    assert!(!p.path(".claude/settings.json.polc-backup").exists());
}

#[test]
fn test_json_and_github_formats() {
    // One passing and one failing example.
    let p = Project::new();
    p.write(
        "policies/main.pol",
        "allow bash prefix \"git status\" {\n  example \"git status\" => allow\n}\ndeny bash prefix \"rm -rf\" {\n  id no-rm\n  example \"rm -rf x\" => deny\n  example \"rm -r x\" => deny\n}\n",
    );
    let r = p.run(&["test", "--format", "json"]).exits(1);
    let v = r.json();
    assert_eq!(v["passed"], 2, "{v:#}");
    assert_eq!(v["failed"], 1, "{v:#}");
    let ex = v["examples"].as_array().unwrap();
    assert_eq!(ex.len(), 3);
    let bad = ex.iter().find(|e| e["ok"] == false).unwrap();
    assert_eq!(bad["input"], "rm -r x");
    assert_eq!(bad["expect"], "deny");
    assert_eq!(bad["got"], "default");
    assert_eq!(bad["line"], 7, "{bad:#}");
    assert!(bad["file"].as_str().unwrap().ends_with("main.pol"));
    assert!(bad["host"].is_null());
    let good = ex.iter().find(|e| e["ok"] == true).unwrap();
    assert!(good["detail"].is_null());
    // GitHub annotations: one error on the failing example's line.
    let r = p.run(&["test", "--format", "github"]).exits(1);
    let ann: Vec<String> = r
        .stdout()
        .lines()
        .filter(|l| l.starts_with("::"))
        .map(str::to_string)
        .collect();
    assert_eq!(ann.len(), 1, "{}", r.stdout());
    assert!(
        ann[0].starts_with("::error file=") && ann[0].contains("main.pol,line=7,col="),
        "{}",
        ann[0]
    );
    assert!(ann[0].contains("title=polc test E021::"), "{}", ann[0]);
    assert!(ann[0].contains("expected deny, got default"), "{}", ann[0]);
    // build refuses the failing example, annotated the same way.
    let r = p.run(&["build", "--format", "github"]).exits(1);
    assert!(
        r.stdout().contains("title=polc build E021::"),
        "{}",
        r.stdout()
    );
    // All passing: json says so and exits 0; github prints no annotation.
    p.write(
        "policies/main.pol",
        "deny bash prefix \"rm -rf\" {\n  example \"rm -rf x\" => deny\n}\n",
    );
    let v = p.run(&["test", "--format", "json"]).exits(0).json();
    assert_eq!(v["failed"], 0);
    let r = p.run(&["test", "--format", "github"]).exits(0);
    assert!(!r.stdout().contains("::error"), "{}", r.stdout());
    // build --check against a stale table is annotated.
    p.run(&["build"]).exits(0);
    p.write(
        "policies/main.pol",
        "deny bash prefix \"rm -rf\" {\n  example \"rm -rf y\" => deny\n}\n",
    );
    let r = p.run(&["build", "--check", "--format", "github"]).exits(1);
    assert!(
        r.stdout()
            .contains("::error file=compiled/policy.bin,title=polc build --check::"),
        "{}",
        r.stdout()
    );
    p.run(&["build", "--format", "json"]).exits(2);
    // A syntax error is annotated at its line.
    p.write("policies/main.pol", "allow bash prefix\n");
    let r = p.run(&["test", "--format", "github"]).exits(1);
    assert!(r.stdout().contains("::error file="), "{}", r.stdout());
    assert!(r.stdout().contains(",line=1,"), "{}", r.stdout());
}

#[test]
fn lint_github_annotations() {
    let p = Project::new();
    // A duplicate rule: a lint finding with a location.
    p.write(
        "policies/main.pol",
        "allow bash prefix \"git status\"\nallow bash prefix \"git status\"\n",
    );
    let text = p.run(&["lint", "--format", "json"]).json();
    let r = p.run(&["lint", "--format", "github"]);
    let out = r.stdout();
    let ann: Vec<&str> = out.lines().filter(|l| l.starts_with("::")).collect();
    let n = text["diagnostics"].as_array().unwrap().len();
    assert!(n > 0, "{text:#}");
    assert_eq!(ann.len(), n, "{}", r.stdout());
    assert!(r.stdout().contains("title=polc lint L"), "{}", r.stdout());
    assert!(r.stdout().contains("main.pol,line="), "{}", r.stdout());
}
