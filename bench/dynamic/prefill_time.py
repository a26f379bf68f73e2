#!/usr/bin/env python3
"""Where the decoder's prefill time goes against unplanned (issue 26's "time
per call <= unplanned"): prefill(S) called --reps times per run, --rounds
runs of each variant interleaved, fastest and median call, x = fastest over
upstream's.

  upstream         one-shot-bufferize + buffer-deallocation-pipeline, malloc
  upstream-rt      the same, every malloc served by libmemplan_runtime
  memplan          --memplan-pipeline (defaults)
  one-base         separate-slots=false: every view takes the arena itself,
                   so LLVM cannot tell two slots apart
  noinplace        inplace=false
  arena-only       schedule, write-into-consumers, in-place and hoisting off:
                   what is left is the arena (and the runtime)

--native links each variant's -O2 object (mlir-runner --dump-object-file)
into an executable and runs that, as a program compiled ahead of time runs:
inside mlir-runner, malloc starts warm from the JIT's own compile, which
flatters upstream's per-call mallocs of large blocks (at S = 128, 2.6 ms
there and 3.2 ms native, while memplan's arena takes 2.8 ms either way).

Usage: prefill_time.py BUILD_DIR [--prompt 32] [--reps 20] [--rounds 5]
                       [--unoptimized | --native]
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import decoder  # noqa: E402
from bench import BUFFERIZE, LLVM, LOWER, build_shim, run, run_main  # noqa: E402

VARIANTS = {
    "upstream": ([BUFFERIZE, "--buffer-deallocation-pipeline"], "malloc"),
    "upstream-rt": ([BUFFERIZE, "--buffer-deallocation-pipeline"], "runtime"),
    "memplan": (["--memplan-pipeline"], "runtime"),
    "one-base": (["--memplan-pipeline=separate-slots=false"], "runtime"),
    "noinplace": (["--memplan-pipeline=inplace=false"], "runtime"),
    "arena-only": (["--memplan-pipeline=schedule=false write-into-consumers=false "
                    "inplace=false hoist-constants=off"], "runtime"),
}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("build")
    ap.add_argument("--prompt", type=int, default=32)
    ap.add_argument("--reps", type=int, default=20)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--unoptimized", action="store_true",
                    help="mlir-runner without -O2 (its default: no LLVM optimization)")
    ap.add_argument("--native", action="store_true",
                    help="run each variant's -O2 object linked into an executable")
    a = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="memplan-prefill-")
    opt, libs, rtlib = build_shim(a.build, tmp)
    src = os.path.join(tmp, "prefill.mlir")
    decoder.generate(src, a.prompt, 0, a.reps, decoder.capacity_for(a.prompt))
    lowered = {n: run([opt, src, *p, *LOWER]).stdout for n, (p, _) in VARIANTS.items()}
    exes = {}
    if a.native:
        for n, (_, alloc) in VARIANTS.items():
            obj, exe = os.path.join(tmp, n + ".o"), os.path.join(tmp, n)
            run_main(lowered[n], alloc, libs, rtlib,
                     extra=["--dump-object-file", "--object-filename=" + obj])
            libdirs = [f"{LLVM}/lib", os.path.dirname(rtlib), tmp]
            run(["cc", obj, "-o", exe, os.path.join(tmp, "alloc_shim.so"),
                 *[f"-L{d}" for d in libdirs], "-lmlir_runner_utils", "-lmlir_c_runner_utils",
                 "-lmemplan_runtime", "-lm", "-Wl,-rpath," + ":".join(libdirs)])
            exes[n] = exe
    times = {n: [] for n in VARIANTS}
    outs = {}
    for _ in range(a.rounds):
        for n, (_, alloc) in VARIANTS.items():
            if a.native:
                # main returns void: the exit status means nothing; the
                # outputs are compared below.
                out = subprocess.run([exes[n]], capture_output=True, text=True,
                                     env=dict(os.environ, MEMPLAN_BENCH_ALLOC=alloc)).stdout
            else:
                out = run_main(lowered[n], alloc, libs, rtlib,
                               optimize=not a.unoptimized).stdout
            sections, t = decoder.parse(out)
            outs.setdefault(n, sections)
            times[n] += t.get("prefill", [])
    for n in VARIANTS:
        why = decoder.first_difference(outs["upstream"], outs[n])
        if why:
            sys.exit(f"prefill S={a.prompt}: upstream and {n} differ: {why}")
    base = min(times["upstream"])
    print(f"prefill S={a.prompt}: {a.reps} calls x {a.rounds} rounds, us per call,"
          f" {'native -O2' if a.native else 'mlir-runner ' + ('unoptimized' if a.unoptimized else '-O2')}")
    for n, v in times.items():
        print(f"  {n:12} fastest {min(v) / 1000:9.1f}  median {statistics.median(v) / 1000:9.1f}"
              f"  x {min(v) / base:.3f}")


if __name__ == "__main__":
    main()
