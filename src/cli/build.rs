//! `polc build` and `polc test`.

use super::annotate::{Finding, Sink};
use super::{default_sources, Report};
use crate::compile::{self, Compiled};
use crate::ir::{Decision, Example, Policy, Tier};
use crate::runtime::table_rules::TableRules;
use crate::runtime::{decide, Request};
use crate::syntax::diag::{Diagnostic, Diagnostics, Severity};
use crate::tools;
use crate::{lower, table};
use std::path::{Path, PathBuf};

/// Load and compile, printing diagnostics; None when anything is wrong.
/// `gh`: also print each finding as a GitHub Actions annotation, titled `polc TOOL CODE`.
fn load_and_compile(
    sources: &[PathBuf],
    stamp_base: Option<&Path>,
    gh: Option<&Sink>,
) -> Option<(Policy, Compiled)> {
    load_and_compile_with(sources, &[], stamp_base, gh)
}

/// [`load_and_compile`] with in-memory sources (`build --from HOST`).
fn load_and_compile_with(
    sources: &[PathBuf],
    texts: &[(String, String)],
    stamp_base: Option<&Path>,
    gh: Option<&Sink>,
) -> Option<(Policy, Compiled)> {
    let policy = match lower::load_with_texts(sources, texts, Tier::Project, stamp_base) {
        Ok((p, warnings)) => {
            if !warnings.0.is_empty() {
                eprint!("{}", warnings.render_all());
                if let Some(sink) = gh {
                    sink.diags(&warnings);
                }
            }
            p
        }
        Err(diags) => {
            eprint!("{}", diags.render_all());
            if let Some(sink) = gh {
                sink.diags(&diags);
            }
            let n = diags
                .0
                .iter()
                .filter(|d| matches!(d.severity, Severity::Error))
                .count();
            eprintln!("error: {n} error(s); nothing written");
            return None;
        }
    };
    match compile::compile(&policy) {
        Ok(c) => Some((policy, c)),
        Err(errs) => {
            let diags = Diagnostics(
                errs.iter()
                    .map(|e| {
                        let Some(rule) = policy.rules.get(e.rule) else {
                            return Diagnostic {
                                severity: Severity::Error,
                                code: crate::syntax::codes::E020,
                                message: e.message.clone(),
                                span: crate::ir::Span::default(),
                                len: 1,
                                line_text: String::new(),
                                help: None,
                            };
                        };
                        Diagnostic {
                            severity: Severity::Error,
                            code: crate::syntax::codes::E020,
                            message: format!("regex `{}` cannot be compiled: {}", rule.patterns[e.pattern].text, e.message),
                            span: rule.span.clone(),
                            len: 1,
                            line_text: rule.text.clone(),
                            help: Some("polc regexes compile to a size-capped DFA: no look-around or backreferences".into()),
                        }
                    })
                    .collect(),
            );
            eprint!("{}", diags.render_all());
            if let Some(sink) = gh {
                sink.diags(&diags);
            }
            eprintln!("error: {} error(s); nothing written", errs.len());
            None
        }
    }
}

/// A failed example: where it is and what it got.
pub struct ExampleFailure<'a> {
    pub example: &'a Example,
    pub got: Decision,
    pub detail: String,
}

/// Run every example against the compiled sections (what the hook will read).
pub fn check_examples<'a>(
    policy: &'a Policy,
    compiled: &Compiled,
) -> (usize, Vec<ExampleFailure<'a>>) {
    let mut failures = Vec::new();
    let rules = match TableRules::new(|k| compiled.section(k)) {
        Ok(r) => r,
        Err(_) => return (0, failures),
    };
    for ex in &policy.examples {
        let req = if ex.tool == tools::BASH {
            Request::Bash {
                command: ex.input.clone(),
            }
        } else {
            Request::Tool {
                tool: ex.tool.clone(),
                subject: ex.input.clone(),
                input_text: ex.input.clone(),
                name: ex.tool.clone(),
            }
        };
        let host = ex.host.as_deref().unwrap_or("claude");
        match decide(&rules, host, &req) {
            Ok(out) => {
                if out.decision != ex.expect {
                    let detail = match out
                        .winner
                        .and_then(|w| crate::runtime::RuleFacts::describe(&rules, w).ok())
                    {
                        Some(d) => {
                            format!("decided by {} ({}:{}): {}", d.id, d.source, d.line, d.text)
                        }
                        None => match &out.cause {
                            crate::runtime::Cause::Unattestable { construct } => {
                                format!("unattestable: {construct}")
                            }
                            _ => "no rule matched every segment".into(),
                        },
                    };
                    failures.push(ExampleFailure {
                        example: ex,
                        got: out.decision,
                        detail,
                    });
                }
            }
            Err(_) => failures.push(ExampleFailure {
                example: ex,
                got: Decision::Deny,
                detail: "table corrupt".into(),
            }),
        }
    }
    (policy.examples.len(), failures)
}

fn print_failures(fails: &[ExampleFailure<'_>], gh: Option<&Sink>) {
    let diags = Diagnostics(
        fails
            .iter()
            .map(|f| {
                let ex = f.example;
                let host = ex
                    .host
                    .as_deref()
                    .map(|h| format!(" on {h}"))
                    .unwrap_or_default();
                let line_text = std::fs::read_to_string(&ex.span.file)
                    .ok()
                    .and_then(|t| {
                        t.lines()
                            .nth(ex.span.line.saturating_sub(1) as usize)
                            .map(str::to_string)
                    })
                    .unwrap_or_default();
                Diagnostic {
                    severity: Severity::Error,
                    code: crate::syntax::codes::E021,
                    message: format!(
                        "example `{} {:?}`{host} expected {}, got {}",
                        ex.tool, ex.input, ex.expect, f.got
                    ),
                    span: ex.span.clone(),
                    len: 7,
                    line_text,
                    help: Some(f.detail.clone()),
                }
            })
            .collect(),
    );
    eprint!("{}", diags.render_all());
    if let Some(sink) = gh {
        sink.diags(&diags);
    }
}

pub fn build(
    sources: &[PathBuf],
    output: &Path,
    check: bool,
    format: Report,
    from: Option<&str>,
) -> i32 {
    let sink = Sink::new("build", format);
    let gh = sink.as_ref();
    // `--from HOST`: the agent's native rules, imported now (a snapshot: not a source the
    // table's freshness check follows; `polc explain` and `polc lint` report drift).
    let mut texts = Vec::new();
    let sources = match from {
        None => default_sources(sources),
        Some(host) => {
            match super::import::native_source(host, output) {
                Ok(t) => texts.push(t),
                Err(code) => return code,
            }
            if sources.is_empty() && !Path::new("policies").exists() {
                Vec::new()
            } else {
                default_sources(sources)
            }
        }
    };
    let out_dir = output
        .parent()
        .map(|p| {
            if p.as_os_str().is_empty() {
                Path::new(".")
            } else {
                p
            }
        })
        .unwrap_or(Path::new("."));
    let base = std::fs::create_dir_all(out_dir)
        .ok()
        .and_then(|_| out_dir.canonicalize().ok());
    let Some((policy, compiled)) = load_and_compile_with(&sources, &texts, base.as_deref(), gh)
    else {
        return 1;
    };
    let (n, fails) = check_examples(&policy, &compiled);
    if !fails.is_empty() {
        print_failures(&fails, gh);
        eprintln!(
            "error: {} of {n} example(s) failed; nothing written",
            fails.len()
        );
        return 1;
    }
    let Some(seq_examples) = crate::cli::session_examples::gate(&policy, &compiled, gh) else {
        eprintln!("nothing written");
        return 1;
    };
    let sections: Vec<(u32, &[u8])> = compiled
        .sections
        .iter()
        .map(|(k, v)| (*k, v.as_slice()))
        .collect();
    let bytes = table::encode(&policy.sources, &compiled.counts, &sections);
    if bytes.len() as u64 > table::MAX_TABLE_BYTES {
        // The hook refuses tables over the cap; do not write one it would refuse.
        eprintln!(
            "error: the table would be {} bytes, over the {}-byte cap; split or simplify the policy; nothing written",
            bytes.len(),
            table::MAX_TABLE_BYTES
        );
        return 1;
    }
    if check {
        return check_table(output, &bytes, policy.rules.len(), gh);
    }
    let was_trusted = super::trust::previously_trusted(output);
    if let Err(e) = table::write_atomic(output, &bytes) {
        eprintln!("error: cannot write {}: {e}", output.display());
        return 1;
    }
    eprintln!(
        "compiled {} rule(s) and {} example(s) from {} file(s) into {} ({} bytes)",
        policy.rules.len(),
        n + seq_examples,
        policy
            .sources
            .iter()
            .filter(|s| s.size != crate::ir::DIR_STAMP)
            .count(),
        output.display(),
        bytes.len()
    );
    super::trust::offer_retrust(output, was_trusted);
    0
}

/// `build --check`: is `output` exactly `bytes`? 0 if so, 1 (with a finding) if not.
fn check_table(output: &Path, bytes: &[u8], rules: usize, gh: Option<&Sink>) -> i32 {
    match std::fs::read(output) {
        Ok(existing) if existing == bytes => {
            eprintln!("{} is up to date ({} rules)", output.display(), rules);
            0
        }
        Ok(_) => {
            eprintln!(
                "error: {} is not what the sources compile to: run `polc build`",
                output.display()
            );
            if let Some(sink) = gh {
                sink.finding(Finding {
                    severity: Severity::Error,
                    file: output.display().to_string(),
                    line: 0,
                    col: 0,
                    rule: "--check".into(),
                    message: "the table is not what the sources compile to: run `polc build` and commit it".into(),
                });
            }
            1
        }
        Err(e) => {
            eprintln!(
                "error: cannot read {}: {e}; run `polc build`",
                output.display()
            );
            1
        }
    }
}

/// `polc test --format json`: every example with its outcome.
fn test_json(
    policy: &Policy,
    compiled: &crate::compile::Compiled,
    n: usize,
    fails: &[ExampleFailure<'_>],
) -> i32 {
    let examples: Vec<serde_json::Value> = policy
        .examples
        .iter()
        .map(|ex| {
            let f = fails.iter().find(|f| std::ptr::eq(f.example, ex));
            serde_json::json!({
                "file": ex.span.file, "line": ex.span.line, "column": ex.span.column,
                "tool": ex.tool, "input": ex.input, "host": ex.host,
                "expect": ex.expect.as_str(),
                "got": f.map(|f| f.got.as_str()).unwrap_or(ex.expect.as_str()),
                "ok": f.is_none(),
                "detail": f.map(|f| f.detail.clone()),
            })
        })
        .collect();
    // Session examples (src/session/README.md): sequences and rewrites, each a result.
    let (session, session_failed) = crate::cli::session_examples::json(policy, compiled);
    let v = serde_json::json!({
        "passed": n - fails.len(), "failed": fails.len(), "examples": examples,
        "sequences": session["sequences"], "rewrites": session["rewrites"],
        "session_failed": session_failed,
    });
    println!("{}", serde_json::to_string_pretty(&v).unwrap_or_default());
    i32::from(!fails.is_empty() || session_failed > 0)
}

pub fn test(sources: &[PathBuf], format: Report) -> i32 {
    let sources = default_sources(sources);
    let sink = Sink::new("test", format);
    let gh = sink.as_ref();
    let Some((policy, compiled)) = load_and_compile(&sources, None, gh) else {
        return 1;
    };
    let (n, fails) = check_examples(&policy, &compiled);
    if format == Report::Json {
        return test_json(&policy, &compiled, n, &fails);
    }
    if let Some(sink) = gh {
        for f in &fails {
            let ex = f.example;
            let host = ex
                .host
                .as_deref()
                .map(|h| format!(" on {h}"))
                .unwrap_or_default();
            sink.finding(Finding {
                severity: Severity::Error,
                file: ex.span.file.clone(),
                line: ex.span.line,
                col: ex.span.column,
                rule: crate::syntax::codes::E021.as_str().into(),
                message: format!(
                    "example `{} {:?}`{host} expected {}, got {}\n{}",
                    ex.tool, ex.input, ex.expect, f.got, f.detail
                ),
            });
        }
    }
    // With SARIF, stdout holds only the document: the per-example lines go to stderr.
    let say = |line: String| {
        if format == Report::Sarif {
            eprintln!("{line}");
        } else {
            println!("{line}");
        }
    };
    for ex in &policy.examples {
        let failed = fails.iter().any(|f| std::ptr::eq(f.example, ex));
        if !failed {
            let host = ex
                .host
                .as_deref()
                .map(|h| format!(" on {h}"))
                .unwrap_or_default();
            say(format!(
                "ok   {}: {} {:?}{} => {}",
                ex.span, ex.tool, ex.input, host, ex.expect
            ));
        }
    }
    for f in &fails {
        let host = f
            .example
            .host
            .as_deref()
            .map(|h| format!(" on {h}"))
            .unwrap_or_default();
        say(format!(
            "FAIL {}: {} {:?}{} expected {}, got {} ({})",
            f.example.span,
            f.example.tool,
            f.example.input,
            host,
            f.example.expect,
            f.got,
            f.detail
        ));
    }
    say(format!(
        "{} passed, {} failed",
        n - fails.len(),
        fails.len()
    ));
    let seq = crate::cli::session_examples::gate(&policy, &compiled, gh);
    if let Some(k) = seq.filter(|k| *k > 0) {
        say(format!("{k} sequence example(s) passed"));
    }
    if fails.is_empty() && seq.is_some() {
        0
    } else {
        1
    }
}
