//! The harness shared by the import differential tests (`tests/import_*_diff.rs`): the
//! pinned agent's install folder, the seeded generator, importing a native file into a
//! compiled table, polc's decision of a command, and the tally of disagreements (a
//! violation: polc allows what the agent does not allow, or the agent denies and polc does
//! not; any other disagreement is polc being stricter, counted by kind).

use polc::compile::Compiled;
use polc::import::{self, Ctx, Host, Scope};
use polc::ir::{Decision, Tier};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The pinned version of `agent` (tests/agents/versions.json) and the folder
/// tests/agents/run installs it into: `$POLC_AGENTS_CACHE` (default
/// `~/.cache/polc-agents`)`/AGENT-VERSION`.
pub fn pinned(agent: &str) -> Result<(String, PathBuf), String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let pins: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(root.join("tests/agents/versions.json")).unwrap(),
    )
    .unwrap();
    let version = pins["agents"][agent]["version"]
        .as_str()
        .unwrap()
        .to_string();
    let cache = std::env::var_os("POLC_AGENTS_CACHE")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache/polc-agents")))
        .ok_or("no HOME")?;
    let dir = cache.join(format!("{agent}-{version}"));
    Ok((version, dir))
}

/// The agent is not installed: fail when `require` (an environment variable) is set, else
/// say why the test is skipped.
pub fn skip(what: &str, why: &str, require: &str) {
    if std::env::var_os(require).is_some() {
        panic!("{why}");
    }
    say(&format!("SKIPPED: {what} differential: {why}"));
}

/// Written straight to the process's stderr, past the test harness's capture: a skip or a
/// summary shows in every `cargo test` run, not only with --nocapture.
pub fn say(msg: &str) {
    use std::io::Write as _;
    let _ = writeln!(std::io::stderr().lock(), "{msg}");
}

/// `POLC_DIFF_SEED` (else `default_seed`) and `POLC_DIFF_SETS` (else 30).
pub fn seed_and_sets(default_seed: u64) -> (u64, usize) {
    let seed: u64 = std::env::var("POLC_DIFF_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default_seed);
    let sets: usize = std::env::var("POLC_DIFF_SETS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(30);
    (seed, sets)
}

/// A small deterministic generator (xorshift).
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    pub fn pick<'a>(&mut self, v: &[&'a str]) -> &'a str {
        v[(self.next() % v.len() as u64) as usize]
    }
    pub fn upto(&mut self, n: u64) -> u64 {
        1 + self.next() % n
    }
}

/// An import context with every folder inside `dir` (nothing of the machine's is read).
pub fn ctx(dir: &Path) -> Ctx {
    Ctx {
        home: dir.join("home"),
        project: dir.to_path_buf(),
        system: dir.join("sys"),
        xdg_config: None,
        codex_home: None,
    }
}

/// `polc import --from HOST FILE` (the file holds `text`), rendered, loaded and compiled.
pub fn import_compiled(host: Host, ctx: &Ctx, file: &Path, text: &str) -> Compiled {
    let imp = import::import(host, ctx, &[file.to_path_buf()], &[]);
    assert!(!imp.has_errors(), "{}\n{text}", imp.diags.render_all());
    let pol = import::render(&imp, Scope::Project);
    let (policy, _) = polc::lower::load_str("imported.pol", &pol, Tier::Project)
        .unwrap_or_else(|d| panic!("{}\n{pol}", d.render_all()));
    polc::compile::compile(&policy).unwrap()
}

/// polc's decision of a shell command under a compiled table (a corrupt table denies).
pub fn decide(compiled: &Compiled, host: &str, cmd: &str) -> Decision {
    let rules = polc::runtime::table_rules::TableRules::new(|k| compiled.section(k)).unwrap();
    let req = polc::runtime::Request::Bash {
        command: cmd.to_string(),
    };
    polc::runtime::decide(&rules, host, &req)
        .map(|o| o.decision)
        .unwrap_or(Decision::Deny)
}

/// The disagreements of one run.
#[derive(Default)]
pub struct Tally {
    pub n: usize,
    kinds: BTreeMap<String, usize>,
    samples: BTreeMap<String, String>,
    violations: Vec<String>,
}

impl Tally {
    /// One command of rule set `set` (its native `text`): the agent's answer `want`, polc's
    /// `got`.
    pub fn add(
        &mut self,
        agent: &str,
        set: usize,
        cmd: &str,
        want: Decision,
        got: Decision,
        text: &str,
    ) {
        self.n += 1;
        if got == Decision::Allow && want != Decision::Allow
            || want == Decision::Deny && got != Decision::Deny
        {
            self.violations.push(format!(
                "set {set}: `{cmd}`: {agent} {}, polc {}\n{text}",
                want.as_str(),
                got.as_str()
            ));
        } else if got != want {
            let k = format!("{agent} {} → polc {}", want.as_str(), got.as_str());
            self.samples
                .entry(k.clone())
                .or_insert_with(|| format!("`{cmd}` under {}", text.replace('\n', "; ")));
            *self.kinds.entry(k).or_default() += 1;
        }
    }

    /// Print the counts and fail on any violation.
    pub fn finish(self, agent: &str, sets: usize, seed: u64) {
        let Tally {
            n,
            kinds,
            samples,
            violations,
        } = self;
        say(&format!("{agent} differential: {n} calls over {sets} rule sets (seed {seed}); disagreements where polc is stricter: {kinds:?}; e.g. {samples:#?}"));
        assert!(violations.is_empty(), "{}", violations.join("\n---\n"));
    }
}
