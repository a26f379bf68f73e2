#!/usr/bin/env bash
# Dynamic-shape workloads (gen_workloads.py: a BERT-like encoder with a dynamic
# sequence length, a CNN with a dynamic batch): per size, peak bytes reserved
# over the live peak for memplan, today's lowering (frees at the end of the
# block) and upstream (buffer-deallocation-pipeline + malloc). See bench.py.
# Then the decoder (KV cache in mutable globals, @prefill and @decode): per
# prompt length, the same ratios for prefill, decode and both, the time per
# call against unplanned, and the plan each function got. See decoder.py.
# Usage: bench/dynamic/run.sh BUILD_DIR
# Env: BERT_SIZES, CNN_SIZES, DECODER_SIZES, DECODER_STEPS.
set -euo pipefail
BUILD=${1:-build}
cd "$(dirname "$0")/../.."
python3 bench/dynamic/bench.py "$BUILD" --bert "${BERT_SIZES:-32,128,384}" \
  --cnn "${CNN_SIZES:-1,8,32}"
python3 bench/dynamic/decoder.py "$BUILD" --bench --sizes "${DECODER_SIZES:-32,128,384}" \
  --steps "${DECODER_STEPS:-64}"
