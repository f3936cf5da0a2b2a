//! Claude Code: `permissions.allow/ask/deny` of every settings file it reads. Rule strings
//! are read by polc's own Claude front end (`syntax::claude`, the reading
//! `src/syntax/README.md` documents: an allow as Claude reads it, a deny/ask the stricter
//! way), then written as DSL; path anchors are rewritten to name the same files.

use super::text::{get, json, strings};
use super::{pat, Ctx, Import, Native, Rule, Scope, Tool};
use crate::ir::{PatternKind, Verdict};
use crate::syntax::claude::{claude_rejects, map_rule, Mapped};
use std::path::PathBuf;

/// Claude Code's configuration folder (`CLAUDE_CONFIG_DIR`, else `~/.claude`).
fn config_dir(ctx: &Ctx) -> PathBuf {
    std::env::var_os("CLAUDE_CONFIG_DIR")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .unwrap_or_else(|| ctx.home.join(".claude"))
}

pub fn locate(ctx: &Ctx) -> Vec<(PathBuf, Scope, &'static str)> {
    vec![
        (
            ctx.sys("/etc/claude-code/managed-settings.json"),
            Scope::User,
            "managed settings",
        ),
        (
            ctx.sys("/Library/Application Support/ClaudeCode/managed-settings.json"),
            Scope::User,
            "managed settings",
        ),
        (
            config_dir(ctx).join("settings.json"),
            Scope::User,
            "user settings",
        ),
        (
            ctx.project.join(".claude/settings.json"),
            Scope::Project,
            "project settings",
        ),
        (
            ctx.project.join(".claude/settings.local.json"),
            Scope::Project,
            "local settings",
        ),
    ]
}

pub fn import(ctx: &Ctx, n: &Native, imp: &mut Import) {
    let Some(doc) = json(
        n,
        false,
        imp,
        "Claude Code does not load a settings file that is not valid JSON: none of its rules apply",
    ) else {
        return;
    };
    let Some(perms) = get(&doc, "permissions") else {
        return;
    };
    for (key, verdict) in [
        ("allow", Verdict::Allow),
        ("ask", Verdict::Ask),
        ("deny", Verdict::Deny),
    ] {
        let Some(list) = get(perms, key) else {
            continue;
        };
        for (s, start, end) in strings(list, n, imp, &format!("permissions.{key}")) {
            one(ctx, n, imp, s, verdict, start, end);
        }
    }
}

fn one(
    ctx: &Ctx,
    n: &Native,
    imp: &mut Import,
    s: &str,
    verdict: Verdict,
    start: usize,
    end: usize,
) {
    let native = format!("{}: {s}", verdict.as_str());
    if let Some(why) = claude_rejects(s) {
        if verdict == Verdict::Allow {
            imp.dropped(
                n,
                start,
                end,
                format!("allow `{s}` not imported: Claude Code's validator rejects it ({why}) and skips it"),
            );
            return;
        }
        imp.warn(
            n,
            start,
            end,
            format!(
                "`{s}`: Claude Code's validator rejects it ({why}); imported as written (stricter)"
            ),
        );
    }
    let mapped = match map_rule(s, verdict) {
        Ok(m) => m,
        Err(e) => {
            imp.dropped(
                n,
                start,
                end,
                format!("`{s}` not imported: {} (Claude Code skips it)", e.message),
            );
            return;
        }
    };
    let (tool, pattern) = match mapped {
        Mapped::Rule { tool, pattern } => (tool, pattern),
        Mapped::IgnoredInputField { .. } => {
            imp.dropped(
                n,
                start,
                end,
                format!(
                    "allow `{s}` not imported: an input-field allow that Claude Code never matches"
                ),
            );
            return;
        }
        Mapped::IgnoredPathRule { .. } => {
            imp.dropped(n, start, end, format!("allow `{s}` not imported: Claude Code consults path rules only for Read(…) and Edit(…)"));
            return;
        }
        Mapped::IgnoredDomainWildcard => {
            imp.dropped(n, start, end, format!("allow `{s}` not imported: Claude Code compares WebFetch domains exactly, so a `*` never matches"));
            return;
        }
    };
    let t = Tool::from_canonical(&tool);
    let mut r = Rule::new(verdict, t.clone(), Vec::new(), n, start, &native);
    match pattern.kind {
        PatternKind::Any => {}
        PatternKind::Specifier => match &t {
            Tool::Read | Tool::Edit => {
                r.patterns
                    .push(pat(PatternKind::Glob, anchor(ctx, n, &pattern.text)));
            }
            Tool::WebFetch => r
                .patterns
                .push(pat(PatternKind::Glob, pattern.text.clone())),
            _ if verdict == Verdict::Allow => {
                imp.dropped(n, start, end, format!("allow `{s}` not imported: polc cannot match `{}` on this tool; the agent's own rule still applies", pattern.text));
                return;
            }
            _ => {
                let field = pattern.text.split_once(':').is_some_and(|(k, _)| {
                    !k.is_empty() && k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                });
                if field {
                    r.patterns
                        .push(pat(PatternKind::Glob, pattern.text.clone()));
                } else {
                    imp.inexact(n, start, end, r, format!("`{s}`: polc cannot match `{}` on this tool; imported for every call of the tool (stricter)", pattern.text));
                    return;
                }
            }
        },
        _ => r.patterns.push(pattern),
    }
    imp.rules.push(r);
}

/// Claude Code anchors `/x` at the settings file's root: the configuration folder for user
/// settings, the project for project, local and managed settings. polc's `/x` is the policy
/// file's folder, so the anchor is rewritten: `~/.claude/x` or `./x`. `//abs`, `~/x`, `./x`
/// and relative patterns mean the same in both.
fn anchor(ctx: &Ctx, n: &Native, text: &str) -> String {
    if text.starts_with("//") || !text.starts_with('/') {
        return text.to_string();
    }
    let rest = &text[1..];
    match n.scope {
        Scope::Project => format!("./{rest}"),
        Scope::User => {
            if n.level == "managed settings" {
                // Managed rules are anchored at whichever project Claude Code runs in.
                format!("./{rest}")
            } else {
                let dir = config_dir(ctx);
                match dir.strip_prefix(&ctx.home) {
                    Ok(r) if !r.as_os_str().is_empty() => format!("~/{}/{rest}", r.display()),
                    _ => format!("/{}/{rest}", dir.display()),
                }
            }
        }
    }
}
