#!/usr/bin/env python3
"""Fails unless a network's printed output varies: what vary_weights.py's
@main printed (printMemrefF32 of the output, then printMemrefI32 of its bits).

Usage: check_output_varies.py OUTPUT.txt [--min-distinct N]

Checks that every value is finite, that the bits agree with the printed
values' count, that at least N (default 100) distinct bit patterns appear
and that the largest magnitude lies in [1e-3, 1e3]: a net whose activations
died (only biases left), saturated or blew up fails. Prints a one-line
summary.
"""
import math
import re
import sys

BLOCK = re.compile(r"data =\s*\n(.*?)(?=Unranked Memref|\Z)", re.S)
NUMBER = re.compile(r"[-+]?(?:nan|inf|[0-9.]+(?:e[-+]?[0-9]+)?)", re.I)


def main(argv):
    if len(argv) not in (2, 4) or (len(argv) == 4 and
                                   argv[2] != "--min-distinct"):
        print(__doc__, file=sys.stderr)
        return 2
    min_distinct = int(argv[3]) if len(argv) == 4 else 100
    blocks = BLOCK.findall(open(argv[1]).read())
    if len(blocks) != 2:
        print("error: expected 2 printed memrefs (values, bits), found %d"
              % len(blocks), file=sys.stderr)
        return 1
    values = [float(v) for v in NUMBER.findall(blocks[0])]
    bits = [int(v) for v in NUMBER.findall(blocks[1])]
    problems = []
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
    for p in problems:
        print("error: " + p, file=sys.stderr)
    print("%d values, %d distinct, largest magnitude %.3g, %d zero" %
          (len(values), distinct, largest, sum(1 for v in values if v == 0)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
