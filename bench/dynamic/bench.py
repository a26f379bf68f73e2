#!/usr/bin/env python3
"""Peak memory of the dynamic workloads (gen_workloads.py) per size, over the
live peak, for three lowerings of the same program:

  memplan   --memplan-pipeline (static buffers in arenas, dynamic ones from
            libmemplan_runtime, freed at their last use; the offsets of a
            function's dynamic buffers computed at its entry from an order
            planned at compile time: a symbolic plan);
  rt-plan   --memplan-pipeline="symbolic=false": the same, those offsets
            planned when the function runs (memplan_rt_plan, cached per
            shape);
  today     --memplan-pipeline="runtime=false": the same plan, every buffer left
            freed where --buffer-deallocation-pipeline puts it (end of its
            block), served by the same BFC runtime: memplan's lowering before
            frees at the last use;
  upstream  --one-shot-bufferize + --buffer-deallocation-pipeline, malloc/free.

Each program is lowered with finalize-memref-to-llvm{use-generic-functions
use-aligned-alloc}, and alloc_shim.c serves memref.alloc: from the memplan
runtime's allocator for memplan and today (so MEMPLAN_RT_STATS=1 counts every
buffer, arenas and returned buffers too: "peak bytes reserved"), from
posix_memalign for upstream ("reserved" = the sum of malloc_usable_size of the
live blocks, at its peak). The live peak comes from the IR (livepeak.py).
Every run prints the model's checksum; the three must agree.

Usage: bench.py BUILD_DIR [--bert 32,128,384] [--cnn 1,8,32]
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
LLVM = "/usr/lib/llvm-22"
BUFFERIZE = ("--one-shot-bufferize=bufferize-function-boundaries "
             "function-boundary-type-conversion=identity-layout-map")
LOWER = ["--convert-linalg-to-loops", "--expand-strided-metadata", "--lower-affine",
         "--convert-scf-to-cf", "--convert-math-to-llvm", "--convert-vector-to-llvm",
         # bufferization.clone, which the deallocation pipeline leaves for a
         # function that returns its argument (the decoder's cache in args).
         "--convert-bufferization-to-memref",
         "--finalize-memref-to-llvm=use-generic-functions=1 use-aligned-alloc=1",
         "--convert-arith-to-llvm", "--convert-func-to-llvm", "--convert-cf-to-llvm",
         "--reconcile-unrealized-casts"]
VARIANTS = {
    "memplan": (["--memplan-pipeline"], "runtime"),
    "rt-plan": (["--memplan-pipeline=symbolic=false"], "runtime"),
    "today": (["--memplan-pipeline=runtime=false"], "runtime"),
    "upstream": ([BUFFERIZE, "--buffer-deallocation-pipeline"], "malloc"),
}


def run(cmd, **kw):
    p = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if p.returncode:
        sys.exit(f"failed ({p.returncode}): {' '.join(cmd)}\n{p.stderr[-2000:]}")
    return p


def build_shim(build, tmp):
    """Compiles alloc_shim.c; returns (opt, the runner's -shared-libs without
    the runtime, the runtime library)."""
    opt = os.path.join(build, "bin", "memplan-opt")
    rtdir = os.path.join(os.path.abspath(build), "lib")
    shim = os.path.join(tmp, "alloc_shim.so")
    run(["cc", "-O2", "-shared", "-fPIC", "-I", os.path.join(ROOT, "include"),
         os.path.join(HERE, "alloc_shim.c"), "-o", shim, "-L", rtdir,
         "-lmemplan_runtime", "-Wl,-rpath," + rtdir])
    libs = ",".join([f"{LLVM}/lib/libmlir_runner_utils.so",
                     f"{LLVM}/lib/libmlir_c_runner_utils.so", shim])
    return opt, libs, os.path.join(rtdir, "libmemplan_runtime.so")


def live_peak(opt, src):
    """The live peak of the program in src, from its bufferized IR."""
    gen = run([opt, src, BUFFERIZE, "--mlir-print-op-generic"]).stdout
    with open(src + ".buf", "w") as f:
        f.write(gen)
    return int(re.search(r"live peak bytes: (\d+)", run(
        [sys.executable, os.path.join(HERE, "livepeak.py"), src + ".buf"]).stdout).group(1))


def run_main(ll, alloc, libs, rtlib, optimize=True, stats=False, extra=()):
    """Runs main of the lowered program ll with mlir-runner, its allocations
    served by malloc or by libmemplan_runtime (alloc_shim.c's
    MEMPLAN_BENCH_ALLOC); MEMPLAN_RT_STATS when stats; extra: more
    mlir-runner flags (--dump-object-file)."""
    env = dict(os.environ, MEMPLAN_BENCH_ALLOC=alloc)
    if stats:
        env["MEMPLAN_RT_STATS"] = "1"
    # -O2, as a deployed program is compiled: mlir-runner's default runs
    # unoptimized code, 4.4x slower, where memplan's prefill at S = 32 read
    # 1.04x unplanned's time and at -O2 reads 1.00x (docs/DecoderBench.md).
    return run([f"{LLVM}/bin/mlir-runner", *(["-O2"] if optimize else []), "-e", "main",
                "-entry-point-result=void",
                "-shared-libs=" + libs + ("," + rtlib if alloc == "runtime" else ""),
                *extra], input=ll, env=env)


def lower_variant(opt, src, name):
    """src lowered to the LLVM dialect as VARIANTS[name] says."""
    return run([opt, src, *VARIANTS[name][0], *LOWER]).stdout


def run_variant(opt, src, name, libs, rtlib, ll=None):
    """Runs main of src lowered as VARIANTS[name] says (ll, when the caller
    lowered it already). Returns (stdout, peak bytes reserved, peak bytes in
    use or None, stderr)."""
    alloc = VARIANTS[name][1]
    if ll is None:
        ll = lower_variant(opt, src, name)
    p = run_main(ll, alloc, libs, rtlib, stats=True)
    key = "peak bytes reserved" if alloc == "runtime" else "malloc peak bytes reserved"
    reserved = int(re.search(rf"^{key}: (\d+)", p.stderr, re.M).group(1))
    inuse = re.search(r"^peak bytes in use: (\d+)", p.stderr, re.M)
    return p.stdout, reserved, int(inuse.group(1)) if inuse else None, p.stderr


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("build")
    ap.add_argument("--bert", default="32,128,384")
    ap.add_argument("--cnn", default="1,8,32")
    a = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="memplan-dyn-")
    opt, libs, rtlib = build_shim(a.build, tmp)
    print("peak bytes reserved / live peak bytes (live peak from the IR; memplan, today:"
          " MEMPLAN_RT_STATS 'peak bytes reserved' of the BFC runtime serving every buffer;"
          " upstream: malloc usable bytes of the live blocks)")
    print(f"{'model':6}{'size':>6}{'live peak':>12}{'in use':>9}{'rt in use':>10}"
          + "".join(f"{n:>12}{'x':>7}" for n in VARIANTS))
    worst = 0.0
    for model, sizes in (("bert", a.bert), ("cnn", a.cnn)):
        for size in [int(s) for s in sizes.split(",") if s]:
            src = os.path.join(tmp, f"{model}{size}.mlir")
            run([sys.executable, os.path.join(HERE, "gen_workloads.py"), model,
                 "--sizes", str(size), "-o", src])
            live = live_peak(opt, src)
            row, outs = {}, {}
            inuse_of = {}
            for name in VARIANTS:
                outs[name], row[name], inuse_of[name], _ = run_variant(
                    opt, src, name, libs, rtlib)
            memplan_inuse = inuse_of["memplan"]
            if len(set(outs.values())) != 1:
                sys.exit(f"{model} {size}: outputs differ: {outs}")
            worst = max(worst, row["memplan"] / live)
            print(f"{model:6}{size:6}{live:12}{memplan_inuse / live:9.3f}"
                  f"{inuse_of['rt-plan'] / live:10.3f}"
                  + "".join(f"{row[n]:12}{row[n] / live:7.3f}" for n in VARIANTS), flush=True)
    print(f"memplan worst: {worst:.3f}x the live peak (goal: 1.05x); 'in use': memplan's"
          " peak bytes in use (256-byte rounded) over the live peak, 'rt in use' rt-plan's")


if __name__ == "__main__":
    main()
