//! Opening a table: `O_NONBLOCK` open, `fstat` checks, map, header/metadata/section checks,
//! a CRC-32C once per file version; and staleness against the recorded sources.

use std::fs::File;
use std::io::Read;
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};
use std::time::Duration;

use super::cache::{self, FileKey, Snapshot};
use super::header::{self, Header, HEADER_LEN};
use super::write::align_up;
use super::{codec, LoadError, Meta, MAX_META_BYTES, MAX_TABLE_BYTES};
use crate::ir;

/// Tables at least this large get `madvise(RANDOM, NOHUGEPAGE)` on their map; below it the
/// two calls cost more than the pages they could save.
const ADVISE_MIN_BYTES: u64 = 1 << 20;

/// Tables up to this size are read into a private buffer: the bytes every check and the
/// decision read are one snapshot, whatever a writer does to the file meanwhile. Measured
/// (open+fstat+read vs open+mmap+16 page touches, 200 rounds, `/tmp/st/m.c` in the issue-12
/// report): 86 KB 7.7 vs 14 µs, 1 MiB 76 vs 43 µs, 4 MiB 390 vs 55 µs, 25 MB 5.9 ms vs
/// 52 µs. Larger tables are mapped under a read lease (`lease.rs`) and fall back to a copy
/// when no lease can be had.
pub const PRIVATE_COPY_MAX: u64 = 64 << 10;

/// How a table's bytes were found intact.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Integrity {
    /// The full CRC-32C ran on this load.
    Checked,
    /// The file's (dev, ino, size, mtime, ctime, checksum) was in the `verified` cache: the
    /// CRC was skipped; every structural check still ran.
    Cached,
}

enum Storage {
    /// A large table, mapped under a read lease (`lease.rs`); `file` keeps the lease's
    /// descriptor open. Field order is drop order: the lease goes first.
    Map {
        map: memmap2::Mmap,
        lease: Option<super::lease::Lease>,
        _file: File,
    },
    /// `buf[start..start + len]` is 64-byte aligned; `buf` is never resized.
    Owned {
        buf: Vec<u8>,
        start: usize,
        len: usize,
    },
}

/// A loaded, verified table. Sections are slices of the map (or of an aligned buffer).
pub struct Table {
    storage: Storage,
    meta: Meta,
    path: Option<PathBuf>,
    integrity: Integrity,
    /// The version of the descriptor the bytes came from, when it did not change while
    /// they were read (the key trust and integrity caches use).
    identity: Option<FileKey>,
}

impl std::fmt::Debug for Table {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Table")
            .field("path", &self.path)
            .field("len", &self.bytes().len())
            .field("mapped", &matches!(self.storage, Storage::Map { .. }))
            .field("integrity", &self.integrity)
            .field("meta", &self.meta)
            .finish()
    }
}

/// Copies `bytes` into a fresh buffer whose data starts on a 64-byte boundary (no `unsafe`:
/// over-allocate by 63 and start at the first aligned byte).
fn aligned_copy(bytes: &[u8]) -> Storage {
    let mut buf = vec![0u8; bytes.len() + 63];
    let start = (64 - (buf.as_ptr() as usize % 64)) % 64;
    buf[start..start + bytes.len()].copy_from_slice(bytes);
    Storage::Owned {
        buf,
        start,
        len: bytes.len(),
    }
}

/// Reads exactly `len` bytes from `f` into a 64-aligned buffer (the fallback when mapping fails).
fn aligned_read(f: &mut File, len: usize) -> std::io::Result<Storage> {
    let mut buf = vec![0u8; len + 63];
    let start = (64 - (buf.as_ptr() as usize % 64)) % 64;
    f.read_exact(&mut buf[start..start + len])?;
    Ok(Storage::Owned { buf, start, len })
}

fn in_memory() -> PathBuf {
    PathBuf::from("(in memory)")
}

/// Checks everything but the checksum: lengths, metadata, stamp hash, section directory,
/// padding. Never indexes out of bounds, whatever `bytes` holds.
/// `check_padding`: also require the padding between sections to be zero. Skipped on a
/// cached open: the cached key names a file version that passed this whole check, padding
/// included, and nothing ever reads padding. Reading it costs a page fault per section, the
/// one part of a warm open that grew with the table's size.
fn validate_structure(bytes: &[u8], h: &Header, check_padding: bool) -> Result<Meta, LoadError> {
    let len = bytes.len() as u64;
    if len < h.file_len {
        return Err(LoadError::Truncated {
            len,
            need: h.file_len,
        });
    }
    if len > h.file_len {
        return Err(LoadError::Corrupt {
            what: format!("file is {len} bytes but its header says {}", h.file_len),
        });
    }
    if h.meta_off != HEADER_LEN as u64 {
        return Err(LoadError::Corrupt {
            what: format!("metadata offset {} (expected {HEADER_LEN})", h.meta_off),
        });
    }
    if h.meta_len > MAX_META_BYTES as u64 {
        return Err(LoadError::Corrupt {
            what: format!("metadata length {} over the limit", h.meta_len),
        });
    }
    let meta_end = h.meta_off + h.meta_len; // both bounded: no overflow
    let meta_bytes = bytes
        .get(h.meta_off as usize..meta_end as usize)
        .ok_or_else(|| LoadError::Corrupt {
            what: format!("metadata ends at {meta_end}, past the end of the file ({len})"),
        })?;
    let meta = codec::decode_meta(meta_bytes)?;

    if ir::fnv1a64(&codec::encode_sources(&meta.sources)) != h.stamp_hash {
        return Err(LoadError::Corrupt {
            what: "sources' stamp hash does not match the metadata".into(),
        });
    }

    // The section directory must be exactly the canonical layout `encode` writes: kinds
    // strictly increasing, each section at the next 64-byte boundary after the previous one,
    // zero padding between, the file ending with the last section.
    let mut cur = meta_end;
    let mut prev_kind: Option<u32> = None;
    for e in &meta.sections {
        if prev_kind.is_some_and(|p| e.kind <= p) {
            return Err(LoadError::Corrupt {
                what: format!("section kind {} is duplicated or out of order", e.kind),
            });
        }
        prev_kind = Some(e.kind);
        let want = align_up(cur).ok_or_else(|| LoadError::Corrupt {
            what: "section layout overflows".into(),
        })?;
        if e.offset != want {
            return Err(LoadError::Corrupt {
                what: format!(
                    "section kind {} at offset {}, expected {want}",
                    e.kind, e.offset
                ),
            });
        }
        let end = e
            .offset
            .checked_add(e.len)
            .filter(|&end| end <= len)
            .ok_or_else(|| LoadError::Corrupt {
                what: format!(
                    "section kind {} ({} bytes at {}) runs past the end of the file ({len})",
                    e.kind, e.len, e.offset
                ),
            })?;
        if check_padding {
            check_zero(bytes, cur, e.offset)?;
        }
        cur = end;
    }
    if cur != len {
        return Err(LoadError::Corrupt {
            what: format!("{} bytes after the last section", len.saturating_sub(cur)),
        });
    }
    Ok(meta)
}

fn check_zero(bytes: &[u8], from: u64, to: u64) -> Result<(), LoadError> {
    let pad = bytes
        .get(from as usize..to as usize)
        .ok_or_else(|| LoadError::Corrupt {
            what: format!("padding {from}..{to} out of bounds"),
        })?;
    if pad.iter().any(|&b| b != 0) {
        return Err(LoadError::Corrupt {
            what: format!("non-zero padding in {from}..{to}"),
        });
    }
    Ok(())
}

fn verify_checksum(bytes: &[u8], h: &Header) -> Result<(), LoadError> {
    let c = header::file_checksum(bytes);
    if c != h.checksum {
        return Err(LoadError::Corrupt {
            what: format!(
                "checksum mismatch (header {:08x}, content {c:08x})",
                h.checksum
            ),
        });
    }
    Ok(())
}

impl Table {
    /// Loads a table from memory: every check, including the full CRC (never cached). The
    /// bytes are moved (or copied, if not 64-aligned) into a 64-byte-aligned buffer. Relative
    /// source paths cannot be resolved without a folder: `check_fresh` skips them.
    pub fn from_bytes(bytes: Vec<u8>) -> Result<Table, LoadError> {
        let len = bytes.len() as u64;
        if len > MAX_TABLE_BYTES {
            return Err(LoadError::TooLarge {
                path: in_memory(),
                size: len,
            });
        }
        let h = Header::parse(&bytes)?;
        let storage = if (bytes.as_ptr() as usize).is_multiple_of(64) {
            let len = bytes.len();
            Storage::Owned {
                buf: bytes,
                start: 0,
                len,
            }
        } else {
            aligned_copy(&bytes)
        };
        let b = storage_bytes(&storage);
        if b.len() as u64 >= h.file_len {
            verify_checksum(b, &h)?;
        }
        let meta = validate_structure(b, &h, true)?;
        Ok(Table {
            storage,
            meta,
            path: None,
            integrity: Integrity::Checked,
            identity: None,
        })
    }

    /// Opens, maps and verifies the table at `path`, using the integrity cache in
    /// [`super::cache_dir`]. See `src/table/README.md` for the steps.
    pub fn open(path: &Path) -> Result<Table, LoadError> {
        Self::open_with_cache(path, super::cache_dir().as_deref())
    }

    /// [`Table::open`] with an explicit cache folder (`None`: no cache, always a full CRC).
    pub fn open_with_cache(path: &Path, cache: Option<&Path>) -> Result<Table, LoadError> {
        Self::open_inner(path, cache, cache::SETTLE, true)
    }

    /// Like [`Table::open_with_cache`] but always reads the file into a 64-aligned buffer,
    /// whatever its size: the loaded bytes are a private snapshot. For commands that hash
    /// or show a table (`polc trust`).
    pub fn open_unmapped(path: &Path, cache: Option<&Path>) -> Result<Table, LoadError> {
        Self::open_inner(path, cache, cache::SETTLE, false)
    }

    pub(crate) fn open_inner(
        path: &Path,
        cache_dir: Option<&Path>,
        settle: Duration,
        map: bool,
    ) -> Result<Table, LoadError> {
        let (f, key, size) = open_checked(path)?;
        let (storage, identity) = read_storage(path, f, key, size, map)?;
        let b = storage_bytes(&storage);
        let h = Header::parse(b)?;
        // Length first (cheap), so the CRC never runs on a file that cannot be right.
        if (b.len() as u64) < h.file_len {
            return Err(LoadError::Truncated {
                len: b.len() as u64,
                need: h.file_len,
            });
        }
        let line = cache::verified_line(&key, h.checksum);
        let cached = identity.is_some()
            && cache_dir.is_some_and(|d| Snapshot::load(d, cache::VERIFIED).contains(&line));
        if !cached {
            verify_checksum(b, &h)?;
        }
        let meta = validate_structure(b, &h, !cached)?;
        if !cached {
            if let Some(d) = cache_dir {
                // Record only if the file did not change while we read it (the bytes checked
                // are that version's), and its ctime is old enough that any later change
                // must get another key.
                if identity.is_some() && key.settled(settle) {
                    cache::record(d, cache::VERIFIED, &line);
                }
            }
        }
        Ok(Table {
            storage,
            meta,
            path: Some(path.to_path_buf()),
            identity,
            integrity: if cached {
                Integrity::Cached
            } else {
                Integrity::Checked
            },
        })
    }

    pub fn meta(&self) -> &Meta {
        &self.meta
    }

    /// The whole file.
    pub fn bytes(&self) -> &[u8] {
        storage_bytes(&self.storage)
    }

    /// The section of this kind, in place (64-byte aligned), or `None` if absent.
    pub fn section(&self, kind: u32) -> Option<&[u8]> {
        let i = self
            .meta
            .sections
            .binary_search_by_key(&kind, |e| e.kind)
            .ok()?;
        let e = self.meta.sections.get(i)?;
        let start = usize::try_from(e.offset).ok()?;
        let end = start.checked_add(usize::try_from(e.len).ok()?)?;
        self.bytes().get(start..end)
    }

    /// The path the table was opened from (`None` for `from_bytes`).
    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    /// The version (dev, ino, size, mtime, ctime) of the descriptor the bytes were read from,
    /// when it did not change during the read: the key for caches about these bytes.
    pub fn identity(&self) -> Option<&FileKey> {
        self.identity.as_ref()
    }

    /// Did the file change after its bytes were checked? Only a mapped (large) table can:
    /// true when its read lease broke (someone opened it for writing or truncated it). A
    /// decision taken from a changed table must be a deny.
    pub fn changed(&self) -> bool {
        match &self.storage {
            Storage::Map { lease, .. } => lease.as_ref().is_none_or(|l| l.broken()),
            Storage::Owned { .. } => false,
        }
    }

    /// Whether the bytes are a map (large table under a lease) rather than a private copy.
    pub fn is_mapped(&self) -> bool {
        matches!(self.storage, Storage::Map { .. })
    }

    /// Whether this load ran the full CRC or trusted the `verified` cache.
    pub fn integrity(&self) -> Integrity {
        self.integrity
    }

    /// Staleness against the recorded sources, using the cache in [`super::cache_dir`].
    ///
    /// Relative source paths are resolved against the table file's folder (for a
    /// `from_bytes` table, which has none, they are skipped). For each source: `stat`; if
    /// its (dev, ino, size, mtime, ctime) is in the `fresh` cache for this stamp, it is
    /// fresh; else its size and FNV-1a 64 are compared with the stamp (and, if equal and
    /// settled, recorded). A source that no longer exists is **not** stale: a table may be
    /// shipped without its sources. A source that is now a folder, FIFO, etc. is stale.
    pub fn check_fresh(&self) -> Result<(), LoadError> {
        self.check_fresh_with_cache(super::cache_dir().as_deref())
    }

    /// [`Table::check_fresh`] with an explicit cache folder (`None`: always hash).
    pub fn check_fresh_with_cache(&self, cache: Option<&Path>) -> Result<(), LoadError> {
        self.check_fresh_inner(cache, cache::SETTLE)
    }

    pub(crate) fn check_fresh_inner(
        &self,
        cache_dir: Option<&Path>,
        settle: Duration,
    ) -> Result<(), LoadError> {
        if self.meta.sources.is_empty() {
            return Ok(());
        }
        let base: Option<PathBuf> = self.path.as_ref().map(|p| match p.parent() {
            Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
            _ => PathBuf::from("."),
        });
        // First every source's `stat` (up to the first that fails), then one pass over the
        // `fresh` cache for all their keys (a pass a source cost ~0.7 instructions a byte of
        // the cache file), then each source in order as before: the first failing source
        // decides the error, as when each was looked up in turn.
        let checks = self.stat_sources(base.as_deref());
        let cached: Vec<bool> = match cache_dir {
            Some(d) => {
                let lines: Vec<&str> = checks
                    .iter()
                    .map(|c| match c {
                        Fresh::Stat { line, .. } => line.as_str(),
                        Fresh::Failed(_) => "",
                    })
                    .collect();
                Snapshot::load(d, cache::FRESH).contains_each(&lines)
            }
            None => vec![false; checks.len()],
        };
        for (c, cached) in checks.into_iter().zip(cached) {
            let (s, full, key, line) = match c {
                Fresh::Failed(e) => return Err(e),
                Fresh::Stat { s, full, key, line } => (s, full, key, line),
            };
            if cached {
                continue;
            }
            let stale = || LoadError::Stale {
                source: s.path.clone(),
            };
            let io = |e: std::io::Error| LoadError::Io {
                path: full.clone(),
                err: e.to_string(),
            };
            if s.size == ir::DIR_STAMP {
                // A source folder: its listing (a new or removed source is a change). The
                // folder's key is recorded only if it did not move during the listing.
                let h = super::dir_listing_hash(&full).map_err(io)?;
                if h != s.hash {
                    return Err(stale());
                }
                if let Some(d) = cache_dir {
                    let after = std::fs::metadata(&full).map(|m| FileKey::of(&m)).ok();
                    if after == Some(key) && key.settled(settle) {
                        cache::record(d, cache::FRESH, &line);
                    }
                }
                continue;
            }
            let mut f = std::fs::OpenOptions::new()
                .read(true)
                .custom_flags(libc::O_NONBLOCK | libc::O_CLOEXEC)
                .open(&full)
                .map_err(io)?;
            let m2 = f.metadata().map_err(io)?;
            if !m2.is_file() || m2.len() != s.size {
                return Err(stale());
            }
            let (n, h) = hash_reader(&mut f, s.size.saturating_add(1)).map_err(io)?;
            if n != s.size || h != s.hash {
                return Err(stale());
            }
            if let Some(d) = cache_dir {
                let after = f.metadata().map(|m| FileKey::of(&m)).ok();
                if after == Some(key) && key.settled(settle) {
                    cache::record(d, cache::FRESH, &line);
                }
            }
        }
        Ok(())
    }

    /// Each source's `stat` and its `fresh` line, in order, up to the first source whose
    /// `stat` fails or shows it stale (last, as [`Fresh::Failed`]). Missing sources are left
    /// out (a table may ship without them), and relative ones without a `base`.
    fn stat_sources(&self, base: Option<&Path>) -> Vec<Fresh<'_>> {
        let mut checks: Vec<Fresh<'_>> = Vec::with_capacity(self.meta.sources.len());
        for s in &self.meta.sources {
            let sp = Path::new(&s.path);
            let full = if sp.is_absolute() {
                sp.to_path_buf()
            } else if let Some(b) = base {
                b.join(sp)
            } else {
                continue;
            };
            let m = match std::fs::metadata(&full) {
                Ok(m) => m,
                Err(e)
                    if e.kind() == std::io::ErrorKind::NotFound
                        || e.raw_os_error() == Some(libc::ENOTDIR) =>
                {
                    continue
                }
                Err(e) => {
                    checks.push(Fresh::Failed(LoadError::Io {
                        err: e.to_string(),
                        path: full,
                    }));
                    break;
                }
            };
            let kind_ok = if s.size == ir::DIR_STAMP {
                m.is_dir()
            } else {
                m.is_file() && m.len() == s.size
            };
            if !kind_ok {
                checks.push(Fresh::Failed(LoadError::Stale {
                    source: s.path.clone(),
                }));
                break;
            }
            let key = FileKey::of(&m);
            let line = cache::fresh_line(&key, s.size, s.hash);
            checks.push(Fresh::Stat { s, full, key, line });
        }
        checks
    }
}

/// One source of a freshness check after its `stat`.
enum Fresh<'m> {
    Stat {
        s: &'m crate::ir::SourceStamp,
        full: PathBuf,
        key: FileKey,
        line: String,
    },
    /// The check's answer: this source's `stat` failed or showed it stale.
    Failed(LoadError),
}

fn storage_bytes(s: &Storage) -> &[u8] {
    match s {
        Storage::Map { map, .. } => map,
        Storage::Owned { buf, start, len } => buf.get(*start..*start + *len).unwrap_or(&[]),
    }
}

/// FNV-1a 64 (as `ir::fnv1a64`) of at most `limit` bytes of `r`, streamed through a fixed
/// buffer. Returns (bytes read, hash).
fn hash_reader(r: &mut impl Read, limit: u64) -> std::io::Result<(u64, u64)> {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut n = 0u64;
    let mut buf = [0u8; 16 << 10];
    let mut r = r.take(limit);
    loop {
        let k = match r.read(&mut buf) {
            Ok(0) => break,
            Ok(k) => k,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        for &b in buf.get(..k).unwrap_or(&[]) {
            h ^= b as u64;
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
        n += k as u64;
    }
    Ok((n, h))
}

/// An I/O error on the table: "no such file" (or a parent that is not a folder) is
/// `Missing`, anything else `Io`.
fn io_error(path: &Path, e: std::io::Error) -> LoadError {
    if e.kind() == std::io::ErrorKind::NotFound || e.raw_os_error() == Some(libc::ENOTDIR) {
        LoadError::Missing {
            path: path.to_path_buf(),
        }
    } else {
        LoadError::Io {
            path: path.to_path_buf(),
            err: e.to_string(),
        }
    }
}

/// Steps 1–2 of `Table::open`: open without blocking, `fstat` the descriptor, refuse what is
/// not a regular file, over the cap or shorter than a header. Returns the descriptor, its
/// key and its size.
fn open_checked(path: &Path) -> Result<(File, FileKey, u64), LoadError> {
    let io = |e| io_error(path, e);
    // O_NONBLOCK: opening a FIFO must not wait for a writer.
    let mut f = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK | libc::O_CLOEXEC)
        .open(path)
        .map_err(io)?;
    let m = f.metadata().map_err(io)?;
    if !m.is_file() {
        return Err(LoadError::NotRegularFile {
            path: path.to_path_buf(),
        });
    }
    let size = m.len();
    if size > MAX_TABLE_BYTES {
        return Err(LoadError::TooLarge {
            path: path.to_path_buf(),
            size,
        });
    }
    if size < HEADER_LEN as u64 {
        let mut small = Vec::with_capacity(HEADER_LEN);
        (&mut f)
            .take(HEADER_LEN as u64)
            .read_to_end(&mut small)
            .map_err(io)?;
        Header::parse(&small)?;
        return Err(LoadError::Truncated {
            len: size,
            need: HEADER_LEN as u64,
        });
    }
    Ok((f, FileKey::of(&m), size))
}

/// Step 3: the bytes every later step and the decision read — a map under a read lease
/// for a large table, else a private copy — and the identity, if the descriptor's version
/// did not move meanwhile.
fn read_storage(
    path: &Path,
    mut f: File,
    key: FileKey,
    size: u64,
    map: bool,
) -> Result<(Storage, Option<FileKey>), LoadError> {
    let io = |e| io_error(path, e);
    // Large tables: a map under a read lease (no writer can touch the bytes without
    // the lease breaking, checked after deciding). Otherwise, or when no lease can be
    // had: a private copy.
    let leased = if map && size > PRIVATE_COPY_MAX {
        use std::os::fd::AsRawFd;
        super::lease::Lease::take(f.as_raw_fd())
    } else {
        None
    };
    // The identity is usable (for caches) only if the descriptor's version did not move
    // while the bytes were read (or the lease taken).
    let same = |f: &File| {
        f.metadata()
            .ok()
            .map(|m| FileKey::of(&m))
            .filter(|k| *k == key)
    };
    let Some(lease) = leased else {
        let st = aligned_read(&mut f, size as usize).map_err(|e| {
            if e.kind() == std::io::ErrorKind::UnexpectedEof {
                LoadError::Truncated { len: 0, need: size }
            } else {
                io(e)
            }
        })?;
        let identity = same(&f);
        return Ok((st, identity));
    };
    // SAFETY: the map is read-only and `Table` only hands out shared slices of
    // it. The file is a regular file of `size` bytes (checked on this very
    // descriptor), and the read lease was granted while no one had it open for
    // writing: a later writer breaks the lease first, which marks the table
    // changed (the decision is then denied); a truncation under the map is a
    // bus error, answered by the failsafe (deny). Every offset used goes
    // through the checks below.
    let m = unsafe { memmap2::MmapOptions::new().len(size as usize).map(&f) }.map_err(io)?;
    // A decision reads a few scattered pages; without this hint the kernel maps
    // the pages (or whole large folios) around each fault, so the resident size
    // grows with the table, not with what is read. Best effort.
    // The map is 2 MiB-aligned and the page cache may hold the file in large
    // folios: without NoHugePage one touch maps 2 MiB at once.
    if size >= ADVISE_MIN_BYTES {
        let _ = m.advise(memmap2::Advice::Random);
        let _ = m.advise(memmap2::Advice::NoHugePage);
    }
    let identity = same(&f);
    // The lease lives on this descriptor: it moves into the table.
    let storage = Storage::Map {
        map: m,
        lease: Some(lease),
        _file: f,
    };
    Ok((storage, identity))
}

#[cfg(test)]
mod tests {
    #[test]
    fn streamed_hash_matches_ir() {
        let data: Vec<u8> = (0..40_000u32).map(|i| (i * 7 + i / 3) as u8).collect();
        let (n, h) = super::hash_reader(&mut &data[..], u64::MAX).unwrap();
        assert_eq!(n, data.len() as u64);
        assert_eq!(h, crate::ir::fnv1a64(&data));
        let (n, _) = super::hash_reader(&mut &data[..], 10).unwrap();
        assert_eq!(n, 10);
    }
}
