//! Which tables apply (SPEC §5): managed, user and project layers, decided as one union of
//! rules; an untrusted table's allow rules are ignored. Finding tables costs a few `stat`
//! calls; nothing here parses policy text or rebuilds anything.

use super::table_rules::TableRules;
use super::trust;
use super::{Corrupt, RuleDesc, RuleSource, Score};
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

pub fn known_hosts_list() -> String {
    crate::ir::CLAUDE_AUTHORITY_HOSTS
        .iter()
        .chain(crate::ir::HOST_AUTHORITATIVE_HOSTS)
        .copied()
        .collect::<Vec<_>>()
        .join(", ")
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LayerSpec {
    pub tier: Tier,
    pub path: PathBuf,
    /// Named explicitly (flag or environment): missing is an error, not "no table".
    pub configured: bool,
}

#[derive(Clone, Debug)]
pub struct Layers {
    pub specs: Vec<LayerSpec>,
    pub config_dir: Option<PathBuf>,
    pub project_root: PathBuf,
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

impl Layers {
    /// `explicit` names the project layer (`--table`, `POLC_TABLE`); `project_root` is the
    /// host's project directory (else the starting directory).
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
        let config_dir = trust::config_dir(Some(&root));
        let mut specs = Vec::new();
        if Path::new(MANAGED_TABLE).exists() {
            specs.push(LayerSpec {
                tier: Tier::Managed,
                path: MANAGED_TABLE.into(),
                configured: false,
            });
        }
        if let Some(cfg) = &config_dir {
            let p = cfg.join(USER_TABLE);
            if p.exists() {
                specs.push(LayerSpec {
                    tier: Tier::User,
                    path: p,
                    configured: false,
                });
            }
        }
        match explicit {
            Some(p) => specs.push(LayerSpec {
                tier: Tier::Project,
                path: p,
                configured: true,
            }),
            None => {
                for rel in PROJECT_TABLES {
                    let p = root.join(rel);
                    // symlink_metadata: a dangling link still counts as "found" (and fails).
                    if std::fs::symlink_metadata(&p).is_ok() {
                        specs.push(LayerSpec {
                            tier: Tier::Project,
                            path: p,
                            configured: false,
                        });
                        break;
                    }
                }
            }
        }
        Layers {
            specs,
            config_dir,
            project_root: root,
        }
    }

    pub fn load(&self) -> Loaded {
        if self.specs.is_empty() {
            return Loaded::NoTable;
        }
        let mut out = Vec::new();
        for spec in &self.specs {
            let table = match Table::open(&spec.path) {
                Ok(t) => t,
                Err(e) => return Loaded::Unusable(e.describe(&spec.path)),
            };
            if let Err(e) = table.check_fresh() {
                return Loaded::Unusable(e.describe(&spec.path));
            }
            if TableRules::new(|k| table.section(k)).is_err() {
                return Loaded::Unusable(format!(
                    "polc table {} lacks a rule section: run `polc build`",
                    spec.path.display()
                ));
            }
            let trusted = match spec.tier {
                Tier::Managed | Tier::User => true,
                Tier::Project => {
                    let digest =
                        trust::table_digest(self.config_dir.as_deref(), &spec.path, table.bytes());
                    trust::is_trusted(self.config_dir.as_deref(), &self.project_root, &digest)
                }
            };
            out.push(LoadedLayer {
                spec: spec.clone(),
                trusted,
                table,
            });
        }
        Loaded::Ready(out)
    }
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
            off = off.checked_add(n).ok_or(Corrupt)?;
        }
        Ok(Union { parts })
    }

    fn part(&self, rule: u32) -> Result<(&TableRules<'a>, u32, Tier, bool), Corrupt> {
        for (t, off, tier, trusted) in self.parts.iter().rev() {
            if rule >= *off {
                return Ok((t, rule - off, *tier, *trusted));
            }
        }
        Err(Corrupt)
    }

    /// Was this rule's layer trusted? (explain shows it)
    pub fn trusted(&self, rule: u32) -> bool {
        self.part(rule).map(|p| p.3).unwrap_or(false)
    }
}

impl RuleSource for Union<'_> {
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
    fn match_segment(
        &self,
        reading: &[u8],
        allow: bool,
        host: &str,
        f: &mut dyn FnMut(u32, Match),
    ) -> Result<(), Corrupt> {
        for (t, off, _, trusted) in &self.parts {
            if allow && !trusted {
                continue;
            }
            t.match_segment(reading, allow, host, &mut |r, m| f(r + off, m))?;
        }
        Ok(())
    }
    fn match_content(
        &self,
        tool: &str,
        texts: &[&[u8]],
        allow: bool,
        host: &str,
        f: &mut dyn FnMut(u32),
    ) -> Result<(), Corrupt> {
        for (t, off, _, trusted) in &self.parts {
            if allow && !trusted {
                continue;
            }
            t.match_content(tool, texts, allow, host, &mut |r| f(r + off))?;
        }
        Ok(())
    }
    fn match_path(
        &self,
        tool: &str,
        q: &super::PathQuery,
        ctx: &super::Context,
        allow: bool,
        host: &str,
        f: &mut dyn FnMut(u32),
    ) -> Result<(), Corrupt> {
        for (t, off, _, trusted) in &self.parts {
            if allow && !trusted {
                continue;
            }
            t.match_path(tool, q, ctx, allow, host, &mut |r| f(r + off))?;
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
