//! docs/contract.md#c-differential: the segmenter checked against bash's own parser, never by running the
//! command. `bash --pretty-print FILE` (bash ≥ 5.2) parses a script and prints it back
//! normalised (spacing, redirections moved after the words, comments dropped). Two checks:
//!
//! 1. polc finds the same segments, with the same words, in the original and in bash's
//!    rendering of it (so operators, quotes, redirections and comments are read as bash
//!    reads them);
//! 2. where bash reports a syntax error, polc never allows the command.

use polc::shell::{self, analyse_segment};
use proptest::prelude::*;
use std::process::Command;

fn bash_pretty(script: &str) -> Option<Result<String, String>> {
    let dir = tempfile::tempdir().ok()?;
    let f = dir.path().join("s.sh");
    std::fs::write(&f, script).ok()?;
    let out = Command::new("bash")
        .arg("--pretty-print")
        .arg(&f)
        .output()
        .ok()?;
    if out.status.success() {
        Some(Ok(String::from_utf8_lossy(&out.stdout).into_owned()))
    } else {
        Some(Err(String::from_utf8_lossy(&out.stderr).into_owned()))
    }
}

fn bash_available() -> bool {
    matches!(bash_pretty("true"), Some(Ok(_)))
}

/// Each segment's literal words (what allow rules see), leading reserved words removed
/// (bash prints `then`/`do` on lines of their own), sorted so bash's reordering of nested
/// commands does not matter; and whether anything in the command is unattestable.
fn shape(cmd: &str) -> (Vec<Vec<String>>, bool) {
    const RESERVED: &[&str] = &[
        "if", "then", "elif", "else", "fi", "do", "done", "while", "until", "for", "case", "esac",
        "!", "{", "}",
    ];
    let p = shell::parse(cmd);
    let mut unattestable = !p.unattestable.is_empty();
    let mut v: Vec<Vec<String>> = Vec::new();
    for s in p.segments.iter().filter(|s| !s.deny_only) {
        unattestable |= !analyse_segment(s).unattestable.is_empty();
        let skip = s
            .words
            .iter()
            .take_while(|w| w.unquoted().is_some_and(|u| RESERVED.contains(&u)))
            .count();
        let words: Vec<String> = s.words[skip..].iter().map(|w| w.lit_value()).collect();
        if !words.is_empty() {
            v.push(words);
        }
    }
    v.sort();
    (v, unattestable)
}

fn allowed_by_allow_all(cmd: &str) -> bool {
    let mut p = polc::ir::Policy::default();
    p.rules.push(polc::ir::Rule {
        id: "all".into(),
        verdict: polc::ir::Verdict::Allow,
        tool: "bash".into(),
        patterns: vec![polc::ir::Pattern {
            kind: polc::ir::PatternKind::Glob,
            text: "*".into(),
        }],
        reason: None,
        priority: 0,
        hosts: vec![],
        tags: vec![],
        text: "allow *".into(),
        span: Default::default(),
        tier: polc::ir::Tier::Project,
    });
    let r = polc::runtime::interp::Reference::new(&p);
    let out = polc::runtime::decide(
        &r,
        "claude",
        &polc::runtime::Request::Bash {
            command: cmd.into(),
        },
    )
    .unwrap();
    out.decision == polc::ir::Decision::Allow
}

fn check(cmd: &str) -> Result<(), String> {
    match bash_pretty(cmd) {
        None => Ok(()),
        Some(Err(e)) => {
            if allowed_by_allow_all(cmd) {
                Err(format!(
                    "bash rejects {cmd:?} ({}) but polc would allow it",
                    e.trim()
                ))
            } else {
                Ok(())
            }
        }
        Some(Ok(pretty)) => {
            let (a, b) = (shape(cmd), shape(&pretty));
            if a == b {
                Ok(())
            } else {
                Err(format!(
                    "segments differ\n  original {cmd:?}: {a:?}\n  bash's   {pretty:?}: {b:?}"
                ))
            }
        }
    }
}

const PIECES: &[&str] = &[
    "git",
    "status",
    "push",
    "--force",
    "ls",
    "-la",
    "'a b'",
    "\"x y\"",
    "r\\m",
    "echo",
    "cat",
    "2>&1",
    ">/dev/null",
    ">out",
    "<in",
    "&>log",
    "$X",
    "\"$HOME/x\"",
    "FOO=1",
    "sudo",
    "a#b",
    "#c",
    "{a,b}",
    "x=1",
    "'it''s'",
    "\"a'b\"",
    "--opt=\"v w\"",
];
// Not generated: `\&` and `\;` inside `{ …; }` — bash 5.2's printer drops the `;` after them
// (`{ \&; }` prints as `{ \& }`), a rendering bug in bash, not a parse difference.
const OPS: &[&str] = &[" && ", " || ", "; ", " | ", " & ", "\n", " "];

fn command() -> impl Strategy<Value = String> {
    prop::collection::vec(
        (
            prop::collection::vec(prop::sample::select(PIECES), 1..5),
            prop::sample::select(OPS),
            any::<bool>(),
        ),
        1..4,
    )
    .prop_map(|segs| {
        let mut s = String::new();
        for (i, (ws, op, group)) in segs.iter().enumerate() {
            if i > 0 {
                s.push_str(op);
            }
            let body = ws.join(" ");
            if *group && i % 2 == 1 {
                s.push_str(&format!("( {body} )"));
            } else if *group {
                s.push_str(&format!("{{ {body}; }}"));
            } else {
                s.push_str(&body);
            }
        }
        s
    })
}

#[test]
fn fixed_cases_agree_with_bash() {
    if !bash_available() {
        eprintln!("skipping: bash --pretty-print (bash >= 5.2) is not available");
        return;
    }
    let cases = [
        "git status && git push --force; ls | wc -l",
        "echo \"a b\" 'c d' e\\ f",
        ">out git push --force",
        "2>/dev/null git status",
        "{ 2>&1 git push --force ; }",
        "ls && { 2>&1 git push --force ; }",
        "(git status; cargo build)",
        "git status # comment && rm -rf /",
        "git status # \\\nrm -rf ~",
        "echo a\\\nb",
        "cat file |& rm -rf /",
        "cargo build &",
        "a=1 b=2 env",
        "echo $(ls; pwd) `id`",
        "! git status",
        "echo 'unterminated",
        "echo \"unterminated",
        "ls )",
        "&& ls",
        "ls ;;",
        "echo ${x",
        "cat <<EOF\nhello\nEOF",
        "if true; then ls; fi",
        "for f in a b; do echo $f; done",
        "echo >",
        "ls |",
        "( ls",
    ];
    let mut failures = Vec::new();
    for c in cases {
        if let Err(e) = check(c) {
            failures.push(e);
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]
    #[test]
    fn random_commands_agree_with_bash(cmd in command()) {
        if bash_available() {
            if let Err(e) = check(&cmd) {
                prop_assert!(false, "{}", e);
            }
        }
    }
}
