//! The hook's calls into the session (`host/hook.rs` makes exactly these): `after_decision`
//! once the decision is made, `After::render` on the rendered answer, and `post_tool` for a
//! post-tool event.

use crate::host::answer::{clip, Rendered};
use crate::host::input::{Event, HookInput, Mapped};
use crate::host::Host;
use crate::ir::Decision;
use crate::session::check::{self, CallInfo, Features};
use crate::session::record::field;
use crate::session::store;
use crate::shell::Walk;
use std::path::Path;

/// What the session did to the answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct After {
    pub decision: Decision,
    pub reason: String,
    pub interrupt: bool,
    /// The session's rules looked at the call (`check::Verdicts::touched`), or its state
    /// could not be used: an allow that is never remembered.
    pub touched: bool,
    /// The rewritten input was decided and chosen (an allow).
    pub rewritten: bool,
}

/// The rewritten alternative of a call (`rewrite.rs`): its request, polc's decision and the
/// decision's walks of its commands (`runtime::entry::Decided::walks`).
pub type Alt<'a> = Option<(&'a Mapped, (Decision, String), &'a [Option<Walk>])>;

impl After {
    fn keep(d: (Decision, String)) -> After {
        After {
            decision: d.0,
            reason: d.1,
            interrupt: false,
            touched: false,
            rewritten: false,
        }
    }

    /// Without session state: the rewrite if the policy allows it, else the original.
    fn pick(d: (Decision, String), alt: &Alt<'_>) -> After {
        match alt {
            Some((_, ad, _)) if ad.0 == Decision::Allow => After {
                rewritten: true,
                ..After::keep(ad.clone())
            },
            _ => After::keep(d),
        }
    }

    /// Adds the host's interrupt form to a deny answer (docs: src/session/README.md):
    /// Claude-shaped PreToolUse and Gemini: top-level `continue: false` and `stopReason`;
    /// Claude PermissionRequest: `interrupt: true` in the decision; Cursor: `continue: false`.
    /// Copilot, Codex and Vibe have none: the deny stands alone.
    pub fn render(&self, host: Host, ev: Event, r: &mut Rendered) {
        if !self.interrupt || self.decision != Decision::Deny || r.stdout.is_empty() {
            return;
        }
        let Ok(text) = std::str::from_utf8(&r.stdout) else {
            return;
        };
        let body = text.trim_end();
        let js = crate::host::answer::js(&clip(&self.reason));
        let out = match (host, ev) {
            (Host::Claude | Host::Vscode | Host::Droid, Event::PermissionRequest) => body
                .strip_suffix("}}}")
                .filter(|b| b.contains("\"behavior\":\"deny\""))
                .map(|b| format!("{b},\"interrupt\":true}}}}}}")),
            (Host::Claude | Host::Vscode | Host::Droid | Host::Gemini, _) => body
                .strip_suffix('}')
                .map(|b| format!("{b},\"continue\":false,\"stopReason\":{js}}}")),
            (Host::Cursor, _) => body
                .strip_suffix('}')
                .map(|b| format!("{b},\"continue\":false}}")),
            // No interrupt form (Openclaw answers through `polc decide` exit codes).
            _ => None,
        };
        if let Some(mut o) = out {
            o.push('\n');
            r.stdout = o.into_bytes();
        }
    }
}

/// Does `host` have a form that ends the agent's turn?
pub fn can_interrupt(host: &str) -> bool {
    matches!(host, "claude" | "vscode" | "droid" | "gemini" | "cursor")
}

/// The session's key: the host's session id, else (host, project root).
fn key(host: Host, inp: &HookInput, root: &Path) -> Vec<Vec<u8>> {
    use std::os::unix::ffi::OsStrExt;
    match inp.session_id.as_deref().filter(|s| !s.is_empty()) {
        Some(sid) => vec![
            host.name().as_bytes().to_vec(),
            b"id".to_vec(),
            sid.as_bytes().to_vec(),
        ],
        None => vec![
            host.name().as_bytes().to_vec(),
            b"root".to_vec(),
            root.as_os_str().as_bytes().to_vec(),
        ],
    }
}

/// Every answer that is not deny becomes ask, with the reason (state unusable).
fn degrade(d: (Decision, String), why: &dyn std::fmt::Display) -> After {
    if d.0 == Decision::Deny {
        return After::keep(d);
    }
    After {
        decision: Decision::Ask,
        reason: clip(&format!(
            "polc ask: the session's state cannot be used ({why}); the policy has session rules, so a person must approve"
        )),
        interrupt: false,
        touched: true,
        rewritten: false,
    }
}

/// A short text of the call for the history (never more than a line).
pub fn summary(mapped: &Mapped) -> String {
    match &mapped.request {
        crate::runtime::Request::Bash { command } => field(command, 200),
        crate::runtime::Request::Tool { tool, subject, .. } => {
            field(&format!("{tool} {subject}"), 200)
        }
    }
}

/// The session's part of the decision: sequence rules, denial limits, the record of the call.
/// Opens no file when no loaded table uses denial limits or sequences. With a rewritten
/// alternative, that one is chosen when the whole policy, session included, allows it;
/// else the original (one record either way). `walks`: the decision's walks of `mapped`'s
/// commands (`runtime::entry::Decided::walks`; empty: walked here if needed).
#[allow(clippy::too_many_arguments)]
pub fn after_decision(
    host: Host,
    ev: Event,
    inp: &HookInput,
    mapped: &Mapped,
    walks: &[Option<Walk>],
    layers: &[crate::runtime::layers::LoadedLayer],
    cwd: &Path,
    root: &Path,
    d: (Decision, String),
    alt: Alt<'_>,
    write: bool,
) -> After {
    let mut f = Features::default();
    for l in layers {
        if let Err(why) = f.add(|k| l.table.section(k)) {
            // A table polc cannot read whole is a deny, as for any damaged section; a deny
            // already reached keeps its own reason (a table that changed under the read).
            if d.0 == Decision::Deny {
                return After::keep(d);
            }
            return After {
                reason: clip(&format!("polc deny: {why}")),
                touched: true,
                ..After::keep((Decision::Deny, String::new()))
            };
        }
    }
    let after = if f.limits.is_none() && f.sequences.is_empty() {
        After::pick(d, &alt)
    } else {
        stateful(
            &f,
            host,
            ev,
            inp,
            (mapped, walks),
            cwd,
            root,
            d,
            &alt,
            write,
        )
    };
    if let (Some(a), true) = (f.audit, write) {
        let chosen = match &alt {
            Some((m, _, _)) if after.rewritten => m,
            _ => mapped,
        };
        audit(a, layers, host, ev, inp, chosen, &after);
    }
    after
}

/// One line in the audit log (best effort: a log that cannot be written changes no answer;
/// the reason goes to stderr... which Gemini would read as an answer, so nowhere).
fn audit(
    a: crate::ir::session::Audit,
    layers: &[crate::runtime::layers::LoadedLayer],
    host: Host,
    ev: Event,
    inp: &HookInput,
    mapped: &Mapped,
    after: &After,
) {
    use crate::runtime::{Request, RuleSource};
    let Some(state_dir) = crate::runtime::state::state_dir() else {
        return;
    };
    let (tool, command, text) = match &mapped.request {
        Request::Bash { command } => ("bash".to_string(), command.clone(), command.clone()),
        Request::Tool {
            tool,
            subject,
            input_text,
            ..
        } => (tool.clone(), subject.clone(), input_text.clone()),
    };
    // Content a rule matched (deny, ask or allow) is never logged in clear.
    let mut content_matched = false;
    if let Ok(u) = crate::runtime::layers::Union::new(layers) {
        let dq = crate::shell::dequote(&text);
        let texts: [&[u8]; 2] = [text.as_bytes(), dq.as_bytes()];
        for side in [crate::runtime::Side::Restrict, crate::runtime::Side::Allow] {
            let _ = u.match_content(&tool, &texts, side, host.name(), &mut |_| {
                content_matched = true
            });
        }
    }
    let e = crate::session::audit::Entry {
        session: inp.session_id.as_deref().unwrap_or(""),
        host: host.name(),
        event: if ev == Event::PermissionRequest {
            "permission-request"
        } else {
            "pre-tool-use"
        },
        tool: &tool,
        decision: after.decision.as_str(),
        interrupt: after.interrupt,
        reason: &after.reason,
        command: &command,
        content_matched,
        hash: a.hash,
    };
    let _ = crate::session::audit::append(&state_dir, &crate::session::audit::line(&e));
}

/// Sequences and limits: the state file's part.
#[allow(clippy::too_many_arguments)]
fn stateful(
    f: &Features<'_>,
    host: Host,
    ev: Event,
    inp: &HookInput,
    (mapped, walks): (&Mapped, &[Option<Walk>]),
    cwd: &Path,
    root: &Path,
    d: (Decision, String),
    alt: &Alt<'_>,
    write: bool,
) -> After {
    let Some(state_dir) = crate::runtime::state::state_dir() else {
        return degrade(d, &"polc has no state folder");
    };
    let k = key(host, inp, root);
    let kr: Vec<&[u8]> = k.iter().map(Vec::as_slice).collect();
    // Read-only (`polc decide --session` outside a host's hook): no file is created, and a
    // session with no state file is a new one.
    let open = match store::open(&state_dir, &kr, write) {
        Ok(Some(o)) => Some(o),
        Ok(None) if !write => None,
        Ok(None) => return degrade(d, &"the state file vanished"),
        Err(why) => return degrade(d, &why),
    };
    let empty = crate::session::record::State::default();
    let state = open.as_ref().map_or(&empty, |o| &o.state);
    let home = crate::runtime::Context::from_env().home;
    let ctx = crate::runtime::Context {
        cwd: Some(cwd.to_path_buf()),
        project_root: Some(root.to_path_buf()),
        home,
    };
    let run = |m: &Mapped, walks: &[Option<Walk>], d: (Decision, String)| {
        // An MCP or unknown tool's shell command field (`mcp__fs__execute_command
        // {"command": "curl …"}`) is a shell step too, as the decision reads it (red team,
        // session 8: an armed exfiltration sequence only asked).
        let commands: Vec<crate::runtime::Request> =
            crate::runtime::entry::mcp_commands(&m.request)
                .into_iter()
                .map(|command| crate::runtime::Request::Bash { command })
                .collect();
        let mut reqs = vec![&m.request];
        reqs.extend(m.also.iter());
        reqs.extend(commands.iter());
        let info = CallInfo {
            host: host.name(),
            permission_request: ev == Event::PermissionRequest,
            can_prompt: host.can_prompt(inp.permission_mode.as_deref()),
            tool_use_id: inp.tool_use_id.as_deref().unwrap_or(""),
            turn: inp.turn_id.as_deref().unwrap_or(""),
            requests: &reqs,
            walks,
            ctx: &ctx,
        };
        check::apply(f, state, &info, d, summary(m))
    };
    // The rewrite when the session allows it too; both read the same snapshot.
    let chosen = match alt {
        Some((m, ad, aw)) if ad.0 == Decision::Allow => run(m, aw, ad.clone())
            .ok()
            .filter(|v| v.decision == Decision::Allow),
        _ => None,
    };
    let rewritten = chosen.is_some();
    let v = match chosen {
        Some(v) => v,
        None => match run(mapped, walks, d.clone()) {
            Ok(v) => v,
            Err(why) => return degrade(d, &why),
        },
    };
    let ev_c = if ev == Event::PermissionRequest {
        'r'
    } else {
        'p'
    };
    let after = After {
        decision: v.decision,
        reason: v.reason.clone(),
        interrupt: v.interrupt,
        touched: v.touched,
        rewritten,
    };
    match open.filter(|_| write).map(|o| o.append(&v.call.line(ev_c))) {
        Some(Err(why)) => degrade((after.decision, after.reason), &why),
        _ => after,
    }
}

/// Is this a post-tool event (the call ran)?
pub fn is_post_tool(inp: &HookInput) -> bool {
    matches!(
        inp.event_name.as_deref(),
        Some("PostToolUse") | Some("postToolUse") | Some("AfterTool") | Some("post_tool")
    )
}

/// A post-tool event: if polc answered ask for this tool_use_id in this session, a person
/// approved it, and the denial counters reset (once; sequences stay armed). Answers nothing.
/// A forged event (an id polc did not ask about) changes nothing.
pub fn post_tool(host: Host, inp: &HookInput, root: &Path) -> Rendered {
    let quiet = Rendered::default();
    let Some(id) = inp.tool_use_id.as_deref().filter(|i| !i.is_empty()) else {
        return quiet;
    };
    let Some(state_dir) = crate::runtime::state::state_dir() else {
        return quiet;
    };
    let k = key(host, inp, root);
    let kr: Vec<&[u8]> = k.iter().map(Vec::as_slice).collect();
    // No state file: the policy uses no session feature (or none ran yet).
    let Ok(Some(open)) = store::open(&state_dir, &kr, false) else {
        return quiet;
    };
    if open.state.asked.iter().any(|a| a == id) {
        let _ = open.append(&crate::session::record::reset_line(
            store::now_ms(),
            "post-tool",
            id,
        ));
    }
    quiet
}

/// R for a decision made straight from a rule source (examples, `explain --session`).
pub fn reason_of(src: &dyn crate::runtime::RuleSource, out: crate::runtime::Outcome) -> String {
    let winner = out.winner.and_then(|w| src.describe(w).ok());
    crate::host::hook::judged_reason(&crate::runtime::entry::Judged {
        outcome: out,
        finding: None,
        winner,
    })
}
