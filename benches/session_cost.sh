#!/bin/sh
# The hook's added cost of a session feature (src/session/README.md, "Cost"): instruction
# counts (callgrind) of one `polc hook --host claude` call on the shipped policy without (A)
# and with (B) its exfiltration sequence, and the state-file syscalls (strace).
# Needs valgrind and strace. Usage: benches/session_cost.sh [BUILD_DIR]
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-/tmp/polc-session-cost}
w=$(mktemp -d)
CARGO_TARGET_DIR="$build" cargo build --quiet --release --no-default-features --features test-paths --manifest-path "$here/Cargo.toml"
cargo build --quiet --manifest-path "$here/Cargo.toml"
P="$build/release/polc"
mkdir -p "$w/A/policies" "$w/B/policies"
python3 - "$here/policies/default.pol" "$w" <<'PY'
import sys
s = open(sys.argv[1]).read()
i = s.index('# A secret read in this session'); j = s.index('# ── Files')
open(sys.argv[2] + '/A/policies/default.pol', 'w').write(s[:i] + s[j:])
open(sys.argv[2] + '/B/policies/default.pol', 'w').write(s)
PY
for k in A B; do (cd "$w/$k" && "$here/target/debug/polc" build >/dev/null 2>&1); done
# The integrity cache keeps only tables that have settled (an mtime a little in the past).
sleep 3
export POLC_STATE_DIR="$w/state" POLC_CONFIG_DIR="$w/cfg" POLC_CACHE_DIR="$w/cache" CLAUDE_PROJECT_DIR="$w/A" PATH="$build/release:$PATH"
I="{\"session_id\":\"bench\",\"cwd\":\"$w/A\",\"hook_event_name\":\"PreToolUse\",\"permission_mode\":\"default\",\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"git status\"},\"tool_use_id\":\"t\"}"
for i in 1 2 3; do for k in A B; do echo "$I" | "$P" hook --host claude --table "$w/$k/compiled/policy.bin" >/dev/null 2>&1; done; done
for k in A B; do
  echo "$I" | valgrind --tool=callgrind --callgrind-out-file="$w/cg.$k" "$P" hook --host claude --table "$w/$k/compiled/policy.bin" >/dev/null 2>"$w/vg.$k"
  echo "$k: $(grep -o 'Collected : [0-9]*' "$w/vg.$k")"
done
echo "A touches the state folder: $(echo "$I" | strace -f -e trace=openat "$P" hook --host claude --table "$w/A/compiled/policy.bin" 2>&1 >/dev/null | grep -c session-state) time(s)"
echo "B's state-file syscalls:"
echo "$I" | strace -f -e trace=openat,flock,write,rename "$P" hook --host claude --table "$w/B/compiled/policy.bin" 2>&1 >/dev/null | grep -E 'session-state|flock|write\(3'
rm -rf "$w"
