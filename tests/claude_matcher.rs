//! Differential test against Claude Code's own permission check (issue 11).
//!
//! The pinned `@anthropic-ai/claude-code` (tests/claude_matcher/VERSION, installed outside
//! the repository by tests/claude_matcher/install.sh) decides every call through its own
//! permission function, driven by tests/claude_matcher/harness.mjs; `polc hook --host
//! claude` decides the same calls with the same rules given as `.claude/settings.json`.
//! The contract: no call polc allows that Claude Code does not allow, and no call Claude
//! Code denies that polc does not deny. Cases: the corpus of real-shaped configurations in
//! tests/claude_matcher/corpus.json, and random rule sets × commands from a fixed seed
//! (`POLC_DIFF_SEED`, `POLC_DIFF_SETS` change them).
//!
//! Skipping (no node, package not installed) fails unless `POLC_SKIP_CLAUDE_MATCHER` gives
//! the reason, which is printed.
//!
//! Calls where Claude Code asks only because of its own checks on paths outside the
//! working folders (issue 11 item 4, owned by the security work) are counted apart and
//! listed, not held against the contract here.

mod common;

use common::{root, Project};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn version() -> String {
    std::fs::read_to_string(root().join("tests/claude_matcher/VERSION"))
        .unwrap()
        .trim()
        .to_string()
}

fn package_dir() -> Option<PathBuf> {
    if let Ok(d) = std::env::var("POLC_CLAUDE_CODE_DIR") {
        return Some(PathBuf::from(d));
    }
    let cache = std::env::var("POLC_AGENTS_CACHE")
        .map(PathBuf::from)
        .or_else(|_| std::env::var("XDG_CACHE_HOME").map(|x| PathBuf::from(x).join("polc-agents")))
        .or_else(|_| std::env::var("HOME").map(|h| PathBuf::from(h).join(".cache/polc-agents")))
        .ok()?;
    let p = cache
        .join(format!("claude-code-{}", version()))
        .join("node_modules/@anthropic-ai/claude-code");
    p.join("cli.js").is_file().then_some(p)
}

/// A rule set and the calls to decide under it.
#[derive(Clone, Debug)]
struct Case {
    id: String,
    allow: Vec<String>,
    deny: Vec<String>,
    ask: Vec<String>,
    calls: Vec<(String, Value)>,
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .map(|a| {
            a.iter()
                .filter_map(|x| x.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

fn corpus(proj: &Path, home: &Path) -> Vec<Case> {
    let text = std::fs::read_to_string(root().join("tests/claude_matcher/corpus.json")).unwrap();
    let text = text
        .replace("$P", proj.to_str().unwrap())
        .replace("$H", home.to_str().unwrap());
    let v: Value = serde_json::from_str(&text).unwrap();
    v["configs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| Case {
            id: c["id"].as_str().unwrap().to_string(),
            allow: strings(&c["allow"]),
            deny: strings(&c["deny"]),
            ask: strings(&c["ask"]),
            calls: c["calls"]
                .as_array()
                .unwrap()
                .iter()
                .map(|k| match k {
                    Value::String(s) => ("Bash".to_string(), json!({ "command": s })),
                    _ => (k["tool"].as_str().unwrap().to_string(), k["input"].clone()),
                })
                .collect(),
        })
        .collect()
}

/// A small deterministic generator (xorshift64*).
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn pick<'a>(&mut self, xs: &[&'a str]) -> &'a str {
        xs[self.below(xs.len())]
    }
    fn chance(&mut self, pct: u64) -> bool {
        self.next() % 100 < pct
    }
}

const PROGS: &[&str] = &[
    "git", "npm", "node", "rm", "curl", "python3", "echo", "gh", "docker", "make", "mkdir", "sudo",
    "bash", "cat",
];
const ARGS: &[&str] = &[
    "status",
    "push",
    "push --force",
    "-rf x",
    "run test",
    "server.js",
    "-e x",
    "api users/x",
    "-X DELETE",
    "-c 'print(1)'",
    "origin main",
    "-fsSL URL",
    "build",
    "*",
    "a b",
    "--version",
];

fn random_rule(r: &mut Rng) -> String {
    let p = r.pick(PROGS);
    let a = r.pick(ARGS);
    let b = r.pick(ARGS);
    match r.below(18) {
        0 => format!("Bash({p})"),
        1 => format!("Bash({p} {a})"),
        2 => format!("Bash({p}:*)"),
        3 => format!("Bash({p} {a}:*)"),
        4 => format!("Bash({p} *)"),
        5 => format!("Bash({p} {a} *)"),
        6 => format!("Bash({p} * {a})"),
        7 => format!("Bash(* {a})"),
        8 => format!("Bash({p} *:*)"),
        9 => format!("Bash({p} * {a}:*)"),
        10 => "Bash".to_string(),
        11 => format!("Bash({p} {a} | {}*)", r.pick(PROGS)),
        12 => "Bash(> /dev/*)".to_string(),
        13 => format!("Bash({p} {a}*)"),
        14 => format!("Bash({p} * *)"),
        15 => format!("Bash({p} {a} {b})"),
        16 => format!("Bash({p}*)"),
        _ => format!("Bash({p} \\* {a})"),
    }
}

fn random_command(r: &mut Rng, rules: &[String]) -> String {
    // Mostly from a rule's own words, so that rules match often.
    let mut base = if !rules.is_empty() && r.chance(70) {
        let rule = &rules[r.below(rules.len())];
        let inner = rule
            .strip_prefix("Bash(")
            .and_then(|x| x.strip_suffix(')'))
            .unwrap_or("ls");
        let inner = inner.trim_end_matches(":*").replace("\\*", "*");
        inner
            .split(' ')
            .map(|w| {
                if w.contains('*') && r.chance(70) {
                    w.replace('*', r.pick(&["x", "a b", "", "--force", "-X DELETE"]))
                } else {
                    w.to_string()
                }
            })
            .collect::<Vec<_>>()
            .join(" ")
    } else {
        format!("{} {}", r.pick(PROGS), r.pick(ARGS))
    };
    if r.chance(30) {
        base = format!("{base} {}", r.pick(ARGS));
    }
    if r.chance(10) {
        base = format!(
            "{} {base}",
            r.pick(&["FOO=1", "timeout 5", "nice", "nohup", "sudo", "env"])
        );
    }
    if r.chance(10) {
        base = format!(
            "{base} {}",
            r.pick(&["> out.txt", "2>/dev/null", "2>&1", ">> log"])
        );
    }
    if r.chance(15) {
        let op = r.pick(&[" && ", " | ", "; ", " || "]);
        base = format!("{base}{op}{} {}", r.pick(PROGS), r.pick(ARGS));
    }
    if r.chance(5) {
        base = base.to_uppercase();
    }
    match r.below(12) {
        // Blanks, quoting and escapes Claude Code and polc may read differently.
        0 => base = base.replacen(' ', "  ", 1),
        1 => base = base.replacen(' ', "\t", 1),
        2 => {
            if let Some((p, rest)) = base.split_once(' ') {
                base = format!("{p} '{rest}'");
            }
        }
        3 => base = base.replace('*', "\\*"),
        4 => base = format!("xargs {base}"),
        5 => base = format!("{base}\n{}", r.pick(PROGS)),
        6 => base = format!("\"{}\"", base.replacen(' ', "\" ", 1)),
        _ => {}
    }
    let base = base.trim().to_string();
    if base.is_empty() {
        "ls".into()
    } else {
        base
    }
}

fn random_cases(seed: u64, sets: usize) -> Vec<Case> {
    let mut r = Rng(seed | 1);
    (0..sets)
        .map(|i| {
            let n = 1 + r.below(5);
            let (mut allow, mut deny, mut ask) = (Vec::new(), Vec::new(), Vec::new());
            for _ in 0..n {
                let rule = random_rule(&mut r);
                match r.below(4) {
                    0 | 1 => allow.push(rule),
                    2 => deny.push(rule),
                    _ => ask.push(rule),
                }
            }
            let all: Vec<String> = allow.iter().chain(&deny).chain(&ask).cloned().collect();
            let calls = (0..12)
                .map(|_| {
                    let c = random_command(&mut r, &all);
                    ("Bash".to_string(), json!({ "command": c }))
                })
                .collect();
            Case {
                id: format!("random-{seed}-{i}"),
                allow,
                deny,
                ask,
                calls,
            }
        })
        .collect()
}

/// Claude Code's answers: (behavior, reason) per case and call.
fn claude_answers(
    pkg: &Path,
    cwd: &Path,
    conf: &Path,
    cases: &[Case],
) -> Vec<Vec<(String, String)>> {
    let input = json!({
        "cases": cases.iter().map(|c| json!({
            "id": c.id, "allow": c.allow, "deny": c.deny, "ask": c.ask,
            "calls": c.calls.iter().map(|(t, i)| json!({"tool": t, "input": i})).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
    });
    let out = run_harness(pkg, cwd, conf, &input);
    let mut res: Vec<Vec<(String, String)>> = cases
        .iter()
        .map(|c| vec![Default::default(); c.calls.len()])
        .collect();
    let index: std::collections::HashMap<&str, usize> = cases
        .iter()
        .enumerate()
        .map(|(i, c)| (c.id.as_str(), i))
        .collect();
    for r in out["results"].as_array().unwrap() {
        let i = index[r["id"].as_str().unwrap()];
        let k = r["call"].as_u64().unwrap() as usize;
        res[i][k] = (
            r["behavior"].as_str().unwrap().to_string(),
            r["reason"].as_str().unwrap_or("").to_string(),
        );
    }
    res
}

fn run_harness(pkg: &Path, cwd: &Path, conf: &Path, input: &Value) -> Value {
    use std::io::Write;
    let mut child = Command::new("node")
        .arg(root().join("tests/claude_matcher/harness.mjs"))
        .arg(pkg)
        .current_dir(cwd)
        .env("CLAUDE_CONFIG_DIR", conf)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("node runs");
    let body = serde_json::to_vec(input).unwrap();
    let mut si = child.stdin.take().unwrap();
    std::thread::spawn(move || {
        let _ = si.write_all(&body);
    });
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "harness failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("harness prints JSON")
}

/// polc's answer for one call: allow / ask / deny / default.
fn polc_answer(p: &Project, tool: &str, input: &Value) -> String {
    let req = json!({
        "hook_event_name": "PreToolUse",
        "tool_name": tool,
        "tool_input": input,
        "cwd": p.dir.path(),
        "session_id": "diff",
        "permission_mode": "default",
    });
    let r = p.run_stdin(&["hook", "--host", "claude"], req.to_string().as_bytes());
    if r.code() != 0 {
        return format!("error({})", r.code());
    }
    let s = r.stdout();
    if s.trim().is_empty() {
        return "default".into();
    }
    let v: Value = serde_json::from_str(&s).unwrap();
    v["hookSpecificOutput"]["permissionDecision"]
        .as_str()
        .unwrap_or("default")
        .to_string()
}

/// Claude Code asked because of its own checks, not a rule: paths outside the working
/// folders (and, in the default mode, any write), critical paths, flags it cannot
/// validate, `cd` with a write, dangerous `sed`, fragments. Issue 11 item 4 (owned by the
/// security work) makes polc keep these; until then they are counted apart, not held
/// against the rule contract.
fn claude_own_check(reason: &str) -> bool {
    reason.starts_with("path check:")
        || reason.starts_with("workingDir")
        || [
            ": dangerous-path:",
            ": flag-validation:",
            ": cd-compound-write:",
            ": sed-dangerous:",
            "incomplete fragment",
        ]
        .iter()
        .any(|k| reason.contains(k))
}

/// Forms the README lists as equivalent (polc allows, Claude Code asks): a subshell or
/// group around allowed commands.
fn listed_equivalent(input: &Value, reason: &str) -> bool {
    let cmd = input["command"].as_str().unwrap_or("");
    reason.contains("shell operators") && cmd.trim_start().starts_with('(')
}

#[test]
fn polc_never_allows_more_or_denies_less_than_claude_code() {
    let Some(pkg) = package_dir() else {
        match std::env::var("POLC_SKIP_CLAUDE_MATCHER") {
            Ok(why) if !why.trim().is_empty() => {
                eprintln!("claude_matcher skipped: {why}");
                return;
            }
            _ => panic!(
                "@anthropic-ai/claude-code {} is not installed: run tests/claude_matcher/install.sh, or set POLC_SKIP_CLAUDE_MATCHER to the reason for skipping",
                version()
            ),
        }
    };
    if Command::new("node").arg("--version").output().is_err() {
        match std::env::var("POLC_SKIP_CLAUDE_MATCHER") {
            Ok(why) if !why.trim().is_empty() => {
                eprintln!("claude_matcher skipped: {why}");
                return;
            }
            _ => panic!(
                "node is not installed: install it, or set POLC_SKIP_CLAUDE_MATCHER to the reason"
            ),
        }
    }
    let p = Project::new();
    let conf = tempfile::tempdir().unwrap();
    let home = std::env::var("HOME")
        .map(PathBuf::from)
        .unwrap_or("/root".into());
    let proj = p.dir.path().canonicalize().unwrap();
    let seed: u64 = std::env::var("POLC_DIFF_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(20261201);
    let sets: usize = std::env::var("POLC_DIFF_SETS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(120);
    let mut cases = corpus(&proj, &home);
    let n_corpus = cases.len();
    cases.extend(random_cases(seed, sets));
    let claude = claude_answers(&pkg, &proj, conf.path(), &cases);

    let mut calls = 0;
    let mut matrix = std::collections::BTreeMap::<(String, String), usize>::new();
    let mut violations = Vec::new();
    let mut path_checks = Vec::new();
    let mut equivalent = Vec::new();
    for (ci, case) in cases.iter().enumerate() {
        let settings =
            json!({"permissions": {"allow": case.allow, "deny": case.deny, "ask": case.ask}});
        p.write(".claude/settings.json", &settings.to_string());
        let b = p.run(&[
            "build",
            ".claude/settings.json",
            "-o",
            "compiled/policy.bin",
        ]);
        assert_eq!(b.code(), 0, "{}: build failed:\n{}", case.id, b.stderr());
        p.trust("compiled/policy.bin");
        for (k, (tool, input)) in case.calls.iter().enumerate() {
            let (cb, reason) = &claude[ci][k];
            if cb == "error" {
                panic!(
                    "{}: Claude Code's check failed on {tool} {input}: {reason}",
                    case.id
                );
            }
            let cb = if cb == "passthrough" {
                "ask"
            } else {
                cb.as_str()
            };
            let pb = polc_answer(&p, tool, input);
            calls += 1;
            *matrix.entry((cb.to_string(), pb.clone())).or_default() += 1;
            let line = format!(
                "{}: {tool} {} — Claude {cb} ({reason}), polc {pb}; rules allow {:?} deny {:?} ask {:?}",
                case.id, input, case.allow, case.deny, case.ask
            );
            let more_allow = pb == "allow" && cb != "allow";
            let less_deny = cb == "deny" && pb != "deny";
            if more_allow && listed_equivalent(input, reason) {
                equivalent.push(line);
            } else if more_allow && claude_own_check(reason) {
                path_checks.push(line);
            } else if more_allow || less_deny {
                violations.push(line);
            }
        }
    }
    eprintln!(
        "claude_matcher: Claude Code {} — {} corpus configurations + {} random rule sets (seed {seed}), {calls} calls",
        version(),
        n_corpus,
        sets
    );
    for ((c, q), n) in &matrix {
        eprintln!("  Claude {c:>7} / polc {q:>7}: {n}");
    }
    eprintln!(
        "  polc allows where Claude Code asks only for its own checks (issue 11 item 4): {}",
        path_checks.len()
    );
    for l in &path_checks {
        eprintln!("    {l}");
    }
    eprintln!(
        "  polc allows a form the README lists as equivalent: {}",
        equivalent.len()
    );
    for l in &equivalent {
        eprintln!("    {l}");
    }
    assert!(
        violations.is_empty(),
        "{} disagreements:\n{}",
        violations.len(),
        violations.join("\n")
    );
}

/// The rule validator and the settings keys polc accepts follow the pinned release.
#[test]
fn validator_and_settings_keys_follow_claude_code() {
    let Some(pkg) = package_dir() else {
        assert!(
            std::env::var("POLC_SKIP_CLAUDE_MATCHER").is_ok_and(|w| !w.trim().is_empty()),
            "@anthropic-ai/claude-code is not installed (tests/claude_matcher/install.sh) and POLC_SKIP_CLAUDE_MATCHER gives no reason"
        );
        return;
    };
    let rules = [
        "Bash(sudo :* )",
        "Read(.env .* )",
        "Bash(:*)",
        "Bash(git:*)",
        "Bash(npm run *)",
        "Bash",
        "Bash(*)",
        "bash(ls)",
        "Bash(ls",
        "Bash()",
        "mcp__github(x)",
        "mcp__github__*",
        "WebFetch(https://x.com)",
        "WebFetch(x.com)",
        "WebFetch(domain:x.com)",
        "WebSearch(a*)",
        "Read(src/**)",
        "Read(*.env)",
        "Edit(a*b)",
        "Read(x:*)",
        "Grep(a*b)",
        "Bash(git:* status)",
        "Write(a*b)",
        "Glob(x*y)",
        "NotebookEdit(:*)",
        "",
    ];
    let conf = tempfile::tempdir().unwrap();
    let out = run_harness(&pkg, conf.path(), conf.path(), &json!({"validate": rules}));
    for v in out["validate"].as_array().unwrap() {
        let rule = v["rule"].as_str().unwrap();
        let theirs = v["error"].as_str();
        let ours = polc::syntax::claude::claude_rejects(rule);
        assert_eq!(ours, theirs, "validator disagrees on {rule:?}");
    }
    let keys = &out["settings_keys"];
    for k in strings(&keys["top"]) {
        assert!(
            k == "$schema"
                || k == "permissions"
                || polc::syntax::claude::SETTINGS_KEYS.contains(&k.as_str()),
            "Claude Code's settings key `{k}` is missing from SETTINGS_KEYS"
        );
    }
    for k in strings(&keys["permissions"]) {
        assert!(
            ["allow", "ask", "deny"].contains(&k.as_str())
                || polc::syntax::claude::PERMISSIONS_KEYS.contains(&k.as_str()),
            "Claude Code's permissions key `{k}` is missing from PERMISSIONS_KEYS"
        );
    }
}
