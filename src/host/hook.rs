//! `polc hook`: read the host's JSON once, decide, write the answer once (docs/contract.md#c-hosts, docs/contract.md#c-host-answers).
//!
//! The error answer is rendered and armed before anything can fail; panics, fatal signals
//! and the internal deadline all end in it (see `failsafe.rs`).

use super::answer::{approval_needed, clip, Answer, Kind, Rendered};
use super::input::{self, Event, HookInput};
use super::{failsafe, Host};
use crate::ir::Decision;
use crate::runtime::entry::{self, Call, Decided, Failure, Judged};
use crate::runtime::layers::Layers;
use crate::runtime::{Cause, Request};
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
    let Some(host) = Host::parse_hook(&args.host) else {
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

/// Why the hook's stdin cannot be used (the error row).
#[derive(Debug)]
enum StdinError {
    Read(std::io::Error),
    TooLarge,
}

impl std::fmt::Display for StdinError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StdinError::Read(e) => write!(f, "polc: cannot read the hook input: {e}"),
            StdinError::TooLarge => f.write_str("polc: hook input over 1 MiB; denied"),
        }
    }
}

fn read_stdin() -> Result<Vec<u8>, StdinError> {
    let mut buf = Vec::with_capacity(8192);
    std::io::stdin()
        .lock()
        .take(MAX_STDIN as u64 + 1)
        .read_to_end(&mut buf)
        .map_err(StdinError::Read)?;
    if buf.len() > MAX_STDIN {
        return Err(StdinError::TooLarge);
    }
    Ok(buf)
}

fn answer(host: Host, args: &HookArgs) -> Rendered {
    // Before the input names its event, errors answer for the `--event` flag's (else
    // PreToolUse's) error row.
    let ev0 = args.event.unwrap_or(Event::PreToolUse);
    let bytes = match read_stdin() {
        Ok(b) => b,
        Err(e) => return host.error_for(ev0, &e.to_string()),
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
    if crate::host::after::is_post_tool(&inp) {
        return crate::host::after::post_tool(host, &inp, &root);
    }
    let cwd = inp
        .cwd
        .as_deref()
        .filter(|c| Path::new(c).is_absolute())
        .map(PathBuf::from)
        .unwrap_or_else(|| root.clone());
    // The command runs in the tool's own working directory when it names one.
    // The process is started in that folder, so the kernel reads its `..` (after a link,
    // the target's parent: `workdir: "h/.."` with `h -> .claude/hooks` is `.claude`).
    let cwd = match &mapped.workdir {
        Some(w) => crate::paths::physical(w, Some(&cwd), None)
            .unwrap_or_else(|| crate::paths::lexical(w, Some(&cwd), None)),
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
    let mut layers = Layers::discover_roots(explicit, root, roots.other.clone());
    layers.record = true;
    let call = Call {
        host: host.name(),
        request: &mapped.request,
        also: &mapped.also,
        unattestable: mapped.unattestable.as_deref(),
        cwd: &cwd,
    };
    let mut decided = finish(
        entry::decide(&layers, &call),
        &roots,
        layers.state_dir.as_deref(),
    );
    if decided.decision != Decision::Deny {
        let cfg = layers.config_dir.as_deref();
        let walk = decided.walks.first().and_then(Option::as_ref);
        if let Some(why) = unseen_folder(host, &mapped, walk, cfg, &roots.root, &cwd) {
            decided.adjust(Decision::Ask, why);
        }
    }
    let mut r = respond(host, ev, &inp, &mapped, &decided, &layers, &roots, &cwd);
    if r.stderr.is_none() {
        r.stderr = notice(&decided);
    }
    // Only beside an answer: on an error exit stderr is the reason the host shows.
    if r.exit == 0 {
        if let Some(w) = other_polc_on_path() {
            r.stderr = Some(match r.stderr.take() {
                Some(s) => format!("{s}\n{w}"),
                None => w,
            });
        }
    }
    quiet_where_stderr_is_an_answer(host, &mut r);
    r
}

/// Hosts whose shell's folder the hook input does not give: Codex drops `workdir`; Copilot
/// CLI keeps one bash per session, so an earlier `cd` moves later commands while the hook's
/// `cwd` stays the CLI's folder (red team, session 5). A relative write of a protected name
/// asks; on Copilot, so does a `cd` that leaves the shell in a protected folder (or one
/// holding protected paths, or one polc cannot know): red team, session 6. The reason.
fn unseen_folder(
    host: Host,
    mapped: &super::input::Mapped,
    walked: Option<&crate::shell::Walk>,
    config_dir: Option<&Path>,
    root: &Path,
    cwd: &Path,
) -> Option<String> {
    let (Host::Codex | Host::Copilot, None, Request::Bash { command }) =
        (host, &mapped.workdir, &mapped.request)
    else {
        return None;
    };
    let command = command.as_str();
    if let Some(why) = super::codex::unplaced_write(command) {
        return Some(why);
    }
    if host != Host::Copilot {
        return None;
    }
    let prot = crate::runtime::protect::Protected::gather(&[], config_dir, root);
    // The decision's walk of the same command when it made one (the tables loaded).
    let own;
    let walk = match walked {
        Some(w) => w,
        None => {
            own = crate::shell::walk(command);
            &own
        }
    };
    prot.persistent_chdir(walk, cwd)
        .map(|why| format!("polc: {why}"))
}

/// From the decision to the answer: a rewrite's alternative (`host::rewrite`), the
/// session's rules and the audit log (src/session/README.md; nothing without them), host
/// authority, rendering, the interrupt form and a remembered approval.
#[allow(clippy::too_many_arguments)]
fn respond(
    host: Host,
    ev: Event,
    inp: &HookInput,
    mapped: &input::Mapped,
    decided: &Decided,
    layers: &Layers,
    roots: &super::session::Roots,
    cwd: &Path,
) -> Rendered {
    let ctx = crate::runtime::Context {
        cwd: Some(cwd.to_path_buf()),
        project_root: Some(roots.root.clone()),
        home: crate::runtime::Context::from_env().home,
    };
    let cand = crate::host::rewrite::candidate(
        host,
        ev,
        inp,
        mapped,
        decided.decision,
        &decided.loaded,
        &ctx,
    );
    // The whole policy decides the rewritten command (self-protection and the tripwire too).
    let alt = cand.as_ref().map(|(found, m, _)| {
        let call = Call {
            host: host.name(),
            request: &m.request,
            also: &m.also,
            unattestable: None,
            cwd,
        };
        let d = finish(
            entry::decide(layers, &call),
            roots,
            layers.state_dir.as_deref(),
        );
        let why = clip(&format!(
            "rewritten by rule {} ({}) `{}` to `{}`; {}",
            found.id,
            found.at,
            found.text,
            found.command,
            reason(&d)
        ));
        (m, (d.decision, why), d.walks)
    });
    let alt = alt.as_ref().map(|(m, d, w)| (*m, d.clone(), w.as_slice()));
    let sess = crate::host::after::after_decision(
        host,
        ev,
        inp,
        mapped,
        &decided.walks,
        &decided.loaded,
        cwd,
        &roots.root,
        (decided.decision, reason(decided)),
        alt,
        true,
    );
    let a = finalize(host, inp, sess.decision, sess.reason.clone());
    let mut r = host.render(&a, ev);
    match &cand {
        Some((_, _, input)) if sess.rewritten && a.kind == Kind::Allow => {
            r = super::claude::with_updated_input(r, input);
        }
        _ => {}
    }
    if a.kind == Kind::Allow {
        let remembered = crate::host::remember::remembered(&crate::host::remember::Allowed {
            host,
            ev,
            mapped,
            decided,
            decision: sess.decision,
            session_dependent: sess.touched,
            rewritten: sess.rewritten,
        });
        if let Some(content) = remembered {
            r = crate::host::remember::render(&content);
        }
    }
    sess.render(host, ev, &mut r);
    r
}

/// Gemini CLI reads stderr as the answer when stdout is empty, and text that is not JSON as
/// allow: a notice beside a `default` answer (no table; another polc on PATH) became an
/// allow of every call (bug fixed). There, an exit-0 answer with nothing on stdout writes
/// nothing on stderr either.
fn quiet_where_stderr_is_an_answer(host: Host, r: &mut Rendered) {
    if host == Host::Gemini && r.exit == 0 && r.stdout.iter().all(u8::is_ascii_whitespace) {
        r.stderr = None;
    }
}

/// A warning when `command -v polc` is not the binary running this hook: the person's
/// `polc build`, `polc trust` and `polc confirm` then run another polc than the hook does
/// (issue 9 item 2: a `polc` planted ahead on PATH is what an agent would use to fool them).
fn other_polc_on_path() -> Option<String> {
    use std::os::unix::fs::{MetadataExt, PermissionsExt};
    let exe = std::env::current_exe().ok()?;
    let me = std::fs::metadata(&exe).ok()?;
    let path = std::env::var_os("PATH").unwrap_or_default();
    let found = std::env::split_paths(&path)
        .take(64)
        .filter(|d| d.is_absolute())
        .map(|d| d.join("polc"))
        .find_map(|p| {
            let m = std::fs::metadata(&p).ok()?;
            (m.is_file() && m.permissions().mode() & 0o111 != 0).then_some((p, m))
        });
    match found {
        Some((_, m)) if (m.dev(), m.ino()) == (me.dev(), me.ino()) => None,
        Some((p, _)) => Some(format!(
            "polc warning: `command -v polc` is {} but this hook runs {}: the polc you run on the terminal is not the hook's",
            p.display(),
            exe.display()
        )),
        None => Some(format!(
            "polc warning: no polc on PATH; this hook runs {}: put it on PATH so the polc you run on the terminal is the hook's",
            exe.display()
        )),
    }
}

/// The seam after the decision: steps that post-process it before it is rendered, each
/// through [`Decided::adjust`]: the session's cap (an unknown project root: anything but
/// deny becomes ask) and the agent-configuration tripwire (`runtime::tripwire`: a change
/// since polc last saw it denies every answer until a person confirms); session denial
/// tracking goes here too (`src/runtime/README.md`).
fn finish(mut d: Decided, roots: &super::session::Roots, state_dir: Option<&Path>) -> Decided {
    if let Some(why) = &roots.degraded {
        if d.decision != Decision::Deny {
            let (decision, reason) = super::session::degrade((d.decision, String::new()), why);
            d.adjust(decision, reason);
        }
    }
    let mut watched: Vec<&Path> = vec![roots.root.as_path()];
    watched.extend(roots.other.as_deref());
    let at = state_dir.map(|s| crate::runtime::tripwire::Places {
        state: s.to_path_buf(),
        config: crate::runtime::state::config_dir(),
    });
    if let Some(why) = crate::runtime::tripwire::verdict(at.as_ref(), &watched) {
        d.adjust(Decision::Deny, why);
    }
    d
}

/// The stderr line for a table problem (and for no table at all).
fn notice(d: &Decided) -> Option<String> {
    Some(match d.failure.as_ref()? {
        Failure::NoTable => {
            "polc: no policy table configured or found; the host's own rules apply".to_string()
        }
        Failure::Unusable(why) | Failure::Changed(why) => format!("polc: {why}"),
        Failure::Corrupt(c) => format!("polc: {c}"),
    })
}

/// R: the rule (id, source:line, text, reason), the construct, why nothing decided, or the
/// table problem.
pub fn reason(d: &Decided) -> String {
    if let Some(r) = &d.adjusted {
        return r.clone();
    }
    let Some(j) = &d.judged else {
        return match &d.failure {
            Some(Failure::Unusable(why) | Failure::Changed(why)) => format!("polc deny: {why}"),
            Some(Failure::NoTable) => "polc: internal error".into(),
            Some(Failure::Corrupt(c)) => format!("polc deny: {c}"),
            None => "polc deny: the policy table is corrupt: run `polc build`".into(),
        };
    };
    let r = judged_reason(j);
    match &d.disagree {
        None => r,
        Some((root, other)) => clip(&format!(
            "{r} (the host's project folder {} and the session's start {} disagree: no project table grants anything)",
            root.display(),
            other.display()
        )),
    }
}

/// R of a judgment.
pub fn judged_reason(j: &Judged) -> String {
    let out = &j.outcome;
    let v = out.decision.as_str();
    let rule = || {
        let Some(d) = &j.winner else {
            return String::new();
        };
        let why = d
            .reason
            .as_ref()
            .map(|x| format!(": {x}"))
            .unwrap_or_default();
        let at = if d.line > 0 {
            format!("{}:{}", d.source, d.line)
        } else {
            d.source.clone()
        };
        format!("rule {} ({at}) `{}`{why}", d.id, d.text)
    };
    clip(&match &out.cause {
        Cause::Rule { .. } => format!("polc {v}: {}", rule()),
        Cause::PossibleDeny { .. } => format!(
            "polc {v}: part of the command cannot be known and could match deny {}",
            rule()
        ),
        Cause::Unattestable { construct } => format!(
            "polc {v}: polc cannot attest this command ({construct}); a person must approve it"
        ),
        Cause::NoRule => format!("polc {v}: no rule decides this call"),
    })
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
