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

use std::io::Write;
use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// Cap on each cache file. Every hook call scans three of them (`verified`, `fresh`, the
/// trust digests): 16 KiB holds ~150 entries each, more tables than a person uses between
/// rebuilds (a rebuilt table's old entries are dead), and bounds the scan (64 KiB files
/// cost ~117,000 instructions a call on the benchmark machine).
pub const MAX_CACHE_BYTES: usize = 16 << 10;

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
    crate::fileio::read_upto(&f, m.len(), MAX_CACHE_BYTES as u64).ok()
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
        // Whole lines (the last one counts only if newline-terminated: an unterminated tail
        // is a torn append), compared by length, then by their last bytes (the seal: no two
        // lines share it by chance), then in full. Lines are found 8 bytes at a time
        // (`each_line`): a `memchr` call for each line's end cost ~100 instructions a line,
        // 20,000 for a cache of 200 lines, three such lookups a hook call; a `memmem`
        // searcher cost more (its prefilter stops at nearly every line of these files).
        let needle = line.as_bytes();
        let tail = needle.len().saturating_sub(8);
        let hint = needle.get(tail..).unwrap_or_default();
        each_line(&self.0, |l| {
            l.len() == needle.len() && l.get(tail..) == Some(hint) && l == needle
        })
        .is_some()
    }

    /// The newline-terminated lines (an unterminated tail is ignored: a torn append): the
    /// reference the searches are tested against.
    #[cfg(test)]
    fn lines(&self) -> impl Iterator<Item = &[u8]> + '_ {
        let b = self.0.as_slice();
        let mut start = 0;
        memchr::memchr_iter(b'\n', b).map(move |end| {
            let l = b.get(start..end).unwrap_or_default();
            start = end + 1;
            l
        })
    }

    /// Which of `lines` are in the snapshot, in one pass (an empty line is never looked
    /// for: `false`).
    pub fn contains_each(&self, lines: &[&str]) -> Vec<bool> {
        let mut found = vec![false; lines.len()];
        let mut left = lines.iter().filter(|l| !l.is_empty()).count();
        if left == 0 {
            return found;
        }
        each_line(&self.0, |l| {
            for (f, n) in found.iter_mut().zip(lines) {
                if !*f && !n.is_empty() && l == n.as_bytes() {
                    *f = true;
                    left -= 1;
                }
            }
            left == 0
        });
        found
    }

    /// The rest of the first sealed line starting with `prefix` (its seal removed and
    /// checked), e.g. the digest cached for a key.
    pub fn find_value(&self, prefix: &str) -> Option<&str> {
        // The prefix first (its last bytes, then in full: the key's times differ there), the
        // seal only for lines that have it.
        let p = prefix.as_bytes();
        let tail = p.len().saturating_sub(8);
        let hint = p.get(tail..).unwrap_or_default();
        let mut value = None;
        each_line(&self.0, |l| {
            if l.get(tail..p.len()) != Some(hint) || !l.starts_with(p) {
                return false;
            }
            value = sealed_value(l, prefix);
            value.is_some()
        });
        value
    }

    /// [`Snapshot::find_value`] line by line: the reference the search is tested against.
    #[cfg(test)]
    fn find_value_by_lines(&self, prefix: &str) -> Option<&str> {
        self.lines()
            .filter(|l| l.starts_with(prefix.as_bytes()))
            .find_map(|l| sealed_value(l, prefix))
    }
}

/// Calls `hit` on each newline-terminated line of `b` (without its newline), in order,
/// until it answers true: that line's start. The newlines of each 64-byte block are found
/// at once, as a bit mask ([`newlines64`]).
fn each_line<'b>(b: &'b [u8], mut hit: impl FnMut(&'b [u8]) -> bool) -> Option<usize> {
    let mut start = 0usize;
    let mut line_at = |end: usize, start: &mut usize| -> Option<usize> {
        let s = *start;
        *start = end + 1;
        hit(b.get(s..end).unwrap_or_default()).then_some(s)
    };
    let blocks = b.chunks_exact(64);
    let rest = blocks.remainder();
    for (i, block) in blocks.enumerate() {
        let mut m = newlines64(block);
        while m != 0 {
            if let Some(s) = line_at(i * 64 + m.trailing_zeros() as usize, &mut start) {
                return Some(s);
            }
            m &= m - 1;
        }
    }
    let base = b.len() - rest.len();
    for (j, &c) in rest.iter().enumerate() {
        if c == b'\n' {
            if let Some(s) = line_at(base + j, &mut start) {
                return Some(s);
            }
        }
    }
    None
}

/// Bit `i` set where `block[i]` is a newline (`block` holds 64 bytes; bytes past it count
/// as none). SSE2 on x86-64 (always there), 16 bytes a step: a `memchr` call for each
/// line's end cost ~100 instructions a line, and a word-at-a-time search ~3 a byte.
#[cfg(target_arch = "x86_64")]
fn newlines64(block: &[u8]) -> u64 {
    use std::arch::x86_64::{
        __m128i, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_set1_epi8,
    };
    let Some(block) = block.get(..64) else {
        return newlines64_words(block);
    };
    let mut m = 0u64;
    for (k, q) in block.chunks_exact(16).enumerate() {
        // SAFETY: SSE2 is part of x86-64; `q` holds 16 readable bytes (chunks_exact), and
        // an unaligned load reads exactly those.
        let bits = unsafe {
            let v = _mm_loadu_si128(q.as_ptr().cast::<__m128i>());
            _mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8(b'\n' as i8)))
        };
        m |= u64::from(bits as u16) << (16 * k);
    }
    m
}

#[cfg(not(target_arch = "x86_64"))]
fn newlines64(block: &[u8]) -> u64 {
    newlines64_words(block)
}

/// [`newlines64`] a word at a time: the high bit of each byte of
/// `!(((x & 0x7f..) + 0x7f..) | x | 0x7f..)` is set exactly where `x`'s byte is zero (no
/// carry crosses bytes), `x` being the word XOR newlines.
fn newlines64_words(block: &[u8]) -> u64 {
    const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    const NL: u64 = 0x0a0a_0a0a_0a0a_0a0a;
    let mut m = 0u64;
    for (k, w) in block.chunks_exact(8).take(8).enumerate() {
        let x = u64::from_le_bytes(w.try_into().unwrap_or([0; 8])) ^ NL;
        let high = !(((x & LOW7).wrapping_add(LOW7)) | x | LOW7);
        // One bit per byte: bit 7 of byte j becomes bit j.
        let bits = (high >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56;
        m |= bits << (8 * k);
    }
    m
}

/// The value of one line starting with `prefix` if its seal checks.
fn sealed_value<'l>(l: &'l [u8], prefix: &str) -> Option<&'l str> {
    let l = std::str::from_utf8(l).ok()?;
    let (body, h) = l.rsplit_once(' ')?;
    if !sealed_by(body, h) {
        return None;
    }
    body.strip_prefix(prefix)
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

    /// The direct searches answer as a walk over every line would, on snapshots built to
    /// trip them: the needle inside a line, as a line's prefix or suffix, overlapping
    /// itself, in an unterminated tail, after blank lines.
    #[test]
    fn direct_search_answers_as_the_line_walk() {
        let reference_contains = |s: &Snapshot, l: &str| s.lines().any(|x| x == l.as_bytes());
        let good = seal("s1 1 2 abc".into());
        let other = seal("s1 1 2 abd".into());
        let parts = [
            "aa",
            "a",
            "aaa",
            "ab",
            "v1 1 2",
            "v1 1 2 x",
            "x v1 1 2",
            "",
            &good,
            &other,
            "s1 1 2 ",
            "s1 1 2 abc 0",
            "\u{ff}",
            "\u{b}\u{8a}\u{b}",
            "abcdefghijklmnopq",
        ];
        let needles = [
            "aa",
            "a",
            "aaa",
            "ab",
            "v1 1 2",
            "s1 1 2 abc",
            "",
            "a\na",
            "aa\n",
            "abcdefghijklmnopq",
            &good,
        ];
        // Snapshots of up to 6 parts, each followed by a newline or not.
        let mut seed = 7u64;
        for _ in 0..20_000 {
            let mut text = Vec::new();
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let mut r = seed >> 20;
            for _ in 0..(r % 7) {
                r /= 7;
                text.extend_from_slice(parts[(r % parts.len() as u64) as usize].as_bytes());
                r /= parts.len() as u64;
                if !r.is_multiple_of(3) {
                    text.push(b'\n');
                }
                r /= 3;
            }
            let snap = Snapshot(text);
            for n in needles {
                assert_eq!(
                    snap.contains(n),
                    reference_contains(&snap, n),
                    "{:?} in {:?}",
                    n,
                    String::from_utf8_lossy(&snap.0)
                );
            }
            let each = snap.contains_each(&needles);
            for (n, got) in needles.iter().zip(each) {
                assert_eq!(got, !n.is_empty() && snap.contains(n), "{n:?}");
            }
            for p in ["s1 1 2 ", "s1 1 ", "", "s1 1 2 abc", "a\n"] {
                assert_eq!(
                    snap.find_value(p),
                    snap.find_value_by_lines(p),
                    "{:?} in {:?}",
                    p,
                    String::from_utf8_lossy(&snap.0)
                );
            }
        }
    }

    /// Both newline masks find every newline of a block and nothing else.
    #[test]
    fn newline_masks_agree() {
        let mut seed = 5u64;
        for _ in 0..5_000 {
            let b: Vec<u8> = (0..64)
                .map(|_| {
                    seed = seed
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    [b'\n', 0x0b, 0x0a ^ 0x80, 0x09, 0, 0xff, b'a'][(seed >> 33) as usize % 7]
                })
                .collect();
            let want = b
                .iter()
                .enumerate()
                .filter(|(_, &c)| c == b'\n')
                .fold(0u64, |m, (i, _)| m | 1 << i);
            assert_eq!(newlines64(&b), want, "{b:?}");
            assert_eq!(newlines64_words(&b), want, "{b:?}");
        }
    }

    /// The word-at-a-time newline search finds every newline and nothing else, at every
    /// offset (bytes next to a newline that differ from it by one bit or by a carry).
    #[test]
    fn each_line_finds_exactly_the_newlines() {
        let mut seed = 11u64;
        for len in 0..200usize {
            for _ in 0..20 {
                let b: Vec<u8> = (0..len)
                    .map(|_| {
                        seed = seed
                            .wrapping_mul(6364136223846793005)
                            .wrapping_add(1442695040888963407);
                        [b'\n', 0x0b, 0x0a ^ 0x80, 0x09, 0, 0xff, b'a'][(seed >> 33) as usize % 7]
                    })
                    .collect();
                let mut got = Vec::new();
                each_line(&b, |l| {
                    got.push(l.to_vec());
                    false
                });
                let want: Vec<Vec<u8>> = Snapshot(b.clone()).lines().map(<[u8]>::to_vec).collect();
                assert_eq!(got, want, "{b:?}");
            }
        }
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
