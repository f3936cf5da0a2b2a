//! `polc build` / `polc test`: sequence rules' examples, each a new session run through the
//! same code as the hook (an in-memory state), and the per-host warnings.

use crate::compile::Compiled;
use crate::ir::session::SeqExample;
use crate::ir::{Decision, Policy};
use crate::runtime::table_rules::TableRules;
use crate::runtime::{decide, Request};
use crate::session::check::{self, CallInfo, Features};
use crate::session::record::State;
use crate::syntax::diag::{Diagnostic, Diagnostics, Severity};

/// A failed sequence example.
pub struct Failure<'a> {
    pub example: &'a SeqExample,
    pub got: Decision,
    pub detail: String,
}

/// Runs one example's calls in a new session; the last call's decision and its reason.
pub fn run_calls(
    rules: &TableRules<'_>,
    f: &Features<'_>,
    calls: &[String],
    host: &str,
) -> (Decision, String) {
    let ctx = crate::runtime::Context::from_env();
    let mut st = State::default();
    let mut last = (Decision::Default, String::new());
    for cmd in calls {
        let req = Request::Bash {
            command: cmd.clone(),
        };
        let d = match decide(rules, host, &req) {
            Ok(out) => (out.decision, crate::host::after::reason_of(rules, out)),
            Err(_) => (Decision::Deny, "table corrupt".into()),
        };
        let reqs = [&req];
        let info = CallInfo::offline(host, &reqs, &ctx);
        match check::apply(f, &st, &info, d, cmd.clone()) {
            Ok(v) => {
                let _ = st.apply(&v.call.line('p'));
                last = (v.decision, v.reason);
            }
            Err(why) => return (Decision::Deny, why.to_string()),
        }
    }
    last
}

/// What the hook makes of a rewrite example's input in a Claude Code PreToolUse (the rewrite
/// applies where it does): the rewritten command when the policy allows it, else the input.
pub fn rewritten(rules: &TableRules<'_>, compiled: &Compiled, input: &str, host: &str) -> String {
    let ctx = crate::runtime::Context::from_env();
    let orig = Request::Bash {
        command: input.to_string(),
    };
    if decide(rules, host, &orig).map_or(true, |o| o.decision == Decision::Deny) {
        return input.to_string();
    }
    let Some(f) = crate::host::rewrite::find_in(|k| compiled.section(k), host, input, &ctx) else {
        return input.to_string();
    };
    let req = Request::Bash {
        command: f.command.clone(),
    };
    match decide(rules, host, &req) {
        Ok(o) if o.decision == Decision::Allow => f.command,
        _ => input.to_string(),
    }
}

/// Every rewrite example: (how many, the failures as diagnostics).
pub fn check_rewrites(policy: &Policy, compiled: &Compiled) -> (usize, Diagnostics) {
    let mut d = Diagnostics::new();
    let mut n = 0;
    let Ok(rules) = TableRules::new(|k| compiled.section(k)) else {
        return (0, d);
    };
    for r in &policy.session.rewrites {
        for e in &r.examples {
            n += 1;
            let host = e.host.as_deref().unwrap_or("claude");
            let got = rewritten(&rules, compiled, &e.input, host);
            if got != e.expect {
                d.push(Diagnostic {
                    severity: Severity::Error,
                    code: crate::syntax::codes::E021,
                    message: format!(
                        "rewrite example {:?} expected {:?}, got {got:?}",
                        e.input, e.expect
                    ),
                    span: e.span.clone(),
                    len: 7,
                    line_text: String::new(),
                    help: Some(format!(
                        "rule `{}`: the hook answers with the rewrite only when the whole policy allows the rewritten command",
                        r.id
                    )),
                });
            }
        }
    }
    (n, d)
}

/// Every sequence example of the policy; (how many, the failures).
pub fn check<'a>(policy: &'a Policy, compiled: &Compiled) -> (usize, Vec<Failure<'a>>) {
    let mut fails = Vec::new();
    let mut n = 0;
    let Ok(rules) = TableRules::new(|k| compiled.section(k)) else {
        return (0, fails);
    };
    let mut f = Features::default();
    if let Err(why) = f.add(|k| compiled.section(k)) {
        for s in &policy.session.sequences {
            for e in &s.examples {
                fails.push(Failure {
                    example: e,
                    got: Decision::Deny,
                    detail: why.to_string(),
                });
            }
        }
        return (0, fails);
    }
    for s in &policy.session.sequences {
        for e in &s.examples {
            n += 1;
            let host = e.host.as_deref().unwrap_or("claude");
            let (got, why) = run_calls(&rules, &f, &e.calls, host);
            if got != e.expect {
                fails.push(Failure {
                    example: e,
                    got,
                    detail: why,
                });
            }
        }
    }
    (n, fails)
}

/// Warnings: hosts where a sequence rule's interrupt is a plain deny, and `polc decide`
/// callers, which keep a session only with `--session`.
pub fn warnings(policy: &Policy) -> Diagnostics {
    let mut d = Diagnostics::new();
    for s in &policy.session.sequences {
        let hosts: Vec<&str> = if s.hosts.is_empty() {
            crate::ir::CLAUDE_AUTHORITY_HOSTS
                .iter()
                .chain(crate::ir::HOST_AUTHORITATIVE_HOSTS)
                .copied()
                .collect()
        } else {
            s.hosts.iter().map(String::as_str).collect()
        };
        let no_state: Vec<&str> = hosts
            .iter()
            .copied()
            .filter(|h| !crate::host::HOOK_HOSTS.contains(h))
            .collect();
        let no_int: Vec<&str> = hosts
            .iter()
            .copied()
            .filter(|h| {
                crate::host::HOOK_HOSTS.contains(h) && !crate::host::after::can_interrupt(h)
            })
            .collect();
        let mut push = |msg: String| {
            d.push(Diagnostic {
                severity: Severity::Warning,
                code: crate::syntax::codes::W006,
                message: msg,
                span: s.span.clone(),
                len: 4,
                line_text: s.text.clone(),
                help: None,
            })
        };
        if s.interrupt && !no_int.is_empty() {
            push(format!(
                "sequence `{}`: {} cannot end the agent's turn; there the interrupt is a plain deny",
                s.id,
                no_int.join(", ")
            ));
        }
        if !no_state.is_empty() {
            push(format!(
                "sequence `{}`: the plugin callers of `polc decide` ({}) keep a session only when they pass `--session ID`; without it the sequence does not apply there",
                s.id,
                no_state.join(", ")
            ));
        }
    }
    d
}

/// For `polc build` and `polc test`: prints warnings and failures; how many sequence
/// examples passed, `None` when any failed.
pub fn gate(
    policy: &Policy,
    compiled: &Compiled,
    gh: Option<&crate::cli::annotate::Sink>,
) -> Option<usize> {
    let w = warnings(policy);
    if !w.0.is_empty() {
        eprint!("{}", w.render_all());
        if let Some(sink) = gh {
            sink.diags(&w);
        }
    }
    let (n, fails) = check(policy, compiled);
    let (nr, rw) = check_rewrites(policy, compiled);
    if !rw.0.is_empty() {
        eprint!("{}", rw.render_all());
        if let Some(sink) = gh {
            sink.diags(&rw);
        }
        eprintln!("error: {} of {nr} rewrite example(s) failed", rw.0.len());
        return None;
    }
    if fails.is_empty() {
        return Some(n + nr);
    }
    let diags = Diagnostics(
        fails
            .iter()
            .map(|f| Diagnostic {
                severity: Severity::Error,
                code: crate::syntax::codes::E021,
                message: format!(
                    "sequence example {} expected {}, got {}",
                    f.example
                        .calls
                        .iter()
                        .map(|c| format!("{c:?}"))
                        .collect::<Vec<_>>()
                        .join(" then "),
                    f.example.expect,
                    f.got
                ),
                span: f.example.span.clone(),
                len: 7,
                line_text: String::new(),
                help: Some(f.detail.clone()),
            })
            .collect(),
    );
    eprint!("{}", diags.render_all());
    if let Some(sink) = gh {
        sink.diags(&diags);
    }
    eprintln!("error: {} of {n} sequence example(s) failed", fails.len());
    None
}

/// `polc test --format json`: every sequence and rewrite example with its result, and how
/// many failed.
pub fn json(policy: &Policy, compiled: &Compiled) -> (serde_json::Value, usize) {
    let (_, fails) = check(policy, compiled);
    let mut failed = fails.len();
    let seqs: Vec<serde_json::Value> = policy
        .session
        .sequences
        .iter()
        .flat_map(|s| s.examples.iter().map(move |e| (s, e)))
        .map(|(s, e)| {
            let f = fails.iter().find(|f| std::ptr::eq(f.example, e));
            serde_json::json!({
                "rule": s.id, "file": e.span.file, "line": e.span.line, "column": e.span.column,
                "calls": e.calls, "host": e.host, "expect": e.expect.as_str(),
                "got": f.map(|f| f.got.as_str()).unwrap_or(e.expect.as_str()),
                "ok": f.is_none(), "detail": f.map(|f| f.detail.clone()),
            })
        })
        .collect();
    let rules = TableRules::new(|k| compiled.section(k)).ok();
    let rws: Vec<serde_json::Value> = policy
        .session
        .rewrites
        .iter()
        .flat_map(|r| r.examples.iter().map(move |e| (r, e)))
        .map(|(r, e)| {
            let host = e.host.as_deref().unwrap_or("claude");
            let got = rules
                .as_ref()
                .map(|t| rewritten(t, compiled, &e.input, host))
                .unwrap_or_default();
            let ok = got == e.expect;
            failed += usize::from(!ok);
            serde_json::json!({
                "rule": r.id, "file": e.span.file, "line": e.span.line, "column": e.span.column,
                "input": e.input, "host": e.host, "expect": e.expect, "got": got, "ok": ok,
            })
        })
        .collect();
    (
        serde_json::json!({"sequences": seqs, "rewrites": rws}),
        failed,
    )
}
