#!/bin/sh
# The arrows between src/'s top-level modules: "A -> B" when non-test code under A names
# `crate::B` (a `use`, a path, or a member of a grouped `use crate::{B, C::…}`). Test code
# (`*tests.rs` files and `#[cfg(test)] mod … {` blocks) is left out.
# Usage: scripts/module-graph.sh [--check]
#   --check: exit 1 when
#   - an arrow the layering forbids is present: compile and runtime never import each
#     other, and the runtime never imports lint (the table format lives in `table`, which
#     both import);
#   - the arrows contain a cycle: the top-level modules must form a DAG (each cycle found
#     is printed, "a -> b -> … -> a").
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
    function arrow(to) { if (to != from) print from " -> " to }
    # Inside a grouped `crate::{…}` (possibly over several lines): the first name of each
    # top-level member is a module.
    function group(s,   i, c) {
      for (i = 1; i <= length(s) && depth > 0; i++) {
        c = substr(s, i, 1)
        if (c == "{") { depth++; continue }
        if (c == "}") { depth--; continue }
        if (depth == 1 && c == ",") { want = 1; continue }
        if (depth == 1 && want && c ~ /[a-z_]/) {
          match(substr(s, i), /^[a-z_0-9]+/)
          arrow(substr(s, i, RLENGTH))
          i += RLENGTH - 1
          want = 0
        }
      }
      return substr(s, i)
    }
    skip_to != "" { if ($0 == skip_to) skip_to = ""; next }
    /^ *#\[cfg\((all\()?test/ { pending_test = 1; next }
    pending_test && /^ *(pub )?mod [a-z_0-9]+ *\{/ { skip_to = sprintf("%*s}", indent($0), ""); if (indent($0) == 0) skip_to = "}"; pending_test = 0; next }
    { pending_test = 0 }
    /^ *\/\// { next }
    {
      line = $0
      if (depth > 0) line = group(line)
      while (match(line, /crate::([a-z_0-9]+|\{)/)) {
        to = substr(line, RSTART + 7, RLENGTH - 7)
        line = substr(line, RSTART + RLENGTH)
        if (to == "{") { depth = 1; want = 1; line = group(line) } else arrow(to)
      }
    }
  ' "$f"
done | sort -u)
printf '%s\n' "$graph"
if [ "${1:-}" = "--check" ]; then
  status=0
  bad=$(printf '%s\n' "$graph" | grep -E "$FORBIDDEN" || true)
  if [ -n "$bad" ]; then
    printf 'forbidden arrows:\n%s\n' "$bad" >&2
    status=1
  fi
  # Depth-first search; an arrow to a module still on the stack closes a cycle.
  cycles=$(printf '%s\n' "$graph" | awk '
    NF == 3 { n[$1]++; adj[$1, n[$1]] = $3; node[$1] = 1; node[$3] = 1 }
    function visit(v,   i, w, k, c) {
      state[v] = 1; stack[++top] = v
      for (i = 1; i <= n[v]; i++) {
        w = adj[v, i]
        if (state[w] == 1) {
          c = ""
          for (k = 1; k <= top; k++) if (stack[k] == w) break
          for (; k <= top; k++) c = c stack[k] " -> "
          print c w
        } else if (state[w] == 0) visit(w)
      }
      top--; state[v] = 2
    }
    END { for (v in node) if (state[v] == 0) visit(v) }
  ' | sort -u)
  if [ -n "$cycles" ]; then
    printf 'import cycles between top-level modules:\n%s\n' "$cycles" >&2
    status=1
  fi
  exit "$status"
fi
