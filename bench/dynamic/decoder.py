#!/usr/bin/env python3
"""The decoder of gen_workloads.py (KV cache in mutable globals, @prefill and
@decode), planned and unplanned, lowered and run with bench.py's helpers.

check (default): one program runs prefill(S), then N decode steps, prints the
  cache rows written, then prefill over all S + N tokens. It runs unplanned
  (one-shot-bufferize + buffer-deallocation-pipeline, malloc) and planned
  (--memplan-pipeline with its defaults, libmemplan_runtime); every printed
  value (the f32 bits of every output row and cache row) must be equal. Each
  run must also agree with itself: decode's logits at position p are the
  final prefill's row p, bit for bit (masked keys add exact zeros), which
  checks the program (cache written before it is read) and not only that
  the two lowerings agree. Exits 1 on any difference.

--bench: per prompt length S, four programs: prefill(S) called --reps
  times; 'fixed-S': the same with S fixed in prefill's types (what a
  static plan of that S holds); 'decode': --steps decode calls at positions
  S.. on the zero cache
  (no prefill in the program, so its memory is decode's own; the values
  differ, the sizes and the work do not); 'both': prefill(S) then the decode
  calls; 'shared': the same with memplan.shared_arena = [@prefill, @decode]. Per program: the live peak (livepeak.py) and peak bytes reserved of
  memplan, today and upstream (bench.py's variants; their outputs must be
  equal); per S the time per prefill and per decode call (fastest and
  median, from rtclock around each call in main), and the
  plan each function got, from --memplan-pipeline's report JSON.

Usage: decoder.py BUILD_DIR [--prompt 7 --steps 4] [--gen="--cache-in args ..."]
                            [--pipeline-options="strategy=..."] [--corrupt-planned]
       decoder.py BUILD_DIR --bench [--sizes 32,128,384 --steps 64 --reps 3]
"""
import argparse
import json
import os
import re
import statistics
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench import (HERE, VARIANTS, build_shim, live_peak, lower_variant, run,  # noqa: E402
                   run_main, run_variant)


def capacity_for(positions):
    return max(64, -(-positions // 64) * 64)


def generate(path, prompt, steps, reps, capacity, extra=()):
    run([sys.executable, os.path.join(HERE, "gen_workloads.py"), "decoder", "--prompt",
         str(prompt), "--steps", str(steps), "--reps", str(reps), "--capacity", str(capacity),
         *extra, "-o", path])


def parse(out):
    """A run's stdout -> ([(label, [row, ...])], {call: [ns, ...]}); a row is
    the list of its printed i32 values (f32 bits)."""
    sections, times = [], {}
    for line in out.splitlines():
        if line.startswith("time "):
            _, name, ns = line.split()
            times.setdefault(name, []).append(int(ns))
        elif line[:1] in "-0123456789" and line:
            sections[-1][1].append([int(x) for x in line.split(",") if x.strip()])
        else:
            sections.append((line, []))
    return sections, times


def f32(bits):
    import struct
    return struct.unpack("<f", struct.pack("<i", bits))[0]


def first_difference(a, b):
    """Where two parsed outputs differ first, as a sentence, or None."""
    if [l for l, _ in a] != [l for l, _ in b]:
        return f"sections differ: {[l for l, _ in a]} vs {[l for l, _ in b]}"
    for (label, ra), (_, rb) in zip(a, b):
        if len(ra) != len(rb):
            return f"'{label}': {len(ra)} rows vs {len(rb)}"
        for i, (x, y) in enumerate(zip(ra, rb)):
            if x != y:
                if len(x) != len(y):
                    return f"'{label}' row {i}: {len(x)} values vs {len(y)}"
                j = next(j for j in range(len(x)) if x[j] != y[j])
                return (f"'{label}' row {i} column {j}: {x[j]} ({f32(x[j])!r}) vs "
                        f"{y[j]} ({f32(y[j])!r})")
    return None


def causal_difference(sections, prompt, steps):
    """decode at position p, and prefill row p, against the final prefill
    over all prompt + steps tokens: a sentence, or None."""
    by = dict(sections)  # the last of sections with one label: the final prefill
    final = by[f"prefill {prompt + steps}"]
    for i, row in enumerate(next(r for l, r in sections if l == f"prefill {prompt}")):
        if row != final[i]:
            return f"prefill {prompt} row {i} differs from the final prefill's"
    for p in range(prompt, prompt + steps):
        if by[f"decode pos {p}"] != [final[p]]:
            return f"decode at position {p} differs from the final prefill's row {p}"
    return None


def check(a, opt, libs, rtlib, tmp):
    S, N = a.prompt, a.steps
    src = os.path.join(tmp, "decoder-check.mlir")
    generate(src, S, N, 1, a.capacity or capacity_for(S + N),
             ["--dump-cache", "--causal-check", *a.gen.split()])
    if a.pipeline_options:
        VARIANTS["memplan"] = ([f"--memplan-pipeline={a.pipeline_options}"],
                               VARIANTS["memplan"][1])
    outs = {}
    for name in ("upstream", "memplan"):  # unplanned, planned
        outs[name] = parse(run_variant(opt, src, name, libs, rtlib)[0])[0]
    if a.corrupt_planned:
        # Self-test: the comparison must see one flipped bit.
        outs["memplan"][-1][1][-1][0] ^= 1
    bad = 0
    for name, secs in outs.items():
        why = causal_difference(secs, S, N)
        if why:
            print(f"{name}: not causal: {why}")
            bad = 1
    why = first_difference(outs["upstream"], outs["memplan"])
    rows = sum(len(r) for _, r in outs["upstream"])
    values = sum(len(x) for _, r in outs["upstream"] for x in r)
    if why:
        print(f"MISMATCH planned vs unplanned: {why}")
        bad = 1
    else:
        print(f"decoder prompt {S}, {N} decode steps: {rows} rows ({values} values: logits of "
              "every call, cache rows, final prefill) planned == unplanned, bit for bit")
    if not bad:
        print("decode at each position == the final prefill's row (planned and unplanned)")
    return bad


def plan_kinds(opt, src, tmp):
    """What --memplan-pipeline did with each function, from its report."""
    report = os.path.join(tmp, "decoder-report.json")
    run([opt, src, f"--memplan-pipeline=report={report}", "-o", os.devnull])
    with open(report) as f:
        funcs = {fn["function"]: fn for fn in json.load(f)["functions"]}
    kinds = {}
    for name in ("prefill", "decode"):
        fn, parts = funcs.get(name, {}), []
        arenas = fn.get("arenas", [])
        if arenas:
            parts.append("static " + " + ".join(
                f"{len(ar.get('buffers', []))} buffers in {ar.get('arena_size')} B"
                for ar in arenas))
        for key, lst in fn.get("runtime", {}).items():
            if isinstance(lst, list) and lst:
                parts.append(f"{key.replace('_', ' ')} {len(lst)}")
            elif not isinstance(lst, list):
                parts.append(f"{key} {lst}")
        kinds[name] = "; ".join(parts) or "nothing planned"
    return kinds


def add_times(times, name, t):
    """Adds one run's {call: [ns, ...]} to times[name]."""
    for call, v in t.items():
        times.setdefault(name, {}).setdefault(call, []).extend(v)


def bench(a, opt, libs, rtlib, tmp):
    names = list(VARIANTS)
    print(f"decoder: peak bytes reserved / live peak (as the table above); per prompt length S:"
          f" 'prefill' {a.reps} calls; 'fixed-S' the same with S in prefill's types;"
          f" 'decode' {a.steps} steps at positions S.. alone (zero cache); 'both' prefill then"
          " the decode steps")
    print(f"{'program':9}{'S':>5}{'live peak':>12}{'in use':>9}"
          + "".join(f"{n:>12}{'x':>7}" for n in names))
    timing, kinds, cache, reserved = [], {}, [], {}
    for S in [int(s) for s in a.sizes.split(",") if s]:
        cap = capacity_for(S + a.steps)
        times = {}
        for prog, (steps, reps, extra) in (
                ("prefill", (0, a.reps, [])), ("fixed-S", (0, a.reps, ["--static-prompt"])),
                ("decode", (a.steps, 0, [])), ("both", (a.steps, 1, [])),
                ("shared", (a.steps, 1, ["--shared-arena"]))):
            src = os.path.join(tmp, f"decoder-{prog}{S}.mlir")
            generate(src, S, steps, reps, cap, extra)
            if prog == "prefill":
                kinds[S] = plan_kinds(opt, src, tmp)
            elif prog == "fixed-S":
                kinds[S]["prefill, S fixed"] = plan_kinds(opt, src, tmp)["prefill"]
            live = live_peak(opt, src)
            row, outs = {}, {}
            # Lowered once: the timed programs run again below.
            lowered = {n: lower_variant(opt, src, n) for n in names}
            for n in names:
                out, row[n], inuse, err = run_variant(opt, src, n, libs, rtlib, lowered[n])
                outs[n], t = parse(out)
                if n == "memplan":
                    memplan_inuse = inuse
                    # Printed by runtimes that count their plan cache.
                    hm = [re.search(rf"^plan cache {k} \(process\): (\d+)", err, re.M)
                          for k in ("hits", "misses")]
                    if all(hm) and prog in ("prefill", "decode"):
                        cache.append((S, prog, int(hm[0].group(1)), int(hm[1].group(1))))
                if prog in ("prefill", "decode"):
                    add_times(times, n, t)
            # More rounds of the timed programs, the variants interleaved, so
            # that a slow spell of a loaded machine hits them all alike.
            for _ in range(a.rounds - 1 if prog in ("prefill", "decode") else 0):
                for n in names:
                    add_times(times, n, parse(run_main(lowered[n], VARIANTS[n][1], libs,
                                                       rtlib).stdout)[1])
            for n in names[1:]:
                why = first_difference(outs[names[0]], outs[n])
                if why:
                    sys.exit(f"decoder {prog} S={S}: {names[0]} and {n} differ: {why}")
            reserved.setdefault(S, {})[prog] = row["memplan"]
            print(f"{prog:9}{S:5}{live:12}{memplan_inuse / live:9.3f}"
                  + "".join(f"{row[n]:12}{row[n] / live:7.3f}" for n in names), flush=True)
        timing.append((S, times))
    print("shared: prefill and decode in memplan.shared_arena (one block kept across"
          " calls); memplan's peak reserved over the larger of prefill's and decode's alone")
    for S, r in reserved.items():
        big = max(r["prefill"], r["decode"])
        print(f"{S:5} shared {r['shared']} B, both (not shared) {r['both']} B,"
              f" larger alone {big} B: {r['shared'] / big:.3f}x")
    # The machine may be loaded: noise only adds time, so the ratio is of the
    # fastest calls; the median shows the spread.
    print(f"time per call, us: fastest (median) of {a.rounds} runs, the variants interleaved;"
          " x = fastest over upstream's (unplanned)")
    print(f"{'S':>5} {'call':8}" + "".join(f"{n:>19}{'x':>6}" for n in names))
    for S, times in timing:
        for call in ("prefill", "decode"):
            lo = {n: min(times[n][call]) / 1000 for n in names}
            med = {n: statistics.median(times[n][call]) / 1000 for n in names}
            print(f"{S:5} {call:8}" + "".join(
                f"{lo[n]:10.1f} ({med[n]:6.1f}){lo[n] / lo['upstream']:6.2f}" for n in names))
    if cache:
        print("run-time plan cache of memplan's run (MEMPLAN_RT_STATS): hits / misses")
        for S, prog, h, m in cache:
            print(f"{S:5} {prog:8} {h} / {m}")
    print("plan per function (--memplan-pipeline report: static arena, run-time arena,"
          " per buffer, left alone)")
    for S in kinds:
        for name, kind in kinds[S].items():
            print(f"{S:5} {name:16} {kind}")
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("build")
    ap.add_argument("--bench", action="store_true")
    ap.add_argument("--prompt", type=int, default=7, help="check: prefill length S")
    ap.add_argument("--steps", type=int, help="decode steps (check: 4, bench: 64)")
    ap.add_argument("--capacity", type=int, help="check: KV cache positions "
                    "(default: S + steps rounded up to 64)")
    ap.add_argument("--sizes", default="32,128,384", help="bench: prompt lengths")
    ap.add_argument("--reps", type=int, default=5, help="bench: prefill calls per program")
    ap.add_argument("--rounds", type=int, default=3,
                    help="bench: runs of the timed programs (prefill, decode) per variant")
    ap.add_argument("--gen", default="", help="check: more gen_workloads.py options "
                    "(--layers 3 --hidden 64 --heads 4 --bound-pos ...)")
    ap.add_argument("--pipeline-options", help="check: options of the planned "
                    "--memplan-pipeline (e.g. 'strategy=best-fit-area alignment=8')")
    ap.add_argument("--corrupt-planned", action="store_true",
                    help="check, self-test: flip one bit of the planned output (must fail)")
    a = ap.parse_args()
    if a.steps is None:
        a.steps = 64 if a.bench else 4
    tmp = tempfile.mkdtemp(prefix="memplan-decoder-")
    opt, libs, rtlib = build_shim(a.build, tmp)
    sys.exit((bench if a.bench else check)(a, opt, libs, rtlib, tmp))


if __name__ == "__main__":
    main()
