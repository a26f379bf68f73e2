#!/usr/bin/env bash
# Plans a real network: bufferize it, run tensor-mem-plan, print the table.
# Usage: scripts/demo.sh BUILD_DIR MODEL.mlir [STRATEGY]
set -euo pipefail
BUILD=${1:-build}
MODEL=${2:-../shared/models/resnet18.mlir}
STRATEGY=${3:-auto}
OPT="$BUILD/bin/memplan-opt"
[ -f "$MODEL" ] || { echo "demo: no such model file: $MODEL" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Debug info kept through the temporary file: remarks name the model's lines.
"$OPT" "$MODEL" --one-shot-bufferize="bufferize-function-boundaries" \
  --mlir-print-debuginfo -o "$tmp/bufferized.mlir"
# A failing plan (an unknown strategy) says why, and the demo stops there.
if ! "$OPT" "$tmp/bufferized.mlir" --tensor-mem-plan="strategy=$STRATEGY remarks=true" \
    --mlir-print-op-on-diagnostic=false -mlir-timing -o "$tmp/planned.mlir" \
    2> "$tmp/log"; then
  awk '/^===-/ { exit } { print }' "$tmp/log" >&2  # not the timing report
  exit 1
fi

# One summary remark per arena; the timing report names the pass.
awk -v model="$(basename "$MODEL")" '
  /remark: tensor-mem-plan: / {
    for (i = 1; i <= NF; i++) {
      if (($i == "buffers" || $i == "buffer") && $(i+1) == "planned,") planned += $(i-1)
      if ($i == "without") raw += $(i-2)
      if ($i == "arena") arena += $(i+1)
      if ($i == "bound") bound += $(i+1)
      if ($i == "strategy") { strategy = $(i+1); sub(/[;,]$/, "", strategy) }
      if ($i == "(chose") { chosen = $(i+1); sub(/[;,]$/, "", chosen) }
      if ($i == "footprint:" && $(i+1) == "steady") steady += $(i+2)
    }
  }
  /remark: buffer not planned/ { unplanned++ }
  /TensorMemPlan/ { ms = $1 * 1000 }
  END {
    printf "model                  %s\n", model
    printf "strategy               %s%s\n", strategy, \
      (chosen != "" && chosen != strategy) ? " (picked " chosen ")" : ""
    printf "buffers planned        %.0f\n", planned
    printf "buffers left alone     %d%s\n", unplanned, unplanned ? " (below, by reason)" : ""
    printf "bytes without planning %.0f (%.2f MiB)\n", raw, raw / 1048576
    printf "arena bytes            %.0f (%.2f MiB)\n", arena, arena / 1048576
    printf "lower bound            %.0f (%.2f MiB)\n", bound, bound / 1048576
    printf "footprint (steady)     %.0f (%.2f MiB)  arenas + callees + hoisted\n", steady, steady / 1048576
    printf "arena / bound          %.4f\n", bound ? arena / bound : 1
    # naive pads each buffer to the alignment: its arena may pass raw
    if (arena > raw)
      printf "saved                  none: the arena is %.0f bytes larger\n", arena - raw
    else
      printf "saved                  %.1f%%\n", raw ? 100 * (raw - arena) / raw : 0
    printf "pass time              %.1f ms\n", ms
  }' "$tmp/log"

# The remarks the table counts: each buffer left alone, grouped by reason,
# with where it is (at most $DEMO_SHOW per reason; DEMO_SHOW=0 lists all).
awk -v show="${DEMO_SHOW:-5}" '
  /remark: buffer not planned: / {
    loc = $0; sub(/: remark: buffer not planned: .*/, "", loc)
    reason = $0; sub(/.*remark: buffer not planned: /, "", reason)
    if (!(reason in count)) order[n++] = reason
    count[reason]++
    if (show == 0 || count[reason] <= show) where[reason] = where[reason] "    " loc "\n"
  }
  END {
    if (n) printf "\nbuffers left alone, by reason:\n"
    for (i = 0; i < n; i++) {
      r = order[i]
      printf "  %d x %s\n%s", count[r], r, where[r]
      if (show && count[r] > show) printf "    ... %d more\n", count[r] - show
    }
  }' "$tmp/log"

# Below the bound: the whole memplan-pipeline folds or hoists constant-derived
# tensors (weights transposed at run time) out of the arena, writes results
# into dying operands and orders ops to lower the peak.
if "$OPT" "$MODEL" --memplan-pipeline="strategy=$STRATEGY report=$tmp/pipeline.json" \
    -o /dev/null 2> "$tmp/pipeline.log"; then
  python3 - "$tmp/pipeline.json" "$(awk '/remark: tensor-mem-plan: / {
      for (i = 1; i <= NF; i++) if ($i == "footprint:" && $(i+1) == "steady") a += $(i+2) } END { print a + 0 }' "$tmp/log")" <<'PY'
import json, sys
functions = json.load(open(sys.argv[1]))["functions"]
plain = int(sys.argv[2])
arena = bound = weights = inplace = steady = first = hoisted = 0
for f in functions:
    if not f["entry"]:
        continue  # counted in the footprint of the entry that calls it
    for a in f["arenas"]:
        arena += a["arena_size"]
        bound += a["lower_bound"]
        inplace += sum(1 for b in a["buffers"] if "inplace_of" in b)
    steady += f["footprint"]["steady"]
    first += f["footprint"]["first_call"]
    hoisted += f["footprint"]["hoisted"]
    weights += sum(w["bytes"] for w in f["weights"]["buffers"] if w["kind"] == "constant")
mib = lambda b: "%d (%.2f MiB)" % (b, b / 1048576)
ratio = lambda b: "  = %.3fx the plain plan's footprint" % (b / plain) if plain else ""
print("\nwith memplan-pipeline (constants folded, in place, memory-aware order):")
print("arena bytes            " + mib(arena))
print("lower bound            " + mib(bound))
print("in-place pairs         %d" % inplace)
print("hoisted globals        " + mib(hoisted))
print("footprint (steady)     " + mib(steady) + ratio(steady))
print("footprint (first call) " + mib(first) + ratio(first))
print("read-only weights      " + mib(weights) + "  (constants, in neither)")
PY
else
  echo "memplan-pipeline failed:" >&2
  head -5 "$tmp/pipeline.log" >&2
fi
