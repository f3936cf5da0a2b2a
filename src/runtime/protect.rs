//! Self-protection: an agent must not be able to loosen the policy that judges it. Tool
//! calls that would change polc's protected paths — policy sources, tables, the trust list
//! and config folder, the caches, the polc binary, the agents' hook configuration — are
//! denied where the write is certain and asked where it may be; polc's own commands that
//! change what the hook reads (`trust`, `init`, `build`, …) are denied wherever they are seen.
//!
//! This module has no shell knowledge of its own: it reads the walk of the command
//! ([`crate::shell::walk`]) and the catalogue of program effects
//! ([`crate::shell::effects`]), and judges the **paths** they name. A renamed copy of `rm`
//! writing a protected path by redirection is still a write to that path.
//!
//! Only a managed or user layer can lift it, and only with a rule that names the path: a
//! read/edit path rule whose literal text before its first wildcard is the protected file
//! or a folder above it, or a bash `exact` rule. No wildcard reaches a protected path.

mod gather;
mod others;
mod polcbin;
mod referenced;
mod runners;
/// The scripts the agents' project configuration runs (the tripwire watches them too).
pub(crate) use referenced::scripts as referenced_scripts;
mod target;
mod tool;
mod walk;

pub use gather::{protected_names, Protected};

use super::{Request, RuleDesc};
use crate::ir::Verdict;
use crate::shell::Walk;
use std::path::{Path, PathBuf};

pub const RULE_ID: &str = "polc-self-protection";
/// The synthetic rule's number in a guarded source.
pub const SYNTHETIC: u32 = u32::MAX;

/// polc subcommands that change what the hook reads or decides; an agent may not run them.
const POLC_GUARDED: &[&str] = &[
    "trust",
    "init",
    "build",
    "hook",
    "decide",
    "session",
    "uninstall",
    "forget",
    "import",
    "confirm",
];

/// What self-protection found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    pub verdict: Verdict,
    pub what: String,
    /// The protected paths involved (for lifting by a rule that names them).
    pub paths: Vec<PathBuf>,
    /// The synthetic rule that reports it ([`RULE_ID`], or the host checks').
    pub rule_id: &'static str,
}

/// The strongest finding so far.
#[derive(Default)]
struct Worst(Option<Finding>);

impl Worst {
    fn raise(&mut self, verdict: Verdict, what: String, path: Option<&Path>) {
        match &mut self.0 {
            Some(f) if f.verdict > verdict => {}
            Some(f) if f.verdict == verdict => {
                if let Some(p) = path {
                    f.paths.push(p.to_path_buf());
                }
            }
            _ => {
                self.0 = Some(Finding {
                    verdict,
                    what,
                    paths: path.map(|p| vec![p.to_path_buf()]).unwrap_or_default(),
                    rule_id: RULE_ID,
                })
            }
        }
    }
}

/// How a path a command names can be read: definite paths, or a pattern (WILD/UNKNOWN).
enum Target {
    Paths(Vec<PathBuf>),
    /// `*`-style pattern over absolute paths (WILD spans `/` too: conservative).
    Pattern(Vec<Vec<u8>>),
}

impl Protected {
    /// Does the request touch a protected path? `cwd` is the agent's working folder.
    pub fn check(&self, req: &Request, walk: Option<&Walk>, cwd: &Path) -> Option<Finding> {
        match (req, walk) {
            (Request::Bash { .. }, Some(w)) => self.check_walk(w, cwd),
            (Request::Bash { command }, None) => {
                self.check_walk(&super::links::walk(command, cwd), cwd)
            }
            (
                Request::Tool {
                    tool,
                    subject,
                    input_text,
                    ..
                },
                _,
            ) => self.check_tool(tool, subject, input_text, cwd),
        }
    }
}

/// Is this rule a bash `exact` rule (DSL `exact`, or a Claude `Bash(...)` without `*`)?
pub fn is_exact_bash(d: &RuleDesc) -> bool {
    gather::is_exact_bash(d)
}

pub use gather::rule_names_paths;

mod guarded;

pub use guarded::{decide_guarded, decide_guarded_walked, Guarded};

#[cfg(test)]
mod tests;
