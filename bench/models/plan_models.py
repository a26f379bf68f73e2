#!/usr/bin/env python3
"""Plans every network in ../shared/models with every registered strategy.

Prints one row per network: buffers planned, bytes without planning, the
live-bytes lower bound, arena bytes (and ratio to the bound) per strategy,
and the pass time of `auto`. Each plan is checked by the validator inside
the pass (an invalid plan is a pass failure, which this script reports).
"""
import os
import re
import subprocess
import sys
import tempfile
import time

SUMMARY = re.compile(
    r"remark: tensor-mem-plan: (\d+) buffers? planned, (\d+) bytes without "
    r"planning, arena (\d+) bytes, lower bound (\d+), strategy (\S+)")
TIMING = re.compile(r"^\s*([0-9.]+) \(\s*[0-9.]+%\)\s+TensorMemPlan\s*$", re.M)


def plan(opt, path, strategy, extra=""):
    cmd = [opt, path, f"--tensor-mem-plan=strategy={strategy} remarks=true {extra}",
           "-mlir-timing", "-o", os.devnull]
    t0 = time.time()
    r = subprocess.run(cmd, capture_output=True, text=True)
    wall = time.time() - t0
    if r.returncode != 0:
        return None, r.stderr.strip().splitlines()[-1:] or ["failed"]
    planned = raw = arena = bound = 0
    for m in SUMMARY.finditer(r.stderr):
        planned += int(m.group(1))
        raw += int(m.group(2))
        arena += int(m.group(3))
        bound += int(m.group(4))
    t = TIMING.search(r.stderr)
    ms = float(t.group(1)) * 1000 if t else wall * 1000
    return (planned, raw, arena, bound, ms), None


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else "build"
    models = sys.argv[2] if len(sys.argv) > 2 else os.path.join(
        os.path.dirname(__file__), "..", "..", "..", "shared", "models")
    opt = os.path.join(build, "bin", "memplan-opt")
    solve = os.path.join(build, "bin", "memplan-solve")
    names = [l.split()[0] for l in subprocess.run(
        [solve, "--list"], capture_output=True, text=True,
        check=True).stdout.splitlines() if l.strip()]
    strategies = ["auto"] + [n for n in names if n != "auto"]
    files = sorted(f for f in os.listdir(models) if f.endswith(".mlir"))
    header = ["network", "buffers", "MiB unplanned", "MiB bound"] + \
        [f"{s}" for s in strategies] + ["auto ms"]
    print("\t".join(header))
    at_bound = 0
    failures = []
    slowest = (0, "")
    with tempfile.TemporaryDirectory() as tmp:
        for f in files:
            src = os.path.join(models, f)
            buf = os.path.join(tmp, f)
            subprocess.run([opt, src, "--one-shot-bufferize=bufferize-function-boundaries",
                            "-o", buf], check=True)
            row, base = [], None
            for s in strategies:
                res, err = plan(opt, buf, s)
                if res is None:
                    failures.append(f"{f} {s}: {err[0]}")
                    row.append("FAIL")
                    continue
                planned, raw, arena, bound, ms = res
                if s == "auto":
                    base = res
                    at_bound += arena == bound
                    slowest = max(slowest, (ms, f))
                row.append(f"{arena / bound if bound else 1:.3f}")
            planned, raw, arena, bound, ms = base
            print("\t".join([f.removesuffix(".mlir"), str(planned),
                             f"{raw / 2**20:.2f}", f"{bound / 2**20:.2f}"] +
                            row + [f"{ms:.1f}"]), flush=True)
    print(f"\nauto at the lower bound on {at_bound} of {len(files)} networks; "
          f"slowest auto pass {slowest[0]:.1f} ms ({slowest[1]})")
    print("ratios are arena / live-bytes bound (shared-object strategies are "
          "bounded by positional maxima, so they sit above 1 by design)")
    if failures:
        print("FAILURES:\n  " + "\n  ".join(failures))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
