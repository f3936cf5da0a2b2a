//! Which project tables may grant permissions (docs/contract.md#c-trust): a project table's allow rules
//! count only after a person ran `polc trust` for that project root, that table path and
//! that exact table (SHA-256 of its bytes), recorded in the user's config dir. Trusting a
//! (root, table) again replaces the digest trusted before for the pair.
//!
//! The config dir is `<home>/.config/polc` with the home directory taken from the password
//! database, not `$HOME`; nothing in the environment moves it (`runtime::state`).

use crate::table::cache::{self as tcache, FileKey};
use sha2::{Digest, Sha256};
use std::io::Write;
use std::path::{Path, PathBuf};

/// The trust list: one `digest<TAB>root<TAB>table` a line.
pub const TRUST_FILE: &str = "trusted";

pub use crate::places::passwd_home;

/// The user's polc config dir (trust list, user table): fixed, see `runtime::state`.
pub fn config_dir() -> Option<PathBuf> {
    super::state::config_dir()
}

/// Canonical form when it exists, else the path itself made absolute. An existing path's
/// canonical form is resolved once per thread (a hook call is one process: the project
/// root was resolved three times a call, ≈ 18 `readlink`s, by the layers, the trust check
/// and the tripwire), so every part of a call sees the same answer.
pub fn canon(p: &Path) -> PathBuf {
    type Memo = std::collections::HashMap<PathBuf, PathBuf>;
    thread_local! {
        static MEMO: std::cell::RefCell<Memo> = std::cell::RefCell::default();
    }
    // Absolute paths only: a relative one depends on the current folder.
    let memo = p.is_absolute();
    if let Some(c) = memo
        .then(|| MEMO.with(|m| m.borrow().get(p).cloned()))
        .flatten()
    {
        return c;
    }
    match p.canonicalize() {
        Ok(c) => {
            memo.then(|| {
                MEMO.with(|m| {
                    let mut m = m.borrow_mut();
                    if m.len() < 64 {
                        m.insert(p.to_path_buf(), c.clone());
                    }
                })
            });
            c
        }
        Err(_) if p.is_absolute() => p.to_path_buf(),
        Err(_) => std::env::current_dir()
            .map(|c| c.join(p))
            .unwrap_or_else(|_| p.to_path_buf()),
    }
}

/// Lowercase hex of `b`. (A `format!` per byte cost ~600 instructions a byte: 20,000 per
/// SHA-256 name, five names a hook call.)
pub fn hex(b: &[u8]) -> String {
    const D: &[u8; 16] = b"0123456789abcdef";
    let mut s = String::with_capacity(2 * b.len());
    for &x in b {
        s.push(D[usize::from(x >> 4)] as char);
        s.push(D[usize::from(x & 15)] as char);
    }
    s
}

/// Cache file (in the cache folder) of SHA-256 results per table version.
pub const HASH_CACHE: &str = "sha256";

/// SHA-256 of `bytes`, the table exactly as loaded and checked. `identity` is the version
/// of the descriptor those bytes were read from, `Some` only when it did not change while
/// they were read ([`crate::table::Table::identity`]); the result is cached under it in
/// `cache` and recorded only when the identity is settled (`table::cache`).
pub fn table_digest(cache: Option<&Path>, identity: Option<&FileKey>, bytes: &[u8]) -> String {
    let prefix = identity.map(|k| format!("s1 {} ", k.fields()));
    if let (Some(d), Some(p)) = (cache, &prefix) {
        if let Some(h) = tcache::Snapshot::load(d, HASH_CACHE).find_value(p) {
            if h.len() == 64 && h.bytes().all(|b| b.is_ascii_hexdigit()) {
                return h.to_string();
            }
        }
    }
    let h = hex(&Sha256::digest(bytes));
    if let (Some(d), Some(p), Some(k)) = (cache, prefix, identity) {
        if k.settled(tcache::SETTLE) {
            tcache::record(d, HASH_CACHE, &tcache::seal(format!("{p}{h}")));
        }
    }
    h
}

/// The trust list's key for a table path: canonical when it exists.
pub fn table_key(table: &Path) -> PathBuf {
    canon(table)
}

/// Rewrites `path` under an exclusive `flock` on `<path>.lock`: `edit` gets the current
/// lines and returns the new ones. Temp file + rename, so readers see old or new, whole.
fn rewrite_locked(
    path: &Path,
    edit: impl FnOnce(Vec<String>) -> Vec<String>,
) -> std::io::Result<()> {
    use std::os::fd::AsRawFd;
    use std::os::unix::fs::OpenOptionsExt;
    let dir = path.parent().unwrap_or(Path::new("."));
    super::state::ensure_dir(dir)?;
    let lock = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .mode(0o600)
        .custom_flags(libc::O_CLOEXEC | libc::O_NOFOLLOW)
        .open(path.with_extension("lock"))?;
    // SAFETY: flock on a descriptor we own; released when `lock` closes.
    if unsafe { libc::flock(lock.as_raw_fd(), libc::LOCK_EX) } != 0 {
        return Err(std::io::Error::last_os_error());
    }
    let existing = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(e) => return Err(e),
    };
    let lines = edit(existing.lines().map(str::to_string).collect());
    let tmp = path.with_extension(format!("tmp{}", std::process::id()));
    {
        let mut f = std::fs::OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(true)
            .mode(0o600)
            .open(&tmp)?;
        for l in &lines {
            writeln!(f, "{l}")?;
        }
        f.sync_all()?;
    }
    std::fs::rename(&tmp, path)
}

fn trust_line(digest: &str, root: &Path, table: &Path) -> String {
    format!("{digest}\t{}\t{}", root.display(), table.display())
}

/// Is this table (`digest` of its bytes) trusted for this project root and table path?
pub fn is_trusted(config: Option<&Path>, root: &Path, table: &Path, digest: &str) -> bool {
    let Some(cfg) = config else { return false };
    let Ok(text) = std::fs::read_to_string(cfg.join(TRUST_FILE)) else {
        return false;
    };
    let want = trust_line(digest, &canon(root), &table_key(table));
    text.lines().any(|l| l == want)
}

/// Records a table as trusted for (root, table path), revoking the digest trusted before
/// for that pair (called by `polc trust` after confirmation): a table restored from history
/// is untrusted again.
pub fn record(config: &Path, root: &Path, table: &Path, digest: &str) -> std::io::Result<()> {
    let (root, table) = (canon(root), table_key(table));
    let pair = format!("\t{}\t{}", root.display(), table.display());
    let line = trust_line(digest, &root, &table);
    rewrite_locked(&config.join(TRUST_FILE), |mut lines| {
        lines.retain(|l| !l.ends_with(&pair) && l.contains('\t'));
        lines.push(line);
        lines
    })
}

/// Removes trust for (root, table), or for every table of `root`; returns how many lines went.
pub fn forget(config: &Path, root: &Path, table: Option<&Path>) -> std::io::Result<usize> {
    let root = canon(root);
    let table = table.map(table_key);
    let mut n = 0;
    rewrite_locked(&config.join(TRUST_FILE), |lines| {
        let before = lines.len();
        let kept: Vec<String> = lines
            .into_iter()
            .filter(|l| {
                let f: Vec<&str> = l.split('\t').collect();
                !(f.len() == 3
                    && Path::new(f[1]) == root
                    && table.as_deref().is_none_or(|t| Path::new(f[2]) == t))
            })
            .collect();
        n = before - kept.len();
        kept
    })?;
    Ok(n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_is_lowercase_two_digits_a_byte() {
        assert_eq!(hex(&[0, 1, 0x0f, 0x10, 0xab, 0xff]), "00010f10abff");
        assert_eq!(hex(&[]), "");
    }

    #[test]
    fn trusting_a_pair_again_revokes_its_old_digest_and_forget_drops_it() {
        let d = tempfile::tempdir().unwrap();
        let cfg = d.path().join("cfg");
        let (root, t1, t2) = (d.path(), d.path().join("a.bin"), d.path().join("b.bin"));
        record(&cfg, root, &t1, "d1").unwrap();
        record(&cfg, root, &t2, "d1").unwrap();
        assert!(is_trusted(Some(&cfg), root, &t1, "d1"));
        record(&cfg, root, &t1, "d2").unwrap();
        assert!(
            !is_trusted(Some(&cfg), root, &t1, "d1"),
            "old digest revoked"
        );
        assert!(is_trusted(Some(&cfg), root, &t1, "d2"));
        // Another table of the same root keeps its own trust; another root trusts nothing.
        assert!(is_trusted(Some(&cfg), root, &t2, "d1"));
        assert!(!is_trusted(Some(&cfg), &root.join("x"), &t1, "d2"));
        assert_eq!(forget(&cfg, root, Some(&t1)).unwrap(), 1);
        assert!(!is_trusted(Some(&cfg), root, &t1, "d2"));
        assert!(is_trusted(Some(&cfg), root, &t2, "d1"));
        assert_eq!(forget(&cfg, root, None).unwrap(), 1);
        assert!(!is_trusted(Some(&cfg), root, &t2, "d1"));
        // A two-field line of the old format grants nothing.
        std::fs::write(
            cfg.join(TRUST_FILE),
            format!("d9\t{}\n", canon(root).display()),
        )
        .unwrap();
        assert!(!is_trusted(Some(&cfg), root, &t1, "d9"));
    }

    #[test]
    fn digest_cache_is_used_only_under_an_identity() {
        let d = tempfile::tempdir().unwrap();
        let k = FileKey {
            dev: 1,
            ino: 2,
            size: 3,
            mtime: (1_700_000_000, 0),
            ctime: (1_700_000_000, 0),
        };
        let h1 = table_digest(Some(d.path()), Some(&k), b"one");
        // Cached under k: the same key answers the recorded digest...
        assert_eq!(table_digest(Some(d.path()), Some(&k), b"two"), h1);
        // ...and without an identity the bytes are always hashed.
        assert_ne!(table_digest(Some(d.path()), None, b"two"), h1);
    }
}
