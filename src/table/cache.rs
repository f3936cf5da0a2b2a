//! The per-user cache of facts already checked, keyed by file identity:
//!
//! - `verified`: tables whose full CRC-32C passed, keyed by (dev, ino, size, mtime, ctime,
//!   header checksum);
//! - `fresh`: sources whose content hash matched a table's stamp, keyed by (dev, ino, size,
//!   mtime, ctime, stamp size, stamp hash).
//!
//! Both are small text files, one entry a line, each line ending with its own FNV-1a 64 so a
//! torn or edited line is ignored. Lookups read at most [`MAX_CACHE_BYTES`]; appends are one
//! `write` on an `O_APPEND` descriptor; past the cap, the newest half is kept (temp file +
//! rename). Nothing here is ever an error: a missing, unreadable or corrupted cache only
//! means "check fully".
//!
//! **Racy entries.** A key is recorded only once its ctime is at least [`SETTLE`] old. File
//! systems stamp times at a coarse granularity (a kernel tick; 1–2 s on some), so a rewrite
//! in the same tick as the verified version could otherwise keep the same key. Once the
//! recorded ctime is older than the granularity, any later change gets a later ctime, and
//! ctime cannot be set back by an unprivileged writer.

use std::io::{Read, Write};
use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// Cap on each cache file.
pub const MAX_CACHE_BYTES: usize = 64 << 10;

/// How old a file's ctime must be before its key is cached.
pub const SETTLE: Duration = Duration::from_secs(2);

pub const VERIFIED: &str = "verified";
pub const FRESH: &str = "fresh";

/// The integrity cache folder: `<home>/.cache/polc`, home from the password database; no
/// environment variable moves it (`places`). `None` without a home (then nothing is
/// cached and every open verifies fully).
pub fn cache_dir() -> Option<PathBuf> {
    crate::places::cache_dir()
}

/// A file's identity and version as `fstat`/`stat` report it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FileKey {
    pub dev: u64,
    pub ino: u64,
    pub size: u64,
    pub mtime: (i64, i64),
    pub ctime: (i64, i64),
}

impl FileKey {
    pub fn of(m: &std::fs::Metadata) -> FileKey {
        FileKey {
            dev: m.dev(),
            ino: m.ino(),
            size: m.size(),
            mtime: (m.mtime(), m.mtime_nsec()),
            ctime: (m.ctime(), m.ctime_nsec()),
        }
    }

    /// True when the ctime is at least `settle` in the past (see the module notes).
    pub fn settled(&self, settle: Duration) -> bool {
        let Ok(now) = SystemTime::now().duration_since(UNIX_EPOCH) else {
            return false;
        };
        let now_ns = now.as_nanos() as i128;
        let c_ns = self.ctime.0 as i128 * 1_000_000_000 + self.ctime.1 as i128;
        now_ns - c_ns >= settle.as_nanos() as i128
    }

    /// The key as text (cache lines).
    pub fn fields(&self) -> String {
        format!(
            "{} {} {} {}.{} {}.{}",
            self.dev, self.ino, self.size, self.mtime.0, self.mtime.1, self.ctime.0, self.ctime.1
        )
    }
}

/// The `verified` line for a table version.
pub fn verified_line(key: &FileKey, checksum: u32) -> String {
    seal(format!("v1 {} {checksum:08x}", key.fields()))
}

/// The `fresh` line for a source version matching a stamp.
pub fn fresh_line(key: &FileKey, stamp_size: u64, stamp_hash: u64) -> String {
    seal(format!(
        "f1 {} {stamp_size} {stamp_hash:016x}",
        key.fields()
    ))
}

/// `body` followed by its FNV-1a 64 (a torn or edited line never matches).
pub fn seal(body: String) -> String {
    let h = crate::ir::fnv1a64(body.as_bytes());
    format!("{body} {h:016x}")
}

fn open_flags() -> i32 {
    libc::O_NONBLOCK | libc::O_NOFOLLOW | libc::O_CLOEXEC
}

/// Reads up to the cap of a cache file; `None` if absent, not a regular file, or unreadable.
fn read_capped(file: &Path) -> Option<Vec<u8>> {
    let f = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(open_flags())
        .open(file)
        .ok()?;
    let m = f.metadata().ok()?;
    if !m.is_file() {
        return None;
    }
    let mut buf = Vec::with_capacity((m.len() as usize).min(MAX_CACHE_BYTES));
    f.take(MAX_CACHE_BYTES as u64).read_to_end(&mut buf).ok()?;
    Some(buf)
}

/// One read of a cache file, for several lookups.
#[derive(Debug, Default)]
pub struct Snapshot(Vec<u8>);

impl Snapshot {
    /// Reads the cache file `name` under `dir` (empty if absent or unusable).
    pub fn load(dir: &Path, name: &str) -> Snapshot {
        Snapshot(read_capped(&dir.join(name)).unwrap_or_default())
    }

    /// Is this exact line in the snapshot?
    pub fn contains(&self, line: &str) -> bool {
        // Whole lines, compared by length first. Lines are found with `memchr` (a per-byte
        // `split` closure cost ~14 instructions a byte: 110,000 for an 8 KB cache, a tenth of
        // a hook call); a memmem searcher costs more to build (CPU feature detection, a
        // ranked prefilter) than the scan takes. The last line counts only if
        // newline-terminated.
        let needle = line.as_bytes();
        self.lines().any(|l| l == needle)
    }

    /// The newline-terminated lines (an unterminated tail is ignored: a torn append).
    fn lines(&self) -> impl Iterator<Item = &[u8]> + '_ {
        let b = self.0.as_slice();
        let mut start = 0;
        memchr::memchr_iter(b'\n', b).map(move |end| {
            let l = b.get(start..end).unwrap_or_default();
            start = end + 1;
            l
        })
    }

    /// The rest of the first sealed line starting with `prefix` (its seal removed and
    /// checked), e.g. the digest cached for a key.
    pub fn find_value(&self, prefix: &str) -> Option<&str> {
        // The prefix first (one comparison a line), the seal only for lines that have it.
        self.lines()
            .filter(|l| l.starts_with(prefix.as_bytes()))
            .filter_map(|l| std::str::from_utf8(l).ok())
            .find_map(|l| {
                let (body, h) = l.rsplit_once(' ')?;
                if !sealed_by(body, h) {
                    return None;
                }
                body.strip_prefix(prefix)
            })
    }
}

/// Is `h` the 16 lowercase hex digits of `body`'s FNV-1a 64 (as [`seal`] writes it)?
fn sealed_by(body: &str, h: &str) -> bool {
    h.len() == 16
        && h.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
        && u64::from_str_radix(h, 16).ok() == Some(crate::ir::fnv1a64(body.as_bytes()))
}

/// Is this exact line in the cache file `name` under `dir`?
pub fn contains(dir: &Path, name: &str, line: &str) -> bool {
    Snapshot::load(dir, name).contains(line)
}

/// Appends a line to the cache file `name` under `dir` (creating the folder), compacting
/// past the cap. Best effort: failures are ignored.
pub fn record(dir: &Path, name: &str, line: &str) {
    let _ = try_record(dir, name, line);
}

fn try_record(dir: &Path, name: &str, line: &str) -> std::io::Result<()> {
    use std::os::unix::fs::DirBuilderExt;
    if !dir.is_dir() {
        std::fs::DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(dir)?;
    }
    let file = dir.join(name);
    let mut entry = String::with_capacity(line.len() + 1);
    entry.push_str(line);
    entry.push('\n');

    let cur_len = std::fs::symlink_metadata(&file)
        .map(|m| m.len())
        .unwrap_or(0);
    if cur_len as usize + entry.len() <= MAX_CACHE_BYTES {
        use std::os::unix::fs::FileExt;
        let mut f = std::fs::OpenOptions::new()
            .read(true)
            .append(true)
            .create(true)
            .mode(0o600)
            .custom_flags(open_flags())
            .open(&file)?;
        let m = f.metadata()?;
        if !m.is_file() {
            return Ok(());
        }
        // A previous writer may have left a partial last line: start on a fresh one.
        let mut last = [0u8; 1];
        if m.len() > 0 && f.read_at(&mut last, m.len() - 1)? == 1 && last[0] != b'\n' {
            entry.insert(0, '\n');
        }
        // One write: concurrent appenders do not interleave within a line on local disks;
        // if they ever do, the line's seal fails and it is ignored.
        return f.write_all(entry.as_bytes());
    }

    // Compact: keep the newest whole lines that fit in half the cap, then the new one.
    let old = read_capped(&file).unwrap_or_default();
    let keep_from = old.len().saturating_sub(MAX_CACHE_BYTES / 2);
    let tail = old.get(keep_from..).unwrap_or_default();
    let tail = match memchr::memchr(b'\n', tail) {
        Some(i) if keep_from > 0 => tail.get(i + 1..).unwrap_or_default(),
        _ => tail,
    };
    let mut new = Vec::with_capacity(tail.len() + entry.len());
    new.extend_from_slice(tail);
    new.extend_from_slice(entry.as_bytes());
    sweep_dead_temps(dir, name);
    super::write_atomic(&file, &new)
}

/// Removes `write_atomic`'s temporary files for `name` (`.NAME.tmp.PID.N`) whose writer is
/// gone (a hook killed mid-compaction), so none outlives its writer past the next compaction.
fn sweep_dead_temps(dir: &Path, name: &str) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    let prefix = format!(".{name}.tmp.");
    for e in rd.flatten() {
        let n = e.file_name();
        let Some(rest) = n.to_str().and_then(|n| n.strip_prefix(&prefix)) else {
            continue;
        };
        let pid = rest
            .split('.')
            .next()
            .and_then(|p| p.parse::<i32>().ok())
            .unwrap_or(0);
        // SAFETY: kill with signal 0 only checks that the process exists.
        if pid <= 0 || unsafe { libc::kill(pid, 0) } != 0 {
            let _ = std::fs::remove_file(e.path());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(i: u64) -> FileKey {
        FileKey {
            dev: 1,
            ino: i,
            size: 100,
            mtime: (1_700_000_000, 5),
            ctime: (1_700_000_000, 6),
        }
    }

    #[test]
    fn record_then_contains() {
        let d = tempfile::tempdir().unwrap();
        let dir = d.path().join("sub/polc");
        let l = verified_line(&key(1), 0xabcd);
        assert!(!contains(&dir, VERIFIED, &l));
        record(&dir, VERIFIED, &l);
        assert!(contains(&dir, VERIFIED, &l));
        // A prefix of a recorded line is not a hit.
        assert!(!contains(&dir, VERIFIED, &l[..l.len() - 1]));
        assert!(!contains(&dir, VERIFIED, &verified_line(&key(1), 0xabce)));
        assert!(!contains(&dir, FRESH, &l));
    }

    #[test]
    fn compaction_keeps_newest_and_respects_cap() {
        let d = tempfile::tempdir().unwrap();
        let dir = d.path();
        let n = 2 * MAX_CACHE_BYTES / verified_line(&key(0), 0).len() + 10;
        for i in 0..n as u64 {
            record(dir, VERIFIED, &verified_line(&key(i), 1));
        }
        let len = std::fs::metadata(dir.join(VERIFIED)).unwrap().len() as usize;
        assert!(len <= MAX_CACHE_BYTES, "{len}");
        assert!(contains(
            dir,
            VERIFIED,
            &verified_line(&key(n as u64 - 1), 1)
        ));
        assert!(contains(
            dir,
            VERIFIED,
            &verified_line(&key(n as u64 - 2), 1)
        ));
        assert!(!contains(dir, VERIFIED, &verified_line(&key(0), 1)));
    }

    #[test]
    fn compaction_sweeps_dead_writers_temps() {
        let d = tempfile::tempdir().unwrap();
        let dead = d.path().join(format!(".{VERIFIED}.tmp.999999999.0"));
        let live = d.path().join(format!(
            ".{VERIFIED}.tmp.{}.0",
            std::os::unix::process::parent_id()
        ));
        std::fs::write(&dead, "x").unwrap();
        std::fs::write(&live, "x").unwrap();
        let n = 2 * MAX_CACHE_BYTES / verified_line(&key(0), 0).len() + 10;
        for i in 0..n as u64 {
            record(d.path(), VERIFIED, &verified_line(&key(i), 1));
        }
        assert!(!dead.exists());
        assert!(live.exists());
    }

    #[test]
    fn garbage_cache_is_harmless() {
        let d = tempfile::tempdir().unwrap();
        std::fs::write(d.path().join(VERIFIED), [0xffu8, 0, 10, 13, 200]).unwrap();
        let l = verified_line(&key(3), 3);
        assert!(!contains(d.path(), VERIFIED, &l));
        record(d.path(), VERIFIED, &l);
        assert!(contains(d.path(), VERIFIED, &l));
        // A folder where the file should be: no error, no hit.
        std::fs::create_dir(d.path().join(FRESH)).unwrap();
        record(d.path(), FRESH, &l);
        assert!(!contains(d.path(), FRESH, &l));
    }

    #[test]
    fn snapshot_lines_values_and_seals() {
        let good = seal("s1 1 2 abc".into());
        let forged = "s1 1 2 def 0000000000000000".to_string();
        let upper = good.to_uppercase().replace("S1", "s1");
        let snap = Snapshot(format!("{forged}\n{upper}\n{good}\nx").into_bytes());
        // The first line with the prefix whose seal checks.
        assert_eq!(snap.find_value("s1 1 2 "), Some("abc"));
        assert_eq!(snap.find_value("s1 1 3 "), None);
        assert!(snap.contains(&good));
        assert!(snap.contains(&forged));
        // An unterminated last line (a torn append) is not a line.
        assert!(!snap.contains("x"));
        assert!(!snap.contains(""));
        let torn = Snapshot(good.clone().into_bytes());
        assert_eq!(torn.find_value("s1 1 2 "), None);
        assert!(!torn.contains(&good));
        assert!(Snapshot(b"\n".to_vec()).contains(""));
    }

    #[test]
    fn settle_window() {
        let mut k = key(1);
        assert!(k.settled(SETTLE));
        let now = SystemTime::now().duration_since(UNIX_EPOCH).unwrap();
        k.ctime = (now.as_secs() as i64, now.subsec_nanos() as i64);
        assert!(!k.settled(SETTLE));
        assert!(k.settled(Duration::ZERO));
    }
}
