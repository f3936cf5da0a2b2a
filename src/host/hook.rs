//! `polc hook`: read the host's JSON once, decide, write the answer once (SPEC §5–§6).
//!
//! The error answer is rendered and armed before anything can fail; panics, fatal signals
//! and the internal deadline all end in it (see `failsafe.rs`).

use super::answer::{approval_needed, clip, Answer, Kind, Rendered};
use super::input::{self, Event, HookInput};
use super::{failsafe, Host};
use crate::ir::Decision;
use crate::runtime::layers::{Layers, Loaded, Union};
use crate::runtime::protect::{self, Guarded, Protected};
use crate::runtime::{Cause, Corrupt, Outcome, RuleSource};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Appendix B: the hook reads at most this much stdin.
pub const MAX_STDIN: usize = 1 << 20;

pub struct HookArgs {
    pub host: String,
    pub event: Option<Event>,
    pub table: Option<PathBuf>,
}

/// Run the hook; returns the exit code after writing the answer.
pub fn run(args: HookArgs) -> i32 {
    let Some(host) = Host::parse(&args.host) else {
        // Unknown protocol: an answer every JSON host reads as deny, and exit 2.
        let r = super::unknown_host_error(&args.host);
        return emit(&r);
    };
    let ev = args.event.unwrap_or(Event::PreToolUse);
    arm(host, ev);
    failsafe::install(deadline());
    let r = match std::panic::catch_unwind(|| answer(host, &args)) {
        Ok(r) => r,
        Err(_) => host.error_for(
            armed_event(),
            "polc: internal error (a bug in polc); denied to be safe",
        ),
    };
    emit(&r)
}

/// The event the armed error answer is for (PermissionRequest's error row differs).
static ARMED_PERMISSION_REQUEST: std::sync::atomic::AtomicBool =
    std::sync::atomic::AtomicBool::new(false);

fn armed_event() -> Event {
    if ARMED_PERMISSION_REQUEST.load(std::sync::atomic::Ordering::SeqCst) {
        Event::PermissionRequest
    } else {
        Event::PreToolUse
    }
}

/// Render and arm the error answer for `ev` (again once the input names its event).
fn arm(host: Host, ev: Event) {
    let err = host.error_for(
        ev,
        "polc: the hook crashed or ran past its deadline; denied to be safe",
    );
    ARMED_PERMISSION_REQUEST.store(
        ev == Event::PermissionRequest,
        std::sync::atomic::Ordering::SeqCst,
    );
    failsafe::arm(
        err.stdout.clone(),
        err.stderr.clone().unwrap_or_default(),
        err.exit,
    );
}

fn deadline() -> Duration {
    // Tests shorten it; it can only be shortened or kept under 8 s (a repository setting
    // the variable can at worst make polc deny).
    std::env::var("POLC_HOOK_DEADLINE_MS")
        .ok()
        .and_then(|v| v.parse::<u64>().ok())
        .map(|ms| Duration::from_millis(ms.clamp(1, 8000)))
        .unwrap_or(failsafe::DEADLINE)
}

/// Debug builds only: `POLC_HOOK_SELFTEST` makes the hook crash on purpose so the tests can
/// prove every failure answers deny through the real binary.
fn selftest_fault() {
    if !cfg!(debug_assertions) {
        return;
    }
    match std::env::var("POLC_HOOK_SELFTEST").as_deref() {
        Ok("panic") => panic!("selftest"),
        Ok("abort") => std::process::abort(),
        // SAFETY: deliberately raising signals for the fail-closed tests.
        Ok("segv") => unsafe {
            libc::raise(libc::SIGSEGV);
        },
        Ok("bus") => unsafe {
            libc::raise(libc::SIGBUS);
        },
        Ok("hang") => std::thread::sleep(Duration::from_secs(60)),
        Ok("overflow") => {
            fn deep(n: u64) -> u64 {
                if n == u64::MAX {
                    return 0;
                }
                let buf = [n; 512];
                std::hint::black_box(&buf);
                deep(n + 1) + buf[3]
            }
            std::hint::black_box(deep(0));
        }
        _ => {}
    }
}

/// Write stdout once and the stderr line; return the exit code.
fn emit(r: &Rendered) -> i32 {
    if !failsafe::claim() {
        // A signal or the deadline is answering; let it finish.
        loop {
            std::thread::sleep(Duration::from_secs(1));
        }
    }
    if let Some(line) = &r.stderr {
        let _ = writeln!(std::io::stderr(), "{line}");
    }
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(&r.stdout);
    let _ = out.flush();
    r.exit
}

fn read_stdin() -> Result<Vec<u8>, String> {
    let mut buf = Vec::with_capacity(8192);
    std::io::stdin()
        .lock()
        .take(MAX_STDIN as u64 + 1)
        .read_to_end(&mut buf)
        .map_err(|e| format!("polc: cannot read the hook input: {e}"))?;
    if buf.len() > MAX_STDIN {
        return Err("polc: hook input over 1 MiB; denied".into());
    }
    Ok(buf)
}

fn answer(host: Host, args: &HookArgs) -> Rendered {
    // Before the input names its event, errors answer for the `--event` flag's (else
    // PreToolUse's) error row.
    let ev0 = args.event.unwrap_or(Event::PreToolUse);
    let bytes = match read_stdin() {
        Ok(b) => b,
        Err(e) => return host.error_for(ev0, &e),
    };
    let inp = match input::parse(&bytes) {
        Ok(i) => i,
        Err(e) => return host.error_for(ev0, &format!("polc: {}; denied", e.0)),
    };
    let ev = inp.event(args.event);
    if ev != ev0 {
        arm(host, ev);
    }
    // After the event is known, so the faults prove the event's own error row.
    selftest_fault();
    let mapped = match input::to_request(&inp, host.name()) {
        Ok(m) => m,
        Err(e) => return host.error_for(ev, &format!("polc: {}; denied", e.0)),
    };
    let root = project_root(host, &inp);
    let cwd = inp
        .cwd
        .as_deref()
        .filter(|c| Path::new(c).is_absolute())
        .map(PathBuf::from)
        .unwrap_or_else(|| root.clone());
    let explicit = args.table.clone().or_else(|| {
        std::env::var_os("POLC_TABLE")
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    });
    let layers = Layers::discover(explicit, Some(root.clone()));
    let mut notice = None;
    let (decision, reason) = match layers.load() {
        Loaded::NoTable => {
            notice = Some(
                "polc: no policy table configured or found; the host's own rules apply".to_string(),
            );
            let prot = Protected::gather(&[], layers.config_dir.as_deref(), &root);
            match judge(&Empty, host, &mapped, &prot, &cwd, &root) {
                Ok(x) => x,
                Err(_) => (Decision::Deny, "polc: internal error".into()),
            }
        }
        Loaded::Unusable(why) => {
            notice = Some(format!("polc: {why}"));
            (Decision::Deny, format!("polc deny: {why}"))
        }
        Loaded::Ready(loaded) => match Union::new(&loaded) {
            Err(_) => (
                Decision::Deny,
                "polc deny: the policy table is corrupt: run `polc build`".into(),
            ),
            Ok(u) => {
                let prot = Protected::gather(&loaded, layers.config_dir.as_deref(), &root);
                match judge(&u, host, &mapped, &prot, &cwd, &root) {
                    Ok(x) => x,
                    Err(_) => (
                        Decision::Deny,
                        "polc deny: the policy table is corrupt: run `polc build`".into(),
                    ),
                }
            }
        },
    };
    let reason_is_table_problem = reason.contains("table is corrupt");
    let a = finalize(host, &inp, decision, reason);
    let mut r = host.render(&a, ev);
    if decision == Decision::Deny && notice.is_none() && reason_is_table_problem {
        notice = Some("polc: the policy table is corrupt: run `polc build`".into());
    }
    if r.stderr.is_none() {
        r.stderr = notice;
    }
    r
}

/// Decide with self-protection; the decision and R.
fn judge(
    src: &dyn RuleSource,
    host: Host,
    mapped: &input::Mapped,
    prot: &Protected,
    cwd: &Path,
    root: &Path,
) -> Result<(Decision, String), Corrupt> {
    let (mut out, finding) =
        protect::decide_guarded(src, host.name(), &mapped.request, prot, cwd, root)?;
    if mapped.powershell && matches!(out.decision, Decision::Allow | Decision::Default) {
        out.decision = Decision::Ask;
        out.winner = None;
        out.cause = Cause::Unattestable {
            construct: "a PowerShell command (polc has no PowerShell segmenter)".into(),
        };
    }
    let g = Guarded {
        inner: src,
        finding,
    };
    Ok((out.decision, reason(&g, &out)?))
}

/// R: the rule (id, source:line, text, reason), the construct, or why nothing decided.
pub fn reason(src: &dyn RuleSource, out: &Outcome) -> Result<String, Corrupt> {
    let v = out.decision.as_str();
    let rule = |r: u32| -> Result<String, Corrupt> {
        let d = src.describe(r)?;
        let why = d.reason.map(|x| format!(": {x}")).unwrap_or_default();
        let at = if d.line > 0 {
            format!("{}:{}", d.source, d.line)
        } else {
            d.source.clone()
        };
        Ok(format!("rule {} ({at}) `{}`{why}", d.id, d.text))
    };
    Ok(clip(&match &out.cause {
        Cause::Rule { rule: r } => format!("polc {v}: {}", rule(*r)?),
        Cause::PossibleDeny { rule: r } => format!(
            "polc {v}: part of the command cannot be known and could match deny {}",
            rule(*r)?
        ),
        Cause::Unattestable { construct } => format!(
            "polc {v}: polc cannot attest this command ({construct}); a person must approve it"
        ),
        Cause::NoRule => format!("polc {v}: no rule decides this call"),
    }))
}

/// Host authority and the cannot-prompt rule (SPEC §5).
fn finalize(host: Host, inp: &HookInput, d: Decision, reason: String) -> Answer {
    let kind = match d {
        Decision::Deny => Kind::Deny,
        Decision::Ask if !host.can_prompt(inp.permission_mode.as_deref()) => {
            return Answer {
                kind: Kind::Deny,
                reason: approval_needed(&reason, host.display()),
            }
        }
        Decision::Ask => Kind::Ask,
        Decision::Allow => Kind::Allow,
        Decision::Default if host.authoritative() => Kind::Allow,
        Decision::Default => Kind::Default,
    };
    Answer { kind, reason }
}

/// The project root (SPEC §5): the host's project directory when it says it, else the
/// session's starting directory — the first `cwd` seen for the session id, recorded in the
/// user's config dir — never only the current `cwd`.
fn project_root(host: Host, inp: &HookInput) -> PathBuf {
    let env = |k: &str| {
        std::env::var_os(k)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
            .filter(|p| p.is_absolute())
    };
    let from_host = match host {
        Host::Claude | Host::Vscode | Host::Codex | Host::Copilot => env("CLAUDE_PROJECT_DIR"),
        Host::Droid => env("FACTORY_PROJECT_DIR").or_else(|| env("CLAUDE_PROJECT_DIR")),
        Host::Gemini => env("GEMINI_PROJECT_DIR").or_else(|| env("CLAUDE_PROJECT_DIR")),
        Host::Cursor => inp
            .workspace_roots
            .first()
            .map(PathBuf::from)
            .filter(|p| p.is_absolute())
            .or_else(|| env("CURSOR_PROJECT_DIR")),
        Host::Vibe => None,
    };
    if let Some(r) = from_host {
        return r;
    }
    let cwd = inp
        .cwd
        .as_deref()
        .map(PathBuf::from)
        .filter(|p| p.is_absolute());
    if let (Some(sid), Some(c)) = (&inp.session_id, &cwd) {
        let cfg = crate::runtime::trust::config_dir(None);
        if let Some(start) = cfg
            .as_deref()
            .and_then(|d| super::session::start_dir(d, sid, c))
        {
            return start;
        }
    }
    cwd.or_else(|| std::env::current_dir().ok())
        .unwrap_or_else(|| PathBuf::from("/"))
}

/// No table at all: a source with no rules (self-protection still applies).
struct Empty;

impl RuleSource for Empty {
    fn verdict(&self, _: u32) -> Result<crate::ir::Verdict, Corrupt> {
        Err(Corrupt)
    }
    fn score(&self, _: u32) -> Result<crate::runtime::Score, Corrupt> {
        Err(Corrupt)
    }
    fn describe(&self, _: u32) -> Result<crate::runtime::RuleDesc, Corrupt> {
        Err(Corrupt)
    }
    fn match_segment(
        &self,
        _: &[u8],
        _: bool,
        _: &str,
        _: &mut dyn FnMut(u32, crate::pattern::Match),
    ) -> Result<(), Corrupt> {
        Ok(())
    }
    fn match_content(
        &self,
        _: &str,
        _: &[&[u8]],
        _: bool,
        _: &str,
        _: &mut dyn FnMut(u32),
    ) -> Result<(), Corrupt> {
        Ok(())
    }
    fn match_tool(
        &self,
        _: &str,
        _: &str,
        _: &str,
        _: &str,
        _: &mut dyn FnMut(u32, crate::pattern::Match),
    ) -> Result<(), Corrupt> {
        Ok(())
    }
    fn match_path_under(
        &self,
        _: &str,
        _: &std::path::Path,
        _: &crate::runtime::Context,
        _: &str,
        _: &mut dyn FnMut(u32),
    ) -> Result<(), Corrupt> {
        Ok(())
    }
    fn match_path(
        &self,
        _: &str,
        _: &crate::runtime::PathQuery,
        _: &crate::runtime::Context,
        _: bool,
        _: &str,
        _: &mut dyn FnMut(u32),
    ) -> Result<(), Corrupt> {
        Ok(())
    }
}
