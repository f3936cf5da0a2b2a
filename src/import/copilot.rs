//! Copilot CLI: its permissions are flags of each run, so `polc import --from copilot --
//! FLAGS` takes them: `--allow-tool`/`--deny-tool` (`shell`, `shell(cmd)`, `shell(cmd:*)`,
//! `write`, `read`, `url(domain)`, `SERVER` or `SERVER(tool)` for MCP; comma-separated
//! lists), `--allow-url`/`--deny-url`, `--allow-all-tools`. A deny beats an allow. The
//! rules go to the project policy (flags are no user setting polc can see).

use super::{pat, Import, Native, Rule, Scope, Tool};
use crate::ir::{PatternKind, Verdict};
use crate::syntax::diag::SourceText;
use std::path::PathBuf;

pub fn import(flags: &[String], imp: &mut Import) {
    let text = flags.join(" ");
    let n = Native {
        path: PathBuf::from("<command line>"),
        scope: Scope::Project,
        src: SourceText::new("copilot flags", text),
        level: "command-line flags",
    };
    imp.files
        .push((n.src.name.clone(), Scope::Project, n.level));
    let mut at = 0;
    let mut i = 0;
    let offsets: Vec<usize> = flags
        .iter()
        .map(|f| {
            let o = at;
            at += f.len() + 1;
            o
        })
        .collect();
    while i < flags.len() {
        let f = &flags[i];
        let (flag, inline) = match f.split_once('=') {
            Some((a, b)) if a.starts_with("--") => (a, Some(b.to_string())),
            _ => (f.as_str(), None),
        };
        let start = offsets[i];
        let verdict = match flag {
            "--allow-tool" | "--allow-url" => Some(Verdict::Allow),
            "--deny-tool" | "--deny-url" => Some(Verdict::Deny),
            "--allow-all-tools" | "--allow-all" | "--yolo" => {
                imp.dropped(
                    &n,
                    start,
                    start + f.len(),
                    format!(
                        "`{f}` allows every tool: not imported (stricter); polc decides each call"
                    ),
                );
                i += 1;
                continue;
            }
            _ => None,
        };
        let Some(verdict) = verdict else {
            imp.warn(
                &n,
                start,
                start + f.len(),
                format!("`{f}` is not a permission flag: ignored"),
            );
            i += 1;
            continue;
        };
        let (value, vstart) = match inline {
            Some(v) => (v, start + flag.len() + 1),
            None => {
                i += 1;
                match flags.get(i) {
                    Some(v) => (v.clone(), offsets[i]),
                    None => {
                        imp.error(
                            &n,
                            start,
                            start + f.len(),
                            format!("`{flag}` needs a value"),
                            "Copilot CLI refuses to start",
                        );
                        return;
                    }
                }
            }
        };
        i += 1;
        let url = flag.ends_with("-url");
        let mut off = vstart;
        for item in split_list(&value) {
            let s = item.trim();
            let here = off + item.len() - item.trim_start().len();
            off += item.len() + 1;
            if s.is_empty() {
                continue;
            }
            if url {
                web(&n, imp, verdict, s, here, &format!("{flag} {s}"));
            } else {
                tool(&n, imp, verdict, s, here, &format!("{flag} {s}"));
            }
        }
    }
}

/// Split on commas outside parentheses.
fn split_list(v: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let (mut depth, mut last) = (0i32, 0);
    for (i, c) in v.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            ',' if depth == 0 => {
                out.push(&v[last..i]);
                last = i + 1;
            }
            _ => {}
        }
    }
    out.push(&v[last..]);
    out
}

fn web(n: &Native, imp: &mut Import, verdict: Verdict, s: &str, at: usize, native: &str) {
    let host = s
        .split("://")
        .last()
        .unwrap_or(s)
        .split(['/', ':'])
        .next()
        .unwrap_or(s);
    if host.contains('*') && verdict == Verdict::Allow {
        imp.dropped(
            n,
            at,
            at + s.len(),
            format!("`{s}`: a wildcard domain allow is not imported"),
        );
        return;
    }
    let mut r = Rule::new(
        verdict,
        Tool::WebFetch,
        vec![pat(PatternKind::Glob, format!("domain:{host}"))],
        n,
        at,
        native,
    );
    if host != s {
        if verdict == Verdict::Allow {
            imp.dropped(
                n,
                at,
                at + s.len(),
                format!("`{s}`: a URL allow narrower than its domain is not imported"),
            );
            return;
        }
        r.notes.push(format!(
            "`{s}`: denied for the whole domain {host} (stricter)"
        ));
    }
    imp.rules.push(r);
}

fn tool(n: &Native, imp: &mut Import, verdict: Verdict, s: &str, at: usize, native: &str) {
    let (kind, arg) = match s.find('(') {
        Some(i) if s.ends_with(')') => (&s[..i], Some(s[i + 1..s.len() - 1].trim())),
        _ => (s, None),
    };
    let mut r = Rule::new(verdict, Tool::Bash, Vec::new(), n, at, native);
    match (kind, arg) {
        ("shell", None) => {}
        ("shell", Some(c)) if c.is_empty() || c == "*" => {}
        ("shell", Some(c)) => {
            if let Some(p) = c.strip_suffix(":*") {
                r.patterns.push(pat(PatternKind::Prefix, p.trim()));
            } else if verdict == Verdict::Allow {
                r.patterns.push(pat(PatternKind::Exact, c));
                r.notes.push("read as that exact command (stricter); `shell(CMD:*)` allows what begins with CMD".into());
            } else {
                r.patterns.push(pat(PatternKind::Prefix, c));
            }
        }
        ("write", None) => r.tool = Tool::Edit,
        ("read", None) => r.tool = Tool::Read,
        ("write" | "read", Some(p)) => {
            r.tool = if kind == "write" {
                Tool::Edit
            } else {
                Tool::Read
            };
            r.patterns.push(pat(PatternKind::Glob, p));
        }
        ("url", Some(d)) => return web(n, imp, verdict, d, at, native),
        (server, tool) => {
            if server.is_empty()
                || !server
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
            {
                imp.warn(
                    n,
                    at,
                    at + s.len(),
                    format!("`{s}`: not a tool Copilot names; ignored"),
                );
                return;
            }
            r.tool = Tool::Mcp(match tool {
                None | Some("*") | Some("") => {
                    if verdict == Verdict::Allow {
                        format!("mcp__{server}__*")
                    } else {
                        format!("mcp__{server}")
                    }
                }
                Some(t) => format!("mcp__{server}__{t}"),
            });
        }
    }
    imp.rules.push(r);
}
