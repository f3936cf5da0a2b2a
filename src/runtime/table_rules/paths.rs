//! The path and web lookups of [`TableRules`] through their indexes (issue 16): a Read,
//! Edit or WebFetch decision reads the path entries whose literal key the path can have
//! (section 19, `table::sections::paths`) and the domain rules filed under the URL's hosts
//! (`web::rule_index_key`), plus the entries with no literal key; not every rule of the
//! tool. Each candidate is then matched exactly as the reference interpreter matches every
//! rule (`pathmatch::rule_matches`, `tool_pattern_match`), so the index only decides which
//! entries are tried: it must never leave out one that matches (`tests/differential.rs`
//! compares the hits with the reference's linear scan).

use super::{verdict, Corrupt, TableRules, Where};
use crate::ir::Verdict;
use crate::paths::Anchor;
use crate::pattern::Match;
use crate::runtime::pathmatch::{policy_dir, roots, texts};
use crate::runtime::{Context, PathQuery};
use crate::table::sections::groups::Group;
use crate::table::sections::keys::{host_applies, path_lookups, tool_key};
use crate::table::sections::paths::class_key;
use crate::table::sections::{GroupIndex, Kind, PathEntry};
use std::path::PathBuf;

impl<'a> TableRules<'a> {
    /// The groups of `idx` whose key starts with `prefix` (a range: keys are sorted).
    fn groups_with_prefix(
        &self,
        idx: &GroupIndex<'a>,
        prefix: &[u8],
        kind: Kind,
        f: &mut dyn FnMut(Group) -> Result<(), Corrupt>,
    ) -> Result<(), Corrupt> {
        let strings = &self.s.strings;
        let mut g = idx
            .first_at_least(strings, prefix)
            .at(Corrupt::section(kind))?;
        while g < idx.group_count() {
            let grp = idx.group(g).at(Corrupt::record(kind, g))?;
            if !self.bytes(grp.key)?.starts_with(prefix) {
                break;
            }
            f(grp)?;
            g += 1;
        }
        Ok(())
    }

    /// Path entries of `tool` for allow or deny/ask rules of `host` that may match `q`
    /// (every entry of the tool and side when `q` is None), with their rule's policy folder.
    pub(super) fn path_entries(
        &self,
        tool: &str,
        allow: bool,
        host: &str,
        ctx: &Context,
        q: Option<&PathQuery>,
        f: &mut dyn FnMut(PathEntry, Option<PathBuf>) -> Result<(), Corrupt>,
    ) -> Result<(), Corrupt> {
        let classes = &self.s.path_classes;
        let idx = &self.s.path_index;
        let bad = Corrupt::section(Kind::PathIndex);
        let mut found: Vec<u32> = Vec::new();
        for c in 0..classes.count() {
            let class = classes.get(c).at(Corrupt::record(Kind::PathClasses, c))?;
            if class.allow != allow || self.bytes(class.tool)? != tool.as_bytes() {
                continue;
            }
            let anchor = u8::try_from(class.anchor)
                .ok()
                .and_then(Anchor::from_u8)
                .at(Corrupt::record(Kind::PathClasses, c))?;
            // The literal keys every text of this class can be filed under; None: all.
            let keys = match q {
                None => None,
                Some(q) => {
                    let dir = if anchor == Anchor::PolicyDir {
                        policy_dir(self.str_at(class.file)?, ctx)
                    } else {
                        None
                    };
                    let mut keys: Option<Vec<Vec<u8>>> = Some(Vec::new());
                    for t in texts(anchor, &roots(anchor, dir.as_deref(), ctx), q) {
                        match (path_lookups(anchor, &t), keys.as_mut()) {
                            (Some(more), Some(ks)) => ks.extend(more),
                            _ => keys = None,
                        }
                    }
                    keys
                }
            };
            match keys {
                Some(mut keys) => {
                    keys.sort_unstable();
                    keys.dedup();
                    for k in keys {
                        if let Some(g) = idx.find(&self.s.strings, &class_key(c, &k)).at(bad)? {
                            found.extend(idx.entries(&g).at(bad)?);
                        }
                    }
                }
                None => {
                    self.groups_with_prefix(idx, &c.to_le_bytes(), Kind::PathIndex, &mut |g| {
                        found.extend(idx.entries(&g).at(bad)?);
                        Ok(())
                    })?
                }
            }
        }
        // In entry order, each once (texts of several bases may find the same group).
        found.sort_unstable();
        found.dedup();
        for e in found {
            let entry = self.s.paths.get(e).at(Corrupt::record(Kind::Paths, e))?;
            let r = self.rule(entry.rule)?;
            // The rule record decides, as without the index: a class only narrows the scan.
            if (verdict(&r, entry.rule)? == Verdict::Allow) != allow
                || !host_applies(r.hosts(), host)
                || self.tool_of(&r)? != tool
            {
                continue;
            }
            let dir = policy_dir(self.str_at(r.file())?, ctx);
            f(entry, dir)?;
        }
        Ok(())
    }

    /// WebFetch domain rules filed under the hosts of `url` (every reading's), or all of
    /// them when a reading has no host polc can read. (Rules with no host key — `*`, `any`,
    /// names the index does not key — are in the plain `webfetch` group, read by the caller.)
    pub(super) fn web_entries(
        &self,
        url: &str,
        f: &mut dyn FnMut(u32) -> Result<(), Corrupt>,
    ) -> Result<(), Corrupt> {
        let idx = &self.s.tools;
        let bad = Corrupt::section(Kind::ToolIndex);
        let Some(base) = tool_key(crate::tools::WEBFETCH) else {
            return Ok(());
        };
        match crate::web::url_index_keys(url) {
            Some(keys) => {
                for k in keys {
                    let mut key = base.clone();
                    key.extend_from_slice(&k);
                    if let Some(g) = idx.find(&self.s.strings, &key).at(bad)? {
                        for e in idx.entries(&g).at(bad)? {
                            f(e)?;
                        }
                    }
                }
            }
            None => self.groups_with_prefix(idx, &base, Kind::ToolIndex, &mut |g| {
                if self.bytes(g.key)?.len() > base.len() {
                    for e in idx.entries(&g).at(bad)? {
                        f(e)?;
                    }
                }
                Ok(())
            })?,
        }
        Ok(())
    }

    /// Tool entries of a WebFetch call beyond the plain `webfetch` group.
    pub(super) fn web_tool_entries(
        &self,
        tool: &str,
        subject: &str,
        input_text: &str,
        host: &str,
        f: &mut dyn FnMut(u32, Match),
    ) -> Result<(), Corrupt> {
        if tool != crate::tools::WEBFETCH {
            return Ok(());
        }
        self.web_entries(subject, &mut |e| {
            self.tool_entry(e, tool, subject, input_text, host, f)
        })
    }
}
