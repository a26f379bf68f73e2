#!/usr/bin/env python3
"""MB/s of tensor-mem-hoist-constants' raw-byte fold on the largest weight.

Usage: fold_speed.py MEMPLAN_OPT MODELS_DIR [--shape AxB...] [--json OUT]

The largest f32 weight constant of the shared nets (by element count; today
vgg11's and vgg16_bn's 4096x25088 classifier, 411 MB) becomes a
dense_resource blob of pseudo-random bytes in a module that transposes it
(all dimensions reversed: the fold's slowest case, element by element in
tiles) for a tensor.insert_slice. memplan-opt runs the pass with
--mlir-timing; the pass's wall time (parsing and printing are not in it)
gives MB/s = bytes / seconds. The fold is checked: the output must hold no
transpose and the folded blob; a transpose left means 0 MB/s and exit 1.
"""
import argparse
import glob
import json
import math
import os
import random
import re
import subprocess
import sys
import tempfile

CONST = re.compile(r"arith\.constant [^:\n]*:\s*tensor<((?:[0-9]+x)+)f32>")


def largest_weight(models):
    best = None
    for path in sorted(glob.glob(os.path.join(models, "*.mlir"))):
        with open(path) as f:
            for m in CONST.finditer(f.read()):
                dims = [int(d) for d in m.group(1).rstrip("x").split("x")]
                if best is None or math.prod(dims) > math.prod(best[0]):
                    best = (dims, os.path.basename(path))
    return best


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("opt")
    ap.add_argument("models")
    ap.add_argument("--shape", help="AxB... instead of the largest weight")
    ap.add_argument("--json")
    a = ap.parse_args()
    if a.shape:
        dims, source = [int(d) for d in a.shape.split("x")], "--shape"
    else:
        found = largest_weight(a.models)
        if not found:
            print("fold_speed: no f32 weight in", a.models)
            return 0
        dims, source = found
    nbytes = 4 * math.prod(dims)
    shape = "x".join(map(str, dims))
    perm = list(reversed(range(len(dims))))
    tshape = "x".join(str(dims[p]) for p in perm)
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "fold.mlir")
        with open(src, "w") as f:
            f.write(f"""func.func @f(%into: tensor<{tshape}xf32>) -> tensor<{tshape}xf32> {{
  %w = arith.constant dense_resource<weight> : tensor<{shape}xf32>
  %e = tensor.empty() : tensor<{tshape}xf32>
  %t = linalg.transpose ins(%w : tensor<{shape}xf32>) outs(%e : tensor<{tshape}xf32>) permutation = {perm}
  %r = tensor.insert_slice %t into %into[{", ".join("0" * len(dims))}] [{", ".join(map(str, (dims[p] for p in perm)))}] [{", ".join("1" * len(dims))}] : tensor<{tshape}xf32> into tensor<{tshape}xf32>
  return %r : tensor<{tshape}xf32>
}}
{{-#
  dialect_resources: {{ builtin: {{ weight: "0x04000000""")
            # Pseudo-random, deterministic (a repeated pattern could let a
            # cache hide the reads), 64 MiB at a time.
            rng = random.Random(source)
            step = 64 << 20
            for off in range(0, nbytes, step):
                f.write(rng.randbytes(min(step, nbytes - off)).hex().upper())
            f.write('" } } #-}\n')
        out = os.path.join(tmp, "out.mlir")
        r = subprocess.run(
            [a.opt, src, "--tensor-mem-hoist-constants=mode=speed hoist=false",
             "--mlir-timing", "--mlir-timing-display=list", "-o", out],
            capture_output=True, text=True)
        if r.returncode != 0:
            print(r.stderr[-2000:])
            return 1
        secs = None
        for line in r.stderr.splitlines():
            if "HoistConstants" in line or "hoist-constants" in line:
                secs = float(line.split()[0])
        with open(out, errors="replace") as f:
            head = f.read(4096)
        folded = "linalg.transpose" not in head and "memplan_folded" in head
    if secs is None:
        print("fold_speed: no time for tensor-mem-hoist-constants in "
              "--mlir-timing's output")
        return 1
    mbs = nbytes / 1e6 / secs if folded and secs else 0.0
    print(f"fold: transpose of {shape} f32 ({source}, {nbytes / 1e6:.0f} MB) "
          f"on raw bytes: {secs:.3f} s in tensor-mem-hoist-constants, "
          f"{mbs:.0f} MB/s" + ("" if folded else " (NOT FOLDED)"))
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"shape": dims, "source": source, "bytes": nbytes,
                       "seconds": secs, "mb_per_s": mbs, "folded": folded}, f)
    return 0 if folded else 1


if __name__ == "__main__":
    sys.exit(main())
