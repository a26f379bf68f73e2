#!/usr/bin/env python3
"""The memory-aware order (tensor-mem-schedule) on every shared network.

Per network: the byte model's peak before/after the pass (its remark), the
real arena and live bound of `--memplan-pipeline=schedule=false` against
`schedule=true` (the JSON report), and the pass time (-mlir-timing). Exits
non-zero when a scheduled arena or model peak is above the unscheduled one,
or a run fails.

usage: schedule_table.py [memplan-opt] [models dir]
"""
import json
import math
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
OPT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
    HERE, "..", "..", "build", "bin", "memplan-opt")
MODELS = sys.argv[2] if len(sys.argv) > 2 else os.path.join(
    HERE, "..", "..", "..", "shared", "models")

MODEL = re.compile(r"model peak (\d+) -> (\d+) bytes")
TIMING = re.compile(r"^\s*([0-9.]+) \(\s*[0-9.]+%\)\s+TensorMemSchedule\s*$",
                    re.M)


def run(args):
    r = subprocess.run([OPT] + args, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"failed: {' '.join([OPT] + args)}\n{r.stderr[-2000:]}")
    return r.stderr


def model_peak(path):
    err = run([path, "--tensor-mem-schedule=remarks=true", "-mlir-timing",
               "-o", os.devnull])
    before = after = 0
    for m in MODEL.finditer(err):
        before += int(m.group(1))
        after += int(m.group(2))
    t = TIMING.search(err)
    return before, after, float(t.group(1)) * 1000 if t else float("nan")


def arena(path, schedule, tmp):
    report = os.path.join(tmp, "report.json")
    run([path, f"--memplan-pipeline=schedule={schedule} report={report}",
         "-o", os.devnull])
    with open(report) as f:
        data = json.load(f)
    size = bound = 0
    for fn in data["functions"]:
        for a in fn["arenas"]:
            size += a["arena_size"]
            bound += a["lower_bound"]
    return size, bound


def main():
    names = sorted(n for n in os.listdir(MODELS) if n.endswith(".mlir"))
    print(f"{'network':24} {'model before':>13} {'model after':>12} "
          f"{'arena sched=0':>14} {'arena sched=1':>14} {'ratio':>6} "
          f"{'bound sched=0':>14} {'bound sched=1':>14} {'pass ms':>8}")
    logs, worse = [], []
    with tempfile.TemporaryDirectory() as tmp:
        for n in names:
            path = os.path.join(MODELS, n)
            mb, ma, ms = model_peak(path)
            a0, b0 = arena(path, "false", tmp)
            a1, b1 = arena(path, "true", tmp)
            ratio = a1 / a0 if a0 else 1.0
            logs.append(math.log(ratio))
            if a1 > a0 or ma > mb:
                worse.append(n)
            print(f"{n[:-5]:24} {mb:13} {ma:12} {a0:14} {a1:14} {ratio:6.3f} "
                  f"{b0:14} {b1:14} {ms:8.1f}", flush=True)
    print(f"geomean arena ratio sched=1/sched=0: "
          f"{math.exp(sum(logs) / len(logs)):.4f} over {len(logs)} networks")
    if worse:
        sys.exit("arena or model peak above the unscheduled one on: " +
                 ", ".join(worse))


if __name__ == "__main__":
    main()
