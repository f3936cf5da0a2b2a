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
(cd "$tmp" && "$bin" build pol/p.pol -o cfg/policy.bin >/dev/null 2>&1)
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

# Under a throwaway user whose password-database home is a temporary folder (root only, with
# useradd): the user table there is read, and HOME / POLC_CONFIG_DIR do not move it.
if [ "$(id -u)" = 0 ] && command -v useradd >/dev/null && command -v runuser >/dev/null; then
  user="polcci$$"
  chmod 755 "$tmp"
  useradd -M -d "$tmp/home" -s /bin/sh "$user"
  trap 'userdel "$user" 2>/dev/null; rm -rf "$tmp"' EXIT
  mkdir -p "$tmp/home/.config/polc" "$tmp/uproj"
  cp "$tmp/cfg/policy.bin" "$tmp/home/.config/polc/policy.bin"
  cp "$bin" "$tmp/polc"
  chown -R "$user" "$tmp/home" "$tmp/uproj"
  uin='{"session_id":"ci","cwd":"'"$tmp/uproj"'","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"echo hi"}}'
  for env in "HOME=$tmp/home" "HOME=/nonexistent" "POLC_CONFIG_DIR=/nonexistent"; do
    out=$(printf '%s' "$uin" | runuser -u "$user" -- env -i PATH=/usr/bin:/bin "$env" \
      CLAUDE_PROJECT_DIR="$tmp/uproj" "$tmp/polc" hook --host claude 2>&1 || true)
    case "$out" in
      *moved-by-env*) ;;
      *) echo "throwaway user ($env): the user table in the password-database home was not applied: $out" >&2; exit 1 ;;
    esac
  done
  [ -n "$(ls "$tmp/home/.local/state/polc/sessions" 2>/dev/null)" ] \
    || { echo "throwaway user: no session record in the password-database home" >&2; exit 1; }
  echo "ok: as a throwaway user, the user table and state live in the password-database home"
fi
echo "ok: $bin ignores POLC_CONFIG_DIR/POLC_CACHE_DIR/POLC_STATE_DIR/POLC_HOOK_SELFTEST and says no TEST BUILD"
