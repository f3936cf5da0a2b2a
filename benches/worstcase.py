#!/usr/bin/env python3
"""Worst-case decision latency (issue 12 item 6): every input kind at the documented bounds
(docs/contract.md#c-bounds: 100,000-byte commands, 10,000 segments) against large policies.

    cargo build --release --bin polc --example gen_policy
    python3 benches/worstcase.py [--polc target/release/polc] [--dir /tmp/polc-worst] [--runs 3]

Prints a markdown table: the median wall-clock time of `polc decide --table T -- CMD` (the
whole process: start, table open, decision) per input × policy, its median CPU time (user +
system: on a busy machine the wall clock also counts waiting for a core), and the decision. The target
is 100 ms for every cell; the internal deadline (5 s) is the backstop, not the plan.
"""

import argparse
import os
import statistics
import subprocess
import sys
import time

MAX = 100_000  # docs/contract.md#c-bounds: command text


def fit(prefix, unit, sep=""):
    """prefix + as many `unit`s as fit in MAX bytes."""
    n = (MAX - len(prefix)) // (len(unit) + len(sep))
    return (prefix + sep.join([unit] * n))[:MAX]


INPUTS = [
    ("one long word (100 kB)", "echo " + "a" * (MAX - 5)),
    ("many words (16,000)", fit("echo", " a1 b c d e f")),
    ("10,000 plain segments", ";".join(["ls x"] * 9_999)),
    # The same with no two segments alike (no repeated work to share).
    ("10,000 distinct segments", ";".join(f"ls x{i}" for i in range(9_999))),
    ("glob literals a0..a9999 in one segment", "echo " + " ".join(f"a{i}" for i in range(10_000)) + " b c d e f"),
    ("unknown words ($X, 8,000)", fit("echo", " $X a1 b c d e f")),
    ("substitutions (4,000)", fit("echo", " $(echo a1 b c d e f)")),
    ("one quoted string (100 kB)", "echo '" + ("a1 b c d e f " * 8000)[: MAX - 8] + "'"),
    ("contains literals (5,000)", fit("echo", " needle7x")),
    ("git status", "git status"),
]


def write_policies(d, polc, gen):
    os.makedirs(d, exist_ok=True)
    pols = {}
    w = os.path.join(d, "globs.pol")
    with open(w, "w") as f:
        for i in range(10_000):
            f.write(f'deny bash glob "* *a{i}*b*c*d*e*f* *"\n')
        for i in range(2_000):
            f.write(f'deny bash contains "needle{i}x"\n')
        f.write('allow bash prefix "echo"\nallow bash prefix "ls"\n')
    pols["10k pathological globs + 2k contains"] = w
    same = os.path.join(d, "same.pol")
    with open(same, "w") as f:
        for i in range(10_000):
            f.write(f'deny bash glob "* *a1*b*c*d*e*f* *" {{ id g{i} }}\n')
        for i in range(2_000):
            f.write(f'deny bash contains "needle{i}x"\n')
        f.write('allow bash prefix "echo"\nallow bash prefix "ls"\n')
    pols["10k identical globs + 2k contains"] = same
    g = os.path.join(d, "g100k.pol")
    subprocess.run([gen, "--rules", "100000", "-o", g], check=True)
    pols["100k generated .pol mix"] = g
    c = os.path.join(d, "c100k", "permcheck.json")
    os.makedirs(os.path.dirname(c), exist_ok=True)
    subprocess.run([gen, "--rules", "100000", "--claude", "-o", c], check=True)
    pols["100k Claude JSON mix"] = c
    tables = {}
    for name, src in pols.items():
        t = src.rsplit(".", 1)[0] + ".bin"
        subprocess.run([polc, "build", src, "-o", t], check=True, stdout=subprocess.DEVNULL)
        tables[name] = t
    return tables


# `polc decide` answers with its exit code. (The table is a project table nobody trusted, so
# its allow rules are dropped: allows read as default/ask here; the matching work is the same.)
CODES = {0: "allow", 1: "no table", 2: "deny", 3: "ask"}


def run(polc, table, cmd, runs):
    """Median wall-clock and median CPU (user + system) milliseconds, and the answer. On a busy
    machine the wall clock includes waiting for a core; the CPU time is the work."""
    times, cpus, out = [], [], None
    for _ in range(runs):
        t0 = time.perf_counter()
        p = subprocess.Popen([polc, "decide", "--table", table, "--", cmd], cwd=os.path.dirname(table),
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        _, status, ru = os.wait4(p.pid, 0)
        times.append(time.perf_counter() - t0)
        cpus.append(ru.ru_utime + ru.ru_stime)
        p.returncode = os.waitstatus_to_exitcode(status)
        out = CODES.get(p.returncode, f"exit {p.returncode}")
    return statistics.median(times) * 1000, statistics.median(cpus) * 1000, out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--polc", default="target/release/polc")
    ap.add_argument("--gen", default="target/release/examples/gen_policy")
    ap.add_argument("--only", default="", help="run only inputs whose label contains this")
    ap.add_argument("--tables", default="", help="run only policies whose name contains this")
    ap.add_argument("--dir", default="/tmp/polc-worst")
    ap.add_argument("--runs", type=int, default=3)
    a = ap.parse_args()
    tables = write_policies(os.path.abspath(a.dir), os.path.abspath(a.polc), os.path.abspath(a.gen))
    a.polc = os.path.abspath(a.polc)
    names = [n for n in tables if a.tables in n]
    print("| input (bytes) | " + " | ".join(names) + " |")
    print("|---|" + "---|" * len(names))
    worst = worst_cpu = 0.0
    for label, cmd in INPUTS:
        if a.only not in label:
            continue
        cells = []
        for n in names:
            ms, cpu, answer = run(a.polc, tables[n], cmd, a.runs)
            worst = max(worst, ms)
            worst_cpu = max(worst_cpu, cpu)
            cells.append(f"{ms:.0f} ms ({cpu:.0f} cpu) {answer}")
        print(f"| {label} ({len(cmd):,}) | " + " | ".join(cells) + " |")
        sys.stdout.flush()
    print(f"\nworst: {worst:.0f} ms wall, {worst_cpu:.0f} ms cpu")


if __name__ == "__main__":
    main()
