#!/usr/bin/env bash
# Issue 22 item 7 (footprint.py): the shared nets with real weight data
# (real_weights.py: deterministic pseudo-random dense_resource blobs), built
# unplanned, with tensor-mem-plan and with memplan-pipeline as native
# executables and run: @forward's footprint from the reports, peak RSS
# (VmHWM), ms per call after the first, outputs equal; then issue 22's goals.
# Usage: bench/footprint/run.sh BUILD_DIR
# Env: FOOTPRINT_NETS (comma-separated; default: all 28, small ones first),
# FOOTPRINT_CALLS (timed calls after the first, 3), FOOTPRINT_TIMEOUT (s per
# compile step or run, 300), FOOTPRINT_JSON (write the measurements there).
set -euo pipefail
BUILD=${1:-build}
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
MODELS=${MEMPLAN_SHARED_DIR:-$ROOT/../shared}/models
if [ ! -d "$MODELS" ]; then
  echo "footprint: no shared models at $MODELS (set MEMPLAN_SHARED_DIR); skipped"
  exit 0
fi
args=(--calls "${FOOTPRINT_CALLS:-3}" --timeout "${FOOTPRINT_TIMEOUT:-300}")
[ -n "${FOOTPRINT_NETS:-}" ] && args+=(--nets "$FOOTPRINT_NETS")
[ -n "${FOOTPRINT_JSON:-}" ] && args+=(--json "$FOOTPRINT_JSON")
# The raw-byte constant fold's speed on the largest weight of the nets.
python3 "$ROOT/bench/footprint/fold_speed.py" "$BUILD/bin/memplan-opt" "$MODELS"
python3 "$ROOT/bench/footprint/footprint.py" "$BUILD" "$MODELS" "${args[@]}"
