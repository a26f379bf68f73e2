#!/usr/bin/env python3
"""Issue 13's table: memplan-pipeline's arena on every shared net, today and
with each way below the bound added in turn.

  below_bound.py MEMPLAN_OPT MODELS_DIR

Columns (memplan-pipeline options; the arena sums arena_size over the
report's functions, leaving out the first-call init functions
tensor-mem-hoist-constants makes, which run once, not per call):
  today     hoist-constants=false inplace=false schedule=false
  +1        inplace=false schedule=false        (constants out of the arena)
  +1+2      schedule=false                      (and in-place reuse)
  +1+2+3    the defaults                        (and the memory-aware order)
  bound     the live-bytes bound of the +1+2+3 plan (report lower_bound)
  ms        memplan's own passes (TensorMem*, from -mlir-timing) / whole run
Then the issue's goals, each with its measured value.
"""
import json
import math
import os
import re
import subprocess
import sys
import tempfile

COLUMNS = [
    ("today", "hoist-constants=false inplace=false schedule=false"),
    ("+1", "inplace=false schedule=false"),
    ("+1+2", "schedule=false"),
    ("+1+2+3", ""),
]
TIMING = re.compile(r"^\s*([0-9.]+) \(\s*[0-9.]+%\)\s+(\S+)\s*$")


def run(opt, net, options, timing=False):
    with tempfile.TemporaryDirectory() as tmp:
        report = os.path.join(tmp, "r.json")
        pipeline = "--memplan-pipeline=" + " ".join(
            o for o in (options, "report=" + report) if o)
        cmd = [opt, net, pipeline, "-o", os.devnull]
        if timing:
            cmd.append("-mlir-timing")
        p = subprocess.run(cmd, check=True, stderr=subprocess.PIPE, text=True)
        with open(report) as f:
            functions = json.load(f)["functions"]
    arena = bound = 0
    for fn in functions:
        if fn["function"].startswith("__memplan_init_"):
            continue
        arena += sum(a["arena_size"] for a in fn["arenas"])
        bound += sum(a["lower_bound"] for a in fn["arenas"])
    ours = total = 0.0
    for line in p.stderr.splitlines():
        m = TIMING.match(line)
        if not m:
            continue
        if m.group(2).startswith("TensorMem"):
            ours += float(m.group(1))
        elif m.group(2) == "Total":
            total = float(m.group(1))
    return arena, bound, ours * 1000, total * 1000


def geomean(values):
    return math.exp(sum(math.log(v) for v in values) / len(values))


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    opt, models = sys.argv[1], sys.argv[2]
    nets = sorted(f for f in os.listdir(models) if f.endswith(".mlir"))
    print("| net | " + " | ".join(n for n, _ in COLUMNS) +
          " | bound | memplan ms / total ms |")
    print("|---" * (len(COLUMNS) + 3) + "|")
    rows = {}
    for net in nets:
        path = os.path.join(models, net)
        arenas = [run(opt, path, o)[0] for _, o in COLUMNS[:-1]]
        last, bound, ours, total = run(opt, path, COLUMNS[-1][1], timing=True)
        arenas.append(last)
        rows[net[:-5]] = (arenas, bound, ours, total)
        print("| %s | %s | %d | %.1f / %.1f |" %
              (net[:-5], " | ".join(str(a) for a in arenas), bound, ours,
               total), flush=True)

    def ratio(i, j):
        return geomean([max(r[0][i], 1) / max(r[0][j], 1)
                        for r in rows.values()])

    print()
    for i, (name, _) in enumerate(COLUMNS):
        print("geomean %-7s / today: %.4f" % (name, ratio(i, 0)))
    goals = []
    r = ratio(3, 0)
    goals.append(("arena geomean <= 0.5x today", "%.4f" % r, r <= 0.5))
    r = ratio(3, 1)
    goals.append(("in-place + order take >= 20% more off (vs "
                  "inplace=false schedule=false)", "%.4f" % r, r <= 0.8))
    above = [n for n, v in rows.items() if v[0][3] > v[0][0]]
    goals.append(("never above today on any net",
                  ", ".join(above) or "none above", not above))
    slowest = max(rows.items(), key=lambda kv: kv[1][2])
    goals.append(("memplan's passes < 1 s on the largest net",
                  "slowest %s %.0f ms" % (slowest[0], slowest[1][2]),
                  slowest[1][2] < 1000))
    print()
    for what, value, ok in goals:
        print("%-70s %-28s %s" % (what, value, "met" if ok else "MISSED"))


if __name__ == "__main__":
    main()
