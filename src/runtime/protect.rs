//! Self-protection (SPEC §5): an agent must not be able to grant itself permissions. Tool
//! calls that would change polc's protected paths — policy sources, tables, the trust list
//! and config dir, the integrity cache, the polc binary, the agents' hook configuration and
//! the folders holding them — are denied; any other program given such a path as an
//! argument is at least `ask`, unless polc knows the program to be read-only.
//!
//! This works on **paths**, not program names: a renamed copy of `rm` or of polc writing a
//! protected path by redirection is still a write to that path. Program names are used only
//! to tell writes (deny) from other uses (ask) and read-only inspection (nothing).
//!
//! The verdict is merged into the decision by [`decide_guarded`] and names the synthetic
//! rule [`RULE_ID`]. Only a managed or user layer can relax it: when every command segment
//! of the request is allowed by an allow rule of a managed or user layer, the allow stands.

use super::layers::LoadedLayer;
use super::{Cause, Corrupt, Hit, Outcome, Request, RuleDesc, RuleSource, Score};
use crate::ir::{Decision, Tier, Verdict};
use crate::pattern::Match;
use crate::shell::{self, Inner, Part, Segment, Word, MAX_DEPTH, MAX_SEGMENTS};
use std::path::{Path, PathBuf};

pub const RULE_ID: &str = "polc-self-protection";
/// The synthetic rule's number in a guarded source.
pub const SYNTHETIC: u32 = u32::MAX;

/// A protected entry: a file, a folder (everything inside), or files named `prefix*suffix`
/// directly in a folder.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Entry {
    File(PathBuf),
    Dir(PathBuf),
    Named(PathBuf, &'static str, &'static str),
}

impl Entry {
    fn path(&self) -> &Path {
        match self {
            Entry::File(p) | Entry::Dir(p) | Entry::Named(p, _, _) => p,
        }
    }
    /// Is `p` this entry or inside it?
    fn covers(&self, p: &Path) -> bool {
        match self {
            Entry::File(f) => p == f,
            Entry::Dir(d) => p.starts_with(d),
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
#[derive(Clone, Debug, Default)]
pub struct Protected {
    entries: Vec<Entry>,
    home: Option<PathBuf>,
}

/// Hook configuration under the project root and under the home directory.
const PROJECT_HOOK_FILES: &[&str] = &[
    ".gemini/settings.json",
    ".cursor/hooks.json",
    ".vscode/settings.json",
    ".factory/settings.json",
];
const PROJECT_HOOK_DIRS: &[&str] = &[".github/hooks", ".codex", ".polc", ".claude/hooks"];
const HOME_HOOK_FILES: &[&str] = &[
    ".gemini/settings.json",
    ".cursor/hooks.json",
    ".codex/hooks.json",
    ".codex/config.toml",
    ".factory/settings.json",
    ".copilot/config.json",
];
const HOME_HOOK_DIRS: &[&str] = &[".claude/hooks", ".vibe", ".copilot/hooks"];
const SYSTEM_DIRS: &[&str] = &["/etc/polc", "/etc/claude-code", "/etc/codex"];

impl Protected {
    /// Gather the protected paths for the loaded layers, the config dir and the project.
    pub fn gather(
        loaded: &[LoadedLayer],
        config_dir: Option<&Path>,
        project_root: &Path,
    ) -> Protected {
        let home = super::trust::passwd_home();
        let mut p = Protected {
            entries: Vec::new(),
            home: home.clone(),
        };
        for l in loaded {
            let table = absolute(&l.spec.path, project_root);
            let folder = table.parent().map(Path::to_path_buf);
            p.add(Entry::File(table));
            for s in &l.table.meta().sources {
                let sp = Path::new(&s.path);
                let abs = match &folder {
                    Some(f) if sp.is_relative() => f.join(sp),
                    _ => sp.to_path_buf(),
                };
                let abs = normalize(&abs);
                // A source's folder (e.g. `policies/`) is protected as a whole: adding a
                // file there changes what the next build compiles.
                if let Some(d) = abs.parent() {
                    p.add(Entry::Dir(d.to_path_buf()));
                }
                p.add(Entry::File(abs));
            }
        }
        for rel in super::layers::PROJECT_TABLES {
            p.add(Entry::File(project_root.join(rel)));
        }
        if let Some(c) = config_dir {
            p.add(Entry::Dir(c.to_path_buf()));
        }
        if let Some(c) = crate::table::cache_dir() {
            p.add(Entry::Dir(c));
        }
        if let Ok(exe) = std::env::current_exe() {
            p.add(Entry::File(exe));
        }
        p.add(Entry::Named(
            project_root.join(".claude"),
            "settings",
            ".json",
        ));
        for f in PROJECT_HOOK_FILES {
            p.add(Entry::File(project_root.join(f)));
        }
        for d in PROJECT_HOOK_DIRS {
            p.add(Entry::Dir(project_root.join(d)));
        }
        let claude_home = std::env::var_os("CLAUDE_CONFIG_DIR")
            .filter(|v| !v.is_empty())
            .map(PathBuf::from);
        if let Some(h) = &home {
            p.add(Entry::Named(h.join(".claude"), "settings", ".json"));
            for f in HOME_HOOK_FILES {
                p.add(Entry::File(h.join(f)));
            }
            for d in HOME_HOOK_DIRS {
                p.add(Entry::Dir(h.join(d)));
            }
        }
        if let Some(c) = claude_home {
            p.add(Entry::Named(c, "settings", ".json"));
        }
        for d in SYSTEM_DIRS {
            p.add(Entry::Dir(PathBuf::from(d)));
        }
        p
    }

    /// Add an entry in its lexical form and, when it differs, its canonical form.
    fn add(&mut self, e: Entry) {
        let lex = normalize(e.path());
        let canon = canonical(&lex);
        let with = |p: PathBuf| match &e {
            Entry::File(_) => Entry::File(p),
            Entry::Dir(_) => Entry::Dir(p),
            Entry::Named(_, a, b) => Entry::Named(p, a, b),
        };
        // Duplicates are harmless (a path is checked twice), so no O(n²) search here.
        if canon != lex {
            self.entries.push(with(canon));
        }
        self.entries.push(with(lex));
    }

    /// Is this absolute path protected (the path or something inside a protected folder)?
    pub fn covers(&self, p: &Path) -> bool {
        let lex = normalize(p);
        let canon = canonical(&lex);
        self.entries
            .iter()
            .any(|e| e.covers(&lex) || e.covers(&canon))
    }

    /// Is `p` an ancestor of a protected path (removing or moving it takes one along)?
    fn ancestor_of_protected(&self, p: &Path) -> bool {
        let lex = normalize(p);
        let canon = canonical(&lex);
        self.entries
            .iter()
            .any(|e| e.path().starts_with(&lex) || e.path().starts_with(&canon))
    }

    /// Could a word with unknown parts (as a `*` pattern over an absolute path) name a
    /// protected path or one of its ancestors?
    fn pattern_hits(&self, pat: &[Tok]) -> bool {
        self.entries.iter().any(|e| {
            let mut probe = e.path().to_path_buf();
            let mut probes = vec![probe.clone()];
            if let Entry::Named(_, pre, suf) = e {
                probes.push(probe.join(format!("{pre}{suf}")));
            }
            while probe.pop() {
                probes.push(probe.clone());
            }
            probes
                .iter()
                .any(|q| glob_match(pat, q.as_os_str().as_encoded_bytes()))
        })
    }

    /// Does the request touch a protected path? `cwd` is the command's working directory.
    pub fn check(&self, req: &Request, cwd: &Path) -> Option<Finding> {
        match req {
            Request::Bash { command } => self.check_bash(command, cwd),
            Request::Tool {
                tool,
                subject,
                input_text,
                ..
            } => self.check_tool(tool, subject, input_text, cwd),
        }
    }

    fn check_tool(&self, tool: &str, subject: &str, input: &str, cwd: &Path) -> Option<Finding> {
        if matches!(tool, "read" | "webfetch" | "websearch") {
            return None;
        }
        let mut paths: Vec<String> = vec![subject.to_string()];
        if let Ok(v) = serde_json::from_str::<serde_json::Value>(input) {
            collect_strings(&v, &mut paths, 0);
        }
        for s in paths.iter().filter(|s| !s.is_empty() && s.len() < 4096) {
            let p = self.resolve_literal(s, cwd);
            if self.covers(&p) || (tool == "edit" && self.ancestor_of_protected(&p) && s == subject)
            {
                let verdict = if tool == "edit" {
                    Verdict::Deny
                } else {
                    Verdict::Ask
                };
                return Some(Finding {
                    verdict,
                    what: format!("{tool} of protected path {}", p.display()),
                });
            }
        }
        None
    }

    /// `~`, `~/x`, relative (to `cwd`) → absolute, lexically normalised.
    fn resolve_literal(&self, s: &str, cwd: &Path) -> PathBuf {
        let p = if s == "~" {
            self.home.clone().unwrap_or_else(|| PathBuf::from("/"))
        } else if let Some(rest) = s.strip_prefix("~/") {
            self.home
                .clone()
                .unwrap_or_else(|| PathBuf::from("/"))
                .join(rest)
        } else {
            PathBuf::from(s)
        };
        normalize(&if p.is_absolute() { p } else { cwd.join(p) })
    }

    fn check_bash(&self, command: &str, cwd: &Path) -> Option<Finding> {
        let mut found: Option<Finding> = None;
        let mut raise = |f: Finding| {
            if found.as_ref().is_none_or(|g| f.verdict > g.verdict) {
                found = Some(f);
            }
        };
        // Every directory the command may run in: the start, and each `cd`/`-C` target.
        // Checking relative paths against all of them is conservative about subshells.
        let mut cwds: Vec<PathBuf> = vec![normalize(cwd)];
        let mut unknown_cwd = false;
        let parsed = shell::parse(command);
        let mut work: Vec<Segment> = parsed.segments;
        let mut i = 0;
        while i < work.len() {
            let seg = work[i].clone();
            i += 1;
            if seg.depth < MAX_DEPTH {
                for inner in shell::analyse_segment(&seg).inner {
                    let mut new = match inner {
                        Inner::Script(s) => shell::parse(&s).segments,
                        Inner::Words(ws) => vec![Segment {
                            words: ws,
                            ..Segment::default()
                        }],
                    };
                    for s in &mut new {
                        s.depth += seg.depth + 1;
                    }
                    for s in new {
                        if work.len() < MAX_SEGMENTS {
                            work.push(s);
                        }
                    }
                }
            }
            self.track_cwd(&seg, &mut cwds, &mut unknown_cwd);
            let ctx = Ctx {
                cwds: &cwds,
                unknown_cwd,
            };
            if let Some(f) = self.check_segment(&seg, &ctx) {
                raise(f);
            }
        }
        found
    }

    fn track_cwd(&self, seg: &Segment, cwds: &mut Vec<PathBuf>, unknown: &mut bool) {
        let words = &seg.words;
        for (k, w) in words.iter().enumerate() {
            let name = w.literal().map(|s| basename(&s));
            let target = match name.as_deref() {
                Some("cd") | Some("pushd") if k == first_program(words) => words.get(k + 1),
                _ if w.literal().as_deref() == Some("-C") => words.get(k + 1),
                _ => None,
            };
            let Some(t) = target else { continue };
            match t.literal() {
                Some(s) if s != "-" => {
                    let base: Vec<PathBuf> = cwds.clone();
                    for b in base {
                        let p = self.resolve_literal(&s, &b);
                        if !cwds.contains(&p) && cwds.len() < 64 {
                            cwds.push(p);
                        }
                    }
                }
                _ => *unknown = true,
            }
        }
        if words.len() == 1 && matches!(words[0].literal().as_deref(), Some("cd") | Some("popd")) {
            *unknown = true;
        }
    }

    /// How a word can name a path: a definite path, a pattern, or nothing.
    fn word_targets(&self, w: &Word, ctx: &Ctx) -> Targets {
        let mut out = Targets::default();
        let mut values: Vec<Vec<Tok>> = vec![toks(w, self.home.as_deref())];
        // `--output=FILE`, `of=FILE`: the value after `=` is a path too.
        if let Some(lit) = w.literal() {
            if let Some((_, v)) = lit.split_once('=') {
                values.push(v.bytes().map(Tok::Ch).collect());
            }
        }
        for v in values {
            if v.is_empty() {
                continue;
            }
            let definite: Option<String> = v
                .iter()
                .map(|t| match t {
                    Tok::Ch(c) => Some(*c),
                    Tok::Wild => None,
                })
                .collect::<Option<Vec<u8>>>()
                .map(|b| String::from_utf8_lossy(&b).into_owned());
            match definite {
                Some(s) => {
                    let rel = !s.starts_with('/') && !s.starts_with('~');
                    for c in ctx.cwds {
                        out.paths.push(self.resolve_literal(&s, c));
                    }
                    if rel && ctx.unknown_cwd {
                        let mut pat = vec![Tok::Wild, Tok::Ch(b'/')];
                        pat.extend(s.trim_start_matches("./").bytes().map(Tok::Ch));
                        out.patterns.push(pat);
                    }
                }
                None => {
                    let abs = v.first() == Some(&Tok::Ch(b'/'));
                    if abs {
                        out.patterns.push(v);
                    } else {
                        for c in ctx.cwds {
                            let mut pat: Vec<Tok> = c
                                .as_os_str()
                                .as_encoded_bytes()
                                .iter()
                                .map(|b| Tok::Ch(*b))
                                .collect();
                            pat.push(Tok::Ch(b'/'));
                            pat.extend(v.iter().copied());
                            out.patterns.push(pat);
                        }
                        if v.first() == Some(&Tok::Wild) || ctx.unknown_cwd {
                            let mut pat = vec![Tok::Wild, Tok::Ch(b'/')];
                            pat.extend(v.iter().copied());
                            out.patterns.push(pat);
                            out.patterns.push(v.clone());
                        }
                    }
                }
            }
        }
        out
    }

    fn check_segment(&self, seg: &Segment, ctx: &Ctx) -> Option<Finding> {
        let words = &seg.words;
        let mut best: Option<Finding> = None;
        let mut raise = |verdict: Verdict, what: String| {
            if best.as_ref().is_none_or(|g| verdict > g.verdict) {
                best = Some(Finding { verdict, what });
            }
        };
        // Redirections that write a file.
        for r in &seg.redirects {
            let Some(t) = &r.target else { continue };
            if !r.op.contains('>') {
                continue;
            }
            let tg = self.word_targets(t, ctx);
            if let Some(p) = tg.paths.iter().find(|p| self.covers(p)) {
                raise(
                    Verdict::Deny,
                    format!("redirection writes protected path {}", p.display()),
                );
            } else if tg.patterns.iter().any(|p| self.pattern_hits(p)) {
                raise(
                    Verdict::Ask,
                    format!("redirection to `{}` may write a protected path", t.raw),
                );
            }
        }
        let names: Vec<String> = words
            .iter()
            .map(|w| basename(&w.literal().unwrap_or_else(|| w.lit_value())))
            .collect();
        let prog_idx = first_program(words);
        let prog = names.get(prog_idx).cloned().unwrap_or_default();
        // Any program whose name contains "polc" is treated as polc: `trust` and `build`
        // change what the hook reads; a renamed copy is caught by `trust` needing a tty
        // and by tables being untrusted after they change.
        if names.iter().any(|n| n.contains("polc")) && names.iter().any(|n| n == "trust") {
            raise(Verdict::Deny, "`polc trust` run by an agent".into());
        }
        let write = Write::classify(&names, words);
        for (k, w) in words.iter().enumerate() {
            if k == prog_idx && write.is_none() && !names[k].contains("polc") {
                continue;
            }
            let tg = self.word_targets(w, ctx);
            let hit = tg.paths.iter().find(|p| self.covers(p)).cloned();
            let anc = tg
                .paths
                .iter()
                .find(|p| self.ancestor_of_protected(p))
                .cloned();
            let pat = tg.patterns.iter().any(|p| self.pattern_hits(p));
            match write {
                Some(kind) => {
                    if let Some(p) = hit {
                        raise(
                            Verdict::Deny,
                            format!("`{prog}` writes protected path {}", p.display()),
                        );
                    } else if let (Some(p), true) = (&anc, kind.takes_folders()) {
                        // Removing or moving a folder that holds protected paths.
                        let v = if kind == Write::Extract {
                            Verdict::Ask
                        } else {
                            Verdict::Deny
                        };
                        raise(
                            v,
                            format!(
                                "`{prog}` acts on {}, which holds protected paths",
                                p.display()
                            ),
                        );
                    } else if pat {
                        raise(
                            Verdict::Ask,
                            format!("`{prog}` argument `{}` may name a protected path", w.raw),
                        );
                    }
                }
                None => {
                    if READ_ONLY.contains(&prog.as_str()) || k == prog_idx && hit.is_none() {
                        continue;
                    }
                    if let Some(p) = hit {
                        raise(
                            Verdict::Ask,
                            format!("`{prog}` is given protected path {}", p.display()),
                        );
                    }
                }
            }
        }
        // `polc build` with its default output writes the project table.
        if names.iter().any(|n| n.contains("polc")) && names.iter().any(|n| n == "build") {
            for c in ctx.cwds {
                for rel in super::layers::PROJECT_TABLES {
                    if self.covers(&c.join(rel))
                        && !words
                            .iter()
                            .any(|w| w.raw == "-o" || w.raw.starts_with("--output"))
                    {
                        raise(
                            Verdict::Deny,
                            format!("`{prog} build` writes the project's table"),
                        );
                    }
                }
            }
        }
        best
    }
}

struct Ctx<'a> {
    cwds: &'a [PathBuf],
    unknown_cwd: bool,
}

#[derive(Default)]
struct Targets {
    paths: Vec<PathBuf>,
    patterns: Vec<Vec<Tok>>,
}

/// What kind of write a segment performs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Write {
    /// Removes, moves or changes modes: folders count (`rm -r DIR`).
    Destroy,
    /// Creates or overwrites its target files.
    Create,
    /// Unpacks into a folder (its content is unknown).
    Extract,
}

impl Write {
    fn takes_folders(self) -> bool {
        matches!(self, Write::Destroy | Write::Extract)
    }
    fn classify(names: &[String], words: &[Word]) -> Option<Write> {
        let has = |n: &str| names.iter().any(|x| x == n);
        let lits: Vec<String> = words.iter().map(|w| w.lit_value()).collect();
        let flag = |f: &str| {
            lits.iter()
                .any(|l| l == f || (l.starts_with(f) && f.len() == 2 && !l.starts_with("--")))
        };
        if names.iter().any(|n| DESTROY.contains(&n.as_str())) {
            return Some(Write::Destroy);
        }
        if has("git") && names.iter().any(|n| GIT_WRITES.contains(&n.as_str())) {
            return Some(Write::Destroy);
        }
        if (has("tar")
            && lits.iter().any(|l| {
                l.starts_with("-x")
                    || l.starts_with("--extract")
                    || (!l.starts_with('-') && l.starts_with('x') && l.len() < 8)
            }))
            || has("unzip")
            || has("7z")
            || has("cpio")
        {
            return Some(Write::Extract);
        }
        if names.iter().any(|n| CREATE.contains(&n.as_str())) {
            return Some(Write::Create);
        }
        if (has("sed") || has("perl") || has("ruby"))
            && (flag("-i") || lits.iter().any(|l| l.starts_with("--in-place")))
        {
            return Some(Write::Create);
        }
        if has("dd") && lits.iter().any(|l| l.starts_with("of=")) {
            return Some(Write::Create);
        }
        None
    }
}

/// Programs that remove, move or change files they are given (folders included).
const DESTROY: &[&str] = &[
    "rm", "rmdir", "mv", "unlink", "shred", "chmod", "chown", "chgrp", "chattr", "setfacl",
    "truncate", "rename", "srm",
];
/// Programs that create or overwrite their targets.
const CREATE: &[&str] = &[
    "cp", "ln", "tee", "install", "rsync", "touch", "mkdir", "patch", "scp", "sponge", "ed",
    "mkfifo", "mknod", "link", "curl", "wget", "vi", "vim", "nvim", "nano", "emacs", "code",
];
/// git subcommands that write the working tree from elsewhere.
const GIT_WRITES: &[&str] = &[
    "checkout",
    "restore",
    "rm",
    "mv",
    "apply",
    "am",
    "reset",
    "clean",
    "stash",
    "merge",
    "pull",
    "rebase",
    "cherry-pick",
    "revert",
    "switch",
];
/// Programs polc knows to only read the paths they are given.
const READ_ONLY: &[&str] = &[
    "cat",
    "head",
    "tail",
    "less",
    "more",
    "wc",
    "grep",
    "rg",
    "ls",
    "stat",
    "file",
    "diff",
    "cmp",
    "sha256sum",
    "sha1sum",
    "md5sum",
    "b2sum",
    "cksum",
    "jq",
    "test",
    "[",
    "realpath",
    "readlink",
    "basename",
    "dirname",
    "tree",
    "du",
    "od",
    "xxd",
    "hexdump",
    "strings",
    "nm",
    "echo",
    "printf",
    "pwd",
    "true",
    "false",
    "which",
    "type",
    "cd",
    "pushd",
    "popd",
];

/// The index of the program word: after env assignments and transparent wrappers.
fn first_program(words: &[Word]) -> usize {
    let mut k = 0;
    while k < words.len() {
        let w = &words[k];
        let lit = w.literal().unwrap_or_default();
        if crate::shell::lists::assignment_name(&lit).is_some() {
            k += 1;
            continue;
        }
        if let Some(spec) = crate::shell::lists::wrapper(&basename(&lit)) {
            k += 1;
            let mut positionals = spec.positionals;
            while k < words.len() {
                let o = words[k].literal().unwrap_or_default();
                if o.starts_with('-') {
                    k += 1;
                    if spec.with_arg.contains(&o.as_str()) {
                        k += 1;
                    }
                } else if spec.assignments && crate::shell::lists::assignment_name(&o).is_some() {
                    k += 1;
                } else if positionals > 0 {
                    positionals -= 1;
                    k += 1;
                } else {
                    break;
                }
            }
            continue;
        }
        return k;
    }
    words.len().saturating_sub(1)
}

fn basename(s: &str) -> String {
    s.rsplit('/').next().unwrap_or(s).to_ascii_lowercase()
}

fn collect_strings(v: &serde_json::Value, out: &mut Vec<String>, depth: u32) {
    if depth > 8 || out.len() > 256 {
        return;
    }
    match v {
        serde_json::Value::String(s) => out.push(s.clone()),
        serde_json::Value::Array(a) => a.iter().for_each(|x| collect_strings(x, out, depth + 1)),
        serde_json::Value::Object(m) => m.values().for_each(|x| collect_strings(x, out, depth + 1)),
        _ => {}
    }
}

/// A pattern byte: literal, or any run of bytes (a value polc cannot know, or a glob).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Tok {
    Ch(u8),
    Wild,
}

/// A word as a pattern: `$HOME`/`${HOME}` and a leading `~` are the home directory; other
/// unknown parts and unquoted globs are wildcards.
fn toks(w: &Word, home: Option<&Path>) -> Vec<Tok> {
    let mut v = Vec::new();
    let home_b = home.map(|h| h.as_os_str().as_encoded_bytes().to_vec());
    for (i, p) in w.parts.iter().enumerate() {
        match p {
            Part::Lit(t) => {
                let mut t = t.as_str();
                if i == 0 && (t == "~" || t.starts_with("~/")) {
                    if let Some(h) = &home_b {
                        v.extend(h.iter().map(|b| Tok::Ch(*b)));
                        t = &t[1..];
                    }
                }
                for b in t.bytes() {
                    v.push(if matches!(b, b'*' | b'?' | b'[') {
                        Tok::Wild
                    } else {
                        Tok::Ch(b)
                    });
                }
            }
            Part::Quoted(t) => v.extend(t.bytes().map(Tok::Ch)),
            Part::Unknown(raw) => match (&home_b, raw.as_str()) {
                (Some(h), "$HOME" | "${HOME}") => v.extend(h.iter().map(|b| Tok::Ch(*b))),
                _ => {
                    if v.last() != Some(&Tok::Wild) {
                        v.push(Tok::Wild)
                    }
                }
            },
        }
    }
    v
}

/// `*`-style match of a token pattern against bytes (a wildcard spans `/` too: conservative).
fn glob_match(pat: &[Tok], s: &[u8]) -> bool {
    // Classic two-pointer wildcard matching, linear in practice.
    let (mut p, mut i) = (0usize, 0usize);
    let (mut star, mut mark) = (None::<usize>, 0usize);
    while i < s.len() {
        if p < pat.len() && pat[p] == Tok::Ch(s[i]) {
            p += 1;
            i += 1;
        } else if p < pat.len() && pat[p] == Tok::Wild {
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
    while p < pat.len() && pat[p] == Tok::Wild {
        p += 1;
    }
    p == pat.len()
}

/// Fold `.` and `..` without touching the file system.
pub fn normalize(p: &Path) -> PathBuf {
    // On bytes: `Path::components` is several times slower, and this runs for every
    // protected path and every path a request names.
    use std::os::unix::ffi::{OsStrExt, OsStringExt};
    let b = p.as_os_str().as_bytes();
    let absolute = b.first() == Some(&b'/');
    let mut parts: Vec<&[u8]> = Vec::new();
    for c in b.split(|&x| x == b'/') {
        match c {
            b"" | b"." => {}
            b".." => {
                parts.pop();
            }
            _ => parts.push(c),
        }
    }
    if parts.is_empty() {
        return PathBuf::from("/");
    }
    let mut out = Vec::with_capacity(b.len());
    for (i, c) in parts.iter().enumerate() {
        if absolute || i > 0 {
            out.push(b'/');
        }
        out.extend_from_slice(c);
    }
    PathBuf::from(std::ffi::OsString::from_vec(out))
}

/// Symlinks resolved: the path itself if it exists, else its nearest existing ancestor
/// resolved with the rest appended.
fn canonical(p: &Path) -> PathBuf {
    // Resolve symlinks component by component with the folders already resolved in this
    // process remembered: gathering ~30 protected paths that share a few folders costs one
    // `lstat` per new component instead of a full realpath each (≈170 readlinks before).
    // Keyed by the path's bytes: hashing a `Path` walks its components, several times
    // slower than hashing bytes.
    use std::os::unix::ffi::{OsStrExt, OsStringExt};
    // A component under one that does not exist does not exist either: no `lstat` for it
    // (most agents' hook files are absent, e.g. `~/.gemini/settings.json` without `~/.gemini`).
    /// Path bytes → (resolved bytes, exists).
    type Memo = std::collections::HashMap<Vec<u8>, (Vec<u8>, bool)>;
    thread_local! {
        static MEMO: std::cell::RefCell<Memo> =
            std::cell::RefCell::new(std::collections::HashMap::new());
    }
    fn resolve(p: &[u8], depth: u32) -> (Vec<u8>, bool) {
        if let Some(hit) = MEMO.with(|m| m.borrow().get(p).cloned()) {
            return hit;
        }
        let Some(cut) = p.iter().rposition(|&b| b == b'/') else {
            return (p.to_vec(), true);
        };
        let name = &p[cut + 1..];
        if name.is_empty() {
            return (p.to_vec(), true);
        }
        let (mut joined, parent_exists) = if cut == 0 {
            (b"/".to_vec(), true)
        } else {
            resolve(&p[..cut], depth + 1)
        };
        if joined.last() != Some(&b'/') {
            joined.push(b'/');
        }
        joined.extend_from_slice(name);
        let out = if !parent_exists {
            (joined, false)
        } else {
            let jp = Path::new(std::ffi::OsStr::from_bytes(&joined));
            match std::fs::symlink_metadata(jp) {
                // A link (possibly dangling): the kernel's answer, else where it sits.
                Ok(m) if m.file_type().is_symlink() && depth < 64 => match jp.canonicalize() {
                    Ok(c) => (c.into_os_string().into_encoded_bytes(), true),
                    Err(_) => (joined, false),
                },
                Ok(_) => (joined, true),
                Err(_) => (joined, false),
            }
        };
        MEMO.with(|m| {
            let mut m = m.borrow_mut();
            if m.len() < 4096 {
                m.insert(p.to_vec(), out.clone());
            }
        });
        out
    }
    PathBuf::from(std::ffi::OsString::from_vec(
        resolve(p.as_os_str().as_bytes(), 0).0,
    ))
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

/// What self-protection found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    pub verdict: Verdict,
    pub what: String,
}

/// A rule source with the synthetic self-protection rule as rule [`SYNTHETIC`].
pub struct Guarded<'a> {
    pub inner: &'a dyn RuleSource,
    pub finding: Option<Finding>,
}

impl RuleSource for Guarded<'_> {
    fn verdict(&self, rule: u32) -> Result<Verdict, Corrupt> {
        match (rule, &self.finding) {
            (SYNTHETIC, Some(f)) => Ok(f.verdict),
            _ => self.inner.verdict(rule),
        }
    }
    fn score(&self, rule: u32) -> Result<Score, Corrupt> {
        match rule {
            SYNTHETIC => Ok(Score {
                tier: Tier::Managed,
                priority: i32::MAX,
                literal: 0,
                wildcards: 0,
            }),
            _ => self.inner.score(rule),
        }
    }
    fn describe(&self, rule: u32) -> Result<RuleDesc, Corrupt> {
        match (rule, &self.finding) {
            (SYNTHETIC, Some(f)) => Ok(RuleDesc {
                id: RULE_ID.into(),
                verdict: f.verdict,
                tool: "*".into(),
                source: "polc (built in)".into(),
                line: 0,
                column: 0,
                text: format!("{} writes to polc's protected paths", f.verdict),
                reason: Some(format!(
                    "{}; an agent may not change polc's policy, tables, trust list, binary or hook configuration (a managed or user layer can allow it)",
                    f.what
                )),
            }),
            _ => self.inner.describe(rule),
        }
    }
    fn match_segment(
        &self,
        r: &[u8],
        a: bool,
        h: &str,
        f: &mut dyn FnMut(u32, Match),
    ) -> Result<(), Corrupt> {
        self.inner.match_segment(r, a, h, f)
    }
    fn match_content(
        &self,
        t: &str,
        x: &[&[u8]],
        a: bool,
        h: &str,
        f: &mut dyn FnMut(u32),
    ) -> Result<(), Corrupt> {
        self.inner.match_content(t, x, a, h, f)
    }
    fn match_tool(
        &self,
        t: &str,
        s: &str,
        i: &str,
        h: &str,
        f: &mut dyn FnMut(u32, Match),
    ) -> Result<(), Corrupt> {
        self.inner.match_tool(t, s, i, h, f)
    }
    fn match_path_under(
        &self,
        t: &str,
        d: &Path,
        c: &super::Context,
        h: &str,
        f: &mut dyn FnMut(u32),
    ) -> Result<(), Corrupt> {
        self.inner.match_path_under(t, d, c, h, f)
    }
    fn match_path(
        &self,
        t: &str,
        q: &super::PathQuery,
        c: &super::Context,
        a: bool,
        h: &str,
        f: &mut dyn FnMut(u32),
    ) -> Result<(), Corrupt> {
        self.inner.match_path(t, q, c, a, h, f)
    }
}

/// Decide, then apply self-protection. Describe the winner through a [`Guarded`] holding
/// the returned finding so the synthetic rule has a name.
pub fn decide_guarded(
    src: &dyn RuleSource,
    host: &str,
    req: &Request,
    prot: &Protected,
    cwd: &Path,
    root: &Path,
) -> Result<(Outcome, Option<Finding>), Corrupt> {
    // Paths in the request resolve against the agent's cwd and project root, not ours.
    let home = super::Context::from_env().home;
    let ctx = super::Context {
        cwd: Some(cwd.to_path_buf()),
        project_root: Some(root.to_path_buf()),
        home,
    };
    let mut out = super::decide_in(src, host, req, &ctx)?;
    let Some(f) = prot.check(req, cwd) else {
        return Ok((out, None));
    };
    if out.decision == Decision::Allow && relaxed(src, &out)? {
        return Ok((out, None));
    }
    let raised = Decision::from(f.verdict);
    if raised > out.decision {
        out.decision = raised;
        out.winner = Some(SYNTHETIC);
        out.cause = Cause::Rule { rule: SYNTHETIC };
        out.hits.push(Hit {
            rule: SYNTHETIC,
            verdict: f.verdict,
            possible: false,
            segment: None,
        });
        return Ok((out, Some(f)));
    }
    Ok((out, None))
}

/// An allow relaxes self-protection only if every allowed segment (or the tool call) was
/// allowed by a managed or user layer's rule.
fn relaxed(src: &dyn RuleSource, out: &Outcome) -> Result<bool, Corrupt> {
    let strong = |rule: u32| -> Result<bool, Corrupt> { Ok(src.score(rule)?.tier >= Tier::User) };
    if out.segments.is_empty() {
        let mut any = false;
        for h in out.hits.iter().filter(|h| h.verdict == Verdict::Allow) {
            if !strong(h.rule)? {
                return Ok(false);
            }
            any = true;
        }
        return Ok(any);
    }
    for (i, s) in out.segments.iter().enumerate() {
        if !s.command || s.deny_only {
            continue;
        }
        let mut ok = false;
        for h in out
            .hits
            .iter()
            .filter(|h| h.segment == Some(i) && h.verdict == Verdict::Allow)
        {
            ok |= strong(h.rule)?;
        }
        if !ok {
            return Ok(false);
        }
    }
    Ok(true)
}

#[cfg(test)]
mod tests;
