#!/usr/bin/env python3
"""Makes a torch-mlir network with elided weights runnable, deterministically.

Usage: replace_elided_weights.py IN.mlir OUT.mlir [--main]

Every `dense_resource<__elided__> : tensor<SHAPE x f32>` becomes a splat
`dense<V>` whose value depends only on the tensor's shape and on its position
in the file, scaled by the fan-in so activations stay in range through the
network. With --main, a `@main` is appended that builds a deterministic input
for `@forward`, calls it and prints the result with printMemrefF32.
"""
import re
import sys

ELIDED = re.compile(r"dense_resource<__elided__>\s*:\s*tensor<([0-9x]+)xf32>")
FORWARD = re.compile(
    r"func\.func @forward\(%arg0: tensor<([0-9x]+)xf32>\) -> tensor<([0-9x]+)xf32>")


def splat(index, shape):
    dims = [int(d) for d in shape.split("x")]
    c = 0.5 + (index * 37 % 11) / 10.0  # in [0.5, 1.5]
    if len(dims) >= 2:
        fan_in = 1
        for d in dims[1:]:
            fan_in *= d
        value = c / fan_in
    elif len(dims) == 1:
        value = 0.01 * ((index % 5) - 2)
    else:
        value = 1.0
    return f"dense<{value:.9e}> : tensor<{shape}xf32>"


def main_function(in_shape, out_shape):
    dims = in_shape.split("x")
    rank = len(dims)
    idx = ", ".join(f"d{i}" for i in range(rank))
    par = ", ".join(['"parallel"'] * rank)
    terms = "\n".join(
        f"      %i{i} = linalg.index {i} : index" for i in range(rank))
    # value = ((sum_i (i + 2) * index_i) mod 11) / 10
    acc = ["      %s0 = arith.constant 0 : index"]
    for i in range(rank):
        acc.append(f"      %k{i} = arith.constant {i + 2} : index")
        acc.append(f"      %m{i} = arith.muli %i{i}, %k{i} : index")
        acc.append(f"      %s{i + 1} = arith.addi %s{i}, %m{i} : index")
    body = "\n".join(acc)
    return f"""
  func.func private @printMemrefF32(tensor<*xf32>)
  func.func @main() {{
    %e = tensor.empty() : tensor<{in_shape}xf32>
    %x = linalg.generic {{indexing_maps = [affine_map<({idx}) -> ({idx})>], iterator_types = [{par}]}}
        outs(%e : tensor<{in_shape}xf32>) {{
    ^bb0(%o: f32):
{terms}
{body}
      %c11 = arith.constant 11 : index
      %r = arith.remui %s{rank}, %c11 : index
      %ri = arith.index_cast %r : index to i32
      %rf = arith.sitofp %ri : i32 to f32
      %ten = arith.constant 10.0 : f32
      %v = arith.divf %rf, %ten : f32
      linalg.yield %v : f32
    }} -> tensor<{in_shape}xf32>
    %y = call @forward(%x) : (tensor<{in_shape}xf32>) -> tensor<{out_shape}xf32>
    %u = tensor.cast %y : tensor<{out_shape}xf32> to tensor<*xf32>
    call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
    return
  }}
"""


def main(argv):
    if len(argv) < 3 or (len(argv) == 4 and argv[3] != "--main") or len(argv) > 4:
        print(__doc__, file=sys.stderr)
        return 2
    text = open(argv[1]).read()
    count = [0]

    def repl(m):
        count[0] += 1
        return splat(count[0], m.group(1))

    text = ELIDED.sub(repl, text)
    if len(argv) == 4:
        fwd = FORWARD.search(text)
        if not fwd:
            print(f"{argv[1]}: no @forward(tensor<...xf32>) -> tensor<...xf32>",
                  file=sys.stderr)
            return 2
        end = text.rstrip().rfind("}")
        text = text[:end] + main_function(fwd.group(1), fwd.group(2)) + "}\n"
    open(argv[2], "w").write(text)
    print(f"replaced {count[0]} elided tensors", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
