#!/usr/bin/env python3
"""Shrink a finding of run.py: delete lines of the program (delta debugging) while
the unplanned program still runs and the planned one still differs from it.

  reduce.py FINDING_DIR/prog.mlir --flags='--tensor-mem-plan=strategy=naive alignment=8' -o small.mlir

--flags are the planning flags (README.txt of the finding shows them). Lines
whose removal breaks the IR are kept automatically (the candidate must verify).
Lines of `func.call @print...` are kept so the output stays observable.
"""
import argparse
import os
import shlex
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import run  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("prog")
    ap.add_argument("--flags", required=True, help="planning flags, shell-quoted")
    ap.add_argument("--runtime", action="store_true", help="link libmemplan_runtime.so")
    ap.add_argument("--shapes", action="store_true",
                    help="a shapes.py program (tensor level): reference bufferized as "
                         "run.py does for the shapes family; implies --runtime")
    ap.add_argument("-o", "--output", required=True)
    ap.add_argument("--tries", type=int, default=3,
                    help="runs of the planned program per candidate (async races are flaky)")
    ap.add_argument("--memplan-opt", default=os.path.join(run.SRC, "build", "bin", "memplan-opt"))
    ap.add_argument("--llvm-bin", default="/usr/lib/llvm-22/bin")
    ap.add_argument("--llvm-lib", default="/usr/lib/llvm-22/lib")
    ap.add_argument("--runtime-lib", default=os.path.join(run.SRC, "build", "lib",
                                                          "libmemplan_runtime.so"))
    a = ap.parse_args()
    tools = run.Tools(a)
    flags = []
    for w in shlex.split(a.flags):
        # '--tensor-mem-plan=strategy=S alignment=A' unquoted: rejoin the options
        if flags and not w.startswith("-"):
            flags[-1] += " " + w
        else:
            flags.append(w)
    tmp = tempfile.mkdtemp(prefix="memplan-reduce-")
    cand = os.path.join(tmp, "c.mlir")
    ll = os.path.join(tmp, "c.ll.mlir")
    tests = [0]
    ref_lower = run.SHAPES_REF + run.SHAPES_LOWER if a.shapes else run.LOWER
    plan_lower = run.SHAPES_LOWER if a.shapes else run.LOWER
    a.runtime = a.runtime or a.shapes

    def interesting(lines):
        tests[0] += 1
        with open(cand, "w") as fh:
            fh.write("\n".join(lines) + "\n")
        if run.call(tools.opt_cmd(cand, ref_lower, ll))[0] != "ok":
            return False
        # a deleted fill must not pass for a bug: the reference has to print the
        # same whatever garbage malloc returns (glibc's MALLOC_PERTURB_)
        st, ref, _ = run.call(tools.run_cmd(ll), env={"MALLOC_PERTURB_": "17"})
        if st != "ok":
            return False
        st, ref2, _ = run.call(tools.run_cmd(ll), env={"MALLOC_PERTURB_": "85"})
        if st != "ok" or ref2 != ref:
            return False
        if run.call(tools.opt_cmd(cand, flags + plan_lower, ll))[0] != "ok":
            return False
        for _ in range(a.tries):  # a race (async) shows only in some runs
            st, got, _ = run.call(tools.run_cmd(ll, runtime=a.runtime))
            if st != "ok" or got != ref:
                return True
        return False

    with open(a.prog) as fh:
        lines = fh.read().rstrip("\n").split("\n")
    if not interesting(lines):
        sys.exit("reduce.py: the program does not show a mismatch with these flags")
    keep = lambda l: "@print" in l or l.strip() in ("module {", "}") or \
        l.lstrip().startswith("func.func") or "sink" in l
    n = 2
    while True:
        idx = [i for i, l in enumerate(lines) if not keep(l)]
        if not idx:
            break
        chunk = max(1, len(idx) // n)
        progress = False
        for start in range(0, len(idx), chunk):
            drop = set(idx[start:start + chunk])
            trial = [l for i, l in enumerate(lines) if i not in drop]
            if interesting(trial):
                lines = trial
                progress = True
                print("  %d lines (%d tests)" % (len(lines), tests[0]), file=sys.stderr)
                break
        if not progress:
            if chunk == 1:
                break
            n = min(len(idx), n * 2)
        else:
            n = max(2, n - 1)
    with open(a.output, "w") as fh:
        fh.write("\n".join(lines) + "\n")
    print("%d lines after %d tests -> %s" % (len(lines), tests[0], a.output))


if __name__ == "__main__":
    main()
