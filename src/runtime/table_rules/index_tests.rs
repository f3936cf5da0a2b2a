//! The indexes (multi-word keys, key hashes, content index, tool index) must not change
//! a decision: compare the indexed table with the reference interpreter.
use super::*;
use crate::ir::{Decision, Tier};
use crate::runtime::interp::Reference;
use crate::runtime::{decide, Request};

const POLICY: &str = r#"
allow bash prefix "git status"
allow bash prefix "git"
deny bash prefix "git push --force"
ask bash glob "git push * --force*"
ask bash glob "git push *"
deny bash exact "rm -rf /"
deny bash glob "rm -rf *"
allow bash glob "cargo b*"
allow bash glob "*.sh --help"
ask bash prefix "kubectl delete pod"
allow bash prefix "kubectl get"
deny bash prefix "curl"
deny bash contains "AKIA"
ask bash contains "password="
deny bash contains "-----BEGIN"
deny bash regex 'tok_[0-9a-f]{8,}'
ask bash regex '(?i)drop\s+table'
deny bash regex '[a-z]+://[^ ]+:[^ @]+@'
allow bash contains "ok"
deny read glob "/srv/*.key"
deny read exact "/etc/passwd"
ask read prefix "/home/u/"
deny read glob "*.pem"
ask read glob "/a/b*/c"
allow edit glob "docs/**"
deny mcp__fs__read glob "/secret/*"
allow read glob "/srv/public/*"
ask edit glob "src/*.rs"
allow webfetch glob "https://docs.rs/*"
deny mcp__github__delete_repo
allow mcp__github__get_*
ask mcp__slack
deny mcp__a_
deny mcp__*
"#;

const COMMANDS: &[&str] = &[
    "git status",
    "git status --short",
    "git",
    "gitk",
    "git push --force origin",
    "git push origin main --force-with-lease",
    "git push origin",
    "rm -rf /",
    "rm -rf /tmp",
    "cargo build --release",
    "cargo bench",
    "./x.sh --help",
    "kubectl delete pod web-1",
    "kubectl get pods",
    "curl https://x",
    "echo AKIA1234",
    "echo password=hunter2",
    "echo tok_deadbeef01",
    "echo tok_dead",
    "psql -c 'DROP  TABLE users'",
    "psql postgres://u:pw@host/db",
    "echo ok",
    "git $X",
    "$CMD status",
    "git status $(ls)",
    "g\"it\" status",
    "GIT push --force",
    "echo '-----BEGIN KEY'",
    "ls; git push --force",
    "bash -c 'git push --force'",
    "kubectl $VERB pod web",
    "git st$X",
    "",
];

const TOOLS: &[(&str, &str)] = &[
    ("read", "/srv/a.key"),
    ("read", "/srv/public/a.key"),
    ("read", "/etc/passwd"),
    ("edit", "src/main.rs"),
    ("webfetch", "https://docs.rs/x"),
    ("webfetch", "https://evil"),
    ("mcp__github__delete_repo", ""),
    ("mcp__github__get_issue", ""),
    ("mcp__slack__post", ""),
    ("mcp__a___b", ""),
    ("mcp__other__x", ""),
    ("read", "AKIA in path"),
];

#[test]
fn indexes_decide_like_the_reference() {
    let (policy, _) = crate::lower::load_str("t.pol", POLICY, Tier::Project).expect("lowers");
    let compiled = crate::compile::compile(&policy).expect("compiles");
    let indexed = TableRules::new(|k| compiled.section(k)).unwrap();
    let reference = Reference::new(&policy);
    let mut reqs: Vec<Request> = COMMANDS
        .iter()
        .map(|c| Request::Bash {
            command: c.to_string(),
        })
        .collect();
    for (tool, subject) in TOOLS {
        reqs.push(Request::Tool {
            tool: tool.to_string(),
            subject: subject.to_string(),
            input_text: subject.to_string(),
            name: String::new(),
        });
    }
    for req in &reqs {
        for host in ["claude", "codex"] {
            let a = decide(&indexed, host, req).unwrap();
            let c = decide(&reference, host, req).unwrap();
            assert_eq!(
                (a.decision, a.winner),
                (c.decision, c.winner),
                "indexed vs reference: {req:?}"
            );
            let mut ha: Vec<u32> = a.hits.iter().map(|h| h.rule).collect();
            let mut hc: Vec<u32> = c.hits.iter().map(|h| h.rule).collect();
            ha.sort_unstable();
            hc.sort_unstable();
            assert_eq!(ha, hc, "hits: {req:?}");
        }
    }
}

#[test]
fn regex_guards_are_required_prefixes() {
    use crate::content::regex_guards;
    assert_eq!(regex_guards("tok_[0-9]+"), Some(vec![b"tok_".to_vec()]));
    assert_eq!(regex_guards("[a-z]+://"), None);
    let g = regex_guards("postgres(ql)?://").unwrap();
    assert!(g.iter().all(|l| l.starts_with(b"postgres")));
}

/// Large glob groups: the automaton (`guards.rs`) against the table's filter and the reference.
mod guard_scan {
    use super::*;
    use proptest::prelude::*;

    /// Literals the random glob rules and commands are made of: short (`a`, `a1`: the table's
    /// filter searches them one by one) and long (`a1234`, `needle`: its hash buckets), some
    /// inside others (`a1` in `a12` and `a1234`).
    const LITS: &[&str] = &[
        "a", "a1", "a12", "a1234", "b", "ab", "x", "xy", "needle", "needl", "c d", "-",
    ];

    fn glob_rules() -> impl proptest::strategy::Strategy<Value = String> {
        let lit = || proptest::sample::select(LITS);
        // The wild group (a leading `*`; one rule with no literal): at least 64 deny/ask and
        // 64 allow rules, so both sides' wild groups get an automaton; and the `echo` group.
        let restrict = proptest::sample::select(&["deny", "ask"][..]);
        let verdict = proptest::sample::select(&["deny", "ask", "allow"][..]);
        let wild = move || {
            (0u8..4, lit(), lit(), lit()).prop_map(|(s, a, b, c)| match s {
                0 => format!("* *{a}*{b}* *"),
                1 => format!("*{a}*"),
                2 => format!("*{a} {b}*{c}"),
                _ => "*".to_string(),
            })
        };
        let echo = (0u8..2, lit(), lit()).prop_map(|(s, a, b)| match s {
            0 => format!("echo *{a}*"),
            _ => format!("echo {a}*{b} *"),
        });
        (
            proptest::collection::vec((restrict, wild()), 64..72),
            proptest::collection::vec((Just("allow"), wild()), 64..72),
            proptest::collection::vec((verdict, echo), 0..40),
        )
            .prop_map(|(w, a, e)| {
                let mut out = String::new();
                // Ids keep rules with the same pattern apart (no merging).
                for (i, (v, p)) in w.into_iter().chain(a).chain(e).enumerate() {
                    out.push_str(&format!("{v} bash glob \"{p}\" {{ id r{i} }}\n"));
                }
                out
            })
    }

    fn many_segments() -> impl proptest::strategy::Strategy<Value = String> {
        let word = prop_oneof![
            4 => proptest::sample::select(LITS).prop_map(str::to_string),
            1 => Just("$X".to_string()),
            1 => Just("x$(y)".to_string()),
            1 => proptest::sample::select(&["echo", "ls", "sudo"][..]).prop_map(str::to_string),
        ];
        let segment = proptest::collection::vec(word, 1..5).prop_map(|w| w.join(" "));
        proptest::collection::vec(segment, 70..110).prop_map(|s| s.join("; "))
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(24))]

        /// A group asked more than `guards::BUILD_AFTER` times switches from the table's filter
        /// to its automaton (`guards.rs`) in the middle of a command: a candidate it missed
        /// would lose a deny or an ask the reference finds. Commands of 70+ segments against
        /// 64+ glob rules sharing a group.
        #[test]
        fn many_globs_decide_like_the_reference_after_the_guard_scan(
            policy in glob_rules(),
            cmd in many_segments(),
        ) {
            let (policy, _) = crate::lower::load_str("t.pol", &policy, Tier::Project).expect("lowers");
            let compiled = crate::compile::compile(&policy).expect("compiles");
            let indexed = TableRules::new(|k| compiled.section(k)).unwrap();
            let reference = Reference::new(&policy);
            let req = Request::Bash { command: cmd };
            let a = decide(&indexed, "claude", &req).unwrap();
            let c = decide(&reference, "claude", &req).unwrap();
            prop_assert_eq!((a.decision, a.winner), (c.decision, c.winner));
            let hits = |o: &crate::runtime::Outcome| {
                let mut h: Vec<(u32, Option<usize>, bool)> =
                    o.hits.iter().map(|h| (h.rule, h.segment, h.possible)).collect();
                h.sort_unstable();
                h
            };
            prop_assert_eq!(hits(&a), hits(&c));
            // The automaton was built and used.
            let wild = indexed.s.deny_ask.wild().count as usize;
            prop_assert!(wild >= guards::MIN_ENTRIES, "{wild} wild entries");
            prop_assert!(indexed
                .guard_scans
                .borrow()
                .values()
                .any(|s| matches!(s, guards::GroupScan::Built(_))));
        }

        /// The automaton's candidates are exactly the table filter's, for every group with a
        /// filter and random readings (known bytes only, and with unknown runs).
        #[test]
        fn guard_scan_finds_the_filters_candidates(
            policy in glob_rules(),
            readings in proptest::collection::vec(
                proptest::collection::vec(
                    prop_oneof![
                        4 => proptest::sample::select(LITS).prop_map(|l| l.as_bytes().to_vec()),
                        1 => Just(vec![crate::pattern::WILD]),
                        1 => Just(b"echo".to_vec()),
                    ],
                    0..8,
                ).prop_map(|w| w.join(&b' ')),
                1..12,
            ),
        ) {
            let (policy, _) = crate::lower::load_str("t.pol", &policy, Tier::Project).expect("lowers");
            let compiled = crate::compile::compile(&policy).expect("compiles");
            let t = TableRules::new(|k| compiled.section(k)).unwrap();
            for idx in [&t.s.deny_ask, &t.s.allow] {
                let mut groups = vec![idx.wild()];
                for g in 0..idx.group_count() {
                    groups.push(idx.group(g).unwrap());
                }
                for g in groups.iter().filter(|g| g.filter.1 != 0) {
                    let GroupScan::Built(mut scan) = t.guard_scan(idx, g).unwrap() else {
                        continue;
                    };
                    for r in &readings {
                        let reading = Reading::new(r);
                        let want = idx
                            .candidates(g, &t.s.strings, reading.known())
                            .unwrap()
                            .unwrap();
                        prop_assert_eq!(scan.candidates(reading.known()).to_vec(), want);
                    }
                }
            }
        }
    }
}

/// The allow side's content lookups stop reading the index once the table is known to have
/// no allow content rule (`any_allow_content`): past that many segments, a table with one
/// still allows by it, and one without still decides like the reference.
#[test]
fn allow_content_after_many_segments() {
    let with =
        "allow bash prefix \"ls\"\nallow bash contains \"zz\"\ndeny bash contains \"rm -rf\"\n";
    let without =
        "allow bash prefix \"ls\"\nallow bash prefix \"echo\"\ndeny bash contains \"rm -rf\"\n";
    let n = ALLOW_CONTENT_AFTER as usize + 8;
    let cmd = |last: &str| format!("{}{last}", "ls; ".repeat(n));
    for (policy, last, want) in [
        (with, "echo zz", Decision::Allow),
        (with, "echo z", Decision::Default),
        (without, "echo zz", Decision::Allow),
        (without, "cat zz", Decision::Default),
        (with, "echo zz rm -rf x", Decision::Deny),
    ] {
        let (policy, _) = crate::lower::load_str("t.pol", policy, Tier::Project).expect("lowers");
        let compiled = crate::compile::compile(&policy).expect("compiles");
        let indexed = TableRules::new(|k| compiled.section(k)).unwrap();
        let req = Request::Bash { command: cmd(last) };
        let a = decide(&indexed, "claude", &req).unwrap();
        let c = decide(&Reference::new(&policy), "claude", &req).unwrap();
        assert_eq!((a.decision, a.winner), (c.decision, c.winner), "{last}");
        assert_eq!(a.decision, want, "{last}");
    }
}
