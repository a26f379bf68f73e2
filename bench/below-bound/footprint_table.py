#!/usr/bin/env python3
"""The memory a user pays, per shared net: the footprint of memplan-pipeline
(its entry functions' `footprint`: arenas + what callees hold + hoisted
globals; steady and first call) against the plain plan's footprint (its
arena: one-shot-bufferize, then tensor-mem-plan with its defaults; nothing
is called or hoisted there). Prints one row per net, the geomean, the
largest ratio, and whether any net is above the plain plan.
usage: footprint_table.py MEMPLAN_OPT MODELS_DIR [PIPELINE_OPTIONS]"""
import glob, json, math, os, subprocess, sys, tempfile


def plan(opt, net, args):
    with tempfile.NamedTemporaryFile(suffix=".json") as r:
        subprocess.run([opt, net] + [a.replace("REPORT", r.name) for a in args]
                       + ["-o", os.devnull], check=True,
                       stderr=subprocess.DEVNULL)
        return json.load(open(r.name))["functions"]


def main():
    opt, models = sys.argv[1], sys.argv[2]
    extra = (" " + sys.argv[3]) if len(sys.argv) > 3 else ""
    rows = []
    print("%-24s %12s %12s %12s %8s %8s" % ("net", "plain", "steady",
                                           "first call", "steady x",
                                           "first x"))
    for net in sorted(glob.glob(os.path.join(models, "*.mlir"))):
        name = os.path.basename(net)[:-5]
        plain = sum(a["arena_size"] for f in plan(
            opt, net, ["--one-shot-bufferize=bufferize-function-boundaries",
                       "--tensor-mem-plan=report=REPORT"]) for a in f["arenas"])
        fs = [f for f in plan(opt, net, ["--memplan-pipeline=report=REPORT"
                                         + extra]) if f["entry"]]
        steady = sum(f["footprint"]["steady"] for f in fs)
        first = sum(f["footprint"]["first_call"] for f in fs)
        rows.append((name, plain, steady, first))
        print("%-24s %12d %12d %12d %8.3f %8.3f" % (
            name, plain, steady, first, steady / plain, first / plain),
            flush=True)
    geo = lambda k: math.exp(sum(math.log(r[k] / r[1]) for r in rows) /
                             len(rows))
    print("geomean footprint / plain plan: steady %.4fx, first call %.4fx"
          % (geo(2), geo(3)))
    print("largest: steady %.3fx, first call %.3fx" % (
        max(r[2] / r[1] for r in rows), max(r[3] / r[1] for r in rows)))
    above = [r[0] for r in rows if r[2] > r[1] or r[3] > r[1]]
    print("goal: never above the plain plan: %s" %
          ("met" if not above else "UNMET on " + ", ".join(above)))


if __name__ == "__main__":
    main()
