//! The session's state file: `<state>/session-state/<sha256(key)>`, mode 0600, in the fixed
//! state folder (`runtime::state::state_dir`; self-protection denies writes there).
//!
//! Each call opens the file once (`O_APPEND`, `O_NOFOLLOW`, `O_NONBLOCK`), takes a shared
//! `flock` (waiting at most [`LOCK_WAIT`]), checks the descriptor is still the file at the
//! path, reads and folds it, and appends one record with one `write` (under `PIPE_BUF`, so
//! concurrent appends never interleave). Hooks of one session append under the shared lock at
//! once; trimming at [`SOFT_CAP`] takes the exclusive lock, so no append can land in a file
//! being replaced (an appender that finds the path moved re-opens it). A file locked from
//! outside past the deadline is an error, never "no state": the caller then asks.

use super::record::{RecordError, State, KEEP_HISTORY, MAX_LINE};
use crate::runtime::state as rstate;
use std::io::{Read, Seek, Write};
use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant, SystemTime};

pub const DIR: &str = "session-state";
/// A state file (or a session's start record, `host::session`) idle this long is removed by
/// the next new session's sweep.
pub const IDLE_EXPIRY: Duration = Duration::from_secs(14 * 24 * 3600);
/// Live sessions beyond this are refused, not evicted.
pub const MAX_LIVE_SESSIONS: usize = 10_000;
/// Past this size the raw history is trimmed (counters and armed sequences kept).
pub const SOFT_CAP: u64 = 4 << 10;
/// Past this many bytes after the last snapshot the appender trims too: the hook folds only
/// that tail (`State::fold_tail`), so this bounds its per-call work.
pub const TAIL_CAP: u64 = 1 << 10;
/// A file larger than this is not polc's (or its trim keeps failing): an error.
pub const HARD_CAP: u64 = 1 << 20;
/// How long a hook waits for the lock before it gives up and asks.
pub const LOCK_WAIT: Duration = Duration::from_millis(250);

pub fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .map(|d| d.as_millis() as u64)
        .unwrap_or(0)
}

/// The file name for a session key (host and session id, or host and project root).
pub fn name(key: &[&[u8]]) -> String {
    let mut parts: Vec<&[u8]> = vec![b"polc-session-state-1"];
    parts.extend_from_slice(key);
    rstate::name_of(&parts)
}

pub fn file_path(state_dir: &Path, key: &[&[u8]]) -> PathBuf {
    state_dir.join(DIR).join(name(key))
}

/// An open, locked (shared) state file and its folded state.
pub struct Open {
    file: std::fs::File,
    path: PathBuf,
    pub state: State,
    text: String,
    /// Where the last snapshot starts in `text`.
    tail: usize,
}

pub(crate) fn lock(f: &std::fs::File, how: i32, wait: Duration) -> bool {
    use std::os::fd::AsRawFd;
    let start = Instant::now();
    loop {
        // SAFETY: flock on a descriptor we own.
        if unsafe { libc::flock(f.as_raw_fd(), how | libc::LOCK_NB) } == 0 {
            return true;
        }
        if start.elapsed() >= wait {
            return false;
        }
        std::thread::sleep(Duration::from_micros(200));
    }
}

pub(crate) fn same_file(f: &std::fs::File, path: &Path) -> bool {
    match (f.metadata(), std::fs::symlink_metadata(path)) {
        (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
        _ => false,
    }
}

fn open_flags(create: bool) -> std::fs::OpenOptions {
    let mut o = std::fs::OpenOptions::new();
    o.read(true)
        .append(true)
        .mode(0o600)
        .custom_flags(libc::O_NOFOLLOW | libc::O_CLOEXEC | libc::O_NONBLOCK);
    if create {
        o.create(true);
    }
    o
}

/// Opens the session's state. `Ok(None)`: there is none and `create` is false. `Err`: the
/// reason it cannot be read or updated (the caller asks).
pub fn open(state_dir: &Path, key: &[&[u8]], create: bool) -> Result<Option<Open>, StateError> {
    let dir = state_dir.join(DIR);
    let path = dir.join(name(key));
    let at = |fault| StateError {
        path: path.clone(),
        fault,
    };
    for _ in 0..4 {
        let f = match open_flags(false).open(&path) {
            Ok(f) => f,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                if !create {
                    return Ok(None);
                }
                rstate::ensure_dir(&dir).map_err(|e| StateError {
                    path: dir.clone(),
                    fault: Fault::MakeFolder(e),
                })?;
                let live = sweep(&dir, IDLE_EXPIRY);
                let cap = MAX_LIVE_SESSIONS;
                if live >= cap {
                    return Err(StateError {
                        path: dir,
                        fault: Fault::TooManyLive { live, cap },
                    });
                }
                open_flags(true)
                    .open(&path)
                    .map_err(|e| at(Fault::Create(e)))?
            }
            Err(e) => return Err(at(Fault::Open(e))),
        };
        let m = f.metadata().map_err(|e| at(Fault::Read(e)))?;
        // SAFETY: geteuid has no preconditions.
        let me = unsafe { libc::geteuid() };
        if !m.is_file() || m.uid() != me {
            return Err(at(Fault::NotOurs));
        }
        if m.len() > HARD_CAP {
            return Err(at(Fault::TooLarge));
        }
        if !lock(&f, libc::LOCK_SH, LOCK_WAIT) {
            return Err(at(Fault::Locked));
        }
        if !same_file(&f, &path) {
            continue; // trimmed and replaced meanwhile: the new file
        }
        let text =
            crate::fileio::read_text_upto(&f, m.len(), HARD_CAP).map_err(|e| at(Fault::Read(e)))?;
        let tail = super::record::tail_start(&text);
        let state = State::fold_with(&text[tail..], false).map_err(|why| at(Fault::Record(why)))?;
        return Ok(Some(Open {
            file: f,
            path,
            state,
            text,
            tail,
        }));
    }
    Err(at(Fault::KeepsBeingReplaced))
}

impl Open {
    /// Appends one record (one `write`), then trims when the file passed [`SOFT_CAP`].
    pub fn append(mut self, line: &str) -> Result<(), StateError> {
        if line.len() > MAX_LINE || !line.ends_with('\n') {
            return Err(StateError {
                path: self.path,
                fault: Fault::Oversize,
            });
        }
        let n = match self.file.write(line.as_bytes()) {
            Ok(n) => n,
            Err(e) => {
                return Err(StateError {
                    path: self.path,
                    fault: Fault::Update(e),
                })
            }
        };
        if n != line.len() {
            return Err(StateError {
                path: self.path,
                fault: Fault::ShortWrite,
            });
        }
        let len = self
            .file
            .stream_position()
            .unwrap_or(0)
            .max(self.text.len() as u64 + n as u64);
        if len > SOFT_CAP || len.saturating_sub(self.tail as u64) > TAIL_CAP {
            self.trim();
        }
        Ok(())
    }

    /// Drops old raw history: the last calls as they were, then a snapshot of everything.
    /// Best effort: when the lock is busy the next call tries again.
    fn trim(self) {
        use std::os::fd::AsRawFd;
        let Open { file, path, .. } = self;
        // Upgrade to exclusive: wait for the appenders of this moment (microseconds).
        if !lock(&file, libc::LOCK_EX, Duration::from_millis(20)) || !same_file(&file, &path) {
            return;
        }
        let mut text = String::new();
        let mut f = &file;
        if f.rewind().is_err() || f.take(HARD_CAP).read_to_string(&mut text).is_err() {
            return;
        }
        let lines: Vec<&str> = text.split_inclusive('\n').collect();
        // The last calls, as long as they take at most half the cap (else every call trims).
        let mut keep = 0;
        let mut bytes = 0;
        for l in lines.iter().rev().take(KEEP_HISTORY) {
            if bytes + l.len() > (SOFT_CAP / 2) as usize {
                break;
            }
            bytes += l.len();
            keep += 1;
        }
        // The kept calls as they were (history), then a snapshot of everything: the hook
        // folds from the last snapshot on (`State::fold_tail`), a full fold reads the kept
        // calls and then the snapshot's absolute counts.
        let Ok(folded) = State::fold_with(&text, false) else {
            return;
        };
        let mut out: String = lines[lines.len() - keep..].concat();
        out.push_str(&folded.snapshot_line(now_ms()));
        let dir = path.parent().unwrap_or(Path::new("/"));
        let tmp = dir.join(format!(
            "{}{}-{}",
            rstate::TEMP_PREFIX,
            std::process::id(),
            now_ms()
        ));
        let ok = (|| -> std::io::Result<()> {
            let mut t = std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .mode(0o600)
                .custom_flags(libc::O_NOFOLLOW | libc::O_CLOEXEC)
                .open(&tmp)?;
            t.write_all(out.as_bytes())?;
            std::fs::rename(&tmp, &path)
        })();
        if ok.is_err() {
            let _ = std::fs::remove_file(&tmp);
        }
        // The exclusive lock on the old file is held until here: appenders waiting for it
        // find the path moved and re-open the new file.
        let _ = file.as_raw_fd();
        drop(file);
    }
}

/// Removes state files idle past `expiry` and dead writers' temporary files; the number of
/// state files left.
pub fn sweep(dir: &Path, expiry: Duration) -> usize {
    rstate::sweep_idle(dir, expiry)
}

/// Appends a reset by a person (`polc session reset`) to every state file named, or to all.
pub fn reset(state_dir: &Path, file: Option<&Path>) -> Result<usize, StateError> {
    let dir = state_dir.join(DIR);
    let files: Vec<PathBuf> = match file {
        Some(f) => vec![f.to_path_buf()],
        None => match std::fs::read_dir(&dir) {
            Ok(rd) => rd
                .flatten()
                .filter(|e| !e.file_name().to_string_lossy().starts_with('.'))
                .map(|e| e.path())
                .collect(),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
            Err(e) => {
                return Err(StateError {
                    path: dir,
                    fault: Fault::List(e),
                })
            }
        },
    };
    let mut n = 0;
    for p in files {
        let f = match open_flags(false).open(&p) {
            Ok(f) => f,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
            Err(e) => {
                return Err(StateError {
                    path: p,
                    fault: Fault::ResetOpen(e),
                })
            }
        };
        if !lock(&f, libc::LOCK_EX, Duration::from_secs(2)) {
            return Err(StateError {
                path: p,
                fault: Fault::ResetLocked,
            });
        }
        // A damaged file cannot be repaired by a record: replace it with a clean start.
        let mut text = String::new();
        let damaged =
            (&f).take(HARD_CAP).read_to_string(&mut text).is_err() || State::fold(&text).is_err();
        if damaged {
            let clean = super::record::reset_line(now_ms(), "terminal", "");
            if let Err(e) = std::fs::write(&p, clean) {
                return Err(StateError {
                    path: p,
                    fault: Fault::Rewrite(e),
                });
            }
        } else {
            let line = super::record::reset_line(now_ms(), "terminal", "");
            if let Err(e) = (&f).write_all(line.as_bytes()) {
                return Err(StateError {
                    path: p,
                    fault: Fault::ResetUpdate(e),
                });
            }
        }
        n += 1;
    }
    Ok(n)
}

/// Why a session's state cannot be read or updated (the hook then asks; `polc session reset`
/// says so): the file or folder concerned and what went wrong.
#[derive(Debug)]
pub struct StateError {
    pub path: PathBuf,
    pub fault: Fault,
}

#[derive(Debug)]
pub enum Fault {
    MakeFolder(std::io::Error),
    /// More live state files than the cap (new sessions are refused).
    TooManyLive {
        live: usize,
        cap: usize,
    },
    Create(std::io::Error),
    Open(std::io::Error),
    Read(std::io::Error),
    /// Not a regular file owned by the user.
    NotOurs,
    /// Over [`HARD_CAP`] bytes.
    TooLarge,
    /// Locked past [`LOCK_WAIT`].
    Locked,
    /// A record that does not read.
    Record(RecordError),
    KeepsBeingReplaced,
    /// A record over its size (a bug in polc, never written).
    Oversize,
    Update(std::io::Error),
    ShortWrite,
    /// `reset`: the state folder cannot be listed.
    List(std::io::Error),
    /// `reset`: a state file cannot be opened, stays locked, rewritten or updated.
    ResetOpen(std::io::Error),
    ResetLocked,
    Rewrite(std::io::Error),
    ResetUpdate(std::io::Error),
}

impl std::fmt::Display for StateError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let p = self.path.display();
        match &self.fault {
            Fault::MakeFolder(e) => write!(f, "cannot make the session state folder {p}: {e}"),
            Fault::TooManyLive { live, cap } => write!(
                f,
                "{live} live session states are kept in {p} (cap {cap}); new sessions are refused until idle ones expire"
            ),
            Fault::Create(e) => write!(f, "cannot create the session state {p}: {e}"),
            Fault::Open(e) => write!(f, "the session state {p} cannot be opened: {e}"),
            Fault::Read(e) => write!(f, "the session state {p} cannot be read: {e}"),
            Fault::NotOurs => write!(f, "the session state {p} is not polc's file"),
            Fault::TooLarge => write!(f, "the session state {p} is over {HARD_CAP} bytes"),
            Fault::Locked => write!(
                f,
                "the session state {p} stayed locked past {} ms",
                LOCK_WAIT.as_millis()
            ),
            Fault::Record(why) => write!(f, "the session state {p}: {why}"),
            Fault::KeepsBeingReplaced => write!(f, "the session state {p} keeps being replaced"),
            Fault::Oversize => f.write_str("internal: a session record over its size"),
            Fault::Update(e) => write!(f, "cannot update the session state {p}: {e}"),
            Fault::ShortWrite => write!(f, "cannot update the session state {p}: a short write"),
            Fault::List(e) => write!(f, "cannot list {p}: {e}"),
            Fault::ResetOpen(e) => write!(f, "cannot open {p}: {e}"),
            Fault::ResetLocked => write!(f, "{p} stays locked"),
            Fault::Rewrite(e) => write!(f, "cannot rewrite {p}: {e}"),
            Fault::ResetUpdate(e) => write!(f, "cannot update {p}: {e}"),
        }
    }
}

impl std::error::Error for StateError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.fault {
            Fault::MakeFolder(e)
            | Fault::Create(e)
            | Fault::Open(e)
            | Fault::Read(e)
            | Fault::Update(e)
            | Fault::List(e)
            | Fault::ResetOpen(e)
            | Fault::Rewrite(e)
            | Fault::ResetUpdate(e) => Some(e),
            Fault::Record(r) => Some(r),
            _ => None,
        }
    }
}
