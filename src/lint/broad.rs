//! L006 allow rules that grant a whole interpreter or wrapper; L007 wildcards before the
//! program name in allow rules. Both are errors: either grants arbitrary commands.

use super::lang::{includes, Answer, Lang};
use super::{is_everything, pattern_lang, Cx, View};
use crate::ir::{PatternKind, Verdict};
use crate::pattern::{SegPattern, STAR};
use crate::syntax::{Diagnostic, Severity};
use crate::tools;

/// Commands that run arbitrary code given to them, written as globs: an allow whose
/// language includes one of these grants any program. Shells and interpreters with their
/// inline-code flag, wrappers with anything after them. (`timeout`, `nice`, `nohup`, `time`
/// and `stdbuf` are not here: allow rules see the command after them, never them.)
pub const GRANTS_ANYTHING: &[&str] = &[
    "bash -c *",
    "sh -c *",
    "zsh -c *",
    "dash -c *",
    "ksh -c *",
    "fish -c *",
    "python -c *",
    "python3 -c *",
    "python2 -c *",
    "node -e *",
    "node --eval *",
    "deno eval *",
    "bun -e *",
    "perl -e *",
    "ruby -e *",
    "php -r *",
    "lua -e *",
    "pwsh -c *",
    "osascript -e *",
    "eval *",
    "exec *",
    "sudo *",
    "doas *",
    "su -c *",
    "env *",
    "xargs *",
    "command *",
    "builtin *",
    "watch *",
    "chroot *",
    "unshare *",
    "setsid *",
    "ssh * *",
    "npx *",
    "bunx *",
    "pnpx *",
    "uvx *",
    "pipx run *",
    "npm exec *",
    "pnpm dlx *",
    "yarn dlx *",
];

fn glob(t: &str) -> Lang {
    Lang::of(&SegPattern::compile(PatternKind::Glob, t, false).expect("glob compiles"))
}

pub(super) fn check(cx: &Cx<'_>, out: &mut Vec<Diagnostic>) {
    let grants: Vec<(&str, Lang)> = GRANTS_ANYTHING.iter().map(|g| (*g, glob(g))).collect();
    for &i in &cx.rules {
        let r = cx.rule(i);
        if r.verdict != Verdict::Allow || r.tool != tools::BASH {
            continue;
        }
        for p in 0..r.patterns.len() {
            let Some(l) = pattern_lang(r, p, View::Runtime) else {
                continue;
            };
            let text = &r.patterns[p].text;
            if is_everything(&l) {
                out.push(
                    cx.at_pattern(
                        i,
                        p,
                        Severity::Error,
                        crate::syntax::codes::L007,
                        format!("allow rule `{}` allows every command", r.id),
                    )
                    .with_help(
                        "name the programs you mean (`prefix \"cargo test\"`, `Bash(npm run lint:*)`)",
                    ),
                );
                continue;
            }
            let leading_star = l.alts.iter().any(|a| {
                let end = a.iter().position(|&b| b == b' ').unwrap_or(a.len());
                a[..end].contains(&STAR)
            });
            if leading_star {
                out.push(
                    cx.at_pattern(
                        i,
                        p,
                        Severity::Error,
                        crate::syntax::codes::L007,
                        format!(
                            "allow pattern `{text}` has a wildcard before the program name: it grants programs you did not name"
                        ),
                    )
                    .with_help(
                        "start an allow pattern with a literal program name (`git * --help`, not `* --help`)",
                    ),
                );
                continue;
            }
            if let Some((g, _)) = grants.iter().find(|(_, g)| includes(&l, g) == Answer::Yes) {
                out.push(
                    cx.at_pattern(
                        i,
                        p,
                        Severity::Error,
                        crate::syntax::codes::L006,
                        format!(
                            "allow pattern `{text}` grants `{g}`: any command at all, through an interpreter or wrapper"
                        ),
                    )
                    .with_help(
                        "allow the specific scripts or subcommands instead (`python -m pytest *`, `npm run lint`), and let deny/ask rules see the rest",
                    ),
                );
            }
        }
    }
}
