#!/bin/sh
# Lists functions longer than a bound (default 100 lines, from the `fn` line to its closing
# brace) in src/, outside tests (`tests.rs` files and `#[cfg(test)] mod … {` blocks).
# Usage: scripts/long-fns.sh [MAX] [--check]   (--check: exit 1 when a function not in EXEMPT
# is listed).
# Relies on rustfmt's layout: a function's closing brace is the first line after it at the
# `fn` line's indentation.
set -eu
cd "$(dirname "$0")/.."
max=${1:-100}
check=${2:-}
# An extended regex over the lines above for functions not split yet (none today).
EXEMPT=${LONG_FNS_EXEMPT:-}
find src -name '*.rs' ! -name tests.rs | sort | while read -r f; do
  awk -v max="$max" -v file="$f" '
    function indent(s) { match(s, /^ */); return RLENGTH }
    # A test module: skip to its closing brace.
    skip_to != "" { if ($0 == skip_to) skip_to = ""; next }
    /^ *#\[cfg\((all\()?test/ { pending_test = 1; next }
    pending_test && /^ *(pub )?mod [a-z_0-9]+ *\{/ { skip_to = sprintf("%*s}", indent($0), ""); if (indent($0) == 0) skip_to = "}"; pending_test = 0; next }
    { pending_test = 0 }
    open == "" && !sig && /^ *((pub(\([a-z:]+\))?|const|unsafe|async|extern "C") )*fn [A-Za-z_0-9]+/ {
      start = NR; ind = indent($0)
      name = $0; sub(/^.*fn /, "", name); sub(/[^A-Za-z_0-9].*$/, "", name)
      sig = 1
    }
    # The signature ends with `{` (a body) or `;` (a trait method without one).
    sig {
      if ($0 ~ /;$/) { sig = 0; next }
      if ($0 ~ /\{$/ || $0 ~ /\}$/) {
        sig = 0
        # A one-line function closes on its own line.
        if ($0 ~ /\}$/) next
        open = sprintf("%*s}", ind, ""); if (ind == 0) open = "}"
      }
      next
    }
    open != "" && $0 == open {
      n = NR - start + 1
      if (n > max) printf "%5d %s:%d %s\n", n, file, start, name
      open = ""
    }
  ' "$f"
done | sort -rn | {
  if [ "$check" = "--check" ]; then
    out=$(cat)
    bad=$(printf '%s\n' "$out" | grep -v '^$' | { if [ -n "$EXEMPT" ]; then grep -Ev "$EXEMPT"; else cat; fi; } || true)
    printf '%s\n' "$out" | grep -v '^$' || true
    if [ -n "$bad" ]; then echo "functions over $max lines (see above)"; exit 1; fi
  else
    cat
  fi
}
