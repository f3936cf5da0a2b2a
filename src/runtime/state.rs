//! Where polc keeps what it reads on the hook path, and the state folder's records.
//!
//! **Fixed locations.** On every build that can be installed, the user's config folder
//! (`<home>/.config/polc`: the user table, the trust list), the cache folder
//! (`<home>/.cache/polc`) and the state folder (`<home>/.local/state/polc`: session starts,
//! recorded tables) hang off the home directory from the password database. No environment
//! variable and no flag moves them: a repository's committed agent settings can set hook
//! environment variables and write the hook's command line. Only a build with the
//! `test-paths` cargo feature (never a default feature; `cargo test` turns it on through a
//! self dev-dependency) takes them from `POLC_CONFIG_DIR`, `POLC_CACHE_DIR` and
//! `POLC_STATE_DIR`; such a build says so in `polc --version`.
//!
//! **Records.** Each record is its own small file, created complete and at once (an
//! `O_TMPFILE` linked into place, or, where the file system has no `O_TMPFILE`, a temporary
//! file hard-linked into place and unlinked), so concurrent hooks never lose one, and a
//! reader never sees half of one. Every record ends with its own FNV-1a seal; a record that
//! does not check is unreadable, never "absent".

use sha2::{Digest, Sha256};
use std::io::Write;
use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt};
use std::path::{Path, PathBuf};

/// True in a build with the test-only path overrides (see the module notes).
pub const TEST_PATHS: bool = cfg!(feature = "test-paths");

/// What `polc --version` prints.
#[cfg(feature = "test-paths")]
pub const VERSION_TEXT: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    " (TEST BUILD: feature test-paths lets POLC_CONFIG_DIR/POLC_CACHE_DIR/POLC_STATE_DIR move what the hook reads; never install it)"
);
#[cfg(not(feature = "test-paths"))]
pub const VERSION_TEXT: &str = env!("CARGO_PKG_VERSION");

/// Refusal for commands that install polc (`polc init`) in a test build.
pub fn refuse_install() -> Option<&'static str> {
    TEST_PATHS.then_some(
        "this polc was built with the test-only feature `test-paths` (its config, cache and state folders can be moved by environment variables); refusing to install it: build without that feature",
    )
}

pub use crate::places::{cache_dir, config_dir, state_dir};

/// The crash-injection switch of the fail-closed tests (`POLC_HOOK_SELFTEST`); always
/// `None` outside a `test-paths` build.
pub fn selftest() -> Option<String> {
    #[cfg(feature = "test-paths")]
    {
        std::env::var("POLC_HOOK_SELFTEST").ok()
    }
    #[cfg(not(feature = "test-paths"))]
    {
        None
    }
}

/// `test-paths` builds: `POLC_HOOK_SELFTEST=pause-POINT` sleeps `ms` at `POINT`, so a
/// test can change a file at that exact moment. With `POLC_HOOK_SELFTEST_GATE=FILE` the
/// pause is a handshake: the hook creates FILE on arriving, sleeps `ms`, then waits (at most
/// 20 s) until the test has made its change and removed FILE. A sleep alone raced on a
/// loaded machine: a hook that had not reached the point yet read the changed file.
/// Nothing in other builds.
pub fn selftest_pause(point: &str, ms: u64) {
    if selftest().is_none_or(|s| s.strip_prefix("pause-") != Some(point)) {
        return;
    }
    #[cfg(feature = "test-paths")]
    let gate = std::env::var_os("POLC_HOOK_SELFTEST_GATE").map(PathBuf::from);
    #[cfg(not(feature = "test-paths"))]
    let gate: Option<PathBuf> = None;
    if let Some(g) = &gate {
        let _ = std::fs::write(g, point);
    }
    std::thread::sleep(std::time::Duration::from_millis(ms));
    if let Some(g) = &gate {
        let until = std::time::Instant::now() + std::time::Duration::from_secs(20);
        while g.exists() && std::time::Instant::now() < until {
            std::thread::sleep(std::time::Duration::from_millis(2));
        }
    }
}

/// Folders self-protection must treat as polc's own (written only by polc): the config,
/// cache and state folders. For `runtime::protect`.
pub fn protected_dirs() -> Vec<PathBuf> {
    [config_dir(), cache_dir(), state_dir()]
        .into_iter()
        .flatten()
        .collect()
}

/// SHA-256 of `parts` joined by NUL, as lowercase hex (record file names).
pub fn name_of(parts: &[&[u8]]) -> String {
    let mut h = Sha256::new();
    for (i, p) in parts.iter().enumerate() {
        if i > 0 {
            h.update([0u8]);
        }
        h.update(p);
    }
    super::trust::hex(&h.finalize())
}

/// `fields` joined by TAB, sealed with their FNV-1a 64, newline-terminated.
pub fn seal(fields: &[&str]) -> String {
    let body = fields.join("\t");
    let h = crate::ir::fnv1a64(body.as_bytes());
    format!("{body}\t{h:016x}\n")
}

/// The fields of a sealed record, or `None` when it is torn, edited or not one.
pub fn unseal(text: &str) -> Option<Vec<&str>> {
    let body = text.strip_suffix('\n')?;
    let (body, h) = body.rsplit_once('\t')?;
    if body.contains('\n') || !sealed_hex(h, crate::ir::fnv1a64(body.as_bytes())) {
        return None;
    }
    Some(body.split('\t').collect())
}

/// Is `h` exactly `format!("{want:016x}")`: 16 lowercase hex digits of `want`? (Read
/// without formatting `want`: a record's check runs on every hook call.)
pub fn sealed_hex(h: &str, want: u64) -> bool {
    h.len() == 16
        && h.bytes().try_fold(0u64, |acc, c| {
            let v = match c {
                b'0'..=b'9' => c - b'0',
                b'a'..=b'f' => c - b'a' + 10,
                _ => return None,
            };
            Some(acc << 4 | v as u64)
        }) == Some(want)
}

/// Makes `dir` (and its parents) with mode 0700.
pub fn ensure_dir(dir: &Path) -> std::io::Result<()> {
    if dir.is_dir() {
        return Ok(());
    }
    std::fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(dir)
}

/// How many bytes a record may have.
pub const MAX_RECORD: u64 = 64 << 10;

/// Reads the record `dir/name`: `Ok(None)` when there is none (ENOENT), its text when it is
/// a regular file within [`MAX_RECORD`], an error for anything else (a folder, a link, an
/// unreadable file, a lookup error other than "no such file").
pub fn read_record(path: &Path) -> std::io::Result<Option<(String, std::fs::File)>> {
    let f = match std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK | libc::O_NOFOLLOW | libc::O_CLOEXEC)
        .open(path)
    {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e),
    };
    let m = f.metadata()?;
    if !m.is_file() || m.len() > MAX_RECORD {
        return Err(std::io::Error::other("not a polc record"));
    }
    let s = crate::fileio::read_text_upto(&f, m.len(), MAX_RECORD)?;
    Ok(Some((s, f)))
}

/// Creates `dir/name` holding exactly `text`, all at once. `Ok(false)` when it already
/// exists (another writer won; read theirs).
pub fn create_record(dir: &Path, name: &str, text: &str) -> std::io::Result<bool> {
    match create_tmpfile(dir, name, text) {
        Ok(created) => Ok(created),
        // No O_TMPFILE here (or no /proc): a named temporary file, linked, then unlinked.
        Err(e) if tmpfile_unsupported(&e) => create_via_temp(dir, name, text),
        Err(e) => Err(e),
    }
}

fn tmpfile_unsupported(e: &std::io::Error) -> bool {
    matches!(
        e.raw_os_error(),
        Some(libc::EOPNOTSUPP) | Some(libc::EISDIR) | Some(libc::EINVAL) | Some(libc::ENOENT)
    ) && e.kind() != std::io::ErrorKind::AlreadyExists
}

fn create_tmpfile(dir: &Path, name: &str, text: &str) -> std::io::Result<bool> {
    let mut f = std::fs::OpenOptions::new()
        .write(true)
        .mode(0o600)
        .custom_flags(libc::O_TMPFILE | libc::O_CLOEXEC)
        .open(dir)?;
    f.write_all(text.as_bytes())?;
    use std::os::fd::AsRawFd;
    let from = std::ffi::CString::new(format!("/proc/self/fd/{}", f.as_raw_fd()))
        .map_err(std::io::Error::other)?;
    let to = cpath(&dir.join(name))?;
    // SAFETY: both are valid NUL-terminated paths; linkat only reads them.
    let rc = unsafe {
        libc::linkat(
            libc::AT_FDCWD,
            from.as_ptr(),
            libc::AT_FDCWD,
            to.as_ptr(),
            libc::AT_SYMLINK_FOLLOW,
        )
    };
    if rc == 0 {
        return Ok(true);
    }
    let e = std::io::Error::last_os_error();
    if e.kind() == std::io::ErrorKind::AlreadyExists {
        return Ok(false);
    }
    Err(e)
}

/// Prefix of the named temporary files of the fallback path.
pub const TEMP_PREFIX: &str = ".tmp-";

/// A new temporary file in `dir` (named by [`TEMP_PREFIX`], the pid and the time) holding
/// exactly `text`: its path.
fn write_temp(dir: &Path, text: &str) -> std::io::Result<PathBuf> {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.subsec_nanos())
        .unwrap_or(0);
    let tmp = dir.join(format!("{TEMP_PREFIX}{}-{nanos}", std::process::id()));
    let mut f = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .custom_flags(libc::O_CLOEXEC | libc::O_NOFOLLOW)
        .open(&tmp)?;
    if let Err(e) = f.write_all(text.as_bytes()) {
        let _ = std::fs::remove_file(&tmp);
        return Err(e);
    }
    Ok(tmp)
}

fn create_via_temp(dir: &Path, name: &str, text: &str) -> std::io::Result<bool> {
    let tmp = write_temp(dir, text)?;
    let r = std::fs::hard_link(&tmp, dir.join(name));
    let _ = std::fs::remove_file(&tmp);
    match r {
        Ok(()) => Ok(true),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(false),
        Err(e) => Err(e),
    }
}

/// Replaces `dir/name` with exactly `text`, all at once (a temporary file renamed over it):
/// a reader sees the old record or the new one, never part of one.
pub fn replace_record(dir: &Path, name: &str, text: &str) -> std::io::Result<()> {
    let tmp = write_temp(dir, text)?;
    let r = std::fs::rename(&tmp, dir.join(name));
    if r.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    r
}

/// Removes the files of `dir` idle (not modified) past `expiry`, and dead writers' temporary
/// files; returns how many files remain (session records and session state files).
pub fn sweep_idle(dir: &Path, expiry: std::time::Duration) -> usize {
    sweep_temps(dir);
    let Ok(rd) = std::fs::read_dir(dir) else {
        return 0;
    };
    let now = std::time::SystemTime::now();
    let mut live = 0;
    for e in rd.flatten() {
        if e.file_name().to_str().is_some_and(|n| n.starts_with('.')) {
            continue;
        }
        let idle = e
            .metadata()
            .and_then(|m| m.modified())
            .ok()
            .and_then(|t| now.duration_since(t).ok());
        if idle.is_some_and(|i| i > expiry) {
            let _ = std::fs::remove_file(e.path());
        } else {
            live += 1;
        }
    }
    live
}

/// Removes the fallback path's temporary files in `dir` whose writer is gone.
pub fn sweep_temps(dir: &Path) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.flatten() {
        let n = e.file_name();
        let Some(rest) = n.to_str().and_then(|n| n.strip_prefix(TEMP_PREFIX)) else {
            continue;
        };
        let pid = rest
            .split('-')
            .next()
            .and_then(|p| p.parse::<i32>().ok())
            .unwrap_or(0);
        // SAFETY: kill with signal 0 only checks that the process exists.
        let alive = pid > 0 && unsafe { libc::kill(pid, 0) } == 0;
        if !alive {
            let _ = std::fs::remove_file(e.path());
        }
    }
}

fn cpath(p: &Path) -> std::io::Result<std::ffi::CString> {
    use std::os::unix::ffi::OsStrExt;
    std::ffi::CString::new(p.as_os_str().as_bytes()).map_err(std::io::Error::other)
}

// ---------------------------------------------------------------------------------------
// Recorded tables (issue 9 item 4)

/// Sub-folder of the state folder holding one record per (root, project table) used.
pub const TABLES_DIR: &str = "tables";

fn table_record_name(root: &Path, table: &Path) -> String {
    use std::os::unix::ffi::OsStrExt;
    name_of(&[root.as_os_str().as_bytes(), table.as_os_str().as_bytes()])
}

/// A table record that cannot be used (the caller denies, showing it).
#[derive(Debug)]
pub enum RecordError {
    /// The record is there but its seal or fields are wrong.
    Damaged(PathBuf),
    /// The record could not be read.
    Unreadable(PathBuf, std::io::Error),
}

impl std::fmt::Display for RecordError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RecordError::Damaged(p) => write!(f, "polc's record {} is damaged", p.display()),
            RecordError::Unreadable(p, e) => {
                write!(f, "polc's record {} cannot be read: {e}", p.display())
            }
        }
    }
}

impl std::error::Error for RecordError {}

/// Has (root, table) been recorded? `Err` when the record cannot be read (unusable).
pub fn table_recorded(state: &Path, root: &Path, table: &Path) -> Result<bool, RecordError> {
    let p = state.join(TABLES_DIR).join(table_record_name(root, table));
    match read_record(&p) {
        Ok(None) => Ok(false),
        Ok(Some((text, _))) => match unseal(&text) {
            Some(f) if f.len() == 3 && f[0] == "table1" => Ok(true),
            _ => Err(RecordError::Damaged(p)),
        },
        Err(e) => Err(RecordError::Unreadable(p, e)),
    }
}

/// Records (root, table) as used. Best effort is not enough for a guard, but a failure
/// here only means the table is not yet guarded against vanishing; the caller reports it.
pub fn record_table(state: &Path, root: &Path, table: &Path) -> std::io::Result<()> {
    let dir = state.join(TABLES_DIR);
    ensure_dir(&dir)?;
    let (Some(r), Some(t)) = (root.to_str(), table.to_str()) else {
        return Err(std::io::Error::other("path is not UTF-8"));
    };
    if r.contains(['\t', '\n']) || t.contains(['\t', '\n']) {
        return Err(std::io::Error::other("path holds a tab or newline"));
    }
    create_record(
        &dir,
        &table_record_name(root, table),
        &seal(&["table1", r, t]),
    )
    .map(|_| ())
}

/// Forgets (root, table), or every table of `root`; returns how many records went.
pub fn forget_tables(state: &Path, root: &Path, table: Option<&Path>) -> std::io::Result<usize> {
    let dir = state.join(TABLES_DIR);
    let mut n = 0;
    let rd = match std::fs::read_dir(&dir) {
        Ok(rd) => rd,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(0),
        Err(e) => return Err(e),
    };
    for e in rd.flatten() {
        let Ok(Some((text, _))) = read_record(&e.path()) else {
            continue;
        };
        let Some(f) = unseal(&text) else { continue };
        if f.len() == 3
            && f[0] == "table1"
            && Path::new(f[1]) == root
            && table.is_none_or(|t| Path::new(f[2]) == t)
        {
            std::fs::remove_file(e.path())?;
            n += 1;
        }
    }
    Ok(n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sealed_hex_is_exactly_the_formatted_hash() {
        for want in [
            0u64,
            1,
            0xabc,
            u64::MAX,
            0x0123_4567_89ab_cdef,
            0xfedc_ba98_7654_3210,
        ] {
            let h = format!("{want:016x}");
            assert!(sealed_hex(&h, want), "{h}");
            assert!(!sealed_hex(&h, want ^ 1), "{h}");
            assert!(!sealed_hex(&h.to_uppercase(), want) || h == h.to_uppercase());
            assert!(!sealed_hex(&h[1..], want));
            assert!(!sealed_hex(&format!("0{h}"), want));
            assert!(!sealed_hex(&format!("+{}", &h[1..]), want));
        }
        assert!(!sealed_hex("000000000000000A", 10));
        assert!(sealed_hex("000000000000000a", 10));
    }

    #[test]
    fn seal_roundtrip_and_torn() {
        let s = seal(&["a", "/b c"]);
        assert_eq!(unseal(&s), Some(vec!["a", "/b c"]));
        for cut in 0..s.len() {
            assert_eq!(unseal(&s[..cut]), None, "{cut}");
        }
        assert_eq!(unseal(&s.replace("/b", "/x")), None);
    }

    #[test]
    fn records_are_created_once() {
        let d = tempfile::tempdir().unwrap();
        assert!(create_record(d.path(), "r", "one").unwrap());
        assert!(!create_record(d.path(), "r", "two").unwrap());
        assert_eq!(std::fs::read_to_string(d.path().join("r")).unwrap(), "one");
        assert!(create_via_temp(d.path(), "q", "x").unwrap());
        assert!(!create_via_temp(d.path(), "q", "y").unwrap());
        // No temporary file is left either way.
        let names: Vec<_> = std::fs::read_dir(d.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names.len(), 2, "{names:?}");
    }

    #[test]
    fn dead_writers_temps_are_swept() {
        let d = tempfile::tempdir().unwrap();
        let dead = d.path().join(format!("{TEMP_PREFIX}999999999-1"));
        let live = d
            .path()
            .join(format!("{TEMP_PREFIX}{}-1", std::process::id()));
        std::fs::write(&dead, "x").unwrap();
        std::fs::write(&live, "x").unwrap();
        sweep_temps(d.path());
        assert!(!dead.exists());
        assert!(live.exists());
    }

    #[test]
    fn recorded_tables_and_forget() {
        let d = tempfile::tempdir().unwrap();
        let (r, t1, t2) = (
            Path::new("/p"),
            Path::new("/p/compiled/policy.bin"),
            Path::new("/p/.polc/policy.bin"),
        );
        assert!(!table_recorded(d.path(), r, t1).unwrap());
        record_table(d.path(), r, t1).unwrap();
        record_table(d.path(), r, t1).unwrap();
        record_table(d.path(), r, t2).unwrap();
        record_table(d.path(), Path::new("/q"), t1).unwrap();
        assert!(table_recorded(d.path(), r, t1).unwrap());
        assert_eq!(forget_tables(d.path(), r, Some(t2)).unwrap(), 1);
        assert!(!table_recorded(d.path(), r, t2).unwrap());
        assert!(table_recorded(d.path(), r, t1).unwrap());
        assert_eq!(forget_tables(d.path(), r, None).unwrap(), 1);
        assert!(!table_recorded(d.path(), r, t1).unwrap());
        assert!(table_recorded(d.path(), Path::new("/q"), t1).unwrap());
        // A damaged record is unreadable, not absent.
        let p = d
            .path()
            .join(TABLES_DIR)
            .join(table_record_name(Path::new("/q"), t1));
        std::fs::write(&p, "table1\t/q\t/p/compiled/policy.bin\n").unwrap();
        assert!(table_recorded(d.path(), Path::new("/q"), t1).is_err());
    }
}
