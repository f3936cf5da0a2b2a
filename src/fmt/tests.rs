use super::*;
use crate::ir::{Policy, Tier};
use proptest::prelude::*;

fn fmt(text: &str) -> String {
    format_source("t.pol", text).unwrap_or_else(|d| panic!("{}", d.render_all()))
}

/// What a policy decides, without what layout changes: spans, rule texts, derived ids.
fn meaning(p: &Policy, file: &str) -> String {
    let derived = format!("{}:", crate::syntax::file_name(file));
    let mut out = String::new();
    for r in &p.rules {
        let id = if r.id.starts_with(&derived) {
            ""
        } else {
            &r.id
        };
        let _ = writeln!(
            out,
            "{id}|{}|{}|{:?}|{:?}|{}|{:?}|{:?}|{:?}",
            r.verdict, r.tool, r.patterns, r.reason, r.priority, r.hosts, r.tags, r.tier
        );
    }
    for e in &p.examples {
        let _ = writeln!(out, "ex|{}|{:?}|{:?}|{}", e.tool, e.input, e.host, e.expect);
    }
    out
}

fn same_meaning(name: &str, a: &str, b: &str) {
    let pa = crate::lower::load_str(name, a, Tier::Project).map(|x| x.0);
    let pb = crate::lower::load_str(name, b, Tier::Project).map(|x| x.0);
    match (pa, pb) {
        (Ok(pa), Ok(pb)) => assert_eq!(meaning(&pa, name), meaning(&pb, name), "{b}"),
        (Err(_), Err(_)) => {}
        (a, b) => panic!(
            "one lowers, the other not: {:?} / {:?}\n{b:?}",
            a.is_ok(),
            b.is_ok()
        ),
    }
}

#[test]
fn canonical_layout() {
    let messy = "# top\n\n\n  allow   bash prefix 'ls'   prefix \"pwd\" # why\ndeny bash glob \"rm *\" { id   no-rm ; reason 'a \"q\"'\n\n\n   priority 3 # p\n# inside\n   example \"rm x\"=>deny }   # after\nexample   \"ls\"   on claude =>   allow\ninclude 'x.pol'\nask tool \"Task\" any {}\n";
    let want = "# top\n\nallow bash prefix \"ls\" { # why\n  prefix \"pwd\"\n}\n\ndeny bash glob \"rm *\" {\n  id       no-rm\n  reason   'a \"q\"'\n\n  priority 3 # p\n  # inside\n  example  \"rm x\" => deny\n} # after\n\nexample \"ls\" on claude => allow\ninclude \"x.pol\"\nask tool \"Task\" any\n";
    let got = format_source("t.pol", messy).unwrap();
    assert_eq!(got, want, "\n{got}");
    assert_eq!(fmt(&got), got);
}

#[test]
fn quoting() {
    assert_eq!(quote("git push"), "\"git push\"");
    assert_eq!(quote(r"^ls\s"), r"'^ls\s'");
    assert_eq!(quote("it's \\"), "\"it's \\\\\"");
    assert_eq!(quote("a\nb\u{1}"), "\"a\\nb\\u{1}\"");
}

#[test]
fn syntax_errors_are_not_formatted() {
    let e = format_source("t.pol", "deny bash prefix \"x\" junk\n").unwrap_err();
    assert!(e.has_errors());
}

/// Every `.pol` file in the repository: idempotent, same meaning.
#[test]
fn every_pol_file_in_the_repository() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut stack = vec![root.join("policies"), root.join("tests"), root.join("src")];
    let mut n = 0;
    while let Some(d) = stack.pop() {
        let Ok(rd) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in rd.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "pol") {
                let text = std::fs::read_to_string(&p).unwrap();
                let name = p.display().to_string();
                let Ok(once) = format_source(&name, &text) else {
                    continue;
                };
                n += 1;
                assert_eq!(format_source(&name, &once).unwrap(), once, "{name}");
                same_meaning(&name, &text, &once);
            }
        }
    }
    assert!(n >= 5, "only {n} files");
}

fn s_value() -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop_oneof![
            Just("a".to_string()),
            Just("git push".to_string()),
            Just(" ".to_string()),
            Just("*".to_string()),
            Just("\"".to_string()),
            Just("'".to_string()),
            Just("\\".to_string()),
            Just("#".to_string()),
            Just("{".to_string()),
            Just(";".to_string()),
            Just("é".to_string()),
            Just("\t".to_string()),
        ],
        1..6,
    )
    .prop_map(|v| v.concat())
    .prop_filter("non-blank", |s| !s.trim().is_empty())
}

/// A string literal for `v` in some valid spelling (not necessarily canonical).
fn lit(v: &str, single: bool) -> String {
    if single && !v.contains('\'') && !v.contains('\n') {
        format!("'{v}'")
    } else {
        let mut o = String::from("\"");
        for c in v.chars() {
            match c {
                '"' => o.push_str("\\\""),
                '\\' => o.push_str("\\\\"),
                '\t' => o.push_str("\\u{9}"),
                c => o.push(c),
            }
        }
        o.push('"');
        o
    }
}

fn gen_rule() -> impl Strategy<Value = String> {
    (
        prop::sample::select(vec!["allow", "ask", "deny"]),
        prop::sample::select(vec!["bash", "shell", "read", "tool \"Task\"", "mcp__s__t"]),
        prop::collection::vec(
            (
                prop::sample::select(vec!["exact", "prefix", "glob", "contains"]),
                s_value(),
                any::<bool>(),
            ),
            0..3,
        ),
        prop::collection::vec((0..6usize, s_value(), any::<bool>(), any::<bool>()), 0..5),
        prop::sample::select(vec![" ", "   ", "\t"]),
        any::<bool>(),
        any::<bool>(),
    )
        .prop_map(|(v, tool, pats, attrs, sep, block, one_line)| {
            let mut s = format!("{v}{sep}{tool}");
            for (k, t, q) in &pats {
                s.push_str(&format!("{sep}{k}{sep}{}", lit(t, *q)));
            }
            if block || !attrs.is_empty() {
                let mut seen = std::collections::HashSet::new();
                let mut parts = Vec::new();
                for (k, t, q, cm) in &attrs {
                    if !seen.insert(*k) && *k < 3 {
                        continue;
                    }
                    let a = match k {
                        0 => "id some-id".to_string(),
                        1 => format!("reason {}", lit(t, *q)),
                        2 => "priority -4".to_string(),
                        3 => format!("glob {}", lit(t, *q)),
                        4 => format!("example {} on codex => ask", lit(t, *q)),
                        _ => "any".to_string(),
                    };
                    let c = if *cm && !one_line { " # note {x}" } else { "" };
                    parts.push(format!("{a}{c}"));
                }
                if one_line {
                    s.push_str(&format!(" {{ {} }}", parts.join("; ")));
                } else {
                    s.push_str(" {  # head\n");
                    for p in parts {
                        s.push_str(&format!("{sep}{p}\n\n"));
                    }
                    s.push('}');
                }
            }
            s
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn generated_policies(
        items in prop::collection::vec(
            prop_oneof![
                gen_rule(),
                s_value().prop_map(|c| format!("# {}", c.replace('\n', " "))),
                Just(String::new()),
                s_value().prop_map(|v| format!("example {} => default # ex", lit(&v, false))),
            ],
            0..8,
        )
    ) {
        let text = items.join("\n") + "\n";
        // The generator only writes valid policies.
        let once = format_source("t.pol", &text)
            .unwrap_or_else(|d| panic!("{text:?}\n{}", d.render_all()));
        prop_assert_eq!(&fmt(&once), &once);
        same_meaning("t.pol", &text, &once);
        // Comments survive.
        prop_assert_eq!(text.matches("# note").count() + text.matches("# ex").count(),
            once.matches("# note").count() + once.matches("# ex").count());
    }
}
