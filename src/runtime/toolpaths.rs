//! The paths a tool call names (issue 8, class 7): every path-bearing field of every agent's
//! file, search and patch tools, read from the tool's JSON input by field name, so a request
//! may carry several paths and each is decided.
//!
//! | field | agents | read as |
//! |---|---|---|
//! | `file_path`, `filePath`, `notebook_path`, `absolute_path`, `target_file`, `directory_path`, `relative_workspace_path`, `source_path`, `destination_path`, `old_path`, `new_path` | Claude, Gemini, Cursor, Droid, OpenCode, Vibe | a path |
//! | `path`, `dir_path`, `directory`, `folder` | Copilot `view`/`create`/`str_replace`, Claude `LS`/`Grep`/`Glob`, Gemini, Vibe | a path; the folder a search reads recursively |
//! | `paths`, `file_paths`, `files`, `target_directories` (arrays) | Gemini `read_many_files`, Cursor | each a path, read recursively when a folder; a glob entry is a glob |
//! | `include`, `include_pattern`, `glob`, `patterns`, and a search's `pattern` | Gemini, Claude `Grep`/`Glob`, Cursor, Droid, OpenCode | globs under the search folder (at least ask when one could name a denied path) |
//! | every string field, at any depth (≤ 16 levels, ≤ 4,096 strings): one that could be a path (a `/`, or no blank), a `file://` URI's path | MCP and other tools polc has no name for | a path (read and edit rules both apply); past the bound, unreadable |
//! | `*** Add/Update/Delete File:`, `*** Move to:` lines of a patch (`command`, `input`, `patch`) | Codex/Droid `apply_patch` | paths written |
//!
//! Exclude globs only narrow what is read and are not needed for a sound answer. A
//! path-bearing field that is not a string (or an array of strings), an empty path, and a
//! read/edit call with no path at all are *unreadable*: such a call is never allowed.

use crate::tools;
use serde_json::Value;

/// The paths of one tool call.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ToolPaths {
    /// Paths read or written, as given (relative to the cwd, `~/…`, or absolute).
    pub files: Vec<String>,
    /// Folders read recursively (a search's folder, a `read_many_files` entry).
    pub folders: Vec<String>,
    /// Globs naming files, already joined to their base folder.
    pub globs: Vec<String>,
    /// A path-bearing field polc cannot read, or a path tool without a path.
    pub unreadable: bool,
    /// A glob that leaves the folder it is read under (`..`, or a search pattern that is
    /// absolute or `~`): the call cannot be allowed by its folders' allows.
    pub escapes: bool,
}

const FILE_FIELDS: &[&str] = &[
    "file_path",
    "filePath",
    "notebook_path",
    "notebookPath",
    "absolute_path",
    "target_file",
    "targetFile",
    "directory_path",
    "relative_workspace_path",
    "source_path",
    "destination_path",
    "old_path",
    "new_path",
];
/// A folder for searches, a path otherwise.
const FOLDER_FIELDS: &[&str] = &["path", "dir_path", "directory", "folder"];
const ARRAY_FIELDS: &[&str] = &["paths", "file_paths", "files", "target_directories"];
const GLOB_FIELDS: &[&str] = &["include", "include_pattern", "glob", "patterns"];
/// Fields that hold a patch's text (Codex `apply_patch`).
const PATCH_FIELDS: &[&str] = &["command", "input", "patch"];
/// Fields that make a call a search (it reads a folder recursively).
const SEARCH_FIELDS: &[&str] = &[
    "pattern",
    "query",
    "include",
    "include_pattern",
    "glob",
    "patterns",
];

/// Does a path contain glob syntax?
pub fn is_glob(s: &str) -> bool {
    s.contains(['*', '?', '[', '{'])
}

/// The paths of a call to `tool` (canonical name). `input_text` is the tool's JSON input;
/// when it is not a JSON object (`polc explain --tool read PATH`, examples) the subject is
/// the one path.
pub fn tool_paths(tool: &str, subject: &str, input_text: &str) -> ToolPaths {
    let path_tool = tool == tools::READ || tool == tools::EDIT;
    let mut tp = ToolPaths::default();
    let v = match serde_json::from_str::<Value>(input_text) {
        Ok(v @ Value::Object(_)) => v,
        _ => {
            if subject.is_empty() {
                tp.unreadable = path_tool;
            } else {
                tp.files.push(subject.to_string());
            }
            return tp;
        }
    };
    let has = |k: &str| v.get(k).is_some_and(|x| !x.is_null());
    // Only file tools search: an MCP tool's `query` is not a folder read.
    let search =
        path_tool && SEARCH_FIELDS.iter().any(|k| has(k)) && !FILE_FIELDS.iter().any(|k| has(k));
    let mut bad = false;
    let mut one = |x: &Value, out: &mut Vec<String>| match x {
        Value::String(s) if !s.is_empty() => out.push(s.clone()),
        _ => bad = true,
    };
    for k in FILE_FIELDS {
        if let Some(x) = v.get(*k).filter(|x| !x.is_null()) {
            one(x, &mut tp.files);
        }
    }
    let mut bases = Vec::new();
    for k in FOLDER_FIELDS {
        if let Some(x) = v.get(*k).filter(|x| !x.is_null()) {
            one(x, &mut bases);
        }
    }
    bad |= !array_fields(&v, &mut tp);
    if search {
        if bases.is_empty() {
            bases.push(".".into());
        }
        // Globs name files under each search folder. A search's `pattern` may be a glob
        // (Glob) or a regex (Grep): read as a glob it only ever adds a possible match.
        let mut globs = Vec::new();
        for k in GLOB_FIELDS.iter().chain(["pattern"].iter()) {
            match v.get(*k) {
                Some(Value::String(s)) if !s.is_empty() => globs.push(s.clone()),
                Some(Value::Array(a)) => globs.extend(
                    a.iter()
                        .filter_map(Value::as_str)
                        .filter(|s| !s.is_empty())
                        .map(str::to_string),
                ),
                _ => {}
            }
        }
        for g in globs {
            tp.escapes |= g.contains("..") || g.starts_with(['/', '~']);
            for b in &bases {
                tp.globs.push(join(b, &g));
            }
        }
        tp.folders.extend(bases);
    } else {
        tp.files.extend(bases);
    }
    if tool == tools::EDIT {
        for k in PATCH_FIELDS {
            if let Some(Value::String(s)) = v.get(*k) {
                tp.files.extend(patch_paths(s));
            }
        }
    }
    if !path_tool && !matches!(tool, tools::BASH | tools::WEBFETCH | tools::WEBSEARCH) {
        split_paths(&v, &mut tp);
        bad |= !any_field_paths(&v, &mut tp);
    }
    tp.unreadable =
        bad || (path_tool && tp.files.is_empty() && tp.folders.is_empty() && tp.globs.is_empty());
    tp
}

/// The array fields (`paths`, `files`, …): each entry a folder read recursively, or a glob;
/// false when an entry is not a non-empty string.
fn array_fields(v: &Value, tp: &mut ToolPaths) -> bool {
    let mut bad = false;
    let mut one = |x: &Value, out: &mut Vec<String>| match x {
        Value::String(s) if !s.is_empty() => out.push(s.clone()),
        _ => bad = true,
    };
    for k in ARRAY_FIELDS {
        match v.get(*k) {
            None | Some(Value::Null) => {}
            Some(Value::Array(a)) => {
                for x in a {
                    let mut e = Vec::new();
                    one(x, &mut e);
                    for s in e {
                        if is_glob(&s) {
                            tp.escapes |= s.contains("..");
                            // Its literal folder is read too (and must be allowed).
                            tp.folders.push(glob_folder(&s));
                            tp.globs.push(s);
                        } else {
                            tp.folders.push(s);
                        }
                    }
                }
            }
            Some(x) => {
                let mut e = Vec::new();
                one(x, &mut e);
                tp.folders.extend(e);
            }
        }
    }
    !bad
}

/// MCP and unknown tools name paths in fields of any name (`file`, `uri`, `target`, `dest`,
/// nested `{"args":{"path":…}}`): every string that could be a path is one. False past the
/// bounds.
fn any_field_paths(v: &Value, tp: &mut ToolPaths) -> bool {
    let mut strings = Vec::new();
    let within = any_strings(v, &mut strings, 0);
    for s in strings {
        if let Some(p) = as_path(&s) {
            if !tp.files.contains(&p) && !tp.folders.contains(&p) {
                tp.files.push(p);
            }
        }
    }
    within
}

/// Keys of an MCP tool's folder and of a name inside it (`{"directory": D, "name": N}`,
/// `{"cwd": D, "path": N}`): red team, session 8, the file D/N was never looked at.
const SPLIT_DIRS: &[&str] = &[
    "directory",
    "dir",
    "folder",
    "cwd",
    "base_dir",
    "basedir",
    "base",
    "root",
    "parent",
    "dir_path",
    "dirpath",
    "location",
    "workdir",
    "working_directory",
    "target_dir",
    "destination",
    "dest",
    "output_dir",
];
const SPLIT_NAMES: &[&str] = &[
    "name",
    "filename",
    "file_name",
    "file",
    "path",
    "filepath",
    "relative_path",
    "basename",
    "target",
    "file_path",
    "subpath",
];

/// Every (folder field, relative name field) pair of an MCP tool's object, joined (at most
/// 8 × 8, top level and one level down).
fn split_paths(v: &Value, tp: &mut ToolPaths) {
    let mut objs = vec![v];
    if let Value::Object(m) = v {
        objs.extend(m.values().filter(|x| x.is_object()).take(8));
    }
    for o in objs {
        let Value::Object(m) = o else { continue };
        let pick = |keys: &[&str]| -> Vec<&str> {
            m.iter()
                .filter(|(k, _)| keys.contains(&k.to_ascii_lowercase().as_str()))
                .filter_map(|(_, x)| x.as_str())
                .filter(|s| !s.is_empty() && !s.contains("://"))
                .take(8)
                .collect()
        };
        let dirs = pick(SPLIT_DIRS);
        let names = pick(SPLIT_NAMES);
        for d in &dirs {
            for n in names.iter().filter(|n| !n.starts_with(['/', '~'])) {
                let p = join(d, n);
                if !tp.files.contains(&p) {
                    tp.files.push(p);
                }
            }
        }
    }
}

/// Strings past this depth or count are not read: the call is unreadable (never allowed).
const MAX_DEPTH: u32 = 16;
const MAX_STRINGS: usize = 4096;

/// Every string of a JSON value (keys excluded); false past the bounds.
fn any_strings(v: &Value, out: &mut Vec<String>, depth: u32) -> bool {
    if depth > MAX_DEPTH || out.len() > MAX_STRINGS {
        return false;
    }
    match v {
        Value::String(s) => {
            out.push(s.clone());
            true
        }
        Value::Array(a) => a.iter().all(|x| any_strings(x, out, depth + 1)),
        Value::Object(m) => m.values().all(|x| any_strings(x, out, depth + 1)),
        _ => true,
    }
}

/// The path a tool's string field may name: a `file://` URI's path (percent-decoded), or
/// the string itself when it could be a path (one line, no other URL scheme, and a `/` or
/// no blank: `.env`, `secrets`, `src/../.env`, `/srv/x`, `~/.ssh/id_rsa`). Free text
/// (`fix the parser`) and `https://…` are not paths.
pub fn as_path(s: &str) -> Option<String> {
    if s.is_empty() || s.len() > 4096 || s.contains(['\n', '\r', '\0']) {
        return None;
    }
    if s.get(..7)
        .is_some_and(|p| p.eq_ignore_ascii_case("file://"))
    {
        let after = &s[7..];
        // `file://host/path` and `file:///path`: the path from the first `/`.
        let path = after.find('/').map(|i| &after[i..]).unwrap_or("/");
        let path = path.split(['?', '#']).next().unwrap_or(path);
        return Some(percent_decode(path));
    }
    if s.contains("://") {
        return None;
    }
    let blank = s.contains(char::is_whitespace);
    (!blank || s.contains('/')).then(|| s.to_string())
}

fn percent_decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let hex = |c: u8| (c as char).to_digit(16);
        if b[i] == b'%' && i + 2 < b.len() {
            if let (Some(h), Some(l)) = (hex(b[i + 1]), hex(b[i + 2])) {
                out.push((h * 16 + l) as u8);
                i += 3;
                continue;
            }
        }
        out.push(b[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// A glob under a base folder (an absolute or `~` glob stands alone).
fn join(base: &str, glob: &str) -> String {
    if glob.starts_with('/') || glob.starts_with('~') {
        glob.to_string()
    } else {
        format!("{}/{}", base.trim_end_matches('/'), glob)
    }
}

/// The files a Codex-style patch adds, updates, deletes or moves to.
pub fn patch_paths(patch: &str) -> Vec<String> {
    patch
        .lines()
        .filter_map(|l| {
            let l = l.trim_start();
            [
                "*** Add File:",
                "*** Update File:",
                "*** Delete File:",
                "*** Move to:",
            ]
            .iter()
            .find_map(|p| l.strip_prefix(p))
            .map(|r| r.trim().to_string())
        })
        .filter(|p| !p.is_empty())
        .collect()
}

/// The literal folder before a glob's first wildcard (`src/**/x` → `src`, `*.pem` → `.`);
/// `/` when a `..` after the wildcard (`src/{a,..}/x`, `*/../../x`) can climb above it.
pub fn glob_folder(glob: &str) -> String {
    let cut = glob.find(['*', '?', '[', '{']).unwrap_or(glob.len());
    if glob[cut..].contains("..") {
        return "/".into();
    }
    match glob[..cut].rsplit_once('/') {
        Some(("", _)) => "/".into(),
        Some((d, _)) => d.to_string(),
        None => ".".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tp(tool: &str, input: Value) -> ToolPaths {
        tool_paths(tool, "", &input.to_string())
    }

    #[test]
    fn every_path_field_is_read() {
        let cases: Vec<(&str, Value, ToolPaths)> = vec![
            (
                "read",
                serde_json::json!({"file_path": "/p/.env"}),
                ToolPaths {
                    files: vec!["/p/.env".into()],
                    ..Default::default()
                },
            ),
            (
                "read",
                serde_json::json!({"paths": [".env", "src"], "include": ["*.md"], "exclude": ["x"]}),
                ToolPaths {
                    folders: vec![".env".into(), "src".into(), ".".into()],
                    globs: vec!["./*.md".into()],
                    ..Default::default()
                },
            ),
            (
                "read",
                serde_json::json!({"paths": ["**/.env"]}),
                ToolPaths {
                    folders: vec![".".into()],
                    globs: vec!["**/.env".into()],
                    ..Default::default()
                },
            ),
            (
                "read",
                serde_json::json!({"pattern": "**/*.pem", "path": "/srv"}),
                ToolPaths {
                    folders: vec!["/srv".into()],
                    globs: vec!["/srv/**/*.pem".into()],
                    ..Default::default()
                },
            ),
            (
                "read",
                serde_json::json!({"pattern": "/home/u/.ssh/*"}),
                ToolPaths {
                    folders: vec![".".into()],
                    globs: vec!["/home/u/.ssh/*".into()],
                    escapes: true,
                    ..Default::default()
                },
            ),
            (
                "edit",
                serde_json::json!({"notebook_path": "/p/a.ipynb", "new_source": "x"}),
                ToolPaths {
                    files: vec!["/p/a.ipynb".into()],
                    ..Default::default()
                },
            ),
            (
                "edit",
                serde_json::json!({"command": "*** Begin Patch\n*** Update File: a.rs\n*** Move to: .env\n*** Delete File: b\n*** End Patch"}),
                ToolPaths {
                    files: vec!["a.rs".into(), ".env".into(), "b".into()],
                    ..Default::default()
                },
            ),
            (
                "read",
                serde_json::json!({"target_file": "x", "relative_workspace_path": "d"}),
                ToolPaths {
                    files: vec!["x".into(), "d".into()],
                    ..Default::default()
                },
            ),
            (
                "read",
                serde_json::json!({}),
                ToolPaths {
                    unreadable: true,
                    ..Default::default()
                },
            ),
            (
                "read",
                serde_json::json!({"file_path": 7}),
                ToolPaths {
                    unreadable: true,
                    ..Default::default()
                },
            ),
            (
                "read",
                serde_json::json!({"file_path": ""}),
                ToolPaths {
                    unreadable: true,
                    ..Default::default()
                },
            ),
            (
                "read",
                serde_json::json!({"paths": [".env", 3]}),
                ToolPaths {
                    folders: vec![".env".into()],
                    unreadable: true,
                    ..Default::default()
                },
            ),
            (
                "edit",
                serde_json::json!({"command": "no patch here"}),
                ToolPaths {
                    unreadable: true,
                    ..Default::default()
                },
            ),
            (
                "mcp__fs__read",
                serde_json::json!({"path": "/etc/shadow", "mode": "r"}),
                ToolPaths {
                    // `r` could be a file's name too.
                    files: vec!["/etc/shadow".into(), "r".into()],
                    ..Default::default()
                },
            ),
            (
                "mcp__x__y",
                serde_json::json!({"q": 1}),
                ToolPaths::default(),
            ),
            (
                "mcp__fs__read",
                serde_json::json!({"uri": "file:///p/%2eenv", "args": {"target": ".env"}, "note": "free text here"}),
                ToolPaths {
                    files: vec![".env".into(), "/p/.env".into()],
                    ..Default::default()
                },
            ),
        ];
        for (tool, input, want) in cases {
            assert_eq!(tp(tool, input.clone()), want, "{tool} {input}");
        }
        // Not JSON: the subject is the path.
        assert_eq!(tool_paths("read", "/a", "/a").files, vec!["/a".to_string()]);
        assert!(tool_paths("read", "", "").unreadable);
    }

    #[test]
    fn glob_folders() {
        assert_eq!(glob_folder("src/**/x"), "src");
        assert_eq!(glob_folder("*.pem"), ".");
        assert_eq!(glob_folder("/home/u/.ssh/*"), "/home/u/.ssh");
        assert_eq!(glob_folder("/*"), "/");
        assert_eq!(glob_folder("./a/b?"), "./a");
        assert_eq!(glob_folder("src/{a,..}/x"), "/");
        assert_eq!(glob_folder("src/*/../../.env"), "/");
        assert_eq!(glob_folder("../*"), "..");
    }
}
