//! The compiled table must decide exactly as the reference interpreter does (SPEC §4): random
//! policies × random commands built from realistic shell pieces, through the reference, the
//! in-memory sections, the encoded bytes loaded back, and a mapped file.
//!
//! CI runs the default case count; a million cases:
//!     PROPTEST_CASES=1000000 cargo test --release --test differential

use polc::ir::{Pattern, PatternKind, Policy, Rule, Span, Tier, Verdict};
use polc::runtime::interp::Reference;
use polc::runtime::table_rules::TableRules;
use polc::runtime::{decide, Request};
use proptest::prelude::*;

const WORDS: &[&str] = &[
    "git",
    "push",
    "status",
    "--force",
    "-f",
    "origin",
    "main",
    "rm",
    "-rf",
    "/",
    "~",
    "ls",
    "-la",
    "cat",
    ".env",
    "echo",
    "npm",
    "test",
    "run",
    "build",
    "curl",
    "https://x.io",
    "cargo",
    "RM",
    "Git",
];
const SHELL_PIECES: &[&str] = &[
    "sudo",
    "sudo -u root",
    "env FOO=1",
    "FOO=1",
    "PATH=/x",
    "nice -n 5",
    "timeout 5",
    "command",
    "/usr/bin/rm",
    "'rm'",
    "\"git\"",
    "r\\m",
    "$X",
    "${U:---force}",
    "$(rm -rf /)",
    "`ls`",
    "{--force,-x}",
    "--forc?",
    "*.txt",
    "bash -c 'rm -rf /'",
    "sh -c \"git push -f\"",
    "eval rm -rf",
    "xargs rm",
    "! ",
    "{ ",
    " ; }",
    "2>&1",
    ">/dev/null",
    ">out",
    "<<EOF",
    "$'\\x72m'",
    "# comment",
    "\\\n",
    "\r",
    "find . -exec rm {} \\;",
    "NODE_ENV=x",
    "time",
];
const OPS: &[&str] = &[" && ", " || ", "; ", " | ", " & ", "\n", " |& ", " "];

fn word() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => prop::sample::select(WORDS).prop_map(str::to_string),
        2 => prop::sample::select(SHELL_PIECES).prop_map(str::to_string),
    ]
}

fn command() -> impl Strategy<Value = String> {
    prop::collection::vec(
        (
            prop::collection::vec(word(), 1..5),
            prop::sample::select(OPS),
        ),
        1..4,
    )
    .prop_map(|segs| {
        let mut s = String::new();
        for (i, (ws, op)) in segs.iter().enumerate() {
            if i > 0 {
                s.push_str(op);
            }
            s.push_str(&ws.join(" "));
        }
        s
    })
}

fn pattern() -> impl Strategy<Value = Pattern> {
    let text = prop::collection::vec(
        prop_oneof![4 => prop::sample::select(WORDS).prop_map(str::to_string), 1 => Just("*".to_string())],
        1..4,
    )
    .prop_map(|w| w.join(" "));
    (0..5u8, text, prop::sample::select(WORDS)).prop_map(|(k, text, lit)| match k {
        0 => Pattern {
            kind: PatternKind::Exact,
            text: text.replace('*', "x"),
        },
        1 => Pattern {
            kind: PatternKind::Prefix,
            text: text.replace('*', "x"),
        },
        2 => Pattern {
            kind: PatternKind::Glob,
            text,
        },
        3 => Pattern {
            kind: PatternKind::Contains,
            text: lit.to_string(),
        },
        _ => Pattern {
            kind: PatternKind::Glob,
            text: format!("{text}:*"),
        },
    })
}

fn rule() -> impl Strategy<Value = Rule> {
    (
        0..3u8,
        prop::collection::vec(pattern(), 1..3),
        -2..3i32,
        prop::option::of(prop::sample::select(vec!["claude", "codex", "openclaw"])),
        0..3u8,
    )
        .prop_map(|(v, patterns, priority, host, tier)| Rule {
            id: String::new(),
            verdict: [Verdict::Allow, Verdict::Ask, Verdict::Deny][v as usize],
            tool: "bash".into(),
            patterns,
            reason: None,
            priority,
            hosts: host.map(|h| vec![h.to_string()]).unwrap_or_default(),
            tags: vec![],
            text: String::new(),
            span: Span::default(),
            tier: [Tier::Project, Tier::User, Tier::Managed][tier as usize],
        })
}

fn policy() -> impl Strategy<Value = Policy> {
    prop::collection::vec(rule(), 0..12).prop_map(|mut rules| {
        for (i, r) in rules.iter_mut().enumerate() {
            r.id = format!("r{i}");
            r.text = format!("rule {i}");
            r.span = Span {
                file: "p.pol".into(),
                line: i as u32 + 1,
                column: 1,
            };
        }
        Policy {
            rules,
            ..Policy::default()
        }
    })
}

struct Tables {
    compiled: polc::compile::Compiled,
    loaded: polc::table::Table,
    mapped: polc::table::Table,
    _dir: tempfile::TempDir,
}

fn tables(p: &Policy) -> Tables {
    let compiled = polc::compile::compile(p).expect("compiles");
    let sections: Vec<(u32, &[u8])> = compiled
        .sections
        .iter()
        .map(|(k, v)| (*k, v.as_slice()))
        .collect();
    let bytes = polc::table::encode(&[], &compiled.counts, &sections);
    let loaded = polc::table::Table::from_bytes(bytes.clone()).expect("loads");
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.bin");
    polc::table::write_atomic(&path, &bytes).unwrap();
    let mapped = polc::table::Table::open_with_cache(&path, None).expect("maps");
    Tables {
        compiled,
        loaded,
        mapped,
        _dir: dir,
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, max_shrink_iters: 2000, ..ProptestConfig::default() })]

    #[test]
    fn table_agrees_with_reference(p in policy(), cmds in prop::collection::vec(command(), 1..4), host in prop::sample::select(vec!["claude", "codex", "openclaw"])) {
        let t = tables(&p);
        let reference = Reference::new(&p);
        let in_memory = TableRules::new(|k| t.compiled.section(k)).unwrap();
        let from_bytes = TableRules::new(|k| t.loaded.section(k)).unwrap();
        let from_file = TableRules::new(|k| t.mapped.section(k)).unwrap();
        for cmd in cmds {
            let req = Request::Bash { command: cmd.clone() };
            let want = decide(&reference, host, &req).unwrap();
            for (name, src) in [("memory", &in_memory), ("bytes", &from_bytes), ("file", &from_file)] {
                let got = decide(src, host, &req).unwrap();
                prop_assert_eq!(&got, &want, "{} disagrees on {:?}", name, cmd);
            }
        }
    }
}
