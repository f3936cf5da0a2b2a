#!/bin/sh
# The hook path links no parser: build polc without the compiler feature and check that
# the binary has `hook`, `decide` and `trust`, and no pest symbol. Run from the repo root.
# A debug build on purpose: without LTO nothing unused is stripped, so a parser linked in by
# mistake shows. The shipped hook is `cargo build --profile dist --no-default-features`
# (Cargo.toml [profile.dist]; benches/coldstart.sh measures that one).
set -eu
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-target/nodefault}"
cargo build --quiet --no-default-features --bin polc
bin="$CARGO_TARGET_DIR/debug/polc"
for cmd in hook decide trust; do
  "$bin" help "$cmd" >/dev/null || { echo "missing subcommand: $cmd" >&2; exit 1; }
done
if "$bin" help build >/dev/null 2>&1; then echo "build should need the compiler feature" >&2; exit 1; fi
n=$(nm "$bin" | grep -ci pest || true)
[ "$n" -eq 0 ] || { echo "the lean binary links pest ($n symbols)" >&2; exit 1; }
echo "ok: $bin has hook/decide/trust and no pest symbol"
