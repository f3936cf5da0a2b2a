//! Write a generated policy (see `benches/gen/mod.rs` for the mix):
//!
//!     cargo run --release --example gen_policy -- --rules 100000 --seed 1 -o /tmp/p100k.pol
//!
//!     cargo run --release --example gen_policy -- --rules 100000 --claude -o /tmp/permcheck.json
//!
//! `--claude` writes a `permcheck.json` of Claude rule strings instead (a fifth of them globs
//! like `Bash(git * z123 *)`). The same (`--rules`, `--seed`) always gives the same bytes.

#[path = "../benches/gen/mod.rs"]
mod gen;

fn main() {
    let mut rules = 1000usize;
    let mut seed = 1u64;
    let mut out: Option<String> = None;
    let mut claude = false;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut val = || {
            args.next()
                .unwrap_or_else(|| usage(&format!("{a} needs a value")))
        };
        match a.as_str() {
            "--rules" => rules = val().parse().unwrap_or_else(|_| usage("bad --rules")),
            "--seed" => seed = val().parse().unwrap_or_else(|_| usage("bad --seed")),
            "-o" | "--output" => out = Some(val()),
            "--claude" => claude = true,
            _ => usage(&format!("unknown argument {a}")),
        }
    }
    let text = if claude {
        gen::generate_claude(rules, seed)
    } else {
        gen::generate(rules, seed)
    };
    match out {
        Some(p) => std::fs::write(&p, text).unwrap_or_else(|e| usage(&format!("{p}: {e}"))),
        None => print!("{text}"),
    }
}

fn usage(msg: &str) -> ! {
    eprintln!("gen_policy: {msg}\nusage: gen_policy --rules N [--seed S] [--claude] [-o FILE]");
    std::process::exit(2)
}
