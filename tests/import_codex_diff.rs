//! Differential test of `polc import --from codex` against Codex's own decision code:
//! `codex execpolicy check --rules FILE -- TOKENS…` of the pinned Codex release
//! (tests/agents/versions.json, installed by tests/agents/run into
//! `$POLC_AGENTS_CACHE`, default `~/.cache/polc-agents/codex-VERSION`). On random rule sets
//! and commands, polc's decision of the imported rules must never be allow where Codex's is
//! not allow, and every Codex `forbidden` must be a polc deny. Other disagreements (polc
//! stricter) are counted by kind and printed; src/import/README.md lists them. Without the
//! Codex binary the test prints why it is skipped and passes (set POLC_REQUIRE_CODEX=1 to
//! make that a failure, as CI does once tests/agents/run has installed it).

#[path = "common/diff.rs"]
mod diff;

use diff::{Rng, Tally};
use polc::import::Host;
use polc::ir::Decision;
use std::path::{Path, PathBuf};
use std::process::Command;

fn codex_bin() -> Result<PathBuf, String> {
    let (version, dir) = diff::pinned("codex")?;
    let vendor = dir.join("node_modules/@openai/codex-linux-x64/vendor");
    let found = std::fs::read_dir(&vendor)
        .ok()
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path().join("bin/codex"))
        .find(|p| p.is_file());
    found.ok_or_else(|| {
        format!(
            "the pinned Codex {version} is not installed under {} (tests/agents/run installs it)",
            vendor.display()
        )
    })
}

const WORDS: &[&str] = &[
    "git", "push", "status", "rm", "-rf", "-f", "ls", "cargo", "test", "npm", "publish", "x",
    "--force", "origin",
];
const DECISIONS: &[&str] = &["allow", "prompt", "forbidden"];

fn rules_text(rng: &mut Rng) -> String {
    let mut out = String::new();
    for _ in 0..rng.upto(5) {
        let mut pattern = Vec::new();
        for _ in 0..rng.upto(3) {
            if rng.next().is_multiple_of(4) {
                pattern.push(format!(
                    "[\"{}\", \"{}\"]",
                    rng.pick(WORDS),
                    rng.pick(WORDS)
                ));
            } else {
                pattern.push(format!("\"{}\"", rng.pick(WORDS)));
            }
        }
        out.push_str(&format!(
            "prefix_rule(pattern = [{}], decision = \"{}\")\n",
            pattern.join(", "),
            rng.pick(DECISIONS)
        ));
    }
    out
}

fn codex_decision(bin: &Path, rules: &Path, tokens: &[String]) -> Decision {
    let out = Command::new(bin)
        .args(["execpolicy", "check", "--rules"])
        .arg(rules)
        .arg("--")
        .args(tokens)
        .env("CODEX_HOME", rules.parent().unwrap())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "codex: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    match v["decision"].as_str() {
        None => Decision::Default,
        Some("allow") => Decision::Allow,
        Some("prompt") => Decision::Ask,
        Some("forbidden") => Decision::Deny,
        Some(d) => panic!("unknown Codex decision {d}"),
    }
}

#[test]
fn polc_never_allows_what_codex_does_not() {
    let bin = match codex_bin() {
        Ok(b) => b,
        Err(why) => return diff::skip("Codex", &why, "POLC_REQUIRE_CODEX"),
    };
    let (seed, sets) = diff::seed_and_sets(0x5eed_c0de);
    let mut rng = Rng(seed | 1);
    let dir = tempfile::tempdir().unwrap();
    let ctx = diff::ctx(dir.path());
    let mut tally = Tally::default();
    for set in 0..sets {
        let text = rules_text(&mut rng);
        let file = dir.path().join("x.rules");
        std::fs::write(&file, &text).unwrap();
        let compiled = diff::import_compiled(Host::Codex, &ctx, &file, &text);
        for _ in 0..10 {
            let tokens: Vec<String> = (0..rng.upto(4))
                .map(|_| rng.pick(WORDS).to_string())
                .collect();
            let cmd = tokens.join(" ");
            let want = codex_decision(&bin, &file, &tokens);
            let got = diff::decide(&compiled, "codex", &cmd);
            tally.add("Codex", set, &cmd, want, got, &text);
        }
    }
    tally.finish("Codex", sets, seed);
}
