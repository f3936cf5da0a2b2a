//! Self-protection: an agent must not be able to loosen the policy that judges it. Tool
//! calls that would change polc's protected paths — policy sources, tables, the trust list
//! and config folder, the caches, the polc binary, the agents' hook configuration — are
//! denied where the write is certain and asked where it may be; polc's own commands that
//! change what the hook reads (`trust`, `init`, `build`, …) are denied wherever they are seen.
//!
//! This module has no shell knowledge of its own: it reads the walk of the command
//! ([`crate::shell::walk`]) and the catalogue of program effects
//! ([`crate::shell::effects`]), and judges the **paths** they name. A renamed copy of `rm`
//! writing a protected path by redirection is still a write to that path.
//!
//! Only a managed or user layer can lift it, and only with a rule that names the path: a
//! read/edit path rule whose literal text before its first wildcard is the protected file
//! or a folder above it, or a bash `exact` rule. No wildcard reaches a protected path.

mod gather;

pub use gather::Protected;

use super::{Request, RuleDesc};
use crate::ir::Verdict;
use crate::paths::normalize;
use crate::pattern::WILD;
use crate::shell::effects::{Access, Effects, FileUse};
use crate::shell::{Walk, UNKNOWN};
use crate::tools;
use std::path::{Path, PathBuf};

pub const RULE_ID: &str = "polc-self-protection";
/// The synthetic rule's number in a guarded source.
pub const SYNTHETIC: u32 = u32::MAX;

/// polc subcommands that change what the hook reads or decides; an agent may not run them.
const POLC_GUARDED: &[&str] = &[
    "trust",
    "init",
    "build",
    "hook",
    "decide",
    "session",
    "uninstall",
    "forget",
    "import",
    "confirm",
];

/// What self-protection found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    pub verdict: Verdict,
    pub what: String,
    /// The protected paths involved (for lifting by a rule that names them).
    pub paths: Vec<PathBuf>,
    /// The synthetic rule that reports it ([`RULE_ID`], or the host checks').
    pub rule_id: &'static str,
}

/// The strongest finding so far.
#[derive(Default)]
struct Worst(Option<Finding>);

impl Worst {
    fn raise(&mut self, verdict: Verdict, what: String, path: Option<&Path>) {
        match &mut self.0 {
            Some(f) if f.verdict > verdict => {}
            Some(f) if f.verdict == verdict => {
                if let Some(p) = path {
                    f.paths.push(p.to_path_buf());
                }
            }
            _ => {
                self.0 = Some(Finding {
                    verdict,
                    what,
                    paths: path.map(|p| vec![p.to_path_buf()]).unwrap_or_default(),
                    rule_id: RULE_ID,
                })
            }
        }
    }
}

/// How a path a command names can be read: definite paths, or a pattern (WILD/UNKNOWN).
enum Target {
    Paths(Vec<PathBuf>),
    /// `*`-style pattern over absolute paths (WILD spans `/` too: conservative).
    Pattern(Vec<Vec<u8>>),
}

impl Protected {
    /// Does the request touch a protected path? `cwd` is the agent's working folder.
    pub fn check(&self, req: &Request, walk: Option<&Walk>, cwd: &Path) -> Option<Finding> {
        match (req, walk) {
            (Request::Bash { .. }, Some(w)) => self.check_walk(w, cwd),
            (Request::Bash { command }, None) => self.check_walk(&crate::shell::walk(command), cwd),
            (
                Request::Tool {
                    tool,
                    subject,
                    input_text,
                    ..
                },
                _,
            ) => self.check_tool(tool, subject, input_text, cwd),
        }
    }

    fn check_tool(&self, tool: &str, subject: &str, input: &str, cwd: &Path) -> Option<Finding> {
        if tool == tools::READ {
            // The audit log holds what the agent was denied and why: reading it asks.
            let p = self.resolve(subject.as_bytes(), cwd);
            return self.reads_audit(&p, true).then(|| Finding {
                verdict: Verdict::Ask,
                what: format!("{tool} of polc's audit log {}", p.display()),
                paths: vec![p],
                rule_id: RULE_ID,
            });
        }
        if matches!(tool, tools::WEBFETCH | tools::WEBSEARCH) {
            return None;
        }
        let mut strings: Vec<String> = vec![subject.to_string()];
        let mut worst = Worst::default();
        if let Ok(v) = serde_json::from_str::<serde_json::Value>(input) {
            if !collect_strings(&v, &mut strings, 0) {
                // Fields past the bound are not looked at: they could name a protected path.
                worst.raise(
                    Verdict::Ask,
                    format!("{tool} input deeper or wider than polc reads for protected paths"),
                    None,
                );
            }
        }
        // A tool polc has no name for (MCP) that says it changes files is a certain write.
        let edit = tool == tools::EDIT || (tool != tools::BASH && writes_by_name(tool));
        // The paths a patch names (`*** Add File: .claude/settings.json`): the patch is one
        // string, which read as a path named nothing (bug fixed: `apply_patch` wrote polc's
        // and the agents' configuration).
        let named = super::toolpaths::tool_paths(tool, subject, input).files;
        strings.extend(named.iter().cloned());
        for s in strings.iter().filter(|s| !s.is_empty()) {
            // `file:///p/.claude/settings.json` names the path.
            let s = &super::toolpaths::as_path(s).unwrap_or_else(|| s.clone());
            let p = self.resolve(s.as_bytes(), cwd);
            if self.covers(&p) {
                let v = if edit && !self.ask_only(&p) {
                    Verdict::Deny
                } else {
                    Verdict::Ask
                };
                worst.raise(
                    v,
                    format!("{tool} of protected path {}", p.display()),
                    Some(&p),
                );
            } else if tool == tools::EDIT
                && (s == subject || named.contains(s))
                && self.ancestor_of_protected(&p)
            {
                worst.raise(
                    Verdict::Deny,
                    format!("{tool} of {}, which holds protected paths", p.display()),
                    Some(&p),
                );
            }
        }
        worst.0
    }

    /// `~`, `~/x`, relative (to `cwd`) → absolute, lexically normalised.
    fn resolve(&self, s: &[u8], cwd: &Path) -> PathBuf {
        let s = String::from_utf8_lossy(s);
        crate::paths::lexical(&s, Some(cwd), self.home.as_deref())
    }

    /// `~/x` under every home (the password database's and `$HOME`).
    fn homes_of(&self, path: &[u8]) -> Vec<Vec<u8>> {
        let tilde = path == b"~" || path.starts_with(b"~/");
        if !tilde || self.homes.len() < 2 {
            return vec![path.to_vec()];
        }
        self.homes
            .iter()
            .map(|h| {
                let mut v = h.as_os_str().as_encoded_bytes().to_vec();
                v.extend_from_slice(&path[1..]);
                v
            })
            .collect()
    }

    fn targets(&self, path: &[u8], cwds: &Option<Vec<PathBuf>>) -> Target {
        let mut all_paths = Vec::new();
        let mut all_pats = Vec::new();
        for p in self.homes_of(path) {
            match self.targets_one(&p, cwds) {
                Target::Paths(v) => all_paths.extend(v),
                Target::Pattern(v) => all_pats.extend(v),
            }
        }
        if all_pats.is_empty() {
            Target::Paths(all_paths)
        } else {
            Target::Pattern(all_pats.into_iter().map(|p| norm_pattern(&p)).collect())
        }
    }

    fn targets_one(&self, path: &[u8], cwds: &Option<Vec<PathBuf>>) -> Target {
        let unknown = |b: &u8| *b == WILD || *b == UNKNOWN;
        if !path.iter().any(unknown) {
            return match cwds {
                Some(c) => Target::Paths(c.iter().map(|d| self.resolve(path, d)).collect()),
                None if path.starts_with(b"/") || path.starts_with(b"~") => {
                    Target::Paths(vec![self.resolve(path, Path::new("/"))])
                }
                // Relative to a folder polc cannot know: anywhere.
                None => {
                    let mut p = vec![WILD, b'/'];
                    p.extend_from_slice(path.strip_prefix(b"./").unwrap_or(path));
                    Target::Pattern(vec![p])
                }
            };
        }
        let mut pat: Vec<u8> = path
            .iter()
            .map(|&b| if unknown(&b) { WILD } else { b })
            .collect();
        if let Some(rest) = pat.strip_prefix(b"~/") {
            if let Some(h) = &self.home {
                let mut v = h.as_os_str().as_encoded_bytes().to_vec();
                v.push(b'/');
                v.extend_from_slice(rest);
                pat = v;
            }
        }
        if pat.first() == Some(&b'/') {
            return Target::Pattern(vec![pat]);
        }
        let mut pats = Vec::new();
        for c in cwds.iter().flatten() {
            let mut p = c.as_os_str().as_encoded_bytes().to_vec();
            p.push(b'/');
            p.extend_from_slice(&pat);
            pats.push(p);
        }
        if cwds.is_none() || pat.first() == Some(&WILD) {
            pats.push(pat.clone());
            let mut p = vec![WILD, b'/'];
            p.extend_from_slice(&pat);
            pats.push(p);
        }
        Target::Pattern(pats)
    }

    fn check_walk(&self, walk: &Walk, cwd: &Path) -> Option<Finding> {
        let mut worst = Worst::default();
        // Every folder the command may run in: the start and each `cd`/`-C` target
        // (conservative about which segment runs where).
        let cwds: Option<Vec<PathBuf>> = walk.chdirs().map(|ts| {
            let mut v = vec![normalize(cwd)];
            for t in ts {
                let base: Vec<PathBuf> = v.clone();
                for b in base {
                    let p = self.resolve(&t, &b);
                    if !v.contains(&p) {
                        v.push(p);
                    }
                }
            }
            v
        });
        // Links and moved folders this command makes: a path under one is unknown.
        let mut created: Vec<PathBuf> = Vec::new();
        // Symbolic links this command makes (name, target): a later path through one
        // (`ln -s .claude c; rm -rf c/`) reaches the target.
        let mut links: Vec<(PathBuf, PathBuf)> = Vec::new();
        let mut unattestable = !walk.unattestable.is_empty();
        // A copy of polc's binary made anywhere in the command (`cat polc | tee x`).
        let command_writes = walk
            .segments
            .iter()
            .any(|w| w.file_uses().any(|u| u.access.writes()));
        for w in &walk.segments {
            unattestable |= !w.rd.unattestable.is_empty();
            for (e, stage) in w.effects.iter().zip(&w.rd.stages) {
                self.polc_command(e, stage, &mut worst);
                if e.installs {
                    worst.raise(
                        Verdict::Ask,
                        format!(
                            "`{}` may install a command named polc ahead of the hook's",
                            e.program
                        ),
                        None,
                    );
                }
                if e.tree {
                    if let Some(cfg) = self.agent_config_present() {
                        worst.raise(
                            Verdict::Ask,
                            format!(
                                "`{}` may rewrite the work tree, which holds agent configuration ({}); install the hook at user scope, outside the repository, to avoid these prompts",
                                e.program,
                                cfg.display()
                            ),
                            Some(&cfg),
                        );
                    }
                }
                let writes = command_writes;
                for u in &e.files {
                    self.check_use(e, u, &cwds, &created, writes, &mut worst);
                    self.through_links(e, u, &cwds, &links, &created, writes, &mut worst);
                }
                if e.program == "ln" {
                    self.symlinks_made(stage, &cwds, &mut links);
                }
                if matches!(e.program.as_str(), "ln" | "link" | "mv" | "cp") {
                    for u in e.files.iter().filter(|u| u.access == Access::Write) {
                        if let Target::Paths(ps) = self.targets(&u.path, &cwds) {
                            created.extend(ps);
                        }
                    }
                }
            }
            for u in &w.redirects {
                let e = Effects {
                    program: "redirection".into(),
                    ..Effects::default()
                };
                self.check_use(&e, u, &cwds, &created, true, &mut worst);
            }
        }
        if unattestable {
            // Inline code and terminal drivers: polc's guarded subcommands in their text.
            for w in &walk.segments {
                if let Some(sub) = polc_in_text(&w.seg.text) {
                    worst.raise(
                        Verdict::Deny,
                        format!("`polc {sub}` run by an agent (through a runner)"),
                        None,
                    );
                }
            }
        }
        worst.0
    }

    fn polc_command(&self, e: &Effects, stage: &[Vec<u8>], worst: &mut Worst) {
        // A renamed copy of polc run by its path. (A bare name is found on PATH, not under
        // `/`: resolving it here named `/git` and cost a PATH scan and a stat per call.)
        let by_path = stage.first().filter(|p| p.contains(&b'/'));
        let copy_of_polc = by_path.is_some_and(|p| {
            let p = self.resolve(p, Path::new("/"));
            self.binaries().iter().any(|b| self.same_file(&p, b))
        });
        if !e.program.contains("polc") && !copy_of_polc {
            return;
        }
        let args: Vec<String> = stage[1..]
            .iter()
            .map(|a| String::from_utf8_lossy(a).into_owned())
            .collect();
        let sub = args.iter().find(|a| !a.starts_with('-'));
        let fmt_write = sub.is_some_and(|s| s == "fmt") && !args.iter().any(|a| a == "--check");
        if let Some(s) = sub.filter(|s| POLC_GUARDED.contains(&s.as_str()) || fmt_write) {
            worst.raise(Verdict::Deny, format!("`polc {s}` run by an agent"), None);
        }
    }

    /// `ln -s TARGET NAME` (also `-sT`, `--symbolic`, `-t DIR`, several targets into a
    /// folder): record each link's name and target, the target read through the links made
    /// before it (`ln -s .claude c && ln -s c d`). A relative target is relative to the
    /// link's folder.
    fn symlinks_made(
        &self,
        stage: &[Vec<u8>],
        cwds: &Option<Vec<PathBuf>>,
        links: &mut Vec<(PathBuf, PathBuf)>,
    ) {
        let Some(cwds) = cwds else { return };
        let args = &stage[1.min(stage.len())..];
        let mut symbolic = false;
        let mut dir: Option<&[u8]> = None;
        let mut ops: Vec<&[u8]> = Vec::new();
        let mut k = 0;
        let mut after = false;
        while k < args.len() {
            let a = args[k].as_slice();
            k += 1;
            if after || !a.starts_with(b"-") || a == b"-" {
                ops.push(a);
                continue;
            }
            if a == b"--" {
                after = true;
            } else if a.starts_with(b"--") {
                let name = a.split(|&b| b == b'=').next().unwrap_or(a);
                if name.len() >= 4 && b"--symbolic".starts_with(name) {
                    symbolic = true;
                } else if name.len() >= 4 && b"--target-directory".starts_with(name) {
                    dir = match a.iter().position(|&b| b == b'=') {
                        Some(i) => Some(&a[i + 1..]),
                        None => {
                            k += 1;
                            args.get(k - 1).map(|v| v.as_slice())
                        }
                    };
                } else if name.len() >= 4 && b"--suffix".starts_with(name) && !a.contains(&b'=') {
                    k += 1;
                }
            } else {
                // A short cluster: `-s`, `-sf`, `-sT`, `-st DIR`, `-S SUF`.
                symbolic |= a.contains(&b's');
                if let Some(i) = a.iter().position(|&b| b == b't' || b == b'S') {
                    let v = if i + 1 < a.len() {
                        Some(&a[i + 1..])
                    } else {
                        k += 1;
                        args.get(k - 1).map(|v| v.as_slice())
                    };
                    if a[i] == b't' {
                        dir = v;
                    }
                }
            }
        }
        if !symbolic || ops.is_empty() {
            return;
        }
        let mut pairs: Vec<(Vec<u8>, &[u8])> = Vec::new();
        let join = |d: &[u8], t: &[u8]| {
            let mut v = d.to_vec();
            v.push(b'/');
            v.extend_from_slice(crate::shell::effects::basename(t));
            v
        };
        match (dir, ops.len()) {
            (Some(d), _) => pairs.extend(ops.iter().map(|t| (join(d, t), *t))),
            (None, 1) => pairs.push((crate::shell::effects::basename(ops[0]).to_vec(), ops[0])),
            (None, n) => {
                let last = ops[n - 1];
                for t in &ops[..n - 1] {
                    // NAME itself, or NAME/BASENAME when NAME is an existing folder.
                    if n == 2 {
                        pairs.push((last.to_vec(), *t));
                    }
                    pairs.push((join(last, t), *t));
                }
            }
        }
        for (name, target) in pairs {
            for cwd in cwds {
                let name = self.resolve(&name, cwd);
                let parent = name.parent().unwrap_or(Path::new("/")).to_path_buf();
                let mut target = self.resolve(target, &parent);
                // A target through a link made before: that link's target.
                if let Some((n, t)) = links.iter().find(|(n, _)| target.starts_with(n)) {
                    if let Ok(rest) = target.strip_prefix(n) {
                        target = t.join(rest);
                    }
                }
                if !links.contains(&(name.clone(), target.clone())) && links.len() < 64 {
                    links.push((name, target));
                }
            }
        }
    }

    /// A use whose path goes through a link this command made earlier (`c/x`, or `c/`
    /// itself: a trailing slash follows the link) is also checked at the link's target.
    #[allow(clippy::too_many_arguments)]
    fn through_links(
        &self,
        e: &Effects,
        u: &FileUse,
        cwds: &Option<Vec<PathBuf>>,
        links: &[(PathBuf, PathBuf)],
        created: &[PathBuf],
        segment_writes: bool,
        worst: &mut Worst,
    ) {
        if links.is_empty() {
            return;
        }
        let Target::Paths(ps) = self.targets(&u.path, cwds) else {
            return;
        };
        let slash = u.path.ends_with(b"/") || u.path.ends_with(b"/.");
        for p in ps {
            for (name, target) in links {
                let Ok(rest) = p.strip_prefix(name) else {
                    continue;
                };
                if rest.as_os_str().is_empty() && !slash {
                    // The link itself (`rm c`), not what it points to.
                    continue;
                }
                let q = target.join(rest);
                self.check_path(&e.program, u, &q, created, segment_writes, worst);
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn check_use(
        &self,
        e: &Effects,
        u: &FileUse,
        cwds: &Option<Vec<PathBuf>>,
        created: &[PathBuf],
        segment_writes: bool,
        worst: &mut Worst,
    ) {
        let prog = &e.program;
        match self.targets(&u.path, cwds) {
            Target::Paths(ps) => {
                for p in ps {
                    self.check_path(prog, u, &p, created, segment_writes, worst);
                }
            }
            Target::Pattern(pats) => {
                let copies_binary = u.access == Access::Read
                    && segment_writes
                    && pats.iter().any(|pat| {
                        self.binaries()
                            .iter()
                            .any(|b| gather::glob_match(pat, b.as_os_str().as_encoded_bytes()))
                    });
                if copies_binary {
                    worst.raise(
                        Verdict::Deny,
                        format!("`{prog}` may copy polc's binary (a renamed copy escapes the hook's checks)"),
                        None,
                    );
                }
                let hits = pats
                    .iter()
                    .any(|pat| self.pattern_hits(pat, u.access.writes()));
                let reads_audit = u.access == Access::Read
                    && pats.iter().any(|pat| self.pattern_reads_audit(pat));
                // `git rm '*.json'`, `git rm -r ':(glob).c*'`: git matches its own glob
                // against every tracked path (its `*` crosses `/`), so a protected path the
                // pattern meets is removed for certain, not maybe (an expansion, UNKNOWN,
                // stays a maybe).
                if hits
                    && u.access == Access::Delete
                    && e.program == "git"
                    && !u.path.contains(&UNKNOWN)
                {
                    worst.raise(
                        certain_pattern(self, &pats),
                        format!(
                            "`git` pathspec `{}` removes protected paths",
                            String::from_utf8_lossy(&u.path).replace(['\u{FFFD}'], "*")
                        ),
                        None,
                    );
                } else if (hits && (u.access.writes() || u.access == Access::Unknown))
                    || reads_audit
                {
                    worst.raise(
                        Verdict::Ask,
                        format!(
                            "`{prog}` argument `{}` may name a protected path",
                            String::from_utf8_lossy(&u.path).replace(['\u{FFFD}'], "*")
                        ),
                        None,
                    );
                }
            }
        }
    }

    fn check_path(
        &self,
        prog: &str,
        u: &FileUse,
        p: &Path,
        created: &[PathBuf],
        segment_writes: bool,
        worst: &mut Worst,
    ) {
        let covered = self.covers(p);
        let certain = |v: Verdict| {
            if self.ask_only(p) {
                Verdict::Ask
            } else {
                v
            }
        };
        match u.access {
            Access::Write | Access::Meta | Access::Link | Access::Delete => {
                if covered && !u.into {
                    worst.raise(
                        certain(Verdict::Deny),
                        format!("`{prog}` writes protected path {}", p.display()),
                        Some(p),
                    );
                } else if (covered || self.ancestor_of_protected(p)) && u.into {
                    worst.raise(
                        Verdict::Ask,
                        format!(
                            "`{prog}` writes unknown names into {}, which holds protected paths",
                            p.display()
                        ),
                        Some(p),
                    );
                } else if (matches!(u.access, Access::Delete | Access::Meta)
                    || (u.access == Access::Link && u.recursive))
                    && self.ancestor_of_protected(p)
                {
                    worst.raise(
                        certain(Verdict::Deny),
                        format!(
                            "`{prog}` acts on {}, which holds protected paths",
                            p.display()
                        ),
                        Some(p),
                    );
                } else if let Some(c) = created
                    .iter()
                    .find(|c| p.starts_with(c) && p != c.as_path())
                {
                    worst.raise(
                        Verdict::Ask,
                        format!(
                            "`{prog}` writes under {}, which this command creates: polc cannot tell where it leads",
                            c.display()
                        ),
                        Some(p),
                    );
                } else if let Some(b) = self.hard_link_of(p) {
                    worst.raise(
                        Verdict::Deny,
                        format!(
                            "`{prog}` writes {}, a hard link to protected {}",
                            p.display(),
                            b.display()
                        ),
                        Some(&b),
                    );
                }
            }
            Access::Unknown if covered => worst.raise(
                Verdict::Ask,
                format!("`{prog}` is given protected path {}", p.display()),
                Some(p),
            ),
            Access::Read => self.check_read(prog, u, p, segment_writes, worst),
            _ => {}
        }
    }

    /// A read: copying polc's binary (with a write in the segment), or the audit log.
    fn check_read(
        &self,
        prog: &str,
        u: &FileUse,
        p: &Path,
        segment_writes: bool,
        worst: &mut Worst,
    ) {
        if segment_writes && u.recursive && self.binaries().iter().any(|b| b.starts_with(p)) {
            worst.raise(
                Verdict::Deny,
                format!("`{prog}` copies {}, which holds polc's binary", p.display()),
                Some(p),
            )
        } else if segment_writes && self.is_binary(p) {
            worst.raise(
                Verdict::Deny,
                format!(
                    "`{prog}` copies polc's binary {} (a renamed copy escapes the hook's checks)",
                    p.display()
                ),
                Some(p),
            )
        } else if self.reads_audit(p, u.recursive) {
            // Issue 14: the audit log records what the agent was denied and why.
            worst.raise(
                Verdict::Ask,
                format!("`{prog}` reads polc's audit log {}", p.display()),
                Some(p),
            )
        }
    }
}

/// Deny, unless every protected path the patterns meet is one a prompt may change
/// (`ask_only`).
fn certain_pattern(p: &Protected, pats: &[Vec<u8>]) -> Verdict {
    if pats.iter().any(|pat| p.pattern_hits_where(pat, true, true)) {
        Verdict::Deny
    } else {
        Verdict::Ask
    }
}

/// An absolute pattern with its literal folder (before the first wildcard) folded as a
/// path (`/p/./.c*` → `/p/.c*`, `/p/src/../.c*` → `/p/.c*`); `..` after a wildcard cannot be
/// folded: then anything.
fn norm_pattern(pat: &[u8]) -> Vec<u8> {
    let Some(w) = pat.iter().position(|&b| b == WILD) else {
        return pat.to_vec();
    };
    if !pat.starts_with(b"/") {
        return pat.to_vec();
    }
    if pat[w..].windows(3).any(|x| x == b"/..") {
        return vec![WILD];
    }
    let cut = pat[..w].iter().rposition(|&b| b == b'/').unwrap_or(0);
    let head = String::from_utf8_lossy(&pat[..cut]).into_owned();
    let mut out = normalize(Path::new(&head))
        .as_os_str()
        .as_encoded_bytes()
        .to_vec();
    if out.last() != Some(&b'/') {
        out.push(b'/');
    }
    out.extend_from_slice(&pat[cut + 1..]);
    out
}

/// `polc SUB` anywhere in a text (inline code, typed keys): the guarded subcommand.
fn polc_in_text(text: &str) -> Option<String> {
    let words: Vec<&str> = text
        .split(|c: char| c.is_whitespace() || "'\"`;|&(),[]{}".contains(c))
        .filter(|w| !w.is_empty())
        .collect();
    for (i, w) in words.iter().enumerate() {
        let base = w.rsplit('/').next().unwrap_or(w);
        if base.contains("polc") {
            if let Some(s) = words[i + 1..]
                .iter()
                .take(4)
                .find(|s| POLC_GUARDED.contains(s))
            {
                return Some(s.to_string());
            }
        }
    }
    None
}

/// Does an MCP/unknown tool's name say it changes files (`write_file`, `move_file`,
/// `create_directory`, `edit_block`, `delete`)? Then a protected path in its input is a
/// certain write (deny); other tools that may write ask.
fn writes_by_name(tool: &str) -> bool {
    let name = tool
        .rsplit("__")
        .next()
        .unwrap_or(tool)
        .to_ascii_lowercase();
    [
        "write",
        "edit",
        "create",
        "delete",
        "remove",
        "move",
        "rename",
        "put",
        "save",
        "upload",
        "patch",
        "replace",
        "append",
        "insert",
        "copy",
        "mkdir",
        "update",
        "set",
        "overwrite",
        "truncate",
        "chmod",
        "unlink",
        "rm",
    ]
    .iter()
    .any(|w| {
        name.split(|c: char| !c.is_ascii_alphanumeric())
            .any(|p| p == *w)
            || (w.len() >= 4 && name.contains(w))
    })
}

/// Every string of a tool input; false when the input is deeper or wider than the bound
/// (the caller then asks: what lies past it is not read).
fn collect_strings(v: &serde_json::Value, out: &mut Vec<String>, depth: u32) -> bool {
    if depth > 16 || out.len() > 4096 {
        return false;
    }
    match v {
        serde_json::Value::String(s) => {
            out.push(s.clone());
            true
        }
        serde_json::Value::Array(a) => a.iter().all(|x| collect_strings(x, out, depth + 1)),
        serde_json::Value::Object(m) => m.values().all(|x| collect_strings(x, out, depth + 1)),
        _ => true,
    }
}

/// Is this rule a bash `exact` rule (DSL `exact`, or a Claude `Bash(...)` without `*`)?
pub fn is_exact_bash(d: &RuleDesc) -> bool {
    gather::is_exact_bash(d)
}

pub use gather::rule_names_paths;

mod guarded;

pub use guarded::{decide_guarded, Guarded};

#[cfg(test)]
mod tests;
