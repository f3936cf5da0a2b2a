//! Deciding a request (docs/contract.md#c-decide): the procedure, over any [`RuleSource`] — the compiled
//! table ([`table_rules::TableRules`]) or the reference interpreter ([`interp::Reference`]).
//! Both sources answer the same questions; the differential test holds them equal.

pub mod entry;
pub mod gitindex;
pub mod host_checks;
#[cfg(feature = "compiler")]
pub mod interp;
pub mod layers;
pub mod links;
pub mod memory;
pub mod pathmatch;
pub mod protect;
pub mod state;
pub mod table_rules;
pub mod toolmatch;
pub mod toolpaths;
pub mod tripwire;
pub mod trust;
pub mod whole;

use crate::ir::{Decision, Tier, Verdict};
use crate::pattern::Match;
use crate::shell;
use crate::tools;
pub use pathmatch::{Context, PathQuery};
use serde::Serialize;
use std::cmp::Ordering;

/// A table whose bytes do not hold together (caught lazily, at use): which section and
/// where in it, said in the hook's deny reason and by `polc explain`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Corrupt {
    /// The section read; None: the rule numbers across the layers (or the reference
    /// interpreter's rules).
    pub section: Option<crate::table::sections::Kind>,
    pub at: At,
}

/// Where in a section a [`Corrupt`] read was.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum At {
    /// The section as a whole (its check at open, or a record of unknown number).
    Section,
    /// A record (rule number, entry or group index) of the section.
    Record(u32),
    /// A byte offset into the section (a string or DFA span).
    Offset(u32),
}

impl Corrupt {
    pub fn section(kind: crate::table::sections::Kind) -> Corrupt {
        Corrupt {
            section: Some(kind),
            at: At::Section,
        }
    }

    pub fn record(kind: crate::table::sections::Kind, i: u32) -> Corrupt {
        Corrupt {
            section: Some(kind),
            at: At::Record(i),
        }
    }

    pub fn offset(kind: crate::table::sections::Kind, off: u32) -> Corrupt {
        Corrupt {
            section: Some(kind),
            at: At::Offset(off),
        }
    }

    /// A rule number no layer holds.
    pub fn rule(rule: u32) -> Corrupt {
        Corrupt {
            section: None,
            at: At::Record(rule),
        }
    }
}

impl std::fmt::Display for Corrupt {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.section {
            Some(k) => write!(f, "section {} ({})", k as u32, k.name())?,
            None => f.write_str("the rule numbers")?,
        }
        match self.at {
            At::Section => Ok(()),
            At::Record(i) if self.section.is_none() => write!(f, ", rule {i}"),
            At::Record(i) => write!(f, ", record {i}"),
            At::Offset(o) => write!(f, ", offset {o}"),
        }
    }
}

impl std::error::Error for Corrupt {}

/// What a rule contributes to naming the winner (never to the verdict).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Score {
    pub tier: Tier,
    pub priority: i32,
    /// Literal bytes in the rule's most specific pattern.
    pub literal: u32,
    /// Wildcards in that pattern.
    pub wildcards: u32,
}

impl Score {
    /// Higher is better; source order breaks ties (handled by the caller).
    fn cmp_strength(&self, o: &Score) -> Ordering {
        self.tier
            .cmp(&o.tier)
            .then(self.priority.cmp(&o.priority))
            .then(self.literal.cmp(&o.literal))
            .then(o.wildcards.cmp(&self.wildcards))
    }
}

/// A rule as explain shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RuleDesc {
    pub id: String,
    pub verdict: Verdict,
    pub tool: String,
    pub source: String,
    pub line: u32,
    pub column: u32,
    pub text: String,
    pub reason: Option<String>,
}

/// Which rules a match asks about: the allow rules, or the deny and ask rules (which
/// restrict). Matching differs by side (an allow needs both forms of a path, a deny either).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    Allow,
    /// Deny and ask rules.
    Restrict,
}

impl Side {
    pub fn is_allow(self) -> bool {
        self == Side::Allow
    }
}

/// What is known about a rule by its number: its verdict, its score and how explain and
/// the hook's reason name it. Rendering (a reason, explain) needs only these.
pub trait RuleFacts {
    fn verdict(&self, rule: u32) -> Result<Verdict, Corrupt>;
    fn score(&self, rule: u32) -> Result<Score, Corrupt>;
    fn describe(&self, rule: u32) -> Result<RuleDesc, Corrupt>;
}

/// The questions the decision procedure asks of a set of rules: which rules match.
pub trait RuleSource: RuleFacts {
    /// Every bash segment pattern (exact/prefix/glob) that matches `reading`. `side`
    /// selects allow rules (literal reading) or deny/ask rules (every reading).
    fn match_segment(
        &self,
        reading: &[u8],
        side: Side,
        host: &str,
        f: &mut dyn FnMut(u32, Match),
    ) -> Result<(), Corrupt>;
    /// [`Self::match_segment`] that stops when `f` answers false (then `Ok(false)`). A
    /// source that cannot stop early calls `f` for every match and ignores its answers.
    fn match_segment_until(
        &self,
        reading: &[u8],
        side: Side,
        host: &str,
        f: &mut dyn FnMut(u32, Match) -> bool,
    ) -> Result<bool, Corrupt> {
        let mut go = true;
        self.match_segment(reading, side, host, &mut |r, m| {
            if go {
                go = f(r, m);
            }
        })?;
        Ok(go)
    }
    /// Every content rule (contains/regex) of `tool` matching any of `texts`.
    fn match_content(
        &self,
        tool: &str,
        texts: &[&[u8]],
        side: Side,
        host: &str,
        f: &mut dyn FnMut(u32),
    ) -> Result<(), Corrupt>;
    /// Every path rule (read/edit) of `tool` matching the path; `side` selects allow rules
    /// (both forms must match) or deny/ask rules (either form, case-folded too).
    fn match_path(
        &self,
        tool: &str,
        q: &PathQuery,
        ctx: &Context,
        side: Side,
        host: &str,
        f: &mut dyn FnMut(u32),
    ) -> Result<(), Corrupt>;
    /// Every deny/ask path rule of `tool` that could match a path at or below `folder`.
    fn match_path_under(
        &self,
        tool: &str,
        folder: &std::path::Path,
        ctx: &Context,
        host: &str,
        f: &mut dyn FnMut(u32),
    ) -> Result<(), Corrupt>;
    /// Every non-bash rule of `tool` whose pattern matches `subject`.
    fn match_tool(
        &self,
        tool: &str,
        subject: &str,
        input_text: &str,
        host: &str,
        f: &mut dyn FnMut(u32, Match),
    ) -> Result<(), Corrupt>;
}

/// A tool call to decide.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Request {
    Bash {
        command: String,
    },
    /// Any other tool: its canonical name, its main argument (path, URL, …) and the whole
    /// input as text (content rules scan it).
    Tool {
        tool: String,
        subject: String,
        input_text: String,
        /// The tool's name as the host spells it (`Glob`, `Write`), or empty. Claude's bare
        /// tool rules (`Glob`, `Write`, `NotebookEdit`) are kept under that name: each
        /// applies to its own tool, not to the family `tool` names.
        name: String,
    },
}

/// Why an `ask` happened, or what decided otherwise.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Cause {
    /// The winning rule decided.
    Rule { rule: u32 },
    /// A deny rule could match for some value of words polc cannot know.
    PossibleDeny { rule: u32 },
    /// A construct polc cannot attest.
    Unattestable { construct: String },
    /// No rule matched (decision default), or not every segment was allowed.
    NoRule,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Hit {
    pub rule: u32,
    pub verdict: Verdict,
    pub possible: bool,
    /// Index into `Outcome::segments`, or None for content rules over the whole text.
    pub segment: Option<usize>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SegmentReport {
    pub text: String,
    pub decision: Decision,
    pub depth: u32,
    pub unattestable: Vec<String>,
    /// Found only by reading `\r` as a line break.
    pub deny_only: bool,
    /// Has a program to run (not only redirections or a closing brace).
    pub command: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Outcome {
    pub decision: Decision,
    pub cause: Cause,
    pub winner: Option<u32>,
    pub hits: Vec<Hit>,
    pub segments: Vec<SegmentReport>,
    pub unattestable: Vec<String>,
}

/// Decide a request for `host` (docs/contract.md#c-precedence), with paths resolved from this process's
/// context. Errors only when the table is corrupt.
pub fn decide(src: &dyn RuleSource, host: &str, req: &Request) -> Result<Outcome, Corrupt> {
    decide_in(src, host, req, &Context::from_env())
}

/// Decide with an explicit context (the hook passes the host's project root and cwd).
pub fn decide_in(
    src: &dyn RuleSource,
    host: &str,
    req: &Request,
    ctx: &Context,
) -> Result<Outcome, Corrupt> {
    match req {
        Request::Bash { command } => decide_bash(src, host, command, ctx),
        Request::Tool {
            tool,
            subject,
            input_text,
            name,
        } => decide_tool(src, host, tool, name, subject, input_text, ctx),
    }
}

fn decide_bash(
    src: &dyn RuleSource,
    host: &str,
    command: &str,
    ctx: &Context,
) -> Result<Outcome, Corrupt> {
    let walk = match &ctx.cwd {
        Some(cwd) => links::walk(command, cwd),
        None => shell::walk(command),
    };
    decide_walked(src, host, command, &walk, ctx)
}

/// Decide a shell command already walked (the hook walks once and shares the walk with
/// self-protection).
pub fn decide_walked(
    src: &dyn RuleSource,
    host: &str,
    command: &str,
    walk: &shell::Walk,
    ctx: &Context,
) -> Result<Outcome, Corrupt> {
    decide_walked_passes(src, host, command, walk, ctx, Passes::ALL)
}

/// The passes of a decision over a walked command (see [`decide_walked_passes`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Passes {
    /// Allow rules: which segments they grant.
    pub allow: bool,
    /// Bash deny/ask segment patterns: over each segment's readings and over the
    /// whole-command texts ([`whole`]).
    pub segments: bool,
    /// Bash deny/ask content rules: over the command and its dequoted form.
    pub content: bool,
}

impl Passes {
    pub const ALL: Passes = Passes {
        allow: true,
        segments: true,
        content: true,
    };
}

/// [`decide_walked`] with only some passes: for a caller that reads only the deny and ask
/// hits of a source known to have no rule the left-out passes could find (the session's
/// step rules: deny rules only, and often only path rules — `session::check`). The files,
/// folders and URLs the command touches always meet the source's path and URL rules. Left
/// out, a pass finds nothing: without the allow pass no allow rule grants a segment, and the
/// bound on listed matches ([`MAX_HITS`]) counts the hits listed.
/// (For the step rules of the 10 kB command these passes were two-thirds of the session's
/// 4.8 M instructions: the dequoted copy, the whole-command texts and their scans.)
pub fn decide_walked_passes(
    src: &dyn RuleSource,
    host: &str,
    command: &str,
    walk: &shell::Walk,
    ctx: &Context,
    passes: Passes,
) -> Result<Outcome, Corrupt> {
    let dirs = work_dirs(walk, ctx);
    let global: Vec<String> = walk.unattestable.clone();
    let mut hits: Vec<Hit> = Vec::new();
    let mut reports: Vec<SegmentReport> = Vec::new();
    for w in &walk.segments {
        let idx = reports.len();
        let seg = Seg {
            w,
            idx,
            dirs: &dirs,
            passes,
        };
        reports.push(if hits.len() < MAX_HITS {
            judge_segment(src, host, &seg, ctx, &mut hits)?
        } else {
            judge_segment_past_bound(src, host, &seg, ctx, &mut hits)?
        });
    }
    // Content rules (deny/ask) over the raw text and its dequoted form.
    if passes.content {
        content_hits(src, host, command, &translated_readings(walk), &mut hits)?;
    }
    // Deny and ask rules also meet the whole command (operators and redirections kept).
    if passes.segments {
        whole::hits(src, host, command, hits.len() < MAX_HITS, &mut hits)?;
    }
    let counted: Vec<&SegmentReport> = reports.iter().filter(|r| !r.deny_only).collect();
    let any_unatt = !global.is_empty() || reports.iter().any(|r| !r.unattestable.is_empty());
    let all_allowed = counted
        .iter()
        .any(|r| r.decision == Decision::Allow && r.command)
        && counted.iter().all(|r| r.decision == Decision::Allow);
    finish(src, hits, reports, global, any_unatt, all_allowed)
}

/// Readings of a segment as another program than the one written (`hub push` as `git
/// push`, `setfacl -R -m o::rwx` as `chmod -R o+w`, `npx @anthropic-ai/claude-code` as
/// `claude`): content rules (`contains`, `regex`) meet them as well as the command's text
/// (red team 8, C8-worldwritable). At most 64 a command.
fn translated_readings(walk: &shell::Walk) -> Vec<Vec<u8>> {
    let first = |r: &[u8]| r.split(|&b| b == b' ').next().unwrap_or(r).to_vec();
    let mut out: Vec<Vec<u8>> = Vec::new();
    for w in &walk.segments {
        let Some(written) = w.rd.deny.first().map(|r| first(r)) else {
            continue;
        };
        for r in &w.rd.deny[1..] {
            if out.len() >= 64 {
                return out;
            }
            if first(r) != written && !out.contains(r) {
                out.push(r.clone());
            }
        }
    }
    out
}

/// The deny/ask content rules matching the command or its dequoted form (or a reading of a
/// segment as another program), as hits.
fn content_hits(
    src: &dyn RuleSource,
    host: &str,
    command: &str,
    translated: &[Vec<u8>],
    hits: &mut Vec<Hit>,
) -> Result<(), Corrupt> {
    let dq = shell::dequote(command);
    let mut content = Vec::new();
    let mut texts: Vec<&[u8]> = vec![command.as_bytes(), dq.as_bytes()];
    texts.extend(translated.iter().map(Vec::as_slice));
    src.match_content(tools::BASH, &texts, Side::Restrict, host, &mut |rule| {
        content.push(rule)
    })?;
    content.sort_unstable();
    content.dedup();
    for rule in content {
        let v = src.verdict(rule)?;
        if v != Verdict::Allow {
            hits.push(Hit {
                rule,
                verdict: v,
                possible: false,
                segment: None,
            });
        }
    }
    Ok(())
}

/// One segment of a walked command as the segment passes see it.
struct Seg<'w> {
    w: &'w shell::Walked,
    /// Its index in the command.
    idx: usize,
    /// The command's work folders ([`work_dirs`]).
    dirs: &'w Option<Vec<std::path::PathBuf>>,
    passes: Passes,
}

/// Rule matches a command's segments may list (docs/contract.md#c-bounds). Every (segment,
/// rule) pair is a match: 10,000 rules that all match every one of 4,000 segments are 40
/// million, which no decision can list in time. Once this many are listed, each later
/// segment is only asked whether a deny or an ask rule matches it — the scan of a reading
/// stops at its first definite deny — and is unattestable: the command is denied when a
/// deny matched anywhere, else asked, never allowed.
pub const MAX_HITS: usize = 10_000;

/// Why a segment past [`MAX_HITS`] is unattestable.
pub const PAST_MAX_HITS: &str = "more than 10,000 rule matches in one command";

/// A segment judged after [`MAX_HITS`]: at most one hit, the first definite deny found
/// (else the first ask or possible deny), and never an allow.
fn judge_segment_past_bound(
    src: &dyn RuleSource,
    host: &str,
    s: &Seg<'_>,
    ctx: &Context,
    hits: &mut Vec<Hit>,
) -> Result<SegmentReport, Corrupt> {
    let (w, idx, dirs) = (s.w, s.idx, s.dirs);
    let (seg, rd) = (&w.seg, &w.rd);
    let mut first = FirstRestrict::default();
    let readings: &[Vec<u8>] = if s.passes.segments { &rd.deny } else { &[] };
    for reading in readings {
        if first.deny.is_some() {
            break;
        }
        src.match_segment_until(reading, Side::Restrict, host, &mut |rule, m| {
            first.see(src, rule, m == Match::Possible)
        })?;
        if let Some(e) = first.err {
            return Err(e);
        }
    }
    if first.deny.is_none() {
        touches(src, w, dirs, ctx, host, &mut |rule, possible| {
            first.see(src, rule, possible);
        })?;
        if let Some(e) = first.err {
            return Err(e);
        }
    }
    let hit = match (first.deny, first.ask) {
        (Some(rule), _) => Some((rule, Verdict::Deny, false)),
        (None, Some((rule, possible))) => Some((rule, src.verdict(rule)?, possible)),
        _ => None,
    };
    if let Some((rule, verdict, possible)) = hit {
        hits.push(Hit {
            rule,
            verdict,
            possible,
            segment: Some(idx),
        });
    }
    let mut unatt: Vec<String> = rd.unattestable.iter().map(|s| s.to_string()).collect();
    push_unique(&mut unatt, PAST_MAX_HITS);
    let no_command = seg.words.is_empty() || seg.words.iter().all(|w| w.unquoted() == Some("}"));
    Ok(SegmentReport {
        text: seg.text.clone(),
        decision: if first.deny.is_some() {
            Decision::Deny
        } else {
            Decision::Ask
        },
        depth: seg.depth,
        unattestable: unatt,
        deny_only: seg.deny_only,
        command: !no_command,
    })
}

/// The first definite deny and the first ask (or possible deny) among the deny/ask
/// matches seen; `see` answers whether to keep looking (not once a definite deny is found).
#[derive(Default)]
struct FirstRestrict {
    deny: Option<u32>,
    ask: Option<(u32, bool)>,
    err: Option<Corrupt>,
}

impl FirstRestrict {
    fn see(&mut self, src: &dyn RuleSource, rule: u32, possible: bool) -> bool {
        match src.verdict(rule) {
            Err(e) => {
                self.err = Some(e);
                false
            }
            Ok(Verdict::Allow) => true,
            Ok(Verdict::Deny) if !possible => {
                self.deny = Some(rule);
                false
            }
            Ok(_) => {
                self.ask.get_or_insert((rule, possible));
                true
            }
        }
    }
}

/// One segment of a walked command: its deny/ask hits (readings, files and URLs it
/// touches), its allow hits, and its decision.
fn judge_segment(
    src: &dyn RuleSource,
    host: &str,
    s: &Seg<'_>,
    ctx: &Context,
    hits: &mut Vec<Hit>,
) -> Result<SegmentReport, Corrupt> {
    let (w, idx, dirs) = (s.w, s.idx, s.dirs);
    let (seg, rd) = (&w.seg, &w.rd);
    let mut deny = false;
    let mut ask = false;
    let mut seg_hits: Vec<Hit> = Vec::new();
    let readings: &[Vec<u8>] = if s.passes.segments { &rd.deny } else { &[] };
    for reading in readings {
        src.match_segment(reading, Side::Restrict, host, &mut |rule, m| {
            seg_hits.push(Hit {
                rule,
                verdict: Verdict::Deny,
                possible: m == Match::Possible,
                segment: Some(idx),
            });
        })?;
    }
    // Files the command reads or writes and URLs it fetches meet the read/edit/webfetch
    // deny and ask rules (a read deny on `.env` also stops `cat .env`).
    touches(src, w, dirs, ctx, host, &mut |rule, possible| {
        seg_hits.push(Hit {
            rule,
            verdict: Verdict::Deny,
            possible,
            segment: Some(idx),
        })
    })?;
    // One hit per rule per segment; a definite match beats a possible one.
    seg_hits.sort_by_key(|h| (h.rule, h.possible));
    seg_hits.dedup_by_key(|h| h.rule);
    seg_hits.retain(|h| src.verdict(h.rule) != Ok(Verdict::Allow));
    for h in &mut seg_hits {
        h.verdict = src.verdict(h.rule)?;
        // A speculative segment's deny is a possible one (ask).
        h.possible |= seg.speculative;
        match (h.verdict, h.possible) {
            (Verdict::Deny, false) => deny = true,
            (Verdict::Deny, true) | (Verdict::Ask, _) => ask = true,
            _ => {}
        }
    }
    hits.extend(seg_hits);
    let no_command = seg.words.is_empty() || seg.words.iter().all(|w| w.unquoted() == Some("}"));
    let allowed = s.passes.allow
        && !seg.deny_only
        && !no_command
        && allowed_segment(src, host, w, idx, hits)?;
    // A speculative segment (what an unknown program may run) never attests anything; a
    // deny or ask rule it meets asks (its hits are possible ones, above).
    let unatt: Vec<String> = if seg.speculative {
        Vec::new()
    } else {
        rd.unattestable.iter().map(|s| s.to_string()).collect()
    };
    let decision = if deny {
        Decision::Deny
    } else if ask || !unatt.is_empty() {
        Decision::Ask
    } else if no_command && !seg.deny_only {
        // Only redirections to /dev/null or fd operations, or a closing `}`.
        Decision::Allow
    } else if allowed {
        Decision::Allow
    } else {
        Decision::Default
    };
    Ok(SegmentReport {
        text: seg.text.clone(),
        decision,
        depth: seg.depth,
        unattestable: unatt,
        deny_only: seg.deny_only,
        command: !no_command,
    })
}

/// Whether an allow rule matches a segment's allow reading (and, as in Claude Code, the
/// segment as written); the allow hits are listed.
fn allowed_segment(
    src: &dyn RuleSource,
    host: &str,
    w: &shell::Walked,
    idx: usize,
    hits: &mut Vec<Hit>,
) -> Result<bool, Corrupt> {
    let (seg, rd) = (&w.seg, &w.rd);
    let mut allowed = false;
    let mut allow_hits = Vec::new();
    src.match_segment(&rd.allow, Side::Allow, host, &mut |rule, _| {
        allow_hits.push(rule)
    })?;
    // The rule must also match the segment as written, as in Claude Code.
    whole::keep_literal(src, host, &seg.text, &mut allow_hits)?;
    let seg_text = seg.text.as_bytes();
    src.match_content(tools::BASH, &[seg_text], Side::Allow, host, &mut |rule| {
        allow_hits.push(rule)
    })?;
    allow_hits.sort_unstable();
    allow_hits.dedup();
    for rule in allow_hits {
        if src.verdict(rule)? == Verdict::Allow {
            allowed = true;
            hits.push(Hit {
                rule,
                verdict: Verdict::Allow,
                possible: false,
                segment: Some(idx),
            });
        }
    }
    Ok(allowed)
}

/// Folders relative paths may be resolved in: the cwd, the project root (git resolves
/// `REV:path` from the top), and every `cd`/`pushd`/`git -C` target in the command
/// (`cd .. && cat .env` reads the parent's `.env`). None when a target is unknown
/// (`cd $D`): then a relative path may be anywhere.
pub fn work_dirs(walk: &shell::Walk, ctx: &Context) -> Option<Vec<std::path::PathBuf>> {
    let cwd = ctx.cwd.clone().or_else(|| ctx.project_root.clone())?;
    let mut dirs = vec![cwd];
    dirs.extend(ctx.project_root.clone());
    for t in walk.chdirs()? {
        let t = String::from_utf8_lossy(&t).into_owned();
        if t == "~" {
            dirs.extend(ctx.home.clone());
            continue;
        }
        let more: Vec<_> = dirs
            .iter()
            .map(|d| crate::paths::lexical(&t, Some(d), ctx.home.as_deref()))
            .collect();
        dirs.extend(more);
        dirs.sort();
        dirs.dedup();
        if dirs.len() > 64 {
            return None;
        }
    }
    dirs.sort();
    dirs.dedup();
    Some(dirs)
}

/// The deny/ask rules a segment meets through the files and URLs it touches.
fn touches(
    src: &dyn RuleSource,
    w: &shell::Walked,
    dirs: &Option<Vec<std::path::PathBuf>>,
    ctx: &Context,
    host: &str,
    f: &mut dyn FnMut(u32, bool),
) -> Result<(), Corrupt> {
    use shell::effects::Access;
    for e in &w.effects {
        for url in &e.urls {
            src.match_tool(crate::tools::WEBFETCH, url, "", host, &mut |rule, m| {
                f(rule, m == Match::Possible)
            })?;
        }
    }
    let any_root = std::path::Path::new("/");
    if w.effects.iter().any(|e| e.prints_tracked) {
        tracked_reads(src, dirs, ctx, host, f)?;
    }
    for u in w
        .file_uses()
        .filter(|u| u.access != Access::List)
        .take(shell::walk::MAX_FILE_USES)
    {
        // A read deny also blocks writes of that path; an unknown program's argument may be
        // either (and only asks).
        let tools: &[&str] = match u.access {
            Access::Read => &[tools::READ],
            _ => &[tools::EDIT, tools::READ],
        };
        let possible = u.access == Access::Unknown;
        let text = String::from_utf8_lossy(&u.path).into_owned();
        if u.path.contains(&shell::UNKNOWN) {
            // An expansion may name any path (`cat $HOME/.ssh/id_rsa`, `cat src/$X`).
            for tool in tools {
                src.match_path_under(tool, any_root, ctx, host, &mut |r| f(r, true))?;
            }
            continue;
        }
        let wild = u.path.contains(&crate::pattern::WILD);
        let relative = !(text.starts_with('/') || text.starts_with('~'));
        let bases: Vec<Option<std::path::PathBuf>> = match (relative, dirs) {
            (false, _) => vec![ctx.cwd.clone()],
            (true, Some(ds)) => ds.iter().cloned().map(Some).collect(),
            (true, None) => vec![None],
        };
        // The context and the query of each base, made once for every tool (a path's query
        // resolves it on the file system: a write's path was resolved twice).
        let mut at: Vec<Option<(Context, Option<PathQuery>)>> = Vec::with_capacity(bases.len());
        at.resize_with(bases.len(), || None);
        for tool in tools {
            for (base, at) in bases.iter().zip(at.iter_mut()) {
                let Some(base) = base else {
                    // Relative to a folder polc cannot know: any rule may apply.
                    src.match_path_under(tool, any_root, ctx, host, &mut |r| f(r, true))?;
                    continue;
                };
                let (c, q) = at.get_or_insert_with(|| {
                    let c = Context {
                        cwd: Some(base.clone()),
                        ..ctx.clone()
                    };
                    (c, None)
                });
                if wild {
                    // A glob: the literal folder before it may hold a match.
                    let cut = u
                        .path
                        .iter()
                        .position(|&b| b == crate::pattern::WILD)
                        .unwrap_or(0);
                    let head = String::from_utf8_lossy(&u.path[..cut]).into_owned();
                    let folder = head
                        .rsplit_once('/')
                        .map(|(d, _)| {
                            if d.is_empty() {
                                "/".to_string()
                            } else {
                                d.to_string()
                            }
                        })
                        .unwrap_or_else(|| ".".into());
                    let folder = crate::paths::lexical(&folder, Some(base), ctx.home.as_deref());
                    src.match_path_under(tool, &folder, c, host, &mut |r| f(r, true))?;
                    continue;
                }
                let q = &*q.get_or_insert_with(|| PathQuery::new(&text, c));
                let c = &*c;
                src.match_path(tool, q, c, Side::Restrict, host, &mut |r| f(r, possible))?;
                if u.recursive && !possible {
                    src.match_path_under(tool, &q.lexical, c, host, &mut |r| f(r, true))?;
                }
            }
        }
    }
    Ok(())
}

/// A git command that prints tracked files' contents without naming them: each file the
/// repository's index lists is a possible read (read rules matched on its path in the work
/// tree, lexically: what is printed is the tracked blob, not what the path now leads to).
/// An index polc cannot read within its bounds: any path under the work tree.
fn tracked_reads(
    src: &dyn RuleSource,
    dirs: &Option<Vec<std::path::PathBuf>>,
    ctx: &Context,
    host: &str,
    f: &mut dyn FnMut(u32, bool),
) -> Result<(), Corrupt> {
    let starts: Vec<std::path::PathBuf> = match dirs {
        Some(ds) => ds.clone(),
        None => ctx.cwd.iter().cloned().collect(),
    };
    let mut seen: Vec<std::path::PathBuf> = Vec::new();
    for d in starts {
        match gitindex::tracked(&d) {
            gitindex::Tracked::None => {}
            gitindex::Tracked::Unknown(root) => {
                src.match_path_under(tools::READ, &root, ctx, host, &mut |r| f(r, true))?;
            }
            gitindex::Tracked::Names(root, names) => {
                if seen.contains(&root) {
                    continue;
                }
                let c = Context {
                    cwd: Some(root.clone()),
                    ..ctx.clone()
                };
                for n in names {
                    let Ok(n) = String::from_utf8(n) else {
                        // A name polc cannot hold as text: anything under the root.
                        src.match_path_under(tools::READ, &root, ctx, host, &mut |r| f(r, true))?;
                        continue;
                    };
                    let p = root.join(n);
                    let q = PathQuery {
                        lexical: p.clone(),
                        canonical: p,
                    };
                    src.match_path(tools::READ, &q, &c, Side::Restrict, host, &mut |r| {
                        f(r, true)
                    })?;
                }
                seen.push(root);
            }
        }
    }
    Ok(())
}

fn push_unique(v: &mut Vec<String>, s: &str) {
    if !v.iter().any(|x| x == s) {
        v.push(s.to_string());
    }
}

fn finish(
    src: &dyn RuleSource,
    hits: Vec<Hit>,
    segments: Vec<SegmentReport>,
    unattestable: Vec<String>,
    any_unatt: bool,
    all_allowed: bool,
) -> Result<Outcome, Corrupt> {
    let definite_deny = |h: &&Hit| h.verdict == Verdict::Deny && !h.possible;
    let askish = |h: &&Hit| h.verdict == Verdict::Ask || (h.verdict == Verdict::Deny && h.possible);
    let (decision, pool): (Decision, Vec<&Hit>) = if hits.iter().any(|h| definite_deny(&h)) {
        (Decision::Deny, hits.iter().filter(definite_deny).collect())
    } else if hits.iter().any(|h| askish(&h)) {
        (Decision::Ask, hits.iter().filter(askish).collect())
    } else if any_unatt {
        (Decision::Ask, Vec::new())
    } else if all_allowed {
        (
            Decision::Allow,
            hits.iter()
                .filter(|h| h.verdict == Verdict::Allow)
                .collect(),
        )
    } else {
        (Decision::Default, Vec::new())
    };
    let mut winner: Option<(&Hit, Score)> = None;
    for h in pool {
        let s = src.score(h.rule)?;
        winner = match winner {
            None => Some((h, s)),
            Some((w, ws)) => match s.cmp_strength(&ws).then(w.rule.cmp(&h.rule)) {
                Ordering::Greater => Some((h, s)),
                _ => Some((w, ws)),
            },
        };
    }
    let mut all_unatt = unattestable.clone();
    for s in &segments {
        for u in &s.unattestable {
            push_unique(&mut all_unatt, u);
        }
    }
    let cause = match (decision, winner) {
        (Decision::Ask, Some((h, _))) if h.verdict == Verdict::Deny => {
            Cause::PossibleDeny { rule: h.rule }
        }
        (_, Some((h, _))) => Cause::Rule { rule: h.rule },
        (Decision::Ask, None) => Cause::Unattestable {
            construct: all_unatt.first().cloned().unwrap_or_default(),
        },
        _ => Cause::NoRule,
    };
    Ok(Outcome {
        decision,
        cause,
        winner: winner.map(|(h, _)| h.rule),
        hits,
        segments,
        unattestable: all_unatt,
    })
}

fn decide_tool(
    src: &dyn RuleSource,
    host: &str,
    tool: &str,
    name: &str,
    subject: &str,
    input_text: &str,
    ctx: &Context,
) -> Result<Outcome, Corrupt> {
    let mut hits = Vec::new();
    let mut raw = Vec::new();
    src.match_tool(tool, subject, input_text, host, &mut |rule, m| {
        raw.push((rule, m))
    })?;
    if !name.is_empty() && name != tool {
        // Rules written for the host's own tool name (a bare Claude `Glob`).
        src.match_tool(name, subject, input_text, host, &mut |rule, m| {
            raw.push((rule, m))
        })?;
    }
    // Rules that grant the whole call when they allow (`any`, tool, MCP and content rules);
    // a path allow grants only its path (see `every_path_allowed`).
    let mut whole: Vec<u32> = raw
        .iter()
        .filter(|&&(_, m)| m == Match::Definite)
        .map(|&(r, _)| r)
        .collect();
    let path_tool = tool == tools::READ || tool == tools::EDIT;
    // Other tools (MCP servers, agent tools polc has no name for): their path fields meet
    // the deny/ask path rules — every string that could be a path, in fields of any name
    // (toolpaths.rs); a read or an edit deny denies (the tool may read or write it) — and
    // path allows never grant them.
    let other_tool = !path_tool
        && !matches!(
            tool,
            tools::BASH | crate::tools::WEBFETCH | crate::tools::WEBSEARCH
        );
    let mut unattestable = Vec::new();
    // Every path named must be allowed by a path rule (or the call by an `any`/content
    // allow) for the call to be allowed.
    let every_path_allowed = if path_tool || other_tool {
        path_hits(
            src,
            host,
            tool,
            subject,
            input_text,
            ctx,
            &mut raw,
            &mut unattestable,
        )?
    } else {
        path_tool
    };
    src.match_content(
        tool,
        &[input_text.as_bytes()],
        Side::Restrict,
        host,
        &mut |rule| raw.push((rule, Match::Definite)),
    )?;
    src.match_content(
        tool,
        &[input_text.as_bytes()],
        Side::Allow,
        host,
        &mut |rule| {
            whole.push(rule);
            raw.push((rule, Match::Definite))
        },
    )?;
    raw.sort_by_key(|&(r, m)| (r, m == Match::Possible));
    raw.dedup_by_key(|x| x.0);
    let mut allowed = path_tool && every_path_allowed;
    for (rule, m) in raw {
        let v = src.verdict(rule)?;
        let possible = m == Match::Possible;
        if v == Verdict::Allow {
            if possible {
                continue;
            }
            allowed |= whole.contains(&rule);
        }
        hits.push(Hit {
            rule,
            verdict: v,
            possible,
            segment: None,
        });
    }
    let any_unatt = !unattestable.is_empty();
    finish(src, hits, Vec::new(), unattestable, any_unatt, allowed)
}

/// A memory file's `@path` imports are reads into the model's context (`memory.rs`): the
/// read deny/ask rules meet each.
fn memory_import_hits(
    src: &dyn RuleSource,
    host: &str,
    subject: &str,
    input_text: &str,
    ctx: &Context,
    raw: &mut Vec<(u32, Match)>,
    unattestable: &mut Vec<String>,
) -> Result<(), Corrupt> {
    match memory::imports(subject, input_text) {
        Some(paths) => {
            for p in paths {
                let q = PathQuery::new(&p, ctx);
                src.match_path(tools::READ, &q, ctx, Side::Restrict, host, &mut |rule| {
                    raw.push((rule, Match::Definite))
                })?;
            }
        }
        None => unattestable.push("a memory file importing more files than polc reads".into()),
    }
    Ok(())
}

/// The paths a tool call names meet the path rules: deny/ask hits (and, for read/edit,
/// allow hits) go to `raw`. True when every path is allowed (read/edit only).
#[allow(clippy::too_many_arguments)]
fn path_hits(
    src: &dyn RuleSource,
    host: &str,
    tool: &str,
    subject: &str,
    input_text: &str,
    ctx: &Context,
    raw: &mut Vec<(u32, Match)>,
    unattestable: &mut Vec<String>,
) -> Result<bool, Corrupt> {
    if tool == tools::EDIT && memory::is_memory_file(subject) {
        memory_import_hits(src, host, subject, input_text, ctx, raw, unattestable)?;
    }
    let path_tool = tools::is_path_tool(tool);
    let mut every_path_allowed = path_tool;
    let tp = toolpaths::tool_paths(tool, subject, input_text);
    if tp.unreadable {
        unattestable.push("a tool input whose path polc cannot read".to_string());
    }
    // (tool for deny/ask, definite?) pairs each path meets.
    let deny_tools: Vec<(&str, bool)> = match tool {
        tools::READ => vec![(tools::READ, true)],
        // A read deny also blocks edits of that path.
        tools::EDIT => vec![(tools::EDIT, true), (tools::READ, true)],
        // A tool whose direction polc does not know (MCP): a deny of either applies.
        _ => vec![(tools::READ, true), (tools::EDIT, true)],
    };
    let under_tools: Vec<&str> = match tool {
        tools::READ => vec![tools::READ],
        _ => vec![tools::EDIT, tools::READ],
    };
    let named = tp.files.iter().map(|p| (p, false));
    for (path, recursive) in named.chain(tp.folders.iter().map(|p| (p, true))) {
        let q = PathQuery::new(path, ctx);
        for &(t, definite) in &deny_tools {
            let m = if definite {
                Match::Definite
            } else {
                Match::Possible
            };
            src.match_path(t, &q, ctx, Side::Restrict, host, &mut |rule| {
                raw.push((rule, m))
            })?;
        }
        if path_tool {
            // Claude Code reads `dir/**` as covering `dir` itself (a Grep over `secrets/`
            // under a `Read(./secrets/**)` deny is denied there): deny/ask rules that hold
            // every child of the path also hold the path. Checked with a child name no
            // rule names.
            let child = format!("{}/.polc-child", path.trim_end_matches('/'));
            let cq = PathQuery::new(&child, ctx);
            for &(t, definite) in &deny_tools {
                if definite {
                    src.match_path(t, &cq, ctx, Side::Restrict, host, &mut |rule| {
                        raw.push((rule, Match::Definite))
                    })?;
                }
            }
        }
        if recursive {
            // A folder read recursively: at least ask when it could hold a denied path.
            for &t in &under_tools {
                src.match_path_under(t, &q.lexical, ctx, host, &mut |rule| {
                    raw.push((rule, Match::Possible))
                })?;
            }
        }
        if path_tool {
            let mut allowed = false;
            src.match_path(tool, &q, ctx, Side::Allow, host, &mut |rule| {
                allowed = true;
                raw.push((rule, Match::Definite))
            })?;
            every_path_allowed &= allowed;
        }
    }
    for glob in &tp.globs {
        let folder = toolpaths::glob_folder(glob);
        let q = PathQuery::new(&folder, ctx);
        for &t in &under_tools {
            src.match_path_under(t, &q.lexical, ctx, host, &mut |rule| {
                raw.push((rule, Match::Possible))
            })?;
        }
    }
    // A glob stays inside its folder (which must be allowed) unless it climbs out or
    // starts elsewhere (`../*`, `{a,..}`, `/etc/*`, `~/.ssh/*`): then never allowed.
    every_path_allowed &= !tp.escapes;
    Ok(every_path_allowed)
}

/// Why a matched rule did not win, for explain.
pub fn why_lost(src: &dyn RuleFacts, out: &Outcome, hit: &Hit) -> Result<String, Corrupt> {
    let Some(w) = out.winner else {
        return Ok(match out.decision {
            Decision::Ask => "an unattestable construct decides (ask); no rule is named".into(),
            Decision::Default => "this segment was allowed, but not every segment was".into(),
            _ => "no winner".into(),
        });
    };
    if hit.rule == w {
        return Ok("winner".into());
    }
    let wv = src.verdict(w)?;
    let eff = |h: &Hit| {
        if h.possible && h.verdict == Verdict::Deny {
            Verdict::Ask
        } else {
            h.verdict
        }
    };
    let hv = eff(hit);
    let win_eff = if out.decision == Decision::Ask {
        Verdict::Ask
    } else {
        wv
    };
    if hv < win_eff {
        return Ok(format!("{} loses to {} (deny > ask > allow)", hv, win_eff));
    }
    let (hs, ws) = (src.score(hit.rule)?, src.score(w)?);
    let why = match hs.cmp_strength(&ws) {
        Ordering::Less => {
            if hs.tier != ws.tier {
                format!("lower source tier ({:?} < {:?})", hs.tier, ws.tier)
            } else if hs.priority != ws.priority {
                format!("lower priority ({} < {})", hs.priority, ws.priority)
            } else {
                format!(
                    "less specific ({} literal bytes, {} wildcards vs {}, {})",
                    hs.literal, hs.wildcards, ws.literal, ws.wildcards
                )
            }
        }
        _ => "same score, later in source order".into(),
    };
    Ok(why)
}

#[cfg(all(test, feature = "compiler"))]
mod tests;
