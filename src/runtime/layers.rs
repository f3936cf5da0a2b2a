//! Which tables apply (docs/contract.md#c-layers): managed, user and project layers, decided as one union of
//! rules; an untrusted table's allow rules are ignored. Finding tables costs a few `stat`
//! calls; nothing here parses policy text or rebuilds anything.

use super::table_rules::TableRules;
use super::trust;
use super::{Corrupt, RuleDesc, RuleFacts, RuleSource, Score, Side};
use crate::ir::{Tier, Verdict};
use crate::pattern::Match;
use crate::table::Table;
use std::path::{Path, PathBuf};

/// The managed layer: a system path only an administrator writes.
pub const MANAGED_TABLE: &str = "/etc/polc/policy.bin";
/// Where a project's table is looked for, under the project root, in order.
pub const PROJECT_TABLES: &[&str] = &[".polc/policy.bin", "compiled/policy.bin"];
/// The user layer, under the config dir.
pub const USER_TABLE: &str = "policy.bin";

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LayerSpec {
    pub tier: Tier,
    pub path: PathBuf,
    /// Named explicitly (flag or environment): missing is an error, not "no table".
    pub configured: bool,
    /// For a project table found under a root: that root (trust and records are per root).
    pub root: Option<PathBuf>,
}

#[derive(Clone, Debug)]
pub struct Layers {
    pub specs: Vec<LayerSpec>,
    pub config_dir: Option<PathBuf>,
    pub state_dir: Option<PathBuf>,
    pub project_root: PathBuf,
    /// A second project root that disagrees with the first (the session's recorded start
    /// versus the host's project folder, neither inside the other): both roots' tables
    /// apply, and no project table grants anything.
    pub other_root: Option<PathBuf>,
    /// Why a table cannot be used, found while looking (a lookup error other than "no such
    /// file", a recorded table now missing, an unreadable record).
    pub problems: Vec<String>,
    /// Record each (root, project table) used in the state folder (the hook and `decide`).
    pub record: bool,
    /// Each root with its canonical form (computed once: a `realpath` per call is enough).
    canon_roots: Vec<(PathBuf, PathBuf)>,
}

pub struct LoadedLayer {
    pub spec: LayerSpec,
    pub trusted: bool,
    pub table: Table,
}

pub enum Loaded {
    /// No table configured or found at all.
    NoTable,
    /// A configured or found table polc cannot use: the one-line reason.
    Unusable(String),
    Ready(Vec<LoadedLayer>),
}

/// What a lookup of a table path found.
#[derive(Debug, PartialEq, Eq)]
pub enum Lookup {
    /// "No such file": the path and its nearest existing ancestor are plain (not a link).
    Absent,
    Present,
    /// Anything else: a dangling link, a link loop, a folder polc cannot enter, a parent
    /// that is a file. The table is unusable, never "not there".
    Error(String),
}

/// Looks `p` up as the hook will open it (following links). ENOENT is "absent" only when
/// the first existing ancestor, walking up, is not a symbolic link (a dangling link at the
/// path or above it is an error).
pub fn lookup(p: &Path) -> Lookup {
    let err = |e: std::io::Error| {
        Lookup::Error(format!(
            "polc table {} cannot be looked up ({e}): it is unusable; fix or remove it",
            p.display()
        ))
    };
    match std::fs::metadata(p) {
        Ok(_) => return Lookup::Present,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return err(e),
    }
    let mut cur = Some(p);
    while let Some(c) = cur {
        if c.as_os_str().is_empty() {
            break;
        }
        match std::fs::symlink_metadata(c) {
            Ok(m) if m.file_type().is_symlink() => {
                return Lookup::Error(format!(
                    "polc table {} is reached through a dangling symbolic link ({}): it is unusable; fix or remove the link",
                    p.display(),
                    c.display()
                ))
            }
            Ok(_) => return Lookup::Absent,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => cur = c.parent(),
            Err(e) => return err(e),
        }
    }
    Lookup::Absent
}

impl Layers {
    /// `explicit` adds a project table (`--table`, `POLC_TABLE`); `project_root` is the
    /// host's project directory (else `CLAUDE_PROJECT_DIR`, else the starting directory).
    pub fn discover(explicit: Option<PathBuf>, project_root: Option<PathBuf>) -> Layers {
        let root = project_root
            .filter(|p| !p.as_os_str().is_empty())
            .or_else(|| {
                std::env::var_os("CLAUDE_PROJECT_DIR")
                    .filter(|v| !v.is_empty())
                    .map(PathBuf::from)
            })
            .or_else(|| std::env::current_dir().ok())
            .unwrap_or_else(|| PathBuf::from("."));
        Self::discover_roots(explicit.into_iter().collect(), root, None)
    }

    /// The layers for `root` (and a disagreeing `other_root`): the managed table, the
    /// user's table, every project table found under each root (a union: a table found
    /// only adds restrictions) and each explicit table.
    pub fn discover_roots(
        explicit: Vec<PathBuf>,
        root: PathBuf,
        other_root: Option<PathBuf>,
    ) -> Layers {
        let config_dir = trust::config_dir();
        let mut l = Layers {
            specs: Vec::new(),
            config_dir,
            state_dir: super::state::state_dir(),
            project_root: root.clone(),
            other_root: other_root.clone(),
            problems: Vec::new(),
            record: false,
            canon_roots: std::iter::once(&root)
                .chain(other_root.as_ref())
                .map(|r| (r.clone(), trust::canon(r)))
                .collect(),
        };
        l.found(Tier::Managed, PathBuf::from(MANAGED_TABLE), None);
        if let Some(cfg) = l.config_dir.clone() {
            l.found(Tier::User, cfg.join(USER_TABLE), None);
        }
        for r in std::iter::once(root).chain(other_root) {
            for rel in PROJECT_TABLES {
                l.found(Tier::Project, r.join(rel), Some(r.clone()));
            }
        }
        for p in explicit {
            // The same file named twice (`explain --table compiled/policy.bin` in the root)
            // loads once.
            let cp = trust::canon(&p);
            if !l
                .specs
                .iter()
                .any(|s| s.path == p || trust::canon(&s.path) == cp)
            {
                l.specs.push(LayerSpec {
                    tier: Tier::Project,
                    path: p,
                    configured: true,
                    root: None,
                });
            }
        }
        l
    }

    fn found(&mut self, tier: Tier, path: PathBuf, root: Option<PathBuf>) {
        match lookup(&path) {
            Lookup::Present => self.specs.push(LayerSpec {
                tier,
                path,
                configured: false,
                root,
            }),
            Lookup::Error(why) => self.problems.push(why),
            Lookup::Absent => {}
        }
    }

    /// The (canonical root, table path) a project table is recorded under.
    fn record_key(&self, root: &Path, table: &Path) -> (PathBuf, PathBuf) {
        let croot = self
            .canon_roots
            .iter()
            .find(|(r, _)| r == root)
            .map(|(_, c)| c.clone())
            .unwrap_or_else(|| trust::canon(root));
        let rel = table.strip_prefix(root).unwrap_or(table);
        let t = croot.join(rel);
        (croot, t)
    }

    /// Recorded project tables of our roots that are now missing (issue 9 item 4).
    fn vanished(&self) -> Option<String> {
        let state = self.state_dir.as_deref()?;
        for r in std::iter::once(&self.project_root).chain(&self.other_root) {
            for rel in PROJECT_TABLES {
                let p = r.join(rel);
                if self.specs.iter().any(|s| s.path == p) {
                    continue;
                }
                let (croot, t) = self.record_key(r, &p);
                match super::state::table_recorded(state, &croot, &t) {
                    Ok(false) => {}
                    Ok(true) => {
                        return Some(format!(
                            "polc table {} was used for {} and is now missing: every call is denied until a person runs `polc build` there or `polc trust --forget {} {}` on the terminal",
                            t.display(),
                            croot.display(),
                            croot.display(),
                            t.display()
                        ))
                    }
                    Err(why) => return Some(why.to_string()),
                }
            }
        }
        None
    }

    pub fn load(&self) -> Loaded {
        if let Some(p) = self.problems.first() {
            return Loaded::Unusable(p.clone());
        }
        if let Some(why) = self.vanished() {
            return Loaded::Unusable(why);
        }
        if self.specs.is_empty() {
            return Loaded::NoTable;
        }
        let cache = crate::table::cache_dir();
        let mut out = Vec::new();
        for spec in &self.specs {
            let table = match Table::open(&spec.path) {
                Ok(t) => t,
                Err(e) => return Loaded::Unusable(e.describe(&spec.path)),
            };
            // Long enough for a file renamed in meanwhile to settle (tests/state.rs).
            super::state::selftest_pause("opened", 2600);
            if let Err(e) = table.check_fresh() {
                return Loaded::Unusable(e.describe(&spec.path));
            }
            if let Err(e) = TableRules::new(|k| table.section(k)) {
                let e = crate::table::LoadError::Corrupt {
                    what: e.to_string(),
                };
                return Loaded::Unusable(e.describe(&spec.path));
            }
            let trusted = match spec.tier {
                Tier::Managed | Tier::User => true,
                // Two disagreeing roots: no project table grants anything.
                Tier::Project if self.other_root.is_some() => false,
                Tier::Project => {
                    let root = spec.root.as_deref().unwrap_or(&self.project_root);
                    let digest =
                        trust::table_digest(cache.as_deref(), table.identity(), table.bytes());
                    trust::is_trusted(self.config_dir.as_deref(), root, &spec.path, &digest)
                }
            };
            if self.record {
                if let (Some(state), Some(root)) = (&self.state_dir, &spec.root) {
                    let (croot, t) = self.record_key(root, &spec.path);
                    if matches!(super::state::table_recorded(state, &croot, &t), Ok(false)) {
                        // Best effort: a table not yet recorded is only not yet guarded
                        // against vanishing.
                        let _ = super::state::record_table(state, &croot, &t);
                    }
                }
            }
            out.push(LoadedLayer {
                spec: spec.clone(),
                trusted,
                table,
            });
        }
        super::state::selftest_pause("loaded", 600);
        Loaded::Ready(out)
    }
}

/// Did any loaded table change after its bytes were checked (a large table's read lease
/// broke)? Then the decision taken from it must be a deny: the reason.
pub fn changed(loaded: &[LoadedLayer]) -> Option<String> {
    loaded.iter().find(|l| l.table.changed()).map(|l| {
        format!(
            "polc table {} changed while polc read it; denied (retry)",
            l.spec.path.display()
        )
    })
}

/// The union of the loaded layers' rules as one rule source. Rule numbers are offset per
/// layer; untrusted layers contribute no allow.
pub struct Union<'a> {
    parts: Vec<(TableRules<'a>, u32, Tier, bool)>,
}

impl<'a> Union<'a> {
    pub fn new(layers: &'a [LoadedLayer]) -> Result<Union<'a>, Corrupt> {
        let mut parts = Vec::new();
        let mut off = 0u32;
        for l in layers {
            let t = TableRules::new(|k| l.table.section(k))?;
            let n = t.rule_count() as u32;
            parts.push((t, off, l.spec.tier, l.trusted));
            off = off.checked_add(n).ok_or(Corrupt::rule(off))?;
        }
        Ok(Union { parts })
    }

    fn part(&self, rule: u32) -> Result<(&TableRules<'a>, u32, Tier, bool), Corrupt> {
        for (t, off, tier, trusted) in self.parts.iter().rev() {
            if rule >= *off {
                return Ok((t, rule - off, *tier, *trusted));
            }
        }
        Err(Corrupt::rule(rule))
    }

    /// The layers whose rules of `side` count: an untrusted layer contributes no allow.
    fn parts_for(&self, side: Side) -> impl Iterator<Item = &(TableRules<'a>, u32, Tier, bool)> {
        self.parts
            .iter()
            .filter(move |(_, _, _, trusted)| *trusted || !side.is_allow())
    }

    /// The rule's layer (index into the loaded layers) and its number in that table.
    pub fn locate(&self, rule: u32) -> Option<(usize, u32)> {
        let i = self.parts.iter().rposition(|p| rule >= p.1)?;
        Some((i, rule - self.parts[i].1))
    }

    /// Was this rule's layer trusted? (explain shows it)
    pub fn trusted(&self, rule: u32) -> bool {
        self.part(rule).map(|p| p.3).unwrap_or(false)
    }

    /// The same union with every layer read as trusted (same rule numbers): `polc explain`
    /// uses it to show which allow rules of an untrusted table would match once trusted.
    /// Never used to decide.
    pub fn as_if_trusted(layers: &'a [LoadedLayer]) -> Result<Union<'a>, Corrupt> {
        let mut u = Union::new(layers)?;
        for p in &mut u.parts {
            p.3 = true;
        }
        Ok(u)
    }
}

impl RuleFacts for Union<'_> {
    fn verdict(&self, rule: u32) -> Result<Verdict, Corrupt> {
        let (t, r, _, _) = self.part(rule)?;
        t.verdict(r)
    }
    fn score(&self, rule: u32) -> Result<Score, Corrupt> {
        let (t, r, tier, _) = self.part(rule)?;
        Ok(Score {
            tier,
            ..t.score(r)?
        })
    }
    fn describe(&self, rule: u32) -> Result<RuleDesc, Corrupt> {
        let (t, r, _, _) = self.part(rule)?;
        t.describe(r)
    }
}

impl RuleSource for Union<'_> {
    fn match_segment(
        &self,
        reading: &[u8],
        side: Side,
        host: &str,
        f: &mut dyn FnMut(u32, Match),
    ) -> Result<(), Corrupt> {
        for (t, off, _, _) in self.parts_for(side) {
            t.match_segment(reading, side, host, &mut |r, m| f(r + off, m))?;
        }
        Ok(())
    }
    fn match_segment_until(
        &self,
        reading: &[u8],
        side: Side,
        host: &str,
        f: &mut dyn FnMut(u32, Match) -> bool,
    ) -> Result<bool, Corrupt> {
        for (t, off, _, _) in self.parts_for(side) {
            if !t.match_segment_until(reading, side, host, &mut |r, m| f(r + off, m))? {
                return Ok(false);
            }
        }
        Ok(true)
    }
    fn match_content(
        &self,
        tool: &str,
        texts: &[&[u8]],
        side: Side,
        host: &str,
        f: &mut dyn FnMut(u32),
    ) -> Result<(), Corrupt> {
        for (t, off, _, _) in self.parts_for(side) {
            t.match_content(tool, texts, side, host, &mut |r| f(r + off))?;
        }
        Ok(())
    }
    fn match_path(
        &self,
        tool: &str,
        q: &super::PathQuery,
        ctx: &super::Context,
        side: Side,
        host: &str,
        f: &mut dyn FnMut(u32),
    ) -> Result<(), Corrupt> {
        for (t, off, _, _) in self.parts_for(side) {
            t.match_path(tool, q, ctx, side, host, &mut |r| f(r + off))?;
        }
        Ok(())
    }

    fn match_path_under(
        &self,
        tool: &str,
        folder: &Path,
        ctx: &super::Context,
        host: &str,
        f: &mut dyn FnMut(u32),
    ) -> Result<(), Corrupt> {
        for (t, off, _, _) in &self.parts {
            t.match_path_under(tool, folder, ctx, host, &mut |r| f(r + off))?;
        }
        Ok(())
    }

    fn match_tool(
        &self,
        tool: &str,
        subject: &str,
        input_text: &str,
        host: &str,
        f: &mut dyn FnMut(u32, Match),
    ) -> Result<(), Corrupt> {
        for (t, off, _, trusted) in &self.parts {
            let mut err = Ok(());
            t.match_tool(
                tool,
                subject,
                input_text,
                host,
                &mut |r, m| match t.verdict(r) {
                    // An untrusted layer grants nothing.
                    Ok(Verdict::Allow) if !trusted => {}
                    Ok(_) => f(r + off, m),
                    Err(e) => err = Err(e),
                },
            )?;
            err?;
        }
        Ok(())
    }
}
