//! The protected paths of one request, and the questions self-protection asks of them.

use super::super::layers::LoadedLayer;
use super::super::{Context, RuleDesc};
use crate::ir::Verdict;
use crate::paths::{canonical_memo as canonical, normalize};
use crate::pattern::WILD;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

/// A protected entry: a file, a folder (everything inside), or files named
/// `prefix*suffix` directly in a folder. `ask` entries ask instead of deny (code the
/// agent's own tools run: `.git/hooks/`, `.git/config`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Entry {
    File(PathBuf, bool),
    Dir(PathBuf, bool),
    Named(PathBuf, &'static str, &'static str),
}

/// A path asked about, with whether it is [`clean`].
struct Probe<'a> {
    path: &'a Path,
    clean: bool,
}

impl<'a> Probe<'a> {
    fn new(path: &'a Path) -> Probe<'a> {
        Probe {
            path,
            clean: clean(bytes(path)),
        }
    }
}

fn bytes(p: &Path) -> &[u8] {
    p.as_os_str().as_encoded_bytes()
}

/// An absolute path whose `Path::components` are exactly its `/`-separated pieces: no
/// empty piece (`//`, a trailing `/`) and no `.` piece, which `components` skips.
fn clean(b: &[u8]) -> bool {
    if b == b"/" {
        return true;
    }
    // (`memmem::find` here built a searcher per call: 1.9 M instructions a command.)
    b.first() == Some(&b'/')
        && b[1..]
            .split(|&c| c == b'/')
            .all(|piece| !piece.is_empty() && piece != b".")
}

/// `p.starts_with(base)` (component-wise), on bytes when both are [`clean`].
fn starts_with(p: &Path, base: &Probe<'_>) -> bool {
    let (pb, bb) = (bytes(p), bytes(base.path));
    if base.clean && clean(pb) {
        return pb.starts_with(bb) && (pb.len() == bb.len() || bb == b"/" || pb[bb.len()] == b'/');
    }
    p.starts_with(base.path)
}

/// Case-folded for comparison. `to_lowercase` leaves LONG S (`ſ`, U+017F) alone, but Unicode
/// case folding (what case-insensitive volumes and the path rules' `(?i)` use) maps it to
/// `s`: `.claude/ſettings.json` is `settings.json` there (red team, session 5). (The Kelvin
/// sign already lowercases to `k`.)
fn fold(p: &Path) -> PathBuf {
    PathBuf::from(p.to_string_lossy().to_lowercase().replace('\u{17F}', "s"))
}

impl Entry {
    fn folded(&self) -> Entry {
        match self {
            Entry::File(p, a) => Entry::File(fold(p), *a),
            Entry::Dir(p, a) => Entry::Dir(fold(p), *a),
            Entry::Named(p, a, b) => Entry::Named(fold(p), a, b),
        }
    }
    fn path(&self) -> &Path {
        match self {
            Entry::File(p, _) | Entry::Dir(p, _) | Entry::Named(p, _, _) => p,
        }
    }
    fn ask(&self) -> bool {
        matches!(self, Entry::File(_, true) | Entry::Dir(_, true))
    }
    /// Is `p` this entry or inside it?
    fn covers(&self, p: &Path) -> bool {
        self.covers_probe(&Probe::new(p))
    }

    /// [`Self::covers`] with `p`'s cleanness found once for all entries (a 10 kB path
    /// checked against ~350 entries).
    fn covers_probe(&self, p: &Probe<'_>) -> bool {
        let eb = bytes(self.path());
        if p.clean && clean(eb) {
            return self.covers_clean(bytes(p.path), eb);
        }
        self.covers_std(p.path)
    }

    /// [`Self::covers`] on bytes, for paths whose components are exactly their
    /// `/`-separated pieces ([`clean`]): the same answer as `Path`'s component-wise
    /// comparison, without parsing components (`Path::starts_with` over ~350 entries was
    /// most of self-protection's cost, and 17 M instructions for one 10 kB argument).
    fn covers_clean(&self, p: &[u8], e: &[u8]) -> bool {
        match self {
            Entry::File(..) => p == e,
            Entry::Dir(..) => {
                p.starts_with(e) && (p.len() == e.len() || e == b"/" || p[e.len()] == b'/')
            }
            Entry::Named(_, pre, suf) => {
                // `parent()` of `/` is None; `file_name()` of `…/..` is None.
                let Some(i) = p.iter().rposition(|&b| b == b'/') else {
                    return false;
                };
                let (parent, name) = (if i == 0 { &p[..1] } else { &p[..i] }, &p[i + 1..]);
                p.len() > 1
                    && name != b".."
                    && parent == e
                    && std::str::from_utf8(name)
                        .is_ok_and(|n| n.starts_with(pre) && n.ends_with(suf))
            }
        }
    }

    fn covers_std(&self, p: &Path) -> bool {
        match self {
            Entry::File(f, _) => p == f,
            Entry::Dir(d, _) => p.starts_with(d),
            Entry::Named(d, pre, suf) => {
                p.parent() == Some(d.as_path())
                    && p.file_name()
                        .and_then(|n| n.to_str())
                        .is_some_and(|n| n.starts_with(pre) && n.ends_with(suf))
            }
        }
    }
}

/// The set of protected paths for one request.
///
/// Gathering is lazy: resolving some 60 paths (symbolic links, the `PATH` scan for polc's
/// binaries) costs more than most decisions, and a request that names no path and runs no
/// program that could be polc never needs it (issue 16). [`Protected::gather`] only records
/// what to gather from; the first question gathers, once.
#[derive(Clone, Debug, Default)]
pub struct Protected {
    /// Each loaded table and its sources, absolute (what `gather` was given).
    tables: Vec<(PathBuf, Vec<PathBuf>)>,
    pub(super) config_dir: Option<PathBuf>,
    entries: std::cell::OnceCell<Vec<Entry>>,
    /// Other roots polc knows (`others.rs`), read on the first write looked at.
    pub(super) others: std::cell::OnceCell<super::others::Others>,
    /// The entries case-folded (computed on first need, not once per question).
    folded: std::cell::OnceCell<Vec<Entry>>,
    pub(super) home: Option<PathBuf>,
    /// The home from the password database and, when it differs, `$HOME` (agents read
    /// their user configuration under `$HOME`; `~` may name either).
    pub(super) homes: Vec<PathBuf>,
    pub(super) project_root: PathBuf,
    /// polc's binary and every `polc` in a `PATH` folder ahead of it (see `binaries()`).
    binaries: std::cell::OnceCell<Vec<PathBuf>>,
    /// (device, inode) of the protected files that exist, computed on first need (a write
    /// target with more than one link).
    inodes: std::cell::OnceCell<Inodes>,
    /// The programs that run the agent and its hooks, and the files they load (see
    /// [`Protected::programs`]): denied by prefix, not entries.
    programs: std::cell::OnceCell<Vec<PathBuf>>,
}

/// A path inside any git folder (`.git` anywhere, any case), or that folder itself: git runs
/// the commands its `config` and `hooks/` name, and a *nested* repository's folder is the one
/// git uses for commands run below it (`git init -q src/sub && tee -a src/sub/.git/config`,
/// then `cd src/sub && git status` ran an fsmonitor command: red team, session 5). A `.git`
/// *file* (`gitdir: ELSEWHERE`) points git at another folder's configuration. Writes ask.
pub(super) fn in_git_dir(p: &Path) -> bool {
    bytes(p)
        .split(|&b| b == b'/')
        .any(|c| c.eq_ignore_ascii_case(b".git"))
}

/// Configuration the build and test runners read from the folder they run in or any folder
/// above it (`src/.cargo/config.toml` for `cargo build` run in `src/`, `src/pytest.ini` for
/// `pytest src`), at any depth: writes ask, as at the root (red team, session 6).
const RUNNER_CONFIG: &[&[u8]] = &[
    b"/.cargo/config.toml",
    b"/.cargo/config",
    b"/rust-toolchain.toml",
    b"/rust-toolchain",
    b"/.npmrc",
    b"/.yarnrc",
    b"/.yarnrc.yml",
    b"/bunfig.toml",
    b"/pytest.ini",
    b"/.pytest.ini",
    // pytest 9's TOML configuration (highest precedence: red team, session 7).
    b"/pytest.toml",
    b"/.pytest.toml",
    // pytest's other configuration files, coverage's, tox's commands, and the version
    // managers' files that choose which `go`/`python`/`node` binary runs (`path:/tmp/x`).
    b"/tox.ini",
    b"/setup.cfg",
    b"/.coveragerc",
    b"/.tool-versions",
    b"/mise.toml",
    b"/.mise.toml",
    b"/mise.local.toml",
    b"/.mise.local.toml",
    b"/.config/mise/config.toml",
    b"/.python-version",
    b"/.go-version",
    b"/.node-version",
    b"/.nvmrc",
    b"/.ruby-version",
    b"/.huskyrc",
    b"/.huskyrc.json",
    b"/.huskyrc.js",
    b"/.huskyrc.yaml",
    b"/.huskyrc.yml",
    b"/husky.config.js",
    b"/husky.config.cjs",
    b"/lint-staged.config.ts",
    b"/.lintstagedrc.ts",
];

pub(super) fn runner_config(p: &Path) -> bool {
    let b = bytes(p);
    RUNNER_CONFIG
        .iter()
        .any(|s| b.len() >= s.len() && b[b.len() - s.len()..].eq_ignore_ascii_case(s))
        || nested_agent_folder(b)
        || startup_code(b)
}

/// System-scope configuration of the tools the shipped policy allows (red team, session 8,
/// for agents running as root): git's system `gitconfig` (`core.fsmonitor` runs under `git
/// status`) and template hooks, npm's global `npmrc`, pip's system configuration, a
/// `CARGO_HOME` outside the home, Go's `GOROOT/go.env`.
const SYSTEM_CONFIG: &[&[u8]] = &[
    b"/etc/gitconfig",
    b"/etc/npmrc",
    b"/etc/pip.conf",
    b"/etc/xdg/pip/pip.conf",
    b"/cargo/config.toml",
    b"/cargo/config",
    b"/go/go.env",
    b"/pyvenv.cfg",
];

/// Code an interpreter or an allowed runner loads by itself (red team, session 8): Python's
/// start-up files (`*.pth` in a `site-packages`/`dist-packages` folder, `sitecustomize.py`,
/// `usercustomize.py`, a venv's `pyvenv.cfg`), the commands of a project environment
/// (`.venv/bin/*`, `venv/bin/*`, `node_modules/.bin/*`: `pytest`, `jest`), a Go release's
/// `go.env` (`/usr/lib/go-1.19/go.env`), git's template hooks, and [`SYSTEM_CONFIG`]. Writes
/// ask, at any depth.
fn startup_code(b: &[u8]) -> bool {
    let parts: Vec<&[u8]> = b.split(|&c| c == b'/').collect();
    let Some((name, dirs)) = parts.split_last() else {
        return false;
    };
    let lower = name.to_ascii_lowercase();
    let parent = dirs.last().copied().unwrap_or_default();
    let in_site = dirs.iter().any(|d| {
        d.eq_ignore_ascii_case(b"site-packages") || d.eq_ignore_ascii_case(b"dist-packages")
    });
    (in_site && lower.ends_with(b".pth"))
        || lower == b"sitecustomize.py"
        || lower == b"usercustomize.py"
        || (dirs.len() >= 2
            && parent == b"bin"
            && matches!(dirs[dirs.len() - 2], b".venv" | b"venv" | b"env" | b".env"))
        || (parent == b".bin" && dirs.len() >= 2 && dirs[dirs.len() - 2] == b"node_modules")
        || (lower == b"go.env" && dirs.last().is_some_and(|d| d.starts_with(b"go")))
        || dirs
            .windows(3)
            .any(|w| w == [&b"git-core"[..], b"templates", b"hooks"])
        || SYSTEM_CONFIG
            .iter()
            .any(|s| b.len() >= s.len() && b[b.len() - s.len()..].eq_ignore_ascii_case(s))
}

/// A `.claude/skills|commands|agents|hooks` folder below the root (Claude Code also loads
/// skills and commands from nested `.claude` folders of the tree it works in: red team,
/// session 6): writes ask, as the root's are denied.
fn nested_agent_folder(b: &[u8]) -> bool {
    let parts: Vec<&[u8]> = b.split(|&c| c == b'/').collect();
    parts.windows(2).any(|w| {
        w[0].eq_ignore_ascii_case(b".claude")
            && [
                &b"skills"[..],
                b"commands",
                b"agents",
                b"hooks",
                b"output-styles",
            ]
            .iter()
            .any(|n| w[1].eq_ignore_ascii_case(n))
    })
}

/// A copy polc's `init` keeps of a host's configuration (`settings.json.polc-backup`):
/// `polc init --uninstall` writes it back, so it is hook configuration too.
pub(super) fn polc_backup(p: &Path) -> bool {
    let b = bytes(p);
    let suffix = b".polc-backup";
    b.len() >= suffix.len() && b[b.len() - suffix.len()..].eq_ignore_ascii_case(suffix)
}

/// The last names of the paths self-protection denies (files and folders of agents' hook
/// configuration, polc's tables, sources and trust list): what a host that does not say
/// which folder a command runs in (Codex, Copilot CLI) asks about for relative writes.
/// Derived from the lists below, so a path protected later is covered there too.
pub fn protected_names() -> Vec<&'static str> {
    let base = |p: &'static str| p.rsplit('/').next().unwrap_or(p);
    let mut v: Vec<&'static str> = PROJECT_FILES
        .iter()
        .chain(PROJECT_DIRS)
        .chain(HOME_FILES)
        .chain(HOME_DIRS)
        .chain(super::super::layers::PROJECT_TABLES)
        .map(|p| base(p))
        .chain([
            "settings.json",
            "settings.local.json",
            "permcheck.json",
            "policies",
            "compiled",
            super::super::trust::TRUST_FILE,
        ])
        .collect();
    v.sort_unstable();
    v.dedup();
    v
}

/// Hook configuration and other agent configuration under the project root: files, and
/// folders dedicated to it (protected as a whole).
pub(super) const PROJECT_FILES: &[&str] = &[
    ".mcp.json",
    ".gemini/settings.json",
    ".cursor/hooks.json",
    ".cursor/cli.json",
    ".vscode/settings.json",
    ".factory/settings.json",
    "opencode.json",
    ".vibe/config.toml",
    ".vscode/mcp.json",
    ".cursor/mcp.json",
    ".factory/mcp.json",
    // Watched by the tripwire too (`tripwire::WATCHED`; a test ties the two lists): a write
    // there must not land before the next call notices it.
    ".vscode/tasks.json",
    "opencode.jsonc",
    // Droid's local overrides (hooks, `commandAllowlist`), Copilot CLI's repository
    // settings (plugins and marketplaces): red team, session 6.
    ".factory/settings.local.json",
    ".factory/hooks.json",
    // Gemini CLI loads `.gemini/.env` into its environment (variables that move its
    // settings and folder trust): red team, session 7.
    ".gemini/.env",
];
pub(super) const PROJECT_DIRS: &[&str] = &[
    ".github/hooks",
    ".codex",
    ".polc",
    ".claude/hooks",
    ".claude/commands",
    ".claude/agents",
    ".claude/skills",
    ".claude/output-styles",
    ".opencode/plugin",
    ".gemini/extensions",
    ".github/agents",
    ".github/skills",
    ".agents/skills",
    ".factory/droids",
    ".factory/hooks",
    // Droid's custom commands may be executable scripts (red team, session 5).
    ".factory/commands",
    ".gemini/policies",
    ".gemini/commands",
    ".agents",
    ".vibe",
    ".opencode",
    ".factory/skills",
    ".github/copilot",
    // The conventional folders of Cursor's and Gemini CLI's hook scripts (red team,
    // session 6); scripts elsewhere are found through the configuration that runs them.
    ".cursor/hooks",
    ".gemini/hooks",
];
/// Where the agent's own tools run code from: writes ask.
/// (`.git/commondir` and `.git/config.worktree` point git at another configuration, whose
/// `core.fsmonitor` or hooks then run: red team, session 3.)
/// Git hook managers keep the hooks git runs in the work tree (`core.hooksPath` set to
/// `.husky` or `.githooks`, or a config listing commands): a write there runs at the next
/// `git commit` (red team, session 4).
const PROJECT_ASK: &[&str] = &[
    ".git/hooks",
    ".git/config",
    ".git/config.worktree",
    ".git/commondir",
    ".husky",
    ".githooks",
    ".pre-commit-config.yaml",
    "lefthook.yml",
    ".lefthook.yml",
    "lefthook.yaml",
    // The other spellings of the hook managers' configuration (red team, session 5).
    "lefthook.toml",
    "lefthook.json",
    "lefthook-local.yml",
    "lefthook-local.yaml",
    "lefthook-local.toml",
    "lefthook-local.json",
    ".lefthook.toml",
    ".lefthook.json",
    ".lefthook-local.yml",
    ".config/lefthook.yml",
    ".config/lefthook.yaml",
    ".lintstagedrc",
    ".lintstagedrc.json",
    ".lintstagedrc.yaml",
    ".lintstagedrc.yml",
    ".lintstagedrc.js",
    ".lintstagedrc.cjs",
    ".lintstagedrc.mjs",
    "lint-staged.config.js",
    "lint-staged.config.cjs",
    "lint-staged.config.mjs",
    "captainhook.json",
    "rusty-hook.toml",
    ".rusty-hook.toml",
    ".overcommit.yml",
    ".simple-git-hooks.json",
    ".simple-git-hooks.js",
    ".simple-git-hooks.cjs",
    "simple-git-hooks.json",
    // Configuration that makes the build and test runners a policy allows run another
    // program (`[build] rustc-wrapper`, a toolchain `path`, `script-shell`, `addopts`):
    // red team, session 5.
    ".cargo/config.toml",
    ".cargo/config",
    "rust-toolchain.toml",
    "rust-toolchain",
    ".npmrc",
    ".yarnrc",
    ".yarnrc.yml",
    "bunfig.toml",
    "pytest.ini",
    ".pytest.ini",
    "pytest.toml",
    ".pytest.toml",
];
const HOME_FILES: &[&str] = &[
    ".gemini/settings.json",
    ".cursor/hooks.json",
    ".cursor/cli-config.json",
    ".codex/hooks.json",
    ".codex/config.toml",
    ".factory/settings.json",
    ".copilot/config.json",
    ".claude.json",
    // OpenClaw's configuration (plugins, the polc hook's entry): red team, session 6.
    ".openclaw/openclaw.json",
    ".copilot/mcp-config.json",
    // User-scope files that make an agent run or approve commands (red team, session 7):
    // user MCP servers, Droid's user hooks file, Gemini's environment and folder trust,
    // Claude's plugin registry, VS Code's user settings (`chat.tools.*.autoApprove`) and
    // MCP servers.
    ".cursor/mcp.json",
    ".factory/mcp.json",
    ".factory/hooks.json",
    ".factory/settings.local.json",
    ".gemini/.env",
    ".gemini/trustedFolders.json",
    ".gemini/system-defaults.json",
    ".config/Code/User/settings.json",
    ".config/Code/User/mcp.json",
    ".config/Code - Insiders/User/settings.json",
    ".config/Code - Insiders/User/mcp.json",
    ".config/VSCodium/User/settings.json",
    "Library/Application Support/Code/User/settings.json",
    "Library/Application Support/Code/User/mcp.json",
    ".vscode-server/data/Machine/settings.json",
    ".vscode-server/data/User/settings.json",
    ".cursor-server/data/Machine/settings.json",
];
const HOME_ASK: &[&str] = &[
    ".gitconfig",
    ".config/git/config",
    ".config/git/attributes",
    ".config/go/env",
    ".cargo/config.toml",
    ".cargo/config",
    ".npmrc",
    ".config/pip/pip.conf",
    ".pip/pip.conf",
];
const HOME_DIRS: &[&str] = &[
    ".claude/hooks",
    ".claude/commands",
    ".claude/agents",
    ".claude/skills",
    ".claude/output-styles",
    ".vibe",
    ".copilot/hooks",
    ".config/opencode",
    ".factory/commands",
    ".factory/droids",
    ".factory/hooks",
    ".openclaw/extensions",
    // Red team, session 7: Claude's installed plugins (their hooks run in every session),
    // Gemini's user policies, extensions and commands, Codex's execpolicy rules.
    ".claude/plugins",
    ".gemini/policies",
    ".gemini/extensions",
    ".gemini/commands",
    ".codex/rules",
    ".codex/skills",
    // Red team, session 8: Claude Code sources these before every Bash command (hook
    // environment files, its shell snapshot): a function there replaces any command.
    ".claude/session-env",
    ".claude/shell-snapshots",
    ".copilot/agents",
    ".copilot/skills",
];
const SYSTEM_DIRS: &[&str] = &[
    "/etc/polc",
    "/etc/claude-code",
    "/etc/codex",
    "/etc/gemini-cli",
];

/// Red team, session 8 (agents running as root: containers, CI): the agents' managed
/// settings on macOS, the dynamic loader's configuration and the system libraries every
/// process (polc's hook and the agent included) loads. Checked by prefix
/// ([`Protected::programs`]), never walked (the inode listing's bound).
const SYSTEM_PROGRAM_DIRS: &[&str] = &[
    "/Library/Application Support/ClaudeCode",
    "/Library/Application Support/GeminiCli",
    "/Library/Application Support/Codex",
    "/etc/ld.so.conf.d",
    "/lib/x86_64-linux-gnu",
    "/usr/lib/x86_64-linux-gnu",
    "/lib/aarch64-linux-gnu",
    "/usr/lib/aarch64-linux-gnu",
    "/lib64",
    "/usr/lib64",
];

/// System files every process or the agent's hook runner loads (red team, session 8): the
/// dynamic loader's preload list and cache, the name service switch and password database,
/// the shells a hook command runs in, `node` and `env`.
const SYSTEM_FILES: &[&str] = &[
    "/etc/ld.so.preload",
    "/etc/ld.so.cache",
    "/etc/ld.so.conf",
    "/etc/nsswitch.conf",
    "/etc/passwd",
    "/bin/sh",
    "/usr/bin/sh",
    "/bin/bash",
    "/usr/bin/bash",
    "/bin/dash",
    "/usr/bin/dash",
    "/bin/zsh",
    "/usr/bin/zsh",
    "/usr/bin/env",
    "/usr/bin/node",
    "/usr/local/bin/node",
    "/opt/homebrew/bin/node",
];

/// The agents' programs (red team, session 8: rewriting Claude Code's `cli.js` removes its
/// hooks): their npm packages under the usual global prefixes, their commands in the usual
/// `bin` folders, their home-folder installs.
const AGENT_PACKAGES: &[&str] = &[
    "@anthropic-ai/claude-code",
    "@google/gemini-cli",
    "@openai/codex",
    "@github/copilot",
    "@qwen-code/qwen-code",
    "opencode-ai",
    "@factory/cli",
    "@mistralai/mistral-vibe",
];
const NODE_PREFIXES: &[&str] = &[
    "/usr/lib/node_modules",
    "/usr/local/lib/node_modules",
    "/opt/homebrew/lib/node_modules",
];
const AGENT_COMMANDS: &[&str] = &[
    "claude",
    "gemini",
    "codex",
    "copilot",
    "droid",
    "cursor-agent",
    "vibe",
    "opencode",
    "qwen",
];
const BIN_DIRS: &[&str] = &["/usr/bin", "/usr/local/bin", "/opt/homebrew/bin", "/bin"];
/// Home-relative: folders holding an agent's install, and its command's folders.
const HOME_PROGRAM_DIRS: &[&str] = &[
    ".local/share/claude",
    ".claude/local",
    ".factory/bin",
    ".local/share/cursor-agent",
    ".npm-global/lib/node_modules/@anthropic-ai",
    ".npm-global/lib/node_modules/@google",
    ".npm-global/lib/node_modules/@openai",
];
const HOME_BIN_DIRS: &[&str] = &[".local/bin", ".npm-global/bin", ".bun/bin", "bin"];

/// Agent configuration whose presence makes a work-tree rewrite ask (checked with `stat`;
/// the hook never runs git).
const AGENT_CONFIG: &[&str] = &[
    ".claude/settings.json",
    ".claude/settings.local.json",
    ".claude/hooks",
    ".claude/commands",
    ".mcp.json",
    ".gemini/settings.json",
    ".github/hooks",
    ".cursor/hooks.json",
    ".codex",
    ".vscode/settings.json",
    ".factory/settings.json",
    ".vibe",
    ".opencode",
    "opencode.json",
    ".vscode/mcp.json",
    ".cursor/mcp.json",
    ".gemini/extensions",
    ".github/agents",
    ".agents",
];

impl Protected {
    /// What to gather the protected paths from: the loaded layers, the config folder and the
    /// project (nothing is resolved until a question needs it).
    pub fn gather(
        loaded: &[LoadedLayer],
        config_dir: Option<&Path>,
        project_root: &Path,
    ) -> Protected {
        let home = super::super::trust::passwd_home();
        let root = normalize(project_root);
        let mut homes: Vec<PathBuf> = home.iter().cloned().collect();
        if let Some(h) = std::env::var_os("HOME")
            .map(PathBuf::from)
            .filter(|h| h.is_absolute())
            .map(|h| normalize(&h))
        {
            // Only adds protection: the agents' user configuration under `$HOME` too.
            if !homes.contains(&h) {
                homes.push(h);
            }
        }
        let tables = loaded
            .iter()
            .map(|l| {
                let table = absolute(&l.spec.path, project_root);
                let folder = table.parent().map(Path::to_path_buf);
                let sources = l
                    .table
                    .meta()
                    .sources
                    .iter()
                    // A folder's listing stamp: the folder is protected through its files.
                    .filter(|s| s.size != crate::ir::DIR_STAMP)
                    .map(|s| {
                        let sp = Path::new(&s.path);
                        normalize(&match &folder {
                            Some(f) if sp.is_relative() => f.join(sp),
                            _ => sp.to_path_buf(),
                        })
                    })
                    .collect();
                (table, sources)
            })
            .collect();
        Protected {
            tables,
            config_dir: config_dir.map(Path::to_path_buf),
            home,
            homes,
            project_root: root,
            ..Protected::default()
        }
    }

    /// Is `p` one of the loaded tables' sources, or inside a source's folder other than the
    /// project root (the agent cannot write them: their text and includes are the person's)?
    pub(super) fn is_policy_source(&self, p: &Path) -> bool {
        let p = normalize(p);
        self.tables.iter().any(|(_, sources)| {
            sources.iter().any(|s| {
                *s == p
                    || s.parent()
                        .is_some_and(|d| !self.project_root.starts_with(d) && p.starts_with(d))
            })
        })
    }

    /// polc's binary and every `polc` in a `PATH` folder ahead of it, found on first need.
    pub(super) fn binaries(&self) -> &[PathBuf] {
        self.binaries.get_or_init(binaries)
    }

    /// The protected entries, resolved on first need.
    fn entries(&self) -> &[Entry] {
        self.entries.get_or_init(|| {
            let mut out = Vec::new();
            self.collect(&mut |e| add(&mut out, e));
            out
        })
    }

    fn collect(&self, add: &mut dyn FnMut(Entry)) {
        let (root, home) = (&self.project_root, &self.home);
        for (table, sources) in &self.tables {
            add(Entry::File(table.clone(), false));
            for abs in sources {
                // A source's folder (`policies/`) is protected as a whole: a new file there
                // changes what the next build compiles. Not when it is the project root or
                // above it (a root `permcheck.json` protects that file only).
                if let Some(d) = abs.parent() {
                    if !root.starts_with(d) && Some(d) != home.as_deref() {
                        add(Entry::Dir(d.to_path_buf(), false));
                    }
                }
                add(Entry::File(abs.clone(), false));
            }
        }
        for rel in super::super::layers::PROJECT_TABLES {
            add(Entry::File(root.join(rel), false));
        }
        add(Entry::File(root.join("permcheck.json"), false));
        if let Some(c) = &self.config_dir {
            add(Entry::Dir(c.clone(), false));
        }
        if let Some(c) = crate::table::cache_dir() {
            add(Entry::Dir(c, false));
        }
        add(Entry::Named(root.join(".claude"), "settings", ".json"));
        for f in PROJECT_FILES {
            add(Entry::File(root.join(f), false));
        }
        self.collect_loaded(add);
        for d in PROJECT_DIRS {
            add(Entry::Dir(root.join(d), false));
            for t in linked_targets(&root.join(d)) {
                add(Entry::Dir(t, false));
            }
        }
        for d in PROJECT_ASK {
            add(Entry::Dir(root.join(d), true));
        }
        // The folder a repository's `core.hooksPath` names: git runs its hooks from there
        // (red team, session 6: `.githooks/pre-commit` written, then the allowed `git
        // commit`). Writes ask, as in `.git/hooks`.
        if let Some(d) = hooks_path(root) {
            add(Entry::Dir(d, true));
        }
        // A `.git` file (`gitdir: DIR`: `git init --separate-git-dir`, worktrees,
        // submodules) puts the repository's configuration and hooks in DIR: writes there ask
        // as they do in `.git/` (red team, session 7).
        if let Some(d) = separate_git_dir(root) {
            add(Entry::Dir(d, true));
        }
        // The scripts the agents' configuration runs (hooks, status lines, MCP servers).
        // With them, every file a configured task runner or module name runs (`npm run x`:
        // package.json; `make x`: the Makefiles; `python3 -m a.b`: a/b.py), existing or not.
        let (mut scripts, runners, bounded) =
            super::referenced::scripts_and_runners(root, &self.homes);
        scripts.extend(runners.into_iter().map(|p| (p, false)));
        for (p, ask) in scripts {
            // A word ending in `/` names a folder (a `PATH` entry of a settings `env`).
            if p.as_os_str().as_encoded_bytes().ends_with(b"/") {
                add(Entry::Dir(p, ask));
            } else {
                add(Entry::File(p, ask));
            }
        }
        // A bound met reading the configuration: a script it runs may be missing, so every
        // write under the project and the homes asks.
        if bounded {
            add(Entry::Dir(root.clone(), true));
            for h in &self.homes {
                add(Entry::Dir(h.clone(), true));
            }
        }
        self.collect_homes(add);
        // polc's fixed config, cache and state folders (records of roots and tables).
        for d in crate::runtime::state::protected_dirs() {
            add(Entry::Dir(d, false));
        }

        for d in SYSTEM_DIRS {
            add(Entry::Dir(PathBuf::from(d), false));
        }
        for b in self.binaries() {
            add(Entry::File(b.clone(), false));
        }
        // A relative `PATH` folder (`node_modules/.bin`) is looked up from where the hook
        // runs: the project root for every host.
        if let Some(path) = std::env::var_os("PATH") {
            for d in std::env::split_paths(&path).take(64) {
                if !d.is_absolute() && !d.as_os_str().is_empty() {
                    add(Entry::File(root.join(d).join("polc"), false));
                }
            }
        }
    }

    /// The home folders' agent configuration (see [`Self::collect`]).
    /// Files an agent loads into every later command (red team, session 8): the `.env`
    /// files Gemini CLI loads (`.gemini/.env` or `.env` in the project or the nearest folder
    /// above it that has one; `~/.env` is in [`Self::collect_homes`]), and Claude's settings,
    /// session environment files and shell snapshots under `CLAUDE_CONFIG_DIR`.
    fn collect_loaded(&self, add: &mut dyn FnMut(Entry)) {
        for d in self.project_root.ancestors().take(64) {
            add(Entry::File(d.join(".env"), false));
            add(Entry::File(d.join(".gemini/.env"), false));
        }
        if let Some(c) = std::env::var_os("CLAUDE_CONFIG_DIR").filter(|v| !v.is_empty()) {
            // Only adds protection.
            let c = PathBuf::from(c);
            add(Entry::Named(c.clone(), "settings", ".json"));
            add(Entry::Dir(c.join("session-env"), false));
            add(Entry::Dir(c.join("shell-snapshots"), false));
        }
    }

    /// The programs that run the agent and its hooks (red team, session 8), as paths denied
    /// with everything below them: system files every process loads, the agents' packages
    /// and commands, and the hook's own callers (the processes above polc, on Linux: their
    /// executables, the script they run and its npm package). Kept out of the entries: the
    /// folders are large (system libraries, a package's `node_modules`) and are never walked.
    pub(super) fn programs(&self) -> &[PathBuf] {
        self.programs.get_or_init(|| {
            let mut out: Vec<PathBuf> = SYSTEM_PROGRAM_DIRS
                .iter()
                .chain(SYSTEM_FILES)
                .map(PathBuf::from)
                .collect();
            for pre in NODE_PREFIXES {
                for p in AGENT_PACKAGES {
                    out.push(Path::new(pre).join(p));
                }
            }
            for c in AGENT_COMMANDS {
                for d in BIN_DIRS {
                    out.push(Path::new(d).join(c));
                }
                for h in &self.homes {
                    for d in HOME_BIN_DIRS {
                        out.push(h.join(d).join(c));
                    }
                }
            }
            for h in &self.homes {
                for d in HOME_PROGRAM_DIRS {
                    out.push(h.join(d));
                }
            }
            out.extend(callers());
            out
        })
    }

    /// Is `p` (in any of its forms) a program [`Self::programs`] names, or inside one?
    fn is_program(&self, forms: &[PathBuf]) -> bool {
        self.programs()
            .iter()
            .any(|q| forms.iter().any(|x| x.starts_with(q)))
    }

    fn collect_homes(&self, add: &mut dyn FnMut(Entry)) {
        for h in &self.homes {
            add(Entry::Named(h.join(".claude"), "settings", ".json"));
            // Gemini CLI loads the first `.env` it finds walking up from the project, then
            // `~/.env`, into its own environment, which every hook and command inherits
            // (`LD_PRELOAD`, `BASH_ENV`): red team, session 8. (The project's and its
            // parents' are in `collect`.)
            add(Entry::File(h.join(".env"), false));
            // The user's git and go configuration: `core.fsmonitor`, `GOFLAGS=-toolexec`
            // run commands under allowed `git status` / `go build` (red team, session 7):
            // writes ask, as `.git/config`'s do.
            for f in HOME_ASK {
                add(Entry::File(h.join(f), true));
            }
            for f in HOME_FILES {
                add(Entry::File(h.join(f), false));
            }
            for d in HOME_DIRS {
                add(Entry::Dir(h.join(d), false));
                for t in linked_targets(&h.join(d)) {
                    add(Entry::Dir(t, false));
                }
            }
        }
    }

    pub(super) fn forms(p: &Path) -> [PathBuf; 2] {
        let lex = normalize(p);
        let canon = canonical(&lex);
        [lex, canon]
    }

    /// Is this absolute path protected (the path or something inside a protected folder)?
    /// Also compared case-folded: on a case-insensitive file system `.CLAUDE/settings.json`
    /// is the same file.
    pub fn covers(&self, p: &Path) -> bool {
        let f = Self::forms(p);
        if f.iter()
            .any(|x| in_git_dir(x) || polc_backup(x) || runner_config(x))
            || self.is_program(&f)
        {
            return true;
        }
        let probes = [Probe::new(&f[0]), Probe::new(&f[1])];
        if self
            .entries()
            .iter()
            .any(|e| probes.iter().any(|x| e.covers_probe(x)))
        {
            return true;
        }
        let folded: Vec<PathBuf> = f.iter().map(|x| fold(x)).collect();
        let probes = [Probe::new(&folded[0]), Probe::new(&folded[1])];
        self.folded
            .get_or_init(|| self.entries().iter().map(Entry::folded).collect())
            .iter()
            .any(|e| probes.iter().any(|x| e.covers_probe(x)))
    }

    /// Is every entry covering `p` an ask-only one?
    pub(super) fn ask_only(&self, p: &Path) -> bool {
        let f = Self::forms(p);
        if f.iter().any(|x| polc_backup(x)) || self.is_program(&f) {
            return false;
        }
        let git = f.iter().any(|x| in_git_dir(x) || runner_config(x));
        let probes = [Probe::new(&f[0]), Probe::new(&f[1])];
        let mut cov = self
            .entries()
            .iter()
            .filter(|e| probes.iter().any(|x| e.covers_probe(x)))
            .peekable();
        (git || cov.peek().is_some()) && cov.all(Entry::ask)
    }

    /// Is `p` an ancestor of a protected path (removing or moving it takes one along)?
    pub(super) fn ancestor_of_protected(&self, p: &Path) -> bool {
        let f = Self::forms(p);
        let probes = [Probe::new(&f[0]), Probe::new(&f[1])];
        if self
            .entries()
            .iter()
            .filter(|e| !e.ask())
            .any(|e| probes.iter().any(|x| starts_with(e.path(), x)))
        {
            return true;
        }
        // Case-folded too, as `covers` is: `rm -rf .CLAUDE` on a case-insensitive volume
        // (red team, session 6).
        let folded: Vec<PathBuf> = f.iter().map(|x| fold(x)).collect();
        let probes = [Probe::new(&folded[0]), Probe::new(&folded[1])];
        self.folded
            .get_or_init(|| self.entries().iter().map(Entry::folded).collect())
            .iter()
            .filter(|e| !e.ask())
            .any(|e| probes.iter().any(|x| starts_with(e.path(), x)))
    }

    /// Could a pattern (WILD spans `/` too) name a protected path, or (for writes) one of
    /// its ancestors?
    pub(super) fn pattern_hits(&self, pat: &[u8], ancestors: bool) -> bool {
        self.pattern_hits_where(pat, ancestors, false)
    }

    /// [`Self::pattern_hits`] over the entries a prompt may not change (`deny_only`).
    pub(super) fn pattern_hits_where(&self, pat: &[u8], ancestors: bool, deny_only: bool) -> bool {
        self.entries()
            .iter()
            .filter(|e| !deny_only || !e.ask())
            .any(|e| {
                let mut probe = e.path().to_path_buf();
                let mut probes = vec![probe.clone()];
                if let Entry::Named(_, pre, suf) = e {
                    probes.push(probe.join(format!("{pre}{suf}")));
                }
                if ancestors {
                    while probe.pop() {
                        probes.push(probe.clone());
                    }
                }
                probes
                    .iter()
                    .any(|q| glob_match(pat, q.as_os_str().as_encoded_bytes()))
            })
    }

    /// Does an agent's read of `p` reach polc's audit log (issue 14: it asks)? Inside the
    /// audit folder, or — for a recursive read — a folder of polc's state holding it. A
    /// recursive read of a folder above the state folder (`grep -r x ~`) is not caught.
    pub(super) fn reads_audit(&self, p: &Path, recursive: bool) -> bool {
        let Some(audit) = audit_dir() else {
            return false;
        };
        let state = audit.parent().unwrap_or(&audit).to_path_buf();
        Self::forms(p).iter().any(|x| {
            x.starts_with(&audit) || (recursive && audit.starts_with(x) && x.starts_with(&state))
        })
    }

    /// Does a read pattern (`cat ~/.local/state/polc/*/*`) reach the audit log?
    pub(super) fn pattern_reads_audit(&self, pat: &[u8]) -> bool {
        let Some(audit) = audit_dir() else {
            return false;
        };
        let log = audit.join(crate::places::AUDIT_FILE);
        [audit.as_path(), log.as_path()]
            .iter()
            .any(|q| glob_match(pat, q.as_os_str().as_encoded_bytes()))
    }

    /// The first agent configuration present in the project now.
    pub(super) fn agent_config_present(&self) -> Option<PathBuf> {
        AGENT_CONFIG
            .iter()
            .map(|r| self.project_root.join(r))
            .find(|p| std::fs::symlink_metadata(p).is_ok())
    }

    /// An existing file that is a hard link to a protected file (more than one link, and its
    /// (device, inode) one of a protected file's): the protected file and the verdict a write
    /// of it gets (deny; ask for the ask-level files: `.git/config`, runner configuration).
    /// A target with one link costs one `stat` and nothing more; only a target with several
    /// links makes polc list the protected files' inodes, once per call ([`Inodes`]). Past
    /// the bound of that listing, a file with several links that matches none asks: it may
    /// be a protected file polc did not look at (red team, session 7: file tools wrote
    /// `.claude/settings.json` and `.git/config` through a hard link a de-duplicator made).
    pub(super) fn hard_link_of(&self, p: &Path) -> Option<(PathBuf, Verdict)> {
        let m = std::fs::metadata(p).ok()?;
        if m.nlink() < 2 || !m.is_file() {
            return None;
        }
        let inodes = self.inodes.get_or_init(|| self.list_inodes());
        let hit = inodes
            .files
            .iter()
            .filter(|(d, i, _, _)| *d == m.dev() && *i == m.ino())
            .min_by_key(|x| x.3);
        match hit {
            Some((_, _, f, ask)) => {
                Some((f.clone(), if *ask { Verdict::Ask } else { Verdict::Deny }))
            }
            None if inodes.bounded => Some((p.to_path_buf(), Verdict::Ask)),
            None => None,
        }
    }

    /// A folder a command writes names into that holds a hard link of a protected file
    /// (or is too large to look through: 4,096 entries, 16 levels): the reason. One `lstat`
    /// per regular file in it; the protected inodes are listed only when one has several
    /// links.
    pub(super) fn hard_link_inside(&self, dir: &Path) -> Option<String> {
        let mut stack = vec![(dir.to_path_buf(), 0u32)];
        let mut seen = 0usize;
        while let Some((d, depth)) = stack.pop() {
            let Ok(rd) = std::fs::read_dir(&d) else {
                continue;
            };
            for x in rd.flatten() {
                seen += 1;
                if seen > 4096 || depth > 16 {
                    return Some(
                        "the folder is too large to look through for hard links of protected files"
                            .into(),
                    );
                }
                let Ok(t) = x.file_type() else { continue };
                if t.is_dir() {
                    stack.push((x.path(), depth + 1));
                } else if t.is_file() && x.metadata().is_ok_and(|m| m.nlink() > 1) {
                    if let Some((b, _)) = self.hard_link_of(&x.path()) {
                        return Some(format!(
                            "{} in it is a hard link to protected {}",
                            x.path().display(),
                            b.display()
                        ));
                    }
                }
            }
        }
        None
    }

    /// The (device, inode) of every protected file that exists: the files of the entries,
    /// the files in protected folders (recursively, [`INODE_BOUND`] entries and
    /// [`INODE_DEPTH`] levels at most), an entry that names a file although it is kept as a
    /// folder (`.git/config`, `pytest.ini`), the files directly in the project's `.git`
    /// folder and the runner configuration at the root (both ask). A folder's entries are
    /// read with `readdir` alone: a regular file's inode is its entry's, its device the
    /// folder's; only symbolic links are `stat`ed.
    fn list_inodes(&self) -> Inodes {
        let mut out = Inodes::default();
        let mut budget = INODE_BOUND;
        let root = &self.project_root;
        let mut roots: Vec<(PathBuf, bool, bool)> = Vec::new();
        for e in self.entries() {
            match e {
                Entry::File(f, a) => roots.push((f.clone(), *a, false)),
                Entry::Dir(d, a) => roots.push((d.clone(), *a, true)),
                Entry::Named(d, _, _) => {
                    let Ok(rd) = std::fs::read_dir(d) else {
                        continue;
                    };
                    for x in rd.flatten() {
                        if budget == 0 {
                            out.bounded = true;
                            break;
                        }
                        budget -= 1;
                        let f = x.path();
                        if e.covers(&f) || polc_backup(&f) {
                            roots.push((f, false, false));
                        }
                    }
                }
            }
        }
        for name in RUNNER_CONFIG {
            let rel = std::str::from_utf8(&name[1..]).unwrap_or_default();
            roots.push((root.join(rel), true, false));
        }
        // The repository's folder (`.git`, or the one a `.git` file names): the files
        // directly in it and its hooks, not its objects (a folder entry of its own, walked
        // whole it would meet the bound at once).
        let sep = separate_git_dir(root);
        for g in std::iter::once(root.join(".git")).chain(sep.clone()) {
            for d in [g.clone(), g.join("hooks")] {
                if let Ok(rd) = std::fs::read_dir(&d) {
                    for x in rd.flatten() {
                        if x.file_type().is_ok_and(|t| !t.is_dir()) {
                            roots.push((x.path(), true, false));
                        }
                    }
                }
            }
        }
        let sep: Vec<PathBuf> = sep.iter().flat_map(|d| Self::forms(d)).collect();
        roots.retain(|(p, _, walk)| !(*walk && sep.contains(p)));
        // Other roots polc knows (`others.rs`): their hook configuration, sources, tables.
        let others = self.others();
        if others.bounded || others.roots.len() > super::others::MAX_LINKED_ROOTS {
            out.bounded = true;
        }
        for (r, _) in others.roots.iter().take(super::others::MAX_LINKED_ROOTS) {
            for (p, dir) in super::others::protected_in(r) {
                roots.push((p, false, dir));
            }
        }
        for (t, _) in &others.tables {
            roots.push((t.clone(), false, false));
        }
        for (p, ask, walk) in roots {
            let Ok(m) = std::fs::metadata(&p) else {
                continue;
            };
            if m.is_file() {
                out.files.push((m.dev(), m.ino(), p, ask));
            } else if m.is_dir() && walk && !walk_inodes(&p, m.dev(), ask, 0, &mut budget, &mut out)
            {
                out.bounded = true;
            }
        }
        out
    }

    /// A folder on `PATH` ahead of polc's own that a package manager installs into: a
    /// relative one, a `node_modules/.bin`, a `vendor/bin`, a virtual environment's `bin`
    /// (`pyvenv.cfg` beside it, or `$VIRTUAL_ENV/bin`), or one inside the project.
    pub(super) fn local_bin_ahead(&self) -> Option<PathBuf> {
        let exe_dir = std::env::current_exe()
            .ok()
            .and_then(|e| e.parent().map(Path::to_path_buf));
        let venv = std::env::var_os("VIRTUAL_ENV").map(|v| PathBuf::from(v).join("bin"));
        let path = std::env::var_os("PATH")?;
        for (k, d) in std::env::split_paths(&path).enumerate() {
            if exe_dir.as_deref() == Some(d.as_path()) {
                return None;
            }
            // Past 64 folders polc does not look: as if one were a local one.
            if k == 64 {
                return Some(d);
            }
            let local = !d.is_absolute()
                || d.ends_with("node_modules/.bin")
                || d.ends_with("vendor/bin")
                || venv.as_deref() == Some(d.as_path())
                || d.parent().is_some_and(|p| p.join("pyvenv.cfg").exists())
                || d.starts_with(&self.project_root);
            if local {
                return Some(d);
            }
        }
        None
    }

    pub(super) fn is_binary(&self, p: &Path) -> bool {
        self.binaries().iter().any(|b| self.same_file(p, b))
    }

    pub(super) fn same_file(&self, a: &Path, b: &Path) -> bool {
        if normalize(a) == normalize(b) {
            return true;
        }
        match (std::fs::metadata(a), std::fs::metadata(b)) {
            (Ok(x), Ok(y)) => x.dev() == y.dev() && x.ino() == y.ino(),
            _ => false,
        }
    }
}

/// Entries looked at when listing the protected files' inodes, and how deep into a
/// protected folder: past either, a file with several links asks.
const INODE_BOUND: usize = 8192;
const INODE_DEPTH: u32 = 8;

/// The protected files' (device, inode, path, ask) and whether a bound was met.
#[derive(Clone, Debug, Default)]
pub(super) struct Inodes {
    files: Vec<(u64, u64, PathBuf, bool)>,
    bounded: bool,
}

/// Every file under folder `dir` (device `dev`) into `out`; false when a bound was met.
/// Symbolic links are followed for files only (a linked folder is an entry of its own:
/// `linked_targets`).
fn walk_inodes(
    dir: &Path,
    dev: u64,
    ask: bool,
    depth: u32,
    budget: &mut usize,
    out: &mut Inodes,
) -> bool {
    use std::os::unix::fs::DirEntryExt;
    let Ok(rd) = std::fs::read_dir(dir) else {
        return true;
    };
    for x in rd.flatten() {
        if *budget == 0 {
            return false;
        }
        *budget -= 1;
        let Ok(t) = x.file_type() else { continue };
        if t.is_file() {
            out.files.push((dev, x.ino(), x.path(), ask));
        } else if t.is_symlink() {
            if let Ok(m) = std::fs::metadata(x.path()) {
                if m.is_file() {
                    out.files.push((m.dev(), m.ino(), x.path(), ask));
                }
            }
        } else if t.is_dir() {
            if depth + 1 >= INODE_DEPTH {
                return false;
            }
            // A mount point inside the folder has its own device.
            let sub_dev = std::fs::symlink_metadata(x.path()).map_or(dev, |m| m.dev());
            if !walk_inodes(&x.path(), sub_dev, ask, depth + 1, budget, out) {
                return false;
            }
        }
    }
    true
}

/// The folder a root's `.git` file names (`gitdir: DIR`, relative to the root), if `.git`
/// is a small regular file.
fn separate_git_dir(root: &Path) -> Option<PathBuf> {
    use std::io::Read;
    // One `lstat` in the usual case (a `.git` folder); the file is opened only when it is one.
    let dot = root.join(".git");
    if !std::fs::symlink_metadata(&dot).ok()?.is_file() {
        return None;
    }
    let f = std::fs::File::open(&dot).ok()?;
    if !f.metadata().ok()?.is_file() {
        return None;
    }
    let mut text = String::new();
    f.take(4096).read_to_string(&mut text).ok()?;
    let d = text.lines().next()?.strip_prefix("gitdir:")?.trim();
    (!d.is_empty()).then(|| root.join(d))
}

/// What the symbolic links inside a dedicated folder point at (a shared skills folder linked
/// into `.claude/skills/`): the agent reads them as part of the folder, so they are protected
/// as it is. At most 256 entries, 3 levels deep.
fn linked_targets(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![(dir.to_path_buf(), 0)];
    let mut seen = 0;
    while let Some((d, depth)) = stack.pop() {
        let Ok(rd) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in rd.flatten() {
            seen += 1;
            if seen > 256 {
                return out;
            }
            let Ok(ft) = e.file_type() else { continue };
            if ft.is_symlink() {
                if let Ok(t) = std::fs::canonicalize(e.path()) {
                    out.push(t);
                }
            } else if ft.is_dir() && depth < 2 {
                stack.push((e.path(), depth + 1));
            }
        }
    }
    out
}

/// The folder `core.hooksPath` of the project's git configuration names (relative to the
/// root), read from `.git/config` (64 KiB at most).
fn hooks_path(root: &Path) -> Option<PathBuf> {
    use std::io::Read;
    let mut text = String::new();
    std::fs::File::open(root.join(".git/config"))
        .ok()?
        .take(64 * 1024)
        .read_to_string(&mut text)
        .ok()?;
    let mut core = false;
    for line in text.lines() {
        let l = line.trim();
        if l.starts_with('[') {
            core = l.to_ascii_lowercase().starts_with("[core");
            continue;
        }
        if let Some((k, v)) = l.split_once('=') {
            if core && k.trim().eq_ignore_ascii_case("hookspath") {
                let v = v.trim().trim_matches('"');
                let v = v.strip_prefix("~/").map_or_else(
                    || PathBuf::from(v),
                    |rest| {
                        super::super::trust::passwd_home()
                            .unwrap_or_default()
                            .join(rest)
                    },
                );
                return Some(if v.is_absolute() { v } else { root.join(v) });
            }
        }
    }
    None
}

/// Add an entry in its lexical form and, when it differs, its canonical form.
fn add(out: &mut Vec<Entry>, e: Entry) {
    let lex = normalize(e.path());
    let canon = canonical(&lex);
    let with = |p: PathBuf| match &e {
        Entry::File(_, a) => Entry::File(p, *a),
        Entry::Dir(_, a) => Entry::Dir(p, *a),
        Entry::Named(_, a, b) => Entry::Named(p, a, b),
    };
    // Duplicates are harmless (a path is checked twice), so no O(n²) search here.
    if canon != lex {
        out.push(with(canon));
    }
    out.push(with(lex));
}

/// The processes above the hook (at most 4, on Linux): each one's executable, and a script
/// it runs (an absolute path among its first arguments: `node …/cli.js`), with the npm
/// package folder holding it. These run the agent and call polc: rewriting one removes the
/// hook (red team, session 8). A caller polc cannot read adds nothing.
fn callers() -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut pid = std::process::id();
    for _ in 0..4 {
        let Some(ppid) = parent_of(pid) else { break };
        if ppid <= 1 {
            break;
        }
        let proc_dir = PathBuf::from(format!("/proc/{ppid}"));
        if let Ok(exe) = std::fs::read_link(proc_dir.join("exe")) {
            out.push(exe);
        }
        if let Ok(cmd) = std::fs::read(proc_dir.join("cmdline")) {
            for w in cmd.split(|&b| b == 0).skip(1).take(3) {
                let w = Path::new(<std::ffi::OsStr as std::os::unix::ffi::OsStrExt>::from_bytes(w));
                if !w.is_absolute() || !w.is_file() {
                    continue;
                }
                out.push(w.to_path_buf());
                // The npm package it belongs to (`…/node_modules/@scope/name/…`).
                if let Some(pkg) = npm_package(w) {
                    out.push(pkg);
                }
            }
        }
        pid = ppid;
    }
    out
}

/// The parent process id of `pid` (`/proc/PID/stat`, field 4 after the command's `)`).
fn parent_of(pid: u32) -> Option<u32> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let rest = &stat[stat.rfind(')')? + 1..];
    rest.split_whitespace().nth(1)?.parse().ok()
}

/// `…/node_modules/NAME` or `…/node_modules/@SCOPE/NAME` above `p`.
fn npm_package(p: &Path) -> Option<PathBuf> {
    let parts: Vec<&std::ffi::OsStr> = p.iter().collect();
    let i = parts.iter().rposition(|c| *c == "node_modules")?;
    let take = if parts.get(i + 1)?.as_encoded_bytes().starts_with(b"@") {
        i + 3
    } else {
        i + 2
    };
    (take < parts.len()).then(|| parts[..take].iter().collect())
}

/// polc's binary, and every file named `polc` in a `PATH` folder ahead of its folder (or in
/// every `PATH` folder when its folder is not on `PATH`): any of them is what an agent's
/// configured `polc hook` may run.
fn binaries() -> Vec<PathBuf> {
    let mut out = Vec::new();
    let exe = std::env::current_exe().ok();
    let exe_dir = exe.as_ref().and_then(|e| e.parent().map(Path::to_path_buf));
    if let Some(e) = exe {
        out.push(e);
    }
    if let Some(path) = std::env::var_os("PATH") {
        for d in std::env::split_paths(&path).take(64) {
            if !d.is_absolute() {
                continue;
            }
            if exe_dir.as_deref() == Some(d.as_path()) {
                break;
            }
            out.push(d.join("polc"));
        }
    }
    out
}

fn absolute(p: &Path, root: &Path) -> PathBuf {
    if p.is_absolute() {
        normalize(p)
    } else {
        std::env::current_dir()
            .map(|c| normalize(&c.join(p)))
            .unwrap_or_else(|_| normalize(&root.join(p)))
    }
}

/// `*`-style match (WILD) of a pattern against bytes (a wildcard spans `/` too).
pub(super) fn glob_match(pat: &[u8], s: &[u8]) -> bool {
    let (mut p, mut i) = (0usize, 0usize);
    let (mut star, mut mark) = (None::<usize>, 0usize);
    while i < s.len() {
        if p < pat.len() && pat[p] != WILD && pat[p] == s[i] {
            p += 1;
            i += 1;
        } else if p < pat.len() && pat[p] == WILD {
            star = Some(p);
            mark = i;
            p += 1;
        } else if let Some(sp) = star {
            p = sp + 1;
            mark += 1;
            i = mark;
        } else {
            return false;
        }
    }
    while p < pat.len() && pat[p] == WILD {
        p += 1;
    }
    p == pat.len()
}

/// Does this rule name one of `paths`? A bash `exact` rule (it matched the command word for
/// word), or a read/edit path rule whose literal text before its first wildcard resolves to
/// the path or a folder above it. Read from the rule's first line (`allow edit glob "X"`,
/// `Edit(X)`, `Bash(X)`): a lift is never wider than what that line says.
pub fn rule_names_paths(d: &RuleDesc, paths: &[PathBuf], ctx: &Context) -> bool {
    let t = d.text.trim();
    // Claude form: `Tool(spec)`.
    if let Some((tool, rest)) = t.split_once('(') {
        if !tool.contains(' ') {
            let spec = rest.strip_suffix(')').unwrap_or(rest);
            return match tool {
                "Bash" => !spec.contains('*'),
                t if crate::tools::claude::PATH_RULE_TOOLS.contains(&t) => names(spec, paths, ctx),
                _ => false,
            };
        }
    }
    // DSL header: `allow TOOL KIND "TEXT"`.
    let words: Vec<&str> = t.split_whitespace().collect();
    let quoted = t
        .split_once('"')
        .and_then(|(_, r)| r.rsplit_once('"'))
        .map(|(q, _)| q);
    match (words.get(1).copied(), words.get(2).copied(), quoted) {
        (Some("bash"), Some("exact"), Some(_)) => true,
        (Some("read" | "edit"), Some("glob" | "exact"), Some(g)) => names(g, paths, ctx),
        _ => false,
    }
}

/// A bash `exact` rule: DSL `allow bash exact "…"`, or a Claude `Bash(…)` with no `*`.
pub(super) fn is_exact_bash(d: &RuleDesc) -> bool {
    let t = d.text.trim();
    if let Some(spec) = t.strip_prefix("Bash(") {
        return !spec.contains('*');
    }
    let w: Vec<&str> = t.split_whitespace().collect();
    w.get(1) == Some(&"bash") && w.get(2) == Some(&"exact")
}

fn names(glob: &str, paths: &[PathBuf], ctx: &Context) -> bool {
    let cut = glob.find(['*', '?', '[']).unwrap_or(glob.len());
    let lit = &glob[..cut];
    let wild = cut < glob.len();
    if wild && !lit.ends_with('/') {
        // The wildcard is inside a name: it names no folder.
        return false;
    }
    let base = if let Some(r) = lit.strip_prefix("//") {
        PathBuf::from("/").join(r)
    } else if let Some(r) = lit.strip_prefix("~/") {
        match &ctx.home {
            Some(h) => h.join(r),
            None => return false,
        }
    } else if let Some(r) = lit.strip_prefix("./").or_else(|| lit.strip_prefix('/')) {
        match &ctx.project_root {
            Some(root) => root.join(r),
            None => return false,
        }
    } else {
        // A bare name matches at any depth: it names no one path.
        return false;
    };
    let base = normalize(&base);
    if base == Path::new("/") {
        return false;
    }
    paths.iter().any(|p| normalize(p).starts_with(&base))
}

/// polc's audit log folder (`<state>/audit`), if polc has a state folder (looked up once:
/// the state folder is fixed for the process).
fn audit_dir() -> Option<PathBuf> {
    static DIR: std::sync::OnceLock<Option<PathBuf>> = std::sync::OnceLock::new();
    DIR.get_or_init(|| crate::runtime::state::state_dir().map(|s| s.join(crate::places::AUDIT_DIR)))
        .clone()
}

#[cfg(test)]
mod lazy {
    use super::*;
    use crate::runtime::Request;

    /// Issue 16: a command that names no path and runs no program by its path resolves no
    /// protected path (no symlink resolution, no PATH scan); one that writes does.
    #[test]
    fn gathering_waits_for_a_question() {
        let root = Path::new("/proj");
        let bash = |c: &str| Request::Bash { command: c.into() };
        for quiet in ["git status", "git log --oneline", "pwd", "echo hi | wc -l"] {
            let p = Protected::gather(&[], None, root);
            let _ = p.check(&bash(quiet), None, root);
            assert!(p.entries.get().is_none(), "{quiet} gathered");
            assert!(p.binaries.get().is_none(), "{quiet} scanned PATH");
        }
        for busy in [
            "rm -rf .claude",
            "cp x .claude/settings.json",
            "./polc trust",
        ] {
            let p = Protected::gather(&[], None, root);
            assert!(p.check(&bash(busy), None, root).is_some(), "{busy}");
            assert!(
                p.entries.get().is_some() || p.binaries.get().is_some(),
                "{busy} asked nothing"
            );
        }
    }
}

#[cfg(test)]
mod bytewise {
    use super::*;

    /// The byte-wise comparison answers as `Path`'s component-wise one for every pair,
    /// clean or not (unclean paths take the `Path` route).
    #[test]
    fn covers_on_bytes_is_covers_on_components() {
        let paths = [
            "/",
            "/p",
            "/p/.polc",
            "/p/.polc/",
            "/p/.polc/x",
            "/p/.polcx",
            "/p/.polc/./x",
            "/p//.polc/x",
            "/p/.polc/.",
            "/p/.polc/..",
            "/p/.polc/../.polc",
            "/p/.claude/settings.json",
            "/p/.claude/settings.local.json",
            "/p/.claude/settings.json/x",
            "/p/.claude/settingsX.json",
            "/p/.claude/x/settings.json",
            "/p/.claude",
            "/p/.cla",
            "/pp/.polc",
            "relative/.polc",
            "/p/\u{e9}t\u{e9}/settings.json",
        ];
        let entries = |e: &str| {
            vec![
                Entry::File(PathBuf::from(e), false),
                Entry::Dir(PathBuf::from(e), true),
                Entry::Named(PathBuf::from(e), "settings", ".json"),
                Entry::Named(PathBuf::from(e), "", ""),
            ]
        };
        for a in paths {
            for b in paths {
                let (a, b) = (Path::new(a), Path::new(b));
                assert_eq!(
                    starts_with(a, &Probe::new(b)),
                    a.starts_with(b),
                    "{a:?} starts with {b:?}"
                );
            }
        }
        for e in paths {
            for entry in entries(e) {
                for p in paths {
                    let p = Path::new(p);
                    assert_eq!(
                        entry.covers(p),
                        entry.covers_std(p),
                        "{entry:?} covers {}",
                        p.display()
                    );
                }
            }
        }
    }
}
