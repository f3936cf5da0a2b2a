//! Other projects polc knows, and hook configuration by name outside the project.
//!
//! The protected set is built for the session's project root. A second project polc has
//! seen — in the trust list (`<config>/trusted`), in `<config>/agent-config-roots` or in a
//! recorded table (`<state>/tables/`) — keeps its hook configuration, policy sources and
//! tables from a session rooted elsewhere (red team, session 7: a session in A rewrote B's
//! `.claude/settings.json`, `policies/default.pol` and deleted B's table). Those lists are
//! read only when a write (or a path given to a program polc does not know) is looked at,
//! so a command that writes nothing pays nothing.
//!
//! | the written path | verdict |
//! |---|---|
//! | a protected path of a known root (its agent configuration, `policies/`, `permcheck.json`, `compiled/policy.bin`, `.polc/`), a table recorded for it, or a folder above one | deny (ask for a tool that only may write) |
//! | outside the project root, named like hook configuration or polc's files (`…/.claude/settings*.json`, `…/.gemini/settings.json`, `…/.mcp.json`, `…/.claude/hooks/…`, `…/compiled/policy.bin`, `…/.polc/…`, `…/policies/*.pol`, `…/permcheck.json`, …) or a folder holding such names (`…/.claude`, `…/compiled`) | ask |
//! | outside the project root, when polc knows more roots or records than it reads | ask |
//!
//! The names are asked anywhere outside the root, not only in known roots: a root polc
//! has not recorded (its hook never ran there, or a list was past its bound) is still a
//! place whose hook configuration an agent has no business rewriting, and a name is all
//! polc can go on there. Inside the project root only the known roots below it count
//! (a nested `.claude/settings.json` of a fixture is the project's own file).

use super::gather::{PROJECT_DIRS, PROJECT_FILES};
use super::Protected;
use crate::ir::Verdict;
use crate::paths::normalize;
use std::path::{Path, PathBuf};

/// At most this many distinct roots (and recorded tables) are read; past it every write
/// outside the project root asks.
pub(super) const MAX_ROOTS: usize = 1024;
/// At most this many records of `<state>/tables/` are opened.
const MAX_RECORDS: usize = 256;
/// A list file larger than this is not read whole: a bound met.
const MAX_LIST: u64 = 1 << 20;

/// The roots and tables polc knows, folded for comparison.
#[derive(Clone, Debug, Default)]
pub(super) struct Others {
    /// Known roots other than the project root, as listed (normalised) and case-folded.
    pub(super) roots: Vec<(PathBuf, String)>,
    /// Recorded and trusted tables, as listed and case-folded.
    pub(super) tables: Vec<(PathBuf, String)>,
    /// A list was larger than polc reads.
    pub(super) bounded: bool,
}

/// One finding about a path elsewhere.
pub(super) struct Elsewhere {
    pub verdict: Verdict,
    pub why: String,
}

fn fold(s: &str) -> String {
    // ASCII (almost every path) without the Unicode tables.
    if s.is_ascii() {
        return s.to_ascii_lowercase();
    }
    s.to_lowercase().replace('\u{17F}', "s")
}

/// A listed absolute path, normalised only when it needs it (`normalize` parses components:
/// most of the cost of reading a list).
fn listed(r: &str) -> Option<PathBuf> {
    if !r.starts_with('/') {
        return None;
    }
    // One pass: no empty, `.` or `..` component.
    let plain = r == "/"
        || r[1..]
            .split('/')
            .all(|c| !c.is_empty() && c != "." && c != "..");
    Some(if plain {
        PathBuf::from(r)
    } else {
        normalize(Path::new(r))
    })
}

/// A path list with its folded forms, each once, at most [`MAX_ROOTS`].
#[derive(Default)]
struct Seen {
    set: std::collections::HashSet<String>,
}

impl Seen {
    /// Add `r` to `list` unless it is there, `skip`, or past the bound (then `bounded`).
    fn add(&mut self, list: &mut Vec<(PathBuf, String)>, bounded: &mut bool, r: &str, skip: &str) {
        let Some(n) = listed(r) else { return };
        let f = fold(&n.to_string_lossy());
        if f == skip || f == "/" || self.set.contains(&f) {
            return;
        }
        if list.len() >= MAX_ROOTS {
            *bounded = true;
            return;
        }
        self.set.insert(f.clone());
        list.push((n, f));
    }
}

impl Others {
    /// Read the trust list, the agent-configuration roots and the table records.
    pub(super) fn read(
        config_dirs: &[PathBuf],
        state: Option<&Path>,
        project_root: &Path,
    ) -> Others {
        let mut o = Others::default();
        let root = fold(&project_root.to_string_lossy());
        let (mut seen_roots, mut seen_tables) = (Seen::default(), Seen::default());
        let mut add_root = |o: &mut Others, r: &str| {
            seen_roots.add(&mut o.roots, &mut o.bounded, r, &root);
        };
        let mut add_table = |o: &mut Others, t: &str| {
            seen_tables.add(&mut o.tables, &mut o.bounded, t, "");
        };
        for c in config_dirs {
            if let Some(text) = read_list(&c.join(super::super::trust::TRUST_FILE), &mut o) {
                for l in text.lines() {
                    let f: Vec<&str> = l.split('\t').collect();
                    if f.len() >= 3 {
                        add_root(&mut o, f[1]);
                        add_table(&mut o, f[2]);
                    }
                }
            }
            if let Some(text) = read_list(&c.join(super::super::tripwire::SEEN_FILE), &mut o) {
                for l in text.lines() {
                    add_root(&mut o, l);
                }
            }
        }
        if let Some(s) = state {
            let dir = s.join(super::super::state::TABLES_DIR);
            if let Ok(rd) = std::fs::read_dir(&dir) {
                for (k, e) in rd.flatten().enumerate() {
                    if k >= MAX_RECORDS {
                        o.bounded = true;
                        break;
                    }
                    let Ok(Some((text, _))) = super::super::state::read_record(&e.path()) else {
                        continue;
                    };
                    if let Some(f) = super::super::state::unseal(&text) {
                        if f.len() == 3 && f[0] == "table1" {
                            add_root(&mut o, f[1]);
                            add_table(&mut o, f[2]);
                        }
                    }
                }
            }
        }
        o
    }
}

/// A list file's text; a file over [`MAX_LIST`] is a bound met (its head is still read).
fn read_list(p: &Path, o: &mut Others) -> Option<String> {
    use std::io::Read;
    let f = std::fs::File::open(p).ok()?;
    let mut text = String::new();
    let n = f.take(MAX_LIST + 1).read_to_string(&mut text).ok()?;
    if n as u64 > MAX_LIST {
        o.bounded = true;
    }
    Some(text)
}

/// Is `rel` (folded, relative to a project root, no leading `/`) one of a project's
/// protected paths? `known`: the project is one polc knows (its whole `policies/` folder
/// counts); otherwise only names that are polc's or hook configuration's own.
fn rel_protected(rel: &str, known: bool) -> bool {
    let under = |d: &str| rel == d || rel.strip_prefix(d).is_some_and(|r| r.starts_with('/'));
    PROJECT_FILES.contains(&rel)
        || PROJECT_DIRS.iter().any(|d| under(d))
        || under(".polc")
        || rel == "permcheck.json"
        || rel == "compiled/policy.bin"
        || rel
            .strip_prefix(".claude/")
            .is_some_and(|n| !n.contains('/') && n.starts_with("settings") && n.ends_with(".json"))
        || if known {
            under("policies")
        } else {
            rel.strip_prefix("policies/")
                .is_some_and(|n| !n.contains('/') && (n.ends_with(".pol") || n == "permcheck.json"))
        }
}

/// Is `rel` a folder above one of a project's protected paths (`.claude`, `compiled`,
/// `.github`)? The empty `rel` (the root itself) only for a known root.
fn rel_ancestor(rel: &str, known: bool) -> bool {
    if rel.is_empty() {
        return known;
    }
    let above = |q: &str| q.strip_prefix(rel).is_some_and(|r| r.starts_with('/'));
    PROJECT_FILES
        .iter()
        .chain(PROJECT_DIRS)
        .chain(&[
            ".polc/x",
            "compiled/policy.bin",
            ".claude/settings.json",
            "policies/x.pol",
        ])
        .any(|q| above(q))
}

/// `p` (folded) below `base` (folded): the rest without its leading `/`.
fn below<'a>(p: &'a str, base: &str) -> Option<&'a str> {
    if base == "/" {
        return p.strip_prefix('/');
    }
    let r = p.strip_prefix(base)?;
    if r.is_empty() {
        Some("")
    } else {
        r.strip_prefix('/')
    }
}

/// A device or a process's file (`/dev/null`, `/dev/stderr`, `/proc/self/fd/1`), as
/// written: no project's file, so neither a name nor the lists' bound makes its write ask
/// (`2>/dev/null` is in most commands; `/dev/stderr` resolves to wherever the hook's own
/// output goes). `/dev/shm` is a folder like any other. A known root's path is still found
/// through one (`/dev/fd/3` open on it).
fn device(f: &str) -> bool {
    (f.starts_with("/dev/") && !f.starts_with("/dev/shm/")) || f.starts_with("/proc/")
}

/// Offsets in `p` (folded, absolute) where a component starts that could begin a protected
/// name (a dot folder or file, `compiled`, `policies`, `permcheck.json`, `opencode.json*`).
fn name_starts(p: &str) -> impl Iterator<Item = usize> + '_ {
    p.match_indices('/').map(|(i, _)| i + 1).filter(move |&i| {
        let c = &p[i..];
        c.starts_with('.')
            || ["compiled/", "policies/", "permcheck.json", "opencode.json"]
                .iter()
                .any(|n| c.starts_with(n))
            || c == "compiled"
            || c == "policies"
    })
}

impl Protected {
    pub(super) fn others(&self) -> &Others {
        self.others.get_or_init(|| {
            let mut cfg: Vec<PathBuf> = self.config_dir.iter().cloned().collect();
            if let Some(c) = crate::places::config_dir() {
                if !cfg.contains(&c) {
                    cfg.push(c);
                }
            }
            Others::read(
                &cfg,
                crate::places::state_dir().as_deref(),
                &self.project_root,
            )
        })
    }

    /// Is the form `f` (folded) of a path outside the project root?
    fn outside_root(&self, f: &str) -> bool {
        below(f, &fold(&self.project_root.to_string_lossy())).is_none()
    }

    /// A write of `p` (a file or folder it names) that meets another project's protection:
    /// a known root's protected path (deny), or outside the project root a name of hook
    /// configuration or polc's files (ask) when `by_name`, or past the lists' bound (ask).
    pub(super) fn elsewhere(&self, p: &Path, by_name: bool) -> Option<Elsewhere> {
        let forms: Vec<String> = Self::forms(p)
            .iter()
            .map(|x| fold(&x.to_string_lossy()))
            .collect();
        // A path inside the project root with no component a protected path begins with
        // (`.claude`, `policies`, `compiled`, …) is no known root's protected path: most
        // writes are such, and they do not read the lists. (A table recorded at another name
        // than `*.bin` inside the project is the one case this passes by.)
        if forms.iter().all(|f| {
            !self.outside_root(f) && name_starts(f).next().is_none() && !f.ends_with(".bin")
        }) {
            return None;
        }
        let o = self.others();
        for f in &forms {
            for (_, r) in &o.roots {
                if let Some(rel) = below(f, r) {
                    if rel_protected(rel, true) {
                        return Some(Elsewhere {
                            verdict: Verdict::Deny,
                            why: format!("protected path of project {r}, which polc knows"),
                        });
                    }
                }
            }
            if o.tables.iter().any(|(_, t)| t == f) {
                return Some(Elsewhere {
                    verdict: Verdict::Deny,
                    why: "a policy table polc has recorded".into(),
                });
            }
        }
        let outside: Vec<&String> = forms
            .iter()
            .filter(|f| self.outside_root(f) && !device(&forms[0]))
            .collect();
        if by_name {
            for f in &outside {
                if name_starts(f).any(|i| rel_protected(&f[i..], false)) {
                    return Some(Elsewhere {
                        verdict: Verdict::Ask,
                        why: "named like another project's hook configuration or polc's files"
                            .into(),
                    });
                }
            }
        }
        if o.bounded && !outside.is_empty() {
            return Some(Elsewhere {
                verdict: Verdict::Ask,
                why: "outside the project, and polc knows more projects than it reads".into(),
            });
        }
        None
    }

    /// `p` is a folder above another project's protected paths: a known root, a folder
    /// above one, or a folder in one holding protected paths (deny); outside the project
    /// root, a folder named like one holding hook configuration (`…/.claude`, ask) when
    /// `by_name`, or past the lists' bound (ask).
    pub(super) fn elsewhere_above(&self, p: &Path, by_name: bool) -> Option<Elsewhere> {
        let forms: Vec<String> = Self::forms(p)
            .iter()
            .map(|x| fold(&x.to_string_lossy()))
            .collect();
        // Inside the project root, only an existing folder (`rm -rf sub` with a known root
        // in it) or a path with a protected name can hold another root's protected paths;
        // `rm -f src/x.o` reads no list.
        let named = |f: &String| self.outside_root(f) || name_starts(f).next().is_some();
        if !forms.iter().any(named)
            && !std::fs::symlink_metadata(p).is_ok_and(|m| m.is_dir())
            && !std::fs::metadata(p).is_ok_and(|m| m.is_dir())
        {
            return None;
        }
        let o = self.others();
        for f in &forms {
            let f = f.trim_end_matches('/');
            let f = if f.is_empty() { "/" } else { f };
            for (_, r) in &o.roots {
                let holds =
                    below(r, f).is_some() || below(f, r).is_some_and(|rel| rel_ancestor(rel, true));
                if holds {
                    return Some(Elsewhere {
                        verdict: Verdict::Deny,
                        why: format!("holds protected paths of project {r}, which polc knows"),
                    });
                }
            }
            if o.tables
                .iter()
                .any(|(_, t)| below(t, f).is_some_and(|r| !r.is_empty()))
            {
                return Some(Elsewhere {
                    verdict: Verdict::Deny,
                    why: "holds a policy table polc has recorded".into(),
                });
            }
        }
        let outside: Vec<&String> = forms
            .iter()
            .filter(|f| self.outside_root(f) && !device(&forms[0]))
            .collect();
        if by_name {
            for f in &outside {
                if name_starts(f).any(|i| rel_ancestor(&f[i..], false)) {
                    return Some(Elsewhere {
                        verdict: Verdict::Ask,
                        why: "named like a folder of another project's hook configuration".into(),
                    });
                }
            }
        }
        if o.bounded && !outside.is_empty() {
            return Some(Elsewhere {
                verdict: Verdict::Ask,
                why: "outside the project, and polc knows more projects than it reads".into(),
            });
        }
        None
    }

    /// A known root whose work tree a command run in folder `d` may rewrite (`git -C B
    /// checkout .`, `git stash` run in B's subfolder): `d` inside it, or — for a known root
    /// inside the project — `d` above it.
    pub(super) fn known_tree_at(&self, d: &Path) -> Option<PathBuf> {
        let root = fold(&self.project_root.to_string_lossy());
        let o = self.others();
        Self::forms(d).iter().find_map(|x| {
            let f = fold(&x.to_string_lossy());
            o.roots
                .iter()
                .find(|(_, r)| {
                    below(&f, r).is_some() || (below(r, &f).is_some() && below(r, &root).is_some())
                })
                .map(|(p, _)| p.clone())
        })
    }

    /// Could a written pattern (WILD spans `/`) name a known root's protected path or a
    /// folder above one?
    pub(super) fn pattern_hits_elsewhere(&self, pat: &[u8]) -> bool {
        // Compared with the paths as listed (a pattern is matched as written, like the
        // project's own entries in `pattern_hits`).
        let o = self.others();
        let probe = |q: &Path| super::gather::glob_match(pat, q.as_os_str().as_encoded_bytes());
        o.tables.iter().any(|(t, _)| probe(t))
            || o.roots.iter().any(|(r, _)| {
                r.ancestors().any(probe)
                    || PROJECT_FILES
                        .iter()
                        .chain(PROJECT_DIRS)
                        .chain(&[
                            ".polc",
                            "policies",
                            "permcheck.json",
                            "compiled",
                            "compiled/policy.bin",
                            ".claude",
                            ".claude/settings.json",
                            ".claude/settings.local.json",
                        ])
                        .any(|rel| probe(&r.join(rel)))
            })
    }
}

/// How many known roots' files the hard-link listing looks at; past it a file with several
/// links asks.
pub(super) const MAX_LINKED_ROOTS: usize = 128;

/// A known root's protected files and folders, for the hard-link listing: (path, folder).
pub(super) fn protected_in(root: &Path) -> Vec<(PathBuf, bool)> {
    let mut v: Vec<(PathBuf, bool)> = PROJECT_FILES
        .iter()
        .chain(&[
            "permcheck.json",
            "compiled/policy.bin",
            ".claude/settings.json",
            ".claude/settings.local.json",
        ])
        .map(|f| (root.join(f), false))
        .collect();
    v.extend(
        PROJECT_DIRS
            .iter()
            .chain(&[".polc", "policies"])
            .map(|d| (root.join(d), true)),
    );
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_names() {
        for (rel, known, want) in [
            (".claude/settings.json", false, true),
            (".claude/settings.local.json", false, true),
            (".claude/settingsx.json", false, true),
            (".claude/notes.md", false, false),
            (".claude/hooks/a/b.sh", false, true),
            (".gemini/settings.json", false, true),
            (".mcp.json", false, true),
            ("compiled/policy.bin", false, true),
            ("compiled/other.bin", false, false),
            (".polc/policy.bin", false, true),
            ("policies/default.pol", false, true),
            ("policies/readme.md", false, false),
            ("policies/readme.md", true, true),
            ("policies/sub/x.pol", false, false),
            ("permcheck.json", false, true),
            ("src/main.rs", true, false),
            ("notes/settings.json", false, false),
        ] {
            assert_eq!(rel_protected(rel, known), want, "{rel} {known}");
        }
        for (rel, known, want) in [
            ("", true, true),
            ("", false, false),
            (".claude", false, true),
            ("compiled", false, true),
            ("policies", false, true),
            (".github", false, true),
            ("src", true, false),
            (".claude/settings.json", false, false),
        ] {
            assert_eq!(rel_ancestor(rel, known), want, "{rel} {known}");
        }
    }

    #[test]
    fn names_start_at_components() {
        let v: Vec<&str> = {
            let p = "/tmp/x/.claude/settings.json";
            name_starts(p).map(|i| &p[i..]).collect()
        };
        assert_eq!(v, vec![".claude/settings.json"]);
    }
}

#[cfg(test)]
mod reading {
    use super::*;

    /// The three lists are read (a root listed twice counts once, the project root and
    /// relative or damaged lines are skipped); past the bound the reading says so.
    #[test]
    fn lists_are_read_and_bounded() {
        let cfg = tempfile::tempdir().unwrap();
        let state = tempfile::tempdir().unwrap();
        std::fs::write(
            cfg.path().join(crate::runtime::trust::TRUST_FILE),
            "d\t/b\t/b/compiled/policy.bin\nd\t/proj\t/proj/compiled/policy.bin\nbroken\nd\trel\trel/t\n",
        )
        .unwrap();
        std::fs::write(
            cfg.path().join(crate::runtime::tripwire::SEEN_FILE),
            "/c\n/b\n/b/\n/C\n",
        )
        .unwrap();
        crate::runtime::state::record_table(state.path(), Path::new("/d"), Path::new("/x/t.bin"))
            .unwrap();
        let o = Others::read(
            &[cfg.path().to_path_buf()],
            Some(state.path()),
            Path::new("/proj"),
        );
        let roots: Vec<&str> = o.roots.iter().map(|(_, f)| f.as_str()).collect();
        assert_eq!(roots, ["/b", "/c", "/d"]);
        let tables: Vec<&str> = o.tables.iter().map(|(_, f)| f.as_str()).collect();
        assert_eq!(
            tables,
            [
                "/b/compiled/policy.bin",
                "/proj/compiled/policy.bin",
                "/x/t.bin"
            ]
        );
        assert!(!o.bounded);
        let many: String = (0..MAX_ROOTS + 5).map(|k| format!("/r{k}\n")).collect();
        std::fs::write(cfg.path().join(crate::runtime::tripwire::SEEN_FILE), many).unwrap();
        let o = Others::read(&[cfg.path().to_path_buf()], None, Path::new("/proj"));
        assert!(o.bounded);
        assert_eq!(o.roots.len(), MAX_ROOTS);
    }
}
