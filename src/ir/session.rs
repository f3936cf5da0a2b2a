//! The session features of a policy (issue 14): what `lower` produces, what the compiler
//! stores in the table (`SEC_SESSION` plus a sub-table of step rules) and what the hook reads.

use crate::ir::{Decision, Rule, Span, Tier, Verdict};
use serde::{Deserialize, Serialize};

/// Claude Code's own limits: 3 denials in a row, 20 in a session.
pub const DEFAULT_CONSECUTIVE: u32 = 3;
pub const DEFAULT_TOTAL: u32 = 20;

/// The table section holding [`Config`] as JSON.
pub const SEC_SESSION: u32 = 0x100;
/// Sections of the step rules' sub-table: `SEC_STEP_BASE + kind` for each table section kind.
pub const SEC_STEP_BASE: u32 = 0x1000;
/// Sections of the rewrite rules' sub-table: `SEC_REWRITE_BASE + kind`.
pub const SEC_REWRITE_BASE: u32 = 0x2000;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Limits {
    pub consecutive: u32,
    pub total: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Audit {
    /// Log a hash of each command instead of its redacted text.
    pub hash: bool,
}

/// One step of a sequence rule.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Step {
    /// A command that can send data over the network (the catalogue's `net`), a web fetch
    /// or search; `Maybe` programs (interpreters, unknown programs, MCP tools) are possible.
    Net,
    /// Matches when the deny rule would (a read rule: the call reads such a path).
    Rule(Box<Rule>),
}

/// An example of a sequence rule: the calls of one new session, the last one's decision.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeqExample {
    pub calls: Vec<String>,
    pub host: Option<String>,
    pub expect: Decision,
    pub span: Span,
}

/// `VERDICT sequence { … }`, lowered.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Sequence {
    pub id: String,
    pub verdict: Verdict,
    pub reason: Option<String>,
    pub steps: Vec<Step>,
    pub interrupt: bool,
    pub hosts: Vec<String>,
    pub text: String,
    pub span: Span,
    pub tier: Tier,
    pub examples: Vec<SeqExample>,
}

/// An example of a rewrite rule: the input, and the rewritten input the policy allows (the
/// input itself: no rewrite applies).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RwExample {
    pub input: String,
    pub host: Option<String>,
    pub expect: String,
    pub span: Span,
}

/// `rewrite bash PATTERN+ { append "WORDS" }`, lowered.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rewrite {
    pub id: String,
    /// When it applies: an allow-side bash rule (the literal reading must match).
    pub rule: Box<Rule>,
    /// Plain words added at the end of the command.
    pub append: Vec<String>,
    pub reason: Option<String>,
    pub text: String,
    pub span: Span,
    pub tier: Tier,
    pub examples: Vec<RwExample>,
}

/// A policy's session features. Empty (the default) = the hook opens no state file.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SessionPolicy {
    pub limits: Option<Limits>,
    pub sequences: Vec<Sequence>,
    pub audit: Option<Audit>,
    /// Ids of the allow rules marked `remember` (Claude's `updatedPermissions`).
    pub remember: Vec<String>,
    pub rewrites: Vec<Rewrite>,
}

impl SessionPolicy {
    pub fn is_empty(&self) -> bool {
        self.limits.is_none()
            && self.sequences.is_empty()
            && self.audit.is_none()
            && self.remember.is_empty()
            && self.rewrites.is_empty()
    }
}

/// A step as the hook reads it: `Net`, or the sub-table rule that stands for it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum CStep {
    Net,
    Rule(u32),
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CSequence {
    pub id: String,
    pub verdict: Verdict,
    pub reason: Option<String>,
    pub steps: Vec<CStep>,
    pub interrupt: bool,
    pub hosts: Vec<String>,
    pub text: String,
    pub file: String,
    pub line: u32,
}

impl CSequence {
    pub fn applies_to_host(&self, host: &str) -> bool {
        self.hosts.is_empty() || self.hosts.iter().any(|h| h == host)
    }
}

/// A rewrite as the hook reads it: sub-table rule `rule` (sections `SEC_REWRITE_BASE +
/// kind`) says where it applies.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CRewrite {
    pub id: String,
    pub rule: u32,
    pub append: Vec<String>,
    pub reason: Option<String>,
    pub text: String,
    pub file: String,
    pub line: u32,
}

/// What one table says about sessions (the `SEC_SESSION` section). `remember` and
/// `rewrites` came later with defaults: an older polc ignores them (it then remembers
/// nothing and decides the original input, which only loses the feature).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Config {
    pub v: u32,
    pub limits: Option<Limits>,
    pub sequences: Vec<CSequence>,
    pub audit: Option<Audit>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub remember: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rewrites: Vec<CRewrite>,
}

pub const CONFIG_VERSION: u32 = 1;

impl Config {
    pub fn is_empty(&self) -> bool {
        self.limits.is_none()
            && self.sequences.is_empty()
            && self.audit.is_none()
            && self.remember.is_empty()
            && self.rewrites.is_empty()
    }

    /// From the lowered policy: each rule step becomes sub-table rule number `n` in order.
    pub fn of(p: &SessionPolicy) -> (Config, Vec<Rule>) {
        let mut rules = Vec::new();
        let sequences = p
            .sequences
            .iter()
            .map(|s| CSequence {
                id: s.id.clone(),
                verdict: s.verdict,
                reason: s.reason.clone(),
                steps: s
                    .steps
                    .iter()
                    .map(|st| match st {
                        Step::Net => CStep::Net,
                        Step::Rule(r) => {
                            rules.push((**r).clone());
                            CStep::Rule(rules.len() as u32 - 1)
                        }
                    })
                    .collect(),
                interrupt: s.interrupt,
                hosts: s.hosts.clone(),
                text: s.text.clone(),
                file: s.span.file.clone(),
                line: s.span.line,
            })
            .collect();
        (
            Config {
                v: CONFIG_VERSION,
                limits: p.limits,
                sequences,
                audit: p.audit,
                remember: p.remember.clone(),
                rewrites: Vec::new(),
            },
            rules,
        )
    }

    /// The rewrites and their sub-table's rules (rule `n` for the `n`th rewrite).
    pub fn rewrites_of(p: &SessionPolicy) -> (Vec<CRewrite>, Vec<Rule>) {
        let rules = p.rewrites.iter().map(|r| (*r.rule).clone()).collect();
        let rw = p
            .rewrites
            .iter()
            .enumerate()
            .map(|(i, r)| CRewrite {
                id: r.id.clone(),
                rule: i as u32,
                append: r.append.clone(),
                reason: r.reason.clone(),
                text: r.text.clone(),
                file: r.span.file.clone(),
                line: r.span.line,
            })
            .collect();
        (rw, rules)
    }

    /// Reads the section; `Err` when it is not one this polc understands (deny upstream).
    pub fn decode(bytes: &[u8]) -> Result<Config, SectionError> {
        let c: Config =
            serde_json::from_slice(bytes).map_err(|e| SectionError::Damaged(e.to_string()))?;
        if c.v != CONFIG_VERSION {
            return Err(SectionError::Version(c.v));
        }
        Ok(c)
    }

    pub fn encode(&self) -> Vec<u8> {
        serde_json::to_vec(self).unwrap_or_default()
    }
}

/// Why a table's session sections cannot be used (the caller denies: the table needs
/// `polc build`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SectionError {
    /// [`SEC_SESSION`] is not the JSON this polc reads (the decoder's message).
    Damaged(String),
    /// [`SEC_SESSION`] has another [`Config`] version.
    Version(u32),
    /// The step rules' sub-table (`SEC_STEP_BASE + kind`) does not load.
    Steps,
}

impl std::fmt::Display for SectionError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SectionError::Damaged(e) => write!(f, "the table's session section is damaged ({e})"),
            SectionError::Version(v) => write!(
                f,
                "the table's session section has version {v} (this polc reads {CONFIG_VERSION}): run `polc build`"
            ),
            SectionError::Steps => {
                f.write_str("the table's sequence steps are damaged: run `polc build`")
            }
        }
    }
}

impl std::error::Error for SectionError {}

/// A word a rewrite may append: plain characters that mean themselves to a shell (no
/// quotes, expansions, globs, operators, `~`, `#`).
pub fn plain_word(w: &str) -> bool {
    !w.is_empty()
        && w.len() <= 100
        && w.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"_./=:,@+%-".contains(&b))
}
