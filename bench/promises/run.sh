#!/usr/bin/env bash
# The cost of tensor-mem-plan's check-promises (a compare and a branch per
# promised size, before the buffer's view): ns per call of a small function
# whose two buffers are planned at a promised bound, with the check on
# (default) and off, built the same way and run side by side, best of 5.
# Usage: bench/promises/run.sh BUILD_DIR
set -euo pipefail
BUILD=${1:-build}
cd "$(dirname "$0")/../.."
LLVM=/usr/lib/llvm-22
LOWER="--convert-linalg-to-loops --expand-strided-metadata --lower-affine
  --convert-scf-to-cf --finalize-memref-to-llvm --convert-arith-to-llvm
  --convert-func-to-llvm --convert-cf-to-llvm --reconcile-unrealized-casts"
LIBS=$LLVM/lib/libmlir_runner_utils.so,$LLVM/lib/libmlir_c_runner_utils.so,$BUILD/lib/libmemplan_runtime.so
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
best() { # best ns per call of 5 runs of $1
  for _ in 1 2 3 4 5; do
    $LLVM/bin/mlir-runner "$1" -e main -entry-point-result=void -O3 \
      -shared-libs=$LIBS | head -1
  done | sort -g | head -1
}
for c in true false; do
  # shellcheck disable=SC2086
  "$BUILD/bin/memplan-opt" bench/promises/promise_cost.mlir \
    --tensor-mem-plan="check-promises=$c" $LOWER > "$tmp/$c.mlir"
done
grep -q memplan_rt_broken_promise "$tmp/true.mlir"
! grep -q memplan_rt_broken_promise "$tmp/false.mlir"
on=$(best "$tmp/true.mlir")
off=$(best "$tmp/false.mlir")
python3 - "$on" "$off" <<'PY'
import sys
on, off = float(sys.argv[1]), float(sys.argv[2])
print("check-promises cost (bench/promises/run.sh): 2 promised buffers of 8 floats per call")
print(f"  ns per call, check on : {on:8.2f}")
print(f"  ns per call, check off: {off:8.2f}")
print(f"  on / off              : {on / off:8.3f}")
PY
