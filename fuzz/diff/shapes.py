#!/usr/bin/env python3
"""Random tensor-level MLIR programs in the shapes of issue 21, for run.py's
`shapes` family: each runs unplanned (one-shot-bufferize) and through
`memplan-pipeline` (hoisting, memory-aware order, bufferization, in-place
planning, run-time planning), outputs compared.

  shapes.py --seed N [--features all,-broken] [--size K]

A program is a `main` calling one private function per scene (some twice),
printing one integer per result (`printI64`). Elements are i32 (wrapping
arithmetic: exact). Scenes (--features):

  global   a mutable `memref.global` read as `bufferization.to_tensor` of
           `memref.get_global`, written between reads by `memref.store`, a
           `func.call` to a private writer (store, loop, `linalg.fill`, copy),
           big temporaries in between (the order wants to sink the read)
  nospec   dynamic allocs of n*n elements under an `scf.if` not taken (also
           inside a loop that runs), an `scf.for` of zero trips, an `scf.while` that stops at once, an
           `scf.index_switch` case not chosen, or after an early exit
           (`cf.cond_br` to a return); n is a sentinel that makes n*n huge
           when the branch does not run (run-time planning must not
           speculate); always-run allocs of min(n, B) beside them
  bound    sizes bounded by `affine.min` / `arith.minui` (also an absurd
           bound, 2^40), in straight code and in a tiled loop
  promise  `memplan.max = M` on an index argument, or `dim-bounds=N` (the
           variant passes it) on dims of a tensor argument (also a static dim
           above N read by `tensor.dim`): kept promises
  broken   the last call of main breaks a promise (size above it): the
           planned program must stop with a message naming memplan and the
           bound (or not rely on the promise and print what unplanned prints)
  hoist    constant-derived tensors (a non-splat constant through
           linalg.generic) reaching `return` through `arith.select`,
           `tensor.reshape`, `tensor.cast`, `expand_shape`/`collapse_shape`,
           an `scf.if` yield, a callee writing into it in place;
           the caller writes into the result and calls again
  chain    independent elementwise chains joined late (the order and
           in-place reuse have work to do)
  wcarry   (three in ten programs) a dynamic tensor carried by an
           `scf.while` and used after it, the before region computing a new
           one or forwarding its argument, 0-3 trips: the deallocation
           frees its buffers through values the loop carries
  repeat   (three in ten programs) a function with dynamic temporaries
           called 3-6 times in an `scf.for`, one size and then perhaps
           another, or (half of them) two sizes taking turns: the runtime's
           learned plans replay its episodes, a plan per kind
  shared   (a third of the programs) two or three functions in the module's
           `memplan.shared_arena` (static-only, dynamic-only, mixed), called
           in alternation with growing and shrinking sizes, results read
           after later calls of the set; results are fresh, slices or
           reshapes of temporaries, or an scf.if's choice (gen_shared.py)
  cross    4-7 tensors of S x K, B x K, S x S or S x S x K elements (S, B index
           arguments) with random overlapping lifetimes, each hashed at every
           step it is live, called with S and B apart and equal: symbolic
           plans whose best stacking order changes with S and B (several
           orders, chosen at entry)
  cache    a KV cache: rows [0, n) of a mutable CAP x K global read through
           `extract_slice` of its `to_tensor`, written through a `memref.subview`
           (`materialize_in_destination`, sometimes into a second global)
           and read again, dynamic temporaries of n rows between (the order,
           over sample values of n, wants the reads late); called with
           growing and shrinking n, the globals kept across calls
  permute  a constant-derived 2-D tensor (a dense constant, through a
           generic or not, or one made from linalg.index) through a chain of
           1-3 permuting copies (linalg.transpose, linalg.copy, a generic
           reading or writing through a transposed map), each read by
           elementwise generics, `linalg.add` / `linalg.matmul` of it with
           itself (a named op with two uses), with the argument, or by
           `tensor.extract` (which keeps the copy): hoist-constants reads
           the copies through their maps (memory) or hoists them (speed)
  padcat   elementwise chains into `tensor.pad` (constant value defined
           before or after the chain) and `tensor.concat`, nested either
           way, an elementwise op in between or not, sometimes an input read
           again after its consumer (tensor-mem-write-into-consumers)
  late     (not a scene) a third of the elementwise generics of dynamic
           shape read their sizes off their input (`tensor.dim`) right
           before their `tensor.empty {fz.late}`: an order that moves the
           generic up moves those definitions first; from a stream of its
           own, so a program without it is the text it was

Compute ops carry `fz.n = K` (text order) and writes of globals `fz.w`,
reads of them `fz.r`: run.py counts from the planned IR the ops the order
moved. The second line of the program is `// fuzz-meta: {json}` with what
the variant must know (dim-bounds, the broken promise's bound).
"""
import argparse
import json
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen  # noqa: E402 (the shared feature-list parser)
from gen_shared import SharedMixin  # noqa: E402

FEATURES = ["global", "nospec", "bound", "promise", "broken", "hoist", "chain",
            "padcat", "shared", "cross", "cache", "permute", "late", "wcarry", "repeat"]
NOSPEC_KINDS = ["if", "for", "while", "switch", "exit", "ifinfor"]
HUGE = 1 << 21          # n*n*4 bytes = 16 TiB: no allocator gives that
ID = "affine_map<(d0) -> (d0)>"
ID2 = "affine_map<(d0, d1) -> (d0, d1)>"


def idmap(rank):
    ds = ", ".join("d%d" % k for k in range(rank))
    return "affine_map<(%s) -> (%s)>" % (ds, ds)


def parse_features(text):
    return gen.parse_features(text, FEATURES, "shapes.py")


def ttype(shape, et="i32"):
    return "tensor<%s%s>" % ("".join(("?" if s is None else str(s)) + "x" for s in shape), et)


class Fn:
    def __init__(self, g, name, params, rets, attrs=""):
        self.g, self.name, self.params, self.rets = g, name, params, rets
        self.lines = []
        self.consts = {}
        self.n = 0
        self.ind = 2
        self.attrs = attrs

    def fresh(self, p="v"):
        self.n += 1
        return "%%%s%d" % (p, self.n)

    def const(self, v, t="index"):
        key = (v, t)
        if key not in self.consts:
            name = "%%c%s_%s" % (str(v).replace("-", "m"), t)
            lit = ("true" if v else "false") if t == "i1" else "%d : %s" % (v, t)
            self.consts[key] = (name, "%s = arith.constant %s" % (name, lit))
        return self.consts[key][0]

    def emit(self, line):
        self.lines.append("  " * self.ind + line)

    def text(self):
        args = ", ".join("%s: %s" % p for p in self.params)
        ret = ""
        if self.rets:
            ret = " -> " + (self.rets[0] if len(self.rets) == 1 else "(%s)" % ", ".join(self.rets))
        vis = "" if self.name == "main" else "private "
        out = ["  func.func %s@%s(%s)%s%s {" % (vis, self.name, args, ret, self.attrs)]
        out += ["    " + c for _, c in self.consts.values()]
        out += self.lines
        out.append("  }")
        return "\n".join(out)


class SGen(SharedMixin):
    ttype = staticmethod(ttype)

    def __init__(self, seed, feats, size):
        self.rng = random.Random(seed * 104729 + 17)
        # shapes added later draw from their own stream, so that the programs
        # of a seed stay what they were (tests pin seeds)
        self.rng2 = random.Random(seed * 7 + 5)
        self.rng3 = random.Random(seed * 13 + 11)  # wcarry's
        self.rng4 = random.Random(seed * 17 + 3)  # repeat's
        self.rng5 = random.Random(seed * 19 + 5)  # repeat's turns
        self.seed, self.feat, self.size = seed, feats, size
        self.funcs, self.globals = [], []
        self.tag = 0
        self.nscene = 0
        self.meta = {"scenes": []}
        self.dim_bounds = None
        self.broken = False
        self.shared_set = []

    def chance(self, p):
        return self.rng.random() < p

    def ntag(self, extra=""):
        self.tag += 1
        return "fz.n = %d : i64%s" % (self.tag, extra)

    # ------------------------------------------------------------ helpers
    def gen_body(self, f, args, res_var, kind=None):
        """Emit a random i32 expression of the block arguments into the body."""
        acc = args[0]
        for a in args[1:] + [None] * self.rng.randint(0, 1):
            op = self.rng.choice(["addi", "muli", "xori", "subi"])
            r = f.fresh("e")
            if a is None:
                f.emit("%s = arith.%s %s, %s : i32" % (r, op, acc,
                                                       f.const(self.rng.randint(1, 9), "i32")))
            else:
                f.emit("%s = arith.%s %s, %s : i32" % (r, op, acc, a))
            acc = r
        return acc

    def generic(self, f, ins, shape, extra="", dyn_sizes=()):
        """Elementwise linalg.generic of same-shape tensors into a fresh tensor.empty."""
        t = ttype(shape)
        e = f.fresh("em")
        late = ""
        if "late" in self.feat and dyn_sizes and ins and self.rng2.random() < 0.3:
            # sizes read off an input right before the empty: an order that
            # moves the generic up must move their definitions first
            dims = [k for k, d in enumerate(shape) if d is None]
            dyn_sizes = []
            for k in dims:
                d = f.fresh("dl")
                f.emit("%s = tensor.dim %s, %s : %s" % (d, ins[0], f.const(k), t))
                dyn_sizes.append(d)
            late = " {fz.late}"
        f.emit("%s = tensor.empty(%s)%s : %s" % (e, ", ".join(dyn_sizes), late, t))
        r = len(shape)
        m = ID if r == 1 else ID2
        maps = ", ".join([m] * (len(ins) + 1))
        its = ", ".join(['"parallel"'] * r)
        res = f.fresh("t")
        f.emit("%s = linalg.generic {indexing_maps = [%s], iterator_types = [%s], %s} "
               "ins(%s : %s) outs(%s : %s) {" % (res, maps, its, self.ntag(extra),
                                                 ", ".join(ins), ", ".join([t] * len(ins)), e, t))
        bargs = [f.fresh("a") for _ in ins]
        o = f.fresh("o")
        f.emit("^bb0(%s):" % ", ".join(["%s: i32" % b for b in bargs] + ["%s: i32" % o]))
        f.ind += 1
        v = self.gen_body(f, bargs, None)
        f.emit("linalg.yield %s : i32" % v)
        f.ind -= 1
        f.emit("} -> %s" % t)
        return res

    def filled(self, f, shape, dyn_sizes=(), seedv=None):
        """A tensor with index-dependent values (linalg.generic with linalg.index)."""
        t = ttype(shape)
        e = f.fresh("em")
        f.emit("%s = tensor.empty(%s) : %s" % (e, ", ".join(dyn_sizes), t))
        r = len(shape)
        m = idmap(r)
        res = f.fresh("t")
        f.emit("%s = linalg.generic {indexing_maps = [%s], iterator_types = [%s], %s} "
               "outs(%s : %s) {" % (res, m, ", ".join(['"parallel"'] * r), self.ntag(), e, t))
        o = f.fresh("o")
        f.emit("^bb0(%s: i32):" % o)
        f.ind += 1
        acc = f.const(seedv if seedv is not None else self.rng.randint(1, 999), "index")
        for k in range(r):
            ix = f.fresh("x")
            f.emit("%s = linalg.index %d : index" % (ix, k))
            mm = f.fresh("x")
            f.emit("%s = arith.muli %s, %s : index" % (mm, ix, f.const(self.rng.choice([3, 5, 7, 11]))))
            a2 = f.fresh("x")
            f.emit("%s = arith.addi %s, %s : index" % (a2, acc, mm))
            acc = a2
        v = f.fresh("x")
        f.emit("%s = arith.index_cast %s : index to i32" % (v, acc))
        f.emit("linalg.yield %s : i32" % v)
        f.ind -= 1
        f.emit("} -> %s" % t)
        return res

    def hash_t(self, f, t, shape, acc=None):
        """i64 hash of every element of tensor t (static or dynamic shape)."""
        ty = ttype(shape)
        ubs = []
        for k, s in enumerate(shape):
            if s is None:
                d = f.fresh("d")
                f.emit("%s = tensor.dim %s, %s : %s" % (d, t, f.const(k), ty))
                ubs.append(d)
            else:
                ubs.append(f.const(s))
        acc = acc or f.const(self.rng.randint(1, 99), "i64")
        return self._hloops(f, t, ty, ubs, [], acc)

    def _hloops(self, f, t, ty, ubs, ivs, acc):
        if len(ivs) == len(ubs):
            v = f.fresh("l")
            f.emit("%s = tensor.extract %s[%s] : %s" % (v, t, ", ".join(ivs), ty))
            x = f.fresh("l")
            f.emit("%s = arith.extsi %s : i32 to i64" % (x, v))
            m = f.fresh("l")
            f.emit("%s = arith.muli %s, %s : i64" % (m, acc, f.const(31, "i64")))
            n = f.fresh("l")
            f.emit("%s = arith.addi %s, %s : i64" % (n, m, x))
            return n
        iv, a, res = f.fresh("i"), f.fresh("h"), f.fresh("h")
        f.emit("%s = scf.for %s = %s to %s step %s iter_args(%s = %s) -> (i64) {" %
               (res, iv, f.const(0), ubs[len(ivs)], f.const(1), a, acc))
        f.ind += 1
        r = self._hloops(f, t, ty, ubs, ivs + [iv], a)
        f.emit("scf.yield %s : i64" % r)
        f.ind -= 1
        f.emit("}")
        return res

    def combine(self, f, hs):
        acc = hs[0]
        for h in hs[1:]:
            m = f.fresh("c")
            f.emit("%s = arith.muli %s, %s : i64" % (m, acc, f.const(1000003, "i64")))
            x = f.fresh("c")
            f.emit("%s = arith.xori %s, %s : i64" % (x, m, h))
            acc = x
        return acc

    def shape(self, lo=4, hi=64):
        if self.chance(0.3):
            return [self.rng.choice([2, 3, 4, 8]), self.rng.choice([4, 8, 16])]
        return [self.rng.choice([lo, 8, 16, 32, hi])]

    def print_(self, m, v):
        m.emit("func.call @printI64(%s) : (i64) -> ()" % v)
        m.emit("func.call @printNewline() : () -> ()")

    def new_fn(self, prefix, params, rets, attrs=""):
        self.nscene += 1
        f = Fn(self, "%s%d" % (prefix, self.nscene), params, rets, attrs)
        self.funcs.append(f)
        return f

    def call(self, m, f, args, argtys):
        r = m.fresh("r")
        m.emit("%s = func.call @%s(%s) : (%s) -> %s" % (r, f.name, ", ".join(args),
                                                      ", ".join(argtys), f.rets[0]))
        return r

    def pressure(self, f, x, shape, n=None):
        """Big temporaries from x between two points: a chain of 1-3 generics,
        hashed at once (the order wants what lives across it computed late)."""
        big = [s * self.rng.choice([2, 4]) for s in shape] if len(shape) == 1 else shape
        t = self.filled(f, big)
        for _ in range(n or self.rng.randint(1, 3)):
            t = self.generic(f, [t], big)
        return self.hash_t(f, t, big)

    # ------------------------------------------------------------ scenes
    def scene_chain(self, m):
        shape = self.shape()
        t = ttype(shape)
        f = self.new_fn("chain", [("%x", t)], ["i64"])
        heads = []
        for _ in range(self.rng.randint(2, 4)):
            c = self.generic(f, ["%x"], shape)
            for _ in range(self.rng.randint(0, 3)):
                c = self.generic(f, [c] + (["%x"] if self.chance(0.3) else []), shape)
            heads.append(c)
        acc = heads[0]
        for h in heads[1:]:
            acc = self.generic(f, [acc, h], shape)
        f.emit("return %s : i64" % self.hash_t(f, acc, shape))
        x = self.filled(m, shape)
        for _ in range(self.rng.randint(1, 2)):
            self.print_(m, self.call(m, f, [x], [t]))

    # Where the best stacking order of S- and B-sized buffers changes with S
    # and B (found with the core planner over random sets, SymbolicPlan.cpp):
    # (i32 columns, dims, first step, last step); scaled and mixed with
    # random buffers below.
    CROSS_SKELETONS = [
        [(160, ["%s"], 0, 1), (96, ["%s"], 1, 3), (32, ["%s", "%s"], 2, 2),
         (160, ["%b"], 2, 4)],
        [(208, ["%s"], 4, 7), (512, ["%s"], 4, 6), (64, ["%s", "%s"], 3, 4),
         (16, ["%s", "%s"], 7, 7), (16, ["%s", "%s"], 7, 10), (112, ["%s"], 6, 7)],
    ]

    def scene_cross(self, m):
        bufs = []  # (shape, dyn sizes, first step, last step)
        if self.chance(0.5):
            scale = self.rng.choice([1, 2])
            for k, dyn, lo, hi in self.rng.choice(self.CROSS_SKELETONS):
                bufs.append(([None] * len(dyn) + [k * scale], dyn, lo, hi))
        n = self.rng.randint(0 if bufs else 4, 2 if bufs else 7)
        top = max([b[3] for b in bufs], default=n)
        for _ in range(n):
            k = self.rng.choice([16, 32, 48, 64, 96, 128, 192, 256])
            shape, dyn = self.rng.choice([([None, k], ["%s"]), ([None, k], ["%b"]),
                                          ([None, None], ["%s", "%s"])])
            lo = self.rng.randrange(top)
            bufs.append((shape, dyn, lo, lo + self.rng.randrange(4)))
        f = self.new_fn("cross", [("%s", "index"), ("%b", "index")], ["i64"])
        live, hashes = {}, []
        for t in range(max(b[3] for b in bufs) + 1):
            for i, (shape, dyn, lo, hi) in enumerate(bufs):
                if lo == t:
                    live[i] = self.filled(f, shape, dyn)
            # a hash per live buffer and step keeps it live until its last
            for i, (shape, dyn, lo, hi) in enumerate(bufs):
                if lo <= t <= hi and (lo < t or lo == hi):
                    hashes.append(self.hash_t(f, live[i], shape))
        f.emit("return %s : i64" % self.combine(f, hashes))
        pairs = [(1, 1), (2, 1), (1, 2), (4, 1), (1, 8), (8, 2), (3, 5), (12, 2), (2, 12)]
        # dim-bounds bounds S and B too: a kept promise
        pairs = [p for p in pairs if max(p) <= (self.dim_bounds or max(p))]
        for sv, bv in self.rng.sample(pairs, 3):
            r = m.fresh("r")
            m.emit("%s = func.call @%s(%s, %s) : (index, index) -> i64" % (
                r, f.name, m.const(sv), m.const(bv)))
            self.print_(m, r)

    def padcat_chain(self, f, shape):
        c = self.generic(f, [self.filled(f, shape)], shape)
        for _ in range(self.rng.randint(0, 2)):
            c = self.generic(f, [c], shape)
        return c

    def scene_padcat(self, m):
        shape = self.shape(4, 16)
        r = len(shape)
        t = ttype(shape)
        f = self.new_fn("padcat", [("%x", t)], ["i64"])
        cur = self.generic(f, ["%x"], shape)
        if self.chance(0.5):
            cur = self.generic(f, [cur], shape)
        cur_shape = list(shape)
        hashes = []
        early = f.const(self.rng.randint(-9, 9), "i32")
        for _ in range(self.rng.randint(1, 3)):
            again = self.chance(0.2)
            if self.chance(0.5):
                d = self.rng.randrange(r)
                parts, shapes = [cur], [cur_shape]
                for _ in range(self.rng.randint(1, 2)):
                    sh = list(cur_shape)
                    sh[d] = self.rng.choice([1, 2, 4, cur_shape[d]])
                    parts.append(self.padcat_chain(f, sh))
                    shapes.append(sh)
                new = list(cur_shape)
                new[d] = sum(sh[d] for sh in shapes)
                c = f.fresh("cat")
                f.emit("%s = tensor.concat dim(%d) %s : (%s) -> %s" % (
                    c, d, ", ".join(parts), ", ".join(ttype(sh) for sh in shapes), ttype(new)))
            else:
                low = [self.rng.randint(0, 2) for _ in range(r)]
                high = [self.rng.randint(0, 2) for _ in range(r)]
                new = [s_ + lo + hi for s_, lo, hi in zip(cur_shape, low, high)]
                if self.chance(0.5):
                    pv = early
                else:
                    pv = f.fresh("pv")
                    f.emit("%s = arith.constant %d : i32" % (pv, self.rng.randint(-9, 9)))
                c = f.fresh("pad")
                f.emit("%s = tensor.pad %s low[%s] high[%s] {" % (
                    c, cur, ", ".join(map(str, low)), ", ".join(map(str, high))))
                f.emit("^bb0(%s):" % ", ".join("%s: index" % f.fresh("i") for _ in range(r)))
                f.emit("  tensor.yield %s : i32" % pv)
                f.emit("} : %s to %s" % (ttype(cur_shape), ttype(new)))
            if again:
                hashes.append(self.hash_t(f, cur, cur_shape))
            cur, cur_shape = c, new
            if self.chance(0.5):
                cur = self.generic(f, [cur], cur_shape)
        hashes.append(self.hash_t(f, cur, cur_shape))
        f.emit("return %s : i64" % self.combine(f, hashes))
        x = self.filled(m, shape)
        for _ in range(self.rng.randint(1, 2)):
            self.print_(m, self.call(m, f, [x], [t]))

    def scene_global(self, m):
        shape = [self.rng.choice([8, 16, 32, 64])]
        n = shape[0]
        mt = "memref<%dxi32>" % n
        t = ttype(shape)
        gname = "@g%d" % (len(self.globals) + 1)
        self.globals.append('  memref.global "private" %s : %s = dense<%d>' %
                            (gname, mt, self.rng.randint(1, 50)))
        # a private writer: what a KV-cache update looks like
        self.nscene += 1
        w = Fn(self, "writer%d" % self.nscene, [("%v", "i32")], [])
        self.funcs.append(w)
        gm = w.fresh("g")
        w.emit("%s = memref.get_global %s : %s" % (gm, gname, mt))
        how = self.rng.choice(["store", "loop", "fill", "copy"])
        if how == "store":
            w.emit("memref.store %%v, %s[%s] : %s" % (gm, w.const(self.rng.randrange(n)), mt))
        elif how == "loop":
            i = w.fresh("i")
            lo = self.rng.randrange(n)
            w.emit("scf.for %s = %s to %s step %s {" % (i, w.const(lo), w.const(n),
                                                       w.const(self.rng.choice([1, 2, 3]))))
            ii = w.fresh()
            w.emit("  %s = arith.index_cast %s : index to i32" % (ii, i))
            s = w.fresh()
            w.emit("  %s = arith.addi %s, %%v : i32" % (s, ii))
            w.emit("  memref.store %s, %s[%s] : %s" % (s, gm, i, mt))
            w.emit("}")
        elif how == "fill":
            w.emit("linalg.fill ins(%%v : i32) outs(%s : %s)" % (gm, mt))
        else:
            tmp = w.fresh("m")
            w.emit("%s = memref.alloca() : %s" % (tmp, mt))
            w.emit("linalg.fill ins(%%v : i32) outs(%s : %s)" % (tmp, mt))
            w.emit("memref.copy %s, %s : %s to %s" % (tmp, gm, mt, mt))
        w.emit("return")

        f = self.new_fn("glob", [("%x", t), ("%k", "i32")], ["i64"])
        hs = []
        reads = []
        for step in range(self.rng.randint(1, 3)):
            nested = self.chance(0.3)
            if nested:
                # the read inside an scf.if (taken when %k is odd)
                c = f.fresh("odd")
                b0 = f.fresh()
                f.emit("%s = arith.andi %%k, %s : i32" % (b0, f.const(1, "i32")))
                f.emit("%s = arith.cmpi ne, %s, %s : i32" % (c, b0, f.const(0, "i32")))
                ri = f.fresh("ri")
                f.emit("%s = scf.if %s -> (%s) {" % (ri, c, t))
                f.ind += 1
            gm = f.fresh("g")
            f.emit("%s = memref.get_global %s : %s" % (gm, gname, mt))
            tt = f.fresh("gt")
            f.emit("%s = bufferization.to_tensor %s restrict : %s to %s" % (tt, gm, mt, t))
            r = self.generic(f, [tt, "%x"] if self.chance(0.7) else [tt], shape,
                             extra=", fz.r = %d : i64" % (self.tag + 1))
            if nested:
                f.emit("scf.yield %s : %s" % (r, t))
                f.ind -= 1
                f.emit("} else {")
                f.emit("  scf.yield %%x : %s" % t)
                f.emit("}")
                r = ri
            reads.append(r)
            if self.chance(0.8):
                hs.append(self.pressure(f, "%x", shape))
            # the write: a store here, or a call of the writer
            kind = self.rng.choice(["store", "call", "call", "fill", "copy"])
            v = f.fresh("wv")
            f.emit("%s = arith.addi %%k, %s : i32" % (v, f.const(step + 1, "i32")))
            if kind == "fill":
                gw = f.fresh("g")
                f.emit("%s = memref.get_global %s : %s" % (gw, gname, mt))
                f.emit("linalg.fill {%s} ins(%s : i32) outs(%s : %s)" % (
                    self.ntag(", fz.w = 1 : i64"), v, gw, mt))
            elif kind == "copy":
                # a tensor computed here, written into the global
                src = self.generic(f, ["%x"], shape)
                gw = f.fresh("g")
                f.emit("%s = memref.get_global %s : %s" % (gw, gname, mt))
                f.emit("bufferization.materialize_in_destination %s in restrict writable %s "
                       "{%s} : (%s, %s) -> ()" % (src, gw, self.ntag(", fz.w = 1 : i64"),
                                                  t, mt))
            elif kind == "store":
                gw = f.fresh("g")
                f.emit("%s = memref.get_global %s : %s" % (gw, gname, mt))
                f.emit("memref.store %s, %s[%s] {%s} : %s" % (
                    v, gw, f.const(self.rng.randrange(n)), self.ntag(", fz.w = 1 : i64"), mt))
            else:
                f.emit("func.call @%s(%s) {%s} : (i32) -> ()" % (
                    w.name, v, self.ntag(", fz.w = 1 : i64")))
        if self.chance(0.4):
            # a callee reads the global after the writes
            self.nscene += 1
            rd = Fn(self, "reader%d" % self.nscene, [], ["i64"])
            self.funcs.append(rd)
            gm = rd.fresh("g")
            rd.emit("%s = memref.get_global %s : %s" % (gm, gname, mt))
            tt = rd.fresh("gt")
            rd.emit("%s = bufferization.to_tensor %s restrict : %s to %s" % (tt, gm, mt, t))
            rd.emit("return %s : i64" % self.hash_t(rd, tt, shape))
            h = f.fresh("rd")
            f.emit("%s = func.call @%s() : () -> i64" % (h, rd.name))
            hs.append(h)
        if self.chance(0.5):
            # a read after the last write, combined with the first read
            gm = f.fresh("g")
            f.emit("%s = memref.get_global %s : %s" % (gm, gname, mt))
            tt = f.fresh("gt")
            f.emit("%s = bufferization.to_tensor %s restrict : %s to %s" % (tt, gm, mt, t))
            reads.append(self.generic(f, [tt, reads[0]], shape))
        for r in reads:
            hs.append(self.hash_t(f, r, shape))
        f.emit("return %s : i64" % self.combine(f, hs))
        x = self.filled(m, shape)
        for k in range(self.rng.randint(1, 2)):
            self.print_(m, self.call(m, f, [x, m.const(self.rng.randint(1, 99), "i32")],
                                     [t, "i32"]))

    def size_arg(self, f, name):
        """The scene's n: an index argument, or (with dim-bounds on) loaded from
        a tensor<1xindex> so that no promise covers it."""
        if self.dim_bounds is None:
            return name
        n = f.fresh("n")
        f.emit("%s = tensor.extract %s[%s] : tensor<1xindex>" % (n, name, f.const(0)))
        return n

    def size_val(self, m, v):
        if self.dim_bounds is None:
            return m.const(v), "index"
        t = m.fresh("nt")
        m.emit("%s = tensor.from_elements %s : tensor<1xindex>" % (t, m.const(v)))
        return t, "tensor<1xindex>"

    def scene_nospec(self, m):
        kind = self.rng.choice(NOSPEC_KINDS)
        self.meta["scenes"].append("nospec-" + kind)
        aty = "index" if self.dim_bounds is None else "tensor<1xindex>"
        f = self.new_fn("nospec", [("%na", aty)], ["i64"])
        n = self.size_arg(f, "%na")
        ok = f.fresh("ok")
        f.emit("%s = arith.cmpi ult, %s, %s : index" % (ok, n, f.const(1000)))
        hs = []
        # always run: min(n, B) elements (bounded), and a static one
        if self.chance(0.7):
            b = self.rng.choice([8, 16, 64])
            mn = f.fresh("mn")
            f.emit("%s = arith.minui %s, %s : index" % (mn, n, f.const(b)))
            t0 = self.filled(f, [None], [mn])
            hs.append(self.hash_t(f, t0, [None]))
        if self.chance(0.5):
            hs.append(self.hash_t(f, self.filled(f, [16]), [16]))
        if self.chance(0.7):
            # always run, sized at entry: the function's run-time plan
            for _ in range(self.rng.randint(1, 2)):
                t1 = self.filled(f, [None], [n])
                if self.chance(0.5):
                    t1 = self.generic(f, [t1], [None], dyn_sizes=[n])
                x = f.fresh("x")
                f.emit("%s = tensor.extract %s[%s] : %s" % (x, t1, f.const(0), ttype([None])))
                x64 = f.fresh("x")
                f.emit("%s = arith.extsi %s : i32 to i64" % (x64, x))
                hs.append(x64)

        def inner(fn):
            sq = fn.fresh("sq")
            fn.emit("%s = arith.muli %s, %s : index" % (sq, n, n))
            a = self.filled(fn, [None], [sq])
            b = self.generic(fn, [a], [None], dyn_sizes=[sq])
            if self.chance(0.5):
                b = self.generic(fn, [b, a], [None], dyn_sizes=[sq])
            return self.hash_t(fn, b, [None])
        dflt = f.const(self.rng.randint(1, 99), "i64")
        if kind == "if":
            r = f.fresh("if")
            neg = self.chance(0.3)
            cond = ok
            if neg:
                cond = f.fresh("nok")
                f.emit("%s = arith.cmpi uge, %s, %s : index" % (cond, n, f.const(1000)))
            f.emit("%s = scf.if %s -> (i64) {" % (r, cond))
            f.ind += 1
            if neg:
                f.emit("scf.yield %s : i64" % dflt)
            else:
                f.emit("scf.yield %s : i64" % inner(f))
            f.ind -= 1
            f.emit("} else {")
            f.ind += 1
            if neg:
                f.emit("scf.yield %s : i64" % inner(f))
            else:
                f.emit("scf.yield %s : i64" % dflt)
            f.ind -= 1
            f.emit("}")
            hs.append(r)
        elif kind == "ifinfor":
            # a loop that always runs, the alloc under an scf.if in its body
            r, iv, a = f.fresh("fr"), f.fresh("i"), f.fresh("a")
            f.emit("%s = scf.for %s = %s to %s step %s iter_args(%s = %s) -> (i64) {" %
                   (r, iv, f.const(0), f.const(self.rng.randint(1, 3)), f.const(1), a, dflt))
            f.ind += 1
            q = f.fresh("if")
            f.emit("%s = scf.if %s -> (i64) {" % (q, ok))
            f.ind += 1
            f.emit("scf.yield %s : i64" % inner(f))
            f.ind -= 1
            f.emit("} else {")
            f.emit("  scf.yield %s : i64" % a)
            f.emit("}")
            x = f.fresh()
            f.emit("%s = arith.xori %s, %s : i64" % (x, q, a))
            f.emit("scf.yield %s : i64" % x)
            f.ind -= 1
            f.emit("}")
            hs.append(r)
        elif kind == "for":
            ub = f.fresh("ub")
            f.emit("%s = arith.select %s, %s, %s : index" % (ub, ok, f.const(self.rng.randint(1, 2)),
                                                            f.const(0)))
            r, iv, a = f.fresh("fr"), f.fresh("i"), f.fresh("a")
            f.emit("%s = scf.for %s = %s to %s step %s iter_args(%s = %s) -> (i64) {" %
                   (r, iv, f.const(0), ub, f.const(1), a, dflt))
            f.ind += 1
            h = inner(f)
            x = f.fresh()
            f.emit("%s = arith.xori %s, %s : i64" % (x, h, a))
            f.emit("scf.yield %s : i64" % x)
            f.ind -= 1
            f.emit("}")
            hs.append(r)
        elif kind == "while":
            ub = f.fresh("ub")
            f.emit("%s = arith.select %s, %s, %s : index" % (ub, ok, f.const(self.rng.randint(1, 2)),
                                                            f.const(0)))
            r, r2 = f.fresh("w"), f.fresh("w")
            i, a, i2, a2 = f.fresh("i"), f.fresh("a"), f.fresh("i"), f.fresh("a")
            f.emit("%s:2 = scf.while (%s = %s, %s = %s) : (index, i64) -> (index, i64) {" %
                   (r, i, f.const(0), a, dflt))
            f.ind += 1
            c = f.fresh("wc")
            f.emit("%s = arith.cmpi ult, %s, %s : index" % (c, i, ub))
            f.emit("scf.condition(%s) %s, %s : index, i64" % (c, i, a))
            f.ind -= 1
            f.emit("} do {")
            f.emit("^bb0(%s: index, %s: i64):" % (i2, a2))
            f.ind += 1
            h = inner(f)
            x = f.fresh()
            f.emit("%s = arith.xori %s, %s : i64" % (x, h, a2))
            nx = f.fresh()
            f.emit("%s = arith.addi %s, %s : index" % (nx, i2, f.const(1)))
            f.emit("scf.yield %s, %s : index, i64" % (nx, x))
            f.ind -= 1
            f.emit("}")
            hs.append(r + "#1")
        elif kind == "switch":
            sel = f.fresh("sel")
            case = self.rng.randint(1, 2)
            f.emit("%s = arith.select %s, %s, %s : index" % (sel, ok, f.const(case), f.const(0)))
            r = f.fresh("sw")
            f.emit("%s = scf.index_switch %s -> i64" % (r, sel))
            for k in sorted({case, 3 - case}):
                f.emit("case %d {" % k)
                f.ind += 1
                f.emit("scf.yield %s : i64" % (inner(f) if k == case else dflt))
                f.ind -= 1
                f.emit("}")
            f.emit("default {")
            f.emit("  scf.yield %s : i64" % dflt)
            f.emit("}")
            hs.append(r)
        else:  # early exit: cf.cond_br to a return
            big = f.fresh("big")
            f.emit("%s = arith.cmpi uge, %s, %s : index" % (big, n, f.const(1000)))
            pre = self.combine(f, hs) if hs else dflt
            f.emit("cf.cond_br %s, ^bb_exit, ^bb_work" % big)
            f.ind -= 1
            f.emit("^bb_exit:")
            f.ind += 1
            f.emit("return %s : i64" % pre)
            f.ind -= 1
            f.emit("^bb_work:")
            f.ind += 1
            hs = [pre, inner(f)]
        f.emit("return %s : i64" % self.combine(f, hs))
        vals = [self.rng.randint(1, 12), HUGE + self.rng.randint(0, 1000)]
        if self.chance(0.5):
            vals.append(self.rng.randint(1, 12))
        self.rng.shuffle(vals)
        for v in vals:
            a, ty = self.size_val(m, v)
            self.print_(m, self.call(m, f, [a], [ty]))

    def scene_bound(self, m):
        aty = "index" if self.dim_bounds is None else "tensor<1xindex>"
        f = self.new_fn("bound", [("%na", aty)], ["i64"])
        n = self.size_arg(f, "%na")
        hs = []
        b = self.rng.choice([4, 16, 64, 100])
        how = self.rng.choice(["affine", "minui", "minui", "absurd", "tile"])
        self.meta["scenes"].append("bound-" + how)
        if how == "tile":
            # a tiled loop: tile = affine.min(B, n - i)
            r, iv, a = f.fresh("tr"), f.fresh("i"), f.fresh("a")
            f.emit("%s = scf.for %s = %s to %s step %s iter_args(%s = %s) -> (i64) {" %
                   (r, iv, f.const(0), n, f.const(b), a, f.const(7, "i64")))
            f.ind += 1
            sz = f.fresh("sz")
            f.emit("%s = affine.min affine_map<(d0)[s0] -> (%d, s0 - d0)>(%s)[%s]" % (sz, b, iv, n))
            t = self.filled(f, [None], [sz])
            t = self.generic(f, [t], [None], dyn_sizes=[sz])
            h = self.hash_t(f, t, [None], acc=a)
            f.emit("scf.yield %s : i64" % h)
            f.ind -= 1
            f.emit("}")
            hs.append(r)
        else:
            sz = f.fresh("sz")
            if how == "affine":
                f.emit("%s = affine.min affine_map<()[s0] -> (s0, %d)>()[%s]" % (sz, b, n))
            elif how == "minui":
                f.emit("%s = arith.minui %s, %s : index" % (sz, n, f.const(b)))
            else:
                f.emit("%s = arith.minui %s, %s : index" % (sz, n, f.const(1 << 40)))
            shp = [None] if self.chance(0.7) else [None, 4]
            t = self.filled(f, shp, [sz])
            for _ in range(self.rng.randint(1, 2)):
                t = self.generic(f, [t], shp, dyn_sizes=[sz])
            hs.append(self.hash_t(f, t, shp))
        f.emit("return %s : i64" % self.combine(f, hs))
        for v in [self.rng.randint(1, b + 10), self.rng.choice([b, 3, 200])]:
            a, ty = self.size_val(m, v)
            self.print_(m, self.call(m, f, [a], [ty]))

    def promise_fn(self, m, bound, broken):
        """A function whose sizes are promised <= bound; called with sizes in
        range, the last one above it when broken."""
        use_db = self.dim_bounds is not None
        if use_db:
            inner = self.rng.choice([3, 4, bound + self.rng.randint(1, 20)])
            xt = ttype([None, inner])
            f = self.new_fn("promise", [("%x", xt)], ["i64"])
            d0 = f.fresh("d")
            f.emit("%s = tensor.dim %%x, %s : %s" % (d0, f.const(0), xt))
            d1 = f.fresh("d")
            # a static dim read by tensor.dim: no promise may cover it
            f.emit("%s = tensor.dim %%x, %s : %s" % (d1, f.const(1), xt))
            hs = [self.hash_t(f, "%x", [None, inner])]
            t = self.filled(f, [None], [d0])
            t = self.generic(f, [t], [None], dyn_sizes=[d0])
            hs.append(self.hash_t(f, t, [None]))
            u = self.filled(f, [None], [d1])
            hs.append(self.hash_t(f, u, [None]))
            if self.chance(0.5):
                v = self.generic(f, ["%x"], [None, inner], dyn_sizes=[d0])
                hs.append(self.hash_t(f, v, [None, inner]))
        else:
            f = self.new_fn("promise", [("%n", "index {memplan.max = %d : i64}" % bound)],
                            ["i64"])
            hs = []
            t = self.filled(f, [None], ["%n"])
            t = self.generic(f, [t], [None], dyn_sizes=["%n"])
            hs.append(self.hash_t(f, t, [None]))
            if self.chance(0.5):
                u = self.filled(f, [None, 3], ["%n"])
                hs.append(self.hash_t(f, u, [None, 3]))
            if self.chance(0.3):
                # the promised size also bounded by affine.min, and in a loop
                mn = f.fresh("mn")
                f.emit("%s = affine.min affine_map<()[s0] -> (s0, %d)>()[%%n]" % (
                    mn, max(1, bound // 2)))
                r, iv, a = f.fresh("pl"), f.fresh("i"), f.fresh("a")
                f.emit("%s = scf.for %s = %s to %s step %s iter_args(%s = %s) -> (i64) {" %
                       (r, iv, f.const(0), f.const(2), f.const(1), a, f.const(3, "i64")))
                f.ind += 1
                u = self.filled(f, [None], ["%n"])
                v = self.filled(f, [None], [mn])
                x = self.generic(f, [v], [None], dyn_sizes=[mn])
                h1 = self.hash_t(f, u, [None], acc=a)
                h2 = self.hash_t(f, x, [None], acc=h1)
                f.emit("scf.yield %s : i64" % h2)
                f.ind -= 1
                f.emit("}")
                hs.append(r)
        # static neighbours the overflow would hit
        s = self.filled(f, [16])
        hs.append(self.hash_t(f, s, [16]))
        f.emit("return %s : i64" % self.combine(f, hs))
        vals = [self.rng.randint(1, bound) for _ in range(self.rng.randint(1, 2))]
        if broken:
            self.meta["broken_fn"] = f.name
            vals.append(bound + self.rng.randint(1, 3 * bound + 8))
        if not use_db and len(vals) >= 2 and self.chance(0.4):
            # the last two calls from a loop of main: n chosen at run time
            *first, va, vb = vals
            for v in first:
                self.print_(m, self.call(m, f, [m.const(v)], ["index"]))
            iv = m.fresh("i")
            m.emit("scf.for %s = %s to %s step %s {" % (iv, m.const(0), m.const(2), m.const(1)))
            m.ind += 1
            c = m.fresh("lc")
            m.emit("%s = arith.cmpi eq, %s, %s : index" % (c, iv, m.const(0)))
            nv = m.fresh("ln")
            m.emit("%s = arith.select %s, %s, %s : index" % (nv, c, m.const(va), m.const(vb)))
            self.print_(m, self.call(m, f, [nv], ["index"]))
            m.ind -= 1
            m.emit("}")
            return
        for v in vals:
            if use_db:
                x = self.filled(m, [None, inner], [m.const(v)])
                self.print_(m, self.call(m, f, [x], [ttype([None, inner])]))
            else:
                self.print_(m, self.call(m, f, [m.const(v)], ["index"]))

    def scene_hoist(self, m):
        n = self.rng.choice([4, 6, 8, 12])
        t = ttype([n])
        vals = [self.rng.randint(-50, 50) for _ in range(n)]
        route = [self.rng.choice(["select", "reshape", "cast", "expand", "direct", "if",
                                  "callee"])
                 for _ in range(self.rng.randint(1, 2))]
        self.meta["scenes"].append("hoist-" + "-".join(route))
        f = self.new_fn("hoist", [("%s", "i1"), ("%y", t)], None)
        k = f.fresh("k")
        f.emit("%s = arith.constant dense<[%s]> : %s" % (k, ", ".join(map(str, vals)), t))
        h = self.generic(f, [k], [n])
        if self.chance(0.5):
            h = self.generic(f, [h, k], [n])
        # a legitimate hoist beside: a constant-derived tensor read by %y's op
        hs_t = None
        if self.chance(0.6):
            k2 = f.fresh("k")
            f.emit("%s = arith.constant dense<[%s]> : %s" % (
                k2, ", ".join(str(self.rng.randint(-9, 9)) for _ in range(n)), t))
            c2 = self.generic(f, [k2], [n])
            hs_t = self.generic(f, [c2, "%y"], [n])
        cur, cty = h, [n]
        for r in route:
            if r == "select" and cty == [n]:
                s = f.fresh("sel")
                f.emit("%s = arith.select %%s, %s, %%y : %s" % (s, cur, t))
                cur = s
            elif r == "reshape" and cty == [n]:
                a, b = (2, n // 2)
                sh = f.fresh("shp")
                f.emit("%s = arith.constant dense<[%d, %d]> : tensor<2xindex>" % (sh, a, b))
                s = f.fresh("rs")
                f.emit("%s = tensor.reshape %s(%s) : (%s, tensor<2xindex>) -> %s" % (
                    s, cur, sh, t, ttype([a, b])))
                s2 = f.fresh("rs")
                f.emit("%s = tensor.collapse_shape %s [[0, 1]] : %s into %s" % (
                    s2, s, ttype([a, b]), t))
                cur = s2
            elif r == "if":
                # yielded by an scf.if
                s = f.fresh("yf")
                f.emit("%s = scf.if %%s -> (%s) {" % (s, t))
                f.emit("  scf.yield %s : %s" % (cur, t))
                f.emit("} else {")
                f.emit("  scf.yield %%y : %s" % t)
                f.emit("}")
                cur = s
            elif r == "callee":
                # passed to a callee that writes into it in place and returns it
                self.nscene += 1
                w = Fn(self, "scribble%d" % self.nscene, [("%a", t)], [t])
                self.funcs.append(w)
                q = w.fresh("q")
                w.emit("%s = tensor.insert %s into %%a[%s] : %s" % (
                    q, w.const(3000 + self.nscene, "i32"), w.const(self.rng.randrange(n)), t))
                w.emit("return %s : %s" % (q, t))
                s = f.fresh("cl")
                f.emit("%s = func.call @%s(%s) : (%s) -> %s" % (s, w.name, cur, t, t))
                cur = s
            elif r == "expand" and cty == [n]:
                s = f.fresh("ex")
                f.emit("%s = tensor.expand_shape %s [[0, 1]] output_shape [%d, %d] : %s into %s" % (
                    s, cur, 2, n // 2, t, ttype([2, n // 2])))
                s2 = f.fresh("ex")
                f.emit("%s = tensor.collapse_shape %s [[0, 1]] : %s into %s" % (
                    s2, s, ttype([2, n // 2]), t))
                cur = s2
        rets = []
        cast = "cast" in route
        if cast:
            # through a dynamic type and back (a dynamic call result that the
            # caller writes into makes one-shot-bufferize emit an invalid alloc)
            s = f.fresh("cs")
            f.emit("%s = tensor.cast %s : %s to %s" % (s, cur, t, ttype([None])))
            s2 = f.fresh("cs")
            f.emit("%s = tensor.cast %s : %s to %s" % (s2, s, ttype([None]), t))
            cur = s2
        rty = t
        cast = False
        f.rets = [rty, "i64"]
        extra = self.hash_t(f, hs_t, [n]) if hs_t is not None else f.const(5, "i64")
        f.emit("return %s, %s : %s, i64" % (cur, extra, rty))
        # the caller: read, write into the result, call again
        sel = m.const(self.rng.choice([0, 1]), "i1") if self.chance(0.3) else None
        if sel is None:
            sel = m.fresh("sl")
            m.emit("%s = arith.cmpi ult, %s, %s : index" % (sel, m.const(self.rng.randint(0, 2)),
                                                           m.const(1)))
        for it in range(self.rng.randint(2, 3)):
            # a fresh %y per call: the result may alias it, and only a dead
            # %y lets the caller write into the result in place
            y = self.filled(m, [n])
            r = m.fresh("hr")
            m.emit("%s:2 = func.call @%s(%s, %s) : (i1, %s) -> (%s, i64)" % (
                r, f.name, sel, y, t, rty))
            res = r + "#0"
            if cast:
                # back to the static type (one-shot-bufferize cannot copy a
                # dynamic call result it must not write in place)
                res = m.fresh("sc")
                m.emit("%s = tensor.cast %s#0 : %s to %s" % (res, r, rty, t))
            self.print_(m, self.hash_t(m, res, [n]))
            self.print_(m, r + "#1")
            how = self.rng.choice(["insert", "fill", "generic"])
            if how == "insert":
                w = m.fresh("w")
                m.emit("%s = tensor.insert %s into %s[%s] : %s" % (
                    w, m.const(1000 + it, "i32"), res, m.const(self.rng.randrange(n)), t))
            elif how == "fill":
                w = m.fresh("w")
                m.emit("%s = linalg.fill ins(%s : i32) outs(%s : %s) -> %s" % (
                    w, m.const(2000 + it, "i32"), res, t, t))
            else:
                w = m.fresh("w")
                m.emit("%s = linalg.generic {indexing_maps = [%s], iterator_types = "
                       "[\"parallel\"]} outs(%s : %s) {" % (w, ID, res, t))
                o = m.fresh("o")
                m.emit("^bb0(%s: i32):" % o)
                q = m.fresh("q")
                m.emit("  %s = arith.addi %s, %s : i32" % (q, o, m.const(77, "i32")))
                m.emit("  linalg.yield %s : i32" % q)
                m.emit("} -> %s" % t)
            self.print_(m, self.hash_t(m, w, [n]))

    def scene_cache(self, m):
        cap = self.rng.choice([4, 8, 16])
        top = min(cap, self.dim_bounds or cap)  # n within a dim-bounds promise
        k = self.rng.choice([2, 4, 8])
        mt = "memref<%dx%dxi32>" % (cap, k)
        vt = "memref<?x%dxi32, strided<[%d, 1]>>" % (k, k)
        gt = ttype([cap, k])
        names = []
        for _ in range(2):
            g = "@g%d" % (len(self.globals) + 1)
            self.globals.append('  memref.global "private" %s : %s = dense<%d>' %
                                (g, mt, self.rng.randint(1, 50)))
            names.append(g)
        shape = [None, k]
        t = ttype(shape)
        f = self.new_fn("cache", [("%x", t), ("%n", "index")], ["i64"])

        def read(tag):
            gm, tt, sl = f.fresh("g"), f.fresh("gt"), f.fresh("sl")
            f.emit("%s = memref.get_global %s : %s" % (gm, names[0], mt))
            f.emit("%s = bufferization.to_tensor %s restrict : %s to %s" % (tt, gm, mt, gt))
            f.emit("%s = tensor.extract_slice %s[0, 0] [%%n, %d] [1, 1] : %s to %s" %
                   (sl, tt, k, gt, t))
            ins = [sl, "%x"] if self.chance(0.6) else [sl]
            return self.generic(f, ins, shape, extra=tag, dyn_sizes=["%n"])

        reads, hs = [], []
        for _ in range(self.rng.randint(1, 3)):
            reads.append(read(", fz.r = %d : i64" % (self.tag + 1)))
            if self.chance(0.7):
                # dynamic temporaries: n x 2K .. n x 8K, hashed at once
                big = [None, k * self.rng.choice([2, 4, 8])]
                b = self.filled(f, big, dyn_sizes=["%n"])
                for _ in range(self.rng.randint(1, 2)):
                    b = self.generic(f, [b], big, dyn_sizes=["%n"])
                hs.append(self.hash_t(f, b, big))
            y = self.generic(f, ["%x"], shape, dyn_sizes=["%n"])
            # fz.w only on writes of the global read: a read may move past a
            # write of the other one
            same = self.chance(0.7)
            gw, sv = f.fresh("g"), f.fresh("sv")
            f.emit("%s = memref.get_global %s : %s" % (gw, names[0 if same else 1], mt))
            f.emit("%s = memref.subview %s[0, 0] [%%n, %d] [1, 1] : %s to %s" %
                   (sv, gw, k, mt, vt))
            f.emit("bufferization.materialize_in_destination %s in restrict writable %s "
                   "{%s} : (%s, %s) -> ()" % (y, sv, self.ntag(", fz.w = 1 : i64" if same
                                                                else ""), t, vt))
        reads.append(read(""))
        for r in reads:
            hs.append(self.hash_t(f, r, shape))
        f.emit("return %s : i64" % self.combine(f, hs))
        for _ in range(self.rng.randint(2, 3)):
            nn = m.const(self.rng.randint(1, top))
            x = self.filled(m, shape, dyn_sizes=[nn])
            self.print_(m, self.call(m, f, [x, nn], [t, "index"]))

    def scene_permute(self, m):
        a = self.rng.choice([2, 3, 4])
        b = self.rng.choice([a, a, 2, 3, 5])
        shape = [a, b]
        t = ttype(shape)
        f = self.new_fn("permute", [("%y", t)], ["i64"])
        kind = self.rng.choice(["dense", "generic", "index"])
        if kind == "index":
            cur = self.filled(f, shape)
        else:
            k = f.fresh("k")
            f.emit("%s = arith.constant dense<[%s]> : %s" % (k, ", ".join(
                "[%s]" % ", ".join(str(self.rng.randint(-20, 20)) for _ in range(b))
                for _ in range(a)), t))
            cur = self.generic(f, [k], shape) if kind == "generic" else k
        steps = []
        hs = []
        cshape = shape
        for _ in range(self.rng.randint(1, 3)):
            step = self.rng.choice(["transpose", "copy", "generic-in", "generic-out"])
            steps.append(step)
            src, sty = cur, ttype(cshape)
            if step != "copy":
                cshape = [cshape[1], cshape[0]]
            cty = ttype(cshape)
            e = f.fresh("em")
            f.emit("%s = tensor.empty() : %s" % (e, cty))
            cur = f.fresh("p")
            tag = "{fz.p = 1 : i64}"
            if step == "transpose":
                f.emit("%s = linalg.transpose ins(%s : %s) outs(%s : %s) permutation = [1, 0] %s"
                       % (cur, src, sty, e, cty, tag))
            elif step == "copy":
                f.emit("%s = linalg.copy %s ins(%s : %s) outs(%s : %s) -> %s"
                       % (cur, tag, src, sty, e, cty, cty))
            else:
                tr = "affine_map<(d0, d1) -> (d1, d0)>"
                maps = (tr, ID2) if step == "generic-in" else (ID2, tr)
                # a generic-out iterates over the source's shape
                f.emit("%s = linalg.generic {indexing_maps = [%s, %s], iterator_types = "
                       "[\"parallel\", \"parallel\"], fz.p = 1 : i64} ins(%s : %s) "
                       "outs(%s : %s) {" % (cur, maps[0], maps[1], src, sty, e, cty))
                x, o = f.fresh("a"), f.fresh("o")
                f.emit("^bb0(%s: i32, %s: i32):" % (x, o))
                f.emit("  linalg.yield %s : i32" % x)
                f.emit("} -> %s" % cty)
            # readers of this copy (the last always has one)
            readers = [r for r in ["elementwise", "add-self", "matmul-self", "with-arg",
                                   "extract"] if self.chance(0.35)]
            if not readers and (len(steps) == 3 or self.chance(0.3)):
                readers = ["elementwise"]
            for r in readers:
                if r == "elementwise":
                    hs.append(self.hash_t(f, self.generic(f, [cur], cshape), cshape))
                elif r == "add-self" or (r == "with-arg" and cshape == shape):
                    other = cur if r == "add-self" else "%y"
                    e2 = f.fresh("em")
                    f.emit("%s = tensor.empty() : %s" % (e2, cty))
                    s2 = f.fresh("s")
                    f.emit("%s = linalg.add ins(%s, %s : %s, %s) outs(%s : %s) -> %s"
                           % (s2, cur, other, cty, cty, e2, cty, cty))
                    hs.append(self.hash_t(f, s2, cshape))
                elif r == "matmul-self" and cshape[0] == cshape[1]:
                    e2 = f.fresh("em")
                    f.emit("%s = tensor.empty() : %s" % (e2, cty))
                    z = f.fresh("z")
                    f.emit("%s = linalg.fill ins(%s : i32) outs(%s : %s) -> %s"
                           % (z, f.const(0, "i32"), e2, cty, cty))
                    s2 = f.fresh("s")
                    f.emit("%s = linalg.matmul ins(%s, %s : %s, %s) outs(%s : %s) -> %s"
                           % (s2, cur, cur, cty, cty, z, cty, cty))
                    hs.append(self.hash_t(f, s2, cshape))
                elif r == "extract":
                    v = f.fresh("x")
                    f.emit("%s = tensor.extract %s[%s, %s] : %s" % (
                        v, cur, f.const(self.rng.randrange(cshape[0])),
                        f.const(self.rng.randrange(cshape[1])), cty))
                    w = f.fresh("x")
                    f.emit("%s = arith.extsi %s : i32 to i64" % (w, v))
                    hs.append(w)
        if not hs:
            hs.append(self.hash_t(f, self.generic(f, [cur], cshape), cshape))
        self.meta["scenes"].append("permute-%s-%d" % (kind, len(steps)))
        f.emit("return %s : i64" % self.combine(f, hs))
        for _ in range(self.rng.randint(1, 2)):
            self.print_(m, self.call(m, f, [self.filled(m, shape)], [t]))

    def scene_wcarry(self, m):
        """A dynamic tensor carried by an scf.while and used after it."""
        # A stream of its own, for every draw the scene makes (the helpers'
        # too): the other scenes of a seed stay what they were (tests pin seeds).
        rng, rng2 = self.rng, self.rng2
        self.rng = self.rng2 = self.rng3
        try:
            fresh_before = self.chance(0.5)
            self.meta["scenes"].append("wcarry-" + ("before" if fresh_before else "forward"))
            f = self.new_fn("wcarry", [("%na", "index")], ["i64"])
            n = "%na"
            t0 = self.filled(f, [None], [n])
            if self.chance(0.5):
                t0 = self.generic(f, [t0], [None], dyn_sizes=[n])
            trips = self.rng.randint(0, 3)
            ty = ttype([None])
            r, u, i = f.fresh("w"), f.fresh("u"), f.fresh("i")
            f.emit("%s:2 = scf.while (%s = %s, %s = %s) : (%s, index) -> (%s, index) {" %
                   (r, u, t0, i, f.const(0), ty, ty))
            f.ind += 1
            c = f.fresh("wc")
            f.emit("%s = arith.cmpi ult, %s, %s : index" % (c, i, f.const(trips)))
            out = u
            if fresh_before:
                d = f.fresh("d")
                f.emit("%s = tensor.dim %s, %s : %s" % (d, u, f.const(0), ty))
                out = self.generic(f, [u], [None], dyn_sizes=[d])
            f.emit("scf.condition(%s) %s, %s : %s, index" % (c, out, i, ty))
            f.ind -= 1
            u2, i2 = f.fresh("u"), f.fresh("i")
            f.emit("} do {")
            f.emit("^bb0(%s: %s, %s: index):" % (u2, ty, i2))
            f.ind += 1
            d2 = f.fresh("d")
            f.emit("%s = tensor.dim %s, %s : %s" % (d2, u2, f.const(0), ty))
            v = self.generic(f, [u2], [None], dyn_sizes=[d2])
            nx = f.fresh("i")
            f.emit("%s = arith.addi %s, %s : index" % (nx, i2, f.const(1)))
            f.emit("scf.yield %s, %s : %s, index" % (v, nx, ty))
            f.ind -= 1
            f.emit("}")
            d3 = f.fresh("d")
            f.emit("%s = tensor.dim %s#0, %s : %s" % (d3, r, f.const(0), ty))
            w = self.generic(f, [r + "#0"], [None], dyn_sizes=[d3])
            f.emit("return %s : i64" % self.hash_t(f, w, [None]))
            # within a dim-bounds promise when the program makes one (a size
            # above it stops the planned program: 7 of 302 programs did)
            sizes = [k for k in [1, 5, 16, 100]
                     if self.dim_bounds is None or k <= self.dim_bounds]
            for _ in range(self.rng.randint(1, 2)):
                self.print_(m, self.call(m, f, [m.const(self.rng.choice(sizes))], ["index"]))
        finally:
            self.rng, self.rng2 = rng, rng2

    def scene_repeat(self, m):
        """A function with dynamic temporaries called in an scf.for, its size
        the same for the first calls and then another (an inference loop):
        the runtime plans an episode it saw and replays the next ones."""
        rng, rng2 = self.rng, self.rng2
        self.rng = self.rng2 = self.rng4
        try:
            f = self.new_fn("repeat", [("%nr", "index")], ["i64"])
            n = "%nr"
            t = self.filled(f, [None], [n])
            hs = []
            for _ in range(self.rng.randint(1, 3)):
                t = self.generic(f, [t] + ([t] if self.chance(0.3) else []), [None],
                                 dyn_sizes=[n])
                if self.chance(0.5):
                    hs.append(self.hash_t(f, t, [None]))
            hs.append(self.hash_t(f, t, [None]))
            f.emit("return %s : i64" % self.combine(f, hs))
            sizes = [k for k in [3, 16, 40, 100]
                     if self.dim_bounds is None or k <= self.dim_bounds]
            a, b = self.rng.choice(sizes), self.rng.choice(sizes)
            trips = self.rng.randint(3, 6)
            change = self.rng.randint(1, trips)
            # half the scenes take turns, a then b (two kinds of episode,
            # a plan each); drawn from a stream of their own
            turns = self.rng5.random() < 0.5
            self.meta["scenes"].append("repeat-%s%d" % ("turns-" if turns else "", trips))
            i, c, nn = m.fresh("ri"), m.fresh("rc"), m.fresh("rn")
            m.emit("scf.for %s = %s to %s step %s {" % (i, m.const(0), m.const(trips),
                                                         m.const(1)))
            m.ind += 1
            if turns:
                r = m.fresh("rr")
                m.emit("%s = arith.remui %s, %s : index" % (r, i, m.const(2)))
                m.emit("%s = arith.cmpi eq, %s, %s : index" % (c, r, m.const(0)))
            else:
                m.emit("%s = arith.cmpi ult, %s, %s : index" % (c, i, m.const(change)))
            m.emit("%s = arith.select %s, %s, %s : index" % (nn, c, m.const(a), m.const(b)))
            self.print_(m, self.call(m, f, [nn], ["index"]))
            m.ind -= 1
            m.emit("}")
        finally:
            self.rng, self.rng2 = rng, rng2

    # ------------------------------------------------------------ driver
    def module(self):
        m = Fn(self, "main", [], [])
        m.ind = 2
        kinds = [k for k in ["global", "nospec", "bound", "promise", "hoist", "chain",
                             "padcat", "cross", "cache", "permute"]
                 if k in self.feat]
        if "promise" in self.feat and self.chance(0.4):
            self.dim_bounds = self.rng.choice([8, 16, 32])
            self.meta["dim_bounds"] = self.dim_bounds
        order = [self.rng.choice(kinds) for _ in range(self.size)] if kinds else []
        for k in order:
            if k == "promise":
                bound = self.dim_bounds or self.rng.choice([4, 8, 16, 40])
                self.meta["scenes"].append("promise-" + ("dim-bounds" if self.dim_bounds
                                                         else "max"))
                self.promise_fn(m, bound, False)
            else:
                if k in ("global", "chain", "padcat", "cross", "cache"):
                    self.meta["scenes"].append(k)
                getattr(self, "scene_" + k)(m)
        if "wcarry" in self.feat and self.rng3.random() < 0.3:
            self.scene_wcarry(m)
        if self.shared_wanted():
            self.scene_shared(m)
        if "repeat" in self.feat and self.rng4.random() < 0.3:
            self.scene_repeat(m)
        # with `promise` a third of the programs break one; without it, all do
        if "broken" in self.feat and ("promise" not in self.feat or self.chance(0.35)):
            bound = self.dim_bounds or self.rng.choice([4, 8, 16, 40])
            self.meta["broken"] = bound
            self.meta["scenes"].append("broken-" + ("dim-bounds" if self.dim_bounds else "max"))
            self.promise_fn(m, bound, True)
        m.emit("return")
        out = ["// shapes.py --seed %d --features %s --size %d" %
               (self.seed, ",".join(sorted(self.feat)), self.size),
               "// fuzz-meta: " + json.dumps(self.meta, sort_keys=True),
               "module {" if not self.shared_set else
               "module attributes {memplan.shared_arena = [%s]} {" % ", ".join(
                   "@" + n for n in self.shared_set),
               "  func.func private @printI64(i64)",
               "  func.func private @printNewline()"]
        out += self.globals
        for fn in self.funcs:
            out.append(fn.text())
        out.append(m.text())
        out.append("}")
        return "\n".join(out) + "\n"


def generate(seed, features="all", size=None):
    feats = parse_features(features) if isinstance(features, str) else set(features)
    rng = random.Random(seed * 7919 + 3)
    if size is None:
        size = rng.randint(2, 5)
    g = SGen(seed, feats, size)
    return g.module(), g.meta


def read_meta(text):
    for line in text.split("\n")[:3]:
        if line.startswith("// fuzz-meta: "):
            return json.loads(line[len("// fuzz-meta: "):])
    return {}


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--features", default="all",
                    help="comma list, 'all', 'none', '-name' (known: %s)" % ",".join(FEATURES))
    ap.add_argument("--size", type=int, default=None, help="scenes in main (default 2-5)")
    ap.add_argument("-o", "--output", default="-")
    a = ap.parse_args()
    text, _ = generate(a.seed, a.features, a.size)
    gen.write_output(text, a.output)


if __name__ == "__main__":
    main()
