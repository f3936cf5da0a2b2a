#!/bin/sh
# The arrows between src/'s top-level modules: "A -> B" when non-test code under A names
# `crate::B` (a `use` or a path). Test code (`*tests.rs` files and `#[cfg(test)] mod … {`
# blocks) is left out. Usage: scripts/module-graph.sh [--check]   (--check: exit 1 when an
# arrow the layering forbids is present: compile and runtime never import each other, and
# the runtime never imports lint; the table format lives in `table`, which both import).
set -eu
cd "$(dirname "$0")/.."
FORBIDDEN='^(compile -> runtime|runtime -> compile|runtime -> lint)$'
graph=$(find src -name '*.rs' ! -name '*tests.rs' | sort | while read -r f; do
  rel=${f#src/}
  case "$rel" in
    */*) from=${rel%%/*} ;;
    *) from=${rel%.rs} ;;
  esac
  [ "$from" = lib ] || [ "$from" = main ] && continue
  awk -v from="$from" '
    function indent(s) { match(s, /^ */); return RLENGTH }
    skip_to != "" { if ($0 == skip_to) skip_to = ""; next }
    /^ *#\[cfg\((all\()?test/ { pending_test = 1; next }
    pending_test && /^ *(pub )?mod [a-z_0-9]+ *\{/ { skip_to = sprintf("%*s}", indent($0), ""); if (indent($0) == 0) skip_to = "}"; pending_test = 0; next }
    { pending_test = 0 }
    /^ *\/\// { next }
    {
      line = $0
      while (match(line, /crate::[a-z_0-9]+/)) {
        to = substr(line, RSTART + 7, RLENGTH - 7)
        if (to != from) print from " -> " to
        line = substr(line, RSTART + RLENGTH)
      }
    }
  ' "$f"
done | sort -u)
printf '%s\n' "$graph"
if [ "${1:-}" = "--check" ]; then
  bad=$(printf '%s\n' "$graph" | grep -E "$FORBIDDEN" || true)
  if [ -n "$bad" ]; then
    printf 'forbidden arrows:\n%s\n' "$bad"
    exit 1
  fi
fi
