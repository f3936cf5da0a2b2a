//! Applying self-protection to a decision: decide, check the request against the protected
//! paths and the host's own checks, lift a finding for a rule that names the path, and name
//! the synthetic rule ([`Guarded`]) in reasons and explain.

use super::{gather, Finding, RULE_ID, SYNTHETIC};
use crate::ir::{Decision, Tier, Verdict};
use crate::runtime::{
    Cause, Corrupt, Hit, Outcome, Request, RuleDesc, RuleFacts, RuleSource, Score,
};
use std::path::Path;

use super::Protected;

/// The facts of a rule source with the synthetic self-protection rule as rule
/// [`SYNTHETIC`] (matching never meets it: it is only named, by the reason and explain).
pub struct Guarded<'a> {
    pub inner: &'a dyn RuleFacts,
    pub finding: Option<Finding>,
}

impl RuleFacts for Guarded<'_> {
    fn verdict(&self, rule: u32) -> Result<Verdict, Corrupt> {
        match (rule, &self.finding) {
            (SYNTHETIC, Some(f)) => Ok(f.verdict),
            _ => self.inner.verdict(rule),
        }
    }
    fn score(&self, rule: u32) -> Result<Score, Corrupt> {
        match rule {
            SYNTHETIC => Ok(Score {
                tier: Tier::Managed,
                priority: i32::MAX,
                literal: 0,
                wildcards: 0,
            }),
            _ => self.inner.score(rule),
        }
    }
    fn describe(&self, rule: u32) -> Result<RuleDesc, Corrupt> {
        match (rule, &self.finding) {
            (SYNTHETIC, Some(f)) if f.rule_id == RULE_ID => Ok(RuleDesc {
                id: RULE_ID.into(),
                verdict: f.verdict,
                tool: "*".into(),
                source: "polc (built in)".into(),
                line: 0,
                column: 0,
                text: format!("{} writes to polc's protected paths", f.verdict),
                reason: Some(format!(
                    "{}; an agent may not change polc's policy, tables, trust list, binary or hook configuration (a managed or user layer rule that names the path can allow it)",
                    f.what
                )),
            }),
            (SYNTHETIC, Some(f)) => Ok(RuleDesc {
                id: f.rule_id.into(),
                verdict: f.verdict,
                tool: "*".into(),
                source: "polc (built in)".into(),
                line: 0,
                column: 0,
                text: format!("{} what the host's own checks would not allow", f.verdict),
                reason: Some(format!(
                    "{}; the host skips its own checks when polc allows, so polc keeps them (a read/edit rule or a bash exact rule that names the path allows it)",
                    f.what
                )),
            }),
            _ => self.inner.describe(rule),
        }
    }
}

/// Decide, then apply self-protection, walking a shell command once for both. Describe
/// the winner through a [`Guarded`] holding the returned finding so the synthetic rule has
/// a name.
pub fn decide_guarded(
    src: &dyn RuleSource,
    host: &str,
    req: &Request,
    prot: &Protected,
    cwd: &Path,
    root: &Path,
) -> Result<(Outcome, Option<Finding>), Corrupt> {
    let walk = match req {
        Request::Bash { command } => Some(crate::runtime::links::walk(command, cwd)),
        _ => None,
    };
    decide_guarded_walked(src, host, req, walk.as_ref(), prot, cwd, root)
}

/// [`decide_guarded`] with the request's walk already made (`runtime::entry` walks each
/// request once and shares the walk with the session's sequence check). `walk` must be
/// `crate::shell::walk` of a Bash request's command; a Bash request without one is walked
/// here.
pub fn decide_guarded_walked(
    src: &dyn RuleSource,
    host: &str,
    req: &Request,
    walk: Option<&crate::shell::Walk>,
    prot: &Protected,
    cwd: &Path,
    root: &Path,
) -> Result<(Outcome, Option<Finding>), Corrupt> {
    let own;
    let walk = match (req, walk) {
        (Request::Bash { command }, None) => {
            own = crate::runtime::links::walk(command, cwd);
            Some(&own)
        }
        (Request::Bash { .. }, w) => w,
        _ => None,
    };
    // Paths in the request resolve against the agent's cwd and project root, not ours.
    let home = crate::runtime::Context::from_env().home;
    let ctx = crate::runtime::Context {
        cwd: Some(cwd.to_path_buf()),
        project_root: Some(root.to_path_buf()),
        home,
    };
    let mut out = match (req, walk) {
        (Request::Bash { command }, Some(w)) => {
            crate::runtime::decide_walked(src, host, command, w, &ctx)?
        }
        _ => crate::runtime::decide_in(src, host, req, &ctx)?,
    };
    let mut finding = prot.check(req, walk, cwd);
    if let Some(f) = &finding {
        if out.decision == Decision::Allow && lifted(src, &out, f, &ctx)? {
            finding = None;
        }
    }
    // The host's own checks an allow would skip (reads and writes outside the project,
    // critical paths): the stronger of the two findings stands.
    if let Some(h) = crate::runtime::host_checks::check(src, host, req, walk, &out, &ctx)? {
        if finding.as_ref().is_none_or(|f| h.verdict > f.verdict) {
            finding = Some(h);
        }
    }
    let Some(f) = finding else {
        return Ok((out, None));
    };
    let raised = Decision::from(f.verdict);
    if raised > out.decision {
        out.decision = raised;
        out.winner = Some(SYNTHETIC);
        out.cause = Cause::Rule { rule: SYNTHETIC };
        out.hits.push(Hit {
            rule: SYNTHETIC,
            verdict: f.verdict,
            possible: false,
            segment: None,
        });
        return Ok((out, Some(f)));
    }
    Ok((out, None))
}

/// An allow lifts self-protection only when every allowed segment (or the tool call) was
/// allowed by a managed or user layer's rule that names the protected path: a bash `exact`
/// rule, or a read/edit path rule whose literal text before its first wildcard is the path
/// or a folder above it. Prefix, glob, contains and regex rules never lift it, nor does a
/// finding that names no path (polc's own commands, installs).
fn lifted(
    src: &dyn RuleSource,
    out: &Outcome,
    f: &Finding,
    ctx: &crate::runtime::Context,
) -> Result<bool, Corrupt> {
    if f.paths.is_empty() {
        return Ok(false);
    }
    let names = |rule: u32| -> Result<bool, Corrupt> {
        if src.score(rule)?.tier < Tier::User {
            return Ok(false);
        }
        let d = src.describe(rule)?;
        Ok(gather::rule_names_paths(&d, &f.paths, ctx))
    };
    if out.segments.is_empty() {
        for h in out.hits.iter().filter(|h| h.verdict == Verdict::Allow) {
            if names(h.rule)? {
                return Ok(true);
            }
        }
        return Ok(false);
    }
    for (i, s) in out.segments.iter().enumerate() {
        if !s.command || s.deny_only {
            continue;
        }
        let mut ok = false;
        for h in out
            .hits
            .iter()
            .filter(|h| h.segment == Some(i) && h.verdict == Verdict::Allow)
        {
            ok |= names(h.rule)?;
        }
        if !ok {
            return Ok(false);
        }
    }
    Ok(true)
}
