"""Runs --test-memplan-liveness-invariant over every test program.

Each .mlir file under the given roots is checked as it is and, for programs
on tensors, after one-shot-bufferize; the shared networks after bufferizing.
Files that do not parse or bufferize (malformed-input tests) are skipped.
Fails on any violation, or when too few live points were checked for the
run to mean anything.
"""
import glob
import os
import re
import subprocess
import sys

opt, src, shared, min_points = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
extra = sys.argv[5:]
POINTS = re.compile(r"liveness invariant: (\d+) buffers, (\d+) live points")
files = sorted(glob.glob(os.path.join(src, "test", "**", "*.mlir"), recursive=True))
files += sorted(glob.glob(os.path.join(src, "fuzz", "diff", "repros", "*.mlir")))
nets = sorted(glob.glob(os.path.join(shared, "models", "*.mlir")))
bufferize = "--one-shot-bufferize=bufferize-function-boundaries"
runs = [(f, ["-split-input-file"]) for f in files]
runs += [(f, ["-split-input-file", bufferize]) for f in files]
runs += [(f, [bufferize]) for f in nets]
violations = programs = buffers = points = 0
for path, flags in runs:
    r = subprocess.run([opt, path, *flags, "--test-memplan-liveness-invariant" + "".join("=" + e for e in extra),
                        "-o", os.devnull], capture_output=True, text=True)
    if "liveness invariant violated" in r.stderr:
        violations += 1
        print(f"VIOLATION in {path} {' '.join(flags)}")
        print("\n".join(l for l in r.stderr.splitlines() if "violated" in l)[:2000])
    for m in POINTS.finditer(r.stderr):
        programs += 1
        buffers += int(m.group(1))
        points += int(m.group(2))
print(f"functions {programs} buffers {buffers} live points {points} violations {violations}")
sys.exit(1 if violations or points < min_points else 0)
