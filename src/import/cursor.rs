//! Cursor CLI: `permissions.allow`/`deny` of `~/.cursor/cli-config.json` (or
//! `$XDG_CONFIG_HOME/cursor/cli-config.json`) and of the project's `.cursor/cli.json`.
//! `Shell(cmd)`, `Read(glob)`, `Write(glob)`, `WebFetch(domain)`, `Mcp(server:tool)`; a deny
//! beats an allow, anything else asks.

use super::text::{get, json, strings};
use super::{pat, Ctx, Import, Native, Rule, Scope, Tool};
use crate::ir::{PatternKind, Verdict};
use std::path::PathBuf;

pub fn locate(ctx: &Ctx) -> Vec<(PathBuf, Scope, &'static str)> {
    let user = match &ctx.xdg_config {
        Some(x) if x.join("cursor/cli-config.json").is_file() => x.join("cursor/cli-config.json"),
        _ => ctx.home.join(".cursor/cli-config.json"),
    };
    vec![
        (user, Scope::User, "global CLI config"),
        (
            ctx.project.join(".cursor/cli.json"),
            Scope::Project,
            "project CLI config",
        ),
    ]
}

pub fn import(n: &Native, imp: &mut Import) {
    let Some(doc) = json(
        n,
        false,
        imp,
        "Cursor CLI moves a config it cannot parse aside (`.bad`) and starts from defaults: none of its rules apply",
    ) else {
        return;
    };
    let Some(perms) = get(&doc, "permissions") else {
        return;
    };
    for (key, verdict) in [("allow", Verdict::Allow), ("deny", Verdict::Deny)] {
        let Some(list) = get(perms, key) else {
            continue;
        };
        for (s, a, b) in strings(list, n, imp, &format!("permissions.{key}")) {
            one(n, imp, s, verdict, a, b);
        }
    }
}

fn one(n: &Native, imp: &mut Import, s: &str, verdict: Verdict, a: usize, b: usize) {
    let native = format!("{}: {s}", verdict.as_str());
    let (kind, arg) = match s.find('(') {
        Some(i) if s.ends_with(')') => (&s[..i], s[i + 1..s.len() - 1].trim()),
        _ => (s, ""),
    };
    let mut r = Rule::new(verdict, Tool::Bash, Vec::new(), n, a, &native);
    match kind {
        "Shell" => {
            if arg.is_empty() || arg == "*" || arg == "**" {
            } else if let Some(p) = arg.strip_suffix(":*") {
                r.patterns.push(pat(PatternKind::Prefix, p.trim()));
            } else if arg.contains('*') {
                r.patterns.push(pat(PatternKind::Glob, arg));
            } else if !arg.contains(char::is_whitespace) {
                // Cursor matches the command's base (its first word).
                r.patterns.push(pat(PatternKind::Prefix, arg));
            } else if verdict == Verdict::Allow {
                r.patterns.push(pat(PatternKind::Exact, arg));
                imp.inexact(n, a, b, r, format!("`{s}`: how Cursor matches a several-word Shell rule is not documented; allowed only as that exact command (stricter)"));
                return;
            } else {
                r.patterns.push(pat(PatternKind::Prefix, arg));
            }
        }
        "Read" | "Write" => {
            r.tool = if kind == "Read" {
                Tool::Read
            } else {
                Tool::Edit
            };
            if !(arg.is_empty() || arg == "**" || arg == "*" || arg == "**/*") {
                r.patterns.push(pat(PatternKind::Glob, arg));
            }
        }
        "WebFetch" => {
            r.tool = Tool::WebFetch;
            if !(arg.is_empty() || arg == "*") {
                if arg.contains('*') && verdict == Verdict::Allow {
                    imp.dropped(n, a, b, format!("allow `{s}` not imported: a wildcard domain allow is not expressible exactly"));
                    return;
                }
                let d = arg.strip_prefix("domain:").unwrap_or(arg);
                r.patterns
                    .push(pat(PatternKind::Glob, format!("domain:{d}")));
            }
        }
        "Mcp" => {
            let (server, tool) = match arg.split_once([':', ',']) {
                Some((x, y)) => (x.trim(), y.trim()),
                None => (arg, "*"),
            };
            if server.is_empty() || server.contains('*') {
                imp.needs_native = true;
                imp.dropped(n, a, b, format!("`{s}`: a wildcard MCP server cannot be named in polc; left to Cursor's engine"));
                return;
            }
            r.tool = Tool::Mcp(if tool == "*" {
                if verdict == Verdict::Allow {
                    format!("mcp__{server}__*")
                } else {
                    format!("mcp__{server}")
                }
            } else if tool.contains('*') {
                if verdict == Verdict::Allow {
                    imp.dropped(
                        n,
                        a,
                        b,
                        format!("allow `{s}` not imported: a partial tool wildcard"),
                    );
                    return;
                }
                format!("mcp__{server}")
            } else {
                format!("mcp__{server}__{tool}")
            });
        }
        _ => {
            if verdict == Verdict::Deny {
                imp.needs_native = true;
            }
            imp.dropped(n, a, b, format!("`{s}`: not a Cursor permission polc knows (Shell, Read, Write, WebFetch, Mcp); left to Cursor"));
            return;
        }
    }
    imp.rules.push(r);
}
