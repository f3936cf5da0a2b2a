//! The files polc reads on the hook path, changed while hooks run (issue 12 items 1–5) and
//! the layers, roots and state of issue 9 items 4–6, through the real binary.
//!
//! The concurrency tests run for a bounded time (`BUDGET`), print how many calls they
//! made (`cargo test --test state -- --nocapture`) and assert: 0 allows that the checked
//! table does not grant, 0 torn answers, 0 lost session records.

mod common;

use common::{polc_bin, Project};
use std::io::Write;
use std::path::Path;
use std::process::Command;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Wall time each concurrency test drives hooks for.
const BUDGET: Duration = Duration::from_secs(4);
/// Parallel hooks.
const WORKERS: usize = 20;

struct Answer {
    code: i32,
    stdout: String,
    stderr: String,
}

impl Answer {
    /// The Claude PreToolUse decision (`""` for no output).
    fn decision(&self) -> String {
        if self.stdout.trim().is_empty() {
            return String::new();
        }
        let v: serde_json::Value = serde_json::from_str(&self.stdout)
            .unwrap_or_else(|e| panic!("torn answer ({e}): {:?}", self.stdout));
        v["hookSpecificOutput"]["permissionDecision"]
            .as_str()
            .unwrap_or("?")
            .to_string()
    }
    fn reason(&self) -> String {
        serde_json::from_str::<serde_json::Value>(&self.stdout)
            .ok()
            .and_then(|v| {
                v["hookSpecificOutput"]["permissionDecisionReason"]
                    .as_str()
                    .map(str::to_string)
            })
            .unwrap_or_default()
    }
}

fn claude_json(sid: &str, cwd: &Path, cmd: &str) -> Vec<u8> {
    serde_json::json!({
        "session_id": sid, "cwd": cwd, "hook_event_name": "PreToolUse",
        "tool_name": "Bash", "tool_input": {"command": cmd}
    })
    .to_string()
    .into_bytes()
}

fn hook_cmd(p: &Project, host: &str) -> Command {
    let mut c = p.cmd(&["hook", "--host", host]);
    for k in [
        "GEMINI_PROJECT_DIR",
        "FACTORY_PROJECT_DIR",
        "CURSOR_PROJECT_DIR",
        "POLC_HOOK_DEADLINE_MS",
        "CLAUDE_CONFIG_DIR",
    ] {
        c.env_remove(k);
    }
    c
}

fn run(c: Command, stdin: &[u8]) -> Answer {
    let out = common::spawn_with_stdin(c, stdin)
        .wait_with_output()
        .unwrap();
    Answer {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// A Claude call in project `p` (its folder named by the host).
fn claude(p: &Project, cmd: &str) -> Answer {
    let mut c = hook_cmd(p, "claude");
    c.env("CLAUDE_PROJECT_DIR", p.dir.path());
    run(c, &claude_json("s", p.dir.path(), cmd))
}

/// Compiles `policy` (in a folder of its own, as `pol/p.pol`) and returns the table bytes.
fn compile(p: &Project, policy: &str) -> Vec<u8> {
    let d = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(d.path().join("pol")).unwrap();
    std::fs::write(d.path().join("pol/p.pol"), policy).unwrap();
    let out = p
        .cmd(&["build", "pol/p.pol", "-o", "t.bin"])
        .current_dir(d.path())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    std::fs::read(d.path().join("t.bin")).unwrap()
}

/// `n` filler rules, to make a table larger than the private-copy limit (1 MiB).
fn filler(n: usize) -> String {
    (0..n)
        .map(|i| format!("ask bash glob \"filler{i:05} * --opt{i} *\" {{ id f{i} }}\n"))
        .collect()
}

/// Runs `f(worker, i)` on `WORKERS` threads until `BUDGET` passes; returns the call count.
fn parallel(f: impl Fn(usize, usize) + Sync) -> usize {
    let calls = AtomicUsize::new(0);
    let t0 = Instant::now();
    std::thread::scope(|s| {
        for w in 0..WORKERS {
            let (f, calls) = (&f, &calls);
            s.spawn(move || {
                let mut i = 0;
                while t0.elapsed() < BUDGET {
                    f(w, i);
                    i += 1;
                    calls.fetch_add(1, Ordering::Relaxed);
                }
            });
        }
    });
    calls.into_inner()
}

// ── Issue 12 item 1: a table changed in place is never read after its check ────────────

/// Rewrites `file` with `content` by one of the in-place routes editors and tools use.
fn rewrite_in_place(file: &Path, content: &[u8], how: usize) {
    use std::os::unix::fs::FileExt;
    match how {
        // pwrite over the same bytes (`rsync --inplace`, a database-style writer)
        0 => {
            let f = std::fs::OpenOptions::new().write(true).open(file).unwrap();
            f.write_all_at(content, 0).unwrap();
            f.set_len(content.len() as u64).unwrap();
        }
        // open(O_TRUNC) + write (`cp`, `cat >`, most editors' "save")
        1 => std::fs::write(file, content).unwrap(),
        // truncate, then write
        _ => {
            let mut f = std::fs::OpenOptions::new().write(true).open(file).unwrap();
            f.set_len(0).unwrap();
            f.write_all(content).unwrap();
        }
    }
}

/// Drives `WORKERS` hooks asking `cmds` while a writer rewrites the user table (always
/// trusted) in place, alternating `a` and `b` by the routes in `hows`. `ok(cmd, answer)`
/// says whether an answer is one the table checked could give. Returns (calls, rewrites).
fn in_place(
    what: &str,
    a: &[u8],
    b: &[u8],
    hows: &'static [usize],
    cmds: &'static [&'static str],
    ok: impl Fn(&str, &Answer) -> bool + Sync,
) -> (usize, usize) {
    let p = Project::new();
    let user = p.config.path().join("policy.bin");
    std::fs::write(&user, a).unwrap();
    let stop = Arc::new(AtomicBool::new(false));
    let writer = {
        let (stop, user, a, b) = (stop.clone(), user.clone(), a.to_vec(), b.to_vec());
        std::thread::spawn(move || {
            use std::os::unix::fs::FileExt;
            // Where the two differ, for a `pwrite` of just those bytes (fast, so the file
            // keeps changing under the readers of a large table too).
            let mut runs = Vec::new();
            if a.len() == b.len() {
                let mut i = 0;
                while i < a.len() {
                    if a[i] != b[i] {
                        let j = (i..a.len()).find(|&j| a[j] == b[j]).unwrap_or(a.len());
                        runs.push(i..j);
                        i = j;
                    } else {
                        i += 1;
                    }
                }
            }
            if runs.len() > 64 {
                runs.clear(); // scattered differences: one pwrite of the whole file is faster
            }
            let mut n = 0usize;
            while !stop.load(Ordering::Relaxed) {
                let content = if n.is_multiple_of(2) { &b } else { &a };
                let how = hows[(n / 2) % hows.len()];
                if how == 0 && !runs.is_empty() {
                    let f = std::fs::OpenOptions::new().write(true).open(&user).unwrap();
                    for r in &runs {
                        f.write_all_at(&content[r.clone()], r.start as u64).unwrap();
                    }
                } else {
                    rewrite_in_place(&user, content, how);
                }
                n += 1;
            }
            n
        })
    };
    let bad = AtomicUsize::new(0);
    let torn = AtomicUsize::new(0);
    let calls = parallel(|w, i| {
        let cmd = cmds[(w + i) % cmds.len()];
        let ans = claude(&p, cmd);
        let d = ans.decision();
        // Every answer is whole: a known decision, or the error row (exit 2, no stdout).
        if !matches!(d.as_str(), "allow" | "deny" | "ask" | "") || (ans.code != 0 && ans.code != 2)
        {
            torn.fetch_add(1, Ordering::Relaxed);
            eprintln!("{what}: torn answer: {cmd}: {} {:?}", ans.code, ans.stdout);
        } else if !ok(cmd, &ans) {
            bad.fetch_add(1, Ordering::Relaxed);
            eprintln!(
                "{what}: an answer the checked table does not give: {cmd}: {}",
                ans.stdout
            );
        }
    });
    stop.store(true, Ordering::Relaxed);
    let writes = writer.join().unwrap();
    println!(
        "{what} ({} bytes): {calls} calls, {writes} rewrites, {} wrong answers, {} torn",
        a.len(),
        bad.load(Ordering::Relaxed),
        torn.load(Ordering::Relaxed)
    );
    assert_eq!(bad.load(Ordering::Relaxed), 0, "{what}");
    assert_eq!(torn.load(Ordering::Relaxed), 0, "{what}");
    (calls, writes)
}

/// Issue 12 item 1, both ways it showed:
/// - a good table and a tampered one of the same layout (the same policy with `rm -rf`
///   allowed, its checksum field flipped so it never passes on its own), alternated by
///   `pwrite`: `rm -rf x` must never be allowed;
/// - two valid tables alternated by `cp`-style and `truncate` rewrites: an allow must name
///   a rule of a table that allows that command (`ls` only by `a-ls`, `cat` only by
///   `c-ca`), `rm -rf x` never.
fn in_place_rewrites(extra: &str) -> (usize, usize) {
    let p = Project::new();
    // Same length and layout (the same verdicts, swapped between the two rules; two spaces
    // after `deny` keep the source the same size).
    let good = compile(
        &p,
        &format!("deny  bash prefix \"rm -rf\" {{ id a-rm }}\nallow bash prefix \"ls\" {{ id a-ls }}\n{extra}"),
    );
    let mut tampered = compile(
        &p,
        &format!("allow bash prefix \"rm -rf\" {{ id a-rm }}\ndeny  bash prefix \"ls\" {{ id a-ls }}\n{extra}"),
    );
    assert_eq!(good.len(), tampered.len());
    tampered[48] ^= 0x5a; // the header's CRC-32C field
    let other = compile(
        &p,
        &format!("deny bash prefix \"rm -rf\" {{ id c-rm }}\nallow bash prefix \"cat\" {{ id c-ca }}\n{extra}"),
    );
    if !extra.is_empty() {
        assert!(
            good.len() > 1 << 20,
            "{} bytes: not a large table",
            good.len()
        );
    }
    let (c1, w1) = in_place(
        "pwrite good/tampered",
        &good,
        &tampered,
        &[0],
        &["rm -rf x"],
        |_, a| a.decision() != "allow",
    );
    let (c2, w2) = in_place(
        "cp/truncate two tables",
        &good,
        &other,
        &[1, 2, 0],
        &["rm -rf x", "ls", "cat x"],
        |cmd, a| match (cmd, a.decision().as_str()) {
            ("ls", "allow") => a.reason().contains("a-ls"),
            ("cat x", "allow") => a.reason().contains("c-ca"),
            (_, "allow") => false,
            _ => true,
        },
    );
    (c1 + c2, w1 + w2)
}

#[test]
fn small_table_rewritten_in_place_never_allows_what_it_does_not_grant() {
    let (calls, writes) = in_place_rewrites("");
    assert!(calls > 50 && writes > 10, "{calls} calls, {writes} writes");
}

#[test]
fn large_table_rewritten_in_place_never_allows_what_it_does_not_grant() {
    // Over 1 MiB: mapped under a read lease rather than copied.
    let (calls, writes) = in_place_rewrites(&filler(6000));
    assert!(calls > 20 && writes > 4, "{calls} calls, {writes} writes");
}

/// The handshake of `POLC_HOOK_SELFTEST_GATE`: waits until the paused hook has created
/// `gate` (it is at its pause point), makes the change, then removes `gate` to let it go on.
fn through_gate(gate: &Path, change: impl FnOnce()) {
    let until = std::time::Instant::now() + Duration::from_secs(60);
    while !gate.exists() {
        assert!(
            std::time::Instant::now() < until,
            "the hook never reached its pause"
        );
        std::thread::sleep(Duration::from_millis(2));
    }
    change();
    std::fs::remove_file(gate).unwrap();
}

/// Deterministic: the hook pauses after loading and checking (`POLC_HOOK_SELFTEST=
/// pause-loaded`, a `test-paths` build only), the table is overwritten in place with a
/// table that allows `rm -rf` (and a valid CRC), then the hook decides. A small table is a
/// private copy: the checked table's deny stands. A large one is mapped under a read lease
/// the writer broke: deny, "changed while polc read it".
#[test]
fn a_table_overwritten_after_its_check_is_never_what_decides() {
    for extra in [String::new(), filler(6000)] {
        let p = Project::new();
        let good = compile(
            &p,
            &format!("deny  bash prefix \"rm -rf\" {{ id a-rm }}\nallow bash prefix \"ls\" {{ id a-ls }}\n{extra}"),
        );
        let evil = compile(
            &p,
            &format!("allow bash prefix \"rm -rf\" {{ id a-rm }}\ndeny  bash prefix \"ls\" {{ id a-ls }}\n{extra}"),
        );
        let user = p.config.path().join("policy.bin");
        std::fs::write(&user, &good).unwrap();
        let mut c = hook_cmd(&p, "claude");
        let gate = p.dir.path().join("gate");
        c.env("CLAUDE_PROJECT_DIR", p.dir.path())
            .env("POLC_HOOK_SELFTEST", "pause-loaded")
            .env("POLC_HOOK_SELFTEST_GATE", &gate);
        let child = common::spawn_with_stdin(c, &claude_json("s", p.dir.path(), "rm -rf x"));
        through_gate(&gate, || rewrite_in_place(&user, &evil, 0));
        let out = child.wait_with_output().unwrap();
        let a = Answer {
            code: out.status.code().unwrap_or(-1),
            stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        };
        assert_eq!(
            a.decision(),
            "deny",
            "{} bytes: {} {}",
            good.len(),
            a.stdout,
            a.stderr
        );
        if extra.is_empty() {
            assert!(a.reason().contains("a-rm"), "{}", a.stdout);
        } else {
            assert!(
                a.reason().contains("changed while polc read it"),
                "{}",
                a.stdout
            );
        }
    }
}

// ── Issue 12 item 2: the trust cache is keyed by the descriptor actually hashed ────────

#[test]
fn trust_cache_cannot_be_poisoned_by_renaming_tables_in_turn() {
    let p = Project::new();
    let trusted = compile(&p, "allow bash prefix \"rm\" { id p-rm }\n");
    let untrusted = compile(&p, "allow bash prefix \"rm\" { id u-rm }\n");
    p.write_bytes("compiled/policy.bin", &trusted);
    p.trust("compiled/policy.bin");
    let (t_src, u_src) = (p.path("t.bin"), p.path("u.bin"));
    let table = p.path("compiled/policy.bin");
    let stop = Arc::new(AtomicBool::new(false));
    let writer = {
        let (stop, table, t_src, u_src) =
            (stop.clone(), table.clone(), t_src.clone(), u_src.clone());
        let (trusted, untrusted) = (trusted.clone(), untrusted.clone());
        std::thread::spawn(move || {
            let mut n = 0usize;
            while !stop.load(Ordering::Relaxed) {
                // Fresh inodes each round, renamed into place in turn.
                std::fs::write(&t_src, &trusted).unwrap();
                std::fs::write(&u_src, &untrusted).unwrap();
                // The trusted one briefly, then the untrusted one long enough for hooks to
                // use an entry a racing hook might have poisoned.
                std::fs::rename(&t_src, &table).unwrap();
                std::thread::sleep(Duration::from_millis(1));
                std::fs::rename(&u_src, &table).unwrap();
                std::thread::sleep(Duration::from_millis(15));
                n += 1;
            }
            n
        })
    };
    let bad = AtomicUsize::new(0);
    let calls = parallel(|_, _| {
        let a = claude(&p, "rm x");
        if a.decision() == "allow" && !a.reason().contains("p-rm") {
            bad.fetch_add(1, Ordering::Relaxed);
            eprintln!("untrusted allow: {}", a.stdout);
        }
    });
    stop.store(true, Ordering::Relaxed);
    let rounds = writer.join().unwrap();
    // Now the untrusted table stays; once its identity settles (cache keys are recorded
    // only then) it must still grant nothing.
    std::thread::sleep(Duration::from_millis(2200));
    let mut after = 0;
    for _ in 0..3 {
        let a = claude(&p, "rm x");
        if a.decision() == "allow" {
            after += 1;
        }
    }
    println!(
        "trust-cache poisoning: {calls} calls, {rounds} rename rounds, {} untrusted allows during, {after} after",
        bad.load(Ordering::Relaxed)
    );
    assert_eq!(bad.load(Ordering::Relaxed), 0);
    assert_eq!(after, 0);
}

/// Deterministic: a hook opens the trusted table and pauses (`pause-opened`, 2.6 s) before
/// it hashes it; meanwhile an untrusted table is renamed into place, and has settled by the
/// time the hook records its hash. The hash the paused hook
/// computes is the trusted table's and must be cached under that table's identity, not
/// under the file now at the path: the untrusted table grants nothing, then or later.
#[test]
fn a_table_renamed_in_while_hashing_does_not_inherit_its_trust() {
    let p = Project::new();
    let trusted = compile(&p, "allow bash prefix \"rm\" { id p-rm }\n");
    let untrusted = compile(&p, "allow bash prefix \"rm\" { id u-rm }\n");
    p.write_bytes("compiled/policy.bin", &trusted);
    p.trust("compiled/policy.bin");
    p.write_bytes("u.bin", &untrusted);
    // Both versions settled: their keys may be cached.
    std::thread::sleep(Duration::from_millis(2200));
    let mut c = hook_cmd(&p, "claude");
    let gate = p.dir.path().join("gate");
    c.env("CLAUDE_PROJECT_DIR", p.dir.path())
        .env("POLC_HOOK_SELFTEST", "pause-opened")
        .env("POLC_HOOK_SELFTEST_GATE", &gate);
    let child = common::spawn_with_stdin(c, &claude_json("s", p.dir.path(), "rm x"));
    through_gate(&gate, || {
        std::fs::rename(p.path("u.bin"), p.path("compiled/policy.bin")).unwrap()
    });
    let out = child.wait_with_output().unwrap();
    // The paused hook decided from the trusted bytes it had opened.
    assert!(String::from_utf8_lossy(&out.stdout).contains("p-rm"));
    for round in 0..2 {
        let a = claude(&p, "rm x");
        assert_ne!(a.decision(), "allow", "round {round}: {}", a.stdout);
        std::thread::sleep(Duration::from_millis(2200));
    }
}

// ── Issue 12 item 3 / issue 9 item 6: session records ──────────────────────────────────

fn codex_json(sid: &str, cwd: &Path, cmd: &str) -> Vec<u8> {
    serde_json::json!({
        "session_id": sid, "cwd": cwd, "hook_event_name": "PreToolUse",
        "permission_mode": "default", "tool_name": "Bash", "tool_input": {"command": cmd}
    })
    .to_string()
    .into_bytes()
}

fn codex(p: &Project, sid: &str, cwd: &Path, cmd: &str) -> Answer {
    let mut c = hook_cmd(p, "codex");
    c.current_dir(cwd);
    run(c, &codex_json(sid, cwd, cmd))
}

fn deny_rm_project() -> Project {
    let p = Project::new();
    p.write(
        "policies/p.pol",
        "deny bash prefix \"rm -rf\" { id no-rm }\n",
    );
    p.build_trusted();
    p
}

#[test]
fn parallel_new_sessions_lose_no_record() {
    let p = deny_rm_project();
    let elsewhere = tempfile::tempdir().unwrap();
    const SESSIONS: usize = 1000;
    let next = AtomicUsize::new(0);
    let lost = AtomicUsize::new(0);
    let t0 = Instant::now();
    std::thread::scope(|s| {
        for _ in 0..WORKERS {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= SESSIONS {
                    break;
                }
                let sid = format!("sess-{i}");
                // The first call records the start; the next one comes from elsewhere and
                // must still be judged under the project's table.
                let a = codex(&p, &sid, p.dir.path(), "echo start");
                assert_eq!(a.code, 0, "{}", a.stderr);
                let b = codex(&p, &sid, elsewhere.path(), "rm -rf x");
                if !b.stdout.contains("\"deny\"") || !b.stdout.contains("no-rm") {
                    lost.fetch_add(1, Ordering::Relaxed);
                    eprintln!("{sid}: {} {}", b.stdout, b.stderr);
                }
            });
        }
    });
    let temps = std::fs::read_dir(p.state.path().join("sessions"))
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .file_name()
                .to_string_lossy()
                .starts_with('.')
        })
        .count();
    println!(
        "sessions: {SESSIONS} new sessions, {} calls from {WORKERS} workers in {:?}: {} lost, {temps} temporary files left",
        SESSIONS * 2,
        t0.elapsed(),
        lost.load(Ordering::Relaxed)
    );
    assert_eq!(lost.load(Ordering::Relaxed), 0);
    assert_eq!(temps, 0);
}

#[test]
fn forged_sessions_never_evict_a_live_one() {
    let p = deny_rm_project();
    let tmp = tempfile::tempdir().unwrap();
    let live = codex(&p, "live", p.dir.path(), "echo hi");
    assert_eq!(live.code, 0);
    let next = AtomicUsize::new(0);
    std::thread::scope(|s| {
        for _ in 0..WORKERS {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= 2001 {
                    break;
                }
                codex(&p, &format!("forged-{i}"), tmp.path(), "echo x");
            });
        }
    });
    // The live session, now calling from /tmp, is still judged under its project.
    let a = codex(&p, "live", tmp.path(), "rm -rf x");
    println!("2001 forged sessions, then the live one: {}", a.stdout);
    assert!(
        a.stdout.contains("\"deny\"") && a.stdout.contains("no-rm"),
        "{}",
        a.stdout
    );
}

#[test]
fn a_partial_or_unwritable_session_record_never_falls_back_to_cwd() {
    let p = deny_rm_project();
    // An allow-everything table in /tmp-like folder the agent cd's to: never its root.
    let other = Project::new();
    other.write(
        "policies/p.pol",
        "allow bash prefix \"echo\" { id echo-ok }\n",
    );
    other.run(&["build"]).exits(0);
    // Record the session, then cut its record mid-line.
    codex(&p, "cut", p.dir.path(), "echo a");
    let dir = p.state.path().join("sessions");
    let rec = std::fs::read_dir(&dir)
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    let full = std::fs::read_to_string(&rec).unwrap();
    for cut in [1, 10, full.len() - 2] {
        std::fs::write(&rec, &full[..cut]).unwrap();
        let mut c = hook_cmd(&p, "claude");
        c.current_dir(other.dir.path());
        let a = run(c, &claude_json("cut", other.dir.path(), "echo hi"));
        assert_eq!(a.decision(), "ask", "cut at {cut}: {}", a.stdout);
        assert!(
            a.reason().contains("project root is unknown"),
            "{}",
            a.stdout
        );
        // Codex cannot prompt: ask is an approval-needed deny.
        let a = codex(&p, "cut", other.dir.path(), "echo hi");
        assert!(
            a.stdout.contains("\"deny\"") && a.stdout.contains("approval needed"),
            "{}",
            a.stdout
        );
    }
    // A state folder that cannot be written (a file where the folder should be): ask at
    // best (here deny: the recorded-table records cannot be read either).
    let mut c = hook_cmd(&p, "claude");
    c.env("POLC_STATE_DIR", p.path("policies/p.pol"))
        .current_dir(other.dir.path());
    let a = run(c, &claude_json("new", other.dir.path(), "echo hi"));
    assert!(
        matches!(a.decision().as_str(), "ask" | "deny"),
        "{}",
        a.stdout
    );
    // No session id and no folder from the host: ask, not "the current folder".
    let mut c = hook_cmd(&p, "claude");
    c.current_dir(other.dir.path());
    let a = run(
        c,
        br#"{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"echo hi"}}"#,
    );
    assert_eq!(a.decision(), "ask", "{}", a.stdout);
}

#[test]
fn host_folder_and_recorded_start_disagreeing_grant_nothing_from_the_project() {
    // A: the host's folder, trusted, allows `make`; B: where the session started, denies rm.
    let a = Project::new();
    a.write(
        "policies/p.pol",
        "allow bash prefix \"make\" { id a-make }\n",
    );
    a.build_trusted();
    let b = deny_rm_project();
    let state = a.state.path();
    let call = |cmd: &str, sid: &str, cwd: &Path| {
        let mut c = hook_cmd(&a, "claude");
        c.env("CLAUDE_PROJECT_DIR", a.dir.path())
            .env("POLC_STATE_DIR", state)
            .current_dir(cwd);
        run(c, &claude_json(sid, cwd, cmd))
    };
    // Agreeing session: A's allow applies.
    assert_eq!(call("make", "ok", a.dir.path()).decision(), "allow");
    // A session that started in B: B's deny applies, A's allow does not.
    call("echo start", "moved", b.dir.path());
    let r = call("make", "moved", a.dir.path());
    assert_eq!(r.decision(), "", "{}", r.stdout);
    let r = call("rm -rf x", "moved", a.dir.path());
    assert_eq!(r.decision(), "deny", "{}", r.stdout);
    assert!(
        r.reason().contains("no-rm") && r.reason().contains("disagree"),
        "{}",
        r.stdout
    );
}

// ── Issue 12 item 4 / issue 9 item 4: lookups, unions, vanishing tables ───────────────

#[test]
fn a_table_path_that_cannot_be_looked_up_is_unusable_not_absent() {
    type Make = fn(&Path);
    let cases: &[(&str, Make)] = &[
        ("dangling link", |p| {
            std::os::unix::fs::symlink("/nonexistent/polc.bin", p).unwrap()
        }),
        ("link loop", |p| std::os::unix::fs::symlink(p, p).unwrap()),
        ("parent is a file", |p| {
            let parent = p.parent().unwrap();
            std::fs::remove_dir_all(parent).ok();
            std::fs::write(parent, "x").unwrap();
        }),
        ("dangling parent link", |p| {
            let parent = p.parent().unwrap();
            std::fs::remove_dir_all(parent).ok();
            std::os::unix::fs::symlink("/nonexistent/dir", parent).unwrap();
        }),
    ];
    for (what, make) in cases {
        // The user table…
        let p = Project::new();
        let user = p.config.path().join("sub/policy.bin");
        std::fs::create_dir_all(user.parent().unwrap()).unwrap();
        let mut c = hook_cmd(&p, "claude");
        c.env("CLAUDE_PROJECT_DIR", p.dir.path())
            .env("POLC_CONFIG_DIR", user.parent().unwrap());
        make(&user);
        let a = run(c, &claude_json("s", p.dir.path(), "rm -rf x"));
        assert_eq!(
            a.decision(),
            "deny",
            "user table, {what}: {} {}",
            a.stdout,
            a.stderr
        );
        assert!(a.reason().contains("unusable"), "{what}: {}", a.stdout);
        // …and a project table.
        let p = Project::new();
        std::fs::create_dir_all(p.path("compiled")).unwrap();
        make(&p.path("compiled/policy.bin"));
        let a = claude(&p, "echo hi");
        assert_eq!(a.decision(), "deny", "project table, {what}: {}", a.stdout);
    }
    // A folder polc cannot enter (only meaningful when not running as root).
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } != 0 {
        use std::os::unix::fs::PermissionsExt;
        let p = Project::new();
        p.write("policies/p.pol", "deny bash prefix \"rm -rf\"\n");
        p.build_trusted();
        std::fs::set_permissions(p.path("compiled"), std::fs::Permissions::from_mode(0o0)).unwrap();
        let a = claude(&p, "echo hi");
        std::fs::set_permissions(p.path("compiled"), std::fs::Permissions::from_mode(0o755))
            .unwrap();
        assert_eq!(a.decision(), "deny", "chmod 000 compiled: {}", a.stdout);
    }
}

#[test]
fn project_layer_is_the_union_and_env_tables_only_add() {
    let p = Project::new();
    p.write(
        "policies/p.pol",
        "deny bash prefix \"rm -rf\" { id c-rm }\nallow bash prefix \"ls\" { id c-ls }\n",
    );
    p.build_trusted();
    // A second table in .polc/ that allows rm: it adds rules; it does not shadow compiled/.
    let loose = compile(
        &p,
        "allow bash prefix \"rm -rf\" { id loose }\ndeny bash prefix \"curl\" { id p-curl }\n",
    );
    p.write_bytes(".polc/policy.bin", &loose);
    p.trust(".polc/policy.bin");
    let a = claude(&p, "rm -rf x");
    assert_eq!(a.decision(), "deny", "{}", a.stdout);
    assert_eq!(claude(&p, "curl x").decision(), "deny");
    // POLC_TABLE and --table add a table; they never replace the discovered ones.
    let env_t = p.path("env.bin");
    std::fs::write(&env_t, &loose).unwrap();
    for how in ["env", "flag"] {
        let mut c = hook_cmd(&p, "claude");
        c.env("CLAUDE_PROJECT_DIR", p.dir.path());
        if how == "env" {
            c.env("POLC_TABLE", &env_t);
        } else {
            c.args(["--table", env_t.to_str().unwrap()]);
        }
        let a = run(c, &claude_json("s", p.dir.path(), "rm -rf x"));
        assert_eq!(a.decision(), "deny", "{how}: {}", a.stdout);
    }
    // A named table that is missing is a deny.
    let mut c = hook_cmd(&p, "claude");
    c.env("CLAUDE_PROJECT_DIR", p.dir.path())
        .env("POLC_TABLE", p.path("nope.bin"));
    assert_eq!(
        run(c, &claude_json("s", p.dir.path(), "ls")).decision(),
        "deny"
    );
}

#[test]
fn a_recorded_table_that_vanishes_denies_until_rebuilt_or_forgotten() {
    let p = Project::new();
    p.write(
        "policies/p.pol",
        "deny bash prefix \"rm -rf\" { id c-rm }\nallow bash prefix \"ls\" { id c-ls }\n",
    );
    p.build_trusted();
    assert_eq!(claude(&p, "ls").decision(), "allow");
    // Moved away (`mv compiled /tmp/x`, `git clean`…): every call is denied, even `ls`.
    std::fs::rename(p.path("compiled"), p.path("gone")).unwrap();
    let a = claude(&p, "ls");
    assert_eq!(a.decision(), "deny", "{}", a.stdout);
    assert!(a.reason().contains("polc trust --forget"), "{}", a.stdout);
    // Moving it to .polc/ is not enough either.
    std::fs::create_dir_all(p.path(".polc")).unwrap();
    std::fs::copy(p.path("gone/policy.bin"), p.path(".polc/policy.bin")).unwrap();
    assert_eq!(claude(&p, "ls").decision(), "deny");
    // `polc build` there brings it back.
    p.run(&["build"]).exits(0);
    assert_eq!(claude(&p, "ls").decision(), "allow");
    assert_eq!(claude(&p, "rm -rf x").decision(), "deny");
    // Or a person forgets the pair (what `polc trust --forget` does after confirming).
    std::fs::remove_file(p.path("compiled/policy.bin")).unwrap();
    assert_eq!(claude(&p, "ls").decision(), "deny");
    let root = p.dir.path().canonicalize().unwrap();
    let n = polc::runtime::state::forget_tables(
        p.state.path(),
        &root,
        Some(&root.join("compiled/policy.bin")),
    )
    .unwrap();
    assert_eq!(n, 1);
    let a = claude(&p, "ls");
    assert!(!a.reason().contains("forget"), "{}", a.stdout);
    // The command itself refuses without a terminal.
    let out = p
        .cmd(&["trust", "--forget", root.to_str().unwrap()])
        .output()
        .unwrap();
    assert_ne!(out.status.code(), Some(0));
}

#[test]
fn trusting_a_table_again_revokes_the_digest_trusted_before() {
    let p = Project::new();
    p.write("policies/p.pol", "allow bash prefix \"make\" { id v1 }\n");
    p.build_trusted();
    let v1 = std::fs::read(p.path("compiled/policy.bin")).unwrap();
    assert_eq!(claude(&p, "make").decision(), "allow");
    p.write("policies/p.pol", "allow bash prefix \"make\" { id v2 }\n");
    p.build_trusted();
    assert_eq!(claude(&p, "make").decision(), "allow");
    // v1 restored from history: no longer trusted.
    std::fs::write(p.path("compiled/policy.bin"), &v1).unwrap();
    p.write("policies/p.pol", "allow bash prefix \"make\" { id v1 }\n");
    let a = claude(&p, "make");
    assert_eq!(a.decision(), "", "{}", a.stdout);
}

// ── Issue 12 item 5: termination signals answer like fatal ones ────────────────────────

#[test]
fn sigterm_sigint_sighup_answer_the_error_row() {
    let p = deny_rm_project();
    let calls = AtomicUsize::new(0);
    let bad = AtomicUsize::new(0);
    for host in ["claude", "codex", "copilot"] {
        // The fatal-signal answer of this host, for comparison.
        let mut c = hook_cmd(&p, host);
        c.env("POLC_HOOK_SELFTEST", "segv");
        let want = run(c, &codex_json("s", p.dir.path(), "echo hi"));
        if host == "claude" {
            assert_eq!(want.code, 2, "Claude's error row is exit 2");
        }
        std::thread::scope(|s| {
            for w in 0..WORKERS {
                let (p, want, calls, bad) = (&p, &want, &calls, &bad);
                s.spawn(move || {
                    let sig = [libc::SIGTERM, libc::SIGINT, libc::SIGHUP][w % 3];
                    let mut c = hook_cmd(p, host);
                    c.env("POLC_HOOK_SELFTEST", "hang");
                    let json = codex_json("s", p.dir.path(), "echo hi");
                    let child = common::spawn_with_stdin(c, &json);
                    // Long enough for the handlers to be installed on a loaded two-core
                    // machine (a signal before that ends the process with no answer: the
                    // residual stated in the host README).
                    std::thread::sleep(Duration::from_millis(1500));
                    // SAFETY: signalling our own child.
                    unsafe {
                        libc::kill(child.id() as i32, sig);
                    }
                    let out = child.wait_with_output().unwrap();
                    calls.fetch_add(1, Ordering::Relaxed);
                    let code = out.status.code();
                    if code != Some(want.code) || out.stdout != want.stdout.as_bytes() {
                        bad.fetch_add(1, Ordering::Relaxed);
                        eprintln!(
                            "{host} signal {sig}: {code:?} {:?} (want {} {:?})",
                            String::from_utf8_lossy(&out.stdout),
                            want.code,
                            want.stdout
                        );
                    }
                });
            }
        });
    }
    println!(
        "termination signals: {} hooks signalled, {} without the error answer",
        calls.load(Ordering::Relaxed),
        bad.load(Ordering::Relaxed)
    );
    assert_eq!(bad.load(Ordering::Relaxed), 0);
}

// ── Issue 9 item 5: what a test build is ───────────────────────────────────────────────

#[test]
fn test_build_says_so() {
    let out = Command::new(polc_bin()).arg("--version").output().unwrap();
    let v = String::from_utf8_lossy(&out.stdout);
    assert!(v.contains("TEST BUILD") && v.contains("test-paths"), "{v}");
    assert!(polc::runtime::state::refuse_install().is_some());
}
