#!/usr/bin/env bash
# Every network of ../shared/models planned with every strategy.
set -euo pipefail
BUILD=${1:-build}
python3 "$(dirname "$0")/plan_models.py" "$BUILD"
