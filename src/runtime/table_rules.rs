//! The compiled table's rules, read in place (docs/contract.md#c-table): the decision
//! procedure's questions ([`RuleSource`]) answered from the sections of
//! `crate::table::sections`, which owns the byte format and checks every section once when
//! [`TableRules::new`] borrows it. Nothing here allocates in proportion to the table: a
//! lookup finds the reading's groups by key and touches only their patterns. Every read is
//! bounds-checked; a bad record is [`Corrupt`], never a panic.

use super::pathmatch::{path_could_hold, rule_matches};
use super::{Context, Corrupt, PathQuery, RuleDesc, RuleFacts, RuleSource, Score, Side};
use crate::ir::{PatternKind, Verdict};
use crate::paths::Anchor;
use crate::pattern::{tool_matches, Match, Reading, STAR, WILD};
use crate::table::sections::content::IndexMemo;
use crate::table::sections::groups::Group;
use crate::table::sections::keys::{host_applies, tool_lookup_keys, KEY_WORDS};
use crate::table::sections::{Bad, GroupIndex, Kind, Rule, SectionError, Sections, Span};
use std::cell::RefCell;
use std::collections::HashMap;
use std::path::Path;

mod guards;
mod literals;
mod memo;
mod paths;
use super::toolmatch::tool_pattern_match;
use guards::{GroupScan, GuardScan};
use memo::Memo;

impl From<SectionError> for Corrupt {
    fn from(e: SectionError) -> Corrupt {
        Corrupt::section(e.kind)
    }
}

/// A bad read says where it was: `.at(Corrupt::record(Kind::Rules, rule))?`.
trait Where<T> {
    fn at(self, c: Corrupt) -> Result<T, Corrupt>;
}

impl<T> Where<T> for Result<T, Bad> {
    fn at(self, c: Corrupt) -> Result<T, Corrupt> {
        self.map_err(|_| c)
    }
}

impl<T> Where<T> for Option<T> {
    fn at(self, c: Corrupt) -> Result<T, Corrupt> {
        self.ok_or(c)
    }
}

pub struct TableRules<'a> {
    s: Sections<'a>,
    /// What index lookups learnt, kept for the next lookup of the same index (a command's
    /// segments ask the same filters thousands of times): per group filter, keyed by (allow
    /// side?, filter offset), and for the content index.
    filter_memo: RefCell<HashMap<(bool, u32), IndexMemo<'a>>>,
    /// Large groups asked often: their guards in one automaton (`guards.rs`), same keys.
    guard_scans: RefCell<HashMap<(bool, u32), GroupScan>>,
    content_memo: RefCell<IndexMemo<'a>>,
    /// Allow-side content lookups so far, and then whether the table has any allow content
    /// entry (`match_content`).
    allow_content: std::cell::Cell<(u32, Option<bool>)>,
    /// Segment entries tested (tests assert the work is linear in the command).
    #[cfg(test)]
    pub(crate) tested: std::cell::Cell<u64>,
}

impl<'a> TableRules<'a> {
    /// Borrow and check the sections (`get` returns a section by kind). A missing or
    /// malformed section says which and why (the caller reports it as a corrupt table).
    pub fn new(get: impl Fn(u32) -> Option<&'a [u8]>) -> Result<TableRules<'a>, SectionError> {
        Ok(TableRules {
            s: Sections::new(get)?,
            filter_memo: RefCell::default(),
            guard_scans: RefCell::default(),
            content_memo: RefCell::default(),
            allow_content: Default::default(),
            #[cfg(test)]
            tested: Default::default(),
        })
    }

    pub fn rule_count(&self) -> usize {
        self.s.rules.count() as usize
    }

    fn rule(&self, rule: u32) -> Result<Rule, Corrupt> {
        self.s
            .rules
            .get(rule)
            .at(Corrupt::record(Kind::Rules, rule))
    }

    fn str_at(&self, s: Span) -> Result<&'a str, Corrupt> {
        self.s
            .strings
            .str(s)
            .at(Corrupt::offset(Kind::Strings, s.off))
    }

    fn bytes(&self, s: Span) -> Result<&'a [u8], Corrupt> {
        self.s
            .strings
            .bytes(s)
            .at(Corrupt::offset(Kind::Strings, s.off))
    }

    /// The sections of a group index: its own, and its entries'.
    fn kinds(&self, idx: &GroupIndex<'a>) -> (Kind, Kind) {
        if std::ptr::eq(idx, &self.s.allow) {
            (Kind::AllowIndex, Kind::AllowPatterns)
        } else if std::ptr::eq(idx, &self.s.deny_ask) {
            (Kind::DenyAskIndex, Kind::DenyAskPatterns)
        } else {
            (Kind::ToolIndex, Kind::ToolPatterns)
        }
    }

    fn tool_of(&self, r: &Rule) -> Result<&'a str, Corrupt> {
        self.str_at(r.tool())
    }

    /// Whether an allow content rule may exist. The allow side is asked once per segment
    /// (10,000 times for a long command), and most tables have no allow `contains` or
    /// `regex` rule: after [`ALLOW_CONTENT_AFTER`] lookups the entries are read once to
    /// know, and a table without one answers at once from then on.
    fn any_allow_content(&self) -> Result<bool, Corrupt> {
        let (n, known) = self.allow_content.get();
        if let Some(any) = known {
            return Ok(any);
        }
        if n < ALLOW_CONTENT_AFTER {
            self.allow_content.set((n + 1, None));
            return Ok(true);
        }
        let mut any = false;
        for e in 0..self.s.content.count() {
            let entry = self
                .s
                .content
                .get(e)
                .at(Corrupt::record(Kind::Content, e))?;
            if verdict(&self.rule(entry.rule)?, entry.rule)? == Verdict::Allow {
                any = true;
                break;
            }
        }
        self.allow_content.set((n, Some(any)));
        Ok(any)
    }

    /// Test content entry `e`, whose literal (for a `contains` entry) the index already found.
    fn content_entry(
        &self,
        e: u32,
        tool: &str,
        texts: &[&[u8]],
        allow: bool,
        host: &str,
        f: &mut dyn FnMut(u32),
    ) -> Result<(), Corrupt> {
        let entry = self
            .s
            .content
            .get(e)
            .at(Corrupt::record(Kind::Content, e))?;
        let r = self.rule(entry.rule)?;
        if (verdict(&r, entry.rule)? == Verdict::Allow) != allow || !host_applies(r.hosts(), host) {
            return Ok(());
        }
        if !tool_matches(self.tool_of(&r)?, tool, allow) {
            return Ok(());
        }
        let hit = if entry.kind == PatternKind::Contains as u32 {
            true
        } else if entry.kind == PatternKind::Regex as u32 {
            let bad = Corrupt::offset(Kind::Regex, entry.data.off);
            let dfa = self.s.regex.get(span_range(entry.data, bad)?).at(bad)?;
            let mut any = false;
            for t in texts {
                if crate::content::regex_dfa_is_match(dfa, t).at(bad)? {
                    any = true;
                    break;
                }
            }
            any
        } else {
            return Err(Corrupt::record(Kind::Content, e));
        };
        if hit {
            f(entry.rule);
        }
        Ok(())
    }

    /// Match `reading` against the entries of group `g`. With a filter, only the entries
    /// whose required literal occurs in the reading's known bytes can match definitely; with
    /// no unknown bytes the others are skipped, with unknown bytes they are at most possible.
    fn scan_group(
        &self,
        idx: &GroupIndex<'a>,
        g: &Group,
        reading: &Reading<'_>,
        host: &str,
        f: &mut dyn FnMut(u32, Match) -> bool,
    ) -> Result<bool, Corrupt> {
        let bad = Corrupt::section(self.kinds(idx).0);
        let range = idx.entries(g).at(bad)?;
        let mut memo = Memo::for_scan(range.len());
        let cands = self.candidates(idx, g, reading, bad)?;
        let Some(cands) = cands else {
            for e in range {
                if !self.match_entry(idx, e, reading, true, host, &mut memo, f)? {
                    return Ok(false);
                }
            }
            return Ok(true);
        };
        if !reading.has_unknown() {
            for &e in cands.iter() {
                if !self.match_entry(idx, e, reading, true, host, &mut memo, f)? {
                    return Ok(false);
                }
            }
            return Ok(true);
        }
        // Unknown bytes: every entry may match possibly; only candidates definitely.
        let mut next = cands.iter().copied().peekable();
        for e in range {
            let cand = next.next_if_eq(&e).is_some();
            if !self.match_entry(idx, e, reading, cand, host, &mut memo, f)? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// The entries of group `g` that may match `reading` definitely (sorted), `None` when
    /// the group has no filter. The table's filter answers until the group has been asked
    /// [`guards::BUILD_AFTER`] times; a large group then gets its [`GuardScan`].
    fn candidates(
        &self,
        idx: &GroupIndex<'a>,
        g: &Group,
        reading: &Reading<'_>,
        bad: Corrupt,
    ) -> Result<Option<std::rc::Rc<[u32]>>, Corrupt> {
        if g.filter.1 == 0 {
            return Ok(None);
        }
        let key = (std::ptr::eq(idx, &self.s.allow), g.filter.0);
        {
            let mut scans = self.guard_scans.borrow_mut();
            let scan = scans.entry(key).or_default();
            if let GroupScan::Counting(n) = scan {
                *n += 1;
                if *n > guards::BUILD_AFTER {
                    *scan = self.guard_scan(idx, g)?;
                }
            }
            if let GroupScan::Built(s) = scan {
                return Ok(Some(s.candidates(reading.known())));
            }
        }
        let mut memos = self.filter_memo.borrow_mut();
        let memo = memos.entry(key).or_default();
        idx.candidates_memo(g, &self.s.strings, reading.known(), memo)
            .at(bad)
    }

    /// Group `g`'s automaton over its entries' guards (`Off` for a small group).
    fn guard_scan(&self, idx: &GroupIndex<'a>, g: &Group) -> Result<GroupScan, Corrupt> {
        let range = idx.entries(g).at(Corrupt::section(self.kinds(idx).0))?;
        if range.len() < guards::MIN_ENTRIES {
            return Ok(GroupScan::Off);
        }
        let mut bodies = Vec::with_capacity(range.len());
        for e in range {
            let entry = idx.seg_entry(e).at(Corrupt::record(self.kinds(idx).1, e))?;
            let p = self.bytes(entry.pattern)?;
            let body = p
                .get(1..)
                .at(Corrupt::offset(Kind::Strings, entry.pattern.off))?;
            bodies.push((e, body));
        }
        Ok(GroupScan::Built(Box::new(GuardScan::build(
            bodies.into_iter(),
        ))))
    }

    #[allow(clippy::too_many_arguments)]
    fn match_entry(
        &self,
        idx: &GroupIndex<'a>,
        e: u32,
        reading: &Reading<'_>,
        may_be_definite: bool,
        host: &str,
        memo: &mut Memo<'a>,
        f: &mut dyn FnMut(u32, Match) -> bool,
    ) -> Result<bool, Corrupt> {
        #[cfg(test)]
        self.tested.set(self.tested.get() + 1);
        let entry = idx.seg_entry(e).at(Corrupt::record(self.kinds(idx).1, e))?;
        let p = self.bytes(entry.pattern)?;
        let Some((&flag, body)) = p.split_first() else {
            return Err(Corrupt::offset(Kind::Strings, entry.pattern.off));
        };
        // A pattern needs at least its literal bytes (a `*` matches zero or more): when
        // every byte of the reading is known, a longer pattern cannot match.
        let literal = body.len() - body.iter().filter(|&&b| b == STAR).count();
        if !reading.has_unknown() && literal > reading.text().len() {
            return Ok(true);
        }
        // Match first: the rule record (host mask) is read only for the few that match,
        // so a scan touches the pattern bytes, not the rule records of the whole group.
        let m = memo.get(p, may_be_definite, || {
            reading.match_parts(body, flag == 1, may_be_definite)
        });
        if let Some(m) = m {
            if host_applies(self.rule(entry.rule)?.hosts(), host) {
                return Ok(f(entry.rule, m));
            }
        }
        Ok(true)
    }

    fn tool_entry(
        &self,
        e: u32,
        tool: &str,
        subject: &str,
        input_text: &str,
        host: &str,
        f: &mut dyn FnMut(u32, Match),
    ) -> Result<(), Corrupt> {
        let entry = self
            .s
            .tools
            .tool_entry(e)
            .at(Corrupt::record(Kind::ToolPatterns, e))?;
        let r = self.rule(entry.rule)?;
        let allow = verdict(&r, entry.rule)? == Verdict::Allow;
        let rule_tool = self.tool_of(&r)?;
        if !host_applies(r.hosts(), host) || !tool_matches(rule_tool, tool, allow) {
            return Ok(());
        }
        let kind =
            PatternKind::from_u8(entry.kind as u8).at(Corrupt::record(Kind::ToolPatterns, e))?;
        let text = self.bytes(entry.text)?;
        if let Some(m) = tool_pattern_match(rule_tool, kind, text, subject, input_text, allow) {
            f(entry.rule, m);
        }
        Ok(())
    }
}

/// Allow-side content lookups before the table is read for allow content entries.
const ALLOW_CONTENT_AFTER: u32 = 16;

fn span_range(s: Span, bad: Corrupt) -> Result<std::ops::Range<usize>, Corrupt> {
    let o = s.off as usize;
    Ok(o..o.checked_add(s.len as usize).at(bad)?)
}

/// A rule record's verdict (`rule` names it when the record is bad).
fn verdict(r: &Rule, rule: u32) -> Result<Verdict, Corrupt> {
    r.verdict().at(Corrupt::record(Kind::Rules, rule))
}

impl RuleFacts for TableRules<'_> {
    fn verdict(&self, rule: u32) -> Result<Verdict, Corrupt> {
        verdict(&self.rule(rule)?, rule)
    }

    fn score(&self, rule: u32) -> Result<Score, Corrupt> {
        let r = self.rule(rule)?;
        Ok(Score {
            tier: r.tier().at(Corrupt::record(Kind::Rules, rule))?,
            priority: r.priority(),
            literal: r.literal(),
            wildcards: r.wildcards(),
        })
    }

    fn describe(&self, rule: u32) -> Result<RuleDesc, Corrupt> {
        let r = self.rule(rule)?;
        let reason = match r.reason() {
            None => None,
            Some(s) => Some(self.str_at(s)?.to_string()),
        };
        Ok(RuleDesc {
            id: self.str_at(r.id())?.to_string(),
            verdict: verdict(&r, rule)?,
            tool: self.tool_of(&r)?.to_string(),
            source: self.str_at(r.file())?.to_string(),
            line: r.line(),
            column: r.column(),
            text: self.str_at(r.text())?.to_string(),
            reason,
        })
    }
}

impl RuleSource for TableRules<'_> {
    fn match_segment(
        &self,
        reading: &[u8],
        side: Side,
        host: &str,
        f: &mut dyn FnMut(u32, Match),
    ) -> Result<(), Corrupt> {
        self.match_segment_until(reading, side, host, &mut |r, m| {
            f(r, m);
            true
        })?;
        Ok(())
    }

    fn match_segment_until(
        &self,
        reading: &[u8],
        side: Side,
        host: &str,
        f: &mut dyn FnMut(u32, Match) -> bool,
    ) -> Result<bool, Corrupt> {
        let allow = side.is_allow();
        let idx = if allow {
            &self.s.allow
        } else {
            &self.s.deny_ask
        };
        let strings = &self.s.strings;
        let bad = Corrupt::section(self.kinds(idx).0);
        let prepared = Reading::new(reading);
        if !self.scan_group(idx, &idx.wild(), &prepared, host, f)? {
            return Ok(false);
        }
        // The reading's first k tokens, k = 1..=KEY_WORDS: one hash lookup each. Groups
        // are sorted by key bytes, so the keys extending a prefix form one run.
        let mut start = 0usize;
        for _ in 0..KEY_WORDS {
            let rel = reading[start..].iter().position(|&b| b == b' ');
            let stop = rel.map(|r| start + r).unwrap_or(reading.len());
            if reading[start..stop].contains(&WILD) {
                // This word is unknown: every group extending the known words may match
                // (for the first word, every group).
                let known = &reading[..start];
                let mut g = idx.first_at_least(strings, known).at(bad)?;
                while g < idx.group_count() {
                    let grp = idx.group(g).at(Corrupt::record(self.kinds(idx).0, g))?;
                    if !self.bytes(grp.key)?.starts_with(known) {
                        break;
                    }
                    if !self.scan_group(idx, &grp, &prepared, host, f)? {
                        return Ok(false);
                    }
                    g += 1;
                }
                return Ok(true);
            }
            if let Some(grp) = idx.find(strings, &reading[..stop]).at(bad)? {
                if !self.scan_group(idx, &grp, &prepared, host, f)? {
                    return Ok(false);
                }
            }
            match rel {
                Some(_) => start = stop + 1,
                None => break,
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
        let allow = side.is_allow();
        if allow && !self.any_allow_content()? {
            return Ok(());
        }
        let cands = self
            .s
            .content
            .candidates_memo(&self.s.strings, texts, &mut self.content_memo.borrow_mut())
            .at(Corrupt::section(Kind::ContentIndex))?;
        for e in cands {
            self.content_entry(e, tool, texts, allow, host, f)?;
        }
        Ok(())
    }

    fn match_path(
        &self,
        tool: &str,
        q: &PathQuery,
        ctx: &Context,
        side: Side,
        host: &str,
        f: &mut dyn FnMut(u32),
    ) -> Result<(), Corrupt> {
        let allow = side.is_allow();
        self.path_entries(tool, allow, host, ctx, Some(q), &mut |entry, dir| {
            let anchor = Anchor::from_u8(entry.anchor as u8).at(Corrupt::section(Kind::Paths))?;
            let regex = |s: Span| {
                let bad = Corrupt::offset(Kind::Regex, s.off);
                self.s.regex.get(span_range(s, bad)?).at(bad)
            };
            let (exact, folded) = (regex(entry.exact)?, regex(entry.folded)?);
            if rule_matches(anchor, dir.as_deref(), exact, folded, q, ctx, allow)? {
                f(entry.rule);
            }
            Ok(())
        })
    }

    fn match_path_under(
        &self,
        tool: &str,
        folder: &Path,
        ctx: &Context,
        host: &str,
        f: &mut dyn FnMut(u32),
    ) -> Result<(), Corrupt> {
        self.path_entries(tool, false, host, ctx, None, &mut |entry, dir| {
            let anchor = Anchor::from_u8(entry.anchor as u8).at(Corrupt::section(Kind::Paths))?;
            let glob = self.str_at(entry.glob)?;
            if path_could_hold(anchor, dir.as_deref(), glob, folder, ctx) {
                f(entry.rule);
            }
            Ok(())
        })
    }

    fn match_tool(
        &self,
        tool: &str,
        subject: &str,
        input_text: &str,
        host: &str,
        f: &mut dyn FnMut(u32, Match),
    ) -> Result<(), Corrupt> {
        let idx = &self.s.tools;
        let bad = Corrupt::section(Kind::ToolIndex);
        for e in idx.entries(&idx.wild()).at(bad)? {
            self.tool_entry(e, tool, subject, input_text, host, f)?;
        }
        for key in tool_lookup_keys(tool) {
            if let Some(g) = idx.find(&self.s.strings, &key).at(bad)? {
                for e in idx.entries(&g).at(bad)? {
                    self.tool_entry(e, tool, subject, input_text, host, f)?;
                }
            }
        }
        self.web_tool_entries(tool, subject, input_text, host, f)
    }
}

#[cfg(all(test, feature = "compiler"))]
mod index_tests;
