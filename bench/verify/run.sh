#!/usr/bin/env bash
# Verification at scale against the build in $1:
#  1. 10^6 random record sets through every strategy (VERIFY_SETS overrides),
#  2. every record set in ../shared/datasets/records through every strategy,
#  3. every network in ../shared/models bufferized and planned with the
#     default strategy (tensor-mem-plan validates every plan it makes).
# planMemory validates every plan: an invalid one is an error, and any error
# here makes the script fail.
set -euo pipefail
BUILD=$(cd "${1:-build}" && pwd)
cd "$(dirname "$0")/../.."
SHARED=${MEMPLAN_SHARED:-../shared}
SETS=${VERIFY_SETS:-1000000}
THREADS=${VERIFY_THREADS:-2}
fail=0

echo "-- $SETS random record sets"
"$BUILD/bin/memplan-verify-scale" "$SETS" "$THREADS" || fail=1

echo "-- record sets in $SHARED/datasets/records"
n=0; bad=0
while IFS= read -r f; do
  n=$((n + 1))
  if ! out=$("$BUILD/bin/memplan-solve" "$f" --strategy=all --budget-ms=200 \
               --format=csv 2>&1); then
    echo "FAIL $f: $out"; bad=$((bad + 1))
  fi
done < <(find "$SHARED/datasets/records" -name '*.csv' | sort)
echo "$n record sets, every strategy, $bad failed"
[ "$bad" -eq 0 ] || fail=1

echo "-- networks in $SHARED/models"
n=0; bad=0
for m in "$SHARED"/models/*.mlir; do
  n=$((n + 1))
  if ! out=$("$BUILD/bin/memplan-opt" "$m" \
               --one-shot-bufferize="bufferize-function-boundaries" \
               --tensor-mem-plan="remarks=true" -o /dev/null 2>&1); then
    echo "FAIL $m: $(echo "$out" | grep -m1 error)"; bad=$((bad + 1))
  else
    echo "$(basename "$m"): $(echo "$out" | grep -oE 'tensor-mem-plan: [0-9]* buffers? planned.*' | head -1)"
  fi
done
echo "$n networks planned, $bad failed"
[ "$bad" -eq 0 ] || fail=1
exit $fail
