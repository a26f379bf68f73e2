#!/usr/bin/env python3
"""Arena of `memplan-opt NET --memplan-pipeline` with inplace=false and with
inplace=true on every network of a folder (default ../shared/models), read
from the JSON report: arena bytes (sum over a net's arenas, leaving out the
first-call init functions of tensor-mem-hoist-constants, which run once),
lower bound, in-place pairs (buffers with "inplace_of") and the ratio, then
the geomean. --options adds pipeline options to both runs (e.g.
"schedule=false hoist-constants=false").

  inplace_table.py [--memplan-opt build/bin/memplan-opt] [--models DIR]
                   [--budget-ms 1000] [--markdown]
"""
import argparse
import glob
import json
import math
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def plan(opt, net, inplace, budget_ms, options, tmp):
    report = os.path.join(tmp, "report.json")
    if os.path.exists(report):
        os.remove(report)
    cmd = [opt, net, "--memplan-pipeline=%s inplace=%s budget-ms=%d report=%s" %
           (options, "true" if inplace else "false", budget_ms, report), "-o",
           os.devnull]
    t0 = time.time()
    proc = subprocess.run(cmd, capture_output=True, text=True)
    seconds = time.time() - t0
    if proc.returncode != 0:
        raise SystemExit("failed: %s\n%s" % (" ".join(cmd), proc.stderr[-2000:]))
    with open(report) as fh:
        rep = json.load(fh)
    arena = bound = pairs = 0
    for fn in rep["functions"]:
        if fn["function"].startswith("__memplan_init_"):
            continue
        for ar in fn["arenas"]:
            arena += ar["arena_size"]
            bound += ar["lower_bound"]
            pairs += sum(1 for b in ar["buffers"] if "inplace_of" in b)
    return arena, bound, pairs, seconds


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--memplan-opt", default=os.path.join(ROOT, "build", "bin", "memplan-opt"))
    ap.add_argument("--models", default=os.path.join(ROOT, "..", "shared", "models"))
    ap.add_argument("--budget-ms", type=int, default=1000)
    ap.add_argument("--options", default="",
                    help="more memplan-pipeline options for both runs")
    ap.add_argument("--markdown", action="store_true")
    a = ap.parse_args()
    nets = sorted(glob.glob(os.path.join(a.models, "*.mlir")))
    if not nets:
        raise SystemExit("no .mlir files in %s" % a.models)
    sep = " | " if a.markdown else "  "
    head = ["net", "arena (inplace=false)", "arena (inplace=true)", "ratio",
            "bound (false)", "bound (true)", "pairs", "s (false)", "s (true)"]
    if a.markdown:
        print("| " + sep.join(head) + " |")
        print("|" + "---|" * len(head))
    else:
        print("%-24s %14s %14s %6s %14s %14s %6s %7s %7s" % tuple(head))
    logs = []
    with tempfile.TemporaryDirectory() as tmp:
        for net in nets:
            name = os.path.basename(net)[:-len(".mlir")]
            off = plan(a.memplan_opt, net, False, a.budget_ms, a.options, tmp)
            on = plan(a.memplan_opt, net, True, a.budget_ms, a.options, tmp)
            ratio = on[0] / off[0] if off[0] else 1.0
            logs.append(math.log(ratio) if ratio > 0 else 0.0)
            row = (name, off[0], on[0], ratio, off[1], on[1], on[2], off[3], on[3])
            if a.markdown:
                print("| %s | %d | %d | %.3f | %d | %d | %d | %.2f | %.2f |" % row)
            else:
                print("%-24s %14d %14d %6.3f %14d %14d %6d %7.2f %7.2f" % row)
            sys.stdout.flush()
    print("geomean ratio (inplace=true / inplace=false): %.4f over %d nets" %
          (math.exp(sum(logs) / len(logs)), len(logs)))


if __name__ == "__main__":
    main()
