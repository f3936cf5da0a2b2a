//! A small fluent helper for driving the real `polc` binary in a temporary project.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

pub struct Project {
    pub dir: tempfile::TempDir,
    pub config: tempfile::TempDir,
    pub cache: tempfile::TempDir,
    /// polc's state folder (session starts, recorded tables) for this project's runs.
    pub state: tempfile::TempDir,
}

pub struct Run {
    pub out: Output,
}

impl Run {
    pub fn code(&self) -> i32 {
        self.out.status.code().unwrap_or(-1)
    }
    pub fn stdout(&self) -> String {
        String::from_utf8_lossy(&self.out.stdout).into_owned()
    }
    pub fn stderr(&self) -> String {
        String::from_utf8_lossy(&self.out.stderr).into_owned()
    }
    pub fn exits(self, code: i32) -> Run {
        assert_eq!(
            self.code(),
            code,
            "exit code\nstdout:\n{}\nstderr:\n{}",
            self.stdout(),
            self.stderr()
        );
        self
    }
    pub fn stderr_has(self, s: &str) -> Run {
        assert!(
            self.stderr().contains(s),
            "stderr lacks {s:?}:\n{}",
            self.stderr()
        );
        self
    }
    pub fn stdout_has(self, s: &str) -> Run {
        assert!(
            self.stdout().contains(s),
            "stdout lacks {s:?}:\n{}",
            self.stdout()
        );
        self
    }
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.out.stdout)
            .unwrap_or_else(|e| panic!("stdout is not JSON ({e}):\n{}", self.stdout()))
    }
}

pub fn polc_bin() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_polc"))
}

impl Project {
    pub fn new() -> Project {
        Project {
            dir: tempfile::tempdir().unwrap(),
            config: tempfile::tempdir().unwrap(),
            cache: tempfile::tempdir().unwrap(),
            state: tempfile::tempdir().unwrap(),
        }
    }

    pub fn path(&self, rel: &str) -> PathBuf {
        self.dir.path().join(rel)
    }

    pub fn write(&self, rel: &str, text: &str) -> &Project {
        let p = self.path(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
        self
    }

    pub fn write_bytes(&self, rel: &str, bytes: &[u8]) -> &Project {
        let p = self.path(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, bytes).unwrap();
        self
    }

    pub fn cmd(&self, args: &[&str]) -> Command {
        let mut c = Command::new(polc_bin());
        c.args(args)
            .current_dir(self.dir.path())
            .env("POLC_CONFIG_DIR", self.config.path())
            .env("POLC_CACHE_DIR", self.cache.path())
            // Path isolation: honoured only by a `test-paths` build (what `cargo test`
            // builds); a shipped build ignores all three.
            .env("POLC_STATE_DIR", self.state.path())
            .env_remove("POLC_HOOK_SELFTEST")
            .env_remove("POLC_HOOK_SELFTEST_GATE")
            .env_remove("POLC_TABLE")
            .env_remove("POLC_HOST")
            .env_remove("CLAUDE_PROJECT_DIR")
            .stdin(Stdio::null());
        c
    }

    pub fn run(&self, args: &[&str]) -> Run {
        Run {
            out: self.cmd(args).output().unwrap(),
        }
    }

    pub fn run_stdin(&self, args: &[&str], stdin: &[u8]) -> Run {
        Run {
            out: spawn_with_stdin(self.cmd(args), stdin)
                .wait_with_output()
                .unwrap(),
        }
    }

    /// Record the project's agent configuration as it is now, as `polc confirm` would after
    /// a person said yes (clears the "agent configuration changed" deny).
    pub fn confirm_config(&self) {
        let root = polc::runtime::trust::canon(self.dir.path());
        let at = polc::runtime::tripwire::Places {
            state: self.state.path().to_path_buf(),
            config: Some(self.config.path().to_path_buf()),
        };
        polc::runtime::tripwire::record(&at, &root).unwrap();
    }

    /// Trust `table` (relative) for this project root, as `polc trust` would record it.
    pub fn trust(&self, table: &str) {
        let p = self.path(table);
        let bytes = std::fs::read(&p).unwrap();
        let digest = polc::runtime::trust::table_digest(None, None, &bytes);
        polc::runtime::trust::record(self.config.path(), self.dir.path(), &p, &digest).unwrap();
    }

    /// Build `sources` into `compiled/policy.bin` and trust it.
    pub fn build_trusted(&self) -> &Project {
        self.run(&["build"]).exits(0);
        self.trust("compiled/policy.bin");
        self
    }
}

/// Start `c` with its output piped and `stdin` written to it (then closed): the running
/// child, to wait on. A child that exits before reading it all is not an error here (its
/// answer says what happened).
pub fn spawn_with_stdin(mut c: Command, stdin: &[u8]) -> std::process::Child {
    use std::io::Write;
    c.stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = c.spawn().unwrap();
    {
        let mut si = child.stdin.take().unwrap();
        let _ = si.write_all(stdin);
    }
    child
}

pub fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// A Claude PreToolUse call of `tool` with `input`, from `cwd` (relative to the project
/// root), through `polc hook --host claude`: the `permissionDecision` (None: no output, i.e.
/// `default`) and the whole stdout. `env` adds variables (`HOME`, `PATH`, …).
pub fn claude_decision(
    p: &Project,
    tool: &str,
    input: serde_json::Value,
    cwd: &str,
    env: &[(&str, &std::ffi::OsStr)],
) -> (Option<String>, String) {
    claude_decision_in(p, "s1", tool, input, cwd, env)
}

/// [`claude_decision`] in Claude session `sid` (a fresh session per call keeps session
/// state, such as denial limits, from one row out of the next).
pub fn claude_decision_in(
    p: &Project,
    sid: &str,
    tool: &str,
    input: serde_json::Value,
    cwd: &str,
    env: &[(&str, &std::ffi::OsStr)],
) -> (Option<String>, String) {
    let root = p.dir.path().canonicalize().unwrap();
    let stdin = serde_json::json!({
        "session_id": sid, "transcript_path": "/tmp/t.jsonl", "cwd": root.join(cwd),
        "permission_mode": "default", "hook_event_name": "PreToolUse",
        "tool_name": tool, "tool_input": input, "tool_use_id": "t1"
    });
    let mut c = p.cmd(&["hook", "--host", "claude"]);
    c.env("CLAUDE_PROJECT_DIR", &root)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (k, v) in env {
        c.env(k, v);
    }
    let out = c
        .spawn()
        .and_then(|mut c| {
            use std::io::Write;
            c.stdin
                .take()
                .unwrap()
                .write_all(stdin.to_string().as_bytes())?;
            c.wait_with_output()
        })
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    if out.stdout.is_empty() {
        return (None, text);
    }
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let d = v["hookSpecificOutput"]["permissionDecision"]
        .as_str()
        .map(str::to_string);
    (d, text)
}

/// Any host's answer to `stdin` through `polc hook --host HOST`, from the project root with
/// the hosts' project variables set: `deny`, `ask`, `allow` or `none` (no output);
/// "approval needed" denies (hosts that cannot prompt) are reported as `ask`.
pub fn host_verdict(p: &Project, host: &str, stdin: &serde_json::Value) -> String {
    let root = p.dir.path().canonicalize().unwrap();
    let stdin = stdin.to_string();
    let r = p
        .cmd(&["hook", "--host", host])
        .current_dir(&root)
        .env("CLAUDE_PROJECT_DIR", &root)
        .env("GEMINI_PROJECT_DIR", &root)
        .env("FACTORY_PROJECT_DIR", &root)
        .env("HOME", root.join("home"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .and_then(|mut c| {
            use std::io::Write;
            c.stdin.take().unwrap().write_all(stdin.as_bytes())?;
            c.wait_with_output()
        })
        .unwrap();
    let out = String::from_utf8_lossy(&r.stdout).into_owned();
    if out.trim().is_empty() {
        return "none".into();
    }
    let v: serde_json::Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}"));
    let d = [
        &v["hookSpecificOutput"]["permissionDecision"],
        &v["permissionDecision"],
        &v["decision"],
        &v["permission"],
    ]
    .into_iter()
    .find_map(|x| x.as_str())
    .unwrap_or_else(|| panic!("no decision in {out}"))
    .to_string();
    if d == "deny" && out.contains("approval needed") {
        "ask".into()
    } else {
        d
    }
}
