//! The black-box red teams' findings (sessions 3 to 6, 2026-12-01): every finding of a class as
//! a table row through the binary (`polc hook --host claude`), with more variants of each class.
//! One module per session (`session3.rs` …), the shared setups and runners here.
//! Setups as the red team built them:
//! - `Shipped`: `policies/default.pol` and `permcheck.json` as shipped;
//! - `Broad`: `allow bash glob "*"`, `allow edit glob "**"`, `allow read glob "**"` only;
//! - `ShippedBroad`: the shipped policy (its examples removed) plus the broad allows, so a
//!   deny rule the walk misses shows up as allow.
//!
//! `{CFG}`, `{STATE}`, `{POLC}` and `{ROOT}` in a command are the project's config folder,
//! state folder, the polc binary and the project root. Every call has its own session id
//! (the exfiltration sequence rule cannot arm across rows).

#[path = "../common/mod.rs"]
mod common;
mod session3;
mod session4;
mod session5;
mod session6;
mod session7;
mod session7_protect;
mod session8;
mod session8_protect;
use common::Project;
use serde_json::json;
use Setup::*;
use Want::*;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Setup {
    Shipped,
    Broad,
    ShippedBroad,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Want {
    Deny,
    /// Unattestable or a possible protected path: ask (deny is fine too).
    AskOrDeny,
    /// A plain form the fix must leave alone.
    Allow,
}

const BROAD: &str = "allow bash glob \"*\" { id all }\nallow edit glob \"**\" { id alledit }\nallow read glob \"**\" { id allread }\n";

fn shipped_text(name: &str, strip_examples: bool) -> String {
    let text = std::fs::read_to_string(common::root().join("policies").join(name)).unwrap();
    if !strip_examples {
        return text;
    }
    if name.ends_with(".json") {
        let mut j: serde_json::Value = serde_json::from_str(&text).unwrap();
        j.as_object_mut().unwrap().remove("examples");
        for d in j["permissions"]["deny"].as_array_mut().unwrap() {
            if let Some(o) = d.as_object_mut() {
                o.remove("examples");
            }
        }
        return j.to_string();
    }
    text.lines()
        .filter(|l| !l.trim_start().starts_with("example "))
        .collect::<Vec<_>>()
        .join("\n")
}

fn project(setup: Setup) -> Project {
    let p = Project::new();
    if setup != Broad {
        let strip = setup == ShippedBroad;
        p.write("policies/default.pol", &shipped_text("default.pol", strip));
        p.write(
            "policies/permcheck.json",
            &shipped_text("permcheck.json", strip),
        );
    }
    if setup != Shipped {
        p.write("policies/broad.pol", BROAD);
    }
    p.write(".env", "SECRET=1\n");
    p.write("src/main.rs", "fn main() {}\n");
    p.write(".claude/settings.json", "{}\n");
    p.write(".claude/hooks/h.sh", "#!/bin/sh\n");
    p.write(".mcp.json", "{}\n");
    std::fs::create_dir_all(p.path("home")).unwrap();
    p.build_trusted();
    p.confirm_config();
    p
}

/// The Claude PreToolUse answer (None: no output, i.e. default), in session `sid`.
fn hook(p: &Project, cmd: &str, sid: &str) -> (Option<String>, String) {
    hook_at(p, "", cmd, sid)
}

/// [`hook`] with the hook's `cwd` at `cwd` below the project root.
fn hook_at(p: &Project, cwd: &str, cmd: &str, sid: &str) -> (Option<String>, String) {
    let home = p.dir.path().canonicalize().unwrap().join("home");
    let env = [("HOME", home.as_os_str())];
    common::claude_decision_in(p, sid, "Bash", json!({ "command": cmd }), cwd, &env)
}

fn expand(p: &Project, cmd: &str) -> String {
    let root = p.dir.path().canonicalize().unwrap();
    cmd.replace("{CFG}", &p.config.path().to_string_lossy())
        .replace("{STATE}", &p.state.path().to_string_lossy())
        .replace("{POLC}", &common::polc_bin().to_string_lossy())
        .replace("{ROOT}", &root.to_string_lossy())
}

fn expect(rows: &[(Setup, &str, Want)]) {
    let rows: Vec<(Setup, &str, &str, Want)> =
        rows.iter().map(|(s, c, w)| (*s, "", *c, *w)).collect();
    expect_at(&rows);
}

/// [`expect`] with each row's hook `cwd` (below the project root).
fn expect_at(rows: &[(Setup, &str, &str, Want)]) {
    let mut projects: Vec<(Setup, Project)> = Vec::new();
    let mut bad = Vec::new();
    for (k, (setup, cwd, cmd, want)) in rows.iter().enumerate() {
        if !projects.iter().any(|(s, _)| s == setup) {
            projects.push((*setup, project(*setup)));
        }
        let p = &projects.iter().find(|(s, _)| s == setup).unwrap().1;
        let cmd = expand(p, cmd);
        let (got, text) = hook_at(p, cwd, &cmd, &format!("row{k}"));
        let ok = match want {
            Deny => got.as_deref() == Some("deny"),
            AskOrDeny => matches!(got.as_deref(), Some("deny") | Some("ask")),
            Allow => got.as_deref() == Some("allow"),
        };
        if !ok {
            bad.push(format!(
                "{setup:?}: want {want:?}, got {got:?} <- {cmd}\n    {text}"
            ));
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

/// A Claude tool call (Write, Edit, …) in `p`, in a fresh session; the answer.
fn tool_answer(p: &Project, tool: &str, input: serde_json::Value, cwd: &str) -> Option<String> {
    let home = p.dir.path().canonicalize().unwrap().join("home");
    let env = [("HOME", home.as_os_str())];
    let sid = format!("t{}", input.to_string().len());
    common::claude_decision_in(p, &sid, tool, input, cwd, &env).0
}
