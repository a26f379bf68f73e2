#!/usr/bin/env python3
"""Breaks a plan on purpose, with the differential fuzzer's own injection
(fuzz/diff/run.py, inject_bug): one buffer of FUNCTION takes the offset of
another buffer whose task range intersects its own.

Usage: inject_overlap.py SRC_ROOT PLANNED.mlir REPORT.json FUNCTION OUT.mlir

PLANNED.mlir must be printed with --mlir-print-debuginfo
--mlir-print-local-scope (the injection finds the view by its location).
Exits 1 when no such pair exists, so a test that expects a broken plan
cannot pass without one. Prints which buffer moved.
"""
import json
import os
import sys
import tempfile


def main(argv):
    if len(argv) != 6:
        print(__doc__, file=sys.stderr)
        return 2
    src, planned, report, function, out = argv[1:]
    sys.path.insert(0, os.path.join(src, "fuzz", "diff"))
    import run  # noqa: E402  (the fuzzer, for inject_bug)

    with open(report) as fh:
        rep = json.load(fh)
    # Only FUNCTION's arenas are offered, so the broken buffer is one of it.
    rep["functions"] = [f for f in rep.get("functions", [])
                        if f.get("function") == function]
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as fh:
        json.dump(rep, fh)
        only = fh.name
    try:
        with open(planned) as fh:
            text, note = run.inject_bug(fh.read(), only)
    finally:
        os.remove(only)
    if not note:
        print("error: no two intersecting buffers of @%s at different offsets"
              % function, file=sys.stderr)
        return 1
    with open(out, "w") as fh:
        fh.write(text)
    print("injected: @%s %s" % (function, note))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
