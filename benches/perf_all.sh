#!/usr/bin/env bash
# Every issue 16 figure from one run, each next to its target (the README's Performance
# section is this script's output).
#
#   benches/perf_all.sh [--runs N] [--build-dir DIR] [--inputs "git 5seg 10k read webfetch"]
#
# 1. Whole process: benches/coldstart.sh --cmd hook --minimal (the shipped hook build,
#    `--profile dist --no-default-features`) on the shipped policy, the generated 100,000-rule
#    `.pol` mix and 100,000 Claude rules as `permcheck.json`; A B A B medians and peak RSS
#    (VmHWM) against a trivial binary built the same way, `git status` input.
# 2. Instructions per hook call (callgrind; noise-free): the same binaries, each input of the
#    request mix (`git status`, a 5-segment command, a 10 kB command, a Read, a WebFetch) on
#    the three tables, after one warm-up call (session record, tripwire record, caches).
# 3. `polc build` of 1k, 10k and 100k generated rules for both front ends (the release
#    binary): wall-clock, CPU (user) time and peak RSS.
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=300 BD=/tmp/polc-min INPUTS="git 5seg 10k read webfetch" COLD=1
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) RUNS=$2; shift 2 ;;
    --build-dir) BD=$2; shift 2 ;;
    --inputs) INPUTS=$2; shift 2 ;;
    # Reuse the whole-process logs of the last run (target/coldstart/cold-*.txt).
    --skip-cold) COLD=0; shift ;;
    *) echo "usage: $0 [--runs N] [--build-dir DIR] [--inputs LIST]" >&2; exit 2 ;;
  esac
done
W=$PWD/target/coldstart
OUT=$W/perf_all.md
mkdir -p "$W"
: > "$OUT"
say() { printf '%s\n' "$*" | tee -a "$OUT"; }

say "## perf_all $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'), load at start $(cut -d' ' -f1-3 /proc/loadavg)"
say ""
say "### Whole process (\`benches/coldstart.sh --cmd hook --minimal --runs $RUNS --table T\`)"
say ""
say "| table | polc median | trivial median | ratio of medians | median of paired ratios | peak RSS polc / trivial | target |"
say "|---|---|---|---|---|---|---|"
for t in shipped 100k 100k-json; do
  log=$W/cold-$t.txt
  [ "$COLD" = 0 ] || bash benches/coldstart.sh --cmd hook --minimal --build-dir "$BD" --runs "$RUNS" --table "$t" > "$log" 2>&1
  a=$(sed -n 's/^A: median \([0-9.]*\) us.*VmHWM) median \([0-9]*\) KB.*/\1 µs|\2/p' "$log")
  b=$(sed -n 's/^B: median \([0-9.]*\) us.*VmHWM) median \([0-9]*\) KB.*/\1 µs|\2/p' "$log")
  r=$(sed -n 's/^ratio A\/B: of medians \([0-9.]*\) *median of paired ratios \([0-9.]*\) *RSS \([0-9.]*\).*/\1|\2|\3/p' "$log")
  tgt=$([ "$t" = shipped ] && echo "≤ 1.15× (RSS: —)" || echo "≤ 1.20×; RSS ≤ 2×")
  say "| $t | ${a%%|*} (${a##*|} KB) | ${b%%|*} (${b##*|} KB) | $(echo "$r" | cut -d'|' -f1)× | $(echo "$r" | cut -d'|' -f2)× | $(echo "$r" | cut -d'|' -f3)× | $tgt |"
done
say ""

POLC=$(cat "$W/last-polc") TRIVIAL=$(cat "$W/last-trivial")
# The polc on PATH is the hook's, as installed (see coldstart.sh).
export PATH="$(dirname "$POLC"):$PATH"
declare -A TABLES=([shipped]=$(cat "$W/last-table-shipped") [100k]=$(cat "$W/last-table-100k") [100k-json]=$(cat "$W/last-table-100k-json"))
count() { # instructions of one run: count BINARY ARGS... < input (a non-zero exit, e.g. the
  # hook's 5 s deadline under valgrind on a loaded machine, is shown after the count)
  local o rc=0
  o=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null) || rc=$?
  printf '%s%s' "$(printf '%s\n' "$o" | sed -n 's/.*Collected : \([0-9]*\).*/\1/p')" "$([ $rc = 0 ] || echo " (exit $rc)")"
}
say "### Instructions per call (callgrind, \`$POLC hook --host claude --table T\`)"
say ""
say "| input | trivial | shipped | ×trivial | 100k \`.pol\` | vs shipped | 100k JSON | vs shipped |"
say "|---|---|---|---|---|---|---|---|"
for i in $INPUTS; do
  J=$W/pretooluse-$i.json
  triv=$(count "$TRIVIAL" < "$J")
  declare -A N=()
  for t in shipped 100k 100k-json; do
    "$POLC" hook --host claude --table "${TABLES[$t]}" < "$J" > /dev/null 2>&1 || true
    N[$t]=$(count "$POLC" hook --host claude --table "${TABLES[$t]}" < "$J")
  done
  pct() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%+.1f%%", 100 * (a - b) / b }'; }
  n() { echo "${1%% *}"; }
  say "| $i | $triv | ${N[shipped]} | $(awk -v a="$(n "${N[shipped]}")" -v b="$(n "$triv")" 'BEGIN { printf "%.2f", a / b }') | ${N[100k]} | $(pct "$(n "${N[100k]}")" "$(n "${N[shipped]}")") | ${N[100k-json]} | $(pct "$(n "${N[100k-json]}")" "$(n "${N[shipped]}")") |"
done
say ""
say "Targets: ≤ 2× the trivial binary's instructions; ≤ +5% from the shipped policy to 100,000 rules."
say ""

BUILDER=$PWD/target/release/polc
G=$PWD/target/release/examples/gen_policy
B=$W/build
mkdir -p "$B"
say "### \`polc build\` (\`$BUILDER build SRC -o OUT\`, generated rules, seed 1)"
say ""
say "| rules | \`.pol\` wall | \`.pol\` CPU | \`.pol\` peak RSS | JSON wall | JSON CPU | JSON peak RSS |"
say "|---|---|---|---|---|---|---|"
for n in 1000 10000 100000; do
  mkdir -p "$B/j$n"
  [ -f "$B/g$n.pol" ] || "$G" --rules "$n" --seed 1 -o "$B/g$n.pol"
  [ -f "$B/j$n/permcheck.json" ] || "$G" --rules "$n" --seed 1 --claude -o "$B/j$n/permcheck.json"
  row="| $n"
  for src in "$B/g$n.pol" "$B/j$n/permcheck.json"; do
    /usr/bin/time -o "$B/time.txt" -f '%e %U %M' "$BUILDER" build "$src" -o "$B/out.bin" > /dev/null 2>&1
    set -- $(tail -1 "$B/time.txt")
    row="$row | $1 s | $2 s | $(($3 / 1024)) MB"
  done
  say "$row |"
done
say ""
say "Target: ≤ 2 s at 100,000 rules for both front ends, linear (×10 rules ≈ ×10 time)."
say "load at end $(cut -d' ' -f1-3 /proc/loadavg)"
