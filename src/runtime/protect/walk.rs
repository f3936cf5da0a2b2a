//! Self-protection for a shell command: every segment of its walk, the paths its effects
//! name, polc's own guarded subcommands, and links made to protected paths.

use super::tool::polc_in_text;
use super::{polcbin, Finding, Protected, Target, Worst, POLC_GUARDED};
use crate::ir::Verdict;
use crate::paths::normalize;
use crate::shell::effects::{Access, Effects, FileUse};
use crate::shell::Walk;
use std::path::{Path, PathBuf};

impl Protected {
    pub(super) fn check_walk(&self, walk: &Walk, cwd: &Path) -> Option<Finding> {
        let mut worst = Worst::default();
        let cwds = self.folders_run_in(walk, cwd);
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
            // What an unknown program may run (`shell::walk`'s speculative segments): a
            // finding there asks, never denies (`mytool --msg 'rm -rf /'`).
            let outer = w.seg.speculative.then(|| std::mem::take(&mut worst));
            unattestable |= !w.rd.unattestable.is_empty() && !w.seg.speculative;
            for (e, stage) in w.effects.iter().zip(&w.rd.stages) {
                self.polc_command(e, stage, &cwds, cwd, &mut worst);
                if e.program == "git" {
                    self.nested_repository(&cwds, &mut worst);
                }
                self.installs(e, &mut worst);
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
                    // Another project polc knows, whose work tree (and agent configuration
                    // in it) the command rewrites there.
                    for d in cwds.iter().flatten() {
                        if let Some(r) = self.known_tree_at(d) {
                            worst.raise(
                                Verdict::Ask,
                                format!(
                                    "`{}` may rewrite the work tree of {}, a project polc knows, with its agent configuration",
                                    e.program,
                                    r.display()
                                ),
                                Some(&r),
                            );
                        }
                    }
                }
                let writes = command_writes;
                for u in &e.files {
                    if e.follows_links && (u.recursive || e.program == "find") {
                        self.links_leaving(e, u, &cwds, &mut worst);
                    }
                    self.check_use(e, u, &cwds, &created, writes, &mut worst);
                    self.through_links(e, u, &cwds, &links, &created, writes, &mut worst);
                }
                let cp_symbolic = e.program == "cp"
                    && stage.iter().skip(1).any(|a| {
                        a.as_slice() == b"--symbolic-link"
                            || (a.starts_with(b"-") && !a.starts_with(b"--") && a.contains(&b's'))
                    });
                if e.program == "ln" || cp_symbolic {
                    let before = links.len();
                    self.symlinks_made(stage, &cwds, &mut links);
                    self.links_to_ancestors(&links[before..], &mut worst);
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
            if let Some(outer) = outer {
                let found = std::mem::replace(&mut worst, outer).0;
                if let Some(f) = found {
                    let v = f.verdict.min(Verdict::Ask);
                    worst.raise(v, f.what, f.paths.first().map(PathBuf::as_path));
                }
            }
        }
        if unattestable {
            polc_in_unattestable(walk, &mut worst);
        }
        worst.0
    }

    /// git run below the project root uses the nearest repository: a nested one (`.git`
    /// in a subfolder, or a bare one: `HEAD` and `config` in the folder itself) has a
    /// configuration polc has not read, whose `core.fsmonitor`, `diff.external` or hooks run
    /// commands (red team, session 5). Asks; one `lstat` per folder between the command's
    /// folder and the root, only when git runs below the root.
    fn nested_repository(&self, cwds: &Option<Vec<PathBuf>>, worst: &mut Worst) {
        let Some(cwds) = cwds else {
            worst.raise(
                Verdict::Ask,
                "`git` runs in a folder polc cannot know: a repository there may run commands from its configuration".into(),
                None,
            );
            return;
        };
        let root = &self.project_root;
        for f in cwds.iter().filter(|f| f.starts_with(root)) {
            let mut g = f.clone();
            while g != *root && g.starts_with(root) {
                let bare = g.join("HEAD").is_file() && g.join("config").exists();
                if std::fs::symlink_metadata(g.join(".git")).is_ok() || bare {
                    worst.raise(
                        Verdict::Ask,
                        format!(
                            "`git` runs in {}, a repository nested in the project: its configuration may run commands",
                            g.display()
                        ),
                        Some(&g),
                    );
                    return;
                }
                if !g.pop() {
                    break;
                }
            }
        }
    }

    /// Every folder the command may run in: the start and each `cd`/`-C` target
    /// (conservative about which segment runs where); `None` when one cannot be known.
    /// An install that may place a command named polc ahead of the hook's on `PATH`: a
    /// global one always, a local one when its folder is on `PATH` ahead of polc's.
    fn installs(&self, e: &Effects, worst: &mut Worst) {
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
        if e.installs_local {
            if let Some(d) = self.local_bin_ahead() {
                worst.raise(
                    Verdict::Ask,
                    format!(
                        "`{}` installs programs into {}, a folder on PATH ahead of polc's: it may install a command named polc",
                        e.program,
                        d.display()
                    ),
                    None,
                );
            }
        }
    }

    /// For a host whose shell outlives the command (Copilot CLI keeps one bash per session,
    /// and the hook's `cwd` does not follow it): a `cd` that leaves the shell inside a
    /// protected folder, or in a folder below the root that holds protected paths, makes
    /// every later relative write land there unseen (red team, session 6: `cd .claude/hooks`,
    /// then `tee pre.sh`). A folder polc cannot know counts. The reason, when so.
    pub fn persistent_chdir(&self, walk: &Walk, cwd: &Path) -> Option<String> {
        let Some(folders) = self.folders_run_in(walk, cwd) else {
            return Some(
                "the command changes the shell's folder to one polc cannot know, and this host's shell keeps it for later commands".into(),
            );
        };
        let root = &self.project_root;
        folders.iter().skip(1).find_map(|d| {
            let inside = self.covers(d)
                || (d != root && !root.starts_with(d) && self.ancestor_of_protected(d));
            inside.then(|| {
                format!(
                    "the command leaves this host's lasting shell in {}, which holds protected files: later relative writes would land there",
                    d.display()
                )
            })
        })
    }

    fn folders_run_in(&self, walk: &Walk, cwd: &Path) -> Option<Vec<PathBuf>> {
        walk.chdirs().map(|ts| {
            let mut v = vec![normalize(cwd)];
            for t in ts {
                let base: Vec<PathBuf> = v.clone();
                for b in base {
                    // Both the logical folder (bash's `cd`) and the physical one (`cd -P`,
                    // `set -P`: `..` after a link leads to the target's parent).
                    for p in self.resolve_all(&t, &b) {
                        if !v.contains(&p) {
                            v.push(p);
                        }
                    }
                }
            }
            v
        })
    }

    /// polc's guarded subcommands run by an agent: polc by name, the hook's binary or any
    /// other polc binary or wrapper by path (relative paths in each folder the segment may
    /// run in), and `cargo run` in polc's crate (`polcbin`; red team, session 8).
    pub(super) fn polc_command(
        &self,
        e: &Effects,
        stage: &[Vec<u8>],
        cwds: &Option<Vec<PathBuf>>,
        cwd: &Path,
        worst: &mut Worst,
    ) {
        let own = [cwd.to_path_buf()];
        let folders: &[PathBuf] = cwds.as_deref().unwrap_or(&own);
        // A bare name is found on PATH, not here (resolving it named `/git` and cost a PATH
        // scan and a stat per call); a path is resolved in each folder the segment runs in.
        let by_path = stage.first().filter(|p| p.contains(&b'/'));
        // Only a command polc would take as one of its own is worth reading the program for
        // (issue 16: `./gradlew test`, `/usr/bin/git status` read megabytes of the program's
        // segments on every call otherwise).
        let polc_sub = stage[1..]
            .iter()
            .find(|a| !a.starts_with(b"-"))
            .is_some_and(|s| {
                POLC_GUARDED
                    .iter()
                    .chain(&[
                        "lint", "test", "fmt", "explain", "import", "confirm", "annotate",
                    ])
                    .any(|g| g.as_bytes() == s.as_slice())
            });
        let copy_of_polc = polc_sub
            && by_path.is_some_and(|p| {
                folders.iter().any(|d| {
                    self.resolve_all(p, d)
                        .iter()
                        .any(|r| self.is_binary(r) || polcbin::runs_polc(r))
                })
            });
        let cargo_args = (e.program == "cargo")
            .then(|| {
                folders
                    .iter()
                    .find_map(|d| polcbin::cargo_run_args(stage, d))
            })
            .flatten();
        let args: Vec<String> = match cargo_args {
            Some(a) => a,
            None if e.program.contains("polc") || copy_of_polc => stage[1..]
                .iter()
                .map(|a| String::from_utf8_lossy(a).into_owned())
                .collect(),
            None => {
                // A relative program in a folder polc cannot know (`cd $D && ./x build`).
                if cwds.is_none() && by_path.is_some_and(|p| !p.starts_with(b"/")) {
                    let sub = stage[1..].iter().find(|a| !a.starts_with(b"-"));
                    if let Some(s) =
                        sub.filter(|s| POLC_GUARDED.iter().any(|g| g.as_bytes() == s.as_slice()))
                    {
                        worst.raise(
                            Verdict::Ask,
                            format!(
                                "a program in a folder polc cannot know, given `{}` (polc's own command if it is a copy of polc)",
                                String::from_utf8_lossy(s)
                            ),
                            None,
                        );
                    }
                }
                return;
            }
        };
        let sub = args.iter().find(|a| !a.starts_with('-'));
        let fmt_write = sub.is_some_and(|s| s == "fmt") && !args.iter().any(|a| a == "--check");
        if let Some(s) = sub.filter(|s| POLC_GUARDED.contains(&s.as_str()) || fmt_write) {
            worst.raise(Verdict::Deny, format!("`polc {s}` run by an agent"), None);
        }
        if let Some(s) = sub.filter(|s| matches!(s.as_str(), "lint" | "test" | "fmt" | "explain")) {
            self.polc_reads(s, &args, folders, worst);
        }
    }

    /// `polc lint|test|fmt|explain` given a file to read as a policy source: polc prints
    /// the lines of a source it cannot parse (red team, session 8: `polc lint .env` printed
    /// `1 | SECRET=…`), and a `.pol` the agent wrote may `include` any file. A path outside
    /// the project's own policy sources (which the agent cannot write) denies when it is
    /// not a `.pol` file, is a folder, or is a `.pol` that includes something.
    fn polc_reads(&self, sub: &str, args: &[String], folders: &[PathBuf], worst: &mut Worst) {
        let mut paths: Vec<&str> = Vec::new();
        let mut i = 0;
        while i < args.len() {
            let a = args[i].as_str();
            i += 1;
            if a == "--" {
                // `polc explain [OPTIONS] -- COMMAND`: the rest is the command.
                break;
            }
            if let Some(v) = a
                .strip_prefix("--policy=")
                .or_else(|| a.strip_prefix("--table="))
            {
                paths.push(v);
            } else if matches!(a, "--policy" | "--table" | "-p" | "-t") {
                if let Some(v) = args.get(i) {
                    paths.push(v);
                    i += 1;
                }
            } else if matches!(
                a,
                "--format" | "--host" | "--from" | "--tool" | "-o" | "--output" | "--event"
            ) {
                i += 1;
            } else if !a.starts_with('-') && a != sub && sub != "explain" {
                paths.push(a);
            }
        }
        for w in paths {
            for d in folders {
                for p in self.resolve_all(w.as_bytes(), d) {
                    if self.is_policy_source(&p) {
                        continue;
                    }
                    let pol = p.extension().is_some_and(|e| e == "pol") && p.is_file();
                    let includes = pol
                        && std::fs::read(&p).is_ok_and(|b| b.windows(7).any(|x| x == b"include"));
                    if !pol || includes {
                        worst.raise(
                            Verdict::Deny,
                            format!(
                                "`polc {sub}` reads {} as a policy source (polc prints the lines of a source it cannot parse, and an included file's)",
                                p.display()
                            ),
                            Some(&p),
                        );
                        return;
                    }
                }
            }
        }
    }

    /// `ln -s TARGET NAME` (also `-sT`, `--symbolic`, `-t DIR`, several targets into a
    /// folder): record each link's name and target, the target read through the links made
    /// before it (`ln -s .claude c && ln -s c d`). A relative target is relative to the
    /// link's folder.
    pub(super) fn symlinks_made(
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
                if name.len() >= 4
                    && (b"--symbolic".starts_with(name) || name == b"--symbolic-link")
                {
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

    /// A reader or writer that follows links recursing into a folder holding a link that
    /// leads out of it (`src/up -> ..`): it reaches whatever the link leads to. Asks; past
    /// 4,096 entries or 16 levels the folder cannot be looked through, which asks too.
    fn links_leaving(
        &self,
        e: &Effects,
        u: &crate::shell::effects::FileUse,
        cwds: &Option<Vec<PathBuf>>,
        worst: &mut Worst,
    ) {
        let Target::Paths(ps) = self.targets(&u.path, cwds) else {
            return;
        };
        for p in ps {
            if let Some(why) = link_out_of(&p) {
                worst.raise(
                    Verdict::Ask,
                    format!("`{}` follows links under {}: {why}", e.program, p.display()),
                    Some(&p),
                );
            }
        }
    }

    /// A link to a folder that holds it (`ln -s .. src/up`): every recursive reader or
    /// writer that follows links (`grep -R`, `rg -L`, `diff -r`, `find -L … -delete`,
    /// `chown -RL`) then reaches the whole tree above, denied and protected files included
    /// (red team, session 5). Asks.
    fn links_to_ancestors(&self, made: &[(PathBuf, PathBuf)], worst: &mut Worst) {
        for (name, target) in made {
            let parent = name.parent().unwrap_or(Path::new("/"));
            if parent.starts_with(target) {
                worst.raise(
                    Verdict::Ask,
                    format!(
                        "link {} leads to {}, a folder above it: reads and writes that follow links reach everything there",
                        name.display(),
                        target.display()
                    ),
                    Some(name),
                );
            }
        }
    }

    /// A use whose path goes through a link this command made earlier (`c/x`, or `c/`
    /// itself: a trailing slash follows the link) is also checked at the link's target.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn through_links(
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
}

/// A symbolic link under folder `dir` that leads out of it, or a folder too large to look
/// through: the reason; `None` when every link stays inside (or `dir` is not a folder).
fn link_out_of(dir: &Path) -> Option<String> {
    let top = std::fs::canonicalize(dir).ok()?;
    if !top.is_dir() {
        return None;
    }
    let mut stack = vec![(top.clone(), 0u32)];
    let mut seen = 0usize;
    while let Some((d, depth)) = stack.pop() {
        let Ok(rd) = std::fs::read_dir(&d) else {
            continue;
        };
        for ent in rd.flatten() {
            seen += 1;
            if seen > 4096 || depth > 16 {
                return Some("the folder is too large to look through for links".into());
            }
            let Ok(ft) = ent.file_type() else { continue };
            let path = ent.path();
            if ft.is_symlink() {
                let leads = std::fs::canonicalize(&path).ok();
                if leads.as_ref().is_none_or(|t| !t.starts_with(&top)) {
                    return Some(format!("{} leads out of it", path.display()));
                }
            } else if ft.is_dir() {
                stack.push((path, depth + 1));
            }
        }
    }
    None
}

/// Inline code and terminal drivers polc cannot attest: polc's guarded subcommands in their
/// text deny.
fn polc_in_unattestable(walk: &Walk, worst: &mut Worst) {
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
