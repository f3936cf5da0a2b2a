//! The lowered policy: what every front end (DSL, permcheck.json, Claude settings) produces
//! and what both the compiler and the reference interpreter consume.
//!
//! Nothing here knows about syntax or about the on-disk table, except `session.rs`: the
//! session features' stored form (`Config`, its section kinds), which the compiler writes and
//! the hook reads. See `README.md` here.

pub mod session;

use serde::{Deserialize, Serialize};
use std::fmt;

/// A rule's verdict. Ordered so that the strictest wins by `max`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Verdict {
    Allow = 0,
    Ask = 1,
    Deny = 2,
}

impl Verdict {
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Allow => "allow",
            Verdict::Ask => "ask",
            Verdict::Deny => "deny",
        }
    }
    pub fn from_u8(v: u8) -> Option<Verdict> {
        match v {
            0 => Some(Verdict::Allow),
            1 => Some(Verdict::Ask),
            2 => Some(Verdict::Deny),
            _ => None,
        }
    }
    pub fn parse(s: &str) -> Option<Verdict> {
        match s {
            "allow" => Some(Verdict::Allow),
            "ask" => Some(Verdict::Ask),
            "deny" => Some(Verdict::Deny),
            _ => None,
        }
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The final decision for a request. Ordered: Default < Allow < Ask < Deny.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Decision {
    /// No rule matched: no opinion, the host's own default applies. Never allow.
    Default = 0,
    Allow = 1,
    Ask = 2,
    Deny = 3,
}

impl Decision {
    pub fn as_str(self) -> &'static str {
        match self {
            Decision::Default => "default",
            Decision::Allow => "allow",
            Decision::Ask => "ask",
            Decision::Deny => "deny",
        }
    }
    pub fn parse(s: &str) -> Option<Decision> {
        match s {
            "default" => Some(Decision::Default),
            "allow" => Some(Decision::Allow),
            "ask" => Some(Decision::Ask),
            "deny" => Some(Decision::Deny),
            _ => None,
        }
    }
}

impl From<Verdict> for Decision {
    fn from(v: Verdict) -> Decision {
        match v {
            Verdict::Allow => Decision::Allow,
            Verdict::Ask => Decision::Ask,
            Verdict::Deny => Decision::Deny,
        }
    }
}

impl fmt::Display for Decision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Which layer a rule came from; higher tiers win the naming contest (never the verdict).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Tier {
    Project = 0,
    User = 1,
    Managed = 2,
}

/// Pattern kinds of docs/contract.md#c-patterns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum PatternKind {
    /// The whole normalised segment.
    Exact = 0,
    /// Word-bounded token prefix.
    Prefix = 1,
    /// Claude-style `*` glob; `\*` is a literal star; a trailing ` *` or `:*` is a word boundary.
    Glob = 2,
    /// A literal anywhere in the raw (or dequoted) text.
    Contains = 3,
    /// A regex over the raw (or dequoted) text.
    Regex = 4,
    /// Matches any call of the rule's tool (Claude `Bash`, `Bash(*)`, `WebFetch`).
    Any = 5,
    /// A tool specifier polc keeps but does not decide itself yet (e.g. `Read(./.env)`,
    /// `WebFetch(domain:x)`). Deny/ask rules with one are treated as possibly matching any
    /// call of that tool; allow rules with one never match (fail closed).
    Specifier = 6,
}

impl PatternKind {
    pub fn as_str(self) -> &'static str {
        match self {
            PatternKind::Exact => "exact",
            PatternKind::Prefix => "prefix",
            PatternKind::Glob => "glob",
            PatternKind::Contains => "contains",
            PatternKind::Regex => "regex",
            PatternKind::Any => "any",
            PatternKind::Specifier => "specifier",
        }
    }
    pub fn from_u8(v: u8) -> Option<PatternKind> {
        Some(match v {
            0 => PatternKind::Exact,
            1 => PatternKind::Prefix,
            2 => PatternKind::Glob,
            3 => PatternKind::Contains,
            4 => PatternKind::Regex,
            5 => PatternKind::Any,
            6 => PatternKind::Specifier,
            _ => return None,
        })
    }
    /// Content scanners look at the whole text, not at segments.
    pub fn is_content(self) -> bool {
        matches!(self, PatternKind::Contains | PatternKind::Regex)
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Pattern {
    pub kind: PatternKind,
    /// The pattern's text as written (glob `*` and `\*` kept as written).
    pub text: String,
}

/// Where something was written. Not part of any equality that matters for decisions.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Span {
    pub file: String,
    pub line: u32,
    pub column: u32,
}

impl fmt::Display for Span {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}", self.file, self.line, self.column)
    }
}

/// Canonical tool names: their home is `crate::tools`.
pub use crate::tools::{is_path_tool, BASH as TOOL_BASH, EDIT as TOOL_EDIT, READ as TOOL_READ};

/// One lowered rule.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rule {
    /// Stable id: explicit, or derived from file and line (`default.pol:12`).
    pub id: String,
    pub verdict: Verdict,
    /// Canonical tool name: `bash`, `read`, `edit`, `webfetch`, `websearch`, `mcp__…`, or any
    /// other tool name as the agent spells it.
    pub tool: String,
    /// At least one pattern; the rule matches when any pattern matches.
    pub patterns: Vec<Pattern>,
    pub reason: Option<String>,
    /// Explicit priority: only picks the named winner among rules of the winning verdict.
    pub priority: i32,
    /// Hosts the rule applies to; empty = every host.
    pub hosts: Vec<String>,
    pub tags: Vec<String>,
    /// The rule as written (one line), shown by explain and in hook reasons.
    pub text: String,
    pub span: Span,
    pub tier: Tier,
}

impl Rule {
    pub fn applies_to_host(&self, host: &str) -> bool {
        self.hosts.is_empty() || self.hosts.iter().any(|h| h == host)
    }
}

/// What an inline example feeds to the policy.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Example {
    pub tool: String,
    /// The command (bash) or the tool's main argument (path, url, …).
    pub input: String,
    pub host: Option<String>,
    pub expect: Decision,
    pub span: Span,
}

/// A source file as the table records it: deterministic (no inode or time), so the same
/// sources always give the same bytes. Per-machine metadata lives in the user's cache.
/// A stamp whose `size` is [`DIR_STAMP`] is a source *folder* `polc build` walked (red team,
/// session 8: a new `.pol` there did not make the table stale): its `hash` is the FNV-1a 64
/// of the folder's listing (`table::dir_listing_hash`).
///
/// (Constant [`DIR_STAMP`] below.)
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct SourceStamp {
    /// Path relative to the table's folder when it can be, else as given to the build.
    pub path: String,
    pub size: u64,
    /// FNV-1a 64 of the content.
    pub hash: u64,
}

/// Host names polc knows: their home is `crate::hosts` (re-exported for the table format).
pub use crate::hosts::{is_known_host, CLAUDE_AUTHORITY_HOSTS, HOST_AUTHORITATIVE_HOSTS};

/// FNV-1a 64: source content hashes (not a security boundary: staleness only).
/// The `size` of a [`SourceStamp`] that records a folder's listing.
pub const DIR_STAMP: u64 = u64::MAX;

pub fn fnv1a64(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// A whole lowered policy.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Policy {
    /// In source order; a rule's position is its tie-break.
    pub rules: Vec<Rule>,
    pub examples: Vec<Example>,
    pub sources: Vec<SourceStamp>,
    /// Denial limits, sequence rules, the audit log (src/session/README.md).
    #[serde(default)]
    pub session: session::SessionPolicy,
}
