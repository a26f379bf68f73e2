#!/usr/bin/env bash
# The arena table (below_bound.py), the footprint table (footprint_table.py:
# what a user pays, against the plain plan) and tensor-mem-write-into-consumers
# off against on, on the shared nets, for `make bench`.
set -euo pipefail
BUILD=${1:-build}
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
MODELS=${MEMPLAN_SHARED_DIR:-$ROOT/../shared}/models
if [ ! -d "$MODELS" ]; then
  echo "below-bound: no shared models at $MODELS (set MEMPLAN_SHARED_DIR); skipped"
  exit 0
fi
python3 "$ROOT/bench/below-bound/below_bound.py" "$BUILD/bin/memplan-opt" "$MODELS"
python3 "$ROOT/bench/below-bound/footprint_table.py" "$BUILD/bin/memplan-opt" "$MODELS"
python3 "$ROOT/bench/below-bound/arena_by_option.py" "$BUILD/bin/memplan-opt" "$MODELS" "write-into-consumers=false budget-ms=0" "budget-ms=0"
