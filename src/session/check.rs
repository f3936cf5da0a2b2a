//! The session's part of a decision: sequence rules and denial limits, on a snapshot of the
//! session's state. Pure: the state file is read and written by `store`, the hook glue is in
//! `hook`; `polc build` runs sequence examples through the same code on an in-memory state.

use super::record::{id_ok, Call, State};
use crate::ir::session::{
    Audit, CSequence, CStep, Config, Limits, SectionError, SEC_SESSION, SEC_STEP_BASE,
};
use crate::ir::{Decision, Verdict};
use crate::runtime::table_rules::TableRules;
use crate::runtime::{Context, Corrupt, Passes, Request};
use crate::shell::effects::Net;
use crate::table::sections::{Contents, GroupIndex};

/// The session features of every loaded table, with each table's step rules.
#[derive(Default)]
pub struct Features<'a> {
    pub limits: Option<Limits>,
    pub audit: Option<Audit>,
    /// (sequence, the step rules of its table).
    pub sequences: Vec<(CSequence, Option<std::rc::Rc<StepRules<'a>>>)>,
}

/// One table's step rules, with the decision passes that can find them.
pub struct StepRules<'a> {
    pub rules: TableRules<'a>,
    /// Step rules are deny rules (`lower/session.rs`): no allow pass. The bash segment and
    /// content passes run only when the sub-table has such rules: the shipped policy's one
    /// step rule is a path rule, and those passes (the whole-command texts, the dequoted
    /// copy, their scans) were most of the session's cost for a long command.
    pub passes: Passes,
}

impl<'a> StepRules<'a> {
    fn new(sub: impl Fn(u32) -> Option<&'a [u8]>) -> Result<StepRules<'a>, SectionError> {
        use crate::table::sections::Kind;
        let rules = TableRules::new(&sub).map_err(|_| SectionError::Steps)?;
        // Present and well-formed: `TableRules::new` just checked them.
        let sec = |k: Kind| sub(k as u32).unwrap_or_default();
        let deny_ask = GroupIndex::segments(Kind::DENY_ASK, Kind::DENY_ASK.map(sec))
            .map_err(|_| SectionError::Steps)?;
        let content = Contents::new(sec(Kind::Content), sec(Kind::ContentIndex))
            .map_err(|_| SectionError::Steps)?;
        Ok(StepRules {
            rules,
            passes: Passes {
                allow: false,
                // No entry and no group: no reading or text can match a segment pattern.
                segments: deny_ask.entry_count() > 0 || deny_ask.group_count() > 0,
                content: content.count() > 0,
            },
        })
    }
}

impl<'a> Features<'a> {
    pub fn is_empty(&self) -> bool {
        self.limits.is_none() && self.audit.is_none() && self.sequences.is_empty()
    }

    /// Adds one table's features: limits take the smaller of each, sequences add up, the
    /// audit log is on if any table asks for it (each only restricts or records).
    pub fn add(&mut self, get: impl Fn(u32) -> Option<&'a [u8]>) -> Result<(), SectionError> {
        let Some(bytes) = get(SEC_SESSION) else {
            return Ok(());
        };
        let c = Config::decode(bytes)?;
        self.add_config(c, |k| get(SEC_STEP_BASE + k))
    }

    pub fn add_config(
        &mut self,
        c: Config,
        sub: impl Fn(u32) -> Option<&'a [u8]>,
    ) -> Result<(), SectionError> {
        if let Some(l) = c.limits {
            self.limits = Some(match self.limits {
                None => l,
                Some(m) => Limits {
                    consecutive: m.consecutive.min(l.consecutive),
                    total: m.total.min(l.total),
                },
            });
        }
        if let Some(a) = c.audit {
            let hash = self.audit.is_some_and(|x| x.hash) || a.hash;
            self.audit = Some(Audit { hash });
        }
        let needs_rules = c
            .sequences
            .iter()
            .any(|s| s.steps.iter().any(|st| matches!(st, CStep::Rule(_))));
        let rules = if needs_rules {
            Some(std::rc::Rc::new(StepRules::new(sub)?))
        } else {
            None
        };
        for s in c.sequences {
            self.sequences.push((s, rules.clone()));
        }
        Ok(())
    }
}

/// What the session made of a call.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdicts {
    pub decision: Decision,
    pub reason: String,
    /// End the agent's turn (the host's form, if it has one), with this reason.
    pub interrupt: bool,
    /// The session's rules looked at this call: a sequence step matched it (as a first, a
    /// middle or a last step, possibly), or denial limits are on. Such an allow is never
    /// remembered (`host/remember.rs`).
    pub touched: bool,
    /// The record to append.
    pub call: Call,
}

/// A call as the session sees it.
pub struct CallInfo<'r> {
    pub host: &'r str,
    /// PermissionRequest: decided again by Claude Code's prompt; counts nothing.
    pub permission_request: bool,
    /// Can a hook's ask reach a person here (host and mode)?
    pub can_prompt: bool,
    pub tool_use_id: &'r str,
    pub turn: &'r str,
    pub requests: &'r [&'r Request],
    /// The walk of each request, in order, as the decision made it
    /// (`runtime::entry::Decided::walks`): the sequence check reads them instead of walking
    /// the commands again. Empty (or shorter than `requests`): the check walks them itself.
    pub walks: &'r [Option<crate::shell::Walk>],
    pub ctx: &'r Context,
}

impl<'r> CallInfo<'r> {
    /// A call decided away from a hook (`polc build`'s sequence examples, `polc explain
    /// --session`): a PreToolUse call a person could be asked about, with no call or turn id.
    pub fn offline(host: &'r str, requests: &'r [&'r Request], ctx: &'r Context) -> Self {
        CallInfo {
            host,
            permission_request: false,
            can_prompt: true,
            tool_use_id: "",
            turn: "",
            requests,
            walks: &[],
            ctx,
        }
    }
}

/// Where in a call a step matched: a segment index (segments are ordered steps), or
/// anywhere (content and whole-command matches, other tools).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct At {
    pos: usize,
    anywhere: bool,
    possible: bool,
}

fn net_of(req: &Request, walk: Option<&crate::shell::Walk>) -> Vec<At> {
    match (req, walk) {
        (Request::Bash { .. }, Some(w)) => {
            let mut v = Vec::new();
            for (i, seg) in w.segments.iter().enumerate() {
                let mut net =
                    seg.effects
                        .iter()
                        .map(|e| e.net)
                        .fold(Net::No, |a, b| match (a, b) {
                            (Net::Yes, _) | (_, Net::Yes) => Net::Yes,
                            (Net::Maybe, _) | (_, Net::Maybe) => Net::Maybe,
                            _ => Net::No,
                        });
                if seg.effects.iter().any(|e| !e.urls.is_empty()) {
                    net = Net::Yes;
                }
                // bash's /dev/tcp and /dev/udp redirections open a socket.
                let sock = |p: &[u8]| p.starts_with(b"/dev/tcp/") || p.starts_with(b"/dev/udp/");
                if seg.redirects.iter().any(|r| sock(&r.path)) {
                    net = Net::Yes;
                }
                match net {
                    Net::Yes => v.push(At {
                        pos: i,
                        anywhere: false,
                        possible: false,
                    }),
                    Net::Maybe => v.push(At {
                        pos: i,
                        anywhere: false,
                        possible: true,
                    }),
                    Net::No => {}
                }
            }
            v
        }
        (Request::Tool { tool, .. }, _) => {
            let t = tool.as_str();
            if t == "webfetch" || t == "websearch" {
                vec![At {
                    pos: 0,
                    anywhere: true,
                    possible: false,
                }]
            } else if t.starts_with("mcp__") {
                vec![At {
                    pos: 0,
                    anywhere: true,
                    possible: true,
                }]
            } else {
                Vec::new()
            }
        }
        _ => Vec::new(),
    }
}

/// Where each step rule of `rules` matched in the request.
fn rule_hits(
    steps: &StepRules<'_>,
    host: &str,
    req: &Request,
    walk: Option<&crate::shell::Walk>,
    ctx: &Context,
) -> Result<Vec<(u32, At)>, Corrupt> {
    let rules = &steps.rules;
    let out = match (req, walk) {
        (Request::Bash { command }, Some(w)) => {
            crate::runtime::decide_walked_passes(rules, host, command, w, ctx, steps.passes)?
        }
        _ => crate::runtime::decide_in(rules, host, req, ctx)?,
    };
    Ok(out
        .hits
        .iter()
        .filter(|h| h.verdict != Verdict::Allow)
        .map(|h| {
            (
                h.rule,
                At {
                    pos: h.segment.unwrap_or(0),
                    anywhere: h.segment.is_none(),
                    possible: h.possible,
                },
            )
        })
        .collect())
}

/// How far a sequence gets in one request from `done` steps: (steps done after it, the last
/// step matched: Some(possible)).
fn advance(steps: &[Vec<At>], done: usize) -> (usize, Option<bool>) {
    let n = steps.len();
    let mut k = done;
    let mut pos = 0usize;
    while k < n {
        let cands: Vec<&At> = steps[k]
            .iter()
            .filter(|a| a.anywhere || a.pos >= pos)
            .collect();
        if cands.is_empty() {
            return (k, None);
        }
        if k == n - 1 {
            let definite = cands.iter().any(|a| !a.possible);
            return (n, Some(!definite));
        }
        // The earliest place it happened (a definite one first at the same place).
        let best = cands
            .iter()
            .min_by_key(|a| (if a.anywhere { pos } else { a.pos }, a.possible))
            .copied()
            .copied();
        if let Some(b) = best {
            if !b.anywhere {
                pos = b.pos;
            }
        }
        k += 1;
    }
    (k, None)
}

fn rank(d: Decision) -> u8 {
    match d {
        Decision::Deny => 3,
        Decision::Ask => 2,
        Decision::Default => 1,
        Decision::Allow => 0,
    }
}

/// The decision as the session's rules change it, step by step.
struct Acc {
    decision: Decision,
    reason: String,
    interrupt: bool,
    touched: bool,
    flags: String,
}

/// Applies the session's rules to a decision already made.
pub fn apply(
    f: &Features<'_>,
    st: &State,
    call: &CallInfo<'_>,
    d: (Decision, String),
    summary: String,
) -> Result<Verdicts, SectionError> {
    let mut acc = Acc {
        decision: d.0,
        reason: d.1,
        interrupt: false,
        touched: f.limits.is_some(),
        flags: String::new(),
    };
    let mut seq_updates = sequences(f, st, call, &mut acc)?;
    // A step counts unless polc denied the call.
    if acc.decision == Decision::Deny {
        seq_updates.retain(|(id, k)| st.seqs.get(id).copied().unwrap_or(0) >= *k);
    }
    let counting = !call.permission_request;
    if let Some(l) = &f.limits {
        limits(l, st, call, counting, &mut acc);
    }
    if counting && acc.decision == Decision::Ask && call.can_prompt && !call.tool_use_id.is_empty()
    {
        acc.flags.push('Q');
    }
    Ok(Verdicts {
        decision: acc.decision,
        reason: acc.reason,
        interrupt: acc.interrupt,
        touched: acc.touched,
        call: Call {
            time_ms: super::store::now_ms(),
            host: call.host.to_string(),
            answer: acc.decision.as_str().to_string(),
            flags: acc.flags,
            tool_use_id: call.tool_use_id.to_string(),
            turn: call.turn.to_string(),
            seqs: seq_updates,
            summary,
        },
    })
}

/// Every sequence rule over the call's requests: how far each gets (the updates to record),
/// and the verdict of one the call completes.
fn sequences(
    f: &Features<'_>,
    st: &State,
    call: &CallInfo<'_>,
    acc: &mut Acc,
) -> Result<Vec<(String, u8)>, SectionError> {
    let mut seq_updates: Vec<(String, u8)> = Vec::new();
    // The decision's walk of each command when it passed one, else our own.
    let passed = |i: usize| call.walks.get(i).and_then(Option::as_ref);
    let own: Vec<Option<crate::shell::Walk>> = call
        .requests
        .iter()
        .enumerate()
        .map(|(i, r)| match r {
            Request::Bash { command } if !f.sequences.is_empty() && passed(i).is_none() => {
                Some(crate::shell::walk(command))
            }
            _ => None,
        })
        .collect();
    let walks: Vec<Option<&crate::shell::Walk>> = (0..call.requests.len())
        .map(|i| passed(i).or(own[i].as_ref()))
        .collect();
    for (seq, rules) in &f.sequences {
        if !seq.applies_to_host(call.host) || !id_ok(&seq.id) || seq.steps.len() < 2 {
            continue;
        }
        let n = seq.steps.len();
        let done0 = (st.seqs.get(&seq.id).copied().unwrap_or(0) as usize).min(n - 1);
        let mut best: (usize, Option<bool>) = (done0, None);
        for (req, walk) in call.requests.iter().zip(&walks) {
            let mut by_rule: Vec<(u32, At)> = Vec::new();
            if let Some(r) = rules {
                by_rule = rule_hits(r, call.host, req, *walk, call.ctx)
                    .map_err(|_| SectionError::Steps)?;
            }
            let net = net_of(req, *walk);
            let steps: Vec<Vec<At>> = seq
                .steps
                .iter()
                .map(|s| match s {
                    CStep::Net => net.clone(),
                    CStep::Rule(r) => by_rule
                        .iter()
                        .filter(|(x, _)| x == r)
                        .map(|(_, a)| *a)
                        .collect(),
                })
                .collect();
            acc.touched |= steps.iter().any(|s| !s.is_empty());
            let got = advance(&steps, done0);
            // The strongest reading: a definite fire, then a possible one, then the furthest.
            let score = |g: &(usize, Option<bool>)| match g.1 {
                Some(false) => (2, g.0),
                Some(true) => (1, g.0),
                None => (0, g.0),
            };
            if score(&got) > score(&best) {
                best = got;
            }
        }
        let (done, fired) = best;
        match fired {
            Some(possible) => {
                fire(seq, possible, acc);
                // Armed for the rest of the session.
                seq_updates.push((seq.id.clone(), (n - 1) as u8));
            }
            None if done > done0 => seq_updates.push((seq.id.clone(), done as u8)),
            None => {}
        }
    }
    Ok(seq_updates)
}

/// The call completes `seq` (definitely, or `possible`: a program of unknown network
/// effect): its verdict (ask when only possible), and its interrupt.
fn fire(seq: &CSequence, possible: bool, acc: &mut Acc) {
    let v: Decision = if possible {
        Decision::Ask
    } else {
        seq.verdict.into()
    };
    if rank(v) > rank(acc.decision) || (v == acc.decision && v == Decision::Deny) {
        let why = seq
            .reason
            .as_deref()
            .map(|r| format!(": {r}"))
            .unwrap_or_default();
        let what = if possible {
            "a later step may be this sequence's last (a program of unknown network effect)"
        } else {
            "this call completes the sequence"
        };
        let at = if seq.line > 0 {
            format!("{}:{}", seq.file, seq.line)
        } else {
            seq.file.clone()
        };
        acc.reason = crate::hosts::clip(&format!(
            "polc {}: rule {} ({at}) `{}` — {what} in this session{why}",
            v.as_str(),
            seq.id,
            seq.text
        ));
        acc.decision = v;
    }
    if !possible && seq.interrupt && seq.verdict == Verdict::Deny {
        acc.interrupt = true;
    }
}

/// Denial limits: past one, anything but deny asks; a deny counts (and may interrupt where
/// nobody can be asked); an allow under the limits, or a new turn, restarts the run.
fn limits(l: &Limits, st: &State, call: &CallInfo<'_>, counting: bool, acc: &mut Acc) {
    let mut cur = st.clone();
    let past_before = st.past(l);
    if counting && !call.turn.is_empty() && call.turn != st.last_turn && !past_before {
        acc.flags.push('T');
        cur.consecutive = 0;
    }
    let past = cur.past(l);
    if past && acc.decision != Decision::Deny {
        let what = if cur.consecutive >= l.consecutive {
            format!(
                "{} denials in a row (limit {})",
                cur.consecutive, l.consecutive
            )
        } else {
            format!("{} denials in this session (limit {})", cur.total, l.total)
        };
        acc.reason = crate::hosts::clip(&format!(
            "polc ask: {what}; until a person approves a call polc asked about or runs `polc session reset`, every call needs approval (was: {})",
            acc.reason
        ));
        acc.decision = Decision::Ask;
    }
    if counting && acc.decision == Decision::Deny {
        acc.flags.push('D');
        cur.consecutive += 1;
        cur.total += 1;
        // Passing a limit where no person can be asked ends the turn, once.
        if !past && cur.past(l) && !call.can_prompt && !st.interrupted {
            acc.flags.push('I');
            acc.interrupt = true;
            acc.reason = crate::hosts::clip(&format!(
                "{} (denial limit reached: polc stops this turn; a person must look at the session)",
                acc.reason
            ));
        }
    }
    if counting && acc.decision == Decision::Allow && !past {
        acc.flags.push('Z');
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(pos: usize, possible: bool) -> At {
        At {
            pos,
            anywhere: false,
            possible,
        }
    }

    #[test]
    fn steps_are_ordered_within_a_call() {
        // read at 0, net at 1: the pair.
        assert_eq!(
            advance(&[vec![at(0, false)], vec![at(1, false)]], 0),
            (2, Some(false))
        );
        // net before the read: only the first step.
        assert_eq!(
            advance(&[vec![at(1, false)], vec![at(0, false)]], 0),
            (1, None)
        );
        // one segment that reads and sends (`curl -d @.env`).
        assert_eq!(
            advance(&[vec![at(0, false)], vec![at(0, false)]], 0),
            (2, Some(false))
        );
        // armed earlier: any net fires; a possible one only asks.
        assert_eq!(advance(&[vec![], vec![at(3, true)]], 1), (2, Some(true)));
        assert_eq!(advance(&[vec![], vec![]], 1), (1, None));
    }
}
