use super::*;
use crate::ir::Tier;

/// Errors and warnings (notes such as L012 are tested on their own).
fn lint_with(name: &str, text: &str, host: Option<&str>) -> Diagnostics {
    let (policy, _) = crate::lower::load_str(name, text, Tier::Project)
        .unwrap_or_else(|d| panic!("{}", d.render_all()));
    let texts = HashMap::from([(name.to_string(), text.to_string())]);
    let mut d = lint(
        &policy,
        &Options {
            host: host.map(str::to_string),
        },
        &texts,
    );
    d.0.retain(|d| d.severity != crate::syntax::Severity::Note);
    d
}

fn codes(name: &str, text: &str) -> Vec<(crate::syntax::codes::Code, u32, u32)> {
    lint_with(name, text, None)
        .0
        .iter()
        .map(|d| (d.code, d.span.line, d.span.column))
        .collect()
}

#[test]
fn l001_allow_under_broader_deny() {
    let text = "deny bash prefix \"git push\"\nallow bash prefix \"git push --force\"\n";
    let d = lint_with("t.pol", text, None);
    assert_eq!(d.len(), 1, "{}", d.render_all());
    let f = &d.0[0];
    assert_eq!(
        (f.code, f.span.line, f.span.column),
        (crate::syntax::codes::L001, 2, 1)
    );
    assert!(f.is_error());
    assert!(f.message.contains("t.pol:1"), "{}", f.message);
    assert!(
        f.render().contains("^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^"),
        "{}",
        f.render()
    );
    assert!(f.help.is_some());
}

#[test]
fn l001_exactness() {
    // Word-bounded: `git pushy` is not under `git push`, so `git push*` can still win (it is
    // broader than the deny above it: L003, a warning).
    assert_eq!(
        codes(
            "t.pol",
            "deny bash prefix \"git push\"\nallow bash glob \"git push*\"\n"
        ),
        vec![(crate::syntax::codes::L003, 2, 1)]
    );
    // Ask under deny; the deny's program is folded, the ask's too.
    assert_eq!(
        codes(
            "t.pol",
            "deny bash prefix \"RM\"\nask bash exact \"rm -rf x\"\n"
        ),
        vec![(crate::syntax::codes::L001, 2, 1)]
    );
    // A union of rules covers what neither does alone.
    let u = "deny bash glob \"rm -r *\"\nask bash glob \"rm -f *\"\nallow bash glob \"rm -[rf] x\" glob \"rm -r x\" glob \"rm -f *\"\n";
    assert!(codes("t.pol", u).is_empty(), "{:?}", codes("t.pol", u));
    let u = "deny bash glob \"rm -r *\"\nask bash glob \"rm -f *\"\nallow bash exact \"rm -r x\" exact \"rm -f y\"\n";
    let d = lint_with("t.pol", u, None);
    assert_eq!(d.len(), 1, "{}", d.render_all());
    assert!(d.0[0].message.contains("together"), "{}", d.0[0].message);
    // Hosts: a deny for claude alone does not shadow an allow for every host.
    assert!(codes(
        "t.pol",
        "deny bash prefix \"git\" { hosts claude }\nallow bash prefix \"git status\"\n"
    )
    .is_empty());
    assert_eq!(
        codes(
            "t.pol",
            "deny bash prefix \"git\"\nallow bash prefix \"git status\" { hosts codex }\n"
        ),
        vec![(crate::syntax::codes::L001, 2, 1)]
    );
    // A program written with a path is folded to its basename in the deny readings.
    assert_eq!(
        codes(
            "t.pol",
            "deny bash prefix \"rm\"\nallow bash prefix \"/bin/rm x\"\n"
        ),
        vec![(crate::syntax::codes::L001, 2, 1)]
    );
    // Content patterns are never claimed covered, except by a deny of everything.
    assert!(codes(
        "t.pol",
        "deny bash prefix \"cat\"\nallow bash contains \"cat\"\n"
    )
    .is_empty());
    // Other tools: `Read` (any) in deny covers an allow glob.
    assert_eq!(
        codes(
            "permcheck.json",
            r#"{"permissions": {"deny": ["mcp__github"], "allow": ["mcp__github__get_issue"]}}"#
        ),
        vec![(crate::syntax::codes::L001, 1, 53)]
    );
}

#[test]
fn l002_duplicates() {
    let text = "deny bash glob \"git *\"\ndeny bash prefix \"git\" { id again }\nask bash prefix \"git\"\n";
    let d = lint_with("t.pol", text, None);
    let c: Vec<_> = d.iter().map(|d| (d.code, d.span.line)).collect();
    assert!(
        c.contains(&(crate::syntax::codes::L002, 2)),
        "{}",
        d.render_all()
    );
    assert!(!c.contains(&(crate::syntax::codes::L002, 3)));
    assert!(d
        .0
        .iter()
        .find(|d| d.code == crate::syntax::codes::L002)
        .unwrap()
        .message
        .contains("t.pol:1:1"));
    assert!(!d.has_errors() || c.iter().any(|c| c.0 == crate::syntax::codes::L001));
}

#[test]
fn l003_broad_allow_under_deny() {
    let text = "deny bash prefix \"git push --force\"\nallow bash prefix \"git\"\n";
    let d = lint_with("t.pol", text, None);
    assert_eq!(d.len(), 1, "{}", d.render_all());
    assert_eq!(
        (d.0[0].code, d.0[0].span.line),
        (crate::syntax::codes::L003, 2)
    );
    assert!(!d.has_errors());
    // Written above the deny, it reads the way polc decides: no finding.
    assert!(codes(
        "t.pol",
        "allow bash prefix \"git\"\ndeny bash prefix \"git push --force\"\n"
    )
    .is_empty());
}

#[test]
fn l004_l005_traps() {
    let text = r#"{"permissions": {
  "allow": ["Bash(npm test)", "Bash(cargo test:*)", "Bash(echo \\*)"],
  "deny": ["Bash(git filter-branch)", "Bash(rm -rf:*)"],
  "ask": ["Bash(npm install)"]
}}"#;
    let d = lint_with("permcheck.json", text, None);
    let c: Vec<_> = d
        .iter()
        .map(|d| (d.code, d.span.line, d.span.column))
        .collect();
    assert_eq!(
        c,
        vec![
            (crate::syntax::codes::L004, 2, 13),
            (crate::syntax::codes::L004, 2, 53),
            (crate::syntax::codes::L005, 3, 12),
            (crate::syntax::codes::L005, 4, 11)
        ],
        "{}",
        d.render_all()
    );
    assert_eq!(d.0[0].len, "\"Bash(npm test)\"".len() as u32);
    assert!(d.0[0].help.as_ref().unwrap().contains("Bash(npm test:*)"));
    assert!(!d.has_errors());
    // DSL rules mean what their kind says: no trap.
    assert!(codes("t.pol", "allow bash exact \"npm test\"\n").is_empty());
}

#[test]
fn l006_interpreters_and_wrappers() {
    for (rule, bad) in [
        ("allow bash prefix \"bash\"", true),
        ("allow bash glob \"python *\"", true),
        ("allow bash glob \"python3 -c *\"", true),
        ("allow bash prefix \"sudo\"", true),
        ("allow bash glob \"env *\"", true),
        ("allow bash prefix \"xargs\"", true),
        ("allow bash prefix \"npx\"", true),
        ("allow bash prefix \"eval\"", true),
        ("allow bash exact \"python manage.py test\"", false),
        ("allow bash glob \"python -m pytest *\"", false),
        ("allow bash prefix \"sudo apt list\"", false),
        ("allow bash exact \"env\"", false),
        ("deny bash prefix \"sudo\"", false),
    ] {
        let c = codes("t.pol", &format!("{rule}\n"));
        assert_eq!(
            c == vec![(crate::syntax::codes::L006, 1, 19)]
                || c == vec![(crate::syntax::codes::L006, 1, 17)],
            bad,
            "{rule}: {c:?}"
        );
    }
}

#[test]
fn l007_wildcard_program() {
    for rule in [
        "allow bash glob \"* --help\"",
        "allow bash glob \"*\"",
        "allow bash any",
        "allow bash",
        "allow bash glob \"git*\"",
    ] {
        let d = lint_with("t.pol", &format!("{rule}\n"), None);
        assert_eq!(d.len(), 1, "{rule}: {}", d.render_all());
        assert_eq!(d.0[0].code, crate::syntax::codes::L007);
        assert!(d.has_errors());
    }
    // Inside a block the caret is under the pattern.
    let d = lint_with(
        "t.pol",
        "allow bash prefix \"ls\" {\n  glob \"* --version\"\n}\n",
        None,
    );
    assert_eq!(
        (
            d.0[0].code,
            d.0[0].span.line,
            d.0[0].span.column,
            d.0[0].len
        ),
        (crate::syntax::codes::L007, 2, 8, 13)
    );
    assert!(codes("t.pol", "allow bash glob \"git * --help\"\n").is_empty());
}

#[test]
fn host_filter_limits_scope() {
    let text = "deny bash prefix \"git\" { hosts codex }\nallow bash prefix \"git status\" { hosts codex claude }\n";
    assert!(lint_with("t.pol", text, None).is_empty());
    assert_eq!(lint_with("t.pol", text, Some("codex")).len(), 1);
    assert!(lint_with("t.pol", text, Some("claude")).is_empty());
}

#[test]
fn l008_claude_ask_overlap() {
    let dir = tempfile::tempdir().unwrap();
    let pol = dir.path().join("p.pol");
    let claude = dir.path().join(".claude");
    std::fs::create_dir(&claude).unwrap();
    let settings = claude.join("settings.json");
    std::fs::write(
        &pol,
        "allow bash prefix \"git\"\nallow bash prefix \"ls\"\n",
    )
    .unwrap();
    std::fs::write(
        &settings,
        r#"{"permissions": {"ask": ["Bash(git push:*)"]}}"#,
    )
    .unwrap();
    let opts = Options {
        host: Some("claude".into()),
    };
    let d = lint_paths(&[pol.clone(), settings.clone()], &opts).unwrap();
    let l8: Vec<_> = d
        .iter()
        .filter(|d| d.code == crate::syntax::codes::L008)
        .collect();
    assert_eq!(l8.len(), 1, "{}", d.render_all());
    assert_eq!(l8[0].span.line, 1);
    assert!(l8[0].message.contains("git push"), "{}", l8[0].message);
    assert!(!l8[0].is_error());
    // Without --host claude, no L008.
    let d = lint_paths(&[pol, settings], &Options::default()).unwrap();
    assert!(d.iter().all(|d| d.code != crate::syntax::codes::L008));
}

#[test]
fn json_output_shape() {
    let d = lint_with("t.pol", "allow bash glob \"*\"\n", None);
    let j = d.to_json();
    assert_eq!(j["errors"], 1);
    assert_eq!(
        j["diagnostics"][0]["code"],
        crate::syntax::codes::L007.as_str()
    );
    assert_eq!(j["diagnostics"][0]["line"], 1);
}

#[test]
fn shipped_policy_is_clean() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("policies");
    for host in [None, Some("claude"), Some("codex")] {
        let d = lint_paths(
            std::slice::from_ref(&root),
            &Options {
                host: host.map(str::to_string),
            },
        )
        .unwrap_or_else(|d| panic!("{}", d.render_all()));
        // Only notes (L012: the shipped build and test allows run code the agent writes).
        assert!(
            d.iter().all(|d| d.code == crate::syntax::codes::L012),
            "{host:?}:\n{}",
            d.render_all()
        );
    }
}

mod soundness {
    use super::*;
    use crate::runtime::interp::Reference;
    use crate::runtime::{decide, Request};
    use proptest::prelude::*;

    fn glob_text() -> impl Strategy<Value = String> {
        prop::collection::vec(
            prop::sample::select(vec!["a", "b", " ", "*", "-", "a b", "b *"]),
            1..5,
        )
        .prop_map(|v| v.concat())
        .prop_filter("a word", |s| {
            !s.trim().is_empty() && !s.trim().starts_with('-')
        })
    }

    fn fill(pattern: &SegPattern, star: &str, tail: &str) -> String {
        let mut s: Vec<u8> = Vec::new();
        for &b in &pattern.body {
            if b == STAR {
                s.extend_from_slice(star.as_bytes());
            } else {
                s.push(b);
            }
        }
        if pattern.tail {
            s.extend_from_slice(tail.as_bytes());
        }
        String::from_utf8(s).unwrap()
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        /// Whenever lint says an allow can never win, the runtime never allows a command
        /// the allow matches.
        #[test]
        fn l001_agrees_with_the_runtime(
            deny in glob_text(), ask in glob_text(), allow in glob_text(), k in 0..3usize
        ) {
            let kind = ["glob", "prefix", "exact"][k];
            let text = format!(
                "deny bash glob \"{deny}\"\nask bash prefix \"{ask}\"\nallow bash {kind} \"{allow}\"\n"
            );
            let Ok((policy, _)) = crate::lower::load_str("t.pol", &text, Tier::Project) else {
                return Ok(());
            };
            let d = lint(&policy, &Options::default(), &HashMap::new());
            if !d.iter().any(|f| f.code == crate::syntax::codes::L001 && f.span.line == 3) {
                return Ok(());
            }
            let rt = Reference::new(&policy);
            let pk = policy.rules[2].patterns[0].kind;
            let sp = SegPattern::compile(pk, &allow, false).unwrap();
            for (star, tail) in [("", ""), ("a", " b"), ("x y", " -a"), ("b", "")] {
                let cmd = fill(&sp, star, tail);
                if cmd.trim().is_empty() || cmd.trim() != cmd {
                    continue;
                }
                let out = decide(&rt, "claude", &Request::Bash { command: cmd.clone() }).unwrap();
                prop_assert_ne!(out.decision, crate::ir::Decision::Allow, "{} allowed\n{}", cmd, text);
            }
        }
    }
}
