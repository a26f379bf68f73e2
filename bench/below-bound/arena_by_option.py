#!/usr/bin/env python3
"""Arena bytes of memplan-pipeline per network, one column per option string.

  arena_by_option.py MEMPLAN_OPT MODELS_DIR "OPTS1" "OPTS2" ...

Each column runs `memplan-opt NET --memplan-pipeline="OPTS report=TMP"` and
sums arena_size over the report's functions, leaving out the first-call init
functions tensor-mem-hoist-constants makes (`__memplan_init_*`: they run once,
not per call; their arenas are printed apart). The last line is the geomean
ratio of each column to the first. Columns are option strings so other items
(inplace, schedule) add theirs without touching this file.
"""
import json
import math
import os
import subprocess
import sys
import tempfile
import time


def measure(opt, net, options):
    with tempfile.TemporaryDirectory() as tmp:
        report = os.path.join(tmp, "r.json")
        pipeline = ("--memplan-pipeline=" + " ".join(
            o for o in (options, "report=" + report) if o))
        start = time.monotonic()
        subprocess.run([opt, net, pipeline, "-o", os.devnull], check=True,
                       stderr=subprocess.PIPE)
        seconds = time.monotonic() - start
        with open(report) as f:
            functions = json.load(f)["functions"]
    arena = init = weights = 0
    for fn in functions:
        size = sum(a["arena_size"] for a in fn["arenas"])
        if fn["function"].startswith("__memplan_init_"):
            init += size
        else:
            arena += size
            weights += fn.get("weights", {}).get("bytes", 0)
    return arena, init, weights, seconds


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    opt, models, columns = sys.argv[1], sys.argv[2], sys.argv[3:]
    nets = sorted(f for f in os.listdir(models) if f.endswith(".mlir"))
    names = [c or "(defaults)" for c in columns]
    print("| net | " + " | ".join(names) + " | " +
          " | ".join("init/weights " + n for n in names[1:]) + " |")
    print("|---" * (2 * len(columns)) + "|")
    logs = [0.0] * len(columns)
    for net in nets:
        row = [measure(opt, os.path.join(models, net), c) for c in columns]
        base = row[0][0]
        for i, r in enumerate(row):
            logs[i] += math.log(max(r[0], 1) / max(base, 1))
        print("| " + net[:-5] + " | " +
              " | ".join(str(r[0]) for r in row) + " | " +
              " | ".join("%d/%d" % (r[1], r[2]) for r in row[1:]) + " |",
              flush=True)
    print("geomean arena ratio to '%s': " % names[0] +
          ", ".join("%s %.4f" % (n, math.exp(l / len(nets)))
                    for n, l in zip(names, logs)))


if __name__ == "__main__":
    main()
