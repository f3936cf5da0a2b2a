//! `polc hook`: read the host's JSON once, decide, write the answer once (docs/contract.md#c-hosts, docs/contract.md#c-host-answers).
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
        // Unknown protocol: nothing on stdout, the reason on stderr, exit 2.
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
    // Tests shorten it; it can only be shortened (a repository setting the variable can
    // at worst make polc deny sooner), never lengthened past the default.
    std::env::var("POLC_HOOK_DEADLINE_MS")
        .ok()
        .and_then(|v| v.parse::<u64>().ok())
        .map(|ms| Duration::from_millis(ms.max(1)).min(failsafe::DEADLINE))
        .unwrap_or(failsafe::DEADLINE)
}

/// `test-paths` builds only (never a default feature): `POLC_HOOK_SELFTEST` makes the hook
/// crash on purpose so the tests can prove every failure answers deny through the real
/// binary.
fn selftest_fault() {
    match crate::runtime::state::selftest().as_deref() {
        Some("panic") => panic!("selftest"),
        Some("abort") => std::process::abort(),
        // SAFETY: deliberately raising signals for the fail-closed tests.
        Some("segv") => unsafe {
            libc::raise(libc::SIGSEGV);
        },
        // SAFETY: as above, raising a signal for the fail-closed tests.
        Some("bus") => unsafe {
            libc::raise(libc::SIGBUS);
        },
        Some("hang") => std::thread::sleep(Duration::from_secs(60)),
        Some("overflow") => {
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
    let roots = super::session::roots(host, &inp);
    let root = roots.root.clone();
    if crate::session::hook::is_post_tool(&inp) {
        return crate::session::hook::post_tool(host, &inp, &root);
    }
    let cwd = inp
        .cwd
        .as_deref()
        .filter(|c| Path::new(c).is_absolute())
        .map(PathBuf::from)
        .unwrap_or_else(|| root.clone());
    // The command runs in the tool's own working directory when it names one.
    let cwd = match &mapped.workdir {
        Some(w) => crate::paths::lexical(w, Some(&cwd), None),
        None => cwd,
    };
    // `--table` and `POLC_TABLE` only add tables to the project union.
    let explicit: Vec<PathBuf> = args
        .table
        .iter()
        .cloned()
        .chain(
            std::env::var_os("POLC_TABLE")
                .filter(|v| !v.is_empty())
                .map(PathBuf::from),
        )
        .collect();
    let mut layers = Layers::discover_roots(explicit, root.clone(), roots.other.clone());
    layers.record = true;
    let mut notice = None;
    let load = layers.load();
    let (decision, reason) = match &load {
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
        Loaded::Ready(loaded) => match Union::new(loaded) {
            Err(_) => (
                Decision::Deny,
                "polc deny: the policy table is corrupt: run `polc build`".into(),
            ),
            Ok(u) => {
                let corrupt = || {
                    (
                        Decision::Deny,
                        "polc deny: the policy table is corrupt: run `polc build`".to_string(),
                    )
                };
                let mut d = judge_roots(&u, loaded, &layers, host, &mapped, &cwd)
                    .unwrap_or_else(|_| corrupt());
                // A large table's bytes are the file's: deny if it changed meanwhile.
                if let Some(why) = crate::runtime::layers::changed(loaded) {
                    notice = Some(format!("polc: {why}"));
                    d = (Decision::Deny, format!("polc deny: {why}"));
                }
                d
            }
        },
    };
    let (decision, reason) = match &roots.degraded {
        Some(why) => super::session::degrade((decision, reason), why),
        None => (decision, reason),
    };
    // Denial limits and sequence rules (src/session/README.md); nothing without them.
    let sess = crate::session::hook::after_decision(
        host,
        ev,
        &inp,
        &mapped,
        &load,
        &cwd,
        &root,
        (decision, reason),
    );
    let (decision, reason) = (sess.decision, sess.reason.clone());
    let reason_is_table_problem = reason.contains("table is corrupt");
    let a = finalize(host, &inp, decision, reason);
    let mut r = host.render(&a, ev);
    sess.render(host, ev, &mut r);
    if decision == Decision::Deny && notice.is_none() && reason_is_table_problem {
        notice = Some("polc: the policy table is corrupt: run `polc build`".into());
    }
    if r.stderr.is_none() {
        r.stderr = notice;
    }
    r
}

/// Decide under each project root (two when the host's folder and the session's start
/// disagree; see `session::Roots`).
fn judge_roots(
    u: &Union<'_>,
    loaded: &[crate::runtime::layers::LoadedLayer],
    layers: &Layers,
    host: Host,
    mapped: &input::Mapped,
    cwd: &Path,
) -> Result<(Decision, String), Corrupt> {
    let one = |root: &Path| {
        let prot = Protected::gather(loaded, layers.config_dir.as_deref(), root);
        judge(u, host, mapped, &prot, cwd, root)
    };
    let a = one(&layers.project_root)?;
    let Some(other) = &layers.other_root else {
        return Ok(a);
    };
    let (d, r) = super::session::combine(a, one(other)?);
    Ok((
        d,
        clip(&format!(
            "{r} (the host's project folder {} and the session's start {} disagree: no project table grants anything)",
            layers.project_root.display(),
            other.display()
        )),
    ))
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
    let (mut out, mut finding) =
        protect::decide_guarded(src, host.name(), &mapped.request, prot, cwd, root)?;
    // Other readings of the call (an argv array's space join): the most restrictive wins.
    for req in &mapped.also {
        let (o, f) = protect::decide_guarded(src, host.name(), req, prot, cwd, root)?;
        let rank = |d: Decision| match d {
            Decision::Deny => 3,
            Decision::Ask => 2,
            Decision::Default => 1,
            Decision::Allow => 0,
        };
        if rank(o.decision) > rank(out.decision) {
            (out, finding) = (o, f);
        }
    }
    if let Some(why) = &mapped.unattestable {
        if matches!(out.decision, Decision::Allow | Decision::Default) {
            out.decision = Decision::Ask;
            out.winner = None;
            out.cause = Cause::Unattestable {
                construct: why.clone(),
            };
        }
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

/// Host authority and the cannot-prompt rule (docs/contract.md#c-authority).
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
