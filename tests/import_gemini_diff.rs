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

#[path = "common/diff.rs"]
mod diff;

use diff::{Rng, Tally};
use polc::import::Host;
use polc::ir::Decision;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn gemini_core() -> Result<PathBuf, String> {
    let (version, dir) = diff::pinned("gemini")?;
    let pkg = dir.join("node_modules/@google/gemini-cli-core");
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
        Err(why) => return diff::skip("Gemini", &why, "POLC_REQUIRE_GEMINI"),
    };
    let (seed, sets) = diff::seed_and_sets(0x6e6d_1a11);
    let mut rng = Rng(seed | 1);
    let dir = tempfile::tempdir().unwrap();
    let ctx = diff::ctx(dir.path());
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
    let tables: Vec<_> = texts
        .iter()
        .map(|(file, text)| diff::import_compiled(Host::Gemini, &ctx, file, text))
        .collect();
    let mut tally = Tally::default();
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
        let got = diff::decide(&tables[set], "gemini", cmd);
        tally.add("Gemini", set, cmd, want, got, &texts[set].1);
    }
    assert!(tally.n > 0, "no results from the harness:\n{stdout}");
    tally.finish("Gemini", sets, seed);
}
