//! `polc lint` and `polc fmt` through the real binary.

use std::path::Path;
use std::process::{Command, Output};

fn polc(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_polc"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("run polc")
}

fn out(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn write(dir: &Path, name: &str, text: &str) {
    let p = dir.join(name);
    if let Some(parent) = p.parent() {
        std::fs::create_dir_all(parent).unwrap();
    }
    std::fs::write(p, text).unwrap();
}

#[test]
fn lint_reports_shadowed_allow_with_caret_and_exits_1() {
    let d = tempfile::tempdir().unwrap();
    write(
        d.path(),
        "p.pol",
        "deny bash prefix \"git push\"\nallow bash prefix \"git push --force\"\n",
    );
    let o = polc(d.path(), &["lint", "p.pol"]);
    assert_eq!(o.status.code(), Some(1), "{}", out(&o));
    let s = out(&o);
    assert!(s.contains("error[L001]"), "{s}");
    assert!(s.contains("--> p.pol:2:1"), "{s}");
    assert!(
        s.contains("2 | allow bash prefix \"git push --force\""),
        "{s}"
    );
    assert!(s.contains("  | ^^^^^"), "{s}");
    assert!(s.contains("= help:"), "{s}");
}

#[test]
fn lint_json_and_warnings_exit_0() {
    let d = tempfile::tempdir().unwrap();
    write(
        d.path(),
        "permcheck.json",
        r#"{"permissions": {"allow": ["Bash(npm test)"], "deny": ["Bash(git push)"]}}"#,
    );
    let o = polc(d.path(), &["lint", "--format", "json", "permcheck.json"]);
    assert_eq!(o.status.code(), Some(0), "{}", out(&o));
    let j: serde_json::Value = serde_json::from_str(&out(&o)).unwrap();
    assert_eq!(j["errors"], 0);
    assert_eq!(j["warnings"], 2);
    let codes: Vec<&str> = j["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["code"].as_str().unwrap())
        .collect();
    assert_eq!(codes, vec!["L004", "L012", "L005"]);
    assert_eq!(j["diagnostics"][0]["file"], "permcheck.json");
    assert!(j["diagnostics"][0]["help"]
        .as_str()
        .unwrap()
        .contains("Bash(npm test:*)"));
}

#[test]
fn lint_every_error_code_through_the_binary() {
    let d = tempfile::tempdir().unwrap();
    for (text, code) in [
        ("allow bash glob \"python *\"\n", "L006"),
        ("allow bash glob \"* --help\"\n", "L007"),
        ("deny bash prefix \"a\"\ndeny bash glob \"a *\"\n", "L002"),
        (
            "deny bash prefix \"a b\"\nallow bash prefix \"a\"\n",
            "L003",
        ),
    ] {
        write(d.path(), "p.pol", text);
        let o = polc(d.path(), &["lint", "p.pol"]);
        let s = out(&o);
        assert!(s.contains(&format!("[{code}]")), "{code}: {s}");
        let want = if matches!(code, "L006" | "L007") {
            1
        } else {
            0
        };
        assert_eq!(o.status.code(), Some(want), "{code}: {s}");
    }
}

#[test]
fn lint_host_claude_flags_overlap_with_claude_ask() {
    let d = tempfile::tempdir().unwrap();
    write(d.path(), "p.pol", "allow bash prefix \"git\"\n");
    write(
        d.path(),
        ".claude/settings.json",
        r#"{"permissions": {"ask": ["Bash(git push:*)"]}}"#,
    );
    let o = polc(
        d.path(),
        &["lint", "--host", "claude", "p.pol", ".claude/settings.json"],
    );
    assert_eq!(o.status.code(), Some(0));
    assert!(out(&o).contains("warning[L008]"), "{}", out(&o));
    let o = polc(d.path(), &["lint", "p.pol", ".claude/settings.json"]);
    assert!(!out(&o).contains("L008"));
    let o = polc(d.path(), &["lint", "--host", "nosuch", "p.pol"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn lint_load_errors_exit_1() {
    let d = tempfile::tempdir().unwrap();
    write(d.path(), "p.pol", "deny bsah prefix \"x\"\n");
    let o = polc(d.path(), &["lint", "p.pol"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(out(&o).contains("E003"));
}

#[test]
fn lint_shipped_policy_is_clean() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for args in [&["lint"][..], &["lint", "--host", "claude"][..]] {
        let o = polc(root, args);
        assert_eq!(o.status.code(), Some(0), "{}", out(&o));
        // Only notes: the shipped build and test allows run code the agent can write (L012).
        let text = out(&o);
        assert!(
            !text.contains("error[") && !text.contains("warning["),
            "{text}"
        );
        assert_eq!(text.matches("note[L012]").count(), 8, "{text}");
    }
}

#[test]
fn lint_lists_rules_that_lift_self_protection() {
    let d = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(d.path().join("policies")).unwrap();
    std::fs::write(
        d.path().join("policies/p.pol"),
        "allow edit glob \"./.claude/**\" { id a }\nallow bash exact \"cp x .claude/settings.json\" { id b }\nallow edit glob \"**\" { id c }\nallow edit glob \"./.cl*\" { id d }\nallow bash prefix \"make\" { id e }\nallow bash exact \"ls\" { id f }\n",
    )
    .unwrap();
    let o = polc(d.path(), &["lint"]);
    let text = out(&o);
    assert_eq!(text.matches("warning[L011]").count(), 2, "{text}");
    assert!(
        text.contains("note[L012]") && text.contains("`make`"),
        "{text}"
    );
}

const MESSY: &str = "# head\nallow bash prefix 'ls' { id  l ; example \"ls\"=>allow }  # t\ndeny bash prefix \"rm\"\n";
const TIDY: &str = "# head\nallow bash prefix \"ls\" {\n  id      l\n  example \"ls\" => allow\n} # t\n\ndeny bash prefix \"rm\"\n";

#[test]
fn fmt_check_names_files_and_rewrites() {
    let d = tempfile::tempdir().unwrap();
    write(d.path(), "a.pol", MESSY);
    write(d.path(), "sub/b.pol", TIDY);
    let o = polc(d.path(), &["fmt", "--check", "."]);
    assert_eq!(o.status.code(), Some(1));
    let s = out(&o);
    assert!(s.contains("a.pol") && !s.contains("b.pol"), "{s}");
    assert_eq!(
        std::fs::read_to_string(d.path().join("a.pol")).unwrap(),
        MESSY
    );
    let o = polc(d.path(), &["fmt", "a.pol"]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(
        std::fs::read_to_string(d.path().join("a.pol")).unwrap(),
        TIDY
    );
    // No temporary file is left behind.
    let names: Vec<_> = std::fs::read_dir(d.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names.len(), 2, "{names:?}");
    let o = polc(d.path(), &["fmt", "--check", "a.pol", "sub"]);
    assert_eq!(o.status.code(), Some(0));
}

#[test]
fn fmt_leaves_files_with_syntax_errors_alone() {
    let d = tempfile::tempdir().unwrap();
    let bad = "allow  bash prefix \"ls\"\ndeny bash prefix \"x\" junk\n";
    write(d.path(), "bad.pol", bad);
    let o = polc(d.path(), &["fmt", "bad.pol"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("E001"));
    assert_eq!(
        std::fs::read_to_string(d.path().join("bad.pol")).unwrap(),
        bad
    );
}

#[test]
fn fmt_shipped_policy_is_formatted() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let o = polc(root, &["fmt", "--check"]);
    assert_eq!(o.status.code(), Some(0), "{}", out(&o));
}
