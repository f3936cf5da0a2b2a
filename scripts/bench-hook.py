#!/usr/bin/env python3
"""Whole-process time of `polc hook --host claude` on the default policy vs a trivial binary
that reads the same stdin and prints a fixed line. Alternates A B A B in one run; medians.

usage: scripts/bench-hook.py POLC TRIVIAL [N]   (run from the repo root, table built)"""
import json, os, statistics, subprocess, sys, tempfile, time

polc, trivial = sys.argv[1], sys.argv[2]
n = int(sys.argv[3]) if len(sys.argv) > 3 else 300
root = os.getcwd()
cfg = tempfile.mkdtemp(prefix="polc-bench-cfg-")
import hashlib
# Trust the default table for this root, as `polc trust` would record it.
digest = hashlib.sha256(open(os.path.join(root, "compiled/policy.bin"), "rb").read()).hexdigest()
open(os.path.join(cfg, "trusted"), "w").write(f"{digest}\t{os.path.realpath(root)}\n")
env = dict(os.environ, CLAUDE_PROJECT_DIR=root, POLC_CONFIG_DIR=cfg)
inputs = {
    "allow (git status)": "git status",
    "ask (git push)": "git push origin main",
    "deny (rm -rf ~)": "rm -rf ~",
    "default (make)": "make release",
}
def payload(cmd):
    return json.dumps({"session_id": "b", "cwd": root, "permission_mode": "default",
        "hook_event_name": "PreToolUse", "tool_name": "Bash",
        "tool_input": {"command": cmd}}).encode()
def once(argv, data):
    t = time.perf_counter_ns()
    subprocess.run(argv, input=data, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    return (time.perf_counter_ns() - t) / 1e6
hook = [polc, "hook", "--host", "claude"]
for label, cmd in inputs.items():
    data = payload(cmd)
    for _ in range(20):  # warm caches (integrity cache settles after 2 s of table age)
        once(hook, data); once([trivial], data)
    a, b = [], []
    for _ in range(n):
        a.append(once(hook, data)); b.append(once([trivial], data))
    ma, mb = statistics.median(a), statistics.median(b)
    print(f"{label:22} polc hook {ma:6.3f} ms   trivial {mb:6.3f} ms   difference {ma-mb:6.3f} ms  (n={n} each, alternated)")
