#!/usr/bin/env python3
"""Order stability of tensor-mem-schedule on every network of a directory.

  schedule_stability.py MEMPLAN_OPT MODELS_DIR

Per network: the IR scheduled once, scheduled twice in one run
(--tensor-mem-schedule --tensor-mem-schedule) and scheduled once again in a
second process must be the same text (the pass is idempotent and its order
does not depend on pointers or hashing); the scheduled IR must differ from the
input as printed (or the comparison would prove nothing). Prints one line per
network and a summary; exit status 1 on any difference.
"""
import difflib
import os
import subprocess
import sys


def opt(tool, model, passes):
    p = subprocess.run([tool, model] + passes + ["-o", "-"], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, check=False)
    if p.returncode != 0:
        sys.exit("%s failed on %s:\n%s" % (tool, model, p.stderr.decode(errors="replace")))
    return p.stdout.decode()


def first_difference(a, b):
    d = list(difflib.unified_diff(a.splitlines(), b.splitlines(), lineterm="", n=0))
    return "\n".join(d[:8])


def main():
    tool, models = sys.argv[1], sys.argv[2]
    names = sorted(n for n in os.listdir(models) if n.endswith(".mlir"))
    stable = changed = 0
    for n in names:
        m = os.path.join(models, n)
        given = opt(tool, m, [])
        once = opt(tool, m, ["--tensor-mem-schedule"])
        twice = opt(tool, m, ["--tensor-mem-schedule", "--tensor-mem-schedule"])
        again = opt(tool, m, ["--tensor-mem-schedule"])
        faults = []
        if twice != once:
            faults.append("scheduling twice differs from once:\n" +
                          first_difference(once, twice))
        if again != once:
            faults.append("a second run differs from the first:\n" +
                          first_difference(once, again))
        changed += once != given
        if faults:
            print("%s: UNSTABLE\n%s" % (n, "\n".join(faults)))
        else:
            stable += 1
            print("%s: stable%s" % (n, "" if once != given else " (schedule changed nothing)"))
    print("stable on %d of %d networks; the schedule changed %d of them" %
          (stable, len(names), changed))
    sys.exit(0 if stable == len(names) else 1)


if __name__ == "__main__":
    main()
