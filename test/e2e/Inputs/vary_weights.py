#!/usr/bin/env python3
"""Gives a torch-mlir network of ../shared/models weights that vary.

Usage: vary_weights.py IN.mlir OUT.mlir [--main]

The shared networks hold splat (`dense<0.0123>`) or elided
(`dense_resource<__elided__>`) weights, so their outputs are nearly constant
and an execution test comparing two runs proves little. Every such
`%w = arith.constant ... : tensor<SHAPE x f32>` of rank >= 1 becomes

  %w_vw_base = arith.constant dense<BASE> : tensor<SHAPE x f32>
  %w = linalg.generic ins(%w_vw_base) outs(tensor.empty())
         { in * (A + (((sum_k c_k * i_k + t) mod 17) - 8) * B) }

with the c_k and t depending on the tensor's position in the file. The
result is still constant-derived (no argument reaches it, and it reads a
constant of its own size), so tensor-mem-hoist-constants hoists it with
mode=speed (the default mode, memory, leaves it an arena buffer: hoisting
would keep a second copy); it is not a splat, so nothing folds it.

  - rank >= 2 (conv OIHW, linear [out, in]): BASE = sqrt(2 / (24 fan_in)),
    A = 0, B = 1: zero mean and He's variance (the pattern's is 24), so
    activations neither vanish nor blow up through ReLUs.
  - rank 1 with a non-zero splat v (batch-norm scale/variance): BASE = v,
    A = 1, B = 1/32: within 25% of v, keeping its sign (a variance stays
    positive under the rsqrt).
  - rank 1 with a zero splat (shift/mean/bias): BASE = 0.01, A = 0, B = 1.
  - rank 1 elided: treated as v = 1.

With --main, a @main is appended that calls @forward twice, on two varied
inputs in [-0.5, 0.5], and prints each result with printMemrefF32 and then
its bits with printMemrefI32 (printing rounds to 6 digits; the bits do not).
"""
import math
import re
import sys

WEIGHT = re.compile(
    r"^(?P<indent>\s*)(?P<name>%[\w.$-]+) = arith\.constant "
    r"(?:dense<(?P<splat>[-+0-9.eE]+)>|dense_resource<__elided__>)"
    r"\s*:\s*tensor<(?P<shape>[0-9]+(?:x[0-9]+)*)xf32>\s*$")
FORWARD = re.compile(
    r"func\.func @forward\(%arg0: tensor<([0-9x]+)xf32>\) -> "
    r"tensor<([0-9x]+)xf32>")
# A prime: each weight is a quadratic residue hash of its linear index modulo
# it. A short period (a linear form mod 17 was tried) repeats output channels
# every period and correlates the sums of the next layer: squeezenet's output
# grew to 1e3 with 17 distinct values.
PRIME = 65521


def f32(value):
    """An MLIR float literal that round-trips."""
    return "%.9e" % value


def hash_constants(index):
    """h(n) = (a n^2 + b n + c) mod PRIME, with a and b far from 0 so that
    the first elements of a tensor do not ramp."""
    return (index * 7919 + 40503) % (PRIME - 1) + 1, \
        (index * 104729 + 22367) % (PRIME - 1) + 1, (index * 31337) % PRIME


def generic(indent, name, index, dims, splat):
    shape = "x".join(str(d) for d in dims) + "xf32"
    rank = len(dims)
    # The payload yields in * (A + u * B) with u uniform in [-1, 1).
    if rank >= 2:
        fan_in = math.prod(dims[1:])
        base, a, b = math.sqrt(6.0 / fan_in), 0.0, 1.0
    elif splat is None or splat != 0.0:
        base, a, b = (1.0 if splat is None else splat), 1.0, 0.25
    else:
        base, a, b = 0.1, 0.0, 1.0
    p = "%" + name[1:].replace(".", "_") + "_vw_"
    ids = ", ".join("d%d" % k for k in range(rank))
    iters = ", ".join(['"parallel"'] * rank)
    ha, hb, hc = hash_constants(index)
    body = ["%sn0 = linalg.index 0 : index" % p]
    for k in range(1, rank):
        body += ["%sd%d = arith.constant %d : index" % (p, k, dims[k]),
                 "%si%d = linalg.index %d : index" % (p, k, k),
                 "%sp%d = arith.muli %sn%d, %sd%d : index" % (p, k, p, k - 1, p, k),
                 "%sn%d = arith.addi %sp%d, %si%d : index" % (p, k, p, k, p, k)]
    n = "%sn%d" % (p, rank - 1)
    body += [
        "%sprime = arith.constant %d : index" % (p, PRIME),
        "%sha = arith.constant %d : index" % (p, ha),
        "%shb = arith.constant %d : index" % (p, hb),
        "%shc = arith.constant %d : index" % (p, hc),
        "%sx = arith.remui %s, %sprime : index" % (p, n, p),
        "%sxx = arith.muli %sx, %sx : index" % (p, p, p),
        "%sq = arith.muli %sxx, %sha : index" % (p, p, p),
        "%sl = arith.muli %sx, %shb : index" % (p, p, p),
        "%sql = arith.addi %sq, %sl : index" % (p, p, p),
        "%sh = arith.addi %sql, %shc : index" % (p, p, p),
        "%sr = arith.remui %sh, %sprime : index" % (p, p, p),
        "%sri = arith.index_cast %sr : index to i32" % (p, p),
        "%srf = arith.sitofp %sri : i32 to f32" % (p, p),
        "%sscale = arith.constant %s : f32" % (p, f32(2.0 / PRIME)),
        "%sone = arith.constant 1.0 : f32" % p,
        "%sr2 = arith.mulf %srf, %sscale : f32" % (p, p, p),
        "%su = arith.subf %sr2, %sone : f32" % (p, p, p),
        "%sb = arith.constant %s : f32" % (p, f32(b)),
        "%sub = arith.mulf %su, %sb : f32" % (p, p, p),
        "%sa = arith.constant %s : f32" % (p, f32(a)),
        "%sf = arith.addf %sub, %sa : f32" % (p, p, p),
        "%sv = arith.mulf %sin, %sf : f32" % (p, p, p),
        "linalg.yield %sv : f32" % p]
    inner = indent + "  "
    return "\n".join(
        ["%s%sbase = arith.constant dense<%s> : tensor<%s>"
         % (indent, p, f32(base), shape),
         "%s%sempty = tensor.empty() : tensor<%s>" % (indent, p, shape),
         "%s%s = linalg.generic {indexing_maps = [affine_map<(%s) -> (%s)>, "
         "affine_map<(%s) -> (%s)>], iterator_types = [%s]} ins(%sbase : "
         "tensor<%s>) outs(%sempty : tensor<%s>) {"
         % (indent, name, ids, ids, ids, ids, iters, p, shape, p, shape),
         "%s^bb0(%sin: f32, %sout: f32):" % (indent, p, p)]
        + [inner + line for line in body]
        + ["%s} -> tensor<%s>" % (indent, shape)])


def main_function(in_shape, out_shape):
    dims = in_shape.split("x")
    rank = len(dims)
    ids = ", ".join("d%d" % k for k in range(rank))
    iters = ", ".join(['"parallel"'] * rank)
    out_rank = len(out_shape.split("x"))
    out_ids = ", ".join("d%d" % k for k in range(out_rank))
    out_iters = ", ".join(['"parallel"'] * out_rank)
    # x = (((sum_k (k + 2) i_k + 7 shift) mod 11) - 5) / 10
    acc = ["      %c7 = arith.constant 7 : index",
           "      %s0 = arith.muli %shift, %c7 : index"]
    for k in range(rank):
        acc += ["      %%i%d = linalg.index %d : index" % (k, k),
                "      %%k%d = arith.constant %d : index" % (k, k + 2),
                "      %%m%d = arith.muli %%i%d, %%k%d : index" % (k, k, k),
                "      %%s%d = arith.addi %%s%d, %%m%d : index" % (k + 1, k, k)]
    body = "\n".join(acc)
    return f"""
  func.func private @printMemrefF32(tensor<*xf32>)
  func.func private @printMemrefI32(tensor<*xi32>)
  // Runs @forward on the input of this shift and prints its output.
  func.func private @vary_weights_run(%shift: index) {{
    %e = tensor.empty() : tensor<{in_shape}xf32>
    %x = linalg.generic {{indexing_maps = [affine_map<({ids}) -> ({ids})>], iterator_types = [{iters}]}}
        outs(%e : tensor<{in_shape}xf32>) {{
    ^bb0(%o: f32):
{body}
      %c11 = arith.constant 11 : index
      %r = arith.remui %s{rank}, %c11 : index
      %ri = arith.index_cast %r : index to i32
      %rf = arith.sitofp %ri : i32 to f32
      %five = arith.constant 5.0 : f32
      %ten = arith.constant 10.0 : f32
      %c = arith.subf %rf, %five : f32
      %v = arith.divf %c, %ten : f32
      linalg.yield %v : f32
    }} -> tensor<{in_shape}xf32>
    %y = call @forward(%x) : (tensor<{in_shape}xf32>) -> tensor<{out_shape}xf32>
    %eb = tensor.empty() : tensor<{out_shape}xi32>
    %bits = linalg.generic {{indexing_maps = [affine_map<({out_ids}) -> ({out_ids})>, affine_map<({out_ids}) -> ({out_ids})>], iterator_types = [{out_iters}]}}
        ins(%y : tensor<{out_shape}xf32>) outs(%eb : tensor<{out_shape}xi32>) {{
    ^bb0(%in: f32, %o: i32):
      %b = arith.bitcast %in : f32 to i32
      linalg.yield %b : i32
    }} -> tensor<{out_shape}xi32>
    // An external call may write its operand: the bits are taken first.
    %u = tensor.cast %y : tensor<{out_shape}xf32> to tensor<*xf32>
    call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
    %ub = tensor.cast %bits : tensor<{out_shape}xi32> to tensor<*xi32>
    call @printMemrefI32(%ub) : (tensor<*xi32>) -> ()
    return
  }}
  // Two calls: the second reads what the first one's init hoisted (speed), and an
  // output that does not change with the input shows a dead network.
  func.func @main() {{
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    call @vary_weights_run(%c0) : (index) -> ()
    call @vary_weights_run(%c1) : (index) -> ()
    return
  }}
"""


def main(argv):
    if len(argv) not in (3, 4) or (len(argv) == 4 and argv[3] != "--main"):
        print(__doc__, file=sys.stderr)
        return 2
    lines = open(argv[1]).read().split("\n")
    count = 0
    for n, line in enumerate(lines):
        m = WEIGHT.match(line)
        if not m:
            continue
        dims = [int(d) for d in m.group("shape").split("x")]
        splat = m.group("splat")
        lines[n] = generic(m.group("indent"), m.group("name"), count, dims,
                           None if splat is None else float(splat))
        count += 1
    text = "\n".join(lines)
    if count == 0:
        print("%s: no splat or elided f32 weight to vary" % argv[1],
              file=sys.stderr)
        return 2
    if len(argv) == 4:
        fwd = FORWARD.search(text)
        if not fwd:
            print("%s: no @forward(tensor<...xf32>) -> tensor<...xf32>"
                  % argv[1], file=sys.stderr)
            return 2
        end = text.rstrip().rfind("}")
        text = text[:end] + main_function(fwd.group(1), fwd.group(2)) + "}\n"
    open(argv[2], "w").write(text)
    print("varied %d weight tensors" % count, file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
