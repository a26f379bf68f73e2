#!/usr/bin/env bash
# Runs every benchmark group (bench/*/run.sh) against the build in $1.
set -euo pipefail
BUILD=${1:-build}
cd "$(dirname "$0")/.."
for run in bench/*/run.sh; do
  echo "== ${run%/run.sh}"
  bash "$run" "$BUILD"
done
