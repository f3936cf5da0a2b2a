#!/usr/bin/env bash
# Where a whole hook call's time goes, next to the trivial binary's (issue 16): the kernel's
# share (exec, page faults, system calls by name) and user space (the dynamic loader, libc,
# the program), from `perf record` with the software clock (this VM has no hardware counters),
# call stacks included, over N calls of each program.
#
#   benches/where_time_goes.sh [--runs N] [--input git|5seg|10k|read|webfetch]
#
# Run benches/coldstart.sh (or perf_all.sh) first: it builds both binaries and writes the
# inputs under target/coldstart; this script profiles the binaries it names in
# target/coldstart/last-polc and last-trivial, on the shipped table. Prints, per program,
# samples per call by category (one sample = 50 µs of CPU at 20 kHz, inflated by perf itself:
# compare the two columns, not the microseconds).
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=400 INPUT=git
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) RUNS=$2; shift 2 ;;
    --input) INPUT=$2; shift 2 ;;
    *) echo "usage: $0 [--runs N] [--input NAME]" >&2; exit 2 ;;
  esac
done
W=$PWD/target/coldstart
POLC=$(cat "$W/last-polc")
TRIVIAL=$(cat "$W/last-trivial")
JSON=$W/pretooluse-$INPUT.json
TABLE=$PWD/compiled/policy.bin
export PATH="$(dirname "$POLC"):$PATH"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
"$POLC" hook --host claude --table "$TABLE" < "$JSON" > /dev/null 2>&1 || true
for who in polc trivial; do
  if [ "$who" = polc ]; then CMD="\"$POLC\" hook --host claude --table \"$TABLE\""; else CMD="\"$TRIVIAL\""; fi
  printf 'for i in $(seq 1 %s); do %s < "%s" > /dev/null; done\n' "$RUNS" "$CMD" "$JSON" > "$T/loop.sh"
  perf record -q -F 20000 -g -o "$T/$who.data" -- sh "$T/loop.sh" > /dev/null 2>&1
  perf script -i "$T/$who.data" --comm "$(basename "${CMD%% *}" | tr -d '"')" -F comm,ip,sym,dso \
    > "$T/$who.txt" 2> /dev/null
done
python3 - "$T/polc.txt" "$T/trivial.txt" "$RUNS" <<'PY'
import collections, re, sys

def categories(path, calls):
    c, sysc = collections.Counter(), collections.Counter()
    for s in open(path).read().split("\n\n"):
        frames = [l.strip() for l in s.strip().split("\n")[1:] if l.strip()]
        if not frames:
            continue
        txt = " ".join(frames)
        if any(k in txt for k in ("exit_mmap", "do_exit", "do_group_exit")):
            k = "kernel: exit"
        elif any(k in txt for k in ("execve", "load_elf_binary", "begin_new_exec")):
            k = "kernel: exec"
        elif "asm_exc_page_fault" in txt:
            k = "kernel: page faults (loader, relocation)" if "_dl_" in txt else "kernel: page faults (program, heap)"
        elif "entry_SYSCALL" in txt:
            names = re.findall(r"__x64_sys_(\w+)", txt)
            k = "kernel: system calls"
            sysc[names[-1] if names else "(unnamed)"] += 1
        elif "ld-linux" in frames[0]:
            k = "user: dynamic loader"
        elif "libc" in frames[0]:
            k = "user: libc"
        elif "kernel" in frames[0]:
            k = "kernel: other"
        else:
            k = "user: the program"
        c[k] += 1
    return {k: v / calls for k, v in c.items()}, {k: v / calls for k, v in sysc.items()}

calls = int(sys.argv[3])
(p, ps), (t, ts) = categories(sys.argv[1], calls), categories(sys.argv[2], calls)
print("| category | polc (samples/call) | trivial | difference |")
print("|---|---|---|---|")
for k in sorted(set(p) | set(t), key=lambda k: -(p.get(k, 0) - t.get(k, 0))):
    print(f"| {k} | {p.get(k, 0):.1f} | {t.get(k, 0):.1f} | {p.get(k, 0) - t.get(k, 0):+.1f} |")
print(f"| **total** | {sum(p.values()):.1f} | {sum(t.values()):.1f} | {sum(p.values()) - sum(t.values()):+.1f} |")
print()
print("system calls (polc, samples/call):", ", ".join(f"{k} {v:.1f}" for k, v in sorted(ps.items(), key=lambda x: -x[1])[:10]))
PY
