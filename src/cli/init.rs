//! `polc init --host H [--scope project|user] [--uninstall]`: wire polc's hook into an
//! agent's own settings file, merged into what is there.
//!
//! The file is edited as text, not re-serialised: the JSON is parsed to check it and to find
//! where things are, and polc's entries are inserted (or cut) at those byte offsets, so
//! every other byte — key order, comments-free formatting, other hooks — stays as it was.
//! Install then uninstall gives the original bytes back: the removal cuts exactly what the
//! insertion added, and when the file is still exactly what `init` wrote, uninstall restores
//! the backup (`FILE.polc-backup`) byte for byte. A file that does not parse is never
//! touched.
//!
//! A person must confirm on the terminal (an agent has none; the hook also denies `polc
//! init` from an agent), and a `test-paths` build refuses to install itself.

use crate::host::config::shell_quote;
use crate::host::Host;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    Project,
    User,
}

/// Where a host keeps its hook settings, and the entries polc adds there.
pub struct Target {
    pub file: PathBuf,
    /// (event, element added to that event's array)
    pub entries: Vec<(&'static str, String)>,
    /// Members a new file gets at its top level besides `hooks` (Cursor's and Copilot's
    /// `"version": 1`).
    pub preamble: &'static str,
}

/// The hook command: fails closed (exit 2, a blocking error for every hook host) when the
/// polc binary is missing, since a missing binary's exit 127 is a non-blocking error that
/// lets every call run. `exe` is `polc` (found on PATH: no machine-specific path, for a
/// project file shared by a team) or an absolute path (user scope).
pub fn command(exe: &str, host: Host, extra: &str) -> String {
    let q = shell_quote(exe);
    format!(
        "command -v {q} >/dev/null || {{ echo 'polc is not installed' >&2; exit 2; }}; exec {q} hook --host {}{extra}",
        host.name()
    )
}

/// The target for `host` at `scope`; `home` is the user's home, `root` the project root.
pub fn target(
    host: Host,
    scope: Scope,
    exe: &str,
    root: &Path,
    home: &Path,
) -> Result<Target, InitError> {
    let s = |c: String| serde_json::to_string(&c).unwrap_or_default();
    let group = |c: String| {
        format!(
            r#"{{"matcher":"*","hooks":[{{"type":"command","command":{}}}]}}"#,
            s(c)
        )
    };
    let base = match scope {
        Scope::Project => root.to_path_buf(),
        Scope::User => home.to_path_buf(),
    };
    let t = match host {
        Host::Claude => Target {
            file: base.join(".claude/settings.json"),
            entries: vec![
                ("PreToolUse", group(command(exe, host, ""))),
                (
                    "PermissionRequest",
                    group(command(exe, host, " --event permission-request")),
                ),
                // A person's approval resets the denial counters (src/host/config.rs).
                ("PostToolUse", group(command(exe, host, ""))),
            ],
            preamble: "",
        },
        Host::Gemini => Target {
            file: base.join(".gemini/settings.json"),
            entries: vec![(
                "BeforeTool",
                format!(
                    r#"{{"matcher":".*","hooks":[{{"type":"command","command":{},"timeout":10000}}]}}"#,
                    s(command(exe, host, ""))
                ),
            )],
            preamble: "",
        },
        Host::Codex => {
            if scope == Scope::Project {
                return Err(InitError::UserScopeOnly(host));
            }
            // Codex reads hooks from `hooks.json` and from inline `[hooks]` tables of
            // `config.toml`: where the person keeps hooks in config.toml (and has no
            // hooks.json), polc's goes there too, edited in place.
            let json = home.join(".codex/hooks.json");
            let toml = home.join(".codex/config.toml");
            let file = if !json.exists() && toml_has_hooks(&toml) {
                toml
            } else {
                json
            };
            Target {
                file,
                entries: vec![("PreToolUse", group(command(exe, host, "")))],
                preamble: "",
            }
        }
        Host::Cursor => {
            let e = format!(r#"{{"command":{}}}"#, s(command(exe, host, "")));
            Target {
                file: base.join(".cursor/hooks.json"),
                entries: vec![("beforeShellExecution", e.clone()), ("preToolUse", e)],
                preamble: r#""version":1,"#,
            }
        }
        Host::Copilot => {
            if scope == Scope::User {
                return Err(InitError::ProjectScopeOnly(host));
            }
            Target {
                file: root.join(".github/hooks/polc.json"),
                entries: vec![(
                    "preToolUse",
                    format!(
                        r#"{{"type":"command","bash":{},"timeoutSec":10}}"#,
                        s(command(exe, host, ""))
                    ),
                )],
                preamble: r#""version":1,"#,
            }
        }
        Host::Vscode | Host::Droid | Host::Vibe | Host::Openclaw | Host::OpenCode => {
            return Err(InitError::UnknownSettings(host))
        }
    };
    Ok(t)
}

// ---- a byte-offset view of valid JSON (checked by serde_json first) ----
//
// JSONC (comments, trailing commas: VS Code-style settings, Gemini CLI's) is read through a
// mask of the same length with comments and trailing commas blanked: every offset found in
// the mask is an offset in the file, and edits are made to the file's own text, so its
// comments stay where they are.

/// `text` with comments and trailing commas blanked, offsets and newlines kept.
fn mask(text: &str) -> String {
    #[cfg(feature = "compiler")]
    {
        crate::import::text::strip_jsonc(text)
    }
    #[cfg(not(feature = "compiler"))]
    {
        text.to_string()
    }
}

fn ws(b: &[u8], mut i: usize) -> usize {
    while i < b.len() && matches!(b[i], b' ' | b'\t' | b'\n' | b'\r') {
        i += 1;
    }
    i
}

/// End (exclusive) of the value starting at `i`.
fn value_end(b: &[u8], i: usize) -> usize {
    match b[i] {
        b'"' => {
            let mut j = i + 1;
            while b[j] != b'"' {
                j += if b[j] == b'\\' { 2 } else { 1 };
            }
            j + 1
        }
        b'{' | b'[' => {
            let mut depth = 0usize;
            let mut j = i;
            loop {
                match b[j] {
                    b'"' => {
                        j = value_end(b, j);
                        continue;
                    }
                    b'{' | b'[' => depth += 1,
                    b'}' | b']' => {
                        depth -= 1;
                        if depth == 0 {
                            return j + 1;
                        }
                    }
                    _ => {}
                }
                j += 1;
            }
        }
        _ => {
            let mut j = i;
            while j < b.len() && !matches!(b[j], b',' | b'}' | b']' | b' ' | b'\t' | b'\n' | b'\r')
            {
                j += 1;
            }
            j
        }
    }
}

/// A member or element: where its text starts (the key's quote) and ends, and for a
/// member, the key and where its value starts.
#[derive(Debug, Clone)]
struct Item {
    start: usize,
    end: usize,
    key: String,
    value: usize,
}

/// Items of the object or array at `open` (its `{` or `[`), and the offset of its closer.
fn items(b: &[u8], open: usize) -> (Vec<Item>, usize) {
    let object = b[open] == b'{';
    let mut out = Vec::new();
    let mut i = ws(b, open + 1);
    while b[i] != b'}' && b[i] != b']' {
        let start = i;
        let (key, value) = if object {
            let ke = value_end(b, i);
            let key: String = serde_json::from_slice(&b[i..ke]).unwrap_or_default();
            let colon = ws(b, ke);
            (key, ws(b, colon + 1))
        } else {
            (String::new(), i)
        };
        let end = value_end(b, value);
        out.push(Item {
            start,
            end,
            key,
            value,
        });
        i = ws(b, end);
        if b[i] == b',' {
            i = ws(b, i + 1);
        }
    }
    (out, i)
}

/// Text with `add` inserted as the last item of the container at `open`, laid out like its
/// existing items (same separator whitespace).
fn append(text: &str, open: usize, add: &str) -> String {
    let m = mask(text);
    let b = m.as_bytes();
    let (its, _) = items(b, open);
    let (at, ins) = match its.last() {
        Some(last) => {
            // The whitespace before the last item (after the previous `,` or the opener),
            // from the mask: a comment there is not copied, only the line break and the
            // indentation of the last item's line.
            let mut k = last.start;
            while k > 0 && matches!(b[k - 1], b' ' | b'\t' | b'\n' | b'\r') {
                k -= 1;
            }
            let sep = &m[k..last.start];
            let nl = if sep.contains("\r\n") { "\r\n" } else { "\n" };
            let sep = match sep.rfind('\n') {
                Some(i) => format!("{nl}{}", &sep[i + 1..]),
                None => sep.to_string(),
            };
            (last.end, format!(",{sep}{add}"))
        }
        None => (open + 1, add.to_string()),
    };
    format!("{}{}{}", &text[..at], ins, &text[at..])
}

/// Text with the item `idx` of the container at `open` cut, with one separator.
fn cut(text: &str, open: usize, idx: usize) -> String {
    let m = mask(text);
    let (its, _) = items(m.as_bytes(), open);
    let it = &its[idx];
    let (from, to) = if idx > 0 {
        (its[idx - 1].end, it.end)
    } else if its.len() > 1 {
        (it.start, its[1].start)
    } else {
        (it.start, it.end)
    };
    format!("{}{}", &text[..from], &text[to..])
}

fn root_open(text: &str) -> Result<usize, InitError> {
    let m = mask(text);
    let i = ws(m.as_bytes(), 0);
    if m.as_bytes().get(i) != Some(&b'{') {
        return Err(InitError::NotObject);
    }
    Ok(i)
}

fn parse_check(text: &str) -> Result<(), InitError> {
    serde_json::from_str::<serde_json::Value>(&mask(text))
        .map(|_| ())
        .map_err(|e| InitError::NotJson(e.to_string()))
}

/// Is this array element polc's own entry for `host`? (its text holds polc's hook command
/// for the host, and it is a single hook)
fn is_ours(elem: &str, host: Host) -> bool {
    let Ok(v) = serde_json::from_str::<serde_json::Value>(&mask(elem)) else {
        return false;
    };
    let marker = format!(" hook --host {}", host.name());
    let mine = |c: &serde_json::Value| {
        c.as_str().is_some_and(|s| {
            (s.contains("polc") && s.contains(&marker) && s.contains("polc is not installed"))
                || pasted(s, host)
        })
    };
    if let Some(hs) = v.get("hooks").and_then(|h| h.as_array()) {
        return hs.len() == 1 && (mine(&hs[0]["command"]) || mine(&hs[0]["bash"]));
    }
    mine(&v["command"]) || mine(&v["bash"])
}

/// A hook command a person pasted from `polc hook --print-config --host H` (or wrote the
/// same way): `[exec] [PATH/]polc hook --host H [--event E] [--table F]`, quoted or not.
fn pasted(cmd: &str, host: Host) -> bool {
    #[cfg(feature = "compiler")]
    let words: Vec<String> = crate::import::text::shlex(cmd).unwrap_or_default();
    #[cfg(not(feature = "compiler"))]
    let words: Vec<String> = cmd.split_whitespace().map(str::to_string).collect();
    let w: Vec<&str> = words.iter().map(String::as_str).collect();
    let w = match w.first() {
        Some(&"exec") => &w[1..],
        _ => &w[..],
    };
    let is_polc = |p: &str| p == "polc" || p.ends_with("/polc");
    match w {
        [p, "hook", "--host", h, rest @ ..] if is_polc(p) && *h == host.name() => rest
            .chunks(2)
            .all(|kv| matches!(kv, ["--event", _] | ["--table", _])),
        _ => false,
    }
}

/// The `hooks` member's object and, in it, the event's array: their offsets if present.
fn locate(text: &str, event: &str) -> Result<(usize, Option<usize>, Option<usize>), InitError> {
    let m = mask(text);
    let b = m.as_bytes();
    let root = root_open(text)?;
    let (its, _) = items(b, root);
    let Some(h) = its.iter().find(|m| m.key == "hooks") else {
        return Ok((root, None, None));
    };
    if b[h.value] != b'{' {
        return Err(InitError::HooksNotObject);
    }
    let (evs, _) = items(b, h.value);
    let ev = evs.iter().find(|m| m.key == event).map(|m| m.value);
    if let Some(e) = ev {
        if b[e] != b'[' {
            return Err(InitError::EventNotArray(event.to_string()));
        }
    }
    Ok((root, Some(h.value), ev))
}

/// Whether `file` is a TOML config with a `hooks` table.
fn toml_has_hooks(file: &Path) -> bool {
    #[cfg(feature = "compiler")]
    {
        std::fs::read_to_string(file)
            .ok()
            .and_then(|t| t.parse::<toml_edit::DocumentMut>().ok())
            .is_some_and(|d| d.get("hooks").is_some_and(|h| h.is_table_like()))
    }
    #[cfg(not(feature = "compiler"))]
    {
        let _ = file;
        false
    }
}

fn is_toml(t: &Target) -> bool {
    t.file.extension().is_some_and(|x| x == "toml")
}

/// What installing into `text` gives (`text` unchanged when already installed). Notes
/// about other hooks on the same events go to `notes`.
pub fn install(
    text: &str,
    host: Host,
    t: &Target,
    notes: &mut Vec<String>,
) -> Result<String, InitError> {
    if is_toml(t) {
        return toml_hooks::install(text, host, t, notes);
    }
    parse_check(text)?;
    let mut text = text.to_string();
    for (event, entry) in &t.entries {
        let (root, hooks, ev) = locate(&text, event)?;
        match (hooks, ev) {
            (None, _) => {
                let add = format!(r#""hooks":{{"{event}":[{entry}]}}"#);
                text = append(&text, root, &add);
            }
            (Some(h), None) => {
                text = append(&text, h, &format!(r#""{event}":[{entry}]"#));
            }
            (Some(_), Some(a)) => {
                let m = mask(&text);
                let (els, _) = items(m.as_bytes(), a);
                if els.iter().any(|e| is_ours(&m[e.start..e.end], host)) {
                    continue;
                }
                let others = els.len();
                if others > 0 {
                    notes.push(format!(
                        "{others} other hook(s) on {event} stay in place: any of them that answers allow can let a call run that polc would ask or deny; review them"
                    ));
                }
                text = append(&text, a, entry);
            }
        }
    }
    Ok(text)
}

/// What removing polc's entries from `text` gives: each entry cut, then an event array and a
/// `hooks` object left empty by that cut are removed too.
pub fn uninstall(text: &str, host: Host, t: &Target) -> Result<String, InitError> {
    if is_toml(t) {
        return toml_hooks::uninstall(text, host, t);
    }
    parse_check(text)?;
    let mut text = text.to_string();
    for (event, _) in &t.entries {
        loop {
            let (root, hooks, ev) = locate(&text, event)?;
            let (Some(h), Some(a)) = (hooks, ev) else {
                break;
            };
            let m = mask(&text);
            let (els, _) = items(m.as_bytes(), a);
            let Some(idx) = els.iter().position(|e| is_ours(&m[e.start..e.end], host)) else {
                break;
            };
            if els.len() > 1 {
                text = cut(&text, a, idx);
                continue;
            }
            // The array held only polc's entry: drop the event, and `hooks` if now empty.
            let (evs, _) = items(m.as_bytes(), h);
            if evs.len() > 1 {
                let i = evs.iter().position(|m| m.value == a).unwrap_or(0);
                text = cut(&text, h, i);
            } else {
                let (tops, _) = items(m.as_bytes(), root);
                let i = tops.iter().position(|m| m.value == h).unwrap_or(0);
                text = cut(&text, root, i);
            }
        }
    }
    Ok(text)
}

/// The text `init` writes into a file that does not exist.
fn new_file(t: &Target) -> String {
    if is_toml(t) {
        return String::new();
    }
    format!("{{{}}}\n", t.preamble.trim_end_matches(','))
}

/// Codex's inline `[hooks]` tables in `config.toml`, edited in place with toml_edit (every
/// other byte of the file kept): `[[hooks.PreToolUse]]` groups, each with
/// `[[hooks.PreToolUse.hooks]]` commands.
mod toml_hooks {
    // `is_ours` reads the groups only in a build with the compiler (toml_edit).
    #[cfg(feature = "compiler")]
    use super::is_ours;
    use super::{Host, InitError, Target};

    #[cfg(feature = "compiler")]
    use toml_edit::{ArrayOfTables, DocumentMut, Item, Table};

    #[cfg(feature = "compiler")]
    fn parse(text: &str) -> Result<DocumentMut, InitError> {
        text.parse::<DocumentMut>()
            .map_err(|e| InitError::NotToml(e.message().trim().to_string()))
    }

    /// The group as JSON text (what `is_ours` reads), from a TOML group table.
    #[cfg(feature = "compiler")]
    fn as_json(g: &Table) -> String {
        let hooks: Vec<serde_json::Value> = g
            .get("hooks")
            .and_then(Item::as_array_of_tables)
            .map(|a| {
                a.iter()
                    .map(|h| {
                        serde_json::json!({
                            "type": h.get("type").and_then(Item::as_str),
                            "command": h.get("command").and_then(Item::as_str),
                        })
                    })
                    .collect()
            })
            .unwrap_or_default();
        serde_json::json!({"hooks": hooks}).to_string()
    }

    #[cfg(feature = "compiler")]
    pub fn install(
        text: &str,
        host: Host,
        t: &Target,
        notes: &mut Vec<String>,
    ) -> Result<String, InitError> {
        let mut doc = parse(text)?;
        for (event, entry) in &t.entries {
            let e: serde_json::Value =
                serde_json::from_str(entry).map_err(|e| InitError::Entry(e.to_string()))?;
            let hooks = doc
                .entry("hooks")
                .or_insert_with(|| {
                    let mut t = Table::new();
                    t.set_implicit(true);
                    Item::Table(t)
                })
                .as_table_mut()
                .ok_or(InitError::HooksNotTable)?;
            let arr = hooks
                .entry(event)
                .or_insert_with(|| Item::ArrayOfTables(ArrayOfTables::new()))
                .as_array_of_tables_mut()
                .ok_or_else(|| InitError::EventNotTables(event.to_string()))?;
            if arr.iter().any(|g| is_ours(&as_json(g), host)) {
                continue;
            }
            if !arr.is_empty() {
                notes.push(format!(
                    "{} other hook(s) on {event} stay in place: any of them that answers allow can let a call run that polc would ask or deny; review them",
                    arr.len()
                ));
            }
            let mut g = Table::new();
            if let Some(m) = e["matcher"].as_str() {
                g.insert("matcher", toml_edit::value(m));
            }
            let mut inner = ArrayOfTables::new();
            for h in e["hooks"].as_array().into_iter().flatten() {
                let mut ht = Table::new();
                ht.insert(
                    "type",
                    toml_edit::value(h["type"].as_str().unwrap_or("command")),
                );
                ht.insert(
                    "command",
                    toml_edit::value(h["command"].as_str().unwrap_or_default()),
                );
                inner.push(ht);
            }
            g.insert("hooks", Item::ArrayOfTables(inner));
            arr.push(g);
        }
        Ok(doc.to_string())
    }

    #[cfg(feature = "compiler")]
    pub fn uninstall(text: &str, host: Host, t: &Target) -> Result<String, InitError> {
        let mut doc = parse(text)?;
        let mut changed = false;
        for (event, _) in &t.entries {
            let Some(hooks) = doc.get_mut("hooks").and_then(Item::as_table_mut) else {
                continue;
            };
            let Some(arr) = hooks.get_mut(event).and_then(Item::as_array_of_tables_mut) else {
                continue;
            };
            let before = arr.len();
            arr.retain(|g| !is_ours(&as_json(g), host));
            if arr.len() == before {
                continue;
            }
            changed = true;
            if arr.is_empty() {
                hooks.remove(event);
            }
            if hooks.is_empty() {
                doc.remove("hooks");
            }
        }
        Ok(if changed {
            doc.to_string()
        } else {
            text.to_string()
        })
    }

    #[cfg(not(feature = "compiler"))]
    pub fn install(_: &str, _: Host, _: &Target, _: &mut Vec<String>) -> Result<String, InitError> {
        Err(InitError::NoToml)
    }

    #[cfg(not(feature = "compiler"))]
    pub fn uninstall(_: &str, _: Host, _: &Target) -> Result<String, InitError> {
        Err(InitError::NoToml)
    }
}

fn backup_path(file: &Path) -> PathBuf {
    let mut s = file.as_os_str().to_owned();
    s.push(".polc-backup");
    PathBuf::from(s)
}

/// The plan: the file's new text (None: remove the file), and what to say.
pub struct Plan {
    pub before: Option<String>,
    pub after: Option<String>,
    pub write_backup: bool,
}

pub fn plan(
    t: &Target,
    host: Host,
    removing: bool,
    notes: &mut Vec<String>,
) -> Result<Plan, InitError> {
    let before = match std::fs::read(&t.file) {
        Ok(b) => Some(String::from_utf8(b).map_err(|_| InitError::NotUtf8)?),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return Err(InitError::Read(e)),
    };
    if !removing {
        let base = before.clone().unwrap_or_else(|| new_file(t));
        let after = install(&base, host, t, notes)?;
        return Ok(Plan {
            write_backup: before.is_some() && before.as_deref() != Some(after.as_str()),
            before,
            after: Some(after),
        });
    }
    let Some(cur) = before.clone() else {
        return Ok(Plan {
            before: None,
            after: None,
            write_backup: false,
        });
    };
    let backup = std::fs::read_to_string(backup_path(&t.file)).ok();
    let after = remove(&cur, backup.as_deref(), host, t)?;
    Ok(Plan {
        before,
        after,
        write_backup: false,
    })
}

/// Uninstall from `cur`, given the backup `init` kept (None: `init` created the file).
/// When `cur` is still exactly what `init` made from that origin, the origin's bytes come
/// back (None: remove the file); otherwise polc's entries are cut from `cur`. (Cutting
/// alone cannot tell an empty `"hooks": {}` the person wrote from one `init` added.)
pub fn remove(
    cur: &str,
    backup: Option<&str>,
    host: Host,
    t: &Target,
) -> Result<Option<String>, InitError> {
    if !is_toml(t) {
        parse_check(cur)?;
    }
    let origin = backup.map(str::to_string).unwrap_or_else(|| new_file(t));
    if origin != cur && install(&origin, host, t, &mut Vec::new()).ok().as_deref() == Some(cur) {
        return Ok(backup.map(str::to_string));
    }
    uninstall(cur, host, t).map(Some)
}

fn write_atomic(path: &Path, text: &str) -> std::io::Result<()> {
    if let Some(d) = path.parent() {
        std::fs::create_dir_all(d)?;
    }
    let tmp = {
        let mut s = path.as_os_str().to_owned();
        s.push(".polc-tmp");
        PathBuf::from(s)
    };
    std::fs::write(&tmp, text)?;
    std::fs::rename(&tmp, path)
}

fn confirm(prompt: &str) -> Result<bool, InitError> {
    let tty = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open("/dev/tty")
        .map_err(InitError::NoTty)?;
    let mut w = &tty;
    let _ = write!(w, "{prompt}");
    let _ = w.flush();
    let mut line = String::new();
    BufReader::new(&tty)
        .read_line(&mut line)
        .map_err(InitError::Answer)?;
    Ok(matches!(line.trim(), "y" | "Y" | "yes" | "YES" | "Yes"))
}

/// Why `polc init` changes nothing. The settings-file variants concern the target's file
/// (`Target::file`, which the command names before the message: "polc: FILE: …").
#[derive(Debug)]
pub enum InitError {
    /// The host reads its hooks only from the user's settings (Codex).
    UserScopeOnly(Host),
    /// The host reads its hooks only from the project (Copilot).
    ProjectScopeOnly(Host),
    /// No settings file polc can edit for this host.
    UnknownSettings(Host),
    NotUtf8,
    Read(std::io::Error),
    /// The file does not parse (the parser's message).
    NotJson(String),
    #[cfg(feature = "compiler")]
    NotToml(String),
    NotObject,
    HooksNotObject,
    /// `hooks.EVENT` is not an array.
    EventNotArray(String),
    #[cfg(feature = "compiler")]
    HooksNotTable,
    /// `hooks.EVENT` is not an array of tables.
    #[cfg(feature = "compiler")]
    EventNotTables(String),
    /// polc's own entry does not parse (a bug in polc).
    #[cfg(feature = "compiler")]
    Entry(String),
    /// Built without the TOML editor (no `compiler` feature).
    #[cfg(not(feature = "compiler"))]
    NoToml,
    /// Confirmed on `/dev/tty` only.
    NoTty(std::io::Error),
    Answer(std::io::Error),
}

impl std::fmt::Display for InitError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            InitError::UserScopeOnly(h) => write!(
                f,
                "{} reads hooks from ~/.codex/hooks.json only: use --scope user",
                h.name()
            ),
            InitError::ProjectScopeOnly(h) => write!(
                f,
                "{} reads hooks from the project's .github/hooks/*.json: use --scope project",
                h.name()
            ),
            InitError::UnknownSettings(h) => write!(
                f,
                "`polc init` does not know {0}'s settings file yet; merge `polc hook --print-config --host {0}` by hand",
                h.name()
            ),
            InitError::NotUtf8 => f.write_str("it is not UTF-8 text; nothing was changed"),
            InitError::Read(e) => write!(f, "cannot read it: {e}"),
            InitError::NotJson(e) => {
                write!(f, "it is not valid JSON or JSONC ({e}); nothing was changed")
            }
            #[cfg(feature = "compiler")]
            InitError::NotToml(e) => write!(f, "it is not valid TOML ({e}); nothing was changed"),
            InitError::NotObject => f.write_str("the settings file is not a JSON object"),
            InitError::HooksNotObject => f.write_str("its `hooks` is not an object"),
            InitError::EventNotArray(ev) => write!(f, "its `hooks.{ev}` is not an array"),
            #[cfg(feature = "compiler")]
            InitError::HooksNotTable => f.write_str("its `hooks` is not a table"),
            #[cfg(feature = "compiler")]
            InitError::EventNotTables(ev) => write!(
                f,
                "its `hooks.{ev}` is not an array of tables ([[hooks.{ev}]])"
            ),
            #[cfg(feature = "compiler")]
            InitError::Entry(e) => f.write_str(e),
            #[cfg(not(feature = "compiler"))]
            InitError::NoToml => {
                f.write_str("this polc was built without TOML support; nothing was changed")
            }
            InitError::NoTty(e) => write!(
                f,
                "`polc init` must be confirmed on a terminal and /dev/tty cannot be opened ({e}); refusing"
            ),
            InitError::Answer(e) => write!(f, "cannot read the answer from /dev/tty: {e}"),
        }
    }
}

impl std::error::Error for InitError {}

pub fn init_cmd(host: &str, scope: Scope, remove: bool) -> i32 {
    if let Some(why) = crate::runtime::state::refuse_install() {
        eprintln!("polc: {why}");
        return 2;
    }
    let Some(h) = Host::parse_hook(host) else {
        eprintln!("polc: unknown host `{host}`");
        return 2;
    };
    let Some(home) = crate::runtime::trust::passwd_home() else {
        eprintln!("polc: cannot find the home directory");
        return 2;
    };
    let root = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
    // Project files are shared: name polc as found on PATH. The user's own file names this
    // binary.
    let exe = match scope {
        Scope::Project => "polc".to_string(),
        Scope::User => std::env::current_exe()
            .and_then(|p| p.canonicalize())
            .map(|p| p.display().to_string())
            .unwrap_or_else(|_| "polc".into()),
    };
    let t = match target(h, scope, &exe, &root, &home) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("polc: {e}");
            return 2;
        }
    };
    let file = t.file.display().to_string();
    let mut notes = Vec::new();
    let p = match plan(&t, h, remove, &mut notes) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("polc: {file}: {e}");
            return 1;
        }
    };
    if p.after == p.before {
        println!(
            "polc: {file} already {}; nothing changed",
            if remove {
                "has no polc hook"
            } else {
                "has polc's hook"
            }
        );
        return 0;
    }
    let verb = if remove {
        "Remove polc's hook from"
    } else {
        "Install polc's hook into"
    };
    match confirm(&format!("polc: {verb} {file}? [y/N] ")) {
        Ok(true) => {}
        Ok(false) => {
            println!("polc: nothing changed");
            return 1;
        }
        Err(e) => {
            eprintln!("polc: {e}");
            return 2;
        }
    }
    if let Err(e) = write_plan(&t, &p, remove) {
        eprintln!("polc: cannot write {file}: {e}");
        return 2;
    }
    // The person just approved this write: record it, so the hook's "agent configuration
    // changed" tripwire does not deny the next call for it (runtime::tripwire). Only this
    // file: other changes still wait for `polc confirm`.
    if let (Scope::Project, Some(at)) = (scope, crate::runtime::tripwire::Places::fixed()) {
        let croot = crate::runtime::trust::canon(&root);
        let file = crate::runtime::trust::canon(&t.file);
        let _ = crate::runtime::tripwire::record_written(&at, &croot, &file);
    }
    say_done(&t, &p, h, remove, &notes);
    0
}

/// Write the planned file (and its backup), or remove it.
fn write_plan(t: &Target, p: &Plan, remove: bool) -> std::io::Result<()> {
    if p.write_backup {
        if let Some(b) = &p.before {
            std::fs::write(backup_path(&t.file), b)?;
        }
    }
    match &p.after {
        Some(a) => write_atomic(&t.file, a)?,
        None => std::fs::remove_file(&t.file)?,
    }
    if remove {
        let _ = std::fs::remove_file(backup_path(&t.file));
    }
    Ok(())
}

/// What changed, and what to do next.
fn say_done(t: &Target, p: &Plan, h: Host, remove: bool, notes: &[String]) {
    let file = t.file.display().to_string();
    for n in notes {
        println!("note: {n}");
    }
    if remove {
        println!(
            "polc: removed polc's hook from {file}; restart {} so it reloads its hooks",
            h.name()
        );
    } else {
        let events: Vec<&str> = t.entries.iter().map(|e| e.0).collect();
        println!("polc: added polc's hook to {file} ({})", events.join(", "));
        if p.write_backup {
            println!(
                "polc: the previous file is kept as {}",
                backup_path(&t.file).display()
            );
        }
        println!("next: write rules in policies/*.pol, then `polc build` and `polc trust`;");
        println!(
            "      restart {} (or review its hooks) so it loads the hook.",
            h.name()
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(host: Host, scope: Scope) -> Target {
        target(host, scope, "polc", Path::new("/p"), Path::new("/h")).unwrap()
    }

    const FIXTURES: &[(&str, &str)] = &[
        ("empty", "{}"),
        ("empty-nl", "{}\n"),
        (
            "settings",
            "{\n  \"model\": \"opus\",\n  \"permissions\": {\n    \"allow\": [\"Bash(npm test)\"],\n    \"deny\": [\"Read(./.env)\"]\n  },\n  \"env\": {\"X\": \"1\"}\n}\n",
        ),
        (
            "other-hooks",
            "{\n    \"hooks\": {\n        \"PreToolUse\": [\n            {\n                \"matcher\": \"Bash\",\n                \"hooks\": [{\"type\": \"command\", \"command\": \"~/bin/audit\"}]\n            }\n        ],\n        \"Stop\": []\n    },\n    \"zeta\": true\n}",
        ),
        ("empty-arrays", "{\"hooks\":{\"PreToolUse\":[],\"BeforeTool\":[ ],\"beforeShellExecution\":[],\"preToolUse\":[]}}"),
        ("hooks-empty", "{ \"version\": 1, \"hooks\": { } }\n"),
        ("escapes", "{\"a\\\"}\": \"]\\\\\", \"hooks\": {\"Other\": [1, 2.5e3, null, false]}}"),
    ];

    fn hosts() -> Vec<(Host, Scope)> {
        vec![
            (Host::Claude, Scope::Project),
            (Host::Claude, Scope::User),
            (Host::Gemini, Scope::Project),
            (Host::Codex, Scope::User),
            (Host::Cursor, Scope::Project),
            (Host::Copilot, Scope::Project),
        ]
    }

    /// JSONC (comments, trailing commas): edited in place, comments kept, round trips.
    const JSONC: &[(&str, &str)] = &[
        (
            "vscode-style",
            "// project settings\n{\n  \"model\": \"opus\", // the model\n  /* hooks below */\n  \"hooks\": {\n    \"PreToolUse\": [\n      // an audit hook\n      {\"matcher\": \"Bash\", \"hooks\": [{\"type\": \"command\", \"command\": \"audit\"}]},\n    ],\n  },\n}\n",
        ),
        ("no-hooks", "{\n  // nothing yet\n  \"env\": {\"A\": \"1\",},\n}\n"),
        ("crlf", "{\r\n  \"a\": 1, // one\r\n  \"hooks\": {\"PreToolUse\": []}\r\n}\r\n"),
    ];

    #[test]
    fn jsonc_settings_are_edited_in_place() {
        for (host, scope) in hosts() {
            let tg = t(host, scope);
            for (name, text) in JSONC {
                let once = install(text, host, &tg, &mut Vec::new())
                    .unwrap_or_else(|e| panic!("{name} {host:?}: {e}"));
                // Still JSONC, every comment kept, polc's entries present.
                let v: serde_json::Value = serde_json::from_str(&mask(&once))
                    .unwrap_or_else(|e| panic!("{name} {host:?}: {e}\n{once}"));
                for c in [
                    "// project settings",
                    "// the model",
                    "/* hooks below */",
                    "// an audit hook",
                    "// nothing yet",
                    "// one",
                ] {
                    assert_eq!(
                        text.contains(c),
                        once.contains(c),
                        "{name} {host:?} {c}: {once}"
                    );
                }
                for (event, entry) in &tg.entries {
                    let e: serde_json::Value = serde_json::from_str(entry).unwrap();
                    assert!(
                        v["hooks"][event].as_array().unwrap().contains(&e),
                        "{name} {host:?}: {once}"
                    );
                }
                if name == &"crlf" {
                    assert!(
                        !once.replace("\r\n", "").contains('\n'),
                        "CRLF kept: {once:?}"
                    );
                }
                assert_eq!(
                    install(&once, host, &tg, &mut Vec::new()).unwrap(),
                    once,
                    "idempotent"
                );
                assert_eq!(
                    remove(&once, Some(text), host, &tg).unwrap().as_deref(),
                    Some(*text)
                );
                let cut = uninstall(&once, host, &tg).unwrap();
                serde_json::from_str::<serde_json::Value>(&mask(&cut)).unwrap();
                assert!(!cut.contains("polc is not installed"), "{cut}");
            }
        }
        // A comment is not valid where JSONC has none: still refused, untouched.
        assert!(install(
            "{ \"a\": 1 /* open",
            Host::Claude,
            &t(Host::Claude, Scope::Project),
            &mut Vec::new()
        )
        .is_err());
    }

    #[test]
    fn codex_config_toml_is_edited_in_place() {
        let tg = Target {
            file: PathBuf::from("/h/.codex/config.toml"),
            ..t(Host::Codex, Scope::User)
        };
        let fixtures = [
            "model = \"o4\"  # the model\n\n[hooks]\n\n[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ntype = \"command\"\ncommand = \"notify\"\n",
            "# team config\n[[hooks.PreToolUse]]\nmatcher = \"Bash\"\n[[hooks.PreToolUse.hooks]]\ntype = \"command\"\ncommand = \"audit\"\n\n[features]\nhooks = true\n",
        ];
        for text in fixtures {
            let mut notes = Vec::new();
            let once = install(text, Host::Codex, &tg, &mut notes).unwrap();
            let doc: toml_edit::DocumentMut = once.parse().unwrap();
            let groups = doc["hooks"]["PreToolUse"].as_array_of_tables().unwrap();
            assert!(
                groups.iter().any(
                    |g| g["hooks"].as_array_of_tables().unwrap().iter().any(|h| {
                        h["command"]
                            .as_str()
                            .unwrap()
                            .contains("exec polc hook --host codex")
                    })
                ),
                "{once}"
            );
            // Every line of the original is still there, in order.
            let mut rest = once.as_str();
            for l in text.lines() {
                let i = rest
                    .find(l)
                    .unwrap_or_else(|| panic!("{l:?} lost:\n{once}"));
                rest = &rest[i + l.len()..];
            }
            assert_eq!(
                install(&once, Host::Codex, &tg, &mut Vec::new()).unwrap(),
                once,
                "idempotent"
            );
            assert_eq!(
                remove(&once, Some(text), Host::Codex, &tg)
                    .unwrap()
                    .as_deref(),
                Some(text)
            );
            assert_eq!(
                uninstall(&once, Host::Codex, &tg).unwrap(),
                text,
                "cut back to the bytes"
            );
            assert_eq!(uninstall(text, Host::Codex, &tg).unwrap(), text);
        }
        assert_eq!(
            install(
                &fixtures[1].replace("audit", "/usr/bin/polc hook --host codex"),
                Host::Codex,
                &tg,
                &mut Vec::new()
            )
            .unwrap(),
            fixtures[1].replace("audit", "/usr/bin/polc hook --host codex"),
            "a hand-pasted polc hook is polc's own"
        );
        assert!(install("model = \"o4\n", Host::Codex, &tg, &mut Vec::new())
            .unwrap_err()
            .to_string()
            .contains("not valid TOML"));
        assert!(install("hooks = 1\n", Host::Codex, &tg, &mut Vec::new()).is_err());
    }

    #[test]
    fn a_hand_pasted_polc_hook_is_polcs_own() {
        let tg = t(Host::Claude, Scope::Project);
        for cmd in [
            "/usr/local/bin/polc hook --host claude",
            "polc hook --host claude",
            "'/opt/my tools/polc' hook --host claude",
            "exec polc hook --host claude --table compiled/policy.bin",
        ] {
            let text = format!(
                "{{\"hooks\": {{\"PreToolUse\": [{{\"matcher\": \"*\", \"hooks\": [{{\"type\": \"command\", \"command\": {}}}]}}]}}}}",
                serde_json::to_string(cmd).unwrap()
            );
            let mut notes = Vec::new();
            let once = install(&text, Host::Claude, &tg, &mut notes).unwrap();
            let v: serde_json::Value = serde_json::from_str(&once).unwrap();
            assert_eq!(
                v["hooks"]["PreToolUse"].as_array().unwrap().len(),
                1,
                "{cmd}: no second entry: {once}"
            );
            assert_eq!(
                v["hooks"]["PermissionRequest"].as_array().unwrap().len(),
                1,
                "{cmd}"
            );
            assert_eq!(
                v["hooks"]["PostToolUse"].as_array().unwrap().len(),
                1,
                "{cmd}"
            );
            assert!(
                notes.is_empty(),
                "{cmd}: not named as another hook: {notes:?}"
            );
        }
        // Not polc's: another program, another host, extra words.
        for cmd in [
            "/usr/bin/polcx hook --host claude",
            "polc hook --host gemini",
            "polc hook --host claude; curl evil",
            "echo polc hook --host claude",
        ] {
            assert!(!pasted(cmd, Host::Claude), "{cmd}");
        }
        // Codex's print-config form (no matcher group) is recognised too.
        let codex = t(Host::Codex, Scope::User);
        let text = "{\"hooks\":{\"PreToolUse\":[{\"type\":\"command\",\"command\":\"/x/polc hook --host codex\"}]}}";
        assert_eq!(
            install(text, Host::Codex, &codex, &mut Vec::new()).unwrap(),
            text
        );
    }

    #[test]
    fn install_then_uninstall_round_trips_byte_for_byte() {
        for (host, scope) in hosts() {
            let tg = t(host, scope);
            for (name, text) in FIXTURES {
                let mut notes = Vec::new();
                let once = install(text, host, &tg, &mut notes).unwrap();
                let v: serde_json::Value = serde_json::from_str(&once)
                    .unwrap_or_else(|e| panic!("{name} {host:?}: {e}\n{once}"));
                for (event, entry) in &tg.entries {
                    let arr = v["hooks"][event].as_array().unwrap();
                    let e: serde_json::Value = serde_json::from_str(entry).unwrap();
                    assert!(arr.contains(&e), "{name} {host:?} {event}: {once}");
                }
                // Everything else kept.
                let orig: serde_json::Value = serde_json::from_str(text).unwrap();
                for (k, x) in orig.as_object().unwrap() {
                    if k != "hooks" {
                        assert_eq!(&v[k], x, "{name} {host:?}");
                    } else {
                        for (ev, arr) in x.as_object().unwrap() {
                            for el in arr.as_array().unwrap() {
                                assert!(v["hooks"][ev].as_array().unwrap().contains(el), "{name}");
                            }
                        }
                    }
                }
                // Idempotent.
                let twice = install(&once, host, &tg, &mut Vec::new()).unwrap();
                assert_eq!(twice, once, "{name} {host:?}");
                // Uninstall with init's backup gives the original bytes back.
                let back = remove(&once, Some(text), host, &tg).unwrap();
                assert_eq!(back.as_deref(), Some(*text), "{name} {host:?}");
                // Without the backup, polc's entries are cut: the same bytes wherever the
                // original had no empty container of its own, else the same JSON less the
                // emptied containers.
                let cutback = uninstall(&once, host, &tg).unwrap();
                assert!(!cutback.contains("polc is not installed"), "{cutback}");
                if !["empty-arrays", "hooks-empty"].contains(name) {
                    assert_eq!(cutback, *text, "{name} {host:?}");
                } else {
                    let c: serde_json::Value = serde_json::from_str(&cutback).unwrap();
                    for (k, x) in orig.as_object().unwrap() {
                        if k != "hooks" {
                            assert_eq!(&c[k], x);
                        }
                    }
                }
                // Uninstall of a file without polc changes nothing.
                assert_eq!(uninstall(text, host, &tg).unwrap(), *text);
                assert_eq!(
                    remove(text, None, host, &tg).unwrap().as_deref(),
                    Some(*text)
                );
            }
        }
    }

    #[test]
    fn other_hooks_are_reported_and_kept() {
        let tg = t(Host::Claude, Scope::Project);
        let mut notes = Vec::new();
        let out = install(FIXTURES[3].1, Host::Claude, &tg, &mut notes).unwrap();
        assert!(out.contains("~/bin/audit"));
        assert_eq!(notes.len(), 1, "{notes:?}");
        assert!(notes[0].contains("PreToolUse"));
    }

    #[test]
    fn uninstall_keeps_a_hook_added_after_install() {
        let tg = t(Host::Claude, Scope::Project);
        let once = install("{}", Host::Claude, &tg, &mut Vec::new()).unwrap();
        // A person adds their own hook next to polc's.
        let v: serde_json::Value = serde_json::from_str(&once).unwrap();
        let mut v2 = v.clone();
        v2["hooks"]["PreToolUse"]
            .as_array_mut()
            .unwrap()
            .push(serde_json::json!({"matcher": "Edit", "hooks": [{"type": "command", "command": "fmt"}]}));
        let edited = serde_json::to_string(&v2).unwrap();
        let back = uninstall(&edited, Host::Claude, &tg).unwrap();
        let b: serde_json::Value = serde_json::from_str(&back).unwrap();
        assert_eq!(b["hooks"]["PreToolUse"].as_array().unwrap().len(), 1);
        assert_eq!(b["hooks"]["PreToolUse"][0]["matcher"], "Edit");
        assert!(b["hooks"].get("PermissionRequest").is_none(), "{back}");
        assert!(b["hooks"].get("PostToolUse").is_none(), "{back}");
        assert!(!back.contains("polc hook"));
    }

    #[test]
    fn a_file_that_does_not_parse_is_refused() {
        let tg = t(Host::Claude, Scope::Project);
        // (`{"a": 1,}` and `// c\n{}` are JSONC: edited, see jsonc_settings_are_edited_in_place.)
        for bad in [
            "{",
            "{\"a\": 1,,}",
            "/* c\n{}",
            "[]",
            "{\"hooks\": []}",
            "{\"hooks\": {\"PreToolUse\": {}}}",
            "",
        ] {
            assert!(
                install(bad, Host::Claude, &tg, &mut Vec::new()).is_err(),
                "{bad:?}"
            );
            assert!(uninstall(bad, Host::Claude, &tg).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn the_command_fails_closed_without_polc_and_names_no_machine_path() {
        let c = command("polc", Host::Claude, "");
        assert!(c.starts_with("command -v polc >/dev/null || { echo 'polc is not installed' >&2; exit 2; }; exec polc hook --host claude"), "{c}");
        // Run it with an empty PATH: exit 2 (a blocking error), not 127.
        let out = std::process::Command::new("/bin/sh")
            .arg("-c")
            .arg(&c)
            .env("PATH", "/nonexistent")
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2));
        assert!(String::from_utf8_lossy(&out.stderr).contains("polc is not installed"));
        for (host, scope) in hosts().into_iter().filter(|h| h.1 == Scope::Project) {
            let tg = t(host, scope);
            for (_, e) in &tg.entries {
                assert!(!e.contains("/p") && !e.contains("/h/"), "{e}");
            }
        }
        // A user-scope path with a space is quoted.
        let c = command("/opt/my tools/polc", Host::Gemini, "");
        assert!(
            c.contains("exec '/opt/my tools/polc' hook --host gemini"),
            "{c}"
        );
    }

    #[test]
    fn scopes_hosts_do_not_have_are_refused() {
        assert!(target(
            Host::Codex,
            Scope::Project,
            "polc",
            Path::new("/p"),
            Path::new("/h")
        )
        .is_err());
        assert!(target(
            Host::Copilot,
            Scope::User,
            "polc",
            Path::new("/p"),
            Path::new("/h")
        )
        .is_err());
        assert!(target(
            Host::Vibe,
            Scope::User,
            "polc",
            Path::new("/p"),
            Path::new("/h")
        )
        .is_err());
        assert_eq!(
            t(Host::Claude, Scope::User).file,
            Path::new("/h/.claude/settings.json")
        );
        assert_eq!(
            t(Host::Claude, Scope::Project).file,
            Path::new("/p/.claude/settings.json")
        );
        assert_eq!(
            t(Host::Codex, Scope::User).file,
            Path::new("/h/.codex/hooks.json")
        );
    }

    #[test]
    fn plan_on_disk_backup_and_exact_restore() {
        let d = tempfile::tempdir().unwrap();
        let tg = target(Host::Claude, Scope::Project, "polc", d.path(), d.path()).unwrap();
        // No file: install creates it; uninstall removes it.
        let p = plan(&tg, Host::Claude, false, &mut Vec::new()).unwrap();
        assert!(p.before.is_none() && !p.write_backup);
        write_atomic(&tg.file, p.after.as_deref().unwrap()).unwrap();
        let p = plan(&tg, Host::Claude, true, &mut Vec::new()).unwrap();
        assert!(p.after.is_none());
        // An existing file: backup, then exact restore.
        let orig = FIXTURES[2].1;
        std::fs::write(&tg.file, orig).unwrap();
        let p = plan(&tg, Host::Claude, false, &mut Vec::new()).unwrap();
        assert!(p.write_backup);
        std::fs::write(backup_path(&tg.file), orig).unwrap();
        write_atomic(&tg.file, p.after.as_deref().unwrap()).unwrap();
        // Idempotent on disk.
        let again = plan(&tg, Host::Claude, false, &mut Vec::new()).unwrap();
        assert_eq!(again.after, again.before);
        let p = plan(&tg, Host::Claude, true, &mut Vec::new()).unwrap();
        assert_eq!(p.after.as_deref(), Some(orig));
        // A file that does not parse: an error, nothing planned.
        std::fs::write(&tg.file, "{ not json").unwrap();
        assert!(plan(&tg, Host::Claude, false, &mut Vec::new()).is_err());
    }
}
