//! The project files a configured command runs through a task runner or a module name
//! (red team, session 8, C8-hookindirect): a hook `npm run hook` runs package.json's
//! `scripts.hook`, `make hook` the Makefile's recipe, `python3 -m tools.hook` the file
//! `tools/hook.py`. The command line names none of them, yet rewriting one makes every later
//! hook run the agent's code; each is protected like a script the command names (deny).
//!
//! Per segment of the command (split at `;`, `&`, `|`, newlines; quotes dropped; a leading
//! `cd D` moves the segments after it into D; `env`, `exec`, `command`, assignments skipped):
//!
//! | runner | files (in the runner's folder: `-C D`, `--prefix D`, `--dir D`, …) |
//! |---|---|
//! | `npm`, `pnpm`, `yarn`, `bun`, `corepack`, `node --run` | `package.json`, `.npmrc`, `.yarnrc`, `.yarnrc.yml`, `.pnpmfile.cjs`, `bunfig.toml`; the script's own text (`scripts.X`) read as a command line (its script paths too) |
//! | `deno task` | `deno.json`, `deno.jsonc` |
//! | `make`, `gmake` | `Makefile`, `makefile`, `GNUmakefile`, `-f F`, and their `include` lines |
//! | `just` | `justfile`, `Justfile`, `.justfile`, `--justfile F` |
//! | `task` | `Taskfile.yml`/`.yaml` (also lower case and `.dist`), `--taskfile F` |
//! | `uv`, `poetry`, `pdm`, `hatch`, `rye`, `pipenv`, `tox`, `nox`, `invoke`, `fab` | `pyproject.toml` (`Pipfile`, `hatch.toml`, `tox.ini`, `noxfile.py`, `tasks.py`, `fabfile.py`); `run X` → X's entry point module (`X = "a.b:f"`), `.venv/bin/X` |
//! | `python -m a.b` (any runner's) | `a/b.py`, `a/b/__init__.py`, `a/b/__main__.py`, `a/__init__.py` (also under `src/`) |
//! | `cargo` | `Cargo.toml`, `build.rs`, `.cargo/config.toml` |
//! | `rake`, `gradle`, `mvn`, `composer`, `bundle`, `mise`, `turbo`, `nx`, `pre-commit`, `lefthook` | their configuration files |
//!
//! Bounded: each file read (package.json, Makefile, pyproject) at most 256 KiB, 32 files a
//! command.

use std::io::Read;
use std::path::{Path, PathBuf};

const MAX_READ: u64 = 256 << 10;
const MAX_FILES: usize = 32;

/// Files a command line's runners read, as words relative to the folder the command runs
/// in (or absolute), each the place it is read from. `read` opens a word's file for the
/// runners whose files name more (package.json scripts, Makefile includes, pyproject entry
/// points): it returns the file's text, if any.
pub(super) fn files(cmd: &str, read: &dyn Fn(&str) -> Option<String>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut dir: Option<String> = None;
    for seg in cmd.split(['\n', ';', '&', '|', '(', ')', '`']) {
        let words: Vec<String> = seg
            .split_whitespace()
            .map(|w| w.replace(['"', '\''], ""))
            .filter(|w| !w.is_empty())
            .collect();
        let words = skip_prefix(&words);
        let Some(prog) = words.first() else { continue };
        let base = prog.rsplit('/').next().unwrap_or(prog);
        if base == "cd" {
            if let Some(d) = words.get(1).filter(|d| !d.starts_with('-')) {
                dir = Some(under(dir.as_deref(), d));
            }
            continue;
        }
        let at = |w: &str| under(dir.as_deref(), w);
        runner(base, &words[1..], &at, read, &mut out);
        if out.len() > MAX_FILES {
            out.truncate(MAX_FILES);
            break;
        }
    }
    out.sort();
    out.dedup();
    out
}

/// `D/w` (or `w` when it is absolute or there is no D).
fn under(dir: Option<&str>, w: &str) -> String {
    match dir {
        Some(d) if !w.starts_with('/') && !w.starts_with('$') && !w.starts_with('~') => {
            format!("{}/{w}", d.trim_end_matches('/'))
        }
        _ => w.to_string(),
    }
}

/// The words from the program on: assignments, `env` (and its options), `exec`, `command`,
/// `nohup`, `time` skipped.
fn skip_prefix(words: &[String]) -> &[String] {
    let mut i = 0;
    while i < words.len() {
        let w = words[i].as_str();
        let base = w.rsplit('/').next().unwrap_or(w);
        if (w.contains('=') && !w.starts_with('-') && i == 0)
            || (i > 0 && w.contains('=') && !w.starts_with('-') && is_prefix(&words[i - 1]))
            || matches!(base, "env" | "exec" | "command" | "nohup" | "time" | "sudo")
            || (i > 0 && w.starts_with('-') && is_prefix(&words[i - 1]))
        {
            i += 1;
        } else {
            break;
        }
    }
    &words[i..]
}

fn is_prefix(w: &str) -> bool {
    let base = w.rsplit('/').next().unwrap_or(w);
    matches!(base, "env" | "exec" | "command" | "nohup" | "time" | "sudo") || w.contains('=')
}

/// The value of an option among `names` (`-C D`, `-CD`, `--dir=D`, `--dir D`).
fn opt(args: &[String], names: &[&str]) -> Option<String> {
    for (i, a) in args.iter().enumerate() {
        for n in names {
            if a == n {
                return args.get(i + 1).cloned();
            }
            if let Some(v) = a.strip_prefix(n) {
                if n.starts_with("--") {
                    if let Some(v) = v.strip_prefix('=') {
                        return Some(v.to_string());
                    }
                } else if !v.is_empty() && n.len() == 2 {
                    return Some(v.to_string());
                }
            }
        }
    }
    None
}

/// The first word that is not an option (skipping the values of `valued` options).
fn positional<'a>(args: &'a [String], valued: &[&str]) -> Option<&'a str> {
    let mut i = 0;
    while i < args.len() {
        let a = args[i].as_str();
        if valued.contains(&a) {
            i += 2;
            continue;
        }
        if !a.starts_with('-') {
            return Some(a);
        }
        i += 1;
    }
    None
}

/// Runners whose files do not depend on what they run: (programs, files).
const SIMPLE: &[(&[&str], &[&str])] = &[
    (&["deno"], &["deno.json", "deno.jsonc", "package.json"]),
    (
        &["just"],
        &["justfile", "Justfile", ".justfile", "JUSTFILE"],
    ),
    (
        &["task", "go-task"],
        &[
            "Taskfile.yml",
            "Taskfile.yaml",
            "taskfile.yml",
            "taskfile.yaml",
            "Taskfile.dist.yml",
            "Taskfile.dist.yaml",
        ],
    ),
    (&["tox"], &["tox.ini", "pyproject.toml", "setup.cfg"]),
    (&["nox"], &["noxfile.py"]),
    (&["invoke", "inv"], &["tasks.py", "invoke.yaml"]),
    (&["fab"], &["fabfile.py"]),
    (
        &["cargo"],
        &["Cargo.toml", "build.rs", ".cargo/config.toml"],
    ),
    (&["rake"], &["Rakefile", "rakefile", "Rakefile.rb"]),
    (
        &["gradle", "gradlew"],
        &[
            "build.gradle",
            "build.gradle.kts",
            "settings.gradle",
            "settings.gradle.kts",
        ],
    ),
    (&["mvn", "mvnw"], &["pom.xml", ".mvn/maven.config"]),
    (&["composer"], &["composer.json"]),
    (&["bundle"], &["Gemfile"]),
    (&["mise"], &["mise.toml", ".mise.toml"]),
    (&["turbo"], &["turbo.json", "package.json"]),
    (&["nx"], &["nx.json", "package.json", "project.json"]),
    (&["pre-commit"], &[".pre-commit-config.yaml"]),
    (&["lefthook"], &["lefthook.yml", "lefthook.yaml"]),
];

/// A runner's segment: its arguments, the folder it runs in, how to place and read words.
struct Run<'a> {
    args: &'a [String],
    dir: Option<String>,
    at: &'a dyn Fn(&str) -> String,
    read: &'a dyn Fn(&str) -> Option<String>,
}

impl Run<'_> {
    /// `f` in the runner's folder, placed.
    fn file(&self, f: &str) -> String {
        match &self.dir {
            Some(d) => (self.at)(&format!("{}/{f}", d.trim_end_matches('/'))),
            None => (self.at)(f),
        }
    }

    /// Each of `fs` in the runner's folder, and in the segment's own folder too when a
    /// folder option was read (a short option polc misread as one, `npm -d`, must not lose
    /// the files the runner does read).
    fn all(&self, fs: &[&str], out: &mut Vec<String>) {
        for f in fs {
            out.push(self.file(f));
            if self.dir.is_some() {
                out.push((self.at)(f));
            }
        }
    }
}

fn runner(
    prog: &str,
    args: &[String],
    at: &dyn Fn(&str) -> String,
    read: &dyn Fn(&str) -> Option<String>,
    out: &mut Vec<String>,
) {
    let dir = opt(
        args,
        &[
            "-C",
            "--prefix",
            "--dir",
            "--cwd",
            "--directory",
            "-d",
            "--working-directory",
            "--project",
        ],
    );
    let r = Run {
        args,
        dir,
        at,
        read,
    };
    let python = prog.starts_with("python") || prog.starts_with("pypy");
    if python || matches!(prog, "uv" | "poetry" | "pdm" | "hatch" | "rye" | "pipenv") {
        if let Some(m) = opt(args, &["-m"]) {
            modules(&m, at, out);
        }
    }
    match prog {
        "npm" | "pnpm" | "yarn" | "bun" | "corepack" => js_runner(&r, prog, out),
        "node" if args.iter().any(|a| a == "--run" || a.starts_with("--run=")) => {
            r.all(&["package.json", ".npmrc"], out)
        }
        "make" | "gmake" | "bmake" => make_runner(&r, out),
        "uv" | "poetry" | "pdm" | "hatch" | "rye" | "pipenv" | "uvx" => python_runner(&r, out),
        _ => {}
    }
    if let Some((_, fs)) = SIMPLE.iter().find(|(ps, _)| ps.contains(&prog)) {
        r.all(fs, out);
    }
    // A runner's own file option: `just --justfile F`, `task --taskfile F`.
    if matches!(prog, "just" | "task" | "go-task") {
        if let Some(f) = opt(args, &["-f", "--justfile", "-t", "--taskfile"]) {
            out.push(at(&f));
        }
    }
}

/// npm, pnpm, yarn, bun: their configuration, and the script run (`run X`, `run-script X`,
/// `test`, `start`; with yarn, pnpm and bun the bare name) read as a command line.
fn js_runner(r: &Run<'_>, prog: &str, out: &mut Vec<String>) {
    r.all(
        &[
            "package.json",
            ".npmrc",
            ".yarnrc",
            ".yarnrc.yml",
            ".pnpmfile.cjs",
            "bunfig.toml",
        ],
        out,
    );
    let valued = [
        "--prefix",
        "-C",
        "--dir",
        "--cwd",
        "-w",
        "--workspace",
        "--filter",
    ];
    let args = r.args;
    let mut pos = args
        .iter()
        .enumerate()
        .filter(|(i, a)| !(a.starts_with('-') || *i > 0 && valued.contains(&args[i - 1].as_str())))
        .map(|(_, a)| a.as_str());
    let name = match pos.next() {
        Some("run" | "run-script" | "rum" | "urn") => pos.next(),
        Some("t" | "tst") => Some("test"),
        Some(s @ ("test" | "start" | "stop" | "restart")) => Some(s),
        Some(s) if prog != "npm" => Some(s),
        _ => None,
    };
    if let (Some(name), Some(text)) = (name, (r.read)(&r.file("package.json"))) {
        package_script(&text, name, r.at, r.dir.as_deref(), out);
    }
}

/// make: the Makefiles (`-f F` too) and their `include` lines.
fn make_runner(r: &Run<'_>, out: &mut Vec<String>) {
    let mut fs: Vec<String> = Vec::new();
    r.all(&["Makefile", "makefile", "GNUmakefile"], &mut fs);
    if let Some(f) = opt(r.args, &["-f", "--file", "--makefile"]) {
        fs.push(r.file(&f));
    }
    for f in fs {
        if let Some(text) = (r.read)(&f) {
            for inc in make_includes(&text) {
                out.push(r.file(&inc));
            }
        }
        out.push(f);
    }
}

/// uv, poetry, pdm, hatch, rye, pipenv: the project files, and for `run X` X's entry point
/// module and `.venv/bin/X`.
fn python_runner(r: &Run<'_>, out: &mut Vec<String>) {
    let valued = [
        "--directory",
        "--project",
        "-C",
        "--with",
        "--python",
        "-p",
        "--env",
    ];
    r.all(
        &[
            "pyproject.toml",
            "Pipfile",
            "hatch.toml",
            "pdm.toml",
            "uv.toml",
        ],
        out,
    );
    let rest = match r.args.iter().position(|a| a == "run") {
        Some(i) => &r.args[i + 1..],
        None => r.args,
    };
    let Some(x) = positional(rest, &valued) else {
        return;
    };
    let base = x.rsplit('/').next().unwrap_or(x);
    if x.contains('/') || base.starts_with("python") {
        return;
    }
    out.push(r.file(&format!(".venv/bin/{x}")));
    if let Some(text) = (r.read)(&r.file("pyproject.toml")) {
        for m in entry_points(&text, x) {
            modules(&m, r.at, out);
        }
    }
}

/// The files `python -m a.b` may run.
fn modules(m: &str, at: &dyn Fn(&str) -> String, out: &mut Vec<String>) {
    if m.is_empty()
        || !m
            .chars()
            .all(|c| c.is_alphanumeric() || c == '_' || c == '.')
    {
        return;
    }
    let path = m.replace('.', "/");
    for pre in ["", "src/"] {
        for f in [
            format!("{pre}{path}.py"),
            format!("{pre}{path}/__init__.py"),
            format!("{pre}{path}/__main__.py"),
        ] {
            out.push(at(&f));
        }
        // Every package above it runs its `__init__.py` first.
        let parts: Vec<&str> = m.split('.').collect();
        for k in 1..parts.len() {
            out.push(at(&format!("{pre}{}/__init__.py", parts[..k].join("/"))));
        }
    }
}

/// `NAME = "pkg.mod:func"` lines of a pyproject (`[project.scripts]`,
/// `[tool.poetry.scripts]`): the modules of `name`'s entry point.
fn entry_points(text: &str, name: &str) -> Vec<String> {
    text.lines()
        .filter_map(|l| {
            let (k, v) = l.split_once('=')?;
            let k = k.trim().trim_matches(['"', '\'']);
            (k == name).then(|| {
                let v = v.trim().trim_matches(['"', '\'']);
                v.split(':').next().unwrap_or(v).trim().to_string()
            })
        })
        .collect()
}

/// A Makefile's `include`, `-include`, `sinclude` files (plain words only).
fn make_includes(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|l| {
            let l = l.trim_start();
            ["include ", "-include ", "sinclude "]
                .iter()
                .find_map(|p| l.strip_prefix(p))
        })
        .flat_map(|rest| {
            rest.split_whitespace()
                .map(str::to_string)
                .collect::<Vec<_>>()
        })
        .filter(|w| !w.contains('$') && !w.contains('*'))
        .take(MAX_FILES)
        .collect()
}

/// package.json's `scripts.NAME` (and its `pre`/`post` scripts) as command lines: the
/// script files they name, and their own runners' files.
fn package_script(
    text: &str,
    name: &str,
    at: &dyn Fn(&str) -> String,
    dir: Option<&str>,
    out: &mut Vec<String>,
) {
    let Ok(v) = serde_json::from_str::<serde_json::Value>(text) else {
        return;
    };
    let Some(scripts) = v.get("scripts").and_then(|s| s.as_object()) else {
        return;
    };
    for key in [
        format!("pre{name}"),
        name.to_string(),
        format!("post{name}"),
    ] {
        let Some(line) = scripts.get(&key).and_then(|s| s.as_str()) else {
            continue;
        };
        for (w, _) in super::referenced::path_words(line, true) {
            out.push(match dir {
                Some(d) => at(&format!("{}/{w}", d.trim_end_matches('/'))),
                None => at(&w),
            });
        }
        // One level: the script's own runners (`"hook": "make hook"`), no further reads.
        let none = |_: &str| None;
        for f in files(line, &none) {
            out.push(match dir {
                Some(d) if !f.starts_with('/') => format!("{}/{f}", d.trim_end_matches('/')),
                _ => f,
            });
        }
    }
}

/// A package manager's manifest, which its own commands rewrite (`npm install x` adds to
/// package.json): protected from writes, not watched by the tripwire.
pub(super) fn is_manifest(p: &Path) -> bool {
    p.file_name().and_then(|n| n.to_str()).is_some_and(|n| {
        matches!(
            n,
            "package.json"
                | "pyproject.toml"
                | "Cargo.toml"
                | "composer.json"
                | "Gemfile"
                | "Pipfile"
                | "deno.json"
                | "deno.jsonc"
                | "pom.xml"
        )
    })
}

/// Read a file's text for [`files`], bounded.
pub(super) fn read_text(p: &Path) -> Option<String> {
    let f = std::fs::File::open(p).ok()?;
    if !f.metadata().ok()?.is_file() {
        return None;
    }
    let mut s = String::new();
    f.take(MAX_READ).read_to_string(&mut s).ok()?;
    Some(s)
}

/// The first existing place of a word among `places` (for reading).
pub(super) fn first_existing(places: &[PathBuf]) -> Option<&PathBuf> {
    places.iter().find(|p| p.is_file())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(cmd: &str) -> Vec<String> {
        files(cmd, &|_| None)
    }

    #[test]
    fn runners_name_their_files() {
        assert!(f("npm run hook").contains(&"package.json".to_string()));
        assert!(f("npm --prefix web run lint").contains(&"web/package.json".to_string()));
        assert!(f("make hook").contains(&"Makefile".to_string()));
        assert!(f("make -C sub -f x.mk lint").contains(&"sub/x.mk".to_string()));
        assert!(f("just hook").contains(&"justfile".to_string()));
        assert!(f("task hook").contains(&"Taskfile.yml".to_string()));
        assert!(f("uv run hookx").contains(&"pyproject.toml".to_string()));
        assert!(f("uv run hookx").contains(&".venv/bin/hookx".to_string()));
        let m = f("python3 -m tools.hook");
        for w in [
            "tools/hook.py",
            "tools/__init__.py",
            "tools/hook/__main__.py",
        ] {
            assert!(m.contains(&w.to_string()), "{w}: {m:?}");
        }
        assert!(f("cd web && npm test").contains(&"web/package.json".to_string()));
        assert!(f("FOO=1 env -i make lint").contains(&"Makefile".to_string()));
        assert!(f("echo hi").is_empty());
        assert!(f("polc hook --host claude").is_empty());
    }

    #[test]
    fn files_the_runners_read_name_more() {
        let read = |w: &str| -> Option<String> {
            match w {
                "package.json" => Some(
                    r#"{"scripts":{"hook":"node tools/h.js && make x","prehook":"sh pre.sh"}}"#
                        .into(),
                ),
                "Makefile" => Some("include rules.mk\n-include $(X).mk\nall:\n".into()),
                "pyproject.toml" => Some("[project.scripts]\nhookx = \"tools.hook:main\"\n".into()),
                _ => None,
            }
        };
        let got = files("npm run hook", &read);
        for w in ["tools/h.js", "pre.sh", "Makefile"] {
            assert!(got.contains(&w.to_string()), "{w}: {got:?}");
        }
        assert!(files("make", &read).contains(&"rules.mk".to_string()));
        assert!(files("uv run hookx", &read).contains(&"tools/hook.py".to_string()));
    }
}
