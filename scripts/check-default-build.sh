#!/bin/sh
# A build that can be installed (no `test-paths` feature) says nothing of test paths in
# `--version` and ignores every test-only variable (issue 9 item 5). Run from the repo root.
# POLC_BIN=FILE checks that binary instead of building one (a test build must fail).
set -eu
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR_DEFAULT_BUILD:-target/default-build}"
[ -n "${POLC_BIN:-}" ] || cargo build --quiet --bin polc
bin="${POLC_BIN:-$PWD/$CARGO_TARGET_DIR/debug/polc}"
if "$bin" --version | grep -q "TEST BUILD"; then
  echo "a default build claims the test-paths feature: $("$bin" --version)" >&2; exit 1
fi
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/pol" "$tmp/cfg" "$tmp/proj"
printf 'deny bash prefix "echo" { id moved-by-env }\n' > "$tmp/pol/p.pol"
(cd "$tmp" && "$bin" build pol/p.pol -o cfg/policy.bin >/dev/null)
input='{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"echo hi"}}'
out=$(printf '%s' "$input" | env POLC_CONFIG_DIR="$tmp/cfg" POLC_CACHE_DIR="$tmp/c" \
  POLC_STATE_DIR="$tmp/s" POLC_HOOK_SELFTEST=panic CLAUDE_PROJECT_DIR="$tmp/proj" \
  "$bin" hook --host claude 2>/dev/null || true)
case "$out" in
  *moved-by-env*) echo "a default build read POLC_CONFIG_DIR: $out" >&2; exit 1 ;;
  *"internal error"*) echo "a default build honoured POLC_HOOK_SELFTEST: $out" >&2; exit 1 ;;
esac
for d in c s; do
  [ ! -e "$tmp/$d" ] || { echo "a default build wrote under POLC_${d}_DIR" >&2; exit 1; }
done
echo "ok: $bin ignores POLC_CONFIG_DIR/POLC_CACHE_DIR/POLC_STATE_DIR/POLC_HOOK_SELFTEST and says no TEST BUILD"
