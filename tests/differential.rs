//! The compiled table must decide exactly as the reference interpreter does (docs/contract.md#c-differential): random
//! policies × random commands built from realistic shell pieces, through the reference, the
//! in-memory sections, the encoded bytes loaded back, and a mapped file.
//!
//! Bash rules and commands (`table_agrees_with_reference`), and every other kind of rule —
//! path rules with each anchor (`//`, `~/`, `/`, `./`, bare names), web domain rules, MCP,
//! content (contains/regex) and other-tool rules — with tool requests (Read/Edit with every
//! input shape, WebFetch with URL variants, MCP, other tools) and commands that touch files
//! and URLs (`tool_rules_agree_with_reference`).
//!
//! CI runs the default case count; a million cases:
//!     PROPTEST_CASES=1000000 cargo test --release --test differential

use polc::ir::{Pattern, PatternKind, Policy, Rule, Span, Tier, Verdict};
use polc::runtime::interp::Reference;
use polc::runtime::table_rules::TableRules;
use polc::runtime::{decide, decide_in, Context, Request};
use proptest::prelude::*;
use std::path::PathBuf;

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
    #![proptest_config(ProptestConfig { cases: cases(3000), max_shrink_iters: 2000, ..ProptestConfig::default() })]

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

// ── Every other kind of rule, and tool requests ─────────────────────────────────────────

const ANCHORS: &[&str] = &["//", "~/", "/", "./", ""];
const PATH_BODIES: &[&str] = &[
    ".env",
    ".env.*",
    "src/**",
    "src/*.rs",
    "src",
    "*.pem",
    ".ssh",
    ".ssh/id_*",
    "a/b",
    "**/secret*",
    "etc/passwd",
    "nonexistent/proj/.env",
    "nonexistent/home/.ssh",
    ".ENV",
    "Cargo.lock",
    // Literal folders at several depths (the path index keys on them), globs and `**` at
    // different depths, case and Unicode that case folding or NFC maps onto ASCII.
    "src/mod1/*.rs",
    "src/mod1",
    "srv/data1/*.key",
    "a/b/c/**",
    "a/b/c",
    "A/B",
    "x/**/y.txt",
    "**",
    "*",
    "",
    ".SSH/ID_*",
    "\u{17F}rc/**",
    "caf\u{E9}/*",
    "CAF\u{C9}",
    "\u{212A}ey",
    "key",
    "src//main.rs",
    "src/./main.rs",
    "nonexistent/proj/src/**",
    "nonexistent/home/.ssh/**",
    "proj/.env",
    "secret/*",
    "s?c/main.rs",
    "[s]rc/**",
    "src\\/x",
];
const DOMAINS: &[&str] = &[
    "domain:evil.com",
    "*.evil.com",
    "domain:docs.rs",
    "docs.rs",
    "domain:127.0.0.1",
    "domain:bücher.example",
    "domain:*",
    "https://docs.rs/*",
    // Subdomain wildcards at several depths, case, trailing dots, IDN, ports, IPs: the web
    // index files these under their host.
    "*.a.evil.com",
    "domain:EVIL.com.",
    "sub.docs.rs",
    "*.rs",
    "domain:xn--bcher-kva.example",
    "domain:[::1]",
    "domain:a-b.example",
    "*.example",
    "evil.com:8080",
    "domain:evil.com/x",
    "*.EVIL.COM",
    "domain:2130706433",
    "domain:ev%69l.com",
    "*",
];
const MCP_RULES: &[&str] = &[
    "mcp__github",
    "mcp__github__delete_repo",
    "mcp__github__*",
    "mcp__docs__*",
    "mcp__fs__read",
    "mcp__a_",
];
const CONTENT: &[&str] = &[
    r#"bash contains "prod-db""#,
    r#"bash contains ".env""#,
    r#"bash regex 'https?:/+evil'"#,
    r#"read contains ".env""#,
    r#"edit regex 'secret[0-9]+'"#,
    r#"webfetch contains "evil""#,
    r#"mcp__fs contains "secret""#,
    r#"tool "Task" regex 'opus'"#,
];
const OTHER: &[&str] = &[
    r#"tool "Glob" any"#,
    r#"tool "Write" any"#,
    r#"tool "Task" any"#,
    r#"tool "Task" glob "model:opus*""#,
    r#"tool "Task" glob "*""#,
    "websearch any",
    "webfetch any",
    "read any",
    "edit any",
    r#"mcp__fs__read glob "/secret/*""#,
];

/// One rule of another kind, as policy text (lowered by the real front end).
fn other_rule_text() -> impl Strategy<Value = String> {
    let verdict = prop::sample::select(vec!["allow", "ask", "deny"]);
    let body = prop_oneof![
        3 => (
            prop::sample::select(vec!["read", "edit"]),
            prop::sample::select(vec!["glob", "glob", "exact", "prefix"]),
            prop::sample::select(ANCHORS),
            prop::sample::select(PATH_BODIES),
        )
            .prop_map(|(t, k, a, b)| format!("{t} {k} \"{a}{b}\"")),
        2 => prop::sample::select(DOMAINS).prop_map(|d| format!("webfetch glob \"{d}\"")),
        1 => prop::sample::select(MCP_RULES).prop_map(str::to_string),
        1 => prop::sample::select(CONTENT).prop_map(str::to_string),
        1 => prop::sample::select(OTHER).prop_map(str::to_string),
    ];
    let hosts = prop::option::of(prop::sample::select(vec!["claude", "codex"]));
    (verdict, body, hosts, -1..2i32).prop_map(|(v, b, h, pri)| {
        let mut opts = Vec::new();
        if let Some(h) = h {
            opts.push(format!("hosts {h}"));
        }
        if pri != 0 {
            opts.push(format!("priority {pri}"));
        }
        if opts.is_empty() {
            format!("{v} {b}")
        } else {
            format!("{v} {b} {{ {} }}", opts.join("; "))
        }
    })
}

/// Bash rules (as above) and rules of every other kind. A generated rule the front end
/// refuses (an allow `mcp__*` form it does not accept) is left out.
fn mixed_policy() -> impl Strategy<Value = Policy> {
    (
        prop::collection::vec(rule(), 0..5),
        prop::collection::vec(other_rule_text(), 1..10),
    )
        .prop_map(|(bash, texts)| {
            let mut rules = bash;
            for t in texts {
                if let Ok((p, _)) = polc::lower::load_str("p.pol", &t, Tier::Project) {
                    rules.extend(p.rules);
                }
            }
            for (i, r) in rules.iter_mut().enumerate() {
                r.id = format!("r{i}");
                r.span = Span {
                    // Three policy files: `/x` patterns are relative to each one's folder.
                    file: ["p.pol", "sub/q.pol", "/nonexistent/pol/r.pol"][i % 3].into(),
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

const PATHS: &[&str] = &[
    ".env",
    "/nonexistent/proj/.env",
    "/nonexistent/proj/src/../.env",
    "src/main.rs",
    "/nonexistent/proj/src/main.rs",
    "~/.ssh/id_rsa",
    "/nonexistent/home/.ssh/id_rsa",
    "/etc/passwd",
    "../x",
    ".ENV",
    "a/b/c.pem",
    "a/b",
    "/secret/k",
    "Cargo.lock",
    "src",
    "",
    "src/mod1/x.rs",
    "SRC/MOD1/X.RS",
    "/nonexistent/proj/srv/data1/a.key",
    "srv/data1/A.KEY",
    "a/b/c/d",
    "A/b/C",
    "/nonexistent/proj/\u{17F}rc/main.rs",
    "/nonexistent/proj/\u{212A}ey",
    "/nonexistent/proj/KEY",
    "~/.SSH/ID_RSA",
    "~/.ssh",
    "~",
    "/nonexistent/pol/secret/k",
    "/nonexistent/proj/sub/secret/k",
    "x/q/r/y.txt",
    "caf\u{E9}/x",
    "cafe\u{301}/x",
    "CAF\u{C9}/X",
    "/",
    "/nonexistent",
    "/nonexistent/proj/src/mod1/deep/er/x.rs",
];
const URLS: &[&str] = &[
    "https://evil.com/x",
    "https:/evil.com",
    "https:\\\\evil.com",
    "https://a.evil.com",
    "evil.com/x",
    "https://docs.rs/serde",
    "https://docs.rs\\@evil.com/",
    "docs.rs:443",
    "http://0x7f.1/",
    "http://bücher.example/",
    "https://",
    "javascript:x",
    "",
    "https://a.b.evil.com/",
    "https://sub.docs.rs/",
    "https://EVIL.COM./",
    "https://evil.com:8080",
    "http://[::1]/",
    "https://x.rs",
    "https://a-b.example/p",
    "https://xn--bcher-kva.example/",
    "https://Sub.A.Evil.Com./x",
    "https://evil%2Ecom/",
    "http://127.1/",
    "https://docs.rs.evil.com/",
];
const TOOL_COMMANDS: &[&str] = &[
    "cat .env",
    "cat src/main.rs",
    "head ~/.ssh/id_rsa",
    "cat /etc/passwd > Cargo.lock",
    "grep -r x .",
    "cp -r src /tmp/x",
    "curl https:/evil.com",
    "wget evil.com/x",
    "curl -s https://docs.rs/x",
    "cat $F",
    "cat .en?",
    "cd .. && cat .env",
    "echo prod-db secret42",
];

fn path_input(paths: &[&str], shape: u8) -> (String, String) {
    let first = paths.first().copied().unwrap_or("");
    let json = match shape {
        0 => serde_json::json!({ "file_path": first }),
        1 => serde_json::json!({ "paths": paths }),
        2 => serde_json::json!({ "pattern": "x", "path": first }),
        3 => serde_json::json!({ "pattern": format!("{first}/*") }),
        4 => serde_json::json!({ "notebook_path": first, "include": ["*.pem"] }),
        5 => serde_json::json!({}),
        6 => serde_json::json!({ "file_path": 3 }),
        7 => {
            serde_json::json!({ "command": format!("*** Begin Patch\n*** Update File: {first}\n*** End Patch") })
        }
        _ => return (first.to_string(), first.to_string()),
    };
    (first.to_string(), json.to_string())
}

fn request() -> impl Strategy<Value = Request> {
    let paths = prop::collection::vec(prop::sample::select(PATHS), 1..3);
    prop_oneof![
        3 => (
            prop::sample::select(vec!["read", "edit"]),
            paths.clone(),
            0..9u8,
            prop::sample::select(vec!["", "Read", "Glob", "Grep", "Write", "Edit", "NotebookEdit"]),
        )
            .prop_map(|(tool, ps, shape, name)| {
                let (subject, input_text) = path_input(&ps, shape);
                Request::Tool { tool: tool.into(), subject, input_text, name: name.into() }
            }),
        2 => prop::sample::select(URLS).prop_map(|u| Request::Tool {
            tool: "webfetch".into(),
            subject: u.into(),
            input_text: serde_json::json!({ "url": u }).to_string(),
            name: "WebFetch".into(),
        }),
        2 => (
            prop::sample::select(vec![
                "mcp__github__delete_repo",
                "mcp__github__get_issue",
                "mcp__docs__x",
                "mcp__fs__read",
                "mcp__a___b",
                "mcp__other__x",
            ]),
            paths,
            prop::sample::select(vec!["secret", "x"]),
        )
            .prop_map(|(t, ps, q)| {
                let input = serde_json::json!({ "path": ps[0], "query": q }).to_string();
                Request::Tool { tool: t.into(), subject: ps[0].into(), input_text: input, name: t.into() }
            }),
        1 => prop::sample::select(vec![
            (r#"{"model":"opus-4","prompt":".env"}"#, "Task"),
            (r#"{"model":"sonnet","prompt":"x"}"#, "Task"),
            (r#"{"query":"evil.com"}"#, "websearch"),
            (r#"{"x":1}"#, "Other"),
        ])
        .prop_map(|(i, t)| Request::Tool { tool: t.into(), subject: String::new(), input_text: i.into(), name: t.into() }),
        2 => prop::sample::select(TOOL_COMMANDS).prop_map(|c| Request::Bash { command: c.into() }),
        1 => command().prop_map(|c| Request::Bash { command: c }),
    ]
}

/// PROPTEST_CASES, else `default`.
fn cases(default: u32) -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn test_ctx(in_src: bool) -> Context {
    let root = PathBuf::from("/nonexistent/proj");
    Context {
        cwd: Some(if in_src {
            root.join("src")
        } else {
            root.clone()
        }),
        project_root: Some(root),
        home: Some(PathBuf::from("/nonexistent/home")),
    }
}

/// The generators reach every decision for tool requests and commands that touch files
/// and URLs (a differential test over inputs that all decide alike would prove nothing).
#[test]
fn tool_generators_reach_every_decision() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let mut seen = std::collections::BTreeSet::new();
    for _ in 0..1500 {
        let p = mixed_policy().new_tree(&mut runner).unwrap().current();
        let req = request().new_tree(&mut runner).unwrap().current();
        let reference = Reference::new(&p);
        let out = decide_in(&reference, "claude", &req, &test_ctx(false)).unwrap();
        let kind = match &req {
            Request::Bash { .. } => "bash".to_string(),
            Request::Tool { tool, .. } if tool.starts_with("mcp__") => "mcp".into(),
            Request::Tool { tool, .. } => tool.clone(),
        };
        seen.insert((kind, format!("{:?}", out.decision)));
    }
    for kind in ["read", "edit", "webfetch", "mcp", "bash"] {
        for d in ["Deny", "Ask", "Allow", "Default"] {
            assert!(
                seen.contains(&(kind.to_string(), d.to_string())),
                "no {kind} request decided {d}: {seen:?}"
            );
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(1000), max_shrink_iters: 2000, ..ProptestConfig::default() })]

    #[test]
    fn tool_rules_agree_with_reference(
        p in mixed_policy(),
        reqs in prop::collection::vec(request(), 1..5),
        host in prop::sample::select(vec!["claude", "codex"]),
        in_src in any::<bool>(),
    ) {
        let t = tables(&p);
        let reference = Reference::new(&p);
        let in_memory = TableRules::new(|k| t.compiled.section(k)).unwrap();
        let from_bytes = TableRules::new(|k| t.loaded.section(k)).unwrap();
        let from_file = TableRules::new(|k| t.mapped.section(k)).unwrap();
        let ctx = test_ctx(in_src);
        for req in reqs {
            let want = decide_in(&reference, host, &req, &ctx).unwrap();
            for (name, src) in [("memory", &in_memory), ("bytes", &from_bytes), ("file", &from_file)] {
                let got = decide_in(src, host, &req, &ctx).unwrap();
                prop_assert_eq!(&got, &want, "{} disagrees on {:?}", name, req);
            }
        }
    }
}

/// Every hit of one question, sorted (the index and the linear scan report in different
/// orders; the procedure de-duplicates, so compare as sorted lists, duplicates kept).
fn path_hits(
    src: &dyn polc::runtime::RuleSource,
    tool: &str,
    q: &polc::runtime::PathQuery,
    ctx: &Context,
    side: polc::runtime::Side,
    host: &str,
) -> Vec<u32> {
    let mut v = Vec::new();
    src.match_path(tool, q, ctx, side, host, &mut |r| v.push(r))
        .unwrap();
    v.sort_unstable();
    v
}

fn under_hits(
    src: &dyn polc::runtime::RuleSource,
    tool: &str,
    folder: &std::path::Path,
    ctx: &Context,
    host: &str,
) -> Vec<u32> {
    let mut v = Vec::new();
    src.match_path_under(tool, folder, ctx, host, &mut |r| v.push(r))
        .unwrap();
    v.sort_unstable();
    v
}

fn tool_hits(
    src: &dyn polc::runtime::RuleSource,
    url: &str,
    host: &str,
) -> Vec<(u32, polc::pattern::Match)> {
    let mut v = Vec::new();
    src.match_tool("webfetch", url, "", host, &mut |r, m| v.push((r, m)))
        .unwrap();
    v.sort_unstable();
    v
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(1000), max_shrink_iters: 2000, ..ProptestConfig::default() })]

    /// The path and web indexes (issue 16) find exactly the rules the reference's linear
    /// scan finds, for every path of `PATHS` (both file tools, both sides, and as a folder
    /// read recursively) and every URL of `URLS`: an index that left out a deny would show
    /// here even where another rule decides the same.
    #[test]
    fn path_and_web_index_hits_agree(
        p in mixed_policy(),
        host in prop::sample::select(vec!["claude", "codex"]),
        in_src in any::<bool>(),
    ) {
        use polc::runtime::Side;
        let t = tables(&p);
        let reference = Reference::new(&p);
        let table = TableRules::new(|k| t.mapped.section(k)).unwrap();
        let ctx = test_ctx(in_src);
        for path in PATHS {
            let q = polc::runtime::PathQuery::new(path, &ctx);
            for tool in ["read", "edit"] {
                for side in [Side::Allow, Side::Restrict] {
                    let want = path_hits(&reference, tool, &q, &ctx, side, host);
                    let got = path_hits(&table, tool, &q, &ctx, side, host);
                    prop_assert_eq!(got, want, "{} {:?} {:?}", tool, side, path);
                }
                let want = under_hits(&reference, tool, &q.lexical, &ctx, host);
                let got = under_hits(&table, tool, &q.lexical, &ctx, host);
                prop_assert_eq!(got, want, "under {} {:?}", tool, path);
            }
        }
        for url in URLS {
            prop_assert_eq!(tool_hits(&table, url, host), tool_hits(&reference, url, host), "{:?}", url);
        }
    }
}
