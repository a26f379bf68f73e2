#!/usr/bin/env bash
# Strategy benchmarks against the build in $1: quality table on every record
# set in ../shared/datasets/records, then the scale benchmark (1k..1M).
set -euo pipefail
BUILD=${1:-build}
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
BIN="$BUILD/bin/memplan-bench-strategies"
[[ "$BIN" = /* ]] || BIN="$ROOT/$BIN"
"$BIN" quality "$ROOT/../shared/datasets/records"
"$BIN" scale "${MEMPLAN_BENCH_MAX_RECORDS:-1000000}"
