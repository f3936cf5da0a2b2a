//! The audit log (`session audit [hash]`): one JSON line per decision in
//! `<state>/audit/audit.log` (mode 0600; the state folder is protected), appended with one
//! `write` under a shared `flock`, rotated by size under the exclusive lock (`audit.log.1` …
//! `.3`). Secrets never appear in clear: a command a content rule matched is logged as its
//! hash, well-known secret shapes are redacted ([`redact`]), and `hash` logs every command as
//! its hash.

use super::store::{lock, now_ms, same_file};
use std::io::Write;
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The log's folder and file names live in `places` (self-protection reads them too).
pub use crate::places::{AUDIT_DIR as DIR, AUDIT_FILE as FILE};
/// Rotated past this size.
pub const ROTATE_AT: u64 = 1 << 20;
/// Rotated files kept (`audit.log.1` is the newest).
pub const KEEP: u32 = 3;
/// One line at most (under `PIPE_BUF`): the command is cut to fit.
pub const MAX_LINE: usize = 4000;

const MARK: &str = "[REDACTED]";

/// Names whose values are secrets (compared in upper case).
const SECRET_NAMES: &[&str] = &[
    "KEY",
    "TOKEN",
    "SECRET",
    "PASS",
    "CREDENTIAL",
    "AUTH",
    "COOKIE",
];

fn secret_name(n: &str) -> bool {
    let u = n.trim_start_matches('-').to_ascii_uppercase();
    !u.is_empty() && SECRET_NAMES.iter().any(|s| u.contains(s))
}

/// Splits into shell-ish words (quotes kept inside the word), with their byte ranges.
fn words(s: &str) -> Vec<(usize, usize)> {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        while i < b.len() && b[i].is_ascii_whitespace() {
            i += 1;
        }
        if i >= b.len() {
            break;
        }
        let start = i;
        let mut q: Option<u8> = None;
        while i < b.len() {
            let c = b[i];
            match q {
                Some(x) if c == x => q = None,
                Some(_) => {}
                None if c == b'\'' || c == b'"' => q = Some(c),
                None if c.is_ascii_whitespace() => break,
                None => {}
            }
            if c == b'\\' && q != Some(b'\'') {
                i += 1;
            }
            i += 1;
        }
        out.push((start, i.min(b.len())));
    }
    out
}

/// The text with well-known secret shapes replaced by `[REDACTED]`: URL userinfo, header
/// values of Authorization/Cookie-like headers, `Bearer`/`Basic` credentials, values of
/// names containing KEY, TOKEN, SECRET, PASS, CREDENTIAL, AUTH or COOKIE (`NAME=v`,
/// `--name=v`, `--name v`, `"name": v`), and `-p<password>`.
pub fn redact(s: &str) -> String {
    let ws = words(s);
    // (start, end) byte ranges to replace.
    let mut cut: Vec<(usize, usize)> = Vec::new();
    let strip = |w: &str| -> (usize, usize) {
        // Quotes around the whole word stay visible.
        let lead = w.len() - w.trim_start_matches(['"', '\'']).len();
        let trail = w.len() - w.trim_end_matches(['"', '\'', ',', ';']).len();
        (lead, trail)
    };
    let mut k = 0;
    while k < ws.len() {
        let (a, b) = ws[k];
        let w = &s[a..b];
        let (lead, trail) = strip(w);
        let inner_end = b.saturating_sub(trail).max(a + lead);
        let inner = &s[a + lead..inner_end];
        // URL userinfo: scheme://user:pass@host
        if let Some(p) = inner.find("://") {
            let rest = &inner[p + 3..];
            let auth_end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
            if let Some(at) = rest[..auth_end].rfind('@') {
                let st = a + lead + p + 3;
                cut.push((st, st + at));
            }
        }
        // Header: value up to the end of the word's quoted text.
        let lower = inner.to_ascii_lowercase();
        let header = [
            "authorization:",
            "cookie:",
            "set-cookie:",
            "proxy-authorization:",
            "x-api-key:",
            "api-key:",
            "private-token:",
        ]
        .iter()
        .find_map(|h| lower.find(h).map(|i| i + h.len()));
        if let Some(v) = header {
            let st = a + lead + v;
            if st < inner_end {
                cut.push((st, inner_end));
            } else if k + 1 < ws.len() {
                // `Authorization: Bearer x` split over words: redact the rest of the header.
                let (na, _) = ws[k + 1];
                let mut end = ws[k + 1].1;
                let scheme = s[na..end].eq_ignore_ascii_case("bearer")
                    || s[na..end].eq_ignore_ascii_case("basic");
                if scheme && k + 2 < ws.len() {
                    end = ws[k + 2].1;
                }
                cut.push((na, end));
            }
        }
        let wl = inner.to_ascii_lowercase();
        let tail_after = |i: usize| a + lead + i;
        if wl.starts_with("bearer") || wl.starts_with("basic") || wl.starts_with("token") {
            if inner.len() > 7 && inner.contains(' ') {
                let sp = inner.find(' ').unwrap_or(0);
                cut.push((tail_after(sp + 1), inner_end));
            } else if (wl == "bearer" || wl == "basic") && k + 1 < ws.len() {
                cut.push(ws[k + 1]);
            }
        }
        if let Some(eq) = inner.find(['=', ':']) {
            let name = inner[..eq].trim_matches(['"', '\'']);
            if secret_name(name) {
                let st = tail_after(eq + 1);
                if st < inner_end {
                    cut.push((st, inner_end));
                } else if k + 1 < ws.len() {
                    cut.push(ws[k + 1]);
                }
            }
        } else if (inner.starts_with('-') || inner.contains('_'))
            && secret_name(inner)
            && k + 1 < ws.len()
        {
            // `--password VALUE`, `set aws_secret_access_key VALUE`
            cut.push(ws[k + 1]);
        }
        // -p<password> (mysql and friends)
        if inner.len() > 2 && inner.starts_with("-p") && !inner.starts_with("-p=") {
            cut.push((a + lead + 2, inner_end));
        }
        k += 1;
    }
    apply_cuts(s, cut)
}

/// `s` with each (start, end) range replaced by [`MARK`] (overlapping ranges merge).
fn apply_cuts(s: &str, mut cut: Vec<(usize, usize)>) -> String {
    cut.retain(|(x, y)| x < y);
    cut.sort();
    let mut out = String::with_capacity(s.len());
    let mut pos = 0;
    for (x, y) in cut {
        if y <= pos {
            continue;
        }
        let x = x.max(pos);
        out.push_str(&s[pos..x]);
        out.push_str(MARK);
        pos = y;
    }
    out.push_str(&s[pos..]);
    out
}

pub fn sha256_hex(s: &str) -> String {
    crate::runtime::state::name_of(&[s.as_bytes()])
}

/// RFC 3339 UTC time of `ms` since the epoch.
pub fn rfc3339(ms: u64) -> String {
    let secs = ms / 1000;
    let (days, rem) = ((secs / 86400) as i64, secs % 86400);
    // Howard Hinnant's days-from-civil, inverted.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = if m <= 2 { y + 1 } else { y };
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}.{:03}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60,
        ms % 1000
    )
}

/// One decision to log.
pub struct Entry<'a> {
    pub session: &'a str,
    pub host: &'a str,
    pub event: &'a str,
    pub tool: &'a str,
    pub decision: &'a str,
    pub interrupt: bool,
    pub reason: &'a str,
    pub command: &'a str,
    /// A content rule matched the command: log only its hash.
    pub content_matched: bool,
    pub hash: bool,
}

/// The winning rule's id and source from R (`… rule ID (SOURCE) …`).
fn rule_of(reason: &str) -> (Option<&str>, Option<&str>) {
    let Some(i) = reason.find(": rule ") else {
        return (None, None);
    };
    let rest = &reason[i + 7..];
    let Some(sp) = rest.find(" (") else {
        return (None, None);
    };
    let id = &rest[..sp];
    let src = rest[sp + 2..].split(')').next();
    (Some(id), src)
}

pub fn line(e: &Entry<'_>) -> String {
    let (rule, source) = rule_of(e.reason);
    let mut command = if e.hash || e.content_matched {
        format!("sha256:{}", sha256_hex(e.command))
    } else {
        redact(e.command)
    };
    // A content rule's text names the content it matched: withheld with the command.
    let reason = if e.content_matched {
        let mut out = String::new();
        for (i, part) in e.reason.split('`').enumerate() {
            out.push_str(if i % 2 == 1 {
                "`[rule text withheld]`"
            } else {
                part
            });
        }
        redact(&out)
    } else {
        redact(e.reason)
    };
    loop {
        let v = serde_json::json!({
            "time": rfc3339(now_ms()),
            "session": e.session,
            "host": e.host,
            "event": e.event,
            "tool": e.tool,
            "decision": e.decision,
            "interrupt": e.interrupt,
            "rule": rule,
            "source": source,
            "reason": reason,
            "command": command,
        });
        let mut l = v.to_string();
        l.push('\n');
        if l.len() <= MAX_LINE || command.len() < 16 {
            return l;
        }
        let mut cut = command.len() / 2;
        while !command.is_char_boundary(cut) {
            cut -= 1;
        }
        command.truncate(cut);
        command.push('…');
    }
}

pub fn log_path(state_dir: &Path) -> PathBuf {
    state_dir.join(DIR).join(FILE)
}

/// Appends `line` (best effort: the log never changes a decision).
pub fn append(state_dir: &Path, line: &str) -> Result<(), AuditError> {
    let dir = state_dir.join(DIR);
    crate::runtime::state::ensure_dir(&dir).map_err(AuditError::Folder)?;
    let path = dir.join(FILE);
    for _ in 0..4 {
        let f = std::fs::OpenOptions::new()
            .append(true)
            .create(true)
            .mode(0o600)
            .custom_flags(libc::O_NOFOLLOW | libc::O_CLOEXEC | libc::O_NONBLOCK)
            .open(&path)
            .map_err(AuditError::Open)?;
        if !f.metadata().map(|m| m.is_file()).unwrap_or(false) {
            return Err(AuditError::NotFile);
        }
        if !lock(&f, libc::LOCK_SH, Duration::from_millis(100)) {
            return Err(AuditError::Locked);
        }
        if !same_file(&f, &path) {
            continue;
        }
        let n = (&f).write(line.as_bytes()).map_err(AuditError::Write)?;
        if n != line.len() {
            return Err(AuditError::ShortWrite);
        }
        let size = f.metadata().map(|m| m.len()).unwrap_or(0);
        if size > ROTATE_AT
            && lock(&f, libc::LOCK_EX, Duration::from_millis(20))
            && same_file(&f, &path)
        {
            for i in (1..KEEP).rev() {
                let _ = std::fs::rename(
                    dir.join(format!("{FILE}.{i}")),
                    dir.join(format!("{FILE}.{}", i + 1)),
                );
            }
            let _ = std::fs::rename(&path, dir.join(format!("{FILE}.1")));
        }
        return Ok(());
    }
    Err(AuditError::KeepsRotating)
}

/// Why a line did not reach the audit log (`<state>/audit/audit.log`; best effort, the
/// decision stands).
#[derive(Debug)]
pub enum AuditError {
    /// The audit folder cannot be made.
    Folder(std::io::Error),
    Open(std::io::Error),
    NotFile,
    Locked,
    Write(std::io::Error),
    ShortWrite,
    KeepsRotating,
}

impl std::fmt::Display for AuditError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            AuditError::Folder(e) | AuditError::Open(e) | AuditError::Write(e) => e.fmt(f),
            AuditError::NotFile => f.write_str("the audit log is not a regular file"),
            AuditError::Locked => f.write_str("the audit log stays locked"),
            AuditError::ShortWrite => f.write_str("short write to the audit log"),
            AuditError::KeepsRotating => f.write_str("the audit log keeps being rotated"),
        }
    }
}

impl std::error::Error for AuditError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            AuditError::Folder(e) | AuditError::Open(e) | AuditError::Write(e) => Some(e),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secret_shapes_are_redacted() {
        for (cmd, secret) in [
            (
                "curl -H 'Authorization: Bearer sk-live-1234' https://x.io",
                "sk-live-1234",
            ),
            ("curl -H \"Authorization: token ghp_abcd\" x", "ghp_abcd"),
            ("curl -H Authorization: Bearer abcd9 x", "abcd9"),
            ("curl --cookie 'session=zz99' x", "zz99"),
            ("curl -H 'Cookie: sid=qq77' x", "qq77"),
            ("git clone https://bob:hunter2@github.com/a/b", "hunter2"),
            ("API_KEY=k3y ./run", "k3y"),
            ("export GITHUB_TOKEN=ghp_x1", "ghp_x1"),
            ("tool --password pw123 --user a", "pw123"),
            ("tool --api-key=abc123", "abc123"),
            ("mysql -uroot -pS3cr3t db", "S3cr3t"),
            ("echo '{\"client_secret\": \"cs-9\"}'", "cs-9"),
            ("psql postgres://admin:pgpw@db/app", "pgpw"),
            ("aws configure set aws_secret_access_key AKIA55", "AKIA55"),
        ] {
            let r = redact(cmd);
            assert!(!r.contains(secret), "{cmd} -> {r}");
            assert!(r.contains(MARK), "{cmd} -> {r}");
        }
        assert_eq!(redact("git status && ls -la"), "git status && ls -la");
    }

    #[test]
    fn rotates_by_size_and_keeps_three() {
        let d = tempfile::tempdir().unwrap();
        let line = format!("{{\"x\":\"{}\"}}\n", "a".repeat(3000));
        for _ in 0..(5 * ROTATE_AT as usize / line.len()) {
            append(d.path(), &line).unwrap();
        }
        let dir = d.path().join(DIR);
        for f in [
            FILE.to_string(),
            format!("{FILE}.1"),
            format!("{FILE}.2"),
            format!("{FILE}.3"),
        ] {
            let m = std::fs::metadata(dir.join(&f)).unwrap();
            assert!(m.len() <= ROTATE_AT + line.len() as u64, "{f}");
            use std::os::unix::fs::PermissionsExt;
            assert_eq!(m.permissions().mode() & 0o777, 0o600, "{f}");
        }
        assert!(!dir.join(format!("{FILE}.4")).exists());
        // Every line is whole.
        let t = std::fs::read_to_string(dir.join(FILE)).unwrap();
        assert!(t.lines().all(|l| l.len() == line.len() - 1));
    }

    #[test]
    fn times_and_rules() {
        assert_eq!(rfc3339(0), "1970-01-01T00:00:00.000Z");
        assert_eq!(rfc3339(951_782_400_123), "2000-02-29T00:00:00.123Z");
        assert_eq!(
            rule_of("polc deny: rule no-rm (policies/a.pol:3) `deny bash prefix \"rm\"`"),
            (Some("no-rm"), Some("policies/a.pol:3"))
        );
        assert_eq!(rule_of("polc ask: no rule decides this call"), (None, None));
    }
}
