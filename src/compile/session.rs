//! The compiler's part: the session section and the sub-tables of step and rewrite rules.

use crate::compile::CompileError;
use crate::ir::session::{Config, SEC_REWRITE_BASE, SEC_SESSION, SEC_STEP_BASE};
use crate::ir::{Policy, Rule};

/// The sections to add to the table (none when the policy uses no session feature).
pub fn sections(policy: &Policy) -> Result<Vec<(u32, Vec<u8>)>, Vec<CompileError>> {
    if policy.session.is_empty() {
        return Ok(Vec::new());
    }
    let (mut cfg, rules) = Config::of(&policy.session);
    let (rewrites, rw_rules) = Config::rewrites_of(&policy.session);
    cfg.rewrites = rewrites;
    let mut out = vec![(SEC_SESSION, cfg.encode())];
    out.extend(sub_table(rules, SEC_STEP_BASE, "a sequence step")?);
    out.extend(sub_table(rw_rules, SEC_REWRITE_BASE, "a rewrite")?);
    Ok(out)
}

/// `rules` compiled as a table of their own, its sections moved to `base + kind`.
fn sub_table(
    rules: Vec<Rule>,
    base: u32,
    what: &str,
) -> Result<Vec<(u32, Vec<u8>)>, Vec<CompileError>> {
    if rules.is_empty() {
        return Ok(Vec::new());
    }
    let sub = Policy {
        rules,
        ..Default::default()
    };
    let c = crate::compile::compile(&sub).map_err(|errs| {
        // Patterns were checked while lowering; name the error without a rule.
        errs.into_iter()
            .map(|e| CompileError {
                rule: usize::MAX,
                pattern: e.pattern,
                message: format!("{what}: {}", e.message),
            })
            .collect::<Vec<_>>()
    })?;
    Ok(c.sections.into_iter().map(|(k, b)| (base + k, b)).collect())
}
