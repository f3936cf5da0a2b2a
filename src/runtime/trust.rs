//! Which project tables may grant permissions (SPEC §5): a project table's allow rules
//! count only after a person ran `polc trust` for that project root and that exact table
//! (SHA-256 of its bytes), recorded in the user's config dir.
//!
//! The config dir is `$POLC_CONFIG_DIR` when set and not inside the project (a cloned
//! repository can set hook environment variables; it must not be able to point polc at a
//! trust list it ships), else `<home>/.config/polc` with the home directory taken from the
//! password database, not `$HOME`.

use sha2::{Digest, Sha256};
use std::io::Write;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

pub const TRUST_FILE: &str = "trusted";
/// SHA-256 results already computed for a file version (device, inode, size, mtime, ctime).
pub const HASH_CACHE_FILE: &str = "trusted-hashes";

/// The real user's home from the password database (looked up once per process: each
/// lookup goes through NSS).
pub fn passwd_home() -> Option<PathBuf> {
    static HOME: std::sync::OnceLock<Option<PathBuf>> = std::sync::OnceLock::new();
    HOME.get_or_init(lookup_home).clone()
}

fn lookup_home() -> Option<PathBuf> {
    // /etc/passwd first: glibc's NSS path tries the nscd socket and loads modules on every
    // start (most of a lookup's cost); users from a directory service fall back to it.
    // SAFETY: getuid has no preconditions.
    let uid = unsafe { libc::getuid() };
    if let Ok(text) = std::fs::read_to_string("/etc/passwd") {
        for line in text.lines() {
            let f: Vec<&str> = line.split(':').collect();
            if f.len() >= 7 && f[2].parse::<u32>().ok() == Some(uid) && !f[5].is_empty() {
                return Some(PathBuf::from(f[5]));
            }
        }
    }
    nss_home()
}

fn nss_home() -> Option<PathBuf> {
    // SAFETY: getpwuid_r writes into our buffer and struct only; we read pw_dir as a C
    // string inside that buffer before it goes out of scope.
    unsafe {
        let mut pwd: libc::passwd = std::mem::zeroed();
        let mut buf = vec![0 as libc::c_char; 4096];
        let mut result: *mut libc::passwd = std::ptr::null_mut();
        let rc = libc::getpwuid_r(
            libc::getuid(),
            &mut pwd,
            buf.as_mut_ptr(),
            buf.len(),
            &mut result,
        );
        if rc != 0 || result.is_null() || pwd.pw_dir.is_null() {
            return None;
        }
        let dir = std::ffi::CStr::from_ptr(pwd.pw_dir)
            .to_string_lossy()
            .into_owned();
        if dir.is_empty() {
            None
        } else {
            Some(PathBuf::from(dir))
        }
    }
}

/// The user's polc config dir (trust list, user table).
pub fn config_dir(project_root: Option<&Path>) -> Option<PathBuf> {
    if let Some(d) = std::env::var_os("POLC_CONFIG_DIR").filter(|d| !d.is_empty()) {
        let d = PathBuf::from(d);
        let inside = |root: &Path| {
            let (a, b) = (canon(&d), canon(root));
            a.starts_with(&b)
        };
        if d.is_absolute() && !project_root.is_some_and(inside) {
            return Some(d);
        }
    }
    passwd_home().map(|h| h.join(".config").join("polc"))
}

/// Canonical form when it exists, else the path itself made absolute.
pub fn canon(p: &Path) -> PathBuf {
    p.canonicalize().unwrap_or_else(|_| {
        if p.is_absolute() {
            p.to_path_buf()
        } else {
            std::env::current_dir()
                .map(|c| c.join(p))
                .unwrap_or_else(|_| p.to_path_buf())
        }
    })
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

fn stat_key(md: &std::fs::Metadata) -> String {
    format!(
        "{}:{}:{}:{}.{}:{}.{}",
        md.dev(),
        md.ino(),
        md.size(),
        md.mtime(),
        md.mtime_nsec(),
        md.ctime(),
        md.ctime_nsec()
    )
}

/// SHA-256 of `bytes` (the table as mapped), cached per file version in the config dir.
pub fn table_digest(config: Option<&Path>, path: &Path, bytes: &[u8]) -> String {
    let key = std::fs::metadata(path).ok().map(|m| stat_key(&m));
    if let (Some(cfg), Some(k)) = (config, &key) {
        if let Ok(text) = std::fs::read_to_string(cfg.join(HASH_CACHE_FILE)) {
            for line in text.lines() {
                if let Some((kk, h)) = line.split_once(' ') {
                    if kk == k && h.len() == 64 {
                        return h.to_string();
                    }
                }
            }
        }
    }
    let h = hex(&Sha256::digest(bytes));
    if let (Some(cfg), Some(k)) = (config, key) {
        let _ = append_line(&cfg.join(HASH_CACHE_FILE), &format!("{k} {h}"), 4096);
    }
    h
}

/// Append a line, keeping at most `cap` lines (oldest dropped). Best effort.
fn append_line(path: &Path, line: &str, cap: usize) -> std::io::Result<()> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let existing = std::fs::read_to_string(path).unwrap_or_default();
    let mut lines: Vec<&str> = existing.lines().filter(|l| *l != line).collect();
    lines.push(line);
    let skip = lines.len().saturating_sub(cap);
    let tmp = path.with_extension(format!("tmp{}", std::process::id()));
    {
        let mut f = std::fs::File::create(&tmp)?;
        for l in &lines[skip..] {
            writeln!(f, "{l}")?;
        }
        f.sync_all()?;
    }
    std::fs::rename(&tmp, path)
}

/// Is this table trusted for this project root?
pub fn is_trusted(config: Option<&Path>, root: &Path, digest: &str) -> bool {
    let Some(cfg) = config else { return false };
    let root = canon(root);
    let Ok(text) = std::fs::read_to_string(cfg.join(TRUST_FILE)) else {
        return false;
    };
    text.lines().any(|l| {
        l.split_once('\t')
            .is_some_and(|(h, r)| h == digest && Path::new(r) == root)
    })
}

/// Record a table as trusted for a root (called by `polc trust` after confirmation).
pub fn record(config: &Path, root: &Path, digest: &str) -> std::io::Result<()> {
    let root = canon(root);
    append_line(
        &config.join(TRUST_FILE),
        &format!("{digest}\t{}", root.display()),
        10_000,
    )
}
