"""Compares @forward's steady footprint in two reports: without, then with."""
import json
import sys


def steady(path):
    report = json.load(open(path))
    fn = [f for f in report["functions"] if f["function"] == "forward"][0]
    return fn["footprint"]["steady"]


off, on = steady(sys.argv[1]), steady(sys.argv[2])
print("forward: %s with the pass (%d -> %d bytes)" %
      ("lower" if on < off else "not lower", off, on))
