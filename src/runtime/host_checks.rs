//! The host's own checks that a polc allow would skip. When polc's hook answers allow,
//! Claude Code no longer runs its own permission checks: reads and writes outside the
//! session's working folders, destructive commands on critical paths, a glob in a write
//! target. polc keeps them: under an allow, such a command is at least `ask` — unless a
//! read/edit path rule or a bash `exact` rule names the path, or the policy lists the folder
//! as readable or writable (`allow read glob "//tmp/**"`) — and a destructive command on a
//! critical path (`/`, the home folder, system folders) is denied.
//!
//! Applied for the hosts whose own checks a polc allow skips (`crate::hosts::Host::skips_own_checks_on_allow`); `src/runtime/README.md`
//! lists each kept check and says why the other hosts do not need it.

use super::protect::Finding;
use super::{Context, Corrupt, Outcome, PathQuery, Request, RuleSource};
use crate::ir::{Decision, Verdict};
use crate::paths::normalize;
use crate::pattern::WILD;
use crate::shell::effects::Access;
use crate::shell::{Walk, UNKNOWN};
use crate::tools;
use std::path::{Path, PathBuf};

pub const RULE_ID: &str = "polc-host-checks";

/// Does `host` skip its own checks on an allow answer (`crate::hosts`)?
fn skips_checks(host: &str) -> bool {
    crate::hosts::Host::parse(host).is_some_and(|h| h.skips_own_checks_on_allow())
}

/// Critical folders: a destructive command on one of them (or above one) is denied.
const CRITICAL: &[&str] = &[
    "/",
    "/etc",
    "/usr",
    "/bin",
    "/sbin",
    "/lib",
    "/lib32",
    "/lib64",
    "/boot",
    "/var",
    "/sys",
    "/proc",
    "/dev",
    "/opt",
    "/root",
    "/home",
    "/srv",
    "/System",
    "/Library",
    "/Applications",
];

fn inside(p: &Path, folders: &[PathBuf]) -> bool {
    folders.iter().any(|f| p.starts_with(f))
}

/// The host's checks for an allowed request; None when nothing is kept.
pub fn check(
    src: &dyn RuleSource,
    host: &str,
    req: &Request,
    walk: Option<&Walk>,
    out: &Outcome,
    ctx: &Context,
) -> Result<Option<Finding>, Corrupt> {
    if out.decision != Decision::Allow || !skips_checks(host) {
        return Ok(None);
    }
    let mut work: Vec<PathBuf> = Vec::new();
    work.extend(ctx.project_root.iter().map(|p| normalize(p)));
    work.extend(ctx.cwd.iter().map(|p| normalize(p)));
    let critical = |p: &Path| -> bool {
        CRITICAL.iter().any(|c| Path::new(c) == p)
            || ctx.home.as_deref().map(normalize).as_deref() == Some(p)
    };
    let mut worst: Option<Finding> = None;
    let mut raise = |v: Verdict, what: String| {
        if worst.as_ref().is_none_or(|f| v > f.verdict) {
            worst = Some(Finding {
                verdict: v,
                what,
                paths: Vec::new(),
                rule_id: RULE_ID,
            });
        }
    };
    match (req, walk) {
        (Request::Bash { .. }, Some(w)) => {
            let dirs = super::work_dirs(w, ctx);
            for (i, seg) in w.segments.iter().enumerate() {
                let exact = segment_allowed_exactly(src, out, i)?;
                // Arguments of programs polc does not know are not known to be paths: the
                // host's checks only judge programs they know, and so do these.
                for u in seg.file_uses().filter(|u| u.access != Access::Unknown) {
                    let text = String::from_utf8_lossy(&u.path).into_owned();
                    let destructive = matches!(u.access, Access::Delete | Access::Meta)
                        || (u.access == Access::Write && u.into);
                    let unknown = u.path.contains(&UNKNOWN);
                    let wild = u.path.contains(&WILD);
                    if unknown || wild {
                        let head = &u.path[..u
                            .path
                            .iter()
                            .position(|&b| b == WILD || b == UNKNOWN)
                            .unwrap_or(0)];
                        if u.access.writes() && !exact {
                            raise(
                                Verdict::Ask,
                                format!(
                                    "a glob or unknown word in a write target (`{}`)",
                                    text.replace('\u{FFFD}', "*")
                                ),
                            );
                        } else if !exact
                            && (head.starts_with(b"/") || head.starts_with(b"~") || unknown)
                        {
                            raise(
                                Verdict::Ask,
                                format!(
                                    "`{}` may name a path outside the project",
                                    text.replace('\u{FFFD}', "*")
                                ),
                            );
                        }
                        continue;
                    }
                    let bases: Vec<PathBuf> = if text.starts_with('/') || text.starts_with('~') {
                        vec![PathBuf::from("/")]
                    } else {
                        match &dirs {
                            Some(d) => d.clone(),
                            None => {
                                if !exact {
                                    raise(
                                        Verdict::Ask,
                                        format!(
                                            "`{text}` is relative to a folder polc cannot know"
                                        ),
                                    );
                                }
                                continue;
                            }
                        }
                    };
                    for b in bases {
                        let c = Context {
                            cwd: Some(b),
                            ..ctx.clone()
                        };
                        let q = PathQuery::new(&text, &c);
                        if destructive && (critical(&q.lexical) || critical(&q.canonical)) {
                            raise(
                                Verdict::Deny,
                                format!(
                                    "a destructive command on the critical path {}",
                                    q.lexical.display()
                                ),
                            );
                            continue;
                        }
                        let outside = !inside(&q.lexical, &work) || !inside(&q.canonical, &work);
                        if outside && !exact && !listed(src, u.access, &q, &c, host)? {
                            let what = if u.access == Access::Read {
                                "reads"
                            } else {
                                "uses"
                            };
                            raise(
                                Verdict::Ask,
                                format!(
                                    "the command {what} {} outside the project",
                                    q.lexical.display()
                                ),
                            );
                        }
                    }
                }
            }
        }
        (Request::Tool { tool, subject, .. }, _) if tool == tools::READ || tool == tools::EDIT => {
            let q = PathQuery::new(subject, ctx);
            let outside = !inside(&q.lexical, &work) || !inside(&q.canonical, &work);
            let access = if tool == tools::READ {
                Access::Read
            } else {
                Access::Write
            };
            if outside && !listed(src, access, &q, ctx, host)? {
                raise(
                    Verdict::Ask,
                    format!("{tool} of {} outside the project", q.lexical.display()),
                );
            }
        }
        _ => {}
    }
    Ok(worst)
}

/// Was segment `i` allowed by a bash `exact` rule (it names every path it uses)?
fn segment_allowed_exactly(src: &dyn RuleSource, out: &Outcome, i: usize) -> Result<bool, Corrupt> {
    for h in out
        .hits
        .iter()
        .filter(|h| h.segment == Some(i) && h.verdict == Verdict::Allow)
    {
        let d = src.describe(h.rule)?;
        if super::protect::is_exact_bash(&d) {
            return Ok(true);
        }
    }
    Ok(false)
}

/// Does an allow path rule that names this path or a folder above it (literal text before
/// its first wildcard) cover it? `allow read glob "//tmp/**"` lists `/tmp` as readable.
fn listed(
    src: &dyn RuleSource,
    access: Access,
    q: &PathQuery,
    ctx: &Context,
    host: &str,
) -> Result<bool, Corrupt> {
    let tool = if access == Access::Read {
        tools::READ
    } else {
        tools::EDIT
    };
    let mut rules = Vec::new();
    src.match_path(tool, q, ctx, true, host, &mut |r| rules.push(r))?;
    for r in rules {
        if src.verdict(r)? != Verdict::Allow {
            continue;
        }
        let d = src.describe(r)?;
        if super::protect::rule_names_paths(&d, std::slice::from_ref(&q.lexical), ctx) {
            return Ok(true);
        }
    }
    Ok(false)
}
