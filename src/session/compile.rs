//! The compiler's part: the session section and the step rules' sub-table.

use super::policy::{Config, SEC_SESSION, SEC_STEP_BASE};
use crate::compile::CompileError;
use crate::ir::Policy;

/// The sections to add to the table (none when the policy uses no session feature).
pub fn sections(policy: &Policy) -> Result<Vec<(u32, Vec<u8>)>, Vec<CompileError>> {
    if policy.session.is_empty() {
        return Ok(Vec::new());
    }
    let (cfg, rules) = Config::of(&policy.session);
    let mut out = vec![(SEC_SESSION, cfg.encode())];
    if !rules.is_empty() {
        let sub = Policy {
            rules,
            ..Default::default()
        };
        let c = crate::compile::compile(&sub).map_err(|errs| {
            // Step patterns were checked while lowering; name the error without a rule.
            errs.into_iter()
                .map(|e| CompileError {
                    rule: usize::MAX,
                    pattern: e.pattern,
                    message: format!("a sequence step: {}", e.message),
                })
                .collect::<Vec<_>>()
        })?;
        for (k, b) in c.sections {
            out.push((SEC_STEP_BASE + k, b));
        }
    }
    Ok(out)
}
