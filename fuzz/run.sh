#!/usr/bin/env bash
# Runs every fuzzer built in $1 (make fuzz) for FUZZ_SECONDS each, seeded
# with the record sets in ../shared/datasets/records; corpora and crash
# inputs stay in $1/fuzz-corpus and $1/fuzz-artifacts. Exits non-zero on the
# first finding.
set -euo pipefail
BUILD=$(cd "${1:-build-fuzz}" && pwd)
cd "$(dirname "$0")/.."
SECONDS_EACH=${FUZZ_SECONDS:-60}
SEEDS=${MEMPLAN_SHARED:-../shared}/datasets/records
mkdir -p "$BUILD/fuzz-artifacts"
for name in csv strategies runtime runtime-plan; do
  bin="$BUILD/bin/memplan-fuzz-$name"
  corpus="$BUILD/fuzz-corpus/$name"
  if [ ! -d "$corpus" ]; then
    mkdir -p "$corpus"
    # CSV text is what the reader eats; the other fuzzers read the same bytes
    # as records or op sequences.
    find "$SEEDS" -name '*.csv' -size -64k -exec cp {} "$corpus/" \; 2>/dev/null || true
  fi
  echo "== memplan-fuzz-$name, ${SECONDS_EACH}s"
  log="$BUILD/fuzz-$name.log"
  if ! "$bin" "$corpus" -max_total_time="$SECONDS_EACH" -max_len=4096 \
       -timeout=20 -rss_limit_mb=2048 -print_final_stats=1 \
       -artifact_prefix="$BUILD/fuzz-artifacts/$name-" > "$log" 2>&1; then
    tail -n 40 "$log"
    echo "memplan-fuzz-$name: FINDING (input in $BUILD/fuzz-artifacts)"
    exit 1
  fi
  grep -E '^stat::number_of_executed_units' "$log" | sed "s/^/memplan-fuzz-$name /"
done
