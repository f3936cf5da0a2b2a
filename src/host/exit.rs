//! The exit-code protocol of `polc decide` (docs/contract.md#c-exit-codes), for plugin callers.

use crate::ir::Decision;
use crate::runtime::entry::{self, Call, Failure};
use crate::runtime::layers::Layers;
use crate::runtime::Request;

/// Exit codes. Callers must treat 3 as "prompt or block".
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExitCode {
    Allow = 0,
    /// No table configured or found at all: the caller applies its own policy.
    NoTable = 1,
    /// Deny, an unusable table, or a bad invocation.
    Deny = 2,
    /// Ask (from a rule or unattestable), and default under Claude authority.
    Ask = 3,
}

/// Host-authoritative hosts own approval: `default` becomes allow there.
pub fn host_authoritative(host: &str) -> bool {
    crate::hosts::Host::parse(host).is_some_and(|h| h.authoritative())
}

/// An answer in the exit-code protocol (a plugin caller's host, `Protocol::ExitCodes`):
/// nothing on stdout, the reason on stderr unless allowed, the exit code.
pub fn render(a: &super::answer::Answer) -> super::answer::Rendered {
    use super::answer::Kind;
    let (exit, say) = match a.kind {
        Kind::Allow => (ExitCode::Allow, false),
        Kind::Deny => (ExitCode::Deny, true),
        Kind::Ask | Kind::Default => (ExitCode::Ask, true),
    };
    super::answer::Rendered {
        stdout: Vec::new(),
        stderr: say.then(|| a.reason.clone()),
        exit: exit as i32,
    }
}

/// The error row of the exit-code protocol: deny (2), the reason on stderr.
pub fn error(reason: &str) -> super::answer::Rendered {
    super::answer::Rendered {
        stdout: Vec::new(),
        stderr: Some(super::answer::clip(reason)),
        exit: ExitCode::Deny as i32,
    }
}

pub fn exit_for(decision: Decision, host: &str) -> ExitCode {
    match decision {
        Decision::Allow => ExitCode::Allow,
        Decision::Deny => ExitCode::Deny,
        Decision::Ask => ExitCode::Ask,
        Decision::Default if host_authoritative(host) => ExitCode::Allow,
        Decision::Default => ExitCode::Ask,
    }
}

/// Decide with the layers found; returns the code and a one-line note for stderr.
pub fn decide_exit(layers: &Layers, host: &str, req: &Request) -> (ExitCode, Option<String>) {
    // Self-protection applies to plugin callers too; the command runs in our cwd.
    let cwd = std::env::current_dir().unwrap_or_else(|_| layers.project_root.clone());
    let call = Call {
        host,
        request: req,
        also: &[],
        unattestable: None,
        cwd: &cwd,
    };
    let d = entry::decide(layers, &call);
    match (&d.failure, &d.judged) {
        (Some(Failure::NoTable), _) => (
            ExitCode::NoTable,
            Some("no polc table configured or found; the caller's own policy applies".into()),
        ),
        (Some(Failure::Unusable(why) | Failure::Changed(why)), _) => {
            (ExitCode::Deny, Some(why.clone()))
        }
        (Some(Failure::Corrupt(c)), _) => (ExitCode::Deny, Some(c.to_string())),
        (None, None) => (
            ExitCode::Deny,
            Some("polc table is corrupt: run `polc build`".into()),
        ),
        (None, Some(j)) => {
            let note = j
                .finding
                .as_ref()
                .filter(|_| d.decision >= Decision::Ask)
                .map(|f| format!("{}: {}", crate::runtime::protect::RULE_ID, f.what));
            (exit_for(d.decision, host), note)
        }
    }
}
