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
    // The last part of a path-like key (`//registry.npmjs.org/:_authToken`).
    let u = u.rsplit([':', '/']).next().unwrap_or(&u);
    !u.is_empty()
        && (SECRET_NAMES.iter().any(|s| u.contains(s))
            || ["_PW", "_PWD", "_PAT", "_PIN"]
                .iter()
                .any(|x| u.ends_with(x))
            || matches!(u, "PW" | "PAT" | "PASSWD"))
}

/// Options whose value is a credential, by program (red team, session 7: `curl -u
/// user:PW`, `sshpass -p PW`, `redis-cli -a PW`, `docker login -p PW`, `zip -P PW`,
/// `openssl enc -k PW`, `smbclient -U user%PW`, `gh secret set X --body PW`).
const CREDENTIAL_OPTIONS: &[(&str, &[&str])] = &[
    (
        "curl",
        &[
            "-u",
            "--user",
            "-U",
            "--proxy-user",
            "-E",
            "--cert",
            "-b",
            "--cookie",
        ],
    ),
    // Red team 8 (C8-auditleak): passphrases and passwords given as options.
    ("ssh-keygen", &["-N", "-P"]),
    ("unzip", &["-P", "--password"]),
    ("lftp", &["-u", "--user"]),
    ("sqlcmd", &["-P"]),
    ("hdbsql", &["-p"]),
    ("aws", &["--value", "--secret-string", "--secret-binary"]),
    ("bw", &["--password", "--passwordenv"]),
    ("sshpass", &["-p"]),
    ("redis-cli", &["-a", "--pass", "--askpass"]),
    ("zip", &["-P", "--password"]),
    ("7z", &["-p"]),
    ("openssl", &["-k", "-pass", "-passin", "-passout", "-kfile"]),
    ("smbclient", &["-U", "--user"]),
    ("docker", &["-p", "--password"]),
    ("podman", &["-p", "--password"]),
    ("nerdctl", &["-p", "--password"]),
    ("helm", &["-p", "--password"]),
    ("oras", &["-p", "--password"]),
    (
        "skopeo",
        &["-p", "--password", "--creds", "--src-creds", "--dest-creds"],
    ),
    ("az", &["-p", "--password", "--value"]),
    ("gh", &["-b", "--body"]),
    ("mysql", &["--password"]),
    ("psql", &["--password"]),
    ("ldapsearch", &["-w"]),
    ("ldapmodify", &["-w"]),
    ("ldapadd", &["-w"]),
];

/// Subcommands whose next operand is a credential: `vault login TOKEN`, `htpasswd -b F U PW`
/// (the last word), `kubectl create secret … --from-literal=K=V` (V).
fn credential_operand(program: &str, prev: &str) -> bool {
    matches!((program, prev), ("vault", "login") | ("vault", "auth"))
}

/// Well-known token shapes: provider API keys, forge tokens, chat bot tokens, cloud key ids.
fn token_shape(w: &str) -> bool {
    const PREFIXES: &[&str] = &[
        "sk-",
        "ghp_",
        "gho_",
        "ghs_",
        "ghu_",
        "ghr_",
        "github_pat_",
        "glpat-",
        "xoxb-",
        "xoxp-",
        "xoxa-",
        "xoxr-",
        "xoxs-",
        "hf_",
        "npm_",
        "pypi-",
        "AKIA",
        "ASIA",
        "AIza",
        "ya29.",
        "sq0atp-",
        "shpat_",
        "dop_v1_",
        "rk_live_",
        "sk_live_",
        "pk_live_",
    ];
    PREFIXES.iter().any(|p| {
        w.strip_prefix(p).is_some_and(|rest| {
            rest.len() >= 12
                && rest
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b"-_.".contains(&b))
        })
    })
}

/// `k=v` pairs inside a word (a URL's query, a libpq connection string `host=h
/// password=PW`, `--from-literal=pw=PW`) whose key is a secret name: the values' ranges,
/// relative to `inner`.
fn secret_pairs(inner: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let b = inner.as_bytes();
    let mut i = 0;
    while i < b.len() {
        // A key starts after a separator.
        let start = i;
        while i < b.len() && !b"=&?; \t,".contains(&b[i]) {
            i += 1;
        }
        if i < b.len() && b[i] == b'=' {
            let key = &inner[start..i];
            let vs = i + 1;
            let mut j = vs;
            while j < b.len() && !b"&; \t,\"'".contains(&b[j]) {
                j += 1;
            }
            if secret_name(key) && j > vs {
                out.push((vs, j));
            } else if inner[vs..j].contains('=') {
                // `--from-literal=pw=V`: a pair inside the value.
                out.extend(
                    secret_pairs(&inner[vs..j])
                        .into_iter()
                        .map(|(x, y)| (vs + x, vs + y)),
                );
            }
            i = j;
        }
        i += 1;
    }
    out
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
    let mut program = String::new();
    while k < ws.len() {
        let (a, b) = ws[k];
        let w = &s[a..b];
        let (lead, trail) = strip(w);
        let inner_end = b.saturating_sub(trail).max(a + lead);
        let inner = &s[a + lead..inner_end];
        let word = Word {
            s,
            ws: &ws,
            k,
            at: a + lead,
            inner,
            end: inner_end,
        };
        header_cuts(&word, &mut cut);
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
        // `//registry.npmjs.org/:_authToken VALUE`: a key whose last part is a secret name,
        // its value the next word.
        if !inner.contains('=') && inner.contains(':') && secret_name(inner) && k + 1 < ws.len() {
            cut.push(ws[k + 1]);
        }
        // -p<password> (mysql and friends)
        if inner.len() > 2 && inner.starts_with("-p") && !inner.starts_with("-p=") {
            cut.push((a + lead + 2, inner_end));
        }
        // The program this word belongs to: the nearest known one before it.
        let base = inner.rsplit('/').next().unwrap_or(inner);
        if CREDENTIAL_OPTIONS.iter().any(|(p, _)| *p == base)
            || base == "vault"
            || base == "htpasswd"
        {
            program = base.to_string();
        }
        program_cuts(&word, &program, &mut cut);
        shape_cuts(&word, &mut cut);
        k += 1;
    }
    apply_cuts(s, cut)
}

/// One word of [`redact`]'s input: the text, its words, this word's index, where its inner
/// text (quotes stripped) starts and ends.
struct Word<'a> {
    s: &'a str,
    ws: &'a [(usize, usize)],
    k: usize,
    at: usize,
    inner: &'a str,
    end: usize,
}

/// URL userinfo and header values (see [`redact`]).
fn header_cuts(w: &Word<'_>, cut: &mut Vec<(usize, usize)>) {
    let (ws, k, inner) = (w.ws, w.k, w.inner);
    // URL userinfo: scheme://user:pass@host
    if let Some(p) = inner.find("://") {
        let rest = &inner[p + 3..];
        let auth_end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
        if let Some(at) = rest[..auth_end].rfind('@') {
            let st = w.at + p + 3;
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
        let st = w.at + v;
        if st < w.end {
            cut.push((st, w.end));
        } else if k + 1 < ws.len() {
            // `Authorization: Bearer x` split over words: redact the rest of the header.
            let (na, _) = ws[k + 1];
            let mut end = ws[k + 1].1;
            let scheme = w.s[na..end].eq_ignore_ascii_case("bearer")
                || w.s[na..end].eq_ignore_ascii_case("basic");
            if scheme && k + 2 < ws.len() {
                end = ws[k + 2].1;
            }
            cut.push((na, end));
        }
    }
}

/// Credentials by the program the word belongs to (options, `vault login`, `htpasswd`).
fn program_cuts(w: &Word<'_>, program: &str, cut: &mut Vec<(usize, usize)>) {
    let (ws, k, inner) = (w.ws, w.k, w.inner);
    if let Some((_, opts)) = CREDENTIAL_OPTIONS.iter().find(|(p, _)| *p == program) {
        if opts.contains(&inner) && k + 1 < ws.len() {
            cut.push(ws[k + 1]);
        } else if let Some(o) = opts.iter().find(|o| {
            o.starts_with("--") && inner.starts_with(*o) && inner[o.len()..].starts_with('=')
        }) {
            cut.push((w.at + o.len() + 1, w.end));
        } else if let Some(o) = opts
            .iter()
            .find(|o| o.len() == 2 && inner.starts_with(*o) && inner.len() > 2)
        {
            // `-Uuser%PW`, `-pPW` attached.
            cut.push((w.at + o.len(), w.end));
        }
    }
    if k > 0
        && credential_operand(program, &w.s[ws[k - 1].0..ws[k - 1].1])
        && !inner.starts_with('-')
    {
        cut.push((w.at, w.end));
    }
    if program == "htpasswd" && k + 1 == ws.len() {
        cut.push((w.at, w.end));
    }
}

/// Key=value pairs inside the word, and token shapes anywhere in it.
fn shape_cuts(w: &Word<'_>, cut: &mut Vec<(usize, usize)>) {
    let (at, inner) = (w.at, w.inner);
    for (x, y) in secret_pairs(inner) {
        cut.push((at + x, at + y));
    }
    // Byte-wise over ASCII token characters: every part starts and ends at a character
    // boundary (a non-ASCII byte is a separator).
    let ib = inner.as_bytes();
    let tok = |c: u8| c.is_ascii_alphanumeric() || b"-_.".contains(&c);
    let mut x = 0;
    while x < ib.len() {
        if !tok(ib[x]) {
            x += 1;
            continue;
        }
        let y = x + ib[x..].iter().take_while(|&&c| tok(c)).count();
        if token_shape(&inner[x..y]) {
            cut.push((at + x, at + y));
        }
        x = y;
    }
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
    /// Red team, session 7 (C7-auditleak): credential shapes the first list missed.
    #[test]
    fn more_credential_shapes_are_redacted() {
        for (cmd, secret) in [
            ("curl -u admin:PW1secret https://x.io", "PW1secret"),
            ("curl -uadmin:PW1secret https://x.io", "PW1secret"),
            ("sshpass -p PW1secret ssh h", "PW1secret"),
            ("redis-cli -a PW1secret ping", "PW1secret"),
            ("docker login -u me -p PW1secret reg.io", "PW1secret"),
            ("az login -u me -p PW1secret", "PW1secret"),
            ("GITHUB_PAT=PW1secret gh repo list", "PW1secret"),
            ("zip -P PW1secret a.zip f", "PW1secret"),
            ("openssl enc -aes256 -k PW1secret -in f", "PW1secret"),
            ("smbclient -U user%PW1secret //h/s", "PW1secret"),
            ("htpasswd -b f user PW1secret", "PW1secret"),
            ("curl 'https://x.io/?api_key=PW1secret&q=1'", "PW1secret"),
            ("curl https://x.io/?access_token=PW1secret", "PW1secret"),
            ("psql \"host=h password=PW1secret\"", "PW1secret"),
            ("export DB_PW=PW1secret", "PW1secret"),
            (
                "npm config set //registry.npmjs.org/:_authToken PW1secret",
                "PW1secret",
            ),
            ("gh secret set X --body PW1secret", "PW1secret"),
            ("vault login PW1secret", "PW1secret"),
            (
                "kubectl create secret generic x --from-literal=pw=PW1secret",
                "PW1secret",
            ),
            ("echo sk-ant-api03-abcdefghijklmnop", "abcdefghijklmnop"),
            ("echo ghp_abcdefghijklmnopqrstuv", "abcdefghijklmnopqrstuv"),
            ("echo AKIAABCDEFGHIJKLMNOP", "ABCDEFGHIJKLMNOP"),
            // Red team 8 (C8-auditleak).
            ("ssh-keygen -t ed25519 -N PW1secret -f k", "PW1secret"),
            ("ssh-keygen -p -P PW1secret -N PW2secret -f k", "PW1secret"),
            ("ssh-keygen -p -P PW1secret -N PW2secret -f k", "PW2secret"),
            ("unzip -P PW1secret a.zip", "PW1secret"),
            ("curl -E cert.pem:PW1secret https://x.io", "PW1secret"),
            ("curl -b sid=PW1secret https://x.io", "PW1secret"),
            ("lftp -u u,PW1secret ftp.x.io", "PW1secret"),
            ("sqlcmd -S h -U sa -P PW1secret", "PW1secret"),
            (
                "aws ssm put-parameter --name x --type SecureString --value PW1secret",
                "PW1secret",
            ),
            (
                "az keyvault secret set --name x --value PW1secret",
                "PW1secret",
            ),
        ] {
            let r = super::redact(cmd);
            assert!(!r.contains(secret), "{cmd} -> {r}");
        }
        // Ordinary commands keep their words; non-ASCII text stays whole.
        assert_eq!(super::redact("git status"), "git status");
        assert_eq!(
            super::redact("echo héllo wörld ✓ -p"),
            "echo héllo wörld ✓ -p"
        );
        assert_eq!(
            super::redact("cd /tmp && export PATH=/x:$PATH"),
            "cd /tmp && export PATH=/x:$PATH"
        );
    }

    /// Redaction never panics (every cut on a character boundary) whatever the text:
    /// multi-byte characters next to every shape it cuts.
    #[test]
    fn redaction_holds_on_any_text() {
        let parts = [
            "curl",
            "-u",
            "é:ü",
            "-p",
            "ü",
            "sk-",
            "ghp_ääääääääääääää",
            "key=ä",
            "?token=é",
            "Authorization:",
            "Bearer",
            "✓",
            "\"",
            "'",
            "=",
            ":",
            "-Uä%ü",
            "vault",
            "login",
            "htpasswd",
            "a=b=c",
            "//h/:_authToken",
            "AKIAÄÄÄÄÄÄÄÄÄÄÄÄÄÄÄÄ",
            "x",
        ];
        let mut seed = 7u64;
        for _ in 0..3000 {
            let mut cmd = String::new();
            for _ in 0..(seed % 7 + 1) {
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                cmd.push_str(parts[(seed >> 33) as usize % parts.len()]);
                if seed & 1 == 0 {
                    cmd.push(' ');
                }
            }
            let _ = super::redact(&cmd);
        }
    }

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
