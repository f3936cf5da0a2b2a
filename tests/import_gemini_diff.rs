//! Differential test of `polc import --from gemini` against Gemini CLI core's own policy
//! loader and `PolicyEngine` (the pinned `@google/gemini-cli-core` of
//! tests/agents/versions.json, installed by tests/agents/run into `$POLC_AGENTS_CACHE`,
//! default `~/.cache/polc-agents/gemini-VERSION`), driven by
//! tests/fixtures/import/gemini_diff.mjs. On random TOML policies (shell command prefixes,
//! allow/deny/ask_user, random priorities) and commands: polc never allows what Gemini does
//! not allow, and a Gemini deny is a polc deny. Other disagreements (polc stricter: an allow
//! that outranks a deny or ask in Gemini loses in polc) are counted and printed. Without node
//! or the package the test prints why it is skipped and passes (POLC_REQUIRE_GEMINI=1 makes
//! that a failure).

use polc::import::{self, Ctx, Host, Scope};
use polc::ir::{Decision, Tier};
use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn gemini_core() -> Result<PathBuf, String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let pins: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(root.join("tests/agents/versions.json")).unwrap(),
    )
    .unwrap();
    let version = pins["agents"]["gemini"]["version"]
        .as_str()
        .unwrap()
        .to_string();
    let cache = std::env::var_os("POLC_AGENTS_CACHE")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache/polc-agents")))
        .ok_or("no HOME")?;
    let pkg = cache
        .join(format!("gemini-{version}"))
        .join("node_modules/@google/gemini-cli-core");
    if !pkg.join("dist/src/policy/policy-engine.js").is_file() {
        return Err(format!(
            "the pinned Gemini CLI core {version} is not installed under {} (tests/agents/run installs it)",
            pkg.display()
        ));
    }
    match Command::new("node").arg("--version").output() {
        Ok(o) if o.status.success() => Ok(pkg),
        _ => Err("node is not installed".into()),
    }
}

/// Written straight to the process's stderr, past the test harness's capture: a skip or a
/// summary shows in every `cargo test` run, not only with --nocapture.
fn say(msg: &str) {
    use std::io::Write as _;
    let _ = writeln!(std::io::stderr().lock(), "{msg}");
}

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn pick<'a>(&mut self, v: &[&'a str]) -> &'a str {
        v[(self.next() % v.len() as u64) as usize]
    }
    fn upto(&mut self, n: u64) -> u64 {
        1 + self.next() % n
    }
}

const WORDS: &[&str] = &[
    "git", "push", "status", "rm", "-rf", "ls", "npm", "publish", "x", "--force",
];
const DECISIONS: &[&str] = &["allow", "deny", "ask_user"];

fn policy(rng: &mut Rng) -> String {
    let mut out = String::new();
    for _ in 0..rng.upto(5) {
        let prefix: Vec<&str> = (0..rng.upto(3)).map(|_| rng.pick(WORDS)).collect();
        out.push_str(&format!(
            "[[rule]]\ntoolName = \"run_shell_command\"\ncommandPrefix = \"{}\"\ndecision = \"{}\"\npriority = {}\n\n",
            prefix.join(" "),
            rng.pick(DECISIONS),
            rng.next() % 1000
        ));
    }
    out
}

#[test]
fn polc_never_allows_what_gemini_does_not() {
    let pkg = match gemini_core() {
        Ok(p) => p,
        Err(why) => {
            if std::env::var_os("POLC_REQUIRE_GEMINI").is_some() {
                panic!("{why}");
            }
            say(&format!("SKIPPED: Gemini differential: {why}"));
            return;
        }
    };
    let seed: u64 = std::env::var("POLC_DIFF_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0x6e6d_1a11);
    let sets: usize = std::env::var("POLC_DIFF_SETS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(30);
    let mut rng = Rng(seed | 1);
    let dir = tempfile::tempdir().unwrap();
    let ctx = Ctx {
        home: dir.path().join("home"),
        project: dir.path().to_path_buf(),
        system: dir.path().join("sys"),
        xdg_config: None,
        codex_home: None,
    };
    let mut spec = Vec::new();
    let mut texts = Vec::new();
    for i in 0..sets {
        let d = dir.path().join(format!("set{i}"));
        std::fs::create_dir_all(&d).unwrap();
        let text = policy(&mut rng);
        std::fs::write(d.join("p.toml"), &text).unwrap();
        let commands: Vec<String> = (0..10)
            .map(|_| {
                let mut c: Vec<&str> = (0..rng.upto(4)).map(|_| rng.pick(WORDS)).collect();
                if rng.next().is_multiple_of(5) {
                    c.push("&&");
                    c.push(rng.pick(WORDS));
                }
                c.join(" ")
            })
            .collect();
        spec.push(serde_json::json!({"dir": d, "commands": commands}));
        texts.push((d.join("p.toml"), text));
    }
    let harness =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/import/gemini_diff.mjs");
    let mut child = Command::new("node")
        .arg(&harness)
        .arg(&pkg)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(serde_json::Value::Array(spec).to_string().as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    let results = stdout
        .split("\n@@RESULTS@@\n")
        .nth(1)
        .expect("harness output");
    let mut tables = Vec::new();
    for (file, text) in &texts {
        let imp = import::import(Host::Gemini, &ctx, std::slice::from_ref(file), &[]);
        assert!(!imp.has_errors(), "{}\n{text}", imp.diags.render_all());
        let pol = import::render(&imp, Scope::Project);
        let (policy, _) = polc::lower::load_str("imported.pol", &pol, Tier::Project)
            .unwrap_or_else(|d| panic!("{}\n{pol}", d.render_all()));
        tables.push(polc::compile::compile(&policy).unwrap());
    }
    let mut kinds: BTreeMap<String, usize> = BTreeMap::new();
    let mut samples: BTreeMap<String, String> = BTreeMap::new();
    let mut violations = Vec::new();
    let mut n = 0;
    for line in results.lines().filter(|l| !l.is_empty()) {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        let set = v["set"].as_u64().unwrap() as usize;
        assert!(
            v.get("errors").is_none(),
            "Gemini refused set {set}: {v}\n{}",
            texts[set].1
        );
        let cmd = v["cmd"].as_str().unwrap();
        let want = match (
            v["decision"].as_str().unwrap(),
            v["matched"].as_bool().unwrap(),
        ) {
            (_, false) => Decision::Default,
            ("allow", _) => Decision::Allow,
            ("deny", _) => Decision::Deny,
            ("ask_user", _) => Decision::Ask,
            (d, _) => panic!("unknown Gemini decision {d}"),
        };
        let rules =
            polc::runtime::table_rules::TableRules::new(|k| tables[set].section(k)).unwrap();
        let got = polc::runtime::decide(
            &rules,
            "gemini",
            &polc::runtime::Request::Bash {
                command: cmd.to_string(),
            },
        )
        .map(|o| o.decision)
        .unwrap_or(Decision::Deny);
        n += 1;
        if got == Decision::Allow && want != Decision::Allow
            || want == Decision::Deny && got != Decision::Deny
        {
            violations.push(format!(
                "set {set}: `{cmd}`: Gemini {}, polc {}\n{}",
                want.as_str(),
                got.as_str(),
                texts[set].1
            ));
        } else if got != want {
            let k = format!("Gemini {} → polc {}", want.as_str(), got.as_str());
            samples
                .entry(k.clone())
                .or_insert_with(|| format!("`{cmd}` under {}", texts[set].1.replace('\n', " ")));
            *kinds.entry(k).or_default() += 1;
        }
    }
    assert!(n > 0, "no results from the harness:\n{stdout}");
    say(&format!("Gemini differential: {n} calls over {sets} policies (seed {seed}); disagreements where polc is stricter: {kinds:?}; e.g. {samples:#?}"));
    assert!(violations.is_empty(), "{}", violations.join("\n---\n"));
}
