//! The session's starting folder (issue 9 item 6, issue 12 item 3): the first `cwd` seen for
//! a session id, kept in the fixed state folder as one file per session,
//! `<state>/sessions/<sha256(id)>`, created complete and at once (`state::create_record`):
//! concurrent first calls of one session agree on one record, no update is lost, and a
//! reader never sees part of a record (each ends with its seal; a record that does not
//! check is "unreadable", never used).
//!
//! A record expires only by idle time ([`IDLE_EXPIRY`]; each call refreshes its mtime at
//! most once per [`TOUCH_EVERY`]); it is never evicted by count or size. Past
//! [`MAX_LIVE_SESSIONS`] live records a *new* session is refused (the caller then answers
//! ask at best). Expired records and dead writers' temporary files are swept when a new
//! session is recorded.

use super::input::HookInput;
use super::Host;
use crate::hosts::ProjectDir;
use crate::ir::Decision;
use crate::runtime::state;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

/// The project root(s) of a call.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Roots {
    pub root: PathBuf,
    /// The session's recorded start when it disagrees with the host's project folder
    /// (neither inside the other): both roots' deny and ask rules apply, no project allow,
    /// and a path is inside the project only if it is inside both.
    pub other: Option<PathBuf>,
    /// The session record could not be read or written where the host names no project
    /// folder: polc never falls back to `cwd` as if it were the start, so no answer is
    /// better than ask. The reason.
    pub degraded: Option<String>,
}

/// The folder the host itself names as the project (docs/contract.md#c-project-root), if any.
pub fn host_root(host: Host, inp: &HookInput) -> Option<PathBuf> {
    let env = |k: &str| {
        std::env::var_os(k)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
            .filter(|p| p.is_absolute())
    };
    let first_env = |vars: &[&str]| vars.iter().find_map(|v| env(v));
    match host.project_dir() {
        ProjectDir::Env(vars) => first_env(vars),
        ProjectDir::WorkspaceRootsThenEnv(vars) => inp
            .workspace_roots
            .first()
            .map(PathBuf::from)
            .filter(|p| p.is_absolute())
            .or_else(|| first_env(vars)),
        ProjectDir::HookCwd => std::env::current_dir().ok(),
    }
}

/// The project root(s) for this call: the host's folder and/or the session's recorded
/// start (see [`Roots`]).
pub fn roots(host: Host, inp: &HookInput) -> Roots {
    let cwd = inp
        .cwd
        .as_deref()
        .map(PathBuf::from)
        .filter(|p| p.is_absolute());
    let from_host = host_root(host, inp);
    let recorded = match (&inp.session_id, &cwd) {
        (Some(sid), Some(c)) => {
            start_dir(state::state_dir().as_deref(), sid, c).map_err(|e| e.to_string())
        }
        (None, _) => Err("the hook input names no session id".into()),
        (_, None) => Err("the hook input names no absolute cwd".into()),
    };
    match (from_host, recorded) {
        (Some(h), Ok(s)) if disagree(&h, &s) => Roots {
            root: h,
            other: Some(s),
            degraded: None,
        },
        (Some(h), _) => Roots {
            root: h,
            other: None,
            degraded: None,
        },
        (None, Ok(s)) => Roots {
            root: s,
            other: None,
            degraded: None,
        },
        (None, Err(why)) => Roots {
            // Only to find tables whose denies still apply; the answer is ask at best.
            root: cwd
                .or_else(|| std::env::current_dir().ok())
                .unwrap_or_else(|| PathBuf::from("/")),
            other: None,
            degraded: Some(why),
        },
    }
}

/// Neither folder lies inside the other (compared canonically).
fn disagree(a: &Path, b: &Path) -> bool {
    use std::path::Component::{CurDir, ParentDir};
    let plain = |p: &Path| !p.components().any(|c| matches!(c, CurDir | ParentDir));
    // The usual case (one inside the other, no `..`): no `realpath` needed.
    if plain(a) && plain(b) && (a.starts_with(b) || b.starts_with(a)) {
        return false;
    }
    let (a, b) = (
        crate::runtime::trust::canon(a),
        crate::runtime::trust::canon(b),
    );
    !(a.starts_with(&b) || b.starts_with(&a))
}

// Two roots' decisions are combined in `runtime::entry` (the stricter wins).

/// The cap for a call whose session record is unusable: anything but deny becomes ask.
pub fn degrade(d: (Decision, String), why: &str) -> (Decision, String) {
    if d.0 == Decision::Deny {
        return d;
    }
    (
        Decision::Ask,
        crate::host::answer::clip(&format!(
            "polc ask: the project root is unknown ({why}); polc never guesses it from the current folder, so a person must approve"
        )),
    )
}

pub const SESSIONS_DIR: &str = "sessions";
/// A live record's mtime is refreshed when older than this.
pub const TOUCH_EVERY: Duration = Duration::from_secs(600);
/// Expiry and the live-session cap are shared with the session state files.
pub use crate::session::store::{IDLE_EXPIRY, MAX_LIVE_SESSIONS};

/// The recorded start of session `sid`, recording `cwd` when the session is new. `Err` with
/// the reason when the record cannot be read or written: never a guess.
pub fn start_dir(state_dir: Option<&Path>, sid: &str, cwd: &Path) -> Result<PathBuf, StartError> {
    start_dir_with(state_dir, sid, cwd, MAX_LIVE_SESSIONS, IDLE_EXPIRY)
}

pub fn start_dir_with(
    state_dir: Option<&Path>,
    sid: &str,
    cwd: &Path,
    cap: usize,
    expiry: Duration,
) -> Result<PathBuf, StartError> {
    let state_dir = state_dir.ok_or(StartError::NoStateFolder)?;
    if sid.is_empty() || sid.len() > 1024 {
        return Err(StartError::NoSessionId);
    }
    let dir = state_dir.join(SESSIONS_DIR);
    let name = state::name_of(&[sid.as_bytes()]);
    let file = dir.join(&name);
    // Two rounds: a concurrent writer may create the record between our read and our create.
    for _ in 0..2 {
        if let Some(p) = read(&file)? {
            return Ok(p);
        }
        let c = cwd
            .to_str()
            .filter(|c| cwd.is_absolute() && !c.contains(['\t', '\n']))
            .ok_or(StartError::NotAbsolute)?;
        let fail = |e: std::io::Error| StartError::Record(dir.clone(), e);
        state::ensure_dir(&dir).map_err(fail)?;
        let live = sweep(&dir, expiry);
        if live >= cap {
            return Err(StartError::TooMany { dir, live, cap });
        }
        if state::create_record(&dir, &name, &state::seal(&["session1", c])).map_err(fail)? {
            return Ok(cwd.to_path_buf());
        }
    }
    Err(StartError::KeepsChanging(file))
}

fn read(file: &Path) -> Result<Option<PathBuf>, StartError> {
    let Some((text, f)) =
        state::read_record(file).map_err(|e| StartError::Unreadable(file.to_path_buf(), e))?
    else {
        return Ok(None);
    };
    match state::unseal(&text) {
        Some(v) if v.len() == 2 && v[0] == "session1" && Path::new(v[1]).is_absolute() => {
            touch(&f);
            Ok(Some(PathBuf::from(v[1])))
        }
        _ => Err(StartError::Damaged(file.to_path_buf())),
    }
}

/// Why a session's start cannot be known (the answer is then ask at best): the record or
/// folder concerned and what is wrong.
#[derive(Debug)]
pub enum StartError {
    NoStateFolder,
    /// Empty or over 1,024 bytes.
    NoSessionId,
    /// The call's folder is not an absolute UTF-8 path without tabs or line breaks.
    NotAbsolute,
    /// The sessions folder cannot be made or the record written.
    Record(PathBuf, std::io::Error),
    /// Past the live-session cap: a new session is refused.
    TooMany {
        dir: PathBuf,
        live: usize,
        cap: usize,
    },
    KeepsChanging(PathBuf),
    Unreadable(PathBuf, std::io::Error),
    /// The record's seal or fields do not check.
    Damaged(PathBuf),
}

impl std::fmt::Display for StartError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StartError::NoStateFolder => f.write_str(
                "polc has no state folder (no home directory in the password database)",
            ),
            StartError::NoSessionId => f.write_str("the hook input names no usable session id"),
            StartError::NotAbsolute => {
                f.write_str("the session's folder is not an absolute UTF-8 path")
            }
            StartError::Record(dir, e) => {
                write!(f, "cannot record the session in {}: {e}", dir.display())
            }
            StartError::TooMany { dir, live, cap } => write!(
                f,
                "{live} live sessions are recorded in {} (cap {cap}); new sessions are refused until idle ones expire",
                dir.display()
            ),
            StartError::KeepsChanging(p) => {
                write!(f, "the session record {} keeps changing", p.display())
            }
            StartError::Unreadable(p, e) => {
                write!(f, "the session record {} cannot be read: {e}", p.display())
            }
            StartError::Damaged(p) => write!(f, "the session record {} is damaged", p.display()),
        }
    }
}

impl std::error::Error for StartError {}

/// Refreshes the record's mtime (its last use) when older than [`TOUCH_EVERY`].
fn touch(f: &std::fs::File) {
    let old = f
        .metadata()
        .and_then(|m| m.modified())
        .ok()
        .and_then(|t| SystemTime::now().duration_since(t).ok())
        .is_some_and(|age| age >= TOUCH_EVERY);
    if old {
        let _ = f.set_modified(SystemTime::now());
    }
}

/// Removes records idle past `expiry` and dead writers' temporary files; returns how many
/// records remain.
fn sweep(dir: &Path, expiry: Duration) -> usize {
    state::sweep_idle(dir, expiry)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_cwd_wins_and_is_kept() {
        let d = tempfile::tempdir().unwrap();
        let s = Some(d.path());
        assert_eq!(start_dir(s, "a", Path::new("/p")).unwrap(), Path::new("/p"));
        assert_eq!(
            start_dir(s, "a", Path::new("/tmp")).unwrap(),
            Path::new("/p")
        );
        assert_eq!(
            start_dir(s, "b", Path::new("/tmp")).unwrap(),
            Path::new("/tmp")
        );
        assert!(start_dir(s, "", Path::new("/p")).is_err());
        assert!(start_dir(s, "c", Path::new("rel")).is_err());
        assert!(start_dir(None, "a", Path::new("/p")).is_err());
    }

    #[test]
    fn cap_refuses_new_sessions_never_evicts() {
        let d = tempfile::tempdir().unwrap();
        let s = Some(d.path());
        for i in 0..5 {
            start_dir_with(s, &format!("s{i}"), Path::new("/p"), 5, IDLE_EXPIRY).unwrap();
        }
        let e = start_dir_with(s, "new", Path::new("/tmp"), 5, IDLE_EXPIRY).unwrap_err();
        assert!(e.to_string().contains("refused"), "{e}");
        assert!(
            matches!(
                e,
                StartError::TooMany {
                    live: 5,
                    cap: 5,
                    ..
                }
            ),
            "{e:?}"
        );
        // Every old session is still there.
        for i in 0..5 {
            let p = start_dir_with(s, &format!("s{i}"), Path::new("/tmp"), 5, IDLE_EXPIRY);
            assert_eq!(p.unwrap(), Path::new("/p"));
        }
    }

    #[test]
    fn idle_records_expire() {
        let d = tempfile::tempdir().unwrap();
        let s = Some(d.path());
        start_dir(s, "old", Path::new("/p")).unwrap();
        let f = d.path().join(SESSIONS_DIR).join(state::name_of(&[b"old"]));
        let past = SystemTime::now() - Duration::from_secs(3600);
        std::fs::File::options()
            .write(true)
            .open(&f)
            .unwrap()
            .set_modified(past)
            .unwrap();
        // Not idle long enough: kept.
        start_dir_with(s, "n1", Path::new("/q"), 10, Duration::from_secs(7200)).unwrap();
        assert!(f.exists());
        start_dir_with(s, "n2", Path::new("/q"), 10, Duration::from_secs(60)).unwrap();
        assert!(!f.exists());
    }

    #[test]
    fn damaged_or_partial_record_is_unreadable() {
        let d = tempfile::tempdir().unwrap();
        let s = Some(d.path());
        start_dir(s, "x", Path::new("/work/project")).unwrap();
        let f = d.path().join(SESSIONS_DIR).join(state::name_of(&[b"x"]));
        let full = std::fs::read_to_string(&f).unwrap();
        for cut in [1, 9, 12, full.len() - 1] {
            std::fs::write(&f, &full[..cut]).unwrap();
            assert!(start_dir(s, "x", Path::new("/")).is_err(), "{cut}");
        }
        std::fs::remove_file(&f).unwrap();
        std::fs::create_dir(&f).unwrap();
        assert!(start_dir(s, "x", Path::new("/")).is_err());
    }
}
