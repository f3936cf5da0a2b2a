//! In-process benchmarks (issue 5): decide, table load and build at 10, 1k, 10k and 100k
//! generated rules (`benches/gen`). Run: `cargo bench --bench decide`; a subset:
//! `cargo bench --bench decide -- 'decide/1seg'`. Medians: `benches/criterion_table.py`.
//! Set `POLC_BENCH_SIZES=10,1000` to choose the rule counts.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use polc::ir::Tier;
use polc::runtime::table_rules::TableRules;
use polc::runtime::{decide, Request};
use polc::table::{Integrity, Table};
use std::path::{Path, PathBuf};
use std::time::Duration;

#[path = "gen/mod.rs"]
mod gen;

const SEED: u64 = 1;

fn sizes() -> Vec<usize> {
    std::env::var("POLC_BENCH_SIZES")
        .ok()
        .map(|s| s.split(',').filter_map(|x| x.trim().parse().ok()).collect())
        .unwrap_or_else(|| vec![10, 1_000, 10_000, 100_000])
}

/// Lower + compile + encode (what `polc build` does, minus examples and the write).
fn build(text: &str) -> Vec<u8> {
    let (policy, _) =
        polc::lower::load_str("gen.pol", text, Tier::Project).expect("generated policy lowers");
    let compiled = polc::compile::compile(&policy).expect("generated policy compiles");
    let sections: Vec<(u32, &[u8])> = compiled
        .sections
        .iter()
        .map(|(k, v)| (*k, v.as_slice()))
        .collect();
    polc::table::encode(&policy.sources, &compiled.counts, &sections)
}

struct Fixture {
    n: usize,
    text: String,
    path: PathBuf,
}

fn fixtures(dir: &Path) -> Vec<Fixture> {
    let mut out = Vec::new();
    for n in sizes() {
        let text = gen::generate(n, SEED);
        let path = dir.join(format!("gen{n}.bin"));
        polc::table::write_atomic(&path, &build(&text)).expect("write table");
        out.push(Fixture { n, text, path });
    }
    // The integrity cache records a table only once its ctime is 2 s old (table README).
    std::thread::sleep(Duration::from_millis(2_100));
    out
}

fn commands() -> Vec<(&'static str, String)> {
    let long = format!(
        "git commit -m '{}'",
        "fix the parser and add tests ".repeat(400)
    );
    let long = long[..10_000.min(long.len())].to_string() + "'";
    vec![
        ("1seg", "git status".to_string()),
        (
            "5seg",
            "git status && cargo build --release | tee log.txt; ls -la src && npm test".to_string(),
        ),
        (
            "subst",
            "echo $(git rev-parse HEAD) && kubectl get pods".to_string(),
        ),
        ("long10k", long),
    ]
}

fn benches(c: &mut Criterion) {
    let dir = tempfile::tempdir().expect("tempdir");
    let cache = dir.path().join("cache");
    std::fs::create_dir_all(&cache).expect("cache dir");
    let fx = fixtures(dir.path());

    let mut g = c.benchmark_group("decide");
    g.warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
    for f in &fx {
        let t = Table::open_with_cache(&f.path, None).expect("open");
        let rules = TableRules::new(|k| t.section(k)).expect("sections");
        for (name, cmd) in commands() {
            let req = Request::Bash { command: cmd };
            g.bench_with_input(BenchmarkId::new(name, f.n), &req, |b, req| {
                b.iter(|| decide(&rules, "claude", req).expect("decide"))
            });
        }
        let req = Request::Tool {
            tool: "read".into(),
            subject: "/srv/data7/x.key".into(),
            input_text: r#"{"file_path":"/srv/data7/x.key"}"#.into(),
            name: String::new(),
        };
        g.bench_with_input(BenchmarkId::new("read_tool", f.n), &req, |b, req| {
            b.iter(|| decide(&rules, "claude", req).expect("decide"))
        });
    }
    g.finish();

    let mut g = c.benchmark_group("load");
    g.warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
    for f in &fx {
        // First open of a file version: map + full CRC-32C + structure checks.
        g.bench_with_input(BenchmarkId::new("first_open_crc", f.n), &f.path, |b, p| {
            b.iter(|| {
                let t = Table::open_with_cache(p, None).expect("open");
                TableRules::new(|k| t.section(k))
                    .expect("sections")
                    .rule_count()
            })
        });
        // Later opens: the integrity cache holds the key, so no CRC.
        Table::open_with_cache(&f.path, Some(&cache)).expect("record");
        let t = Table::open_with_cache(&f.path, Some(&cache)).expect("open");
        assert_eq!(
            t.integrity(),
            Integrity::Cached,
            "cache should hit for {}",
            f.n
        );
        drop(t);
        g.bench_with_input(BenchmarkId::new("cached_open", f.n), &f.path, |b, p| {
            b.iter(|| {
                let t = Table::open_with_cache(p, Some(&cache)).expect("open");
                TableRules::new(|k| t.section(k))
                    .expect("sections")
                    .rule_count()
            })
        });
    }
    g.finish();

    let mut g = c.benchmark_group("build");
    g.sample_size(10)
        .warm_up_time(Duration::from_millis(100))
        .measurement_time(Duration::from_secs(3));
    for f in &fx {
        g.bench_with_input(
            BenchmarkId::new("lower_compile_encode", f.n),
            &f.text,
            |b, text| b.iter(|| build(text).len()),
        );
    }
    g.finish();
}

criterion_group!(all, benches);
criterion_main!(all);
