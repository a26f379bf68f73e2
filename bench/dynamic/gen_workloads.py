#!/usr/bin/env python3
"""Writes dynamic-shape workloads in linalg on tensors (the dialects torch-mlir
emits: linalg.generic/matmul/batch_matmul/fill/conv/pooling, tensor.empty/
expand_shape/collapse_shape, arith, math).

  bert: a BERT-like encoder stack, input tensor<?xHxf32> (? = sequence length):
        per layer Q/K/V projections, 2-head attention (expand_shape, transposes,
        batch_matmul, softmax as max/exp/sum/div), output projection, residual,
        layernorm (mean/var/sqrt), FFN with 4H hidden and relu, residual,
        layernorm.
  cnn:  a small CNN, input tensor<?x3x32x32xf32> (? = batch): three conv_2d_nchw_fchw
        + bias + relu, two pooling_nchw_max 2x2, flatten (collapse_shape), dense.

Weights are dense constants with small dyadic values (exact in f32), inputs
are computed from their indices by a linalg.generic, so every run computes the
same thing. `main` runs the model at each size given, in order, and prints per
size a checksum (a weighted sum of the output, printed as f32 and as its bits,
i32) so planned and unplanned runs can be compared with diff.

Usage: gen_workloads.py {bert,cnn} --sizes 7,33,64 [--layers 2] [--hidden 64]
Python standard library only.
"""
import argparse
import sys

F = "f32"


def fmt(v):
    s = repr(float(v))
    return s


def dense(shape, salt):
    """A dense constant with values in {-4..4}/32 from the flat index."""
    n = 1
    for d in shape:
        n *= d
    vals = [((i * 37 + salt * 11) % 9 - 4) / 32.0 for i in range(n)]
    t = "x".join(map(str, shape))
    # Nested brackets are not needed: a flat list is accepted for any shape
    # only when splat; write them nested.
    def nest(off, dims):
        if len(dims) == 1:
            return "[" + ", ".join(fmt(v) for v in vals[off:off + dims[0]]) + "]"
        step = 1
        for d in dims[1:]:
            step *= d
        return "[" + ", ".join(nest(off + k * step, dims[1:]) for k in range(dims[0])) + "]"
    return f"arith.constant dense<{nest(0, list(shape))}> : tensor<{t}x{F}>"


class W:
    def __init__(self):
        self.lines = []
        self.n = 0

    def v(self, hint="v"):
        self.n += 1
        return f"%{hint}{self.n}"

    def emit(self, s):
        self.lines.append("  " + s)


def ty(shape):
    return "tensor<" + "x".join("?" if d is None else str(d) for d in shape) + f"x{F}>"


def empty(w, shape, dyn):
    r = w.v("e")
    w.emit(f"{r} = tensor.empty({', '.join(dyn)}) : {ty(shape)}")
    return r


def filled(w, shape, dyn, value):
    e = empty(w, shape, dyn)
    r = w.v("z")
    w.emit(f"{r} = linalg.fill ins({value} : {F}) outs({e} : {ty(shape)}) -> {ty(shape)}")
    return r


def amap(dims, res):
    return "affine_map<(" + ", ".join(dims) + ") -> (" + ", ".join(res) + ")>"


def generic(w, ins, out, out_shape, dims, in_maps, out_map, iters, body, yield_of):
    """ins: list of (value, shape); body: lines using %a0.. (inputs) and %o
    (output); yield_of: the value yielded."""
    r = w.v("g")
    maps = ", ".join([amap(dims, m) for m in in_maps] + [amap(dims, out_map)])
    it = ", ".join(f'"{i}"' for i in iters)
    ins_s = ", ".join(v for v, _ in ins)
    ins_t = ", ".join(ty(s) for _, s in ins)
    args = ", ".join(f"%a{k}: {F}" for k in range(len(ins))) + (", " if ins else "") + f"%o: {F}"
    head = f"{r} = linalg.generic {{indexing_maps = [{maps}], iterator_types = [{it}]}}"
    if ins:
        head += f" ins({ins_s} : {ins_t})"
    head += f" outs({out} : {ty(out_shape)}) {{"
    w.emit(head)
    w.emit(f"^bb0({args}):")
    for b in body:
        w.emit("  " + b)
    w.emit(f"  linalg.yield {yield_of} : {F}")
    w.emit(f"}} -> {ty(out_shape)}")
    return r


def const(w, value, typ=F):
    r = w.v("c")
    w.emit(f"{r} = arith.constant {value} : {typ}")
    return r


def matmul(w, a, ashape, b, bshape, dyn, zero):
    shape = [ashape[0], bshape[1]]
    init = filled(w, shape, dyn, zero)
    r = w.v("mm")
    w.emit(f"{r} = linalg.matmul ins({a}, {b} : {ty(ashape)}, {ty(bshape)}) "
           f"outs({init} : {ty(shape)}) -> {ty(shape)}")
    return r


def weight(w, shape, salt):
    r = w.v("w")
    w.emit(f"{r} = {dense(shape, salt)}")
    return r


def layernorm(w, x, H, s, zero):
    """y = (x - mean) / sqrt(var + eps) over the last dim of ?xH."""
    S = [None, H]
    invh = const(w, fmt(1.0 / H))
    eps = const(w, "9.765625e-04")
    m0 = filled(w, [None], [s], zero)
    mean = generic(w, [(x, S)], m0, [None], ["i", "j"], [["i", "j"]], ["i"],
                   ["parallel", "reduction"],
                   [f"%t = arith.mulf %a0, {invh} : {F}", f"%u = arith.addf %o, %t : {F}"], "%u")
    v0 = filled(w, [None], [s], zero)
    var = generic(w, [(x, S), (mean, [None])], v0, [None], ["i", "j"], [["i", "j"], ["i"]], ["i"],
                  ["parallel", "reduction"],
                  [f"%d = arith.subf %a0, %a1 : {F}", f"%q = arith.mulf %d, %d : {F}",
                   f"%t = arith.mulf %q, {invh} : {F}", f"%u = arith.addf %o, %t : {F}"], "%u")
    e = empty(w, S, [s])
    return generic(w, [(x, S), (mean, [None]), (var, [None])], e, S, ["i", "j"],
                   [["i", "j"], ["i"], ["i"]], ["i", "j"], ["parallel", "parallel"],
                   [f"%d = arith.subf %a0, %a1 : {F}", f"%ve = arith.addf %a2, {eps} : {F}",
                    f"%sd = math.sqrt %ve : {F}", f"%y = arith.divf %d, %sd : {F}"], "%y")


def add(w, a, b, shape, dyn):
    e = empty(w, shape, dyn)
    ds = [f"d{k}" for k in range(len(shape))]
    return generic(w, [(a, shape), (b, shape)], e, shape, ds, [ds, ds], ds,
                   ["parallel"] * len(shape), [f"%y = arith.addf %a0, %a1 : {F}"], "%y")


def bert_model(layers, H):
    heads, D, FF = 2, H // 2, 4 * H
    w = W()
    S = [None, H]
    w.emit("%i0 = arith.constant 0 : index")
    w.emit("%s = tensor.dim %x, %i0 : " + ty(S))
    zero = const(w, "0.0")
    ninf = const(w, "0xFF800000")
    scale = const(w, fmt(1.0 / 8))
    x = "%x"
    for l in range(layers):
        wq, wk, wv, wo = (weight(w, [H, H], 10 * l + k) for k in range(4))
        w1 = weight(w, [H, FF], 10 * l + 4)
        w2 = weight(w, [FF, H], 10 * l + 5)
        q = matmul(w, x, S, wq, [H, H], ["%s"], zero)
        k = matmul(w, x, S, wk, [H, H], ["%s"], zero)
        v = matmul(w, x, S, wv, [H, H], ["%s"], zero)
        heads_of = {}
        for name, val, order in (("q", q, "hsd"), ("k", k, "hds"), ("v", v, "hsd")):
            r = w.v("x3")
            w.emit(f"{r} = tensor.expand_shape {val} [[0], [1, 2]] output_shape [%s, {heads}, {D}] "
                   f": {ty(S)} into {ty([None, heads, D])}")
            if order == "hsd":
                shp = [heads, None, D]
                res = ["h", "s", "d"]
            else:
                shp = [heads, D, None]
                res = ["h", "d", "s"]
            e = empty(w, shp, ["%s"])
            heads_of[name] = (generic(w, [(r, [None, heads, D])], e, shp, ["s", "h", "d"],
                                      [["s", "h", "d"]], res, ["parallel"] * 3, [], "%a0"), shp)
        (qh, qs), (kt, ks), (vh, vs) = heads_of["q"], heads_of["k"], heads_of["v"]
        sc_shape = [heads, None, None]
        sc0 = filled(w, sc_shape, ["%s", "%s"], zero)
        sc = w.v("sc")
        w.emit(f"{sc} = linalg.batch_matmul ins({qh}, {kt} : {ty(qs)}, {ty(ks)}) "
               f"outs({sc0} : {ty(sc_shape)}) -> {ty(sc_shape)}")
        m0 = filled(w, [heads, None], ["%s"], ninf)
        mx = generic(w, [(sc, sc_shape)], m0, [heads, None], ["h", "i", "j"], [["h", "i", "j"]],
                     ["h", "i"], ["parallel", "parallel", "reduction"],
                     [f"%y = arith.maximumf %a0, %o : {F}"], "%y")
        e = empty(w, sc_shape, ["%s", "%s"])
        ex = generic(w, [(sc, sc_shape), (mx, [heads, None])], e, sc_shape, ["h", "i", "j"],
                     [["h", "i", "j"], ["h", "i"]], ["h", "i", "j"], ["parallel"] * 3,
                     [f"%d = arith.subf %a0, %a1 : {F}", f"%t = arith.mulf %d, {scale} : {F}",
                      f"%y = math.exp %t : {F}"], "%y")
        s0 = filled(w, [heads, None], ["%s"], zero)
        sm = generic(w, [(ex, sc_shape)], s0, [heads, None], ["h", "i", "j"], [["h", "i", "j"]],
                     ["h", "i"], ["parallel", "parallel", "reduction"],
                     [f"%y = arith.addf %a0, %o : {F}"], "%y")
        e = empty(w, sc_shape, ["%s", "%s"])
        p = generic(w, [(ex, sc_shape), (sm, [heads, None])], e, sc_shape, ["h", "i", "j"],
                    [["h", "i", "j"], ["h", "i"]], ["h", "i", "j"], ["parallel"] * 3,
                    [f"%y = arith.divf %a0, %a1 : {F}"], "%y")
        c0 = filled(w, [heads, None, D], ["%s"], zero)
        ctx = w.v("ctx")
        w.emit(f"{ctx} = linalg.batch_matmul ins({p}, {vh} : {ty(sc_shape)}, {ty(vs)}) "
               f"outs({c0} : {ty([heads, None, D])}) -> {ty([heads, None, D])}")
        e = empty(w, [None, heads, D], ["%s"])
        ct = generic(w, [(ctx, [heads, None, D])], e, [None, heads, D], ["s", "h", "d"],
                     [["h", "s", "d"]], ["s", "h", "d"], ["parallel"] * 3, [], "%a0")
        c2 = w.v("c2")
        w.emit(f"{c2} = tensor.collapse_shape {ct} [[0], [1, 2]] : {ty([None, heads, D])} into {ty(S)}")
        o = matmul(w, c2, S, wo, [H, H], ["%s"], zero)
        r1 = add(w, x, o, S, ["%s"])
        n1 = layernorm(w, r1, H, "%s", zero)
        h = matmul(w, n1, S, w1, [H, FF], ["%s"], zero)
        e = empty(w, [None, FF], ["%s"])
        hr = generic(w, [(h, [None, FF])], e, [None, FF], ["i", "j"], [["i", "j"]], ["i", "j"],
                     ["parallel"] * 2, [f"%y = arith.maximumf %a0, {zero} : {F}"], "%y")
        f = matmul(w, hr, [None, FF], w2, [FF, H], ["%s"], zero)
        r2 = add(w, n1, f, S, ["%s"])
        x = layernorm(w, r2, H, "%s", zero)
    w.emit(f"return {x} : {ty(S)}")
    return (f"func.func @model(%x: {ty(S)}) -> {ty(S)} {{\n" + "\n".join(w.lines) + "\n}\n", S)


def cnn_model():
    w = W()
    w.emit("%i0 = arith.constant 0 : index")
    w.emit("%n = tensor.dim %x, %i0 : " + ty([None, 3, 32, 32]))
    zero = const(w, "0.0")
    ninf = const(w, "0xFF800000")
    x, shape = "%x", [None, 3, 32, 32]

    def conv(x, shape, cout, salt):
        cin, hh, ww = shape[1], shape[2], shape[3]
        f = weight(w, [cout, cin, 3, 3], salt)
        b = weight(w, [cout], salt + 1)
        out = [None, cout, hh - 2, ww - 2]
        init = filled(w, out, ["%n"], zero)
        r = w.v("conv")
        w.emit(f"{r} = linalg.conv_2d_nchw_fchw {{dilations = dense<1> : tensor<2xi64>, "
               f"strides = dense<1> : tensor<2xi64>}} ins({x}, {f} : {ty(shape)}, "
               f"{ty([cout, cin, 3, 3])}) outs({init} : {ty(out)}) -> {ty(out)}")
        e = empty(w, out, ["%n"])
        y = generic(w, [(r, out), (b, [cout])], e, out, ["n", "c", "h", "w"],
                    [["n", "c", "h", "w"], ["c"]], ["n", "c", "h", "w"], ["parallel"] * 4,
                    [f"%t = arith.addf %a0, %a1 : {F}", f"%y = arith.maximumf %t, {zero} : {F}"], "%y")
        return y, out

    def pool(x, shape):
        out = [None, shape[1], shape[2] // 2, shape[3] // 2]
        win = w.v("win")
        w.emit(f"{win} = tensor.empty() : {ty([2, 2])}")
        init = filled(w, out, ["%n"], ninf)
        r = w.v("pool")
        w.emit(f"{r} = linalg.pooling_nchw_max {{dilations = dense<1> : tensor<2xi64>, "
               f"strides = dense<2> : tensor<2xi64>}} ins({x}, {win} : {ty(shape)}, {ty([2, 2])}) "
               f"outs({init} : {ty(out)}) -> {ty(out)}")
        return r, out

    x, shape = conv(x, shape, 8, 1)       # ?x8x30x30
    x, shape = pool(x, shape)             # ?x8x15x15
    x, shape = conv(x, shape, 16, 3)      # ?x16x13x13
    x, shape = pool(x, shape)             # ?x16x6x6
    x, shape = conv(x, shape, 16, 5)      # ?x16x4x4
    flat = [None, shape[1] * shape[2] * shape[3]]
    fl = w.v("flat")
    w.emit(f"{fl} = tensor.collapse_shape {x} [[0], [1, 2, 3]] : {ty(shape)} into {ty(flat)}")
    wd = weight(w, [flat[1], 10], 7)
    bd = weight(w, [10], 8)
    y = matmul(w, fl, flat, wd, [flat[1], 10], ["%n"], zero)
    e = empty(w, [None, 10], ["%n"])
    out = generic(w, [(y, [None, 10]), (bd, [10])], e, [None, 10], ["i", "j"],
                  [["i", "j"], ["j"]], ["i", "j"], ["parallel"] * 2,
                  [f"%y = arith.addf %a0, %a1 : {F}"], "%y")
    w.emit(f"return {out} : {ty([None, 10])}")
    return (f"func.func @model(%x: {ty([None, 3, 32, 32])}) -> {ty([None, 10])} {{\n"
            + "\n".join(w.lines) + "\n}\n", [None, 10])


def main_func(in_shape, out_shape, sizes):
    """main: for each size, the input from its indices, the model, a checksum."""
    rank = len(in_shape)
    ds = [f"d{k}" for k in range(rank)]
    idm = amap(ds, ds)
    lines = ["func.func @main() {"]
    for n, size in enumerate(sizes):
        p = f"%r{n}_"
        lines.append(f"  {p}n = arith.constant {size} : index")
        lines.append(f"  {p}e = tensor.empty({p}n) : {ty(in_shape)}")
        # x[i...] = ((sum_k i_k * prime_k) mod 11 - 5) / 8
        idx = [f"    {p}i{k} = linalg.index {k} : index" for k in range(rank)]
        primes = [7, 3, 5, 2][:rank]
        body = idx[:]
        acc = None
        for k in range(rank):
            body.append(f"    {p}m{k} = arith.muli {p}i{k}, {p}p{k} : index")
            if acc is None:
                acc = f"{p}m{k}"
            else:
                body.append(f"    {p}s{k} = arith.addi {acc}, {p}m{k} : index")
                acc = f"{p}s{k}"
        body += [f"    {p}md = arith.remui {acc}, {p}c11 : index",
                 f"    {p}mi = arith.index_cast {p}md : index to i32",
                 f"    {p}mf = arith.sitofp {p}mi : i32 to {F}",
                 f"    {p}sub = arith.subf {p}mf, {p}f5 : {F}",
                 f"    {p}val = arith.mulf {p}sub, {p}f8 : {F}",
                 f"    linalg.yield {p}val : {F}"]
        for k in range(rank):
            lines.append(f"  {p}p{k} = arith.constant {primes[k]} : index")
        lines += [f"  {p}c11 = arith.constant 11 : index",
                  f"  {p}f5 = arith.constant 5.0 : {F}",
                  f"  {p}f8 = arith.constant 0.125 : {F}",
                  f"  {p}x = linalg.generic {{indexing_maps = [{idm}], iterator_types = ["
                  + ", ".join(['"parallel"'] * rank) + "]}"
                  + f" outs({p}e : {ty(in_shape)}) {{",
                  f"  ^bb0({p}o: {F}):"] + body + [f"  }} -> {ty(in_shape)}"]
        lines.append(f"  {p}y = call @model({p}x) : ({ty(in_shape)}) -> {ty(out_shape)}")
        # checksum = sum over (i, j) of y[i, j] * ((3i + j) mod 7 - 3)
        od = [f"d{k}" for k in range(len(out_shape))]
        lines += [f"  {p}zero = arith.constant 0.0 : {F}",
                  f"  {p}c7 = arith.constant 7 : index",
                  f"  {p}c3 = arith.constant 3 : index",
                  f"  {p}f3 = arith.constant 3.0 : {F}",
                  f"  {p}ce = tensor.empty() : tensor<{F}>",
                  f"  {p}cz = linalg.fill ins({p}zero : {F}) outs({p}ce : tensor<{F}>) -> tensor<{F}>",
                  f"  {p}cs = linalg.generic {{indexing_maps = [{amap(od, od)}, {amap(od, [])}], "
                  "iterator_types = [\"reduction\", \"reduction\"]}"
                  f" ins({p}y : {ty(out_shape)}) outs({p}cz : tensor<{F}>) {{",
                  f"  ^bb0({p}a: {F}, {p}acc: {F}):",
                  f"    {p}j0 = linalg.index 0 : index",
                  f"    {p}j1 = linalg.index 1 : index",
                  f"    {p}t0 = arith.muli {p}j0, {p}c3 : index",
                  f"    {p}t1 = arith.addi {p}t0, {p}j1 : index",
                  f"    {p}t2 = arith.remui {p}t1, {p}c7 : index",
                  f"    {p}t3 = arith.index_cast {p}t2 : index to i32",
                  f"    {p}t4 = arith.sitofp {p}t3 : i32 to {F}",
                  f"    {p}t5 = arith.subf {p}t4, {p}f3 : {F}",
                  f"    {p}t6 = arith.mulf {p}a, {p}t5 : {F}",
                  f"    {p}t7 = arith.addf {p}acc, {p}t6 : {F}",
                  f"    linalg.yield {p}t7 : {F}",
                  f"  }} -> tensor<{F}>",
                  f"  {p}v = tensor.extract {p}cs[] : tensor<{F}>",
                  f"  {p}bits = arith.bitcast {p}v : {F} to i32",
                  f"  vector.print {p}n : index",
                  f"  vector.print {p}v : {F}",
                  f"  vector.print {p}bits : i32"]
    lines += ["  return", "}"]
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("model", choices=["bert", "cnn"])
    ap.add_argument("--sizes", default="7,33,64",
                    help="comma-separated sequence lengths (bert) or batches (cnn)")
    ap.add_argument("--layers", type=int, default=2, help="bert: encoder layers")
    ap.add_argument("--hidden", type=int, default=64, help="bert: hidden size (even)")
    ap.add_argument("-o", "--output", help="write here instead of stdout")
    a = ap.parse_args()
    sizes = [int(s) for s in a.sizes.split(",") if s]
    if a.model == "bert":
        text, out_shape = bert_model(a.layers, a.hidden)
        in_shape = [None, a.hidden]
    else:
        text, out_shape = cnn_model()
        in_shape = [None, 3, 32, 32]
    hdr = (f"// Generated by bench/dynamic/gen_workloads.py {a.model} --sizes {a.sizes}"
           + (f" --layers {a.layers} --hidden {a.hidden}" if a.model == "bert" else "") + "\n")
    out = hdr + text + main_func(in_shape, out_shape, sizes)
    if a.output:
        with open(a.output, "w") as f:
            f.write(out)
    else:
        sys.stdout.write(out)


if __name__ == "__main__":
    main()
