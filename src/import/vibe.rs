//! Mistral Vibe: `[tools.NAME]` tables of `~/.vibe/config.toml` (`$VIBE_HOME`) and of the
//! trusted project's `.vibe/config.toml`. For the shell (`bash`, and `git_bash` on Windows):
//! `denylist` entries are never run, `denylist_standalone` names never run alone,
//! `allowlist` entries run without asking when every part of the command is listed, and
//! `sensitive_patterns` always ask; an entry matches the command itself or the command
//! followed by a blank (a word prefix: polc's `prefix`). `permission` (`always`, `ask`,
//! `never`) decides the rest. For file tools, `denylist`/`allowlist` are path globs.
//! `disabled_tools` names tools the model never sees (read as deny).

use super::toml::{field, parse, str_list};
use super::{pat, Ctx, Import, Native, Rule, Scope, Tool};
use crate::ir::{PatternKind, Verdict};
use crate::tools::vibe::SHELL_TOOLS as SHELLS;
use std::path::PathBuf;
use toml_edit::TableLike;

pub fn locate(ctx: &Ctx) -> Vec<(PathBuf, Scope, &'static str)> {
    let home = std::env::var_os("VIBE_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .unwrap_or_else(|| ctx.home.join(".vibe"));
    vec![
        (home.join("config.toml"), Scope::User, "user config"),
        (
            ctx.project.join(".vibe/config.toml"),
            Scope::Project,
            "project config (trusted folders only)",
        ),
    ]
}

const AGENT: &str = "Vibe stops at start-up on a config.toml it cannot parse";

pub fn import(n: &Native, imp: &mut Import) {
    let Some(doc) = parse(n, imp, AGENT) else {
        return;
    };
    let Some(root) = doc.as_item().as_table_like() else {
        return;
    };
    if let Some((d, _, _)) = field(root, "disabled_tools") {
        if let Some(list) = str_list(d) {
            for (name, a, b) in list {
                if name.contains(['*', '?', '[']) || name.starts_with("re:") {
                    imp.dropped(
                        n,
                        a,
                        b,
                        format!(
                            "disabled_tools `{name}`: a pattern over tool names is left to Vibe"
                        ),
                    );
                    continue;
                }
                let tool = if SHELLS.contains(&name.as_str()) {
                    Tool::Bash
                } else {
                    Tool::Named(name.clone())
                };
                let mut r = Rule::new(
                    Verdict::Deny,
                    tool,
                    Vec::new(),
                    n,
                    a,
                    &format!("disabled_tools: {name}"),
                );
                r.notes
                    .push("a disabled tool is never offered to the model: read as deny".into());
                imp.rules.push(r);
            }
        }
    }
    if let Some((_, a, b)) = field(root, "enabled_tools") {
        imp.needs_native = true;
        imp.dropped(n, a, b, "enabled_tools hides every tool it does not list (a catch-all with exceptions): left to Vibe (no rule)");
    }
    let Some((tools, _, _)) = field(root, "tools") else {
        return;
    };
    let Some(tools) = tools.as_table_like() else {
        return;
    };
    for (name, item) in tools.iter() {
        let Some(t) = item.as_table_like() else {
            continue;
        };
        if SHELLS.contains(&name) {
            shell(n, imp, name, t);
        } else {
            file_tool(n, imp, name, t);
        }
    }
}

fn list(n: &Native, imp: &mut Import, t: &dyn TableLike, key: &str) -> Vec<(String, usize, usize)> {
    match field(t, key) {
        None => Vec::new(),
        Some((i, a, b)) => match str_list(i) {
            Some(v) => v,
            None => {
                imp.error(n, a, b, format!("`{key}` must be a list of strings"), AGENT);
                Vec::new()
            }
        },
    }
}

fn permission(n: &Native, imp: &mut Import, t: &dyn TableLike) -> Option<(String, usize, usize)> {
    let (p, a, b) = field(t, "permission")?;
    match p.as_str() {
        Some(s @ ("always" | "ask" | "never")) => Some((s.to_string(), a, b)),
        _ => {
            imp.error(
                n,
                a,
                b,
                "`permission` is \"always\", \"ask\" or \"never\"",
                AGENT,
            );
            None
        }
    }
}

fn shell(n: &Native, imp: &mut Import, name: &str, t: &dyn TableLike) {
    let allow = list(n, imp, t, "allowlist");
    for (p, a, _) in list(n, imp, t, "denylist") {
        if !p.trim().is_empty() {
            let r = Rule::new(
                Verdict::Deny,
                Tool::Bash,
                vec![pat(PatternKind::Prefix, p.trim())],
                n,
                a,
                &format!("[tools.{name}] denylist: {p}"),
            );
            imp.rules.push(r);
        }
    }
    for (p, a, _) in list(n, imp, t, "denylist_standalone") {
        if !p.trim().is_empty() {
            let r = Rule::new(
                Verdict::Deny,
                Tool::Bash,
                vec![pat(PatternKind::Exact, p.trim())],
                n,
                a,
                &format!("[tools.{name}] denylist_standalone: {p}"),
            );
            imp.rules.push(r);
        }
    }
    for (p, a, _) in list(n, imp, t, "sensitive_patterns") {
        if !p.trim().is_empty() {
            let r = Rule::new(
                Verdict::Ask,
                Tool::Bash,
                vec![pat(PatternKind::Prefix, p.trim())],
                n,
                a,
                &format!("[tools.{name}] sensitive_patterns: {p}"),
            );
            imp.rules.push(r);
        }
    }
    let perm = permission(n, imp, t);
    match perm.as_ref().map(|p| p.0.as_str()) {
        Some("never") if !allow.is_empty() => {
            let (_, a, b) = perm.clone().unwrap_or_default();
            imp.needs_native = true;
            imp.dropped(n, a, b, "permission = \"never\" with an allowlist is a catch-all with exceptions: left to Vibe (no rule)");
        }
        Some("never") => {
            let (_, a, _) = perm.clone().unwrap_or_default();
            imp.rules.push(Rule::new(
                Verdict::Deny,
                Tool::Bash,
                Vec::new(),
                n,
                a,
                &format!("[tools.{name}] permission = \"never\""),
            ));
        }
        Some("always") => {
            let (_, a, b) = perm.clone().unwrap_or_default();
            imp.dropped(n, a, b, format!("[tools.{name}] permission = \"always\" not imported: Vibe still asks for sensitive commands and paths outside the working folder, which polc cannot say (stricter; Vibe's own engine still applies it)"));
        }
        _ => {}
    }
    if perm.as_ref().map(|p| p.0.as_str()) != Some("never") {
        for (p, a, _) in allow {
            if !p.trim().is_empty() {
                let mut r = Rule::new(
                    Verdict::Allow,
                    Tool::Bash,
                    vec![pat(PatternKind::Prefix, p.trim())],
                    n,
                    a,
                    &format!("[tools.{name}] allowlist: {p}"),
                );
                r.notes.push("Vibe still asks when such a command names a path outside the working folder; polc's allow does not (on Vibe itself polc's allow leaves that check to Vibe)".into());
                imp.rules.push(r);
            }
        }
    }
}

fn file_tool(n: &Native, imp: &mut Import, name: &str, t: &dyn TableLike) {
    let tool = Tool::Named(name.to_string());
    for (p, a, b) in list(n, imp, t, "denylist") {
        if p.starts_with("vibe-path:") {
            imp.needs_native = true;
            imp.dropped(n, a, b, format!("`{p}`: a Vibe path grant, left to Vibe"));
            continue;
        }
        let r = Rule::new(
            Verdict::Deny,
            tool.clone(),
            Vec::new(),
            n,
            a,
            &format!("[tools.{name}] denylist: {p}"),
        );
        imp.inexact(
            n,
            a,
            b,
            r,
            format!(
                "`{p}`: a path deny on {name} is imported for every call of the tool (stricter)"
            ),
        );
    }
    for (p, a, b) in list(n, imp, t, "allowlist") {
        imp.dropped(n, a, b, format!("allowlist `{p}` of {name}: a path allow on a named tool is not imported (stricter)"));
    }
    match permission(n, imp, t) {
        Some((p, a, _)) if p == "never" => imp.rules.push(Rule::new(Verdict::Deny, tool.clone(), Vec::new(), n, a, &format!("[tools.{name}] permission = \"never\""))),
        Some((p, a, b)) if p == "always" => imp.dropped(n, a, b, format!("{name}: permission = \"always\" not imported: Vibe still asks for sensitive paths and paths outside the working folder, which polc cannot say (stricter; Vibe's own engine still applies it)")),
        _ => {}
    }
}
