//! `polc decide`: the exit-code protocol of docs/contract.md#c-exit-codes for plugin callers.

use super::command_text;
use crate::host::exit::{decide_exit, ExitCode};
use crate::runtime::layers::Layers;
use crate::runtime::Request;
use std::path::PathBuf;

pub fn decide(
    table: Option<PathBuf>,
    host: Option<String>,
    session: Option<&str>,
    command: &[String],
) -> i32 {
    // A fatal signal (SIGBUS from a table truncated under the map, SIGSEGV, SIGABRT) or the
    // internal deadline must end as a deny (2), never as a status a plugin might read as
    // "proceed".
    crate::host::failsafe::arm(
        Vec::new(),
        "polc: internal error or deadline; denied".into(),
        2,
    );
    crate::host::failsafe::install(crate::host::failsafe::DEADLINE);
    // No environment fallback: `POLC_HOST=openclaw` would turn `default` into allow (a
    // host-authoritative host) and select another host's scoped rules.
    // A plugin's hook names its host; a person trying a command on the terminal does not.
    let from_plugin = host.is_some();
    let host = host.unwrap_or_else(|| "claude".into());
    if !crate::hosts::is_known_host(&host) {
        eprintln!(
            "polc: unknown host `{host}` (known: {})",
            crate::hosts::known_hosts_list()
        );
        return ExitCode::Deny as i32;
    }
    // `--table` and `POLC_TABLE` only add tables to the project union.
    let explicit: Vec<PathBuf> = table
        .into_iter()
        .chain(
            std::env::var_os("POLC_TABLE")
                .filter(|v| !v.is_empty())
                .map(PathBuf::from),
        )
        .collect();
    let root = std::env::var_os("CLAUDE_PROJECT_DIR")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
        .or_else(|| std::env::current_dir().ok())
        .unwrap_or_else(|| PathBuf::from("/"));
    let mut layers = Layers::discover_roots(explicit, root, None);
    layers.record = true;
    let req = Request::Bash {
        command: command_text(command),
    };
    let (mut code, mut note) = match session {
        Some(sid) => with_session(&layers, &host, sid, &req, from_plugin),
        None => decide_exit(&layers, &host, &req),
    };
    // The agent configuration tripwire (runtime::tripwire), as in `polc hook`.
    if from_plugin {
        let root = layers.project_root.clone();
        if let Some(why) = crate::runtime::tripwire::verdict(
            crate::runtime::tripwire::Places::fixed().as_ref(),
            &[root.as_path()],
        ) {
            (code, note) = (ExitCode::Deny, Some(why.replacen("polc deny: ", "", 1)));
        }
    }
    if let Some(n) = note {
        eprintln!("polc: {n}");
    }
    code as i32
}

/// `--session ID`: the decision with the session's sequence rules and denial limits
/// (src/session/README.md), keyed like a hook's (host, session id). Recorded only when a
/// plugin's hook names its host (`write`); otherwise read-only: nothing is created or
/// appended, and a session with no state is a new one.
fn with_session(
    layers: &Layers,
    host: &str,
    sid: &str,
    req: &Request,
    write: bool,
) -> (ExitCode, Option<String>) {
    use crate::runtime::entry::{self, Call};
    let Some(h) = crate::host::Host::parse(host) else {
        return decide_exit(layers, host, req);
    };
    let cwd = std::env::current_dir().unwrap_or_else(|_| layers.project_root.clone());
    let d = entry::decide(
        layers,
        &Call {
            host,
            request: req,
            also: &[],
            unattestable: None,
            cwd: &cwd,
        },
    );
    // Tables that cannot be used answer as without a session.
    if d.failure.is_some() {
        return decide_exit(layers, host, req);
    }
    let Request::Bash { command } = req else {
        return decide_exit(layers, host, req);
    };
    let raw = serde_json::json!({
        "session_id": sid, "cwd": cwd, "hook_event_name": "PreToolUse",
        "tool_name": "Bash", "tool_input": {"command": command}
    });
    let Ok(inp) = crate::host::input::parse(raw.to_string().as_bytes()) else {
        return (ExitCode::Deny, Some("the session id cannot be read".into()));
    };
    let mapped = crate::host::input::Mapped {
        request: req.clone(),
        also: Vec::new(),
        unattestable: None,
        workdir: None,
    };
    let after = crate::host::after::after_decision(
        h,
        crate::host::input::Event::PreToolUse,
        &inp,
        &mapped,
        &d.walks,
        &d.loaded,
        &cwd,
        &layers.project_root,
        (d.decision, crate::host::hook::reason(&d)),
        None,
        write,
    );
    let code = crate::host::exit::exit_for(after.decision, host);
    (code, (code != ExitCode::Allow).then_some(after.reason))
}
