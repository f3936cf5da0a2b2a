//! Factory Droid: `commandAllowlist` (runs without asking), `commandDenylist` (always asks)
//! and `commandBlocklist` (never runs) of `~/.factory/settings.json`, `settings.local.json`
//! beside it, and the project's `.factory/` pair. The lists accumulate across levels.
//! Droid does not document how an entry matches a command: polc reads an allow entry as
//! that exact command (or a glob when it has a `*`) and a deny/ask entry as a word prefix
//! and a character prefix, the stricter readings.

use super::text::{get, json, strings};
use super::{pat, Ctx, Import, Native, Rule, Scope, Tool};
use crate::ir::{PatternKind, Verdict};
use std::path::PathBuf;

pub fn locate(ctx: &Ctx) -> Vec<(PathBuf, Scope, &'static str)> {
    vec![
        (
            ctx.home.join(".factory/settings.json"),
            Scope::User,
            "user settings",
        ),
        (
            ctx.home.join(".factory/settings.local.json"),
            Scope::User,
            "user local settings",
        ),
        (
            ctx.project.join(".factory/settings.json"),
            Scope::Project,
            "project settings",
        ),
        (
            ctx.project.join(".factory/settings.local.json"),
            Scope::Project,
            "project local settings",
        ),
    ]
}

pub fn import(n: &Native, imp: &mut Import) {
    let Some(doc) = json(
        n,
        true,
        imp,
        "Droid cannot read this settings file: its lists do not apply",
    ) else {
        return;
    };
    for (key, verdict) in [
        ("commandBlocklist", Verdict::Deny),
        ("commandDenylist", Verdict::Ask),
        ("commandAllowlist", Verdict::Allow),
    ] {
        let Some(list) = get(&doc, key) else {
            continue;
        };
        let entries = strings(list, n, imp, key);
        if !entries.is_empty() {
            imp.warn(
                n,
                list.start,
                list.start + 1,
                format!(
                    "{key}: Droid's matching is not documented; read the stricter way ({})",
                    if verdict == Verdict::Allow {
                        "each entry allows that exact command"
                    } else {
                        "each entry also covers every command it begins"
                    }
                ),
            );
        }
        for (s, a, _b) in entries {
            let t = s.trim();
            if t.is_empty() {
                continue;
            }
            let mut r = Rule::new(
                verdict,
                Tool::Bash,
                Vec::new(),
                n,
                a,
                &format!("{key}: {s}"),
            );
            if verdict == Verdict::Allow {
                if t.contains('*') {
                    r.patterns.push(pat(PatternKind::Glob, t));
                } else {
                    r.patterns.push(pat(PatternKind::Exact, t));
                }
                r.notes.push("read as this exact command (stricter)".into());
            } else {
                r.patterns.push(pat(
                    PatternKind::Prefix,
                    t.replace('*', " ").trim().to_string(),
                ));
                let g = if t.ends_with('*') {
                    t.to_string()
                } else {
                    format!("{t}*")
                };
                r.patterns.push(pat(PatternKind::Glob, g));
                r.patterns.retain(|p| !p.text.trim().is_empty());
                r.notes
                    .push("read as a word prefix and a character prefix (stricter)".into());
            }
            imp.rules.push(r);
        }
    }
}
