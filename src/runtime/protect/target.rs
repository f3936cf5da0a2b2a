//! Which protected paths a path or pattern names (resolving `~`, the working folders and
//! links), and the verdict for a use of it.

use super::{gather, polcbin, Protected, Target, Worst};
use crate::ir::Verdict;
use crate::paths::normalize;
use crate::pattern::WILD;
use crate::shell::effects::{Access, Effects, FileUse};
use crate::shell::UNKNOWN;
use std::path::{Path, PathBuf};

impl Protected {
    /// `~`, `~/x`, relative (to `cwd`) → absolute, lexically normalised.
    pub(super) fn resolve(&self, s: &[u8], cwd: &Path) -> PathBuf {
        let s = String::from_utf8_lossy(s);
        crate::paths::lexical(&s, Some(cwd), self.home.as_deref())
    }

    /// [`Self::resolve`], and where `..` after a symbolic link leads the kernel elsewhere,
    /// that folder too ([`crate::paths::physical`]): `cp x h/../settings.json` with
    /// `h -> .claude/hooks` writes `.claude/settings.json`.
    pub(super) fn resolve_all(&self, s: &[u8], cwd: &Path) -> Vec<PathBuf> {
        let lex = self.resolve(s, cwd);
        let text = String::from_utf8_lossy(s);
        match crate::paths::physical(&text, Some(cwd), self.home.as_deref()) {
            Some(p) if p != lex => vec![lex, p],
            _ => vec![lex],
        }
    }

    /// `~/x` under every home (the password database's and `$HOME`).
    pub(super) fn homes_of(&self, path: &[u8]) -> Vec<Vec<u8>> {
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

    pub(super) fn targets(&self, path: &[u8], cwds: &Option<Vec<PathBuf>>) -> Target {
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

    pub(super) fn targets_one(&self, path: &[u8], cwds: &Option<Vec<PathBuf>>) -> Target {
        let unknown = |b: &u8| *b == WILD || *b == UNKNOWN;
        if !path.iter().any(unknown) {
            return match cwds {
                Some(c) => {
                    Target::Paths(c.iter().flat_map(|d| self.resolve_all(path, d)).collect())
                }
                None if path.starts_with(b"/") || path.starts_with(b"~") => {
                    Target::Paths(self.resolve_all(path, Path::new("/")))
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

    #[allow(clippy::too_many_arguments)]
    pub(super) fn check_use(
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
                // The hook's binary, or any file named `polc` (`cp target/*/polc x`).
                let copies_binary =
                    (u.access == Access::Read || (u.access == Access::Delete && is_mover(prog)))
                        && segment_writes
                        && pats.iter().any(|pat| {
                            let base = pat.rsplit(|&b| b == b'/').next().unwrap_or(pat);
                            (memchr::memmem::find(base, b"polc").is_some()
                                && gather::glob_match(base, b"polc"))
                                || self.binaries().iter().any(|b| {
                                    gather::glob_match(pat, b.as_os_str().as_encoded_bytes())
                                })
                        });
                if copies_binary {
                    worst.raise(
                        Verdict::Deny,
                        format!("`{prog}` may copy polc's binary (a renamed copy escapes the hook's checks)"),
                        None,
                    );
                }
                let hits = pats.iter().any(|pat| {
                    self.pattern_hits(pat, u.access.writes())
                        || (u.access.writes()
                            && (pattern_in_git_dir(pat) || self.pattern_hits_elsewhere(pat)))
                });
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

    pub(super) fn check_path(
        &self,
        prog: &str,
        u: &FileUse,
        p: &Path,
        created: &[PathBuf],
        segment_writes: bool,
        worst: &mut Worst,
    ) {
        let covered = self.covers(p);
        // Moving a polc binary away under another name is a renamed copy of polc (red team,
        // session 8: `mv target/debug/polc target/debug/y`).
        if u.access == Access::Delete && is_mover(prog) && polcbin::polc_file(p) {
            worst.raise(
                Verdict::Deny,
                format!(
                    "`{prog}` moves polc's binary {} (a renamed copy escapes the hook's checks)",
                    p.display()
                ),
                Some(p),
            );
        }
        match u.access {
            Access::Write | Access::Meta | Access::Link | Access::Delete => {
                self.check_write(prog, u, p, covered, created, worst)
            }
            Access::Unknown if covered => worst.raise(
                Verdict::Ask,
                format!("`{prog}` is given protected path {}", p.display()),
                Some(p),
            ),
            Access::Unknown if self.hard_link_of(p).is_some() => {
                self.hard_link_write(prog, p, Verdict::Ask, worst)
            }
            // A folder that holds protected paths, given to a program polc does not know
            // (`rename .claude x .claude`, `bindfs /tmp/e .claude`, `rip .claude`: red team,
            // session 5). The project root and the folders above it only when the program's
            // name says it removes things (`rmtrash ..`, `nuke-it .`: session 6): every tool
            // run on `.` (`eslint .`) is given the root.
            Access::Unknown
                if self.ancestor_of_protected(p)
                    && (!self.project_root.starts_with(p) || remover_name(prog)) =>
            {
                worst.raise(
                    Verdict::Ask,
                    format!(
                        "`{prog}` is given {}, which holds protected paths",
                        p.display()
                    ),
                    Some(p),
                )
            }
            Access::Read => self.check_read(prog, u, p, segment_writes, worst),
            _ => {}
        }
        if u.access == Access::Unknown && !covered {
            self.given_elsewhere(prog, p, worst);
        }
    }

    /// A write, metadata change, link or delete of `p` (see [`Self::check_path`]).
    fn check_write(
        &self,
        prog: &str,
        u: &FileUse,
        p: &Path,
        covered: bool,
        created: &[PathBuf],
        worst: &mut Worst,
    ) {
        let certain = |v: Verdict| {
            if self.ask_only(p) {
                Verdict::Ask
            } else {
                v
            }
        };
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
        }
        // A write through another name of a protected file writes that file (the
        // verdict is the file's: ask for `.git/config`, red team session 7). Also
        // under a folder this command creates (the file is there now).
        if !covered && !u.into {
            self.hard_link_write(prog, p, Verdict::Deny, worst);
        }
        // Names written into a folder (`cp -r x/. src/`, `rsync -a --inplace x/
        // src/`) land on the files already there, in place: a hard link of a
        // protected file in it is written (red team, session 7). Unknown names, as for
        // a folder holding protected paths: ask.
        if !covered
            && (u.into || u.recursive)
            && u.access == Access::Write
            && std::fs::symlink_metadata(p).is_ok_and(|m| m.is_dir())
        {
            if let Some(why) = self.hard_link_inside(p) {
                worst.raise(
                    Verdict::Ask,
                    format!("`{prog}` writes into {}: {why}", p.display()),
                    Some(p),
                );
            }
        }
        // (Also for a path protected only at ask level here: `.claude/hooks/` at any
        // depth is a known root's deny-level folder.)
        if !covered || self.ask_only(p) {
            self.write_elsewhere(prog, u, p, worst);
        }
    }

    /// A write of `p` that meets another project's protection (`others.rs`): the verdict
    /// found there; unknown names written into a folder there ask.
    fn write_elsewhere(&self, prog: &str, u: &FileUse, p: &Path, worst: &mut Worst) {
        if !u.into {
            if let Some(h) = self.elsewhere(p, true) {
                worst.raise(
                    h.verdict,
                    format!("`{prog}` writes {}: {}", p.display(), h.why),
                    Some(p),
                );
                return;
            }
        }
        let above = u.into
            || matches!(u.access, Access::Delete | Access::Meta)
            || (u.access == Access::Link && u.recursive);
        if above {
            let h = if u.into {
                self.elsewhere(p, true)
                    .or_else(|| self.elsewhere_above(p, true))
            } else {
                self.elsewhere_above(p, true)
            };
            if let Some(h) = h {
                let v = if u.into { Verdict::Ask } else { h.verdict };
                worst.raise(
                    v,
                    format!("`{prog}` acts on {}: {}", p.display(), h.why),
                    Some(p),
                );
            }
        }
    }

    /// A path outside the project root given to a program polc does not know, that meets
    /// another project's protection: ask. (Inside the root the lists are not read for it: a
    /// program run on the project's own files is the common case.)
    fn given_elsewhere(&self, prog: &str, p: &Path, worst: &mut Worst) {
        if p.starts_with(&self.project_root) {
            return;
        }
        let h = self.elsewhere(p, true).or_else(|| {
            (!self.project_root.starts_with(p) || remover_name(prog))
                .then(|| self.elsewhere_above(p, true))
                .flatten()
        });
        if let Some(h) = h {
            worst.raise(
                Verdict::Ask,
                format!("`{prog}` is given {}: {}", p.display(), h.why),
                Some(p),
            );
        }
    }

    /// `p` is an existing hard link of a protected file: raise the file's verdict, at most
    /// `cap` (ask for a program that may write).
    pub(super) fn hard_link_write(&self, prog: &str, p: &Path, cap: Verdict, worst: &mut Worst) {
        if let Some((b, v)) = self.hard_link_of(p) {
            let what = if b == p {
                format!(
                    "`{prog}` writes {}, a file with several links that may be another name of a protected file",
                    p.display()
                )
            } else {
                format!(
                    "`{prog}` writes {}, a hard link to protected {}",
                    p.display(),
                    b.display()
                )
            };
            worst.raise(v.min(cap), what, Some(&b));
        }
    }

    /// A read: copying polc's binary (with a write in the segment), or the audit log.
    pub(super) fn check_read(
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
        } else if segment_writes && (self.is_binary(p) || polcbin::polc_file(p)) {
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

/// Could a written pattern name something inside a git folder ([`gather::in_git_dir`])? A
/// literal `.git` component, or a final `config`/`HEAD` after an unknown part (`src/$X/config`
/// may be `src/sub/.git/config`).
fn pattern_in_git_dir(pat: &[u8]) -> bool {
    let git = pat
        .split(|&b| b == b'/')
        .any(|c| c.eq_ignore_ascii_case(b".git"));
    let tail = pat.rsplit(|&b| b == b'/').next().unwrap_or(pat);
    let after_wild = pat.contains(&WILD) && matches!(tail, b"config" | b"HEAD" | b"hooks");
    git || after_wild
}

/// Deny, unless every protected path the patterns meet is one a prompt may change
/// (`ask_only`).
pub(super) fn certain_pattern(p: &Protected, pats: &[Vec<u8>]) -> Verdict {
    if pats.iter().any(|pat| p.pattern_hits_where(pat, true, true)) {
        Verdict::Deny
    } else {
        Verdict::Ask
    }
}

/// An absolute pattern with its literal folder (before the first wildcard) folded as a
/// path (`/p/./.c*` → `/p/.c*`, `/p/src/../.c*` → `/p/.c*`); `..` after a wildcard cannot be
/// folded: then anything.
pub(super) fn norm_pattern(pat: &[u8]) -> Vec<u8> {
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

/// Does a program's name say it removes things (`rmtrash`, `safe-rm`, `nuke`, `trash-it`,
/// `git-clean-all`)? For programs the catalogue does not know.
fn remover_name(prog: &str) -> bool {
    const WORDS: &[&str] = &[
        "rm",
        "del",
        "delete",
        "trash",
        "wipe",
        "shred",
        "erase",
        "purge",
        "nuke",
        "clean",
        "cleanup",
        "remove",
        "unlink",
        "rmdir",
        "rimraf",
        "rip",
        "destroy",
        "clear",
        "zap",
        "prune",
        "obliterate",
    ];
    let n = prog.to_ascii_lowercase();
    // De-duplicators replace copies with hard links to the original (`hardlink -cO .`,
    // `jdupes -L`, `rdfind -makehardlinks`, `fclones link`): a copy of a protected file
    // becomes the protected file (red team, session 7).
    const LINKERS: &[&str] = &["hardlink", "dupe", "dedup", "rdfind", "fclones", "czkawka"];
    if LINKERS.iter().any(|l| n.contains(l)) {
        return true;
    }
    n.starts_with("rm")
        || n.ends_with("rm")
        || n.split(|c: char| !c.is_ascii_alphanumeric())
            .any(|t| WORDS.contains(&t) || t.starts_with("trash") || t.starts_with("wipe"))
}

/// Programs whose removal of a source is a move (its content lands elsewhere).
fn is_mover(prog: &str) -> bool {
    matches!(prog, "mv" | "gmv" | "rsync" | "rename" | "ditto")
}
