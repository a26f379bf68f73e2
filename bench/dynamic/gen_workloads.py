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
  decoder: a GPT-style decoder (pre-LN; per layer causal 2-head attention and
        a relu MLP of 4 d; token + position embedding; logits over a small
        vocabulary) with a KV cache of fixed capacity in mutable memref.globals
        (@k0, @v0, ...). Two entry points: @prefill(tokens: tensor<?xi32>)
        writes cache rows 0..S-1 (memref.subview +
        bufferization.materialize_in_destination) and returns ?xV logits;
        @decode(token: i32, pos: index) writes row pos, then attends over rows
        0..pos (memref.get_global + bufferization.to_tensor + extract_slice).
        Its `main` prints every output row as f32 bits (see decoder_main).

Weights are dense constants with small dyadic values (exact in f32), inputs
are computed from their indices by a linalg.generic, so every run computes the
same thing. `main` runs the model at each size given, in order, and prints per
size a checksum (a weighted sum of the output, printed as f32 and as its bits,
i32) so planned and unplanned runs can be compared with diff.

Usage: gen_workloads.py {bert,cnn} --sizes 7,33,64 [--layers 2] [--hidden 64]
       gen_workloads.py decoder [--prompt 7 --steps 4 --reps 1 --capacity 64 ...]
Python standard library only.
"""
import argparse
import sys

F = "f32"


def fmt(v):
    s = repr(float(v))
    return s


def prand_dense(shape, salt):
    """Like dense(), values in {-8..8}/64 from a multiplicative hash of the
    flat index (dense()'s values repeat every 9 elements, which makes rows of
    a narrow model equal)."""
    n = 1
    for d in shape:
        n *= d
    def h(i):  # murmur3's finalizer: neighbouring indices and salts look unrelated
        x = ((i + 1) * 0x9E3779B1 ^ (salt + 1) * 0x85EBCA6B) & 0xFFFFFFFF
        x ^= x >> 13
        x = (x * 0xC2B2AE35) & 0xFFFFFFFF
        return x ^ (x >> 16)
    return dense(shape, salt, [(h(i) % 17 - 8) / 64.0 for i in range(n)])


def dense(shape, salt, vals=None):
    """A dense constant with values in {-4..4}/32 from the flat index."""
    n = 1
    for d in shape:
        n *= d
    if vals is None:
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


# The decoder. Its shapes hold ints (static sizes) and SSA names (sizes known
# at entry: the prompt length, the cache length pos + 1).
def st(shape):
    return [None if isinstance(d, str) else d for d in shape]


def dyn(shape):
    return [d for d in shape if isinstance(d, str)]


def dty(shape, elem=F):
    return "tensor<" + "x".join("?" if isinstance(d, str) else str(d) for d in shape) + f"x{elem}>"


def d_empty(w, shape):
    return empty(w, st(shape), dyn(shape))


def d_filled(w, shape, value):
    return filled(w, st(shape), dyn(shape), value)


def d_gen(w, ins, out, shape, dims, in_maps, out_map, iters, body, yield_of):
    return generic(w, [(v, st(s)) for v, s in ins], out, st(shape), dims, in_maps, out_map,
                   iters, body, yield_of)


def d_matmul(w, a, ashape, b, bshape, zero, op="matmul"):
    shape = ashape[:-1] + bshape[-1:]
    init = d_filled(w, shape, zero)
    r = w.v("mm")
    w.emit(f"{r} = linalg.{op} ins({a}, {b} : {dty(ashape)}, {dty(bshape)}) "
           f"outs({init} : {dty(shape)}) -> {dty(shape)}")
    return r, shape


def d_layernorm(w, x, shape, zero):
    """(x - mean) / sqrt(var + eps) over the last dim of RxH."""
    R, H = shape
    invh = const(w, fmt(1.0 / H))
    eps = const(w, "9.765625e-04")
    ij, red = ["i", "j"], ["parallel", "reduction"]
    mean = d_gen(w, [(x, shape)], d_filled(w, [R], zero), [R], ij, [ij], ["i"], red,
                 [f"%t = arith.mulf %a0, {invh} : {F}", f"%u = arith.addf %o, %t : {F}"], "%u")
    var = d_gen(w, [(x, shape), (mean, [R])], d_filled(w, [R], zero), [R], ij, [ij, ["i"]], ["i"],
                red, [f"%d = arith.subf %a0, %a1 : {F}", f"%q = arith.mulf %d, %d : {F}",
                      f"%t = arith.mulf %q, {invh} : {F}", f"%u = arith.addf %o, %t : {F}"], "%u")
    return d_gen(w, [(x, shape), (mean, [R]), (var, [R])], d_empty(w, shape), shape, ij,
                 [ij, ["i"], ["i"]], ij, ["parallel"] * 2,
                 [f"%d = arith.subf %a0, %a1 : {F}", f"%ve = arith.addf %a2, {eps} : {F}",
                  f"%sd = math.sqrt %ve : {F}", f"%y = arith.divf %d, %sd : {F}"], "%y")


def d_ewise(w, ins, shape, body, yield_of):
    ds = [f"d{k}" for k in range(len(shape))]
    return d_gen(w, [(v, shape) for v in ins], d_empty(w, shape), shape, ds, [ds] * len(ins), ds,
                 ["parallel"] * len(shape), body, yield_of)


def d_permute(w, x, shape, dims, out_dims):
    out = [shape[dims.index(k)] for k in out_dims]
    return d_gen(w, [(x, shape)], d_empty(w, out), out, dims, [dims], out_dims,
                 ["parallel"] * len(dims), [], "%a0"), out


def d_weight(w, shape, salt):
    r = w.v("w")
    w.emit(f"{r} = {prand_dense(shape, salt)}")
    return r


def d_expand(w, x, shape, heads, hd):
    """RxD -> RxheadsxHD."""
    out = [shape[0], heads, hd]
    r = w.v("x3")
    w.emit(f"{r} = tensor.expand_shape {x} [[0], [1, 2]] output_shape [{shape[0]}, {heads}, {hd}] "
           f": {dty(shape)} into {dty(out)}")
    return r, out


class Dec:
    def __init__(self, layers, d, heads, ff, vocab, cap, cache_args=False):
        assert d % heads == 0
        self.layers, self.d, self.heads, self.hd = layers, d, heads, d // heads
        self.ff, self.vocab, self.cap = ff, vocab, cap
        # cache_args: the cache is tensors passed in and returned (updated
        # with tensor.insert_slice) instead of mutable globals.
        self.cache_args = cache_args
        self.caches = [f"{n}{l}" for l in range(layers) for n in ("k", "v")]

    def cache_tensor(self):
        return dty([self.cap, self.d])

    def cache_type(self):
        return f"memref<{self.cap}x{self.d}x{F}>"

    def globals(self):
        if self.cache_args:
            return ""
        # Mutable: the cache persists between calls and is written in place.
        return "".join(f'memref.global "private" @{n}{l} : {self.cache_type()} = dense<0.0>\n'
                       for l in range(self.layers) for n in ("k", "v"))

    def embed(self, w, tok, R, p0):
        """x[i, j] = emb[tok[i] mod V, j] + ((37 (p0 + i) + 11 j) mod 13 - 6) / 32."""
        emb = d_weight(w, [self.vocab, self.d], 97)
        cv, c5, c3, c7 = (const(w, v, "index") for v in (self.vocab, 37, 11, 13))
        f3, f16 = const(w, "6.0"), const(w, "0.03125")
        shape = [R, self.d]
        e = d_empty(w, shape)
        r = w.v("emb")
        ij = ["i", "j"]
        w.emit(f"{r} = linalg.generic {{indexing_maps = [{amap(ij, ['i'])}, {amap(ij, ij)}], "
               f'iterator_types = ["parallel", "parallel"]}} ins({tok} : {dty([R], "i32")}) '
               f"outs({e} : {dty(shape)}) {{")
        for line in [f"^bb0(%a0: i32, %o: {F}):",
                     "  %ei = linalg.index 0 : index", "  %ej = linalg.index 1 : index",
                     "  %et = arith.index_cast %a0 : i32 to index",
                     f"  %etm = arith.remui %et, {cv} : index",
                     f"  %ev = tensor.extract {emb}[%etm, %ej] : {dty([self.vocab, self.d])}",
                     f"  %ep = arith.addi %ei, {p0} : index",
                     f"  %epf = arith.muli %ep, {c5} : index",
                     f"  %ejt = arith.muli %ej, {c3} : index",
                     "  %es = arith.addi %epf, %ejt : index",
                     f"  %em = arith.remui %es, {c7} : index",
                     "  %emi = arith.index_cast %em : index to i32",
                     f"  %emf = arith.sitofp %emi : i32 to {F}",
                     f"  %emc = arith.subf %emf, {f3} : {F}",
                     f"  %epe = arith.mulf %emc, {f16} : {F}",
                     f"  %ey = arith.addf %ev, %epe : {F}",
                     f"  linalg.yield %ey : {F}"]:
            w.emit(line)
        w.emit(f"}} -> {dty(shape)}")
        return r, shape

    def block(self, w, l, x, R, p0, L, zero, ninf):
        """Pre-LN: x += attn(ln(x)) with the K/V rows p0..p0+R-1 written to the
        cache first and rows 0..L-1 read back; x += mlp(ln(x))."""
        d, heads, hd = self.d, self.heads, self.hd
        S = [R, d]
        h = d_layernorm(w, x, S, zero)
        proj = {}
        for k, name in enumerate("qkvo"):
            proj[name] = d_weight(w, [d, d], 10 * l + k)
        q, _ = d_matmul(w, h, S, proj["q"], [d, d], zero)
        kv = {n: d_matmul(w, h, S, proj[n], [d, d], zero)[0] for n in "kv"}
        past = {}
        if self.cache_args:
            for n in "kv":
                t = w.v("kvn")
                w.emit(f"{t} = tensor.insert_slice {kv[n]} into {self.cur[n + str(l)]}"
                       f"[{p0}, 0] [{R}, {d}] [1, 1] : {dty(S)} into {self.cache_tensor()}")
                self.cur[n + str(l)] = t
                past[n] = w.v("kvs")
                w.emit(f"{past[n]} = tensor.extract_slice {t}[0, 0] [{L}, {d}] [1, 1] : "
                       f"{self.cache_tensor()} to {dty([L, d])}")
        # Write the new rows in place, then read the cache (program order
        # matters: a schedule that reads before the write is wrong).
        for n in "kv" if not self.cache_args else "":
            g = w.v("kvg")
            w.emit(f"{g} = memref.get_global @{n}{l} : {self.cache_type()}")
            sv = w.v("kvw")
            rows = "?" if isinstance(R, str) else str(R)
            mt = f"memref<{rows}x{d}x{F}, strided<[{d}, 1], offset: ?>>"
            w.emit(f"{sv} = memref.subview {g}[{p0}, 0] [{R}, {d}] [1, 1] : "
                   f"{self.cache_type()} to {mt}")
            w.emit(f"bufferization.materialize_in_destination {kv[n]} in restrict writable {sv} "
                   f": ({dty(S)}, {mt}) -> ()")
        for n in "kv" if not self.cache_args else "":
            g = w.v("kvg")
            w.emit(f"{g} = memref.get_global @{n}{l} : {self.cache_type()}")
            t = w.v("kvt")
            full = [self.cap, d]
            w.emit(f"{t} = bufferization.to_tensor {g} restrict : {self.cache_type()} to {dty(full)}")
            sl = w.v("kvs")
            w.emit(f"{sl} = tensor.extract_slice {t}[0, 0] [{L}, {d}] [1, 1] : "
                   f"{dty(full)} to {dty([L, d])}")
            past[n] = sl
        qx, qxs = d_expand(w, q, S, heads, hd)
        qh, qhs = d_permute(w, qx, qxs, ["s", "h", "d"], ["h", "s", "d"])      # H x R x hd
        kx, kxs = d_expand(w, past["k"], [L, d], heads, hd)
        kt, kts = d_permute(w, kx, kxs, ["s", "h", "d"], ["h", "d", "s"])      # H x hd x L
        vx, vxs = d_expand(w, past["v"], [L, d], heads, hd)
        vh, vhs = d_permute(w, vx, vxs, ["s", "h", "d"], ["h", "s", "d"])      # H x L x hd
        sc, scs = d_matmul(w, qh, qhs, kt, kts, zero, "batch_matmul")         # H x R x L
        scale = const(w, fmt(1.0 / hd ** 0.5))
        hij = ["h", "i", "j"]
        # Causal: query i (position p0 + i) sees keys j <= p0 + i.
        masked = d_ewise(w, [sc], scs,
                         ["%mi = linalg.index 1 : index", "%mj = linalg.index 2 : index",
                          f"%ml = arith.addi %mi, {p0} : index",
                          "%mk = arith.cmpi ule, %mj, %ml : index",
                          f"%ms = arith.mulf %a0, {scale} : {F}",
                          f"%y = arith.select %mk, %ms, {ninf} : {F}"], "%y")
        hi = [heads, R]
        mx = d_gen(w, [(masked, scs)], d_filled(w, hi, ninf), hi, hij, [hij], ["h", "i"],
                   ["parallel", "parallel", "reduction"], [f"%y = arith.maximumf %a0, %o : {F}"],
                   "%y")
        ex = d_gen(w, [(masked, scs), (mx, hi)], d_empty(w, scs), scs, hij, [hij, ["h", "i"]], hij,
                   ["parallel"] * 3, [f"%d = arith.subf %a0, %a1 : {F}", f"%y = math.exp %d : {F}"],
                   "%y")
        sm = d_gen(w, [(ex, scs)], d_filled(w, hi, zero), hi, hij, [hij], ["h", "i"],
                   ["parallel", "parallel", "reduction"], [f"%y = arith.addf %a0, %o : {F}"], "%y")
        p = d_gen(w, [(ex, scs), (sm, hi)], d_empty(w, scs), scs, hij, [hij, ["h", "i"]], hij,
                  ["parallel"] * 3, [f"%y = arith.divf %a0, %a1 : {F}"], "%y")
        ctx, ctxs = d_matmul(w, p, scs, vh, vhs, zero, "batch_matmul")         # H x R x hd
        ct, cts = d_permute(w, ctx, ctxs, ["h", "s", "d"], ["s", "h", "d"])    # R x H x hd
        c2 = w.v("c2")
        w.emit(f"{c2} = tensor.collapse_shape {ct} [[0], [1, 2]] : {dty(cts)} into {dty(S)}")
        o, _ = d_matmul(w, c2, S, proj["o"], [d, d], zero)
        x = d_ewise(w, [x, o], S, [f"%y = arith.addf %a0, %a1 : {F}"], "%y")
        h2 = d_layernorm(w, x, S, zero)
        w1 = d_weight(w, [d, self.ff], 10 * l + 4)
        w2 = d_weight(w, [self.ff, d], 10 * l + 5)
        f1, f1s = d_matmul(w, h2, S, w1, [d, self.ff], zero)
        fr = d_ewise(w, [f1], f1s, [f"%y = arith.maximumf %a0, {zero} : {F}"], "%y")
        f2, _ = d_matmul(w, fr, f1s, w2, [self.ff, d], zero)
        return d_ewise(w, [x, f2], S, [f"%y = arith.addf %a0, %a1 : {F}"], "%y")

    def entry(self, kind, bound_pos=False, static_rows=None):
        """prefill(tokens: ?xi32) -> ?xV logits; writes cache rows 0..S-1.
        decode(token: i32, pos) -> 1xV logits; writes row pos, reads 0..pos.
        static_rows: prefill's S fixed in its types instead (a baseline)."""
        w = W()
        if kind == "prefill":
            w.emit("%i0 = arith.constant 0 : index")
            if static_rows:
                R = L = static_rows
            else:
                w.emit(f"%rows = tensor.dim %tokens, %i0 : {dty(['?'], 'i32')}")
                R = L = "%rows"
            p0, tok = "%i0", "%tokens"
            head = f"func.func @prefill(%tokens: {dty([R], 'i32')}) -> {dty([R, self.vocab])}"
        else:
            w.emit("%i1 = arith.constant 1 : index")
            w.emit("%kvlen = arith.addi %pos, %i1 : index")
            w.emit(f"%tok1 = tensor.from_elements %token : {dty([1], 'i32')}")
            R, p0, L, tok = 1, "%pos", "%kvlen", "%tok1"
            attr = f" {{memplan.max = {self.cap - 1} : i64}}" if bound_pos else ""
            head = (f"func.func @decode(%token: i32, %pos: index{attr}) -> "
                    f"{dty([1, self.vocab])}")
        ct = self.cache_tensor()
        self.cur = {c: f"%{c}c" for c in self.caches}
        if self.cache_args:
            head = head.replace(") -> ", "".join(f", %{c}c: {ct}" for c in self.caches)
                                + ") -> (", 1) + "".join(f", {ct}" for c in self.caches) + ")"
        zero = const(w, "0.0")
        ninf = const(w, "0xFF800000")
        x, S = self.embed(w, tok, R, p0)
        for l in range(self.layers):
            x = self.block(w, l, x, R, p0, L, zero, ninf)
        y = d_layernorm(w, x, S, zero)
        wout = d_weight(w, [self.d, self.vocab], 99)
        logits, ls = d_matmul(w, y, S, wout, [self.d, self.vocab], zero)
        if self.cache_args:
            w.emit(f"return {logits}, " + ", ".join(self.cur[c] for c in self.caches)
                   + f" : {dty(ls)}, " + ", ".join([ct] * len(self.caches)))
        else:
            w.emit(f"return {logits} : {dty(ls)}")
        return head + " {\n" + "\n".join(w.lines) + "\n}\n"


def decoder_main(dec, prompt, steps, reps, dump_cache, causal, static_prompt=False,
                 loop=False):
    """main: prefill(prompt) `reps` times, then `steps` decode calls at
    positions prompt.. (reps = 0: decode only, on the zero cache: the same
    sizes, the same work, other values), then optionally the cache rows
    written and, as a check of the model itself, prefill over all
    prompt + steps tokens, whose last rows must equal the decode outputs.

    Each call goes through @run_prefill / @run_decode, which time it
    (rtclock: "time NAME NS"), print every output row as the bits of its f32
    values ("prefill N" / "decode pos P", then one line per row) and return:
    so the output is freed after each call, as a generation loop would,
    instead of at the end of main (where the deallocation pipeline puts the
    frees of buffers a call returns)."""
    V = dec.vocab
    lt, tt = dty(["?", V]), dty(["?"], "i32")
    R = prompt if static_prompt else "?"
    n = [0]

    def v(h):
        n[0] += 1
        return f"%{h}{n[0]}"

    def consts():
        return ["  %c0 = arith.constant 0 : index", "  %c1 = arith.constant 1 : index"]

    def timed(L, name, call, res, rtype):
        t0, t1, dt, s, ns = v("t"), v("t"), v("dt"), v("dt"), v("ns")
        L.extend([f"  {t0} = func.call @rtclock() : () -> f64",
                  f"  {res} = {call} -> {rtype}",
                  f"  {t1} = func.call @rtclock() : () -> f64",
                  f"  {dt} = arith.subf {t1}, {t0} : f64",
                  f"  {s} = arith.mulf {dt}, %ns : f64",
                  f"  {ns} = arith.fptosi {s} : f64 to i64",
                  f'  vector.print str "time {name} "',
                  f"  vector.print {ns} : i64"])

    def rows(L, t, ttype, nrows, width=V):
        """Prints rows 0..nrows-1 of t (a tensor or a memref), one line each:
        the bits of its f32 values as i32 (scalar prints: the lowering in
        bench.py has no vector-to-scf for vector prints)."""
        i, j, x, b, cw = v("i"), v("j"), v("x"), v("bits"), v("w")
        read = "memref.load" if ttype.startswith("memref") else "tensor.extract"
        L.extend([f"  {cw} = arith.constant {width} : index",
                  f"  scf.for {i} = %c0 to {nrows} step %c1 {{",
                  f"    scf.for {j} = %c0 to {cw} step %c1 {{",
                  f"      {x} = {read} {t}[{i}, {j}] : {ttype}",
                  f"      {b} = arith.bitcast {x} : {F} to i32",
                  f"      vector.print {b} : i32 punctuation <no_punctuation>",
                  "      vector.print punctuation <comma>", "    }",
                  "    vector.print punctuation <newline>", "  }"])

    out = ["func.func private @rtclock() -> f64"]
    # @run_prefill(tokens): "prefill S", the rows of the logits.
    # With the cache in arguments, the helpers pass it in and return it.
    ct, nc = dec.cache_tensor(), len(dec.caches) if dec.cache_args else 0
    cparams = "".join(f", %{c}c: {ct}" for c in dec.caches[:nc])
    cargs = "".join(f", %{c}c" for c in dec.caches[:nc])
    ctypes = f", {ct}" * nc
    cret = (" -> (" + ", ".join([ct] * nc) + ")") if nc else ""
    nres = f":{nc + 1}" if nc else ""

    def ret(r):
        if not nc:
            return ["  return"]
        return ["  return " + ", ".join(f"{r}#{k + 1}" for k in range(nc)) + " : "
                + ", ".join([ct] * nc)]

    L = [f"func.func private @run_prefill(%tk: {tt}{cparams}){cret} {{", *consts(),
         "  %ns = arith.constant 1.0e9 : f64", f"  %n = tensor.dim %tk, %c0 : {tt}"]
    if static_prompt:
        L.append(f"  %tks = tensor.cast %tk : {tt} to {dty([R], 'i32')}")
    timed(L, "prefill", f"func.call @prefill(%tk{'s' if static_prompt else ''}{cargs}) : "
          f"({dty([R], 'i32')}{ctypes})", f"%y{nres}", f"({dty([R, V])}{ctypes})" if nc else dty([R, V]))
    L += ['  vector.print str "prefill "', "  vector.print %n : index"]
    rows(L, "%y" + ("#0" if nc else ""), dty([R, V]), "%n")
    out += L + ret("%y") + ["}"]
    # @run_decode(token, pos): "decode pos P", the row of the logits.
    L = [f"func.func private @run_decode(%tok: i32, %pos: index{cparams}){cret} {{", *consts(),
         "  %ns = arith.constant 1.0e9 : f64"]
    timed(L, "decode", f"func.call @decode(%tok, %pos{cargs}) : (i32, index{ctypes})",
          f"%z{nres}", f"({dty([1, V])}{ctypes})" if nc else dty([1, V]))
    L += ['  vector.print str "decode pos "', "  vector.print %pos : index"]
    rows(L, "%z" + ("#0" if nc else ""), dty([1, V]), "%c1")
    out += L + ret("%z") + ["}"]

    L = ["func.func @main() {", *consts(), f"  %cv = arith.constant {V} : index",
         "  %c13 = arith.constant 13 : index", "  %c5 = arith.constant 5 : index"]

    def tokens(count):
        """tensor<count x i32>, token i = (13 i + 5) mod V (dynamic type)."""
        nn, e, g = v("n"), v("e"), v("tok")
        L.extend([f"  {nn} = arith.constant {count} : index",
                  f"  {e} = tensor.empty({nn}) : {tt}",
                  f"  {g} = linalg.generic {{indexing_maps = [affine_map<(i) -> (i)>], "
                  f'iterator_types = ["parallel"]}} outs({e} : {tt}) {{',
                  "  ^bb0(%o: i32):", "    %ti = linalg.index 0 : index",
                  "    %tm = arith.muli %ti, %c13 : index", "    %ta = arith.addi %tm, %c5 : index",
                  "    %tr = arith.remui %ta, %cv : index",
                  "    %tc = arith.index_cast %tr : index to i32", "    linalg.yield %tc : i32",
                  f"  }} -> {tt}"])
        return g

    cur = []
    if nc:
        L.append(f"  %f0 = arith.constant 0.0 : {F}")
        for c in dec.caches:
            e, z = v("ce"), v("cz")
            L += [f"  {e} = tensor.empty() : {ct}",
                  f"  {z} = linalg.fill ins(%f0 : {F}) outs({e} : {ct}) -> {ct}"]
            cur.append(z)

    def call(fn, args, types):
        """Calls a helper; the cache it returns replaces the current one."""
        res = v("cs")
        cl = "".join(f", {c}" for c in cur)
        L.append(f"  {res}{':' + str(nc) if nc > 1 else ''} = " if nc else "  ")
        L[-1] += f"func.call @{fn}({args}{cl}) : ({types}{ctypes}) -> {cret[4:] or '()'}"
        cur[:] = [f"{res}#{k}" if nc > 1 else res for k in range(nc)]

    if prompt and reps:
        tk = tokens(prompt)
        for r in range(reps):
            call("run_prefill", tk, tt)
    if loop and steps:
        # One scf.for over the positions, as a generation loop is written;
        # the cache (in args) is carried through iter_args.
        lo, hi, it, r = v("lo"), v("hi"), v("p"), v("lr")
        L += [f"  {lo} = arith.constant {prompt} : index",
              f"  {hi} = arith.constant {prompt + steps} : index"]
        iters = [v("it") for _ in range(nc)]
        head = f"  scf.for {it} = {lo} to {hi} step %c1"
        if nc:
            head = (f"  {r}:{nc} = " + head.lstrip() + " iter_args("
                    + ", ".join(f"{x} = {c}" for x, c in zip(iters, cur)) + ") -> ("
                    + ", ".join([ct] * nc) + ")")
        L.append(head + " {")
        cur[:] = iters
        tm, ta, tr, tok = v("t"), v("t"), v("t"), v("tk")
        L += [f"  {tm} = arith.muli {it}, %c13 : index", f"  {ta} = arith.addi {tm}, %c5 : index",
              f"  {tr} = arith.remui {ta}, %cv : index",
              f"  {tok} = arith.index_cast {tr} : index to i32"]
        call("run_decode", f"{tok}, {it}", "i32, index")
        if nc:
            L.append("  scf.yield " + ", ".join(cur) + " : " + ", ".join([ct] * nc))
        L.append("  }")
        cur[:] = [f"{r}#{k}" for k in range(nc)]
    for t in range(0 if loop else steps):
        pos = prompt + t
        tok, p = v("tk"), v("pos")
        L.extend([f"  {tok} = arith.constant {(13 * pos + 5) % V} : i32",
                  f"  {p} = arith.constant {pos} : index"])
        call("run_decode", f"{tok}, {p}", "i32, index")
    if dump_cache:
        cu = v("used")
        L.append(f"  {cu} = arith.constant {prompt + steps} : index")
        for k, c in enumerate(dec.caches):
            L.append(f'  vector.print str "cache {c}\\n"')
            if nc:
                rows(L, cur[k], ct, cu, width=dec.d)
            else:
                g = v("g")
                L.append(f"  {g} = memref.get_global @{c} : {dec.cache_type()}")
                rows(L, g, dec.cache_type(), cu, width=dec.d)
    if causal:
        tk = tokens(prompt + steps)
        call("run_prefill", tk, tt)
    out += L + ["  return", "}"]
    return "\n".join(out) + "\n"


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
    ap.add_argument("model", choices=["bert", "cnn", "decoder"])
    ap.add_argument("--sizes", default="7,33,64",
                    help="comma-separated sequence lengths (bert) or batches (cnn)")
    ap.add_argument("--layers", type=int, default=2, help="bert, decoder: layers")
    ap.add_argument("--hidden", type=int, help="bert: hidden size (even, default 64); "
                    "decoder: model dim (default 32)")
    ap.add_argument("--heads", type=int, default=2, help="decoder: attention heads")
    ap.add_argument("--vocab", type=int, default=64, help="decoder: vocabulary")
    ap.add_argument("--capacity", type=int, default=64, help="decoder: KV cache positions")
    ap.add_argument("--prompt", type=int, default=7, help="decoder: prefill length S in main")
    ap.add_argument("--steps", type=int, default=4,
                    help="decoder: decode calls after prefill, at positions S, S+1, ...")
    ap.add_argument("--reps", type=int, default=1,
                    help="decoder: prefill calls (same prompt; 0: decode only, on the zero cache)")
    ap.add_argument("--dump-cache", action="store_true",
                    help="decoder: print the cache rows written, at the end")
    ap.add_argument("--causal-check", action="store_true",
                    help="decoder: at the end, prefill over all prompt + steps tokens")
    ap.add_argument("--static-prompt", action="store_true",
                    help="decoder: prefill's S fixed in its types (a baseline for the dynamic one)")
    ap.add_argument("--cache-in", choices=["globals", "args"], default="globals",
                    help="decoder: the KV cache in mutable memref.globals, or tensors passed "
                    "in and returned by prefill and decode (tensor.insert_slice)")
    ap.add_argument("--loop", action="store_true",
                    help="decoder: the decode steps in one scf.for in main (not unrolled)")
    ap.add_argument("--bound-pos", action="store_true",
                    help="decoder: memplan.max = capacity - 1 on decode's pos")
    ap.add_argument("--shared-arena", action="store_true",
                    help="decoder: memplan.shared_arena = [@prefill, @decode] on the "
                         "module (one arena for both; docs/UserGuide.md)")
    ap.add_argument("-o", "--output", help="write here instead of stdout")
    a = ap.parse_args()
    sizes = [int(s) for s in a.sizes.split(",") if s]
    if a.model == "decoder":
        d = a.hidden or 32
        if a.prompt + a.steps > a.capacity:
            ap.error(f"prompt + steps = {a.prompt + a.steps} > capacity {a.capacity}")
        if a.static_prompt and a.causal_check:
            ap.error("--static-prompt: prefill takes only S tokens, no causal check")
        dec = Dec(a.layers, d, a.heads, 4 * d, a.vocab, a.capacity, a.cache_in == "args")
        hdr = (f"// Generated by bench/dynamic/gen_workloads.py decoder --layers {a.layers} "
               f"--hidden {d} --heads {a.heads} --vocab {a.vocab} --capacity {a.capacity} "
               f"--prompt {a.prompt} --steps {a.steps} --reps {a.reps} --cache-in {a.cache_in}"
               + "".join(f" --{k}" for k in ("dump-cache", "causal-check", "bound-pos",
                                             "static-prompt", "loop", "shared-arena")
                         if getattr(a, k.replace("-", "_"))) + "\n")
        out = (hdr + dec.globals()
               + dec.entry("prefill", static_rows=a.prompt if a.static_prompt else None)
               + dec.entry("decode", a.bound_pos)
               + decoder_main(dec, a.prompt, a.steps, a.reps, a.dump_cache, a.causal_check,
                              a.static_prompt, a.loop))
        if a.shared_arena:
            # prefill and decode never run at once: one arena for both.
            body = out[len(hdr):]
            out = (hdr + "module attributes {memplan.shared_arena = [@prefill, @decode]} {\n"
                   + body + "}\n")
    else:
        hidden = a.hidden or 64
        if a.model == "bert":
            text, out_shape = bert_model(a.layers, hidden)
            in_shape = [None, hidden]
        else:
            text, out_shape = cnn_model()
            in_shape = [None, 3, 32, 32]
        hdr = (f"// Generated by bench/dynamic/gen_workloads.py {a.model} --sizes {a.sizes}"
               + (f" --layers {a.layers} --hidden {hidden}" if a.model == "bert" else "") + "\n")
        out = hdr + text + main_func(in_shape, out_shape, sizes)
    if a.output:
        with open(a.output, "w") as f:
            f.write(out)
    else:
        sys.stdout.write(out)


if __name__ == "__main__":
    main()
