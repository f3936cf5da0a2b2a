//! `polc explain`: the decision, the winning rule with its file:line, each segment, and why
//! every other matching rule lost.

use super::{command_text, default_sources, Format};
use crate::ir::Tier;
use crate::runtime::entry::{self, Call, Failure};
use crate::runtime::layers::{Layers, Union};
use crate::runtime::protect::Guarded;
use crate::runtime::table_rules::TableRules;
use crate::runtime::{decide, why_lost, Cause, Outcome, Request, RuleFacts};
use crate::tools;
use serde_json::json;
use std::path::{Path, PathBuf};

pub fn explain(
    table: Option<PathBuf>,
    policy: &[PathBuf],
    host: &str,
    tool: &str,
    format: Format,
    command: &[String],
) -> i32 {
    if !crate::hosts::is_known_host(host) {
        eprintln!(
            "polc: unknown host `{host}` (known: {})",
            crate::hosts::known_hosts_list()
        );
        return 2;
    }
    let req = request(tool, &command_text(command));
    // With --policy (or no compiled table), compile the sources in memory.
    let use_sources =
        !policy.is_empty() || (table.is_none() && !Path::new("compiled/policy.bin").exists());
    if use_sources {
        explain_sources(policy, host, format, &req)
    } else {
        explain_tables(table, host, format, &req)
    }
}

/// The request for `tool` (agents' tool names are accepted too: `Read`,
/// `run_shell_command`, `WebFetch`, …) with `text` as its command or main argument.
fn request(tool: &str, text: &str) -> Request {
    if tool == tools::BASH || tools::is_shell(tool) {
        Request::Bash {
            command: text.to_string(),
        }
    } else {
        Request::Tool {
            tool: tools::canonical(tool),
            subject: text.to_string(),
            input_text: text.to_string(),
            name: tool.to_string(),
        }
    }
}

/// Explain from policy sources compiled in memory (no layers, no self-protection).
fn explain_sources(policy: &[PathBuf], host: &str, format: Format, req: &Request) -> i32 {
    if policy.is_empty() && std::fs::symlink_metadata("policies").is_err() {
        return nothing_to_explain();
    }
    let sources = default_sources(policy);
    let (pol, _) = match crate::lower::load(&sources, Tier::Project, None) {
        Ok(x) => x,
        Err(d) => {
            eprint!("{}", d.render_all());
            return 1;
        }
    };
    let compiled = match crate::compile::compile(&pol) {
        Ok(c) => c,
        Err(e) => {
            eprintln!(
                "polc: {} pattern(s) cannot be compiled; run `polc build` for details",
                e.len()
            );
            return 1;
        }
    };
    let Ok(rules) = TableRules::new(|k| compiled.section(k)) else {
        return 2;
    };
    let out = match decide(&rules, host, req) {
        Ok(o) => o,
        Err(c) => return corrupt(Some(c)),
    };
    let code = report(&rules, out, host, format, None, &[]);
    if let (Request::Bash { command }, Format::Text) = (req, format) {
        let ctx = crate::runtime::Context::from_env();
        if let Some(f) = crate::host::rewrite::find_in(|k| compiled.section(k), host, command, &ctx)
        {
            let r = Request::Bash {
                command: f.command.clone(),
            };
            if let Ok(o) = decide(&rules, host, &r) {
                rewrite_note(&f, o.decision, &crate::host::after::reason_of(&rules, o));
            }
        }
    }
    code
}

/// What a rewrite rule makes of the command (src/session/README.md#rewrites).
fn rewrite_note(f: &crate::host::rewrite::Found, d: crate::ir::Decision, why: &str) {
    println!(
        "rewrite: rule {} ({}) `{}` makes it `{}`",
        f.id, f.at, f.text, f.command
    );
    let used = if d == crate::ir::Decision::Allow {
        format!(
            "the hook answers allow with the rewritten input where the host runs it (Claude Code PreToolUse in {}); elsewhere it decides the original above",
            crate::host::rewrite::CLAUDE_REWRITE_MODES.join(", ")
        )
    } else {
        "not allowed, so the hook decides the original above".to_string()
    };
    println!("  the rewritten command: {} ({why}); {used}", d.as_str());
}

/// Explain with the layered tables, as the hook decides (self-protection included).
fn explain_tables(table: Option<PathBuf>, host: &str, format: Format, req: &Request) -> i32 {
    let layers = Layers::discover(
        Some(table.unwrap_or_else(|| PathBuf::from("compiled/policy.bin"))),
        None,
    );
    let cwd = std::env::current_dir().unwrap_or_else(|_| layers.project_root.clone());
    let call = Call {
        host,
        request: req,
        also: &[],
        unattestable: None,
        cwd: &cwd,
    };
    let d = entry::decide(&layers, &call);
    let j = match (&d.failure, d.judged) {
        (Some(Failure::NoTable), _) => return nothing_to_explain(),
        (Some(Failure::Unusable(why) | Failure::Changed(why)), _) => {
            eprintln!("polc: {why}");
            println!("decision: deny (the table cannot be used: {why})");
            return 2;
        }
        (Some(Failure::Corrupt(c)), _) => {
            eprintln!("polc: {c}");
            println!("decision: deny ({c})");
            return 2;
        }
        (_, None) => return corrupt(None),
        (None, Some(j)) => j,
    };
    // A table built with `--from HOST` holds a snapshot of the agent's rules: say when they
    // have changed since.
    for l in &d.loaded {
        for m in super::import::drift(&l.table.meta().sources) {
            eprintln!("note: {}: {m}", l.spec.path.display());
        }
    }
    let u = match Union::new(&d.loaded) {
        Ok(u) => u,
        Err(c) => return corrupt(Some(c)),
    };
    // explain is run by a person: show the table's allows even when untrusted, but say so.
    let untrusted: Vec<String> = d
        .loaded
        .iter()
        .filter(|l| !l.trusted)
        .map(|l| l.spec.path.display().to_string())
        .collect();
    // An untrusted table's allows are ignored by the decision, but a person asking "why not
    // allowed?" must see that a rule matched: decide again as if every layer were trusted
    // and name the allow rules of untrusted layers that matched.
    let mut would_allow = Vec::new();
    if !untrusted.is_empty() {
        if let Ok(all) = Union::as_if_trusted(&d.loaded) {
            if let Ok(o) = entry::judge_roots(&all, &d.loaded, &layers, &call) {
                for h in &o.outcome.hits {
                    if h.verdict == crate::ir::Verdict::Allow
                        && !u.trusted(h.rule)
                        && !would_allow.contains(&h.rule)
                    {
                        would_allow.push(h.rule);
                    }
                }
            }
        }
    }
    // Self-protection is named when it decides.
    let g = Guarded {
        inner: &u,
        finding: j.finding,
    };
    let original = j.outcome.decision;
    let code = report(&g, j.outcome, host, format, Some(untrusted), &would_allow);
    if let (Request::Bash { command }, Format::Text) = (req, format) {
        let ctx = crate::runtime::Context::from_env();
        let found = (original != crate::ir::Decision::Deny)
            .then(|| crate::host::rewrite::find(&d.loaded, host, command, &ctx))
            .flatten();
        if let Some(f) = found {
            let r = Request::Bash {
                command: f.command.clone(),
            };
            let call = Call {
                request: &r,
                ..call
            };
            let d2 = entry::decide(&layers, &call);
            let why = d2
                .judged
                .as_ref()
                .map(crate::host::hook::judged_reason)
                .unwrap_or_default();
            rewrite_note(&f, d2.decision, &why);
        }
    }
    code
}

fn rule_json(src: &dyn RuleFacts, rule: u32) -> serde_json::Value {
    match src.describe(rule) {
        Ok(d) => json!({
            "id": d.id, "verdict": d.verdict.as_str(), "tool": d.tool, "source": d.source,
            "line": d.line, "column": d.column, "text": d.text, "reason": d.reason,
        }),
        Err(_) => serde_json::Value::Null,
    }
}

/// No table and no `policies/`: say what was looked for and how to start, instead of a
/// read error on a folder the person never made.
fn nothing_to_explain() -> i32 {
    eprintln!(
        "polc: nothing to explain with: no compiled table (looked for compiled/policy.bin and .polc/policy.bin in {}) and no policies/ folder.\n\
         To start: `polc init --host claude` (wires the hook), write rules in policies/*.pol and run `polc build`;\n\
         or decide from a file directly: `polc explain --policy FILE -- COMMAND`.",
        std::env::current_dir()
            .map(|d| d.display().to_string())
            .unwrap_or_else(|_| ".".into())
    );
    1
}

/// The cause with rules named by id (never a number: the self-protection rule has no table
/// number), and every field present.
fn cause_json(src: &dyn RuleFacts, cause: &Cause) -> serde_json::Value {
    let id = |r: u32| {
        src.describe(r)
            .map(|d| serde_json::Value::String(d.id))
            .unwrap_or(serde_json::Value::Null)
    };
    let (kind, rule, construct) = match cause {
        Cause::Rule { rule } => ("rule", id(*rule), None),
        Cause::PossibleDeny { rule } => ("possible_deny", id(*rule), None),
        Cause::Unattestable { construct } => {
            ("unattestable", serde_json::Value::Null, Some(construct))
        }
        Cause::NoRule => ("no_rule", serde_json::Value::Null, None),
    };
    json!({"kind": kind, "rule": rule, "construct": construct})
}

/// A table whose bytes do not hold together (where, when known).
fn corrupt(at: Option<crate::runtime::Corrupt>) -> i32 {
    match at {
        Some(c) => eprintln!("polc: the table is corrupt ({c}): run `polc build`"),
        None => eprintln!("polc: the table is corrupt: run `polc build`"),
    }
    2
}

fn report(
    src: &dyn RuleFacts,
    out: Outcome,
    host: &str,
    format: Format,
    untrusted: Option<Vec<String>>,
    would_allow: &[u32],
) -> i32 {
    let mut lost = Vec::new();
    for h in &out.hits {
        if Some(h.rule) == out.winner {
            continue;
        }
        let why = why_lost(src, &out, h).unwrap_or_else(|_| "?".into());
        lost.push((h, why));
    }
    let untrusted = untrusted.unwrap_or_default();
    match format {
        Format::Json => report_json(src, &out, host, &lost, &untrusted, would_allow),
        Format::Text => report_text(src, &out, &lost, &untrusted, would_allow),
    }
    match out.decision {
        crate::ir::Decision::Deny => 2,
        _ => 0,
    }
}

/// Rules that matched and did not win, each with why.
type Lost<'a> = [(&'a crate::runtime::Hit, String)];

fn report_json(
    src: &dyn RuleFacts,
    out: &Outcome,
    host: &str,
    lost: &Lost<'_>,
    untrusted: &[String],
    would_allow: &[u32],
) {
    let v = json!({
        "decision": out.decision.as_str(),
        "host": host,
        "cause": cause_json(src, &out.cause),
        "winner": out.winner.map(|w| rule_json(src, w)).unwrap_or(serde_json::Value::Null),
        "segments": out.segments.iter().map(|s| json!({
            "text": s.text, "verdict": s.decision.as_str(), "depth": s.depth,
            "unattestable": s.unattestable, "deny_only": s.deny_only,
        })).collect::<Vec<_>>(),
        "matched": lost.iter().map(|(h, why)| json!({
            "rule": rule_json(src, h.rule), "segment": h.segment, "possible": h.possible, "lost_because": why,
        })).collect::<Vec<_>>(),
        "unattestable": out.unattestable,
        "untrusted_tables": untrusted,
        "would_allow_once_trusted": would_allow.iter().map(|r| rule_json(src, *r)).collect::<Vec<_>>(),
    });
    println!("{}", serde_json::to_string_pretty(&v).unwrap_or_default());
}

fn report_text(
    src: &dyn RuleFacts,
    out: &Outcome,
    lost: &Lost<'_>,
    untrusted: &[String],
    would_allow: &[u32],
) {
    println!("decision: {}", out.decision);
    match (&out.cause, out.winner.and_then(|w| src.describe(w).ok())) {
        (Cause::PossibleDeny { .. }, Some(d)) => {
            println!(
                "because:  a word polc cannot know could make deny rule `{}` match",
                d.id
            );
            print_rule(&d);
        }
        (_, Some(d)) => {
            println!("winner:   {} ({})", d.id, d.verdict);
            print_rule(&d);
        }
        (Cause::Unattestable { construct }, None) => {
            println!("because:  polc cannot attest this command: {construct}");
        }
        _ => println!("because:  no rule allows every segment; the host's own default applies"),
    }
    if !out.segments.is_empty() {
        println!("segments:");
        for s in &out.segments {
            let extra = if s.unattestable.is_empty() {
                String::new()
            } else {
                format!("  (unattestable: {})", s.unattestable.join(", "))
            };
            let pad = "  ".repeat(s.depth as usize);
            let note = if s.deny_only {
                " [\\r read as a line break]"
            } else {
                ""
            };
            println!("  {pad}[{}] {}{extra}{note}", s.decision, s.text);
        }
    }
    if !lost.is_empty() {
        println!("also matched:");
        // One line per rule (a rule can match several segments and the whole command).
        let mut shown: Vec<(u32, bool)> = Vec::new();
        for (h, why) in lost {
            if shown.contains(&(h.rule, h.possible)) {
                continue;
            }
            shown.push((h.rule, h.possible));
            if let Ok(d) = src.describe(h.rule) {
                let possibly = if h.possible { " (possibly)" } else { "" };
                println!(
                    "  {} ({}{possibly}) {}:{}:{} — {why}",
                    d.id, d.verdict, d.source, d.line, d.column
                );
            }
        }
    }
    for r in would_allow {
        if let Ok(d) = src.describe(*r) {
            println!(
                "would allow once trusted: rule {} ({}:{})",
                d.id, d.source, d.line
            );
        }
    }
    for t in untrusted {
        println!("note: {t} is not trusted for this project: its allow rules are ignored (run `polc trust`)");
    }
}

fn print_rule(d: &crate::runtime::RuleDesc) {
    println!("          {}:{}:{}", d.source, d.line, d.column);
    println!("          {}", d.text);
    if let Some(r) = &d.reason {
        println!("reason:   {r}");
    }
}
