//! `polc import --from HOST`: an agent's own permission configuration → `.pol` source.
//!
//! Each host module reads that agent's native files (found where the agent itself reads
//! them, every scope) into [`Rule`]s that keep the file and line they came from; [`render`]
//! writes them as DSL with a comment naming the origin. Where a native rule cannot be said
//! exactly in polc, the host module takes the stricter reading (a deny/ask broader, an allow
//! narrower or dropped) and says so in a warning (W005) and in the rule's comment. The rules,
//! the combining rule of each agent and every difference are in `src/import/README.md`.

pub mod claude;
pub mod codex;
pub mod copilot;
pub mod cursor;
pub mod droid;
pub mod gemini;
pub mod opencode;
pub mod text;
pub mod toml;
pub mod vibe;

use crate::ir::{Decision, Pattern, PatternKind, Span, Verdict};
use crate::syntax::codes;
use crate::syntax::diag::{Diagnostic, Diagnostics, SourceText};
use crate::tools;
use std::path::{Path, PathBuf};

/// The agents `polc import` reads: [`crate::hosts::IMPORT_SOURCES`], with how each combines
/// its rules ([`Host::rule_combining`]).
pub use crate::hosts::Host;

/// Where a native file's rules go: user and managed rules to the user layer, project and
/// local rules to the project's policy. A project file never feeds the user layer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Scope {
    User,
    Project,
}

impl Scope {
    pub fn as_str(self) -> &'static str {
        match self {
            Scope::User => "user",
            Scope::Project => "project",
        }
    }
}

/// Where to look: the home folder the agents use, the project root, and the root of the
/// system folders (`/`; a test points it elsewhere).
#[derive(Clone, Debug)]
pub struct Ctx {
    pub home: PathBuf,
    pub project: PathBuf,
    pub system: PathBuf,
    /// `XDG_CONFIG_HOME` when set (Cursor and OpenCode read it on Linux).
    pub xdg_config: Option<PathBuf>,
    /// `CODEX_HOME` when set.
    pub codex_home: Option<PathBuf>,
}

impl Ctx {
    /// A file name as the output's comments show it: `~/…` under home, relative under the
    /// project, else absolute.
    pub fn shown(&self, p: &Path) -> String {
        if let Ok(r) = p.strip_prefix(&self.project) {
            if !r.as_os_str().is_empty() {
                return r.display().to_string();
            }
        }
        if let Ok(r) = p.strip_prefix(&self.home) {
            return format!("~/{}", r.display());
        }
        p.display().to_string()
    }

    /// `/etc/…` under the system root.
    pub fn sys(&self, abs: &str) -> PathBuf {
        self.system.join(abs.trim_start_matches('/'))
    }

    /// The scope a file's place suggests: under the home folder (or `/etc`) and outside the
    /// project, the user's; anything else the project's. Only for a file the agent itself
    /// is pointed at by a setting (`OPENCODE_CONFIG`); files named to `polc import` are
    /// project files.
    pub fn scope_of(&self, p: &Path) -> Scope {
        let abs = if p.is_absolute() {
            p.to_path_buf()
        } else {
            self.project.join(p)
        };
        let system = |p: &Path| {
            (self.system != Path::new("/") && p.starts_with(&self.system))
                || p.starts_with("/etc")
                || p.starts_with("/Library")
        };
        if abs.starts_with(&self.project) {
            Scope::Project
        } else if abs.starts_with(&self.home) || system(&abs) {
            Scope::User
        } else {
            Scope::Project
        }
    }
}

/// A native file, read.
#[derive(Clone, Debug)]
pub struct Native {
    pub path: PathBuf,
    pub scope: Scope,
    /// The file as named in spans and comments (`~/.codex/rules/default.rules`).
    pub src: SourceText,
    /// What the agent calls this level (`user settings`, `managed policy`, …).
    pub level: &'static str,
}

/// A polc tool, as the DSL names it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Tool {
    Bash,
    Read,
    Edit,
    WebFetch,
    WebSearch,
    /// `mcp__server`, `mcp__server__tool`, `mcp__server__*`.
    Mcp(String),
    /// Any other tool, by the name the agent gives it.
    Named(String),
}

impl Tool {
    fn dsl(&self) -> String {
        match self {
            Tool::Bash => tools::BASH.into(),
            Tool::Read => tools::READ.into(),
            Tool::Edit => tools::EDIT.into(),
            Tool::WebFetch => tools::WEBFETCH.into(),
            Tool::WebSearch => tools::WEBSEARCH.into(),
            Tool::Mcp(m) => m.clone(),
            Tool::Named(n) => format!("tool {}", dsl_string(n)),
        }
    }

    /// The tool of a lowered Claude-style name (`bash`, `read`, `mcp__x`, `Task`).
    pub fn from_canonical(name: &str) -> Tool {
        match name {
            tools::BASH => Tool::Bash,
            tools::READ => Tool::Read,
            tools::EDIT => Tool::Edit,
            tools::WEBFETCH => Tool::WebFetch,
            tools::WEBSEARCH => Tool::WebSearch,
            m if m.starts_with("mcp__") => Tool::Mcp(m.to_string()),
            other => Tool::Named(other.to_string()),
        }
    }
}

/// One imported rule.
#[derive(Clone, Debug)]
pub struct Rule {
    pub verdict: Verdict,
    pub tool: Tool,
    /// Empty: any call of the tool.
    pub patterns: Vec<Pattern>,
    pub scope: Scope,
    /// The native rule's file (as shown) and line.
    pub origin: Span,
    /// The native rule as written, one line (for the comment).
    pub native: String,
    pub reason: Option<String>,
    pub priority: Option<i32>,
    /// Comment lines: how the rule was read when not exactly.
    pub notes: Vec<String>,
    /// Inline examples (Codex `match`/`not_match`): command and expected decision.
    pub examples: Vec<(String, Decision)>,
    /// Codex: the native pattern (each position's alternatives), to decide examples the
    /// way Codex does.
    pub prefixes: Vec<Vec<String>>,
    /// Codex: examples not yet given an expectation (text, tokens).
    pub pending: Vec<(String, Vec<String>)>,
}

impl Rule {
    pub fn new(
        verdict: Verdict,
        tool: Tool,
        patterns: Vec<Pattern>,
        n: &Native,
        at: usize,
        native: &str,
    ) -> Rule {
        Rule {
            verdict,
            tool,
            patterns,
            scope: n.scope,
            origin: n.src.span(at),
            native: one_line(native),
            reason: None,
            priority: None,
            notes: Vec::new(),
            examples: Vec::new(),
            prefixes: Vec::new(),
            pending: Vec::new(),
        }
    }
}

/// A pattern.
pub fn pat(kind: PatternKind, text: impl Into<String>) -> Pattern {
    Pattern {
        kind,
        text: text.into(),
    }
}

/// What an import produced: rules, warnings and errors (located in the native files), and
/// header notes.
#[derive(Debug)]
pub struct Import {
    pub host: Host,
    pub rules: Vec<Rule>,
    pub diags: Diagnostics,
    /// The files read, as shown, with their scope and level.
    pub files: Vec<(String, Scope, &'static str)>,
    /// Set when part of the native configuration is left to the agent's own engine: the
    /// native files must stay in place.
    pub needs_native: bool,
}

impl Import {
    pub fn new(host: Host) -> Import {
        Import {
            host,
            rules: Vec::new(),
            diags: Diagnostics::new(),
            files: Vec::new(),
            needs_native: false,
        }
    }

    /// A warning at `start..end` of a native file (W005).
    pub fn warn(&mut self, n: &Native, start: usize, end: usize, msg: impl Into<String>) {
        let d = n.src.diag(
            crate::syntax::diag::Severity::Warning,
            codes::W005,
            msg,
            start,
            end,
        );
        self.diags.push(d);
    }

    /// A rule read the stricter way: warn, and say so in its comment.
    pub fn inexact(
        &mut self,
        n: &Native,
        start: usize,
        end: usize,
        mut r: Rule,
        msg: impl Into<String>,
    ) {
        let msg = msg.into();
        self.warn(n, start, end, msg.clone());
        r.notes.push(msg);
        self.rules.push(r);
    }

    /// A native rule not imported (dropped allow, unsupported key): warn.
    pub fn dropped(&mut self, n: &Native, start: usize, end: usize, msg: impl Into<String>) {
        self.warn(n, start, end, msg);
    }

    /// The native config does not parse: a located error, and nothing is written.
    pub fn error(
        &mut self,
        n: &Native,
        start: usize,
        end: usize,
        msg: impl Into<String>,
        help: impl Into<String>,
    ) {
        let d = n
            .src
            .error(codes::E001, msg, start, end)
            .with_help(help.into());
        self.diags.push(d);
    }

    pub fn has_errors(&self) -> bool {
        self.diags.has_errors()
    }
}

/// Read the files an import names (every scope the agent reads), skipping those that do not
/// exist. `named` (files on the command line) replaces the search.
pub fn read_files(
    ctx: &Ctx,
    found: Vec<(PathBuf, Scope, &'static str)>,
    imp: &mut Import,
) -> Vec<Native> {
    let mut out = Vec::new();
    for (path, scope, level) in found {
        if !path.is_file() {
            continue;
        }
        let shown = ctx.shown(&path);
        match std::fs::read(&path) {
            Ok(bytes) => match String::from_utf8(bytes) {
                Ok(text) => {
                    imp.files.push((shown.clone(), scope, level));
                    out.push(Native {
                        path,
                        scope,
                        src: SourceText::new(shown, text),
                        level,
                    });
                }
                Err(e) => imp.diags.push(Diagnostic::error(
                    codes::E008,
                    format!(
                        "{shown} is not valid UTF-8 (byte {})",
                        e.utf8_error().valid_up_to()
                    ),
                    Span {
                        file: shown.clone(),
                        line: 0,
                        column: 0,
                    },
                )),
            },
            Err(e) => imp.diags.push(Diagnostic::error(
                codes::E002,
                format!("cannot read {shown}: {e}"),
                Span {
                    file: shown.clone(),
                    line: 0,
                    column: 0,
                },
            )),
        }
    }
    out
}

/// The files of a folder with one extension, sorted (agents load such folders in name order).
pub fn files_in(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == ext) && p.is_file())
        .collect();
    v.sort();
    v
}

/// Every folder from `root` down to `cwd` (both included) when `cwd` is inside `root`.
pub fn walk_down(root: &Path, cwd: &Path) -> Vec<PathBuf> {
    let mut v = vec![root.to_path_buf()];
    if let Ok(rel) = cwd.strip_prefix(root) {
        let mut p = root.to_path_buf();
        for c in rel.components() {
            p.push(c);
            v.push(p.clone());
        }
    }
    v
}

/// Run the importer of `host` over the files it finds (or `named`, or Copilot's flags).
pub fn import(host: Host, ctx: &Ctx, named: &[PathBuf], flags: &[String]) -> Import {
    let mut imp = Import::new(host);
    if host == Host::Copilot {
        copilot::import(flags, &mut imp);
        return imp;
    }
    let found: Vec<(PathBuf, Scope, &'static str)> = if named.is_empty() {
        match host {
            Host::Claude => claude::locate(ctx),
            Host::Gemini => gemini::locate(ctx),
            Host::Codex => codex::locate(ctx),
            Host::Cursor => cursor::locate(ctx),
            Host::Droid => droid::locate(ctx),
            Host::OpenCode => opencode::locate(ctx),
            Host::Vibe => vibe::locate(ctx),
            // Copilot's rules are flags (read above); the others are not import sources.
            Host::Copilot | Host::Vscode | Host::Openclaw => Vec::new(),
        }
    } else {
        named
            .iter()
            .map(|p| {
                let abs = if p.is_absolute() {
                    p.clone()
                } else {
                    ctx.project.join(p)
                };
                // A named file is always a project file, wherever it is: its allows then
                // need `polc trust`. (Else anyone able to write a file under the home
                // folder and run `polc import` could put allows in the user layer.)
                (abs, Scope::Project, "named on the command line")
            })
            .collect()
    };
    for p in named {
        let abs = if p.is_absolute() {
            p.clone()
        } else {
            ctx.project.join(p)
        };
        if !abs.is_file() {
            imp.diags.push(Diagnostic::error(
                codes::E002,
                format!("cannot read {}: no such file", p.display()),
                Span {
                    file: p.display().to_string(),
                    line: 0,
                    column: 0,
                },
            ));
        }
    }
    let files = read_files(ctx, found, &mut imp);
    for n in &files {
        match host {
            Host::Claude => claude::import(ctx, n, &mut imp),
            Host::Gemini => gemini::import(n, &mut imp),
            Host::Codex => codex::import(n, &mut imp),
            Host::Cursor => cursor::import(n, &mut imp),
            Host::Droid => droid::import(n, &mut imp),
            Host::OpenCode => opencode::import(n, &mut imp),
            Host::Vibe => vibe::import(n, &mut imp),
            Host::Copilot | Host::Vscode | Host::Openclaw => {}
        }
    }
    if host == Host::Gemini {
        gemini::after(&files, &mut imp);
    }
    if host == Host::Codex {
        codex::after(&mut imp);
    }
    imp
}

/// A DSL string literal.
pub fn dsl_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if c.is_control() => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// One line, for comments: control characters shown as spaces, at most 160 characters.
pub fn one_line(s: &str) -> String {
    let t: String = s
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    let t = t.split_whitespace().collect::<Vec<_>>().join(" ");
    if t.chars().count() > 160 {
        let mut c: String = t.chars().take(159).collect();
        c.push('…');
        c
    } else {
        t
    }
}

/// The rules of one scope without their examples (to decide the examples with polc).
pub fn render_without_examples(imp: &Import, scope: Scope) -> String {
    let mut out = String::new();
    for r in imp.rules.iter().filter(|r| r.scope == scope) {
        let mut r = r.clone();
        r.examples.clear();
        out.push_str(&rule_text(&r));
        out.push('\n');
    }
    out
}

/// The `.pol` text of one scope's rules (deterministic: same native files, same bytes).
pub fn render(imp: &Import, scope: Scope) -> String {
    let mut out = String::new();
    let host = imp.host.name();
    out.push_str(&format!(
        "# Generated by `polc import --from {host}` ({} layer). Re-run the import after changing\n# the native files rather than editing this one.\n",
        scope.as_str()
    ));
    let files: Vec<_> = imp.files.iter().filter(|f| f.1 == scope).collect();
    if files.is_empty() {
        out.push_str("# Read: no native file of this scope.\n");
    } else {
        out.push_str("# Read:\n");
        for (f, _, level) in files {
            out.push_str(&format!("#   {f} ({level})\n"));
        }
    }
    for l in wrap(imp.host.rule_combining().unwrap_or_default(), 88) {
        out.push_str(&format!("# {l}\n"));
    }
    if imp.needs_native {
        out.push_str("# Part of the native configuration is left to the agent's own engine (see the\n# warnings): keep the native files in place.\n");
    }
    for r in imp.rules.iter().filter(|r| r.scope == scope) {
        out.push('\n');
        out.push_str(&format!(
            "# {}:{}: {}\n",
            r.origin.file, r.origin.line, r.native
        ));
        for n in &r.notes {
            for l in wrap(&format!("polc import: {n}"), 88) {
                out.push_str(&format!("# {l}\n"));
            }
        }
        out.push_str(&rule_text(r));
        out.push('\n');
    }
    out
}

fn rule_text(r: &Rule) -> String {
    let mut head = format!("{} {}", r.verdict.as_str(), r.tool.dsl());
    if r.patterns.is_empty() && !matches!(r.tool, Tool::Mcp(_)) {
        head.push_str(" any");
    }
    for p in &r.patterns {
        if p.kind == PatternKind::Any {
            head.push_str(" any");
        } else {
            head.push_str(&format!(" {} {}", p.kind.as_str(), dsl_string(&p.text)));
        }
    }
    let mut block = Vec::new();
    if let Some(reason) = &r.reason {
        block.push(format!("reason {}", dsl_string(&one_line(reason))));
    }
    if let Some(p) = r.priority {
        block.push(format!("priority {p}"));
    }
    for (cmd, expect) in &r.examples {
        block.push(format!(
            "example {} => {}",
            dsl_string(cmd),
            expect.as_str()
        ));
    }
    if block.is_empty() {
        head
    } else {
        let mut s = head;
        s.push_str(" {\n");
        for b in block {
            s.push_str(&format!("  {b}\n"));
        }
        s.push('}');
        s
    }
}

fn wrap(s: &str, width: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut cur = String::new();
    for w in s.split_whitespace() {
        if !cur.is_empty() && cur.chars().count() + 1 + w.chars().count() > width {
            lines.push(std::mem::take(&mut cur));
        }
        if !cur.is_empty() {
            cur.push(' ');
        }
        cur.push_str(w);
    }
    if !cur.is_empty() {
        lines.push(cur);
    }
    lines
}

#[cfg(test)]
mod tests;
