#!/usr/bin/env sh
# Install the pinned @anthropic-ai/claude-code (tests/claude_matcher/VERSION) outside the
# repository, for the differential test (tests/claude_matcher.rs). Prints the package folder.
# 2.1.112 is the release the issue's figures came from, and one of the last that ships its
# JavaScript as cli.js (later releases ship a native binary).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
version=$(tr -d ' \n' < "$here/VERSION")
cache=${POLC_AGENTS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/polc-agents}
dir="$cache/claude-code-$version"
pkg="$dir/node_modules/@anthropic-ai/claude-code"
if [ ! -f "$pkg/cli.js" ]; then
  mkdir -p "$dir"
  (cd "$dir" && [ -f package.json ] || echo '{"private":true}' > package.json)
  (cd "$dir" && npm install --ignore-scripts --omit=optional --no-audit --no-fund \
      "@anthropic-ai/claude-code@$version" >&2)
fi
echo "$pkg"
