//! `polc session reset [ID]`, `polc session show ID`, and `polc explain --session ID`'s
//! session block (src/session/README.md).

use crate::session::record::{RecordError, State};
use crate::session::store;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};

/// The state file of session `sid` on `host`.
fn state_file(host: &str, sid: &str) -> Result<PathBuf, CmdError> {
    let dir = crate::runtime::state::state_dir().ok_or(CmdError::NoStateFolder)?;
    Ok(store::file_path(
        &dir,
        &[host.as_bytes(), b"id", sid.as_bytes()],
    ))
}

fn read_state(p: &Path) -> Result<Option<State>, CmdError> {
    match std::fs::read_to_string(p) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(CmdError::Read(p.to_path_buf(), e)),
        Ok(text) => State::fold(&text).map(Some).map_err(CmdError::Record),
    }
}

/// Why `polc session show/reset` cannot go on: the state file, folder or terminal concerned.
#[derive(Debug)]
enum CmdError {
    NoStateFolder,
    /// The state file cannot be read.
    Read(PathBuf, std::io::Error),
    /// A record of the state file does not read.
    Record(RecordError),
    /// `reset` is confirmed on `/dev/tty` only.
    NoTty(std::io::Error),
    Answer(std::io::Error),
    NotConfirmed,
    State(store::StateError),
}

impl std::fmt::Display for CmdError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CmdError::NoStateFolder => f.write_str(
                "polc has no state folder (no home directory in the password database)",
            ),
            CmdError::Read(p, e) => write!(f, "cannot read {}: {e}", p.display()),
            CmdError::Record(e) => e.fmt(f),
            CmdError::NoTty(e) => write!(
                f,
                "`polc session reset` must be confirmed on a terminal and /dev/tty cannot be opened ({e}); refusing"
            ),
            CmdError::Answer(e) => write!(f, "cannot read the answer from /dev/tty: {e}"),
            CmdError::NotConfirmed => f.write_str("not confirmed; nothing changed"),
            CmdError::State(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for CmdError {}

fn print_state(sid: &str, st: &State) {
    println!("session:  {sid}");
    println!(
        "denials:  {} in a row, {} in the session{}",
        st.consecutive,
        st.total,
        if st.interrupted {
            " (the limit interrupt was sent)"
        } else {
            ""
        }
    );
    let armed: Vec<String> = st
        .seqs
        .iter()
        .filter(|(_, k)| **k > 0)
        .map(|(id, k)| format!("{id} ({k} step(s) done)"))
        .collect();
    println!(
        "armed:    {}",
        if armed.is_empty() {
            "none".to_string()
        } else {
            armed.join(", ")
        }
    );
    println!("history (oldest first, raw history trimmed at the size cap):");
    for c in &st.history {
        let seqs: Vec<String> = c.seqs.iter().map(|(i, k)| format!("{i}={k}")).collect();
        println!(
            "  [{}] {}{}{} {}",
            c.answer,
            c.summary,
            if c.flags.is_empty() {
                String::new()
            } else {
                format!("  flags {}", c.flags)
            },
            if seqs.is_empty() {
                String::new()
            } else {
                format!("  steps {}", seqs.join(","))
            },
            if c.tool_use_id.is_empty() {
                String::new()
            } else {
                format!("({})", c.tool_use_id)
            }
        );
    }
}

/// `polc session show ID`.
pub fn show(host: &str, sid: &str) -> i32 {
    let p = match state_file(host, sid) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("error: {e}");
            return 2;
        }
    };
    match read_state(&p) {
        Ok(Some(st)) => {
            print_state(sid, &st);
            0
        }
        Ok(None) => {
            eprintln!("no state is kept for session {sid} on {host}");
            1
        }
        Err(e) => {
            eprintln!("error: the session's state cannot be read: {e}");
            2
        }
    }
}

/// `polc explain --session ID`: the session block after the decision — what the session's
/// history makes of this command (nothing is written).
#[cfg(feature = "compiler")]
pub fn explain_block(table: Option<&Path>, host: &str, sid: &str, command: &str) -> i32 {
    use crate::session::check::{self, CallInfo, Features};
    let p = match state_file(host, sid) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("error: {e}");
            return 2;
        }
    };
    let st = match read_state(&p) {
        Ok(Some(st)) => st,
        Ok(None) => {
            println!("session:  {sid}: no state kept (a new session starts empty)");
            State::default()
        }
        Err(e) => {
            println!("session:  {sid}: the state cannot be read ({e}); the hook asks for every call that is not denied");
            return 0;
        }
    };
    print_state(sid, &st);
    let path = table
        .map(Path::to_path_buf)
        .unwrap_or_else(|| PathBuf::from("compiled/policy.bin"));
    let t = match crate::table::Table::open_unmapped(&path, None) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("error: {}", e.describe(&path));
            return 2;
        }
    };
    let Ok(rules) = crate::runtime::table_rules::TableRules::new(|k| t.section(k)) else {
        eprintln!("error: {} is damaged: run `polc build`", path.display());
        return 2;
    };
    let mut f = Features::default();
    if let Err(e) = f.add(|k| t.section(k)) {
        eprintln!("error: {e}");
        return 2;
    }
    let req = crate::runtime::Request::Bash {
        command: command.to_string(),
    };
    let d = match crate::runtime::decide(&rules, host, &req) {
        Ok(out) => (out.decision, crate::host::after::reason_of(&rules, out)),
        Err(_) => {
            eprintln!("error: {} is damaged: run `polc build`", path.display());
            return 2;
        }
    };
    let ctx = crate::runtime::Context::from_env();
    let reqs = [&req];
    let info = CallInfo::offline(host, &reqs, &ctx);
    match check::apply(&f, &st, &info, d, command.to_string()) {
        Ok(v) => {
            println!(
                "with this session: {}{}",
                v.decision,
                if v.interrupt { " + interrupt" } else { "" }
            );
            println!("          {}", v.reason);
            0
        }
        Err(e) => {
            println!("with this session: the state cannot be used ({e}): ask");
            0
        }
    }
}

fn open_tty() -> Result<std::fs::File, CmdError> {
    std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open("/dev/tty")
        .map_err(CmdError::NoTty)
}

/// `polc session reset [ID]`: confirmed on the terminal; resets the denial counters and
/// disarms the sequences of session ID (or of every session).
pub fn reset(host: &str, sid: Option<&str>) -> i32 {
    let run = || -> Result<usize, CmdError> {
        let dir = crate::runtime::state::state_dir().ok_or(CmdError::NoStateFolder)?;
        let file = match sid {
            Some(s) => Some(state_file(host, s)?),
            None => None,
        };
        let tty = open_tty()?;
        let what = match sid {
            Some(s) => format!("session {s} on {host}"),
            None => "every session".to_string(),
        };
        let mut w = &tty;
        let _ = write!(
            w,
            "Reset the denial counters and disarm the sequence rules of {what}? [y/N] "
        );
        let _ = w.flush();
        let mut line = String::new();
        BufReader::new(&tty)
            .read_line(&mut line)
            .map_err(CmdError::Answer)?;
        if !matches!(line.trim(), "y" | "Y" | "yes" | "Yes" | "YES") {
            return Err(CmdError::NotConfirmed);
        }
        store::reset(&dir, file.as_deref()).map_err(CmdError::State)
    };
    match run() {
        Ok(n) => {
            eprintln!("reset {n} session state(s)");
            0
        }
        Err(e) => {
            eprintln!("error: {e}");
            2
        }
    }
}

/// `polc log`: the audit log, filtered (every filter must hold); JSON lines with `--json`.
pub fn log(
    session: Option<&str>,
    decision: Option<&str>,
    rule: Option<&str>,
    all: bool,
    json: bool,
) -> i32 {
    let Some(dir) = crate::runtime::state::state_dir() else {
        eprintln!("error: polc has no state folder");
        return 2;
    };
    let main = crate::session::audit::log_path(&dir);
    let mut files: Vec<PathBuf> = Vec::new();
    if all {
        for i in (1..=crate::session::audit::KEEP).rev() {
            files.push(main.with_file_name(format!("{}.{i}", crate::session::audit::FILE)));
        }
    }
    files.push(main.clone());
    let mut n = 0;
    for f in files {
        let text = match std::fs::read_to_string(&f) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
            Err(e) => {
                eprintln!("error: cannot read {}: {e}", f.display());
                return 2;
            }
        };
        for l in text.lines() {
            let Ok(v) = serde_json::from_str::<serde_json::Value>(l) else {
                continue;
            };
            let s = |k: &str| v[k].as_str().unwrap_or("").to_string();
            if session.is_some_and(|x| s("session") != x)
                || decision.is_some_and(|x| s("decision") != x)
                || rule.is_some_and(|x| s("rule") != x)
            {
                continue;
            }
            n += 1;
            if json {
                println!("{l}");
            } else {
                println!(
                    "{} {} {} {:<7} {} {}{}",
                    s("time"),
                    s("session"),
                    s("host"),
                    s("decision"),
                    if s("rule").is_empty() {
                        "-".into()
                    } else {
                        s("rule")
                    },
                    s("command"),
                    if v["interrupt"] == serde_json::json!(true) {
                        " (interrupt)"
                    } else {
                        ""
                    }
                );
            }
        }
    }
    if n == 0 && !main.exists() {
        eprintln!(
            "no audit log at {} (the policy turns it on with `session audit`)",
            main.display()
        );
    }
    0
}
