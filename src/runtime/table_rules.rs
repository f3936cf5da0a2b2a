//! The compiled table's rule sections, read in place (docs/contract.md#c-table). Nothing here allocates in
//! proportion to the table: a lookup binary-searches the index by the reading's first word
//! and touches only that group's patterns. Every read is bounds-checked; a bad offset is
//! [`Corrupt`], never a panic.

use super::pathmatch::{path_could_hold, policy_dir, rule_matches};
use super::{Context, Corrupt, PathQuery, RuleDesc, RuleFacts, RuleSource, Score, Side};
use crate::ir::{PatternKind, Tier, Verdict};
use crate::paths::Anchor;
use crate::pattern::{self, Match, STAR, WILD};
use std::path::Path;

/// Section kinds (the table module stores them opaquely).
pub const SEC_STRINGS: u32 = 1;
pub const SEC_RULES: u32 = 2;
pub const SEC_DA_PATS: u32 = 3;
pub const SEC_DA_INDEX: u32 = 4;
pub const SEC_AL_PATS: u32 = 5;
pub const SEC_AL_INDEX: u32 = 6;
pub const SEC_CONTENT: u32 = 7;
pub const SEC_REGEX: u32 = 8;
pub const SEC_TOOLPATS: u32 = 9;
/// Optional (older tables lack it): the content-literal hash index, see [`content_index`].
pub const SEC_CONTENT_INDEX: u32 = 10;
/// Optional: hash tables over the deny/ask and allow index keys, see [`key_hash`].
pub const SEC_DA_HASH: u32 = 11;
pub const SEC_AL_HASH: u32 = 12;
/// Optional: tool-pattern entries grouped by [`tool_key`] (same layout as a segment index:
/// group count, wild start, wild count, then key offset/length, start, count). (Kind 13 was
/// an earlier layout keyed by tool name only; it is never read.)
pub const SEC_TOOL_INDEX: u32 = 14;
/// Path rules of file tools (read/edit): see [`PATH_WORDS`].
pub const SEC_PATHS: u32 = 15;

/// The tool index key of a non-bash pattern: the rule's tool name and a NUL, or `None` (the
/// wild group) when the tool name has a `*`. (File tools' path globs live in their own
/// section; domain, field and argument patterns of other tools are not subject prefixes, so
/// the key holds no directory part: a lookup reads the empty-prefix group of each name.)
pub fn tool_key(tool: &str) -> Option<Vec<u8>> {
    if tool.contains('*') {
        return None;
    }
    let mut key = tool.as_bytes().to_vec();
    key.push(0);
    Some(key)
}

/// Index keys hold up to this many leading literal words of a segment pattern, so a
/// lookup for `git status --short` reads only the groups `git`, `git status` and
/// `git status --short`, not every `git` rule.
pub const KEY_WORDS: usize = 3;

/// The index key of a compiled segment pattern body: its leading *complete* literal words
/// (no `*`, followed by a space or by the end of the body), at most [`KEY_WORDS`]. `None`:
/// the first word is not literal, the pattern goes to the wild group (scanned always).
///
/// Why this is sound: if the pattern matches a reading without unknown bytes, the reading
/// starts with those words, each followed by a space or the end of the reading (a body's
/// last word is followed, in the reading, by the end (exact) or by a space or the end
/// (tail)). So the reading's first `k` space-separated tokens equal the key.
pub fn index_key(body: &[u8]) -> Option<&[u8]> {
    let mut end = None;
    let mut start = 0;
    for _ in 0..KEY_WORDS {
        let rel = body[start..].iter().position(|&b| b == b' ');
        let stop = rel.map(|r| start + r).unwrap_or(body.len());
        let w = &body[start..stop];
        if w.is_empty() || w.contains(&STAR) {
            break;
        }
        end = Some(stop);
        match rel {
            Some(_) => start = stop + 1,
            None => break,
        }
    }
    end.map(|e| &body[..e])
}

/// u32 words per rule record.
pub const RULE_WORDS: usize = 18;
/// u32 words per segment-pattern entry: rule, offset, length.
pub const PAT_WORDS: usize = 3;
/// u32 words per index group: key offset, key length, first entry, entry count.
pub const GROUP_WORDS: usize = 4;
/// u32 words per content or tool-pattern entry: rule, kind, offset, length.
pub const ENTRY_WORDS: usize = 4;
/// u32 words per path-rule entry: rule, anchor, exact DFA (offset, length), folded DFA, the
/// glob below the anchor (offset, length in strings).
pub const PATH_WORDS: usize = 8;

/// Rule record flags.
pub const FLAG_BASH: u32 = 1;
pub const NO_REASON: u32 = u32::MAX;

/// Every known host has a bit in a rule's host mask (0 = every host).
pub fn host_bit(host: &str) -> u32 {
    crate::ir::CLAUDE_AUTHORITY_HOSTS
        .iter()
        .chain(crate::ir::HOST_AUTHORITATIVE_HOSTS)
        .position(|h| *h == host)
        .map(|i| 1u32 << i)
        .unwrap_or(0)
}

pub fn host_applies(mask: u32, host: &str) -> bool {
    mask == 0 || mask & host_bit(host) != 0
}

/// Does a rule written for `rule_tool` apply to a call of `tool`? MCP rules name a whole
/// server (`mcp__s`, `mcp__s__*`) or one tool; an allow may use `*` only after a literal
/// `mcp__server__`, so an allow cannot grant servers it does not name.
pub fn tool_matches(rule_tool: &str, tool: &str, allow: bool) -> bool {
    if rule_tool == tool {
        return true;
    }
    if let Some(rest) = rule_tool.strip_prefix("mcp__") {
        if !tool.starts_with("mcp__") {
            return false;
        }
        if !rest.contains("__") && !rest.contains('*') {
            return tool.starts_with(&format!("{rule_tool}__"));
        }
        if rule_tool.contains('*') {
            if allow {
                let Some(star) = rule_tool.find('*') else {
                    return false;
                };
                let lit = &rule_tool[..star];
                if lit.len() <= 5 || !lit[5..].contains("__") {
                    return false;
                }
            }
            let p = pattern::SegPattern {
                body: rule_tool
                    .bytes()
                    .map(|b| if b == b'*' { pattern::STAR } else { b })
                    .collect(),
                tail: false,
            };
            return p.matches(tool.as_bytes()).is_some();
        }
    }
    false
}

pub struct TableRules<'a> {
    strings: &'a [u8],
    rules: &'a [u8],
    da_pats: &'a [u8],
    da_idx: &'a [u8],
    al_pats: &'a [u8],
    al_idx: &'a [u8],
    content: &'a [u8],
    regex: &'a [u8],
    toolpats: &'a [u8],
    /// Empty when the table predates the index: content entries are then scanned linearly.
    content_idx: &'a [u8],
    da_hash: &'a [u8],
    al_hash: &'a [u8],
    tool_idx: &'a [u8],
    pathpats: &'a [u8],
}

fn word(sec: &[u8], i: usize) -> Result<u32, Corrupt> {
    let off = i.checked_mul(4).ok_or(Corrupt)?;
    let b = sec.get(off..off + 4).ok_or(Corrupt)?;
    Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
}

fn slice(sec: &[u8], off: u32, len: u32) -> Result<&[u8], Corrupt> {
    let (o, l) = (off as usize, len as usize);
    sec.get(o..o.checked_add(l).ok_or(Corrupt)?).ok_or(Corrupt)
}

impl<'a> TableRules<'a> {
    /// Borrow the sections; a missing section is a corrupt table.
    pub fn new(get: impl Fn(u32) -> Option<&'a [u8]>) -> Result<TableRules<'a>, Corrupt> {
        Ok(TableRules {
            strings: get(SEC_STRINGS).ok_or(Corrupt)?,
            rules: get(SEC_RULES).ok_or(Corrupt)?,
            da_pats: get(SEC_DA_PATS).ok_or(Corrupt)?,
            da_idx: get(SEC_DA_INDEX).ok_or(Corrupt)?,
            al_pats: get(SEC_AL_PATS).ok_or(Corrupt)?,
            al_idx: get(SEC_AL_INDEX).ok_or(Corrupt)?,
            content: get(SEC_CONTENT).ok_or(Corrupt)?,
            regex: get(SEC_REGEX).ok_or(Corrupt)?,
            toolpats: get(SEC_TOOLPATS).ok_or(Corrupt)?,
            content_idx: get(SEC_CONTENT_INDEX).unwrap_or(&[]),
            da_hash: get(SEC_DA_HASH).unwrap_or(&[]),
            al_hash: get(SEC_AL_HASH).unwrap_or(&[]),
            tool_idx: get(SEC_TOOL_INDEX).unwrap_or(&[]),
            pathpats: get(SEC_PATHS).ok_or(Corrupt)?,
        })
    }

    pub fn rule_count(&self) -> usize {
        self.rules.len() / (RULE_WORDS * 4)
    }

    fn rw(&self, rule: u32, k: usize) -> Result<u32, Corrupt> {
        if rule as usize >= self.rule_count() {
            return Err(Corrupt);
        }
        word(self.rules, rule as usize * RULE_WORDS + k)
    }

    fn str_at(&self, off: u32, len: u32) -> Result<&'a str, Corrupt> {
        std::str::from_utf8(slice(self.strings, off, len)?).map_err(|_| Corrupt)
    }

    fn rule_str(&self, rule: u32, k: usize) -> Result<&'a str, Corrupt> {
        self.str_at(self.rw(rule, k)?, self.rw(rule, k + 1)?)
    }

    fn host_ok(&self, rule: u32, host: &str) -> Result<bool, Corrupt> {
        Ok(host_applies(self.rw(rule, 4)?, host))
    }

    /// Content entries one by one (tables built before the content index).
    fn match_content_linear(
        &self,
        tool: &str,
        texts: &[&[u8]],
        allow: bool,
        host: &str,
        f: &mut dyn FnMut(u32),
    ) -> Result<(), Corrupt> {
        let n = self.content.len() / (ENTRY_WORDS * 4);
        for e in 0..n {
            self.content_entry(e, tool, texts, allow, host, false, f)?;
        }
        Ok(())
    }

    /// Test content entry `e`. `literal_found`: the index already saw its literal in a text
    /// (a `contains` entry then matches without searching again).
    #[allow(clippy::too_many_arguments)]
    fn content_entry(
        &self,
        e: usize,
        tool: &str,
        texts: &[&[u8]],
        allow: bool,
        host: &str,
        literal_found: bool,
        f: &mut dyn FnMut(u32),
    ) -> Result<(), Corrupt> {
        let rule = word(self.content, e * ENTRY_WORDS)?;
        if (self.verdict(rule)? == Verdict::Allow) != allow || !self.host_ok(rule, host)? {
            return Ok(());
        }
        if !tool_matches(self.rule_str(rule, 5)?, tool, allow) {
            return Ok(());
        }
        let kind = word(self.content, e * ENTRY_WORDS + 1)?;
        let (off, len) = (
            word(self.content, e * ENTRY_WORDS + 2)?,
            word(self.content, e * ENTRY_WORDS + 3)?,
        );
        let hit = if kind == PatternKind::Contains as u32 {
            let lit = slice(self.strings, off, len)?;
            literal_found || texts.iter().any(|t| memchr::memmem::find(t, lit).is_some())
        } else if kind == PatternKind::Regex as u32 {
            let dfa = slice(self.regex, off, len)?;
            let mut any = false;
            for t in texts {
                if crate::content::regex_dfa_is_match(dfa, t).ok_or(Corrupt)? {
                    any = true;
                    break;
                }
            }
            any
        } else {
            return Err(Corrupt);
        };
        if hit {
            f(rule);
        }
        Ok(())
    }

    fn scan_group(
        &self,
        pats: &[u8],
        start: u32,
        count: u32,
        reading: &[u8],
        host: &str,
        f: &mut dyn FnMut(u32, Match),
    ) -> Result<(), Corrupt> {
        let wild = reading.contains(&WILD);
        for e in start as usize
            ..(start as usize)
                .checked_add(count as usize)
                .ok_or(Corrupt)?
        {
            let rule = word(pats, e * PAT_WORDS)?;
            let p = slice(
                self.strings,
                word(pats, e * PAT_WORDS + 1)?,
                word(pats, e * PAT_WORDS + 2)?,
            )?;
            // A pattern needs at least its literal bytes (a `*` matches zero or more): when
            // every byte of the reading is known, a longer pattern cannot match. This skips
            // most of a group's globs (`git status * arg7` for `git status`) before matching.
            // (An empty pattern, only in a corrupt table, has no flag byte: 0 here.)
            let body = p.get(1..).unwrap_or(&[]);
            if !wild && body.len() - body.iter().filter(|&&b| b == STAR).count() > reading.len() {
                continue;
            }
            // Match first: the rule record (host mask) is read only for the few that match,
            // so a scan touches the pattern bytes, not the rule records of the whole group.
            if let Some(m) = pattern::match_bytes(p, reading) {
                if self.host_ok(rule, host)? {
                    f(rule, m);
                }
            }
        }
        Ok(())
    }
}

impl RuleFacts for TableRules<'_> {
    fn verdict(&self, rule: u32) -> Result<Verdict, Corrupt> {
        Verdict::from_u8((self.rw(rule, 0)? & 0xFF) as u8).ok_or(Corrupt)
    }

    fn score(&self, rule: u32) -> Result<Score, Corrupt> {
        let w0 = self.rw(rule, 0)?;
        let tier = match (w0 >> 8) & 0xFF {
            0 => Tier::Project,
            1 => Tier::User,
            2 => Tier::Managed,
            _ => return Err(Corrupt),
        };
        Ok(Score {
            tier,
            priority: self.rw(rule, 1)? as i32,
            literal: self.rw(rule, 2)?,
            wildcards: self.rw(rule, 3)?,
        })
    }

    fn describe(&self, rule: u32) -> Result<RuleDesc, Corrupt> {
        let reason = if self.rw(rule, 12)? == NO_REASON {
            None
        } else {
            Some(self.rule_str(rule, 11)?.to_string())
        };
        Ok(RuleDesc {
            id: self.rule_str(rule, 7)?.to_string(),
            verdict: self.verdict(rule)?,
            tool: self.rule_str(rule, 5)?.to_string(),
            source: self.rule_str(rule, 13)?.to_string(),
            line: self.rw(rule, 15)?,
            column: self.rw(rule, 16)?,
            text: self.rule_str(rule, 9)?.to_string(),
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
        let allow = side.is_allow();
        let (pats, idx, hash) = if allow {
            (self.al_pats, self.al_idx, self.al_hash)
        } else {
            (self.da_pats, self.da_idx, self.da_hash)
        };
        // Index layout: group count, wild-group start, wild-group count, then groups.
        let groups = word(idx, 0)?;
        let (ws, wc) = (word(idx, 1)?, word(idx, 2)?);
        self.scan_group(pats, ws, wc, reading, host, f)?;
        let group = |g: u32| -> Result<(&[u8], u32, u32), Corrupt> {
            let base = 3 + g as usize * GROUP_WORDS;
            Ok((
                slice(self.strings, word(idx, base)?, word(idx, base + 1)?)?,
                word(idx, base + 2)?,
                word(idx, base + 3)?,
            ))
        };
        // The reading's first k tokens, k = 1..=KEY_WORDS: one binary search each. Groups
        // are sorted by key bytes, so the keys extending a prefix form one run.
        let first_at_least = |key: &[u8]| -> Result<u32, Corrupt> {
            let (mut lo, mut hi) = (0u32, groups);
            while lo < hi {
                let mid = lo + (hi - lo) / 2;
                if group(mid)?.0 < key {
                    lo = mid + 1;
                } else {
                    hi = mid;
                }
            }
            Ok(lo)
        };
        let mut start = 0usize;
        for _ in 0..KEY_WORDS {
            let rel = reading[start..].iter().position(|&b| b == b' ');
            let stop = rel.map(|r| start + r).unwrap_or(reading.len());
            if reading[start..stop].contains(&WILD) {
                // This word is unknown: every group extending the known words may match
                // (for the first word, every group).
                let known = &reading[..start];
                let mut g = first_at_least(known)?;
                while g < groups {
                    let (k, s, c) = group(g)?;
                    if !k.starts_with(known) {
                        break;
                    }
                    self.scan_group(pats, s, c, reading, host, f)?;
                    g += 1;
                }
                return Ok(());
            }
            let key = &reading[..stop];
            if hash.is_empty() {
                let g = first_at_least(key)?;
                if g < groups {
                    let (k, s, c) = group(g)?;
                    if k == key {
                        self.scan_group(pats, s, c, reading, host, f)?;
                    }
                }
            } else {
                // One bucket instead of a binary search over every key.
                let nb = word(hash, 0)?;
                if nb == 0 || !nb.is_power_of_two() {
                    return Err(Corrupt);
                }
                let b = key_hash::bucket(key, nb) as usize;
                for i in word(hash, 1 + b)?..word(hash, 2 + b)? {
                    let g = word(hash, 2 + nb as usize + i as usize)?;
                    if g >= groups {
                        return Err(Corrupt);
                    }
                    let (k, s, c) = group(g)?;
                    if k == key {
                        self.scan_group(pats, s, c, reading, host, f)?;
                        break;
                    }
                }
            }
            match rel {
                Some(_) => start = stop + 1,
                None => break,
            }
        }
        Ok(())
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
        if self.content_idx.is_empty() {
            return self.match_content_linear(tool, texts, allow, host, f);
        }
        let n = self.content.len() / (ENTRY_WORDS * 4);
        let mut cands = content_index::candidates(self.content_idx, self.strings, texts)?;
        cands.sort_unstable();
        cands.dedup();
        for e in cands {
            if e as usize >= n {
                return Err(Corrupt);
            }
            self.content_entry(e as usize, tool, texts, allow, host, true, f)?;
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
        let n = self.pathpats.len() / (PATH_WORDS * 4);
        for e in 0..n {
            let w = |k: usize| word(self.pathpats, e * PATH_WORDS + k);
            let rule = w(0)?;
            if (self.verdict(rule)? == Verdict::Allow) != allow
                || !self.host_ok(rule, host)?
                || self.rule_str(rule, 5)? != tool
            {
                continue;
            }
            let anchor = Anchor::from_u8(w(1)? as u8).ok_or(Corrupt)?;
            let exact = slice(self.regex, w(2)?, w(3)?)?;
            let folded = slice(self.regex, w(4)?, w(5)?)?;
            let dir = policy_dir(self.rule_str(rule, 13)?, ctx);
            if rule_matches(anchor, dir.as_deref(), exact, folded, q, ctx, allow)? {
                f(rule);
            }
        }
        Ok(())
    }

    fn match_path_under(
        &self,
        tool: &str,
        folder: &Path,
        ctx: &Context,
        host: &str,
        f: &mut dyn FnMut(u32),
    ) -> Result<(), Corrupt> {
        let n = self.pathpats.len() / (PATH_WORDS * 4);
        for e in 0..n {
            let w = |k: usize| word(self.pathpats, e * PATH_WORDS + k);
            let rule = w(0)?;
            if self.verdict(rule)? == Verdict::Allow
                || !self.host_ok(rule, host)?
                || self.rule_str(rule, 5)? != tool
            {
                continue;
            }
            let a = w(1)?;
            let anchor = Anchor::from_u8(a as u8).ok_or(Corrupt)?;
            let glob = self.str_at(w(6)?, w(7)?)?;
            let dir = policy_dir(self.rule_str(rule, 13)?, ctx);
            if path_could_hold(anchor, dir.as_deref(), glob, folder, ctx) {
                f(rule);
            }
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
        let idx = self.tool_idx;
        if idx.is_empty() {
            let n = self.toolpats.len() / (ENTRY_WORDS * 4);
            for e in 0..n {
                self.tool_entry(e, tool, subject, input_text, host, f)?;
            }
            return Ok(());
        }
        let scan = |start: u32, count: u32, f: &mut dyn FnMut(u32, Match)| {
            for e in start..start.checked_add(count).ok_or(Corrupt)? {
                self.tool_entry(e as usize, tool, subject, input_text, host, f)?;
            }
            Ok::<(), Corrupt>(())
        };
        let groups = word(idx, 0)?;
        scan(word(idx, 1)?, word(idx, 2)?, f)?;
        let find = |key: &[u8], f: &mut dyn FnMut(u32, Match)| {
            let (mut lo, mut hi) = (0u32, groups);
            while lo < hi {
                let mid = lo + (hi - lo) / 2;
                let base = 3 + mid as usize * GROUP_WORDS;
                let k = slice(self.strings, word(idx, base)?, word(idx, base + 1)?)?;
                match k.cmp(key) {
                    std::cmp::Ordering::Less => lo = mid + 1,
                    std::cmp::Ordering::Greater => hi = mid,
                    std::cmp::Ordering::Equal => {
                        return scan(word(idx, base + 2)?, word(idx, base + 3)?, f);
                    }
                }
            }
            Ok::<(), Corrupt>(())
        };
        // Tool names a rule may be written for: this tool and (MCP) each server prefix of
        // it that ends before a `__` (see `tool_matches`), each with the empty key suffix
        // (see `tool_key`).
        let t = tool.as_bytes();
        let mut names: Vec<&[u8]> = vec![t];
        if t.starts_with(b"mcp__") {
            for i in 5..t.len() {
                if t[i..].starts_with(b"__") {
                    names.push(&t[..i]);
                }
            }
        }
        let mut key = Vec::with_capacity(t.len() + 1);
        for name in names {
            key.clear();
            key.extend_from_slice(name);
            key.push(0);
            find(&key, f)?;
        }
        Ok(())
    }
}

impl TableRules<'_> {
    fn tool_entry(
        &self,
        e: usize,
        tool: &str,
        subject: &str,
        input_text: &str,
        host: &str,
        f: &mut dyn FnMut(u32, Match),
    ) -> Result<(), Corrupt> {
        let rule = word(self.toolpats, e * ENTRY_WORDS)?;
        let allow = self.verdict(rule)? == Verdict::Allow;
        if !self.host_ok(rule, host)? || !tool_matches(self.rule_str(rule, 5)?, tool, allow) {
            return Ok(());
        }
        let kind =
            PatternKind::from_u8(word(self.toolpats, e * ENTRY_WORDS + 1)? as u8).ok_or(Corrupt)?;
        let text = slice(
            self.strings,
            word(self.toolpats, e * ENTRY_WORDS + 2)?,
            word(self.toolpats, e * ENTRY_WORDS + 3)?,
        )?;
        if let Some(m) = tool_pattern_match(
            self.rule_str(rule, 5)?,
            kind,
            text,
            subject,
            input_text,
            allow,
        ) {
            f(rule, m);
        }
        Ok(())
    }
}

/// A non-bash pattern against a tool's main argument. Specifiers polc does not decide yet
/// are a possible match for deny/ask (so they ask) and never match for allow.
pub fn tool_pattern_match(
    rule_tool: &str,
    kind: PatternKind,
    text: &[u8],
    subject: &str,
    input_text: &str,
    allow: bool,
) -> Option<Match> {
    let s = subject.as_bytes();
    if kind == PatternKind::Any {
        return Some(Match::Definite);
    }
    if rule_tool == "webfetch" && !kind.is_content() {
        // Domain rules: `domain:example.com`, `*.example.com`, on every reading of the URL
        // (web.rs): a deny/ask matches if any reading names a covered host, and possibly
        // matches when a reading has no host polc can read; an allow needs every reading.
        let rule = std::str::from_utf8(text).ok()?;
        return crate::web::rule_meets_url(rule, subject, allow).map(|definite| {
            if definite {
                Match::Definite
            } else {
                Match::Possible
            }
        });
    }
    match kind {
        PatternKind::Exact => (text == s).then_some(Match::Definite),
        PatternKind::Prefix => s.starts_with(text).then_some(Match::Definite),
        // Other tools: `glob "x*"` over the main argument, `glob "field:value*"` over an
        // input field (like Claude's `Tool(field:value)`).
        PatternKind::Glob | PatternKind::Specifier => {
            specifier_match(text, subject, input_text, allow)
        }
        _ => None,
    }
}

/// `Tool(spec)` rules: `param:value` is an input-field rule (deny/ask only; the front end
/// drops it from allow with a warning); otherwise the spec is a glob over the tool's main
/// argument. A call polc cannot read for it (no input, no field) is a possible match for
/// deny/ask and none for allow.
fn specifier_match(text: &[u8], subject: &str, input_text: &str, allow: bool) -> Option<Match> {
    let spec = std::str::from_utf8(text).ok()?;
    let glob = |pat: &str, v: &str| {
        pattern::SegPattern {
            body: pat
                .bytes()
                .map(|b| if b == b'*' { pattern::STAR } else { b })
                .collect(),
            tail: false,
        }
        .matches(v.as_bytes())
        .is_some()
    };
    if let Some((param, value)) = spec.split_once(':') {
        if !param.is_empty()
            && param
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'_')
        {
            if allow {
                return None;
            }
            let v: serde_json::Value = match serde_json::from_str(input_text) {
                Ok(v) => v,
                Err(_) => return Some(Match::Possible),
            };
            return match v.get(param) {
                Some(serde_json::Value::String(s)) => glob(value, s).then_some(Match::Definite),
                Some(other) => glob(value, &other.to_string()).then_some(Match::Definite),
                None => None,
            };
        }
    }
    if subject.is_empty() {
        return (!allow).then_some(Match::Possible);
    }
    glob(spec, subject).then_some(Match::Definite)
}

/// The content index (section [`SEC_CONTENT_INDEX`]): which content entries can match a
/// text, found without looking at every entry.
///
/// Every entry has *guard* literals, one of which occurs in any text it matches: a
/// `contains` entry's own literal; a regex's required prefixes (extracted at build time), or
/// no guard (the regex always runs). Guards of 4 bytes or more go into a hash table on their
/// first 4 bytes; shorter ones, and unguarded regexes, into a short list. Layout, u32 words:
///
/// ```text
/// nbuckets (a power of two, or 0)   nshort
/// nshort × (entry, offset, length)        length = NO_GUARD: always a candidate
/// (nbuckets + 1) × bucket start           into the bucket entries
/// bucket entries × (entry, offset, length)
/// ```
///
/// A lookup hashes each 4-byte window of each text and checks that bucket's guards: the
/// work is proportional to the text, and the pages touched to the buckets it hashes to.
pub mod content_index {
    use super::{slice, word, Corrupt};

    pub const NO_GUARD: u32 = u32::MAX;
    pub const GUARD_WORDS: usize = 3;

    pub fn hash4(b: &[u8]) -> u32 {
        u32::from_le_bytes([b[0], b[1], b[2], b[3]]).wrapping_mul(0x9E37_79B1)
    }

    pub fn bucket(h: u32, nbuckets: u32) -> u32 {
        // nbuckets is a power of two ≥ 1: take the high bits.
        if nbuckets <= 1 {
            0
        } else {
            h >> (32 - nbuckets.trailing_zeros())
        }
    }

    /// Build the section from (entry, guards); `None` guards: always a candidate.
    /// Guard bytes go to `strings` through `add`.
    pub fn build(
        entries: &[(u32, Option<Vec<Vec<u8>>>)],
        mut add: impl FnMut(&[u8]) -> (u32, u32),
    ) -> Vec<u8> {
        let mut short: Vec<[u32; 3]> = Vec::new();
        let mut long: Vec<(u32, [u32; 3])> = Vec::new();
        for (e, guards) in entries {
            match guards {
                None => short.push([*e, 0, NO_GUARD]),
                Some(gs) => {
                    for g in gs {
                        let (o, l) = add(g);
                        if g.len() >= 4 {
                            long.push((hash4(g), [*e, o, l]));
                        } else {
                            short.push([*e, o, l]);
                        }
                    }
                }
            }
        }
        let nb = if long.is_empty() {
            0
        } else {
            (long.len() * 2).next_power_of_two() as u32
        };
        let mut buckets: Vec<Vec<[u32; 3]>> = vec![Vec::new(); nb as usize];
        for (h, g) in long {
            buckets[bucket(h, nb) as usize].push(g);
        }
        let mut w: Vec<u32> = vec![nb, short.len() as u32];
        for g in &short {
            w.extend_from_slice(g);
        }
        let mut at = 0u32;
        for b in &buckets {
            w.push(at);
            at += b.len() as u32;
        }
        w.push(at);
        for b in &buckets {
            for g in b {
                w.extend_from_slice(g);
            }
        }
        w.iter().flat_map(|x| x.to_le_bytes()).collect()
    }

    /// Content entries that may match one of `texts` (with repeats).
    pub fn candidates(idx: &[u8], strings: &[u8], texts: &[&[u8]]) -> Result<Vec<u32>, Corrupt> {
        let nb = word(idx, 0)?;
        let nshort = word(idx, 1)? as usize;
        if nb != 0 && !nb.is_power_of_two() {
            return Err(Corrupt);
        }
        let mut out = Vec::new();
        for i in 0..nshort {
            let base = 2 + i * GUARD_WORDS;
            let (e, o, l) = (word(idx, base)?, word(idx, base + 1)?, word(idx, base + 2)?);
            if l == NO_GUARD {
                out.push(e);
                continue;
            }
            let lit = slice(strings, o, l)?;
            if texts.iter().any(|t| memchr::memmem::find(t, lit).is_some()) {
                out.push(e);
            }
        }
        if nb == 0 {
            return Ok(out);
        }
        let starts = 2 + nshort.checked_mul(GUARD_WORDS).ok_or(Corrupt)?;
        let ents = starts + nb as usize + 1;
        // The bucket starts, bounds-checked once: the loop below runs for every 4-byte window
        // of every text (10,000-character commands), and most buckets are empty.
        let st = idx
            .get(starts * 4..ents.checked_mul(4).ok_or(Corrupt)?)
            .ok_or(Corrupt)?;
        let at = |b: usize| {
            let w = &st[b * 4..b * 4 + 4];
            u32::from_le_bytes([w[0], w[1], w[2], w[3]])
        };
        for t in texts {
            for (i, w) in t.windows(4).enumerate() {
                // b < nb, so b + 1 ≤ nb is inside `st` (nb + 1 words).
                let b = bucket(hash4(w), nb) as usize;
                let (s, end) = (at(b), at(b + 1));
                if s == end {
                    continue;
                }
                for g in s..end {
                    let base = ents + g as usize * GUARD_WORDS;
                    let lit = slice(strings, word(idx, base + 1)?, word(idx, base + 2)?)?;
                    if t[i..].starts_with(lit) {
                        out.push(word(idx, base)?);
                    }
                }
            }
        }
        Ok(out)
    }
}

/// Hash tables over a segment index's group keys (sections [`SEC_DA_HASH`], [`SEC_AL_HASH`]),
/// so finding the group of a known key costs one bucket, not a binary search. Layout, u32
/// words: `nbuckets` (a power of two ≥ 1), `nbuckets + 1` bucket starts, then group numbers.
/// Range scans (a word polc cannot know) still use the sorted groups.
pub mod key_hash {
    pub fn bucket(key: &[u8], nbuckets: u32) -> u32 {
        (crate::ir::fnv1a64(key) >> 32) as u32 & (nbuckets - 1)
    }

    /// Build the section for group keys in group order.
    pub fn build(keys: &[&[u8]]) -> Vec<u8> {
        let nb = (keys.len().max(1)).next_power_of_two() as u32;
        let mut buckets: Vec<Vec<u32>> = vec![Vec::new(); nb as usize];
        for (g, k) in keys.iter().enumerate() {
            buckets[bucket(k, nb) as usize].push(g as u32);
        }
        let mut w = vec![nb];
        let mut at = 0u32;
        for b in &buckets {
            w.push(at);
            at += b.len() as u32;
        }
        w.push(at);
        for b in &buckets {
            w.extend_from_slice(b);
        }
        w.iter().flat_map(|x| x.to_le_bytes()).collect()
    }
}

#[cfg(all(test, feature = "compiler"))]
mod index_tests {
    //! The indexes (multi-word keys, key hashes, content index, tool index) must not change
    //! a decision: compare the indexed table, the same table without its optional sections
    //! (the linear fallbacks older tables use) and the reference interpreter.
    use super::*;
    use crate::ir::Tier;
    use crate::runtime::interp::Reference;
    use crate::runtime::{decide, Request};

    const POLICY: &str = r#"
allow bash prefix "git status"
allow bash prefix "git"
deny bash prefix "git push --force"
ask bash glob "git push * --force*"
ask bash glob "git push *"
deny bash exact "rm -rf /"
deny bash glob "rm -rf *"
allow bash glob "cargo b*"
allow bash glob "*.sh --help"
ask bash prefix "kubectl delete pod"
allow bash prefix "kubectl get"
deny bash prefix "curl"
deny bash contains "AKIA"
ask bash contains "password="
deny bash contains "-----BEGIN"
deny bash regex 'tok_[0-9a-f]{8,}'
ask bash regex '(?i)drop\s+table'
deny bash regex '[a-z]+://[^ ]+:[^ @]+@'
allow bash contains "ok"
deny read glob "/srv/*.key"
deny read exact "/etc/passwd"
ask read prefix "/home/u/"
deny read glob "*.pem"
ask read glob "/a/b*/c"
allow edit glob "docs/**"
deny mcp__fs__read glob "/secret/*"
allow read glob "/srv/public/*"
ask edit glob "src/*.rs"
allow webfetch glob "https://docs.rs/*"
deny mcp__github__delete_repo
allow mcp__github__get_*
ask mcp__slack
deny mcp__a_
deny mcp__*
"#;

    const COMMANDS: &[&str] = &[
        "git status",
        "git status --short",
        "git",
        "gitk",
        "git push --force origin",
        "git push origin main --force-with-lease",
        "git push origin",
        "rm -rf /",
        "rm -rf /tmp",
        "cargo build --release",
        "cargo bench",
        "./x.sh --help",
        "kubectl delete pod web-1",
        "kubectl get pods",
        "curl https://x",
        "echo AKIA1234",
        "echo password=hunter2",
        "echo tok_deadbeef01",
        "echo tok_dead",
        "psql -c 'DROP  TABLE users'",
        "psql postgres://u:pw@host/db",
        "echo ok",
        "git $X",
        "$CMD status",
        "git status $(ls)",
        "g\"it\" status",
        "GIT push --force",
        "echo '-----BEGIN KEY'",
        "ls; git push --force",
        "bash -c 'git push --force'",
        "kubectl $VERB pod web",
        "git st$X",
        "",
    ];

    const TOOLS: &[(&str, &str)] = &[
        ("read", "/srv/a.key"),
        ("read", "/srv/public/a.key"),
        ("read", "/etc/passwd"),
        ("edit", "src/main.rs"),
        ("webfetch", "https://docs.rs/x"),
        ("webfetch", "https://evil"),
        ("mcp__github__delete_repo", ""),
        ("mcp__github__get_issue", ""),
        ("mcp__slack__post", ""),
        ("mcp__a___b", ""),
        ("mcp__other__x", ""),
        ("read", "AKIA in path"),
    ];

    #[test]
    fn indexes_decide_like_the_linear_scan_and_the_reference() {
        let (policy, _) = crate::lower::load_str("t.pol", POLICY, Tier::Project).expect("lowers");
        let compiled = crate::compile::compile(&policy).expect("compiles");
        let indexed = TableRules::new(|k| compiled.section(k)).unwrap();
        let linear = TableRules::new(|k| {
            if matches!(
                k,
                SEC_CONTENT_INDEX | SEC_DA_HASH | SEC_AL_HASH | SEC_TOOL_INDEX
            ) {
                None
            } else {
                compiled.section(k)
            }
        })
        .unwrap();
        let reference = Reference::new(&policy);
        let mut reqs: Vec<Request> = COMMANDS
            .iter()
            .map(|c| Request::Bash {
                command: c.to_string(),
            })
            .collect();
        for (tool, subject) in TOOLS {
            reqs.push(Request::Tool {
                tool: tool.to_string(),
                subject: subject.to_string(),
                input_text: subject.to_string(),
                name: String::new(),
            });
        }
        for req in &reqs {
            for host in ["claude", "codex"] {
                let a = decide(&indexed, host, req).unwrap();
                let b = decide(&linear, host, req).unwrap();
                let c = decide(&reference, host, req).unwrap();
                assert_eq!(
                    (a.decision, a.winner),
                    (b.decision, b.winner),
                    "indexed vs linear: {req:?}"
                );
                assert_eq!(
                    (a.decision, a.winner),
                    (c.decision, c.winner),
                    "indexed vs reference: {req:?}"
                );
                let mut ha: Vec<u32> = a.hits.iter().map(|h| h.rule).collect();
                let mut hc: Vec<u32> = c.hits.iter().map(|h| h.rule).collect();
                ha.sort_unstable();
                hc.sort_unstable();
                assert_eq!(ha, hc, "hits: {req:?}");
            }
        }
    }

    #[test]
    fn index_keys() {
        use crate::pattern::SegPattern;
        let key = |kind, t: &str| {
            let p = SegPattern::compile(kind, t, false).unwrap();
            index_key(&p.body).map(|k| String::from_utf8_lossy(k).into_owned())
        };
        assert_eq!(
            key(PatternKind::Prefix, "git status --short -v").as_deref(),
            Some("git status --short")
        );
        assert_eq!(key(PatternKind::Prefix, "git").as_deref(), Some("git"));
        assert_eq!(
            key(PatternKind::Glob, "git push *").as_deref(),
            Some("git push")
        );
        assert_eq!(key(PatternKind::Glob, "git pu*").as_deref(), Some("git"));
        assert_eq!(key(PatternKind::Glob, "*.sh --help"), None);
    }

    #[test]
    fn regex_guards_are_required_prefixes() {
        use crate::content::regex_guards;
        assert_eq!(regex_guards("tok_[0-9]+"), Some(vec![b"tok_".to_vec()]));
        assert_eq!(regex_guards("[a-z]+://"), None);
        let g = regex_guards("postgres(ql)?://").unwrap();
        assert!(g.iter().all(|l| l.starts_with(b"postgres")));
    }
}
