//! Content-rule costs at 10, 1,000 and 10,000 literals (issue "full rule vocabulary"):
//! the table's stored content index (hashed 4-byte guards) against what a hook would pay
//! with aho-corasick, whose automata cannot be serialised and so would be rebuilt per call.
//!
//!     cargo run --release --example content_cost

use polc::ir::{Pattern, PatternKind, Policy, Rule, Span, Tier, Verdict};
use polc::runtime::table_rules::TableRules;
use polc::runtime::{decide_in, Context, Request};
use std::time::Instant;

fn literal(i: usize) -> String {
    // Distinct, realistic-looking secrets and hosts.
    let x = (i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    match i % 3 {
        0 => format!("prod-db-{:x}.internal", x >> 40),
        1 => format!("AKIA{:016X}", x),
        _ => format!("token-{:x}", x >> 20),
    }
}

fn policy(n: usize) -> Policy {
    let mut p = Policy::default();
    let rule = |verdict, kind, text: String, i: usize| Rule {
        id: format!("r{i}"),
        verdict,
        tool: "bash".into(),
        patterns: vec![Pattern { kind, text }],
        reason: None,
        priority: 0,
        hosts: vec![],
        tags: vec![],
        text: String::new(),
        span: Span {
            file: "g.pol".into(),
            line: i as u32 + 1,
            column: 1,
        },
        tier: Tier::Project,
    };
    p.rules
        .push(rule(Verdict::Allow, PatternKind::Glob, "*".into(), 0));
    for i in 0..n {
        p.rules.push(rule(
            Verdict::Deny,
            PatternKind::Contains,
            literal(i),
            i + 1,
        ));
    }
    p
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v[v.len() / 2]
}

fn main() {
    let short = "git log --oneline -20 && cargo test --workspace -- --nocapture 2>&1 | tail -50"
        .to_string();
    let long = format!(
        "git commit -m '{}'",
        "fix the parser and add tests ".repeat(345)
    );
    println!("| literals | decide, {}-byte command | decide, {}-byte command | aho-corasick build (per call if not stored) | aho-corasick search, long |", short.len(), long.len());
    println!("|---|---|---|---|---|");
    for n in [10usize, 1_000, 10_000] {
        let p = policy(n);
        let c = polc::compile::compile(&p).expect("compiles");
        let t = TableRules::new(|k| c.section(k)).expect("sections");
        let ctx = Context::default();
        let time_decide = |cmd: &str| {
            let req = Request::Bash {
                command: cmd.into(),
            };
            let out = decide_in(&t, "claude", &req, &ctx).unwrap();
            assert_eq!(
                out.decision,
                polc::ir::Decision::Allow,
                "no literal occurs in the command"
            );
            let mut samples = Vec::new();
            for _ in 0..25 {
                let reps = 40;
                let t0 = Instant::now();
                for _ in 0..reps {
                    std::hint::black_box(decide_in(&t, "claude", &req, &ctx).unwrap());
                }
                samples.push(t0.elapsed().as_secs_f64() / reps as f64);
            }
            median(samples)
        };
        let ds = time_decide(&short);
        let dl = time_decide(&long);
        let lits: Vec<String> = (0..n).map(literal).collect();
        let mut builds = Vec::new();
        let mut searches = Vec::new();
        for _ in 0..15 {
            let t0 = Instant::now();
            let ac = aho_corasick::AhoCorasick::new(&lits).unwrap();
            builds.push(t0.elapsed().as_secs_f64());
            let t1 = Instant::now();
            std::hint::black_box(ac.find(&long));
            searches.push(t1.elapsed().as_secs_f64());
        }
        println!(
            "| {n} | {:.1} µs | {:.1} µs | {:.1} µs | {:.1} µs |",
            ds * 1e6,
            dl * 1e6,
            median(builds) * 1e6,
            median(searches) * 1e6
        );
    }
}
