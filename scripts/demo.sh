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

"$OPT" "$MODEL" --one-shot-bufferize="bufferize-function-boundaries" -o "$tmp/bufferized.mlir"
"$OPT" "$tmp/bufferized.mlir" --tensor-mem-plan="strategy=$STRATEGY remarks=true" \
  -mlir-timing -o "$tmp/planned.mlir" 2> "$tmp/log"

# One summary remark per arena; the timing report names the pass.
awk -v model="$(basename "$MODEL")" '
  /remark: tensor-mem-plan: / {
    for (i = 1; i <= NF; i++) {
      if ($i == "buffers" && $(i+1) == "planned,") planned += $(i-1)
      if ($i == "without") raw += $(i-2)
      if ($i == "arena") arena += $(i+1)
      if ($i == "bound") bound += $(i+1)
      if ($i == "strategy") strategy = $(i+1)
    }
  }
  /remark: buffer not planned/ { unplanned++ }
  /TensorMemPlan/ { ms = $1 * 1000 }
  END {
    printf "model                  %s\n", model
    printf "strategy               %s\n", strategy
    printf "buffers planned        %.0f\n", planned
    printf "buffers left alone     %d (see remarks: returned, escaping, dynamic)\n", unplanned
    printf "bytes without planning %.0f (%.2f MiB)\n", raw, raw / 1048576
    printf "arena bytes            %.0f (%.2f MiB)\n", arena, arena / 1048576
    printf "lower bound            %.0f (%.2f MiB)\n", bound, bound / 1048576
    printf "arena / bound          %.4f\n", bound ? arena / bound : 1
    printf "saved                  %.1f%%\n", raw ? 100 * (raw - arena) / raw : 0
    printf "pass time              %.1f ms\n", ms
  }' "$tmp/log"
