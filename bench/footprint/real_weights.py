#!/usr/bin/env python3
"""Gives a torch-mlir network of ../shared/models real weight data.

Usage: real_weights.py IN.mlir OUT.mlir [--calls N] [--seed NAME]

Every weight `%w = arith.constant dense<SPLAT> | dense_resource<__elided__>
: tensor<SHAPE x f32>` of rank >= 1 becomes `dense_resource<blobK>`, and a
`{-# dialect_resources: { builtin: { blobK: "0x04000000<data>" } } #-}`
section at the end holds the bytes: a 4-byte little-endian alignment (4)
and then the f32 values, little-endian. The values are data, not code (code
computing a weight would be constant-derived and hoisted), pseudo-random and
deterministic: seeded by the net's name (--seed, default the file's stem)
and the constant's index in the file.

A value is s * (1 + m) * 2^k with a random mantissa m in [0, 1) and a fixed
exponent k per tensor (built on raw bits, so a 94 MB table takes a second):
  - a weight of rank >= 2 with fan-in F = prod(dims[1:]) > 1 (conv OIHW,
    linear [out, in], embedding): random sign s, 2^k the power of two
    nearest sqrt(0.86 / F), so the variance is within 2x of He's 2 / F
    and activations neither blow up nor vanish through the ReLUs;
  - a vector (fan-in 1) with a non-zero splat v (batch-norm scale or
    running variance, layer-norm gamma): the sign of v, 2^k <= |v| < 2^(k+1)
    (a variance stays positive under the rsqrt);
  - an elided vector: positive, in [0.5, 1) (its role is unknown: a
    running variance must stay positive, anything else does not care);
  - a vector with a zero splat (bias, shift, running mean): random sign,
    in [1/64, 1/32).

Then a @main is appended that builds two deterministic inputs, calls
@forward once on the first (the first call) and N times on the second,
and prints for each call a checksum of every f32 output (the f64 sum of
its elements and a hash of its bits) and, after the first, the seconds the
call took (rtclock), one line each:
  0, <sum>, <hash>, ...
  1, <sum>, <hash>, ...
  -1, <seconds of call 1>
  ...
"""
import argparse
import math
import os
import random
import re
import zlib

WEIGHT = re.compile(
    r"^(?P<head>\s*%[\w.$-]+ = arith\.constant )"
    r"(?:dense<(?P<splat>[-+0-9.eE]+)>|dense_resource<__elided__>)"
    r"(?P<tail>\s*:\s*tensor<(?P<shape>[0-9]+(?:x[0-9]+)*)xf32>\s*)$")
FORWARD = re.compile(
    r"func\.func @forward\((?P<args>[^)]*)\)\s*->\s*(?P<res>\([^)]*\)|tensor<[^>]*>)")
TENSOR = re.compile(r"tensor<([0-9x]+)x([a-z0-9]+)>")


def blob(seed, count, sign, exponent):
    """count f32 values: sign (+1, -1 or 0 for random) * (1 + m) * 2^exponent,
    as little-endian bytes."""
    raw = int.from_bytes(random.Random(seed).randbytes(4 * count), "little")
    keep = 0x007FFFFF | (0x80000000 if sign == 0 else 0)
    bits = ((exponent + 127) << 23) | (0x80000000 if sign < 0 else 0)
    keep_all = int.from_bytes(keep.to_bytes(4, "little") * count, "little")
    bits_all = int.from_bytes(bits.to_bytes(4, "little") * count, "little")
    return ((raw & keep_all) | bits_all).to_bytes(4 * count, "little")


def weight_bytes(seed, dims, splat):
    count = math.prod(dims)
    fan_in = math.prod(dims[1:])
    if len(dims) >= 2 and fan_in > 1:
        return blob(seed, count, 0, round(math.log2(math.sqrt(0.86 / fan_in))))
    if splat is None:
        return blob(seed, count, 1, -1)
    if splat == 0.0:
        return blob(seed, count, 0, -6)
    return blob(seed, count, 1 if splat > 0 else -1,
                math.floor(math.log2(abs(splat))))


def input_generic(name, shape, elem, shift):
    """A deterministic input: f32 in [-0.5, 0.5], or i64 tokens in [0, 1000)."""
    dims = shape.split("x")
    rank = len(dims)
    ids = ", ".join("d%d" % k for k in range(rank))
    iters = ", ".join(['"parallel"'] * rank)
    p = "%%%s_" % name
    body = ["%sc7 = arith.constant %d : index" % (p, 7 * shift + 3),
            "%ss0 = arith.addi %sc7, %sc7 : index" % (p, p, p)]
    for k in range(rank):
        body += ["%si%d = linalg.index %d : index" % (p, k, k),
                 "%sk%d = arith.constant %d : index" % (p, k, k + 2),
                 "%sm%d = arith.muli %si%d, %sk%d : index" % (p, k, p, k, p, k),
                 "%ss%d = arith.addi %ss%d, %sm%d : index" % (p, k + 1, p, k, p, k)]
    s = "%ss%d" % (p, rank)
    if elem == "f32":
        body += ["%sc11 = arith.constant 11 : index" % p,
                 "%sr = arith.remui %s, %sc11 : index" % (p, s, p),
                 "%sri = arith.index_cast %sr : index to i32" % (p, p),
                 "%srf = arith.sitofp %sri : i32 to f32" % (p, p),
                 "%sfive = arith.constant 5.0 : f32" % p,
                 "%sten = arith.constant 10.0 : f32" % p,
                 "%sc = arith.subf %srf, %sfive : f32" % (p, p, p),
                 "%sv = arith.divf %sc, %sten : f32" % (p, p, p)]
    else:
        body += ["%sc1000 = arith.constant 997 : index" % p,
                 "%sr = arith.remui %s, %sc1000 : index" % (p, s, p),
                 "%sv = arith.index_cast %sr : index to %s" % (p, p, elem)]
    body.append("linalg.yield %sv : %s" % (p, elem))
    return "\n".join(
        ["    %se = tensor.empty() : tensor<%sx%s>" % (p, shape, elem),
         "    %%%s = linalg.generic {indexing_maps = [affine_map<(%s) -> (%s)>],"
         " iterator_types = [%s]} outs(%se : tensor<%sx%s>) {"
         % (name, ids, ids, iters, p, shape, elem),
         "    ^bb0(%so: %s):" % (p, elem)]
        + ["      " + b for b in body]
        + ["    } -> tensor<%sx%s>" % (shape, elem)])


def checksum(name, value, shape):
    """Prints the f64 sum of an f32 tensor and a hash of its bits."""
    dims = shape.split("x")
    rank = len(dims)
    ids = ", ".join("d%d" % k for k in range(rank))
    iters = ", ".join(['"reduction"'] * rank)
    p = "%%%s_" % name
    t = "tensor<%sxf32>" % shape
    return f"""    {p}z = arith.constant 0.0 : f64
    {p}zi = arith.constant 0 : i64
    {p}es = tensor.empty() : tensor<f64>
    {p}eh = tensor.empty() : tensor<i64>
    {p}fs = linalg.fill ins({p}z : f64) outs({p}es : tensor<f64>) -> tensor<f64>
    {p}fh = linalg.fill ins({p}zi : i64) outs({p}eh : tensor<i64>) -> tensor<i64>
    {p}r:2 = linalg.generic {{indexing_maps = [affine_map<({ids}) -> ({ids})>, affine_map<({ids}) -> ()>, affine_map<({ids}) -> ()>], iterator_types = [{iters}]}} ins({value} : {t}) outs({p}fs, {p}fh : tensor<f64>, tensor<i64>) {{
    ^bb0({p}x: f32, {p}a: f64, {p}h: i64):
      {p}xd = arith.extf {p}x : f32 to f64
      {p}a2 = arith.addf {p}a, {p}xd : f64
      {p}b = arith.bitcast {p}x : f32 to i32
      {p}bi = arith.extui {p}b : i32 to i64
      {p}m = arith.constant 1000003 : i64
      {p}hm = arith.muli {p}h, {p}m : i64
      {p}h2 = arith.xori {p}hm, {p}bi : i64
      linalg.yield {p}a2, {p}h2 : f64, i64
    }} -> (tensor<f64>, tensor<i64>)
    {p}sum = tensor.extract {p}r#0[] : tensor<f64>
    {p}hash = tensor.extract {p}r#1[] : tensor<i64>
    func.call @printF64({p}sum) : (f64) -> ()
    func.call @printComma() : () -> ()
    func.call @printI64({p}hash) : (i64) -> ()
    func.call @printComma() : () -> ()"""


def main_function(args, results, calls):
    lines = ["  func.func private @rtclock() -> f64",
             "  func.func private @printF64(f64)",
             "  func.func private @printI64(i64)",
             "  func.func private @printNewline()",
             "  func.func private @printComma()",
             "  // An entry that does nothing: mlir-runner -e bench_noop compiles the",
             "  // module (--dump-object-file) without running the net.",
             "  func.func @bench_noop() {",
             "    return",
             "  }",
             "  func.func @main() {"]
    in_types = ", ".join("tensor<%sx%s>" % a for a in args)
    out_types = ", ".join("tensor<%sx%s>" % r for r in results)
    for shift in (0, 1):
        names = []
        for k, (shape, elem) in enumerate(args):
            name = "in%d_%d" % (shift, k)
            lines.append(input_generic(name, shape, elem, shift))
            names.append("%" + name)
        ins = ", ".join(names)
        for c in ([0] if shift == 0 else range(1, calls + 1)):
            lines.append("    %%ta%d = func.call @rtclock() : () -> f64" % c)
            lines.append("    %%y%d:%d = func.call @forward(%s) : (%s) -> (%s)"
                         % (c, len(results), ins, in_types, out_types))
            lines.append("    %%tb%d = func.call @rtclock() : () -> f64" % c)
            lines.append("    %%call_id%d = arith.constant %d : i64" % (c, c))
            lines.append("    func.call @printI64(%%call_id%d) : (i64) -> ()" % c)
            lines.append("    func.call @printComma() : () -> ()")
            for r, (shape, elem) in enumerate(results):
                if elem == "f32":
                    lines.append(checksum("cs%d_%d" % (c, r), "%%y%d#%d" % (c, r), shape))
            lines.append("    func.call @printNewline() : () -> ()")
            if c > 0:
                lines += ["    %%dt%d = arith.subf %%tb%d, %%ta%d : f64" % (c, c, c),
                          "    %%tl%d = arith.constant -1 : i64" % c,
                          "    func.call @printI64(%%tl%d) : (i64) -> ()" % c,
                          "    func.call @printComma() : () -> ()",
                          "    func.call @printF64(%%dt%d) : (f64) -> ()" % c,
                          "    func.call @printNewline() : () -> ()"]
    lines += ["    return", "  }"]
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("input")
    ap.add_argument("output")
    ap.add_argument("--calls", type=int, default=3,
                    help="timed calls after the first (default 3)")
    ap.add_argument("--seed", default=None)
    a = ap.parse_args()
    seed = a.seed or os.path.splitext(os.path.basename(a.input))[0]
    lines = open(a.input).read().split("\n")
    blobs = []
    for n, line in enumerate(lines):
        m = WEIGHT.match(line)
        if not m:
            continue
        dims = [int(d) for d in m.group("shape").split("x")]
        splat = m.group("splat")
        data = weight_bytes(zlib.crc32(("%s:%d" % (seed, len(blobs))).encode()),
                            dims, None if splat is None else float(splat))
        lines[n] = "%sdense_resource<memplan_w%d>%s" % (
            m.group("head"), len(blobs), m.group("tail"))
        blobs.append(data)
    fwd = FORWARD.search("\n".join(lines))
    if not fwd:
        raise SystemExit("real_weights.py: no @forward in " + a.input)
    args = TENSOR.findall(fwd.group("args"))
    results = TENSOR.findall(fwd.group("res"))
    end = max(i for i, l in enumerate(lines) if l.strip() == "}")
    lines.insert(end, main_function(args, results, a.calls))
    with open(a.output, "w") as out:
        out.write("\n".join(lines))
        out.write("\n{-#\n  dialect_resources: {\n    builtin: {\n")
        for k, data in enumerate(blobs):
            out.write('      memplan_w%d: "0x04000000%s"%s\n'
                      % (k, data.hex().upper(), "," if k + 1 < len(blobs) else ""))
        out.write("    }\n  }\n#-}\n")
    print("real_weights.py: %d weights, %d bytes of data -> %s"
          % (len(blobs), sum(map(len, blobs)), a.output))


if __name__ == "__main__":
    main()
