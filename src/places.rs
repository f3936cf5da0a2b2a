//! Where polc keeps its files: the real user's home (from the password database, never
//! `$HOME`) and the config, cache and state folders under it. No environment variable moves
//! them, except in `test-paths` builds (`POLC_CONFIG_DIR`, `POLC_CACHE_DIR`,
//! `POLC_STATE_DIR`). The table's cache and the runtime both read these, so they live in
//! neither (the table used to import the runtime for them).

use std::path::PathBuf;

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

fn test_override(_var: &str) -> Option<PathBuf> {
    #[cfg(feature = "test-paths")]
    {
        if let Some(v) = std::env::var_os(_var) {
            let p = PathBuf::from(v);
            if p.is_absolute() {
                return Some(p);
            }
        }
    }
    None
}

/// The user's polc config folder (user table, trust list).
pub fn config_dir() -> Option<PathBuf> {
    test_override("POLC_CONFIG_DIR").or_else(|| under_home(&CONFIG, &[".config", "polc"]))
}

/// The integrity cache folder.
pub fn cache_dir() -> Option<PathBuf> {
    test_override("POLC_CACHE_DIR").or_else(|| under_home(&CACHE, &[".cache", "polc"]))
}

/// The state folder (session starts, recorded tables).
pub fn state_dir() -> Option<PathBuf> {
    test_override("POLC_STATE_DIR").or_else(|| under_home(&STATE, &[".local", "state", "polc"]))
}

type Once = std::sync::OnceLock<Option<PathBuf>>;
static CONFIG: Once = Once::new();
static CACHE: Once = Once::new();
static STATE: Once = Once::new();

/// `parts` under the home, joined once per process (a hook call asks for these folders
/// about twenty times: each join allocated and grew a path, ~600 instructions).
fn under_home(once: &'static Once, parts: &[&str]) -> Option<PathBuf> {
    once.get_or_init(|| {
        let mut p = passwd_home()?;
        p.extend(parts);
        Some(p)
    })
    .clone()
}

/// The audit log's folder under the state folder, and its file (`session/audit.rs` writes
/// it; self-protection guards it).
pub const AUDIT_DIR: &str = "audit";
pub const AUDIT_FILE: &str = "audit.log";
