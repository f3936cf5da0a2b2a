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
//! of everything under it (name, type, size, mtime, ctime, inode), at most [`MAX_ENTRIES`]
//! entries [`MAX_DEPTH`] deep (past that bound the rest is not compared: residual, stated
//! in src/host/README.md; self-protection still guards writes into those folders).
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
    ".github/hooks",
    ".cursor/hooks.json",
    ".cursor/cli.json",
    ".codex",
    ".vscode/settings.json",
    ".factory/settings.json",
    ".factory/hooks",
    ".vibe",
    ".opencode",
    "opencode.json",
    "opencode.jsonc",
];

/// The file whose `permissions.allow` additions are Claude's own ("don't ask again").
const CLAUDE_LOCAL: &str = ".claude/settings.local.json";
/// Folder walk bounds.
pub const MAX_ENTRIES: usize = 1024;
pub const MAX_DEPTH: usize = 8;
/// Content read per file (agent configuration is small; the rest is covered by the size).
const MAX_READ: u64 = 1 << 20;
const TAG: &str = "agentcfg1";

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
    /// A lookup error other than "no such file" (its errno).
    Error(i32),
}

impl Print {
    fn encode(&self) -> String {
        match self {
            Print::Absent => "-".into(),
            Print::File { stat, hash, allow } => format!("f:{stat}:{hash}:{}", allow.join(",")),
            Print::Dir(h) => format!("d:{h}"),
            Print::Error(e) => format!("e:{e}"),
        }
    }

    fn decode(s: &str) -> Option<Print> {
        if s == "-" {
            return Some(Print::Absent);
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
    d.iter().map(|b| format!("{b:02x}")).collect()
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
        return Print::Dir(listing(
            &p,
            link.then(|| std::fs::read_link(&p).ok()).flatten(),
        ));
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
/// (sorted, unique). `None` when the file is not a JSON object of that shape.
fn split_allow(bytes: &[u8]) -> Option<(String, Vec<String>)> {
    let mut v: serde_json::Value = serde_json::from_slice(bytes).ok()?;
    let list = v
        .as_object_mut()?
        .get_mut("permissions")?
        .as_object_mut()?
        .remove("allow")?;
    let mut allow: Vec<String> = list
        .as_array()?
        .iter()
        .map(|e| hex(&Sha256::digest(e.to_string().as_bytes())[..8]))
        .collect();
    if allow.len() > 512 {
        return None;
    }
    allow.sort();
    allow.dedup();
    Some((v.to_string(), allow))
}

/// A folder's listing hash (see the module notes).
fn listing(dir: &Path, target: Option<PathBuf>) -> String {
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
                break;
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
            let extra = if kind == 'l' {
                std::fs::read_link(&p)
                    .map(|t| t.display().to_string())
                    .unwrap_or_default()
            } else {
                String::new()
            };
            rows.push(format!("{rel}\t{kind}\t{}\t{extra}", stat_part(&m, None)));
            if kind == 'd' && depth + 1 < MAX_DEPTH {
                stack.push((p, depth + 1));
            }
        }
    }
    rows.sort();
    for r in &rows {
        h.update(r.as_bytes());
        h.update([b'\n']);
    }
    hex(&h.finalize()[..16])
}

fn record_name(root: &Path) -> String {
    state::name_of(&[root.as_os_str().as_encoded_bytes()])
}

/// The recorded fingerprints of `root`: `Ok(None)` when there is no record.
fn read(state_dir: &Path, root: &Path) -> Result<Option<Vec<Print>>, String> {
    let p = state_dir.join(DIR).join(record_name(root));
    let damaged = || format!("polc's record {} is damaged", p.display());
    let text = match state::read_record(&p) {
        Ok(None) => return Ok(None),
        Ok(Some((t, _))) => t,
        Err(e) => return Err(format!("polc's record {} cannot be read: {e}", p.display())),
    };
    let f = state::unseal(&text).ok_or_else(damaged)?;
    if f.len() != 2 + WATCHED.len() || f[0] != TAG || Path::new(f[1]) != root {
        return Err(damaged());
    }
    f[2..]
        .iter()
        .map(|s| Print::decode(s).ok_or_else(damaged))
        .collect::<Result<Vec<_>, _>>()
        .map(Some)
}

fn write(state_dir: &Path, root: &Path, prints: &[Print]) -> std::io::Result<()> {
    let dir = state_dir.join(DIR);
    state::ensure_dir(&dir)?;
    let r = root
        .to_str()
        .filter(|r| !r.contains(['\t', '\n']))
        .ok_or_else(|| std::io::Error::other("root is not UTF-8 or holds a tab or newline"))?;
    let enc: Vec<String> = prints.iter().map(Print::encode).collect();
    let mut fields = vec![TAG, r];
    fields.extend(enc.iter().map(String::as_str));
    state::replace_record(&dir, &record_name(root), &state::seal(&fields))
}

fn now(root: &Path, known: Option<&[Print]>) -> Vec<Print> {
    WATCHED
        .iter()
        .enumerate()
        .map(|(i, rel)| print(root, rel, known.and_then(|k| k.get(i))))
        .collect()
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
        _ => old == new,
    }
}

fn changes(root: &Path, old: &[Print], new: &[Print]) -> Vec<Change> {
    WATCHED
        .iter()
        .zip(old.iter().zip(new))
        .filter(|(_, (o, n))| !same(o, n))
        .map(|(rel, (o, n))| Change {
            path: root.join(rel),
            what: match (o, n) {
                (Print::Absent, _) => "appeared",
                (_, Print::Absent) => "disappeared",
                _ => "changed",
            },
        })
        .collect()
}

/// Compare `root`'s agent configuration with the record. At first sight, records it.
/// `Err` when the record cannot be read or does not check (the caller denies).
pub fn check(state_dir: &Path, root: &Path) -> Result<Seen, String> {
    let old = read(state_dir, root)?;
    let Some(old) = old else {
        // First sight: best effort (the next call tries again if this fails).
        let _ = write(state_dir, root, &now(root, None));
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
pub fn pending(state_dir: &Path, root: &Path) -> Result<(Vec<Change>, bool), String> {
    match read(state_dir, root) {
        Ok(Some(old)) => Ok((changes(root, &old, &now(root, Some(&old))), true)),
        Ok(None) => Ok((Vec::new(), false)),
        // A damaged record: everything present is to be reviewed.
        Err(_) => Ok((
            changes(root, &vec![Print::Absent; WATCHED.len()], &now(root, None)),
            true,
        )),
    }
}

/// Record `root`'s agent configuration as it is now (a person confirmed, or `polc init`
/// wrote it).
pub fn record(state_dir: &Path, root: &Path) -> std::io::Result<()> {
    write(state_dir, root, &now(root, None))
}

/// Record only the watched entries that hold `written` (what `polc init` just wrote, with
/// the person's yes), leaving every other entry as recorded: a change the person has not
/// reviewed still trips. With no usable record, the whole configuration is recorded (first
/// sight).
pub fn record_written(state_dir: &Path, root: &Path, written: &Path) -> std::io::Result<()> {
    let Ok(Some(mut old)) = read(state_dir, root) else {
        return record(state_dir, root);
    };
    for (i, rel) in WATCHED.iter().enumerate() {
        if written.starts_with(root.join(rel)) {
            old[i] = print(root, rel, None);
        }
    }
    write(state_dir, root, &old)
}

/// The hook's deny reason when some root's agent configuration changed or its record is
/// unusable; `None` otherwise (also when there is no state folder: nothing to compare).
pub fn verdict(state_dir: Option<&Path>, roots: &[&Path]) -> Option<String> {
    let state_dir = state_dir?;
    for root in roots {
        // Keyed by the canonical root, as `polc confirm` names it.
        let root = &super::trust::canon(root);
        match check(state_dir, root) {
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

    fn setup() -> (tempfile::TempDir, PathBuf, PathBuf) {
        let t = tempfile::tempdir().unwrap();
        let root = t.path().join("proj");
        let st = t.path().join("state");
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
        let p = st.join(DIR).join(record_name(&root));
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
    fn prints_round_trip() {
        for p in [
            Print::Absent,
            Print::Dir("ab".into()),
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
}
