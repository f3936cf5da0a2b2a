//! Whole-process A/B timer used by `benches/coldstart.sh` (issue 5). Runs A, B, A, B, … so
//! machine drift hits both alike, and prints medians, percentiles, the ratio of medians and
//! the median of the per-pair ratios, plus each side's peak resident memory (`ru_maxrss`
//! from `wait4`).
//!
//!     coldstart --runs N [--stdin FILE] [--warmup K] [--rss-runs R] -- A ARGS… --- B ARGS…
//!
//! Peak memory: `ru_maxrss` from `wait4` is useless here: at `exec` the kernel folds the
//! pre-exec image's peak into it, and a spawned child's pre-exec image is this timer (≈2 MB),
//! so every small program reads the same. Instead a separate, untimed pass of R runs per side
//! traces the child (`PTRACE_O_TRACEEXIT`) and reads `VmHWM` from `/proc/PID/status` at its
//! exit stop: the peak of the exec'd program alone.

use std::process::{Command, Stdio};
use std::time::Instant;

struct Side {
    argv: Vec<String>,
    ns: Vec<u64>,
    rss_kb: Vec<u64>,
    codes: Vec<i32>,
}

// The child is reaped by `wait4` (which also gives its rusage), not `Child::wait`.
#[allow(clippy::zombie_processes)]
fn run_once(side: &mut Side, stdin: Option<&str>, record: bool) {
    let mut cmd = Command::new(&side.argv[0]);
    cmd.args(&side.argv[1..])
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    match stdin {
        Some(p) => cmd.stdin(std::fs::File::open(p).expect("stdin file")),
        None => cmd.stdin(Stdio::null()),
    };
    let t0 = Instant::now();
    let child = cmd
        .spawn()
        .unwrap_or_else(|e| panic!("spawn {}: {e}", side.argv[0]));
    let mut status = 0i32;
    // SAFETY: an all-zero rusage is a valid value; wait4 fills it for our own child.
    let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
    let pid = child.id() as libc::pid_t;
    // SAFETY: plain syscall on our child's pid with valid out-pointers.
    let r = unsafe { libc::wait4(pid, &mut status, 0, &mut ru) };
    let dt = t0.elapsed().as_nanos() as u64;
    assert_eq!(r, pid, "wait4 failed");
    if record {
        side.ns.push(dt);
        let _ = ru.ru_maxrss; // see the module doc: not the child's own peak
        side.codes.push(if libc::WIFEXITED(status) {
            libc::WEXITSTATUS(status)
        } else {
            -1
        });
    }
}

/// Peak resident set (KB) of one run of `argv`, read at its exit stop under ptrace.
#[allow(clippy::zombie_processes)] // reaped by waitpid under ptrace
fn traced_hwm_kb(argv: &[String], stdin: Option<&str>) -> u64 {
    use std::os::unix::process::CommandExt;
    let mut cmd = Command::new(&argv[0]);
    cmd.args(&argv[1..])
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    match stdin {
        Some(p) => cmd.stdin(std::fs::File::open(p).expect("stdin file")),
        None => cmd.stdin(Stdio::null()),
    };
    // SAFETY: PTRACE_TRACEME is async-signal-safe and touches no memory of ours.
    unsafe {
        cmd.pre_exec(|| {
            libc::ptrace(libc::PTRACE_TRACEME, 0, 0, 0);
            Ok(())
        });
    }
    let child = cmd.spawn().expect("spawn");
    let pid = child.id() as libc::pid_t;
    let mut status = 0;
    let mut hwm = 0u64;
    // SAFETY: ptrace/waitpid on our own traced child with valid pointers.
    unsafe {
        libc::waitpid(pid, &mut status, 0); // the SIGTRAP after exec
        libc::ptrace(libc::PTRACE_SETOPTIONS, pid, 0, libc::PTRACE_O_TRACEEXIT);
        libc::ptrace(libc::PTRACE_CONT, pid, 0, 0);
        loop {
            libc::waitpid(pid, &mut status, 0);
            if libc::WIFEXITED(status) || libc::WIFSIGNALED(status) {
                break;
            }
            let mut sig = 0;
            if status >> 8 == (libc::SIGTRAP | (libc::PTRACE_EVENT_EXIT << 8)) {
                let text =
                    std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
                hwm = text
                    .lines()
                    .find_map(|l| l.strip_prefix("VmHWM:"))
                    .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
                    .unwrap_or(0);
            } else if libc::WIFSTOPPED(status) {
                sig = libc::WSTOPSIG(status);
            }
            libc::ptrace(libc::PTRACE_CONT, pid, 0, sig);
        }
    }
    hwm
}

fn pct(v: &[u64], p: f64) -> u64 {
    let mut s = v.to_vec();
    s.sort_unstable();
    s[((s.len() - 1) as f64 * p).round() as usize]
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut runs = 1000usize;
    let mut warmup = 20usize;
    let mut stdin: Option<String> = None;
    let mut rss_runs = 20usize;
    let mut i = 0;
    while i < args.len() && args[i] != "--" {
        match args[i].as_str() {
            "--runs" => runs = args[i + 1].parse().expect("--runs N"),
            "--warmup" => warmup = args[i + 1].parse().expect("--warmup K"),
            "--stdin" => stdin = Some(args[i + 1].clone()),
            "--rss-runs" => rss_runs = args[i + 1].parse().expect("--rss-runs R"),
            a => panic!("unknown argument {a}"),
        }
        i += 2;
    }
    let rest = &args[(i + 1).min(args.len())..];
    let sep = rest.iter().position(|a| a == "---").expect("A … --- B …");
    let mut a = Side {
        argv: rest[..sep].to_vec(),
        ns: vec![],
        rss_kb: vec![],
        codes: vec![],
    };
    let mut b = Side {
        argv: rest[sep + 1..].to_vec(),
        ns: vec![],
        rss_kb: vec![],
        codes: vec![],
    };
    for _ in 0..warmup {
        run_once(&mut a, stdin.as_deref(), false);
        run_once(&mut b, stdin.as_deref(), false);
    }
    for _ in 0..runs {
        run_once(&mut a, stdin.as_deref(), true);
        run_once(&mut b, stdin.as_deref(), true);
    }
    for _ in 0..rss_runs {
        for s in [&mut a, &mut b] {
            let kb = traced_hwm_kb(&s.argv, stdin.as_deref());
            s.rss_kb.push(kb);
        }
    }
    let mut pair: Vec<u64> =
        a.ns.iter()
            .zip(&b.ns)
            .map(|(x, y)| x * 1000 / (*y).max(1))
            .collect();
    pair.sort_unstable();
    for (name, s) in [("A", &a), ("B", &b)] {
        let mut codes = s.codes.clone();
        codes.sort_unstable();
        codes.dedup();
        println!(
            "{name}: median {:.1} us  p10 {:.1}  p90 {:.1}  (n={})  peak RSS (VmHWM) median {} KB  exit codes {:?}  [{}]",
            pct(&s.ns, 0.5) as f64 / 1e3,
            pct(&s.ns, 0.1) as f64 / 1e3,
            pct(&s.ns, 0.9) as f64 / 1e3,
            s.ns.len(),
            pct(&s.rss_kb, 0.5),
            codes,
            s.argv.join(" ")
        );
    }
    println!(
        "ratio A/B: of medians {:.3}   median of paired ratios {:.3}   RSS {:.2}",
        pct(&a.ns, 0.5) as f64 / pct(&b.ns, 0.5) as f64,
        pct(&pair, 0.5) as f64 / 1000.0,
        pct(&a.rss_kb, 0.5) as f64 / pct(&b.rss_kb, 0.5) as f64
    );
}
