#!/usr/bin/env python3
"""Fails unless a network's printed output varies: what vary_weights.py's
@main printed (for each of two inputs: printMemrefF32 of the output, then
printMemrefI32 of its bits).

Usage: check_output_varies.py OUTPUT.txt [--min-distinct N] [--min-changed M]

Checks, for each output, that every value is finite, that the bits agree with
the printed values' count, that at least N (default 100) distinct bit
patterns appear and that the largest magnitude lies in [1e-3, 1e3]; and that
at least M (default 100) elements differ between the two outputs. A net that
saturated or blew up fails the first checks; one whose activations died
prints its (varied) classifier bias for any input and fails the last.
Prints a one-line summary per output.
"""
import math
import re
import sys

BLOCK = re.compile(r"data =\s*\n(.*?)(?=Unranked Memref|\Z)", re.S)
NUMBER = re.compile(r"[-+]?(?:nan|inf|[0-9.]+(?:e[-+]?[0-9]+)?)", re.I)


def parse_args(argv):
    limits = {"--min-distinct": 100, "--min-changed": 100}
    if len(argv) < 2 or len(argv) % 2:
        return None
    for flag, value in zip(argv[2::2], argv[3::2]):
        if flag not in limits or not value.isdigit():
            return None
        limits[flag] = int(value)
    return argv[1], limits["--min-distinct"], limits["--min-changed"]


def check(values, bits, min_distinct, problems):
    if not values or len(values) != len(bits):
        problems.append("%d values but %d bit patterns" %
                        (len(values), len(bits)))
    bad = sum(1 for v in values if not math.isfinite(v))
    if bad:
        problems.append("%d values not finite" % bad)
    distinct = len(set(bits))
    if distinct < min_distinct:
        problems.append("%d distinct values, expected at least %d" %
                        (distinct, min_distinct))
    finite = [abs(v) for v in values if math.isfinite(v)]
    largest = max(finite) if finite else 0.0
    if not 1e-3 <= largest <= 1e3:
        problems.append("largest magnitude %g outside [1e-3, 1e3]" % largest)
    print("%d values, %d distinct, largest magnitude %.3g, %d zero" %
          (len(values), distinct, largest, sum(1 for v in values if v == 0)))


def main(argv):
    args = parse_args(argv)
    if not args:
        print(__doc__, file=sys.stderr)
        return 2
    path, min_distinct, min_changed = args
    blocks = BLOCK.findall(open(path).read())
    if len(blocks) != 4:
        print("error: expected 4 printed memrefs (values and bits, twice), "
              "found %d" % len(blocks), file=sys.stderr)
        return 1
    problems = []
    runs = []
    for values, bits in (blocks[0:2], blocks[2:4]):
        runs.append([int(v) for v in NUMBER.findall(bits)])
        check([float(v) for v in NUMBER.findall(values)], runs[-1],
              min_distinct, problems)
    changed = sum(1 for a, b in zip(*runs) if a != b)
    print("%d elements change with the input" % changed)
    if changed < min_changed:
        problems.append("%d elements change with the input, expected at "
                        "least %d" % (changed, min_changed))
    for p in problems:
        print("error: " + p, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
