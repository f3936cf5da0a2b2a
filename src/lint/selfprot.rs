//! L011 rules that can lift self-protection; L012 allows that run code the agent wrote.
//!
//! Self-protection (`src/runtime/README.md`) is lifted only by a managed- or user-layer rule
//! that names the protected path: a bash `exact` rule, or a read/edit path rule whose literal
//! text before its first wildcard is the protected path or a folder above it. Lint cannot
//! know which layer a source will be compiled into, so it lists every such rule that names a
//! place polc protects (L011, warning).
//!
//! An allowed program that runs code the agent wrote (an interpreter on a file, `make`,
//! `npm run`, `cargo test`, `pytest`, …) can do anything the user can — write protected
//! paths, answer a prompt on a terminal, run a renamed copy of polc — out of polc's sight.
//! L012 (note) names those allows so a reviewer knows what they grant.

use super::Cx;
use crate::ir::{PatternKind, Verdict};
use crate::syntax::{Diagnostic, Severity};
use crate::tools;

/// Names of the places self-protection covers, as they appear in rule text.
const PROTECTED_NAMES: &[&str] = &[
    ".claude",
    ".polc",
    "policy.bin",
    "permcheck.json",
    "policies/",
    ".mcp.json",
    ".gemini/",
    ".github/hooks",
    ".cursor/",
    ".codex",
    ".vscode/settings.json",
    ".factory/",
    ".vibe",
    ".config/polc",
    ".cache/polc",
    ".local/state/polc",
    "opencode",
    ".copilot",
    "/etc/polc",
    ".git/hooks",
    ".git/config",
    "polc",
];

/// Allowed command prefixes that run code from files the agent can write.
const RUNS_AGENT_CODE: &[&str] = &[
    "python",
    "python3",
    "node",
    "ruby",
    "perl",
    "php",
    "bash",
    "sh",
    "zsh",
    "deno run",
    "bun run",
    "bun test",
    "make",
    "just",
    "npm run",
    "npm test",
    "npm start",
    "pnpm run",
    "pnpm test",
    "yarn run",
    "yarn test",
    "cargo run",
    "cargo test",
    "cargo build",
    "cargo bench",
    "cargo check",
    "cargo clippy",
    "go run",
    "go test",
    "go build",
    "go generate",
    "pytest",
    "python -m pytest",
    "tox",
    "nox",
    "mvn",
    "gradle",
    "./gradlew",
    "rake",
    "jest",
    "vitest",
    "ctest",
    "cmake --build",
    "ninja",
    "./",
];

fn names_protected(text: &str) -> Option<&'static str> {
    PROTECTED_NAMES.iter().copied().find(|n| text.contains(n))
}

pub(super) fn check(cx: &Cx<'_>, out: &mut Vec<Diagnostic>) {
    for &i in &cx.rules {
        let r = cx.rule(i);
        if r.verdict != Verdict::Allow {
            continue;
        }
        for p in &r.patterns {
            let text = p.text.as_str();
            let lifts = match (r.tool.as_str(), p.kind) {
                (tools::BASH, PatternKind::Exact) => names_protected(text),
                (t, PatternKind::Glob | PatternKind::Exact)
                    if t == tools::READ || t == tools::EDIT =>
                {
                    let cut = text.find(['*', '?', '[']).unwrap_or(text.len());
                    let lit = &text[..cut];
                    let anchored = ["//", "~/", "./", "/"].iter().any(|a| lit.starts_with(a));
                    let whole_name = cut == text.len() || lit.ends_with('/');
                    if anchored && whole_name {
                        names_protected(lit)
                    } else {
                        None
                    }
                }
                _ => None,
            };
            if let Some(n) = lifts {
                out.push(
                    cx.at_rule(
                        i,
                        Severity::Warning,
                        crate::syntax::codes::L011,
                        format!(
                            "`{}` names `{n}`, a place polc protects: in a user or managed layer this rule lifts self-protection there",
                            r.text
                        ),
                    )
                    .with_help("keep it only if an agent should be able to change that path; project rules never lift it"),
                );
                break;
            }
            if r.tool == tools::BASH
                && matches!(
                    p.kind,
                    PatternKind::Prefix | PatternKind::Glob | PatternKind::Exact
                )
            {
                let first = text.trim_start();
                if let Some(c) = RUNS_AGENT_CODE.iter().find(|c| {
                    first == **c
                        || first.starts_with(&format!("{c} "))
                        || (c.ends_with('/') && first.starts_with(**c))
                }) {
                    out.push(
                        cx.at_rule(
                            i,
                            Severity::Note,
                            crate::syntax::codes::L012,
                            format!(
                                "`{}` runs code the agent can write (`{c}`): that code can do anything the user can, including changing what polc protects",
                                r.text
                            ),
                        )
                        .with_help("this is the residual risk of allowing build and test tools; review what they run"),
                    );
                    break;
                }
            }
        }
    }
}
