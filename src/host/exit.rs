//! The exit-code protocol of `polc decide` (SPEC §5), for plugin callers.

use crate::ir::Decision;
use crate::runtime::layers::{Layers, Loaded, Union};
use crate::runtime::{decide, Request};

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
    crate::ir::HOST_AUTHORITATIVE_HOSTS.contains(&host)
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
    match layers.load() {
        Loaded::NoTable => (
            ExitCode::NoTable,
            Some("no polc table configured or found; the caller's own policy applies".into()),
        ),
        Loaded::Unusable(why) => (ExitCode::Deny, Some(why)),
        Loaded::Ready(loaded) => {
            let Ok(u) = Union::new(&loaded) else {
                return (
                    ExitCode::Deny,
                    Some("polc table is corrupt: run `polc build`".into()),
                );
            };
            match decide(&u, host, req) {
                Ok(out) => (exit_for(out.decision, host), None),
                Err(_) => (
                    ExitCode::Deny,
                    Some("polc table is corrupt: run `polc build`".into()),
                ),
            }
        }
    }
}
