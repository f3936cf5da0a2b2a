//! Scripts the agents' configuration runs (red team, session 6): a hook whose command is
//! `"$CLAUDE_PROJECT_DIR"/scripts/guard.sh`, a `statusLine` script, an MCP server's
//! `node ./server.js`, Copilot's `"bash": "./hooks/pre.sh"` run on every call or at start-up.
//! Rewriting one replaces the agent's hook with the agent's own code, so it is protected like
//! the configuration that names it.
//!
//! Read from each host's configuration files under the project and the homes (JSON; other
//! text, TOML or JSONC, by its quoted strings), bounded: 1 MiB a file, 64 files of
//! `.github/hooks/`, 4,096 JSON values, 256 scripts. In a command, the first path-like word
//! after an interpreter (`bash`, `python3`, `node`, …; else the program itself) is the
//! script: **deny**. Any other path-like word (an argument, or a string found outside a
//! command field) is **ask**. A word is path-like when it holds a `/` or ends with a script
//! extension; `$CLAUDE_PROJECT_DIR` and the other hosts' project variables, `$PWD` and `~`
//! are replaced; a word with another `$` is skipped (it cannot be placed). Relative words are
//! read from the project root and from the configuration file's folder.

use std::path::{Path, PathBuf};

/// Configuration files (relative to the project root, or to a home) whose fields run
/// commands.
const PROJECT: &[&str] = &[
    ".claude/settings.json",
    ".claude/settings.local.json",
    ".mcp.json",
    ".gemini/settings.json",
    ".cursor/hooks.json",
    ".cursor/mcp.json",
    ".vscode/mcp.json",
    ".vscode/settings.json",
    // A task with `"runOn": "folderOpen"` runs its command when the folder opens.
    ".vscode/tasks.json",
    ".factory/settings.json",
    ".factory/settings.local.json",
    ".factory/mcp.json",
    ".factory/hooks.json",
    ".github/copilot/settings.json",
    ".github/copilot/settings.local.json",
    ".codex/hooks.json",
    ".codex/config.toml",
    ".vibe/config.toml",
    "opencode.json",
    "opencode.jsonc",
];
const HOME: &[&str] = &[
    ".claude/settings.json",
    ".claude.json",
    ".gemini/settings.json",
    ".cursor/hooks.json",
    ".cursor/mcp.json",
    ".factory/settings.json",
    ".factory/mcp.json",
    ".codex/hooks.json",
    ".codex/config.toml",
    ".copilot/config.json",
    ".copilot/mcp-config.json",
    ".vibe/config.toml",
    ".config/opencode/opencode.json",
];
/// Keys whose string (or array of strings) value is a command line.
const COMMAND_KEYS: &[&str] = &[
    "command",
    "commands",
    "cmd",
    "bash",
    "powershell",
    "sh",
    "script",
    "shell",
    "statusline",
    "apikeyhelper",
    "awscredentialexport",
    "awsauthrefresh",
    "otelheadershelper",
    "notify",
    // Red team, session 7: Claude's GCP and proxy helpers, MCP servers' header helpers,
    // Gemini's tool discovery and call commands.
    "gcpauthrefresh",
    "proxyauthhelper",
    "headershelper",
    "discoverycommand",
    "callcommand",
];
/// Variables of a settings file's `env` block whose value is code the agent's shells and
/// tools load (a script, a config file with commands, a module to require): the path in
/// it is treated as a script the configuration runs.
const CODE_ENV: &[&str] = &[
    "BASH_ENV",
    "ENV",
    "ZDOTDIR",
    "GIT_CONFIG_GLOBAL",
    "GIT_CONFIG_SYSTEM",
    "GIT_CONFIG",
    "LD_PRELOAD",
    "LD_LIBRARY_PATH",
    "PYTHONSTARTUP",
    "PYTHONPATH",
    "NODE_OPTIONS",
    "NODE_PATH",
    "PERL5OPT",
    "PERL5LIB",
    "RUBYOPT",
    "RUBYLIB",
    "JAVA_TOOL_OPTIONS",
    "PROMPT_COMMAND",
];
const MAX_FILE: u64 = 1 << 20;
const MAX_VALUES: usize = 4096;
const MAX_SCRIPTS: usize = 256;
const INTERPRETERS: &[&str] = &[
    "sh",
    "bash",
    "zsh",
    "dash",
    "ksh",
    "fish",
    "python",
    "python3",
    "node",
    "deno",
    "bun",
    "ruby",
    "perl",
    "php",
    "pwsh",
    "powershell",
    "tsx",
    "ts-node",
    "env",
    "exec",
    "uv",
    "run",
    "uvx",
    "npx",
    "source",
    ".",
];

/// The scripts the configuration under `root` and `homes` runs: (path, ask), and whether a
/// bound was met (then some script may be missing: the caller asks about every write).
/// The files the configured commands' task runners run (`runners.rs`) are among them only
/// when they exist and are not a package manager's manifest: the tripwire watches these (a
/// missing candidate, `GNUmakefile`, is protected from writes by [`scripts_and_runners`];
/// a manifest — `package.json`, `pyproject.toml`, `Cargo.toml` — is rewritten by every
/// `npm install`, `uv add`, `cargo add` a person approves, which must not deny every later
/// call: its direct writes are still denied).
pub(crate) fn scripts(root: &Path, homes: &[PathBuf]) -> (Vec<(PathBuf, bool)>, bool) {
    let (mut out, runners, bounded) = scripts_and_runners(root, homes);
    out.extend(
        runners
            .into_iter()
            .filter(|p| p.is_file() && !super::runners::is_manifest(p))
            .map(|p| (p, false)),
    );
    (out, bounded)
}

/// Most runner files kept (past it, the bound is met).
const MAX_RUNNER_FILES: usize = 1024;

/// [`scripts`], with every file the commands' task runners run or read, existing or not
/// (protected like the scripts: deny).
pub(super) fn scripts_and_runners(
    root: &Path,
    homes: &[PathBuf],
) -> (Vec<(PathBuf, bool)>, Vec<PathBuf>, bool) {
    let mut runners: Vec<PathBuf> = Vec::new();
    let mut bounded = false;
    let mut files: Vec<(PathBuf, PathBuf)> = Vec::new();
    for rel in PROJECT {
        files.push((root.join(rel), root.to_path_buf()));
    }
    if let Ok(rd) = std::fs::read_dir(root.join(".github/hooks")) {
        let hooks: Vec<_> = rd.flatten().take(65).collect();
        bounded |= hooks.len() > 64;
        for e in hooks.iter().take(64) {
            files.push((e.path(), root.to_path_buf()));
        }
    }
    for h in homes {
        for rel in HOME {
            files.push((h.join(rel), h.clone()));
        }
    }
    if let Some(c) = std::env::var_os("CLAUDE_CONFIG_DIR").filter(|v| !v.is_empty()) {
        let c = PathBuf::from(c);
        files.push((c.join("settings.json"), c));
    }
    let home = homes.first().cloned();
    let mut out = Vec::new();
    for (file, base) in files {
        let Some((text, whole)) = read_small(&file) else {
            continue;
        };
        bounded |= !whole;
        let folder = file.parent().map(Path::to_path_buf).unwrap_or_default();
        let places = Places {
            root,
            base: &base,
            folder: &folder,
            home: home.as_deref(),
        };
        let mut found: Vec<(String, bool)> = Vec::new();
        match serde_json::from_slice::<serde_json::Value>(&text) {
            Ok(v) => {
                let mut budget = MAX_VALUES;
                visit(&v, false, &mut budget, &mut found);
                bounded |= budget == 0;
            }
            // TOML, JSONC or broken JSON: every quoted string, each word an argument (ask).
            Err(_) => {
                let strings = quoted_strings(&String::from_utf8_lossy(&text));
                bounded |= strings.len() >= MAX_VALUES;
                for s in strings {
                    found.push((s, false));
                }
            }
        }
        for (cmd, is_command) in found {
            for (word, script) in path_words(&cmd, is_command) {
                for p in places.resolve(&word) {
                    out.push((p, !script));
                }
            }
            // The files a task runner or module name runs (`npm run x`, `make x`,
            // `python3 -m a.b`): as the script (red team, session 8).
            if is_command {
                let read = |w: &str| {
                    super::runners::first_existing(&places.resolve(w))
                        .and_then(|p| super::runners::read_text(p))
                };
                for word in super::runners::files(&cmd, &read) {
                    runners.extend(places.resolve(&word));
                }
                runners.sort();
                runners.dedup();
                if runners.len() > MAX_RUNNER_FILES {
                    runners.truncate(MAX_RUNNER_FILES);
                    bounded = true;
                }
            }
            if out.len() > MAX_SCRIPTS {
                out.truncate(MAX_SCRIPTS);
                return (out, runners, true);
            }
        }
    }
    (out, runners, bounded)
}

/// A regular file's first [`MAX_FILE`] bytes, and whether that is all of it.
fn read_small(p: &Path) -> Option<(Vec<u8>, bool)> {
    use std::io::Read;
    let f = std::fs::File::open(p).ok()?;
    let m = f.metadata().ok()?;
    if !m.is_file() {
        return None;
    }
    let mut v = Vec::new();
    f.take(MAX_FILE).read_to_end(&mut v).ok()?;
    Some((v, m.len() <= MAX_FILE))
}

/// Collect (string, under a command key) from a JSON value.
fn visit(v: &serde_json::Value, command: bool, budget: &mut usize, out: &mut Vec<(String, bool)>) {
    if *budget == 0 {
        return;
    }
    *budget -= 1;
    match v {
        serde_json::Value::String(s) if command => out.push((s.clone(), true)),
        serde_json::Value::Array(a) => {
            // `"command": ["node", "./server.js"]`, `"args": ["./server.js"]`: one command.
            if command && a.iter().all(|x| x.is_string()) {
                let words: Vec<&str> = a.iter().filter_map(|x| x.as_str()).collect();
                out.push((words.join(" "), true));
                return;
            }
            for x in a {
                visit(x, command, budget, out);
            }
        }
        serde_json::Value::Object(m) => {
            // An MCP server: `command` and its `args` are one command line.
            if let (Some(c), Some(serde_json::Value::Array(args))) =
                (m.get("command").and_then(|c| c.as_str()), m.get("args"))
            {
                let mut line = c.to_string();
                for a in args.iter().filter_map(|a| a.as_str()) {
                    line.push(' ');
                    line.push_str(a);
                }
                out.push((line, true));
            }
            for (k, x) in m {
                let key = k.to_ascii_lowercase();
                if key == "env" {
                    if let serde_json::Value::Object(vars) = x {
                        env_block(vars, out);
                    }
                    continue;
                }
                visit(x, COMMAND_KEYS.contains(&key.as_str()), budget, out);
            }
        }
        _ => {}
    }
}

/// A settings file's `env` block (applied to every shell the agent runs and to its hooks):
/// a variable that loads code names a script (red team, session 7: `BASH_ENV`,
/// `GIT_CONFIG_GLOBAL`, `NODE_OPTIONS=--require ./x.js`); a `PATH`-like list's folders are
/// places a command may be shadowed from (writes into them ask).
fn env_block(vars: &serde_json::Map<String, serde_json::Value>, out: &mut Vec<(String, bool)>) {
    for (k, v) in vars {
        let Some(v) = v.as_str() else { continue };
        let name = k.to_ascii_uppercase();
        if CODE_ENV.contains(&name.as_str()) {
            // Each `:`-separated part is a path the variable loads.
            for part in v.split(':').filter(|p| !p.is_empty()) {
                // `GIT_CONFIG_GLOBAL=gitcfg`: a bare name is a file in the folder.
                let bare = !part.contains('/') && !part.starts_with(['$', '~', '-']);
                let part = if bare {
                    format!("./{part}")
                } else {
                    part.to_string()
                };
                out.push((format!("sh {part}"), true));
            }
        } else if name.ends_with("PATH") {
            for part in v.split(':').filter(|p| !p.is_empty()) {
                // A folder: path-like with a trailing `/`.
                out.push((format!("{}/", part.trim_end_matches('/')), false));
            }
        } else {
            // Another value: a path in it asks (as a file: `TMPDIR=/tmp/` must not make
            // every write under /tmp ask).
            out.push((v.trim_end_matches('/').to_string(), false));
        }
    }
}

/// The `"…"` strings of a text (TOML, JSONC), without escapes resolved beyond `\"`.
fn quoted_strings(t: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur: Option<String> = None;
    let mut esc = false;
    for c in t.chars() {
        match cur.as_mut() {
            None if c == '"' => cur = Some(String::new()),
            None => {}
            Some(s) => {
                if esc {
                    s.push(c);
                    esc = false;
                } else if c == '\\' {
                    esc = true;
                } else if c == '"' {
                    out.push(cur.take().unwrap_or_default());
                    if out.len() >= MAX_VALUES {
                        break;
                    }
                } else {
                    s.push(c);
                }
            }
        }
    }
    out
}

/// Path-like words of a command line: (word, is the script it runs). Each segment (after
/// `;`, `&`, `|`, `(`, `)`, a newline or a backquote) is a command of its own: `cd tools &&
/// ./g.sh`, `bash -c 'source tools/env.sh; true'` (red team, session 8: the sourced file
/// only asked).
pub(super) fn path_words(cmd: &str, is_command: bool) -> Vec<(String, bool)> {
    let mut out = Vec::new();
    for seg in cmd.split(|c: char| "\n;&|()`".contains(c)) {
        segment_words(seg, is_command, &mut out);
    }
    out
}

fn segment_words(cmd: &str, is_command: bool, out: &mut Vec<(String, bool)>) {
    let mut script_seen = !is_command;
    let mut first = true;
    for raw in cmd.split(|c: char| c.is_whitespace() || "<>".contains(c)) {
        // `"$CLAUDE_PROJECT_DIR"/scripts/x.sh`: quotes anywhere in the word.
        let w = raw.replace(['"', '\''], "");
        let w = w.as_str();
        if w.is_empty() {
            continue;
        }
        let is_first = std::mem::replace(&mut first, false);
        let base = w.rsplit('/').next().unwrap_or(w);
        if !script_seen && (is_first || w.starts_with('-')) && INTERPRETERS.contains(&base) {
            // `bash scripts/x.sh`, `uv run hooks/x.py`: the script comes next.
            first = true;
            continue;
        }
        if w.starts_with('-') || w.contains("://") {
            // An interpreter's options (`bash -c`, `python3 -u`): the script still comes next.
            first = is_first && w.starts_with('-') && !script_seen;
            continue;
        }
        let path_like = w.contains('/')
            || [
                ".sh", ".bash", ".zsh", ".py", ".js", ".mjs", ".cjs", ".ts", ".rb", ".pl", ".php",
                ".ps1",
            ]
            .iter()
            .any(|x| w.ends_with(x));
        if !path_like {
            script_seen = true;
            continue;
        }
        out.push((w.to_string(), !script_seen));
        script_seen = true;
    }
}

struct Places<'a> {
    root: &'a Path,
    /// The project root or the home the file belongs to.
    base: &'a Path,
    folder: &'a Path,
    home: Option<&'a Path>,
}

impl Places<'_> {
    /// Where a word may name a file (none when it holds a variable polc cannot place).
    fn resolve(&self, w: &str) -> Vec<PathBuf> {
        let root = self.root.to_string_lossy();
        let mut s = w.to_string();
        for v in [
            "CLAUDE_PROJECT_DIR",
            "GEMINI_PROJECT_DIR",
            "CURSOR_PROJECT_DIR",
            "FACTORY_PROJECT_DIR",
            "CODEX_PROJECT_DIR",
            "PWD",
        ] {
            s = s
                .replace(&format!("${{{v}}}"), &root)
                .replace(&format!("${v}"), &root);
        }
        if let Some(h) = self.home {
            let h = h.to_string_lossy();
            s = s.replace("${HOME}", &h).replace("$HOME", &h);
            if let Some(rest) = s.strip_prefix("~/") {
                s = format!("{h}/{rest}");
            }
        }
        if s.contains('$') || s.starts_with('~') {
            return Vec::new();
        }
        let p = PathBuf::from(&s);
        if p.is_absolute() {
            return vec![p];
        }
        let mut v = vec![self.base.join(&p), self.folder.join(&p)];
        if self.base != self.root {
            v.push(self.root.join(&p));
        }
        v.dedup();
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_of_hook_commands() {
        let w = |c: &str| path_words(c, true);
        assert_eq!(
            w("\"$CLAUDE_PROJECT_DIR\"/scripts/guard.sh --strict"),
            vec![("$CLAUDE_PROJECT_DIR/scripts/guard.sh".to_string(), true)]
        );
        assert_eq!(
            w("bash scripts/x.sh ./conf/y.json"),
            vec![
                ("scripts/x.sh".to_string(), true),
                ("./conf/y.json".to_string(), false)
            ]
        );
        assert_eq!(
            w("/usr/bin/env python3 hooks/h.py"),
            vec![("hooks/h.py".to_string(), true)]
        );
        assert_eq!(w("polc hook --host claude"), vec![]);
        assert_eq!(w("npm run lint"), vec![]);
        assert_eq!(w("node server.js"), vec![("server.js".to_string(), true)]);
        // Outside a command field every path-like word asks.
        assert_eq!(
            path_words("scripts/a.sh", false),
            vec![("scripts/a.sh".to_string(), false)]
        );
    }

    #[test]
    fn scripts_of_a_project() {
        let d = tempfile::tempdir().unwrap();
        let root = d.path();
        std::fs::create_dir_all(root.join(".claude")).unwrap();
        std::fs::create_dir_all(root.join(".github/hooks")).unwrap();
        std::fs::write(
            root.join(".claude/settings.json"),
            r#"{"hooks":{"PreToolUse":[{"matcher":"*","hooks":[{"type":"command","command":"\"$CLAUDE_PROJECT_DIR\"/scripts/guard.sh"}]}]},
               "statusLine":{"type":"command","command":".claude/statusline.sh"},
               "apiKeyHelper":"scripts/key.sh"}"#,
        )
        .unwrap();
        std::fs::write(
            root.join(".mcp.json"),
            r#"{"mcpServers":{"x":{"command":"node","args":["./mcp/server.js","--port","1"]}}}"#,
        )
        .unwrap();
        std::fs::write(
            root.join(".github/hooks/pre.json"),
            r#"{"version":1,"hooks":{"preToolUse":[{"type":"command","bash":"./hooks/pre.sh"}]}}"#,
        )
        .unwrap();
        std::fs::create_dir_all(root.join(".codex")).unwrap();
        std::fs::write(
            root.join(".codex/config.toml"),
            "notify = [\"python3\", \"/opt/n/notify.py\"]\n",
        )
        .unwrap();
        let (got, bounded) = scripts(root, &[]);
        assert!(!bounded);
        for (rel, ask) in [
            ("scripts/guard.sh", false),
            (".claude/statusline.sh", false),
            ("scripts/key.sh", false),
            ("mcp/server.js", false),
            ("hooks/pre.sh", false),
        ] {
            assert!(got.contains(&(root.join(rel), ask)), "{rel}: {got:?}");
        }
        assert!(
            got.contains(&(PathBuf::from("/opt/n/notify.py"), true)),
            "{got:?}"
        );
    }

    /// Runner files (red team, session 8): every candidate is protected; the tripwire's list
    /// holds the existing ones that are not a package manager's manifest.
    #[test]
    fn runner_files_of_hook_commands() {
        let d = tempfile::tempdir().unwrap();
        let root = d.path();
        std::fs::create_dir_all(root.join(".claude")).unwrap();
        std::fs::write(
            root.join(".claude/settings.json"),
            r#"{"hooks":{"PostToolUse":[{"hooks":[{"type":"command","command":"npm run fmt && make lint"},{"type":"command","command":"bash -c 'source tools/env.sh; true'"}]}]}}"#,
        )
        .unwrap();
        std::fs::write(
            root.join("package.json"),
            r#"{"scripts":{"fmt":"node tools/f.js"}}"#,
        )
        .unwrap();
        std::fs::write(root.join("Makefile"), "lint:\n").unwrap();
        let (scripts, runners, bounded) = scripts_and_runners(root, &[]);
        assert!(!bounded);
        for f in [
            "package.json",
            "Makefile",
            "GNUmakefile",
            "tools/f.js",
            ".npmrc",
        ] {
            assert!(runners.contains(&root.join(f)), "{f}: {runners:?}");
        }
        assert!(
            scripts.contains(&(root.join("tools/env.sh"), false)),
            "{scripts:?}"
        );
        let (watched, _) = super::scripts(root, &[]);
        let w: Vec<&PathBuf> = watched.iter().map(|(p, _)| p).collect();
        assert!(w.contains(&&root.join("Makefile")), "{w:?}");
        assert!(!w.contains(&&root.join("package.json")), "{w:?}");
        assert!(!w.contains(&&root.join("GNUmakefile")), "{w:?}");
    }

    #[test]
    fn a_bound_met_is_reported() {
        let d = tempfile::tempdir().unwrap();
        let root = d.path();
        std::fs::create_dir_all(root.join(".github/hooks")).unwrap();
        for i in 0..65 {
            std::fs::write(root.join(format!(".github/hooks/h{i}.json")), "{}").unwrap();
        }
        assert!(scripts(root, &[]).1);
        let d = tempfile::tempdir().unwrap();
        let root = d.path();
        std::fs::create_dir_all(root.join(".claude")).unwrap();
        let many: Vec<String> = (0..5000).map(|i| format!("\"x{i}\"")).collect();
        std::fs::write(
            root.join(".claude/settings.json"),
            format!("[{}]", many.join(",")),
        )
        .unwrap();
        assert!(scripts(root, &[]).1);
    }
}
