#!/usr/bin/env python3
"""Shrink a finding of run.py: delete lines of the program (delta debugging) while
the unplanned program still runs and the planned one still differs from it.

  reduce.py FINDING_DIR/prog.mlir --flags='--tensor-mem-plan=strategy=naive alignment=8' -o small.mlir

--flags are the planning flags (README.txt of the finding shows them). Lines
whose removal breaks the IR are kept automatically (the candidate must verify).
First whole ops go (with their regions and every op that uses their results,
so that a hash loop leaves with its sink update and its print), then single
lines; the reference must still print at least one number (--keep-prints:
no print line is removed).

A fixed bug: --flags names the old behaviour (e.g. the fix's guard switched
off), --fixed-flags the current one, which must print the reference, with
--fixed-remark / --no-fixed-remark on its stderr (the rule that fixed it
still fires, and no other one), so that the reduced program is a test that
passes now and fails without the fix.
"""
import argparse
import os
import re
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
    ap.add_argument("--keep-prints", action="store_true",
                    help="never remove a func.call @print... line")
    ap.add_argument("--tries", type=int, default=3,
                    help="runs of the planned program per candidate (async races are flaky)")
    ap.add_argument("--fixed-flags", default=None,
                    help="flags of the fixed behaviour: must print the reference")
    ap.add_argument("--fixed-remark", action="append", default=[],
                    help="a substring that --fixed-flags' stderr must contain (repeatable)")
    ap.add_argument("--no-fixed-remark", action="append", default=[],
                    help="a substring that --fixed-flags' stderr must not contain")
    ap.add_argument("--timeout", type=int, default=run.TIMEOUT,
                    help="seconds per tool run (a hang counts as differing)")
    ap.add_argument("--memplan-opt", default=os.path.join(run.SRC, "build", "bin", "memplan-opt"))
    ap.add_argument("--old-memplan-opt", default=None,
                    help="the memplan-opt that runs --flags (an old build, or one with the "
                         "fix switched off; default --memplan-opt)")
    ap.add_argument("--llvm-bin", default="/usr/lib/llvm-22/bin")
    ap.add_argument("--llvm-lib", default="/usr/lib/llvm-22/lib")
    ap.add_argument("--runtime-lib", default=os.path.join(run.SRC, "build", "lib",
                                                          "libmemplan_runtime.so"))
    a = ap.parse_args()
    tools = run.Tools(a)
    run.set_timeout(a.timeout)

    def split_flags(text):
        flags = []
        for w in shlex.split(text):
            # '--tensor-mem-plan=strategy=S alignment=A' unquoted: rejoin the options
            if flags and not w.startswith("-"):
                flags[-1] += " " + w
            else:
                flags.append(w)
        return flags
    flags = split_flags(a.flags)
    fixed = split_flags(a.fixed_flags) if a.fixed_flags is not None else None
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
        if st != "ok" or not re.search(r"[0-9]", ref):
            return False
        st, ref2, _ = run.call(tools.run_cmd(ll), env={"MALLOC_PERTURB_": "85"})
        if st != "ok" or ref2 != ref:
            return False
        if fixed is not None:
            st, _, err = run.call(tools.opt_cmd(cand, fixed + plan_lower, ll))
            if st != "ok" or any(r not in err for r in a.fixed_remark) or \
                    any(r in err for r in a.no_fixed_remark):
                return False
            st, got, _ = run.call(tools.run_cmd(ll, runtime=a.runtime))
            if st != "ok" or got != ref:
                return False
        if run.call([a.old_memplan_opt or a.memplan_opt, cand] + flags + plan_lower +
                    ["-o", ll])[0] != "ok":
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
    keep = lambda l: (a.keep_prints and "@print" in l) or l.strip() in ("module {", "}") or \
        l.lstrip().startswith("func.func")

    def report(lines):
        print("  %d lines (%d tests)" % (len(lines), tests[0]), file=sys.stderr)

    while True:
        lines, progress = drop_ops(lines, interesting, keep, report)
        lines, more = drop_lines(lines, interesting, keep, report)
        if not (progress or more):
            break
    with open(a.output, "w") as fh:
        fh.write("\n".join(lines) + "\n")
    print("%d lines after %d tests -> %s" % (len(lines), tests[0], a.output))


DEF = re.compile(r"^\s*(%[^=]*?)\s*=\s")
NAME = re.compile(r"%[A-Za-z0-9_$.-]+")


def op_units(lines):
    """(first, end) line spans of every op, regions included (nested ops too),
    with the SSA names its first line defines and the names the span uses."""
    units = []
    for i, l in enumerate(lines):
        s = l.strip()
        if not s or s.startswith("^") or s.startswith("}") or s.startswith("//"):
            continue
        depth, j = l.count("{") - l.count("}"), i
        while depth > 0 and j + 1 < len(lines):
            j += 1
            depth += lines[j].count("{") - lines[j].count("}")
        m = DEF.match(l)
        defs = set(NAME.findall(m.group(1))) if m else set()
        uses = set()
        for k in range(i, j + 1):
            uses |= set(NAME.findall(lines[k].split("=", 1)[-1] if k == i and m else lines[k]))
        units.append((i, j + 1, defs, uses - defs))
    return units


def drop_ops(lines, interesting, keep, report):
    """Delete one op (and its region) with every op using what it defines,
    transitively; first to last, again after each success."""
    progress, pos = False, 0
    while True:
        units = op_units(lines)
        done = True
        for u, (first, end, defs, _) in enumerate(units):
            if first < pos or keep(lines[first]):
                continue
            gone, names, heads = set(range(first, end)), set(defs), [first]
            grew = True
            while grew:
                grew = False
                for (f2, e2, d2, u2) in units:
                    # an op enclosing what goes uses its names in its region
                    if f2 not in gone and u2 & names and \
                            not any(f2 < k < e2 for k in gone):
                        gone |= set(range(f2, e2))
                        names |= d2
                        heads.append(f2)
                        grew = True
            if any(keep(lines[k]) for k in heads):
                continue
            trial = [l for k, l in enumerate(lines) if k not in gone]
            if interesting(trial):
                lines, pos, progress, done = trial, first, True, False
                report(lines)
                break
        if done:
            return lines, progress


def drop_lines(lines, interesting, keep, report):
    """Delta debugging over single lines."""
    n, progress = 2, False
    while True:
        idx = [i for i, l in enumerate(lines) if not keep(l)]
        if not idx:
            break
        chunk = max(1, len(idx) // n)
        step = False
        for start in range(0, len(idx), chunk):
            drop = set(idx[start:start + chunk])
            trial = [l for i, l in enumerate(lines) if i not in drop]
            if interesting(trial):
                lines = trial
                step = progress = True
                report(lines)
                break
        if not step:
            if chunk == 1:
                break
            n = min(len(idx), n * 2)
        else:
            n = max(2, n - 1)
    return lines, progress


if __name__ == "__main__":
    main()
