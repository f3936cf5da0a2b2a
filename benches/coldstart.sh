#!/usr/bin/env bash
# Whole-process cold start of polc vs a trivial binary built with the same profile (issue 5).
#
#   benches/coldstart.sh [--table shipped|100k|100k-json] [--cmd decide|hook] [--runs N]
#                        [--input git|5seg|10k|read|webfetch]
#                        [--target TRIPLE] [--rustflags FLAGS] [--build-dir DIR] [--minimal]
#
# --minimal builds polc with --no-default-features (the hook/decide path without the
# compiler: a 1.1 MB instead of 2.8 MB binary), as a hook should ship.
# --target builds both binaries for TRIPLE (e.g. x86_64-unknown-linux-musl); --rustflags adds
# codegen/link flags to both (only for the target, so proc-macros still build; it implies
# --target, default the host triple); --build-dir keeps such variants out of target/.
# A = polc on the chosen table, B = a Rust program that reads all stdin and prints a fixed
# JSON line, built by this script from target/coldstart/trivial with polc's own
# [profile.dist] (the shipped hook's profile; the helpers are built with --release). Runs
# alternate A B A B … (examples/coldstart.rs) and report medians, the ratio and peak RSS.
# Both get the same Claude PreToolUse JSON on stdin (--input: the issue 16 request mix:
# `git status`, a 5-segment command, a 10 kB command, a Read, a WebFetch), for a session of
# its own whose project is target/coldstart/proj (a shared session id would make the hook
# judge under another run's recorded start).
#   --cmd decide : polc decide --table T -- git status    (load + decide, exit-code protocol)
#   --cmd hook   : polc hook --host claude --table T < json (once `polc hook` exists)
set -euo pipefail
cd "$(dirname "$0")/.."
TABLE=shipped CMD=decide RUNS=1000 INPUT=git TARGET="" BUILD_DIR="" FLAGS="" FEAT=()
while [ $# -gt 0 ]; do
  case "$1" in
    --table) TABLE=$2; shift 2 ;;
    --cmd) CMD=$2; shift 2 ;;
    --runs) RUNS=$2; shift 2 ;;
    --input) INPUT=$2; shift 2 ;;
    --target) TARGET=$2; shift 2 ;;
    --build-dir) BUILD_DIR=$2; shift 2 ;;
    --rustflags) FLAGS=$2; shift 2 ;;
    --minimal) FEAT=(--no-default-features); shift ;;
    *) echo "usage: $0 [--table shipped|100k] [--cmd decide|hook] [--runs N]" >&2; exit 2 ;;
  esac
done
ROOT=$PWD
W=$ROOT/target/coldstart
mkdir -p "$W/trivial/src"

# Helpers (timer, generator) for the host; polc and the trivial binary for TARGET.
env -u RUSTFLAGS cargo build --release --quiet --example coldstart --example gen_policy
TD=${BUILD_DIR:-$ROOT/target}
TFLAG=() OUT=$TD/dist
if [ -n "$FLAGS" ] && [ -z "$TARGET" ]; then TARGET=$(rustc -vV | sed -n 's/^host: //p'); fi
if [ -n "$TARGET" ]; then TFLAG=(--target "$TARGET"); OUT=$TD/$TARGET/dist; fi
if [ -n "$FLAGS" ]; then
  export "CARGO_TARGET_$(echo "$TARGET" | tr 'a-z-' 'A-Z_')_RUSTFLAGS=$FLAGS"
fi
cargo build --profile dist --quiet --bin polc --target-dir "$TD" "${TFLAG[@]}" "${FEAT[@]}"
POLC=$OUT/polc
# Tables are built with the full compiler (a --minimal polc has no `build`).
cargo build --release --quiet --bin polc
BUILDER=$ROOT/target/release/polc

# The trivial binary: same toolchain, same [profile.dist] (and the [profile.release] it
# inherits) as polc.
{
  printf '[package]\nname = "trivial"\nversion = "0.1.0"\nedition = "2021"\n\n[workspace]\n\n'
  awk '/^\[profile\.(release|dist)\]/{p=1; print; next} /^\[/{p=0} p' Cargo.toml
} > "$W/trivial/Cargo.toml"
cat > "$W/trivial/src/main.rs" <<'RS'
use std::io::{Read, Write};
fn main() {
    let mut s = Vec::new();
    let _ = std::io::stdin().read_to_end(&mut s);
    let _ = std::io::stdout().write_all(b"{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"allow\"}}\n");
}
RS
cargo build --profile dist --quiet --manifest-path "$W/trivial/Cargo.toml" --target-dir "$W/target" "${TFLAG[@]}"
TRIVIAL=$W/target/${TARGET:+$TARGET/}dist/trivial

case "$TABLE" in
  shipped) T=$ROOT/compiled/policy.bin ;;
  100k)
    T=$W/p100k.bin
    if [ ! -f "$T" ] || [ "$BUILDER" -nt "$T" ]; then
      "$ROOT/target/release/examples/gen_policy" --rules 100000 --seed 1 -o "$W/p100k.pol"
      "$BUILDER" build "$W/p100k.pol" -o "$T" 2>/dev/null
      sleep 2.2   # the integrity cache records a table once its ctime is 2 s old
    fi ;;
  100k-json)
    T=$W/p100kjson/compiled/policy.bin
    if [ ! -f "$T" ] || [ "$BUILDER" -nt "$T" ]; then
      mkdir -p "$W/p100kjson/compiled"
      "$ROOT/target/release/examples/gen_policy" --rules 100000 --seed 1 --claude -o "$W/p100kjson/permcheck.json"
      "$BUILDER" build "$W/p100kjson/permcheck.json" -o "$T" 2>/dev/null
      sleep 2.2
    fi ;;
  *) echo "unknown table $TABLE" >&2; exit 2 ;;
esac

PROJ=$W/proj
mkdir -p "$PROJ/src"
SID="polc-coldstart-$(printf '%s' "$ROOT" | cksum | cut -d' ' -f1)"
LONG=$(printf 'x%.0s' $(seq 1 10000))
# The five inputs, all written (benches/perf_all.sh reads them), one of them used here.
for i in git 5seg 10k read webfetch; do
  case "$i" in
    git) TOOL=Bash IN='{"command":"git status"}' ;;
    5seg) TOOL=Bash IN='{"command":"git status && cargo build --release | tee log.txt; ls -la src && npm test"}' ;;
    10k) TOOL=Bash IN="{\"command\":\"git commit -m '$LONG'\"}" ;;
    read) TOOL=Read IN="{\"file_path\":\"$PROJ/src/main.rs\"}" ;;
    webfetch) TOOL=WebFetch IN='{"url":"https://docs.rs/serde/latest/serde/","prompt":"summarise"}' ;;
  esac
  printf '{"session_id":"%s","cwd":"%s","hook_event_name":"PreToolUse","tool_name":"%s","tool_input":%s,"permission_mode":"default"}\n' \
    "$SID" "$PROJ" "$TOOL" "$IN" > "$W/pretooluse-$i.json"
done
JSON=$W/pretooluse-$INPUT.json
[ -f "$JSON" ] || { echo "unknown input $INPUT" >&2; exit 2; }
echo "$POLC" > "$W/last-polc"; echo "$TRIVIAL" > "$W/last-trivial"; echo "$T" > "$W/last-table-$TABLE"

case "$CMD" in
  decide) A=("$POLC" decide --table "$T" -- git status) ;;
  hook) A=("$POLC" hook --host claude --table "$T") ;;
  *) echo "unknown cmd $CMD" >&2; exit 2 ;;
esac

echo "machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "polc: $POLC ${FEAT[*]} ($(stat -c %s "$POLC") bytes)  trivial: $TRIVIAL  rustflags: ${FLAGS:-none}"
echo "table: $T ($(stat -c %s "$T") bytes)   cmd: $CMD   input: $INPUT   runs: $RUNS pairs"
# Installed as the README says: the polc on PATH is the hook's (the hook checks that, and
# walks PATH to do it: without this every call looked through every PATH folder).
export PATH="$(dirname "$POLC"):$PATH"
# One call first: the session's start, the tripwire's record and the caches are written by
# the first call of a session, not by the calls measured.
"${A[@]}" < "$JSON" > /dev/null 2>&1 || true
"$ROOT/target/release/examples/coldstart" --runs "$RUNS" --stdin "$JSON" -- "${A[@]}" --- "$TRIVIAL"
