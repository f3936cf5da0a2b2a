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
use super::{Context, Corrupt, Outcome, PathQuery, Request, RuleSource, Side};
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
    let mut c = Checks {
        src,
        host,
        ctx,
        work,
        worst: None,
    };
    match (req, walk) {
        (Request::Bash { .. }, Some(w)) => {
            let dirs = super::work_dirs(w, ctx);
            // (What polc guesses an unknown program may run is not the host's to check.)
            for (i, seg) in w.segments.iter().enumerate() {
                if seg.seg.speculative {
                    continue;
                }
                let exact = segment_allowed_exactly(src, out, i)?;
                // Arguments of programs polc does not know are not known to be paths: the
                // host's checks only judge programs they know, and so do these.
                for u in seg.file_uses().filter(|u| u.access != Access::Unknown) {
                    c.file_use(u, exact, &dirs)?;
                }
            }
        }
        (
            Request::Tool {
                tool,
                subject,
                input_text,
                ..
            },
            _,
        ) if tools::is_path_tool(tool) => {
            let access = if tool == tools::READ {
                Access::Read
            } else {
                Access::Write
            };
            // Every path the call names, not only its subject: a patch's `*** Add File:
            // ~/.bashrc` was allowed by a broad edit allow (bug fixed).
            let tp = super::toolpaths::tool_paths(tool, subject, input_text);
            let mut paths: Vec<&str> = vec![subject.as_str()];
            paths.extend(tp.files.iter().chain(&tp.folders).map(String::as_str));
            paths.retain(|p| !p.is_empty());
            paths.dedup();
            for path in paths {
                let q = PathQuery::new(path, ctx);
                if c.outside(&q) && !listed(src, access, &q, ctx, host)? {
                    c.raise(
                        Verdict::Ask,
                        format!("{tool} of {} outside the project", q.lexical.display()),
                    );
                }
            }
        }
        _ => {}
    }
    Ok(c.worst)
}

/// The checks of one call: the project's folders and the strongest finding so far.
struct Checks<'a> {
    src: &'a dyn RuleSource,
    host: &'a str,
    ctx: &'a Context,
    /// The project root and the agent's cwd.
    work: Vec<PathBuf>,
    worst: Option<Finding>,
}

impl Checks<'_> {
    fn raise(&mut self, v: Verdict, what: String) {
        if self.worst.as_ref().is_none_or(|f| v > f.verdict) {
            self.worst = Some(Finding {
                verdict: v,
                what,
                paths: Vec::new(),
                rule_id: RULE_ID,
            });
        }
    }

    fn critical(&self, p: &Path) -> bool {
        CRITICAL.iter().any(|c| Path::new(c) == p)
            || self.ctx.home.as_deref().map(normalize).as_deref() == Some(p)
    }

    fn outside(&self, q: &PathQuery) -> bool {
        !inside(&q.lexical, &self.work) || !inside(&q.canonical, &self.work)
    }

    /// One file a segment uses; `exact`: a bash `exact` rule allowed the segment.
    fn file_use(
        &mut self,
        u: &crate::shell::effects::FileUse,
        exact: bool,
        dirs: &Option<Vec<PathBuf>>,
    ) -> Result<(), Corrupt> {
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
                self.raise(
                    Verdict::Ask,
                    format!(
                        "a glob or unknown word in a write target (`{}`)",
                        text.replace('\u{FFFD}', "*")
                    ),
                );
            } else if !exact && (head.starts_with(b"/") || head.starts_with(b"~") || unknown) {
                self.raise(
                    Verdict::Ask,
                    format!(
                        "`{}` may name a path outside the project",
                        text.replace('\u{FFFD}', "*")
                    ),
                );
            }
            return Ok(());
        }
        let bases: Vec<PathBuf> = if text.starts_with('/') || text.starts_with('~') {
            vec![PathBuf::from("/")]
        } else {
            match dirs {
                Some(d) => d.clone(),
                None => {
                    if !exact {
                        self.raise(
                            Verdict::Ask,
                            format!("`{text}` is relative to a folder polc cannot know"),
                        );
                    }
                    return Ok(());
                }
            }
        };
        for b in bases {
            let c = Context {
                cwd: Some(b),
                ..self.ctx.clone()
            };
            let q = PathQuery::new(&text, &c);
            if destructive && (self.critical(&q.lexical) || self.critical(&q.canonical)) {
                self.raise(
                    Verdict::Deny,
                    format!(
                        "a destructive command on the critical path {}",
                        q.lexical.display()
                    ),
                );
                continue;
            }
            if self.outside(&q) && !exact && !listed(self.src, u.access, &q, &c, self.host)? {
                let what = if u.access == Access::Read {
                    "reads"
                } else {
                    "uses"
                };
                self.raise(
                    Verdict::Ask,
                    format!(
                        "the command {what} {} outside the project",
                        q.lexical.display()
                    ),
                );
            }
        }
        Ok(())
    }
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
    src.match_path(tool, q, ctx, Side::Allow, host, &mut |r| rules.push(r))?;
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
