//! Matching a file path against path rules (the DFAs the compiler stored), in both forms.

use super::Corrupt;
use crate::paths::{self, Anchor};
use std::path::{Path, PathBuf};

/// Where things are for this request: relative paths, `./` and `~/` anchors resolve here.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Context {
    pub cwd: Option<PathBuf>,
    pub project_root: Option<PathBuf>,
    pub home: Option<PathBuf>,
}

impl Context {
    /// From the process: the current directory, `CLAUDE_PROJECT_DIR` (else the current
    /// directory) and the home directory.
    pub fn from_env() -> Context {
        let cwd = std::env::current_dir().ok();
        let project_root = std::env::var_os("CLAUDE_PROJECT_DIR")
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
            .or_else(|| cwd.clone());
        let home = std::env::var_os("HOME")
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
            .or_else(super::trust::passwd_home);
        Context {
            cwd,
            project_root,
            home,
        }
    }
}

/// A path in the two forms rules are checked against.
#[derive(Clone, Debug)]
pub struct PathQuery {
    pub lexical: PathBuf,
    pub canonical: PathBuf,
}

impl PathQuery {
    pub fn new(path: &str, ctx: &Context) -> PathQuery {
        let lexical = paths::lexical(
            path,
            ctx.cwd.as_deref().or(ctx.project_root.as_deref()),
            ctx.home.as_deref(),
        );
        let canonical = paths::canonical(&lexical);
        PathQuery { lexical, canonical }
    }
}

/// The folder `/x` patterns are relative to: the policy file's folder, taken from the
/// project root when the build was given a relative path.
pub fn policy_dir(source_file: &str, ctx: &Context) -> Option<PathBuf> {
    let parent = Path::new(source_file).parent()?.to_path_buf();
    if parent.is_absolute() {
        Some(parent)
    } else {
        ctx.project_root.as_ref().map(|r| r.join(parent))
    }
}

/// The folders a pattern with this anchor is relative to. `~/` is both the request's home
/// (`$HOME`, what the agent's shell expands) and the home in the password database: a hook
/// environment that sets `HOME` elsewhere must not move a deny off the real `~/.ssh`.
fn bases(anchor: Anchor, policy_dir: Option<&Path>, ctx: &Context) -> Vec<PathBuf> {
    match anchor {
        Anchor::Home => {
            let mut v: Vec<PathBuf> = ctx.home.iter().cloned().collect();
            if let Some(real) = super::trust::passwd_home() {
                if !v.contains(&real) {
                    v.push(real);
                }
            }
            v
        }
        Anchor::ProjectRoot => ctx
            .project_root
            .as_ref()
            .map(|p| canonical_base(&paths::lexical(&p.to_string_lossy(), None, None)))
            .into_iter()
            .collect(),
        Anchor::PolicyDir => policy_dir.map(Path::to_path_buf).into_iter().collect(),
        Anchor::Absolute | Anchor::AnyDepth => Vec::new(),
    }
}

/// [`paths::canonical`] of a base folder, remembered for the process (as self-protection's
/// folders are, `paths::canonical_memo`): bases are the same few folders (project root,
/// home, policy folders) for every rule and every path, and resolving them again per rule
/// was 7.6 M instructions of a decision at 100,000 rules.
fn canonical_base(p: &Path) -> PathBuf {
    thread_local! {
        static MEMO: std::cell::RefCell<std::collections::HashMap<PathBuf, PathBuf>> =
            std::cell::RefCell::default();
    }
    if let Some(c) = MEMO.with(|m| m.borrow().get(p).cloned()) {
        return c;
    }
    let c = paths::canonical(p);
    MEMO.with(|m| {
        let mut m = m.borrow_mut();
        if m.len() < 256 {
            m.insert(p.to_path_buf(), c.clone());
        }
    });
    c
}

fn dfa(bytes: &[u8], text: &str) -> Result<bool, Corrupt> {
    crate::content::regex_dfa_is_match(bytes, text.as_bytes())
        .ok_or(Corrupt::section(crate::table::sections::Kind::Regex))
}

/// The bases a pattern with this anchor is matched under, each lexically and (when it
/// differs) canonically — each base may itself be a symlink; `[None]` for anchors without a
/// base (absolute, any depth).
pub fn roots(anchor: Anchor, policy_dir: Option<&Path>, ctx: &Context) -> Vec<Option<PathBuf>> {
    let mut roots: Vec<Option<PathBuf>> = Vec::new();
    for p in bases(anchor, policy_dir, ctx) {
        let c = canonical_base(&p);
        if c != p {
            roots.push(Some(p));
        }
        roots.push(Some(c));
    }
    if roots.is_empty() {
        roots.push(None);
    }
    roots
}

/// Every text a pattern with this anchor is matched against for `q` (both forms, each
/// root): what the path index looks up, and all that [`rule_matches_in`] reads.
pub fn texts(anchor: Anchor, roots: &[Option<PathBuf>], q: &PathQuery) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for form in [&q.lexical, &q.canonical] {
        for bs in roots {
            if let Some(t) = paths::relative_to(form, anchor, bs.as_deref()) {
                if !out.contains(&t) {
                    out.push(t);
                }
            }
        }
    }
    out
}

/// Does one path rule match? Deny/ask (`allow == false`): either form, exactly or
/// case-insensitively after NFC. Allow: both forms, exactly.
pub fn rule_matches(
    anchor: Anchor,
    policy_dir: Option<&Path>,
    exact: &[u8],
    folded: &[u8],
    q: &PathQuery,
    ctx: &Context,
    allow: bool,
) -> Result<bool, Corrupt> {
    let roots = roots(anchor, policy_dir, ctx);
    rule_matches_in(anchor, &roots, exact, folded, q, allow)
}

/// [`rule_matches`] with the roots ([`roots`]) already worked out.
pub fn rule_matches_in(
    anchor: Anchor,
    roots: &[Option<PathBuf>],
    exact: &[u8],
    folded: &[u8],
    q: &PathQuery,
    allow: bool,
) -> Result<bool, Corrupt> {
    let form_matches = |form: &Path, folded_ok: bool| -> Result<bool, Corrupt> {
        for bs in roots {
            let Some(text) = paths::relative_to(form, anchor, bs.as_deref()) else {
                continue;
            };
            if dfa(exact, &text)? {
                return Ok(true);
            }
            if folded_ok && !folded.is_empty() && dfa(folded, &paths::nfc(&text))? {
                return Ok(true);
            }
        }
        Ok(false)
    };
    if allow {
        Ok(form_matches(&q.lexical, false)? && form_matches(&q.canonical, false)?)
    } else {
        Ok(form_matches(&q.lexical, true)? || form_matches(&q.canonical, true)?)
    }
}

/// Could a deny/ask path rule match something at or below `folder`?
pub fn path_could_hold(
    anchor: Anchor,
    policy_dir: Option<&Path>,
    glob: &str,
    folder: &Path,
    ctx: &Context,
) -> bool {
    let bs = bases(anchor, policy_dir, ctx);
    let lex = paths::lexical(
        &folder.to_string_lossy(),
        ctx.cwd.as_deref(),
        ctx.home.as_deref(),
    );
    let can = paths::canonical(&lex);
    [lex, can].iter().any(|f| {
        if bs.is_empty() {
            paths::could_hold(anchor, None, glob, f)
        } else {
            bs.iter()
                .any(|b| paths::could_hold(anchor, Some(b), glob, f))
        }
    })
}
