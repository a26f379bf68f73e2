#!/usr/bin/env python3
"""Random memref-level MLIR programs for differential testing of memplan.

`gen.py --seed N` prints one module: a `main` plus private helpers, already
bufferized (memref allocs, views, scf/cf control flow, linalg on memrefs,
async regions), valid, terminating and deterministic. Every buffer is filled
with values that depend on its own id and is read (hashed) later; `main`
prints one integer per read (`printI64`), so a wrong reuse of bytes by the
planner changes the output. Floating-point values stay small integers (exact).

Knobs: --features restricts what is generated (see FEATURES), --size the
number of top-level statements of main. The same seed and options always
give the same text.
"""
import argparse
import random
import sys

FEATURES = [
    # allocation forms
    "align", "dyn",
    # aliasing views
    "subview", "cast", "reshape", "reinterpret", "view", "transpose",
    "distinct", "ucc", "tensor", "select",
    # structured control flow
    "for", "while", "if", "switch",
    # unstructured control flow, calls, concurrency
    "cfg", "call", "async",
    # data movement and compute
    "copy", "generic", "fill", "matmul",
    # temporaries that die at the op writing a fresh buffer (in-place reuse)
    "dying",
]

ELEM_TYPES = ["f32", "i32", "i8", "f64", "i1"]
ELEM_BYTES = {"f32": 4, "f64": 8, "i32": 4, "i8": 1, "i1": 1, "i64": 8}
FLOAT_LIMIT = 1 << 22  # every float value stays an exact integer below this


def is_float(et):
    return et[0] == "f"


def parse_features(text, known=None, tool="gen.py"):
    """The feature set a comma list names ("all", "none", "-x", "x") out of
    known (gen.py's FEATURES by default); shapes.py parses its own with it."""
    known = FEATURES if known is None else known
    feats = set()
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        if part == "all":
            feats |= set(known)
        elif part == "none":
            feats = set()
        elif part.startswith("-"):
            feats.discard(part[1:])
        elif part in known:
            feats.add(part)
        else:
            raise SystemExit("%s: unknown feature %r (known: %s)" %
                             (tool, part, ",".join(known)))
    return feats


class Root:
    """One underlying allocation (or a function argument's memory)."""
    counter = 0

    def __init__(self, bound=0):
        Root.counter += 1
        self.id = Root.counter
        self.bound = bound      # max |value| of float elements written so far
        self.frozen = False     # seen by bufferization.to_tensor: no more writes
        self.locked = False     # owned by a pending async.execute


class MemType:
    """A memref type: actual sizes, which dims are `?`, element type and layout.

    strides is None for the identity layout; dyn_layout prints strided<[?..], offset: ?>.
    """

    def __init__(self, shape, et, dyn=None, strides=None, offset=0, dyn_layout=False):
        self.shape = list(shape)         # None entries: size known only at run time
        self.et = et
        self.dyn = list(dyn) if dyn else [s is None for s in shape]
        self.strides = list(strides) if strides is not None else None
        self.offset = offset
        self.dyn_layout = dyn_layout

    @property
    def rank(self):
        return len(self.shape)

    def plain(self):
        """Identity layout, every size static and known."""
        return (self.strides is None and not self.dyn_layout and not any(self.dyn)
                and all(s is not None for s in self.shape))

    def static_strided(self):
        return not self.dyn_layout and not any(self.dyn) and all(s is not None for s in self.shape)

    def known_shape(self):
        return all(s is not None for s in self.shape)

    def eff_strides(self):
        if self.strides is not None:
            return self.strides
        st, acc = [], 1
        for s in reversed(self.shape):
            st.append(acc)
            acc *= s
        return list(reversed(st))

    def numel(self):
        n = 1
        for s in self.shape:
            n *= s
        return n

    def __str__(self):
        dims = "".join(("?" if d else str(s)) + "x" for s, d in zip(self.shape, self.dyn))
        t = "memref<%s%s" % (dims, self.et)
        if self.dyn_layout:
            t += ", strided<[%s], offset: ?>" % ", ".join("?" * 1 for _ in self.shape)
        elif self.strides is not None:
            t += ", strided<[%s]%s>" % (", ".join(map(str, self.strides)),
                                        ", offset: %d" % self.offset if self.offset else "")
        return t + ">"


class Buf:
    def __init__(self, name, mt, roots):
        self.name = name
        self.mt = mt
        self.roots = frozenset(roots)

    @property
    def t(self):
        return str(self.mt)

    def writable(self):
        return not any(r.frozen or r.locked for r in self.roots)

    def visible(self):
        return not any(r.locked for r in self.roots)

    def bound(self):
        return max(r.bound for r in self.roots)


class TensorVal:
    def __init__(self, name, shape, et, roots):
        self.name, self.shape, self.et, self.roots = name, shape, et, frozenset(roots)

    def visible(self):
        return not any(r.locked for r in self.roots)


class Ctx:
    """Where statements are being emitted: scope, nesting, sink, loop multiplier."""

    def __init__(self, env, tensors, depth, sink, mult, printing, in_async=False, top=False):
        self.env = env            # list of Buf visible here
        self.tensors = tensors    # list of TensorVal visible here
        self.depth = depth
        self.sink = sink          # memref<1xi64> alloca name accumulating hashes
        self.mult = mult          # how many times this code may run (bounds floats)
        self.printing = printing  # print each hash (main, not async)
        self.in_async = in_async
        self.top = top            # top level of a function body: may open cf blocks
        self.no_cfg = False

    def child(self, mult=1, top=False):
        c = Ctx(list(self.env), list(self.tensors), self.depth + 1, self.sink,
                self.mult * mult, self.printing, self.in_async, top)
        c.no_cfg = True
        return c


class Func:
    def __init__(self, gen, name, params, ret_types):
        self.gen = gen
        self.name = name
        self.params = params        # list of (name, type str)
        self.ret_types = ret_types
        self.consts = {}            # (value, type) -> name
        self.const_lines = []
        self.blocks = [["", []]]    # [label line, lines]; first is entry
        self.n = 0
        self.ind = 1

    def fresh(self, p="v"):
        self.n += 1
        return "%%%s%d" % (p, self.n)

    def label(self):
        self.n += 1
        return "^bb%d" % self.n

    def const(self, v, t="index"):
        key = (v, t)
        if key not in self.consts:
            name = "%%c%s_%s" % (str(v).replace("-", "m").replace(".", "_"), t)
            self.consts[key] = name
            if t == "i1":
                lit = "true" if v else "false"
            elif t in ("f32", "f64"):
                lit = "%s : %s" % (float(v), t)
            else:
                lit = "%d : %s" % (v, t)
            self.const_lines.append("    %s = arith.constant %s" % (name, lit))
        return self.consts[key]

    def emit(self, line):
        self.blocks[-1][1].append("  " * (self.ind + 1) + line)

    def text(self, rng):
        args = ", ".join("%s: %s" % p for p in self.params)
        ret = ""
        if self.ret_types:
            ret = " -> " + (self.ret_types[0] if len(self.ret_types) == 1
                            else "(%s)" % ", ".join(self.ret_types))
        vis = "" if self.name == "main" else "private "
        out = ["  func.func %s@%s(%s)%s {" % (vis, self.name, args, ret)]
        out += self.const_lines
        out += self.blocks[0][1]
        rest = self.blocks[1:]
        if self.gen.shuffle_blocks:
            rest = list(rest)
            rng.shuffle(rest)
        for label, lines in rest:
            out.append("  " + label)
            out += lines
        out.append("  }")
        return "\n".join(out)


class Gen:
    def __init__(self, seed, features, size, max_depth=2):
        self.rng = random.Random(seed)
        self.seed = seed
        self.feat = features
        self.size = size
        self.max_depth = max_depth
        self.funcs = []
        self.helpers = 0
        self.next_id = seed % 97 + 1
        self.uses_async = False
        self.uses_print = True
        self.shuffle_blocks = True
        Root.counter = 0

    # ---------------------------------------------------------------- utils
    def on(self, f):
        return f in self.feat

    def chance(self, p):
        return self.rng.random() < p

    def new_id(self):
        self.next_id += 1
        return self.next_id

    def pick_shape(self, rank=None):
        r = self.rng.choice([0, 1, 1, 2, 2, 2, 3]) if rank is None else rank
        return [self.rng.choice([1, 2, 3, 4, 4, 5, 6, 8]) for _ in range(r)]

    def pick_et(self):
        return self.rng.choice(ELEM_TYPES)

    # ---- element conversions (f is the function being emitted)
    def to_i64(self, f, v, et):
        r = f.fresh()
        if is_float(et):
            f.emit("%s = arith.fptosi %s : %s to i64" % (r, v, et))
        elif et == "i64":
            return v
        elif et == "i1":
            f.emit("%s = arith.extui %s : i1 to i64" % (r, v))
        else:
            f.emit("%s = arith.extsi %s : %s to i64" % (r, v, et))
        return r

    def from_i64(self, f, x, et):
        """x is a small non-negative i64 (< 1000)."""
        r = f.fresh()
        if is_float(et):
            f.emit("%s = arith.sitofp %s : i64 to %s" % (r, x, et))
        elif et == "i64":
            return x
        else:
            f.emit("%s = arith.trunci %s : i64 to %s" % (r, x, et))
        return r

    def index_val(self, f, ivs, rid):
        """(rid * 37 + sum(iv_k * m_k)) mod 997 as i64 (small, positive)."""
        acc = f.const(rid * 37 % 997, "index")
        for iv in ivs:
            m = f.const(self.rng.choice([1, 3, 5, 7, 11, 13]), "index")
            t = f.fresh()
            f.emit("%s = arith.muli %s, %s : index" % (t, iv, m))
            a = f.fresh()
            f.emit("%s = arith.addi %s, %s : index" % (a, acc, t))
            acc = a
        x = f.fresh()
        f.emit("%s = arith.index_cast %s : index to i64" % (x, acc))
        y = f.fresh()
        f.emit("%s = arith.remui %s, %s : i64" % (y, x, f.const(997, "i64")))
        return y

    def dim(self, f, b, k):
        if not b.mt.dyn[k] and b.mt.shape[k] is not None:
            return f.const(b.mt.shape[k])
        d = f.fresh("d")
        f.emit("%s = memref.dim %s, %s : %s" % (d, b.name, f.const(k), b.t))
        return d

    def loops(self, f, b, body, iter_i64=None, reverse_last=False):
        """Nested scf.for over all elements of b; body(ivs, acc) -> new acc or None."""
        ubs = [self.dim(f, b, k) for k in range(b.mt.rank)]
        return self._loops(f, ubs, [], body, iter_i64)

    def _loops(self, f, ubs, ivs, body, acc):
        if len(ivs) == len(ubs):
            return body(ivs, acc)
        iv = f.fresh("i")
        c0, c1 = f.const(0), f.const(1)
        if acc is None:
            f.emit("scf.for %s = %s to %s step %s {" % (iv, c0, ubs[len(ivs)], c1))
            f.ind += 1
            self._loops(f, ubs, ivs + [iv], body, None)
            f.ind -= 1
            f.emit("}")
            return None
        res, a = f.fresh("h"), f.fresh("a")
        f.emit("%s = scf.for %s = %s to %s step %s iter_args(%s = %s) -> (i64) {" %
               (res, iv, c0, ubs[len(ivs)], c1, a, acc))
        f.ind += 1
        r = self._loops(f, ubs, ivs + [iv], body, a)
        f.emit("scf.yield %s : i64" % r)
        f.ind -= 1
        f.emit("}")
        return res

    def idx(self, ivs):
        return "[%s]" % ", ".join(ivs)

    # ---- hashing and sinks
    def hash_buf(self, f, b):
        def body(ivs, acc):
            v = f.fresh()
            f.emit("%s = memref.load %s%s : %s" % (v, b.name, self.idx(ivs), b.t))
            x = self.to_i64(f, v, b.mt.et)
            m = f.fresh()
            f.emit("%s = arith.muli %s, %s : i64" % (m, acc, f.const(31, "i64")))
            n = f.fresh()
            f.emit("%s = arith.addi %s, %s : i64" % (n, m, x))
            return n
        return self.loops(f, b, body, iter_i64=f.const(self.new_id(), "i64"))

    def mix(self, f, ctx, h):
        o = f.fresh()
        c0 = f.const(0)
        f.emit("%s = memref.load %s[%s] : memref<1xi64>" % (o, ctx.sink, c0))
        m = f.fresh()
        f.emit("%s = arith.muli %s, %s : i64" % (m, o, f.const(1000003, "i64")))
        n = f.fresh()
        f.emit("%s = arith.xori %s, %s : i64" % (n, m, h))
        f.emit("memref.store %s, %s[%s] : memref<1xi64>" % (n, ctx.sink, c0))
        if ctx.printing:
            f.emit("func.call @printI64(%s) : (i64) -> ()" % h)
            f.emit("func.call @printNewline() : () -> ()")

    def read(self, f, ctx, b):
        self.mix(f, ctx, self.hash_buf(f, b))

    # ---- buffer choice
    def bufs(self, ctx, pred=None, write=False):
        out = [b for b in ctx.env if b.visible() and (not write or b.writable())
               and (pred is None or pred(b))]
        return out

    def pick(self, ctx, pred=None, write=False, old=True):
        c = self.bufs(ctx, pred, write)
        if not c:
            return None
        if old and len(c) > 2 and self.chance(0.5):
            return self.rng.choice(c[: max(1, len(c) // 2)])  # favour long lives
        return self.rng.choice(c)

    def write_roots(self, b, bound):
        for r in b.roots:
            r.bound = max(r.bound, bound)

    # ---------------------------------------------------------------- allocs
    def alloc(self, f, ctx, mt, fill=True):
        name = f.fresh("m")
        attr = ""
        if self.on("align") and self.chance(0.3):
            attr = " {alignment = %d}" % self.rng.choice([8, 16, 32, 64, 128, 256])
        f.emit("%s = memref.alloc()%s : %s" % (name, attr, mt))
        b = Buf(name, mt, [Root()])
        ctx.env.append(b)
        if fill:
            self.fill(f, ctx, b)
        return b

    def fill(self, f, ctx, b):
        rid = self.new_id()
        et = b.mt.et
        how = self.rng.random()
        if self.on("generic") and b.mt.rank > 0 and how < 0.3:
            r = b.mt.rank
            dims = ", ".join("d%d" % i for i in range(r))
            f.emit("linalg.generic {indexing_maps = [affine_map<(%s) -> (%s)>], "
                   "iterator_types = [%s]} outs(%s : %s) {" %
                   (dims, dims, ", ".join(['"parallel"'] * r), b.name, b.t))
            o = f.fresh("o")
            f.emit("^bb0(%s: %s):" % (o, et))
            f.ind += 1
            ivs = []
            for k in range(r):
                iv = f.fresh("x")
                f.emit("%s = linalg.index %d : index" % (iv, k))
                ivs.append(iv)
            v = self.from_i64(f, self.index_val(f, ivs, rid), et)
            f.emit("linalg.yield %s : %s" % (v, et))
            f.ind -= 1
            f.emit("}")
        elif self.on("fill") and how < 0.5:
            c = f.const(rid % 2 if et == "i1" else rid % 100, et)
            f.emit("linalg.fill ins(%s : %s) outs(%s : %s)" % (c, et, b.name, b.t))
            if b.mt.rank > 0 and b.mt.known_shape() and b.mt.numel() > 0:
                # one distinct element so a stale copy of another fill differs
                ix = [f.const(self.rng.randrange(s)) for s in b.mt.shape]
                c2 = f.const((rid * 7 + 1) % 2 if et == "i1" else (rid * 7 + 1) % 100, et)
                f.emit("memref.store %s, %s%s : %s" % (c2, b.name, self.idx(ix), b.t))
        else:
            def body(ivs, acc):
                v = self.from_i64(f, self.index_val(f, ivs, rid), et)
                f.emit("memref.store %s, %s%s : %s" % (v, b.name, self.idx(ivs), b.t))
            self.loops(f, b, body)
        self.write_roots(b, 1000)

    def new_static(self, f, ctx):
        mt = MemType(self.pick_shape(), self.pick_et())
        return self.alloc(f, ctx, mt)

    def runtime_index(self, f, ctx, lo, span):
        """An index in [lo, lo+span) computed from data at run time."""
        b = self.pick(ctx, lambda b: b.mt.known_shape())
        if b is None:
            return f.const(lo)
        ix = [f.const(self.rng.randrange(s)) if s else f.const(0) for s in b.mt.shape]
        if any(s == 0 for s in b.mt.shape):
            return f.const(lo)
        v = f.fresh()
        f.emit("%s = memref.load %s%s : %s" % (v, b.name, self.idx(ix), b.t))
        x = self.to_i64(f, v, b.mt.et)
        y = f.fresh()
        f.emit("%s = arith.remui %s, %s : i64" % (y, x, f.const(span, "i64")))
        z = f.fresh()
        f.emit("%s = arith.index_cast %s : i64 to index" % (z, y))
        w = f.fresh()
        f.emit("%s = arith.addi %s, %s : index" % (w, z, f.const(lo)))
        return w

    def new_dynamic(self, f, ctx):
        n = self.runtime_index(f, ctx, 1, 5)
        et = self.pick_et()
        inner = self.pick_shape(self.rng.choice([0, 1]))
        mt = MemType([None] + inner, et)
        name = f.fresh("m")
        attr = " {alignment = 64}" if self.on("align") and self.chance(0.3) else ""
        f.emit("%s = memref.alloc(%s)%s : %s" % (name, n, attr, mt))
        b = Buf(name, mt, [Root()])
        ctx.env.append(b)
        self.fill(f, ctx, b)
        return b

    # ---------------------------------------------------------------- views
    def new_view(self, f, ctx):
        kinds = [k for k in ["subview", "cast", "reshape", "reinterpret", "view",
                             "transpose", "distinct", "ucc", "select"] if self.on(k)]
        if not kinds:
            return None
        k = self.rng.choice(kinds)
        return getattr(self, "view_" + k)(f, ctx)

    def add_view(self, ctx, name, mt, roots):
        b = Buf(name, mt, roots)
        ctx.env.append(b)
        return b

    def view_subview(self, f, ctx):
        b = self.pick(ctx, lambda b: b.mt.static_strided() and b.mt.rank > 0
                      and min(b.mt.shape) > 0)
        if b is None:
            return None
        offs, sizes, steps = [], [], []
        for s in b.mt.shape:
            st = 2 if s >= 4 and self.chance(0.2) else 1
            sz = self.rng.randint(1, (s + st - 1) // st)
            off = self.rng.randint(0, s - ((sz - 1) * st + 1))
            offs.append(off), sizes.append(sz), steps.append(st)
        bs = b.mt.eff_strides()
        mt = MemType(sizes, b.mt.et, strides=[x * y for x, y in zip(bs, steps)],
                     offset=b.mt.offset + sum(o * x for o, x in zip(offs, bs)))
        name = f.fresh("sv")
        f.emit("%s = memref.subview %s[%s] [%s] [%s] : %s to %s" %
               (name, b.name, ", ".join(map(str, offs)), ", ".join(map(str, sizes)),
                ", ".join(map(str, steps)), b.t, mt))
        return self.add_view(ctx, name, mt, b.roots)

    def view_cast(self, f, ctx):
        b = self.pick(ctx, lambda b: b.mt.static_strided() and b.mt.rank > 0)
        if b is None:
            return None
        if b.mt.strides is None and self.chance(0.5):
            dyn = [self.chance(0.5) for _ in b.mt.shape]
            dyn[self.rng.randrange(b.mt.rank)] = True
            mt = MemType(b.mt.shape, b.mt.et, dyn=dyn)
        else:
            mt = MemType(b.mt.shape, b.mt.et, strides=b.mt.eff_strides(),
                         offset=b.mt.offset, dyn_layout=True)
        name = f.fresh("cast")
        f.emit("%s = memref.cast %s : %s to %s" % (name, b.name, b.t, mt))
        return self.add_view(ctx, name, mt, b.roots)

    def view_reshape(self, f, ctx):
        b = self.pick(ctx, lambda b: b.mt.plain() and b.mt.rank > 0)
        if b is None:
            return None
        shape = b.mt.shape
        if b.mt.rank >= 2 and self.chance(0.5):
            # collapse two neighbouring dims
            k = self.rng.randrange(b.mt.rank - 1)
            groups = [[i] for i in range(k)] + [[k, k + 1]] + \
                     [[i] for i in range(k + 2, b.mt.rank)]
            ns = shape[:k] + [shape[k] * shape[k + 1]] + shape[k + 2:]
            mt = MemType(ns, b.mt.et)
            name = f.fresh("col")
            f.emit("%s = memref.collapse_shape %s [%s] : %s into %s" %
                   (name, b.name, ", ".join("[%s]" % ", ".join(map(str, g)) for g in groups),
                    b.t, mt))
        else:
            k = self.rng.randrange(b.mt.rank)
            s = shape[k]
            divs = [d for d in range(1, s + 1) if s % d == 0]
            d = self.rng.choice(divs)
            ns = shape[:k] + [d, s // d] + shape[k + 1:]
            groups, j = [], 0
            for i in range(b.mt.rank):
                if i == k:
                    groups.append([j, j + 1])
                    j += 2
                else:
                    groups.append([j])
                    j += 1
            mt = MemType(ns, b.mt.et)
            name = f.fresh("exp")
            f.emit("%s = memref.expand_shape %s [%s] output_shape [%s] : %s into %s" %
                   (name, b.name, ", ".join("[%s]" % ", ".join(map(str, g)) for g in groups),
                    ", ".join(map(str, ns)), b.t, mt))
        return self.add_view(ctx, name, mt, b.roots)

    def view_reinterpret(self, f, ctx):
        b = self.pick(ctx, lambda b: b.mt.plain() and b.mt.numel() >= 2)
        if b is None:
            return None
        n = b.mt.numel()
        off = self.rng.randrange(n // 2 + 1)
        left = n - off
        if left >= 4 and self.chance(0.5):
            cols = self.rng.choice([c for c in (2, 3, 4) if c <= left])
            rows = self.rng.randint(1, left // cols)
            sizes, strides = [rows, cols], [cols, 1]
        else:
            sizes, strides = [self.rng.randint(1, left)], [1]
        mt = MemType(sizes, b.mt.et, strides=strides, offset=off)
        name = f.fresh("rc")
        f.emit("%s = memref.reinterpret_cast %s to offset: [%d], sizes: [%s], strides: [%s]"
               " : %s to %s" % (name, b.name, off, ", ".join(map(str, sizes)),
                                ", ".join(map(str, strides)), b.t, mt))
        return self.add_view(ctx, name, mt, b.roots)

    def view_view(self, f, ctx):
        b = self.pick(ctx, lambda b: b.mt.plain() and b.mt.et == "i8" and b.mt.rank == 1
                      and b.mt.shape[0] >= 8)
        if b is None:
            # make an i8 byte buffer to view into
            mt = MemType([self.rng.choice([16, 24, 32, 48, 64])], "i8")
            b = self.alloc(f, ctx, mt)
        nbytes = b.mt.shape[0]
        et = self.rng.choice(["f32", "i32", "i8", "f64"])
        eb = ELEM_BYTES[et]
        slots = nbytes // eb
        first = self.rng.randrange(slots)
        count = self.rng.randint(1, slots - first)
        name = f.fresh("bv")
        off = f.const(first * eb)
        if self.chance(0.3):
            mt = MemType([None], et)
            mt.shape = [count]  # actual size known, type says ?
            f.emit("%s = memref.view %s[%s][%s] : %s to %s" %
                   (name, b.name, off, f.const(count), b.t, mt))
        elif count % 2 == 0 and self.chance(0.5):
            mt = MemType([2, count // 2], et)
            f.emit("%s = memref.view %s[%s][] : %s to %s" % (name, b.name, off, b.t, mt))
        else:
            mt = MemType([count], et)
            f.emit("%s = memref.view %s[%s][] : %s to %s" % (name, b.name, off, b.t, mt))
        v = self.add_view(ctx, name, mt, b.roots)
        if v.writable() and self.chance(0.5):
            self.fill(f, ctx, v)
        return v

    def view_transpose(self, f, ctx):
        b = self.pick(ctx, lambda b: b.mt.static_strided() and b.mt.rank >= 2)
        if b is None:
            return None
        perm = list(range(b.mt.rank))
        while perm == sorted(perm):
            self.rng.shuffle(perm)
        bs = b.mt.eff_strides()
        mt = MemType([b.mt.shape[p] for p in perm], b.mt.et,
                     strides=[bs[p] for p in perm], offset=b.mt.offset)
        ds = ", ".join("d%d" % i for i in range(b.mt.rank))
        name = f.fresh("tr")
        f.emit("%s = memref.transpose %s (%s) -> (%s) : %s to %s" %
               (name, b.name, ds, ", ".join("d%d" % p for p in perm), b.t, mt))
        return self.add_view(ctx, name, mt, b.roots)

    def view_distinct(self, f, ctx):
        cands = self.bufs(ctx)
        self.rng.shuffle(cands)
        chosen, roots = [], set()
        for b in cands:
            if not (b.roots & roots):
                chosen.append(b)
                roots |= b.roots
            if len(chosen) == 3 or (len(chosen) == 2 and self.chance(0.5)):
                break
        if len(chosen) < 2:
            return None
        name = f.fresh("do")
        f.emit("%s:%d = memref.distinct_objects %s : %s" %
               (name, len(chosen), ", ".join(b.name for b in chosen),
                ", ".join(b.t for b in chosen)))
        out = None
        for i, b in enumerate(chosen):
            out = self.add_view(ctx, "%s#%d" % (name, i), b.mt, b.roots)
        return out

    def view_ucc(self, f, ctx):
        b = self.pick(ctx)
        if b is None:
            return None
        name = f.fresh("ucc")
        f.emit("%s = builtin.unrealized_conversion_cast %s : %s to %s" % (name, b.name, b.t, b.t))
        return self.add_view(ctx, name, b.mt, b.roots)

    def cond(self, f, ctx):
        """An i1 computed from data (or a constant)."""
        if self.chance(0.25):
            return f.const(self.chance(0.5), "i1")
        x = self.runtime_index(f, ctx, 0, 2)
        c = f.fresh("cond")
        f.emit("%s = arith.cmpi eq, %s, %s : index" % (c, x, f.const(0)))
        return c

    def view_select(self, f, ctx):
        b = self.pick(ctx)
        if b is None:
            return None
        others = [o for o in self.bufs(ctx) if o.t == b.t and o is not b]
        if not others:
            o = self.alloc(f, ctx, MemType(b.mt.shape, b.mt.et)) if b.mt.plain() else None
            if o is None:
                return None
        else:
            o = self.rng.choice(others)
        c = self.cond(f, ctx)
        name = f.fresh("sel")
        f.emit("%s = arith.select %s, %s, %s : %s" % (name, c, b.name, o.name, b.t))
        return self.add_view(ctx, name, b.mt, b.roots | o.roots)

    # ---------------------------------------------------------------- tensors
    def to_tensor(self, f, ctx):
        b = self.pick(ctx, lambda b: b.mt.plain() and b.mt.numel() > 0, write=True)
        if b is None:
            return
        name = f.fresh("tt")
        tt = "tensor<%s%s>" % ("".join("%dx" % s for s in b.mt.shape), b.mt.et)
        f.emit("%s = bufferization.to_tensor %s restrict : %s to %s" % (name, b.name, b.t, tt))
        for r in b.roots:
            r.frozen = True
        ctx.tensors.append(TensorVal(name, b.mt.shape, b.mt.et, b.roots))

    def tensor_alias(self, f, ctx):
        """A new tensor value aliasing a to_tensor result: a slice, reshape, cast,
        select or scf.if yield (bufferization turns each into a view/alias)."""
        ts = [t for t in ctx.tensors if t.visible()]
        if not ts:
            return
        t = self.rng.choice(ts)
        tt = "tensor<%s%s>" % ("".join("%dx" % s for s in t.shape), t.et)
        kinds = ["select", "if"]
        if t.shape:
            kinds += ["slice", "cast"]
        if len(t.shape) >= 2:
            kinds.append("collapse")
        k = self.rng.choice(kinds)
        name = f.fresh("ta")
        if k == "slice":
            offs, sizes = [], []
            for d in t.shape:
                sz = self.rng.randint(1, d)
                offs.append(self.rng.randint(0, d - sz))
                sizes.append(sz)
            rt = "tensor<%s%s>" % ("".join("%dx" % s for s in sizes), t.et)
            f.emit("%s = tensor.extract_slice %s[%s] [%s] [%s] : %s to %s" % (
                name, t.name, ", ".join(map(str, offs)), ", ".join(map(str, sizes)),
                ", ".join("1" for _ in sizes), tt, rt))
            shape = sizes
        elif k == "cast":
            shape = t.shape
            rt = "tensor<%sx%s>" % ("x".join(["?"] + [str(d) for d in t.shape[1:]]), t.et)
            f.emit("%s = tensor.cast %s : %s to %s" % (name, t.name, tt, rt))
            c = f.fresh("ta")
            f.emit("%s = tensor.cast %s : %s to %s" % (c, name, rt, tt))
            name = c
        elif k == "collapse":
            shape = [t.shape[0] * t.shape[1]] + t.shape[2:]
            groups = "[[0, 1]%s]" % "".join(", [%d]" % i for i in range(2, len(t.shape)))
            rt = "tensor<%s%s>" % ("".join("%dx" % s for s in shape), t.et)
            f.emit("%s = tensor.collapse_shape %s %s : %s into %s" % (name, t.name, groups, tt, rt))
        else:
            shape = t.shape
            others = [o for o in ts if o.shape == t.shape and o.et == t.et]
            o = self.rng.choice(others)
            cnd = self.cond(f, ctx)
            if k == "select":
                f.emit("%s = arith.select %s, %s, %s : %s" % (name, cnd, t.name, o.name, tt))
            else:
                f.emit("%s = scf.if %s -> (%s) {" % (name, cnd, tt))
                f.emit("  scf.yield %s : %s" % (t.name, tt))
                f.emit("} else {")
                f.emit("  scf.yield %s : %s" % (o.name, tt))
                f.emit("}")
            ctx.tensors.append(TensorVal(name, shape, t.et, t.roots | o.roots))
            return
        ctx.tensors.append(TensorVal(name, shape, t.et, t.roots))

    def read_tensor(self, f, ctx):
        ts = [t for t in ctx.tensors if t.visible()]
        if not ts:
            return False
        t = self.rng.choice(ts)
        tt = "tensor<%s%s>" % ("".join("%dx" % s for s in t.shape), t.et)
        acc = f.const(self.new_id(), "i64")
        for _ in range(self.rng.randint(1, 3)):
            ix = [f.const(self.rng.randrange(s)) for s in t.shape]
            v = f.fresh("ex")
            f.emit("%s = tensor.extract %s%s : %s" % (v, t.name, self.idx(ix), tt))
            x = self.to_i64(f, v, t.et)
            m = f.fresh()
            f.emit("%s = arith.muli %s, %s : i64" % (m, acc, f.const(31, "i64")))
            a = f.fresh()
            f.emit("%s = arith.addi %s, %s : i64" % (a, m, x))
            acc = a
        self.mix(f, ctx, acc)
        return True

    # ---------------------------------------------------------------- compute
    def update(self, f, ctx):
        """In-place read-modify-write of a buffer (through whatever view)."""
        b = self.pick(ctx, write=True)
        if b is None:
            return
        et = b.mt.et
        k = self.rng.randint(1, 9)
        if is_float(et) and b.bound() + k * ctx.mult * 4 > FLOAT_LIMIT:
            return self.fill(f, ctx, b)

        def body(ivs, acc):
            v = f.fresh()
            f.emit("%s = memref.load %s%s : %s" % (v, b.name, self.idx(ivs), b.t))
            r = f.fresh()
            if is_float(et):
                f.emit("%s = arith.addf %s, %s : %s" % (r, v, f.const(k, et), et))
            elif et == "i1":
                f.emit("%s = arith.xori %s, %s : i1" % (r, v, f.const(1, "i1")))
            else:
                m = f.fresh()
                f.emit("%s = arith.muli %s, %s : %s" % (m, v, f.const(3, et), et))
                f.emit("%s = arith.addi %s, %s : %s" % (r, m, f.const(k, et), et))
            f.emit("memref.store %s, %s%s : %s" % (r, b.name, self.idx(ivs), b.t))
        self.loops(f, b, body)
        self.write_roots(b, b.bound() + k * ctx.mult * 4)

    def binop(self, f, et, x, y, bx, by):
        r = f.fresh()
        if is_float(et):
            if bx * by < FLOAT_LIMIT and self.chance(0.3):
                f.emit("%s = arith.mulf %s, %s : %s" % (r, x, y, et))
                return r, bx * by
            op = self.rng.choice(["addf", "subf"])
            f.emit("%s = arith.%s %s, %s : %s" % (r, op, x, y, et))
            return r, bx + by
        ops = ["xori", "andi", "ori"] if et == "i1" else ["addi", "subi", "muli", "xori"]
        f.emit("%s = arith.%s %s, %s : %s" % (r, self.rng.choice(ops), x, y, et))
        return r, 0

    def elementwise(self, f, ctx):
        a = self.pick(ctx, lambda b: b.mt.known_shape() and b.mt.rank > 0)
        if a is None:
            return
        same = [b for b in self.bufs(ctx) if b.mt.shape == a.mt.shape and b.mt.et == a.mt.et
                and b.mt.known_shape()]
        b = self.rng.choice(same)
        if is_float(a.mt.et) and a.bound() + b.bound() > FLOAT_LIMIT:
            return
        dst = None
        if self.chance(0.3):
            cand = [d for d in self.bufs(ctx, write=True) if d.mt.shape == a.mt.shape
                    and d.mt.et == a.mt.et and not (d.roots & (a.roots | b.roots))]
            dst = self.rng.choice(cand) if cand else None
        if dst is None:
            dst = self.alloc(f, ctx, MemType(a.mt.shape, a.mt.et), fill=False)
        r = a.mt.rank
        dims = ", ".join("d%d" % i for i in range(r))
        # reversing a dimension of an input makes in-place reuse visible
        rev = self.rng.randrange(r)
        amap = "affine_map<(%s) -> (%s)>" % (dims, dims)
        terms = ["d%d" % i if i != rev else "%d - d%d" % (a.mt.shape[i] - 1, i) for i in range(r)]
        rmap = "affine_map<(%s) -> (%s)>" % (dims, ", ".join(terms))
        et = a.mt.et
        f.emit("linalg.generic {indexing_maps = [%s, %s, %s], iterator_types = [%s]} "
               "ins(%s, %s : %s, %s) outs(%s : %s) {" %
               (rmap, amap, amap, ", ".join(['"parallel"'] * r), a.name, b.name, a.t, b.t,
                dst.name, dst.t))
        x, y, o = f.fresh("p"), f.fresh("p"), f.fresh("p")
        f.emit("^bb0(%s: %s, %s: %s, %s: %s):" % (x, et, y, et, o, et))
        f.ind += 1
        v, bound = self.binop(f, et, x, y, a.bound(), b.bound())
        f.emit("linalg.yield %s : %s" % (v, et))
        f.ind -= 1
        f.emit("}")
        self.write_roots(dst, bound)

    def dying(self, f, ctx):
        """A chain of temporaries, each dying at the op that writes the next
        fresh buffer (elementwise generic, or memref.copy): what tensor-mem-plan
        inplace=true may run in place. A reversed dimension or a unit-dim map
        sometimes, which must not (or may) share bytes. Only the last buffer of
        the chain stays visible to later statements."""
        mt = MemType(self.pick_shape(self.rng.choice([1, 2, 2, 3])), self.pick_et())
        t = self.alloc(f, ctx, mt)
        ctx.env.remove(t)
        r = mt.rank
        dims = ", ".join("d%d" % i for i in range(r))
        ident = "affine_map<(%s) -> (%s)>" % (dims, dims)
        for _ in range(self.rng.choice([1, 1, 2, 3])):
            d = self.alloc(f, ctx, MemType(mt.shape, mt.et), fill=False)
            ctx.env.remove(d)
            if self.on("copy") and self.chance(0.25):
                f.emit("memref.copy %s, %s : %s to %s" % (t.name, d.name, t.t, d.t))
                self.write_roots(d, t.bound())
                t = d
                continue
            how = self.rng.random()
            terms = ["d%d" % i for i in range(r)]
            if how < 0.2:  # reversed: another element, no sharing
                k = self.rng.randrange(r)
                terms[k] = "%d - d%d" % (mt.shape[k] - 1, k)
            elif how < 0.35:  # 0 on unit dimensions: the identity on the loops
                terms = ["0" if mt.shape[i] == 1 else "d%d" % i for i in range(r)]
            imap = "affine_map<(%s) -> (%s)>" % (dims, ", ".join(terms))
            f.emit("linalg.generic {indexing_maps = [%s, %s], iterator_types = [%s]} "
                   "ins(%s : %s) outs(%s : %s) {" %
                   (imap, ident, ", ".join(['"parallel"'] * r), t.name, t.t, d.name, d.t))
            x, o = f.fresh("p"), f.fresh("p")
            f.emit("^bb0(%s: %s, %s: %s):" % (x, mt.et, o, mt.et))
            f.ind += 1
            bx = t.bound()
            if is_float(mt.et) and 2 * bx > FLOAT_LIMIT:
                v, bound = x, bx
            else:
                v, bound = self.binop(f, mt.et, x, x, bx, bx)
            f.emit("linalg.yield %s : %s" % (v, mt.et))
            f.ind -= 1
            f.emit("}")
            self.write_roots(d, bound)
            t = d
        ctx.env.append(t)

    def copy(self, f, ctx):
        src = self.pick(ctx, lambda b: b.mt.known_shape())
        if src is None:
            return
        cand = [d for d in self.bufs(ctx, write=True) if d.mt.shape == src.mt.shape
                and d.mt.et == src.mt.et and not (d.roots & src.roots) and d.mt.known_shape()]
        if cand and self.chance(0.5):
            dst = self.rng.choice(cand)
        else:
            dst = self.alloc(f, ctx, MemType(src.mt.shape, src.mt.et), fill=False)
        f.emit("memref.copy %s, %s : %s to %s" % (src.name, dst.name, src.t, dst.t))
        self.write_roots(dst, src.bound())

    def matmul(self, f, ctx):
        et = self.rng.choice(["f32", "i32", "f64"])
        m, k, n = (self.rng.randint(1, 5) for _ in range(3))

        def operand(shape):
            c = [b for b in self.bufs(ctx) if b.mt.et == et and b.mt.shape == shape
                 and b.bound() <= 1000]
            if c and self.chance(0.6):
                return self.rng.choice(c)
            return self.alloc(f, ctx, MemType(shape, et))
        a = operand([m, k])
        b = operand([k, n])
        c = self.alloc(f, ctx, MemType([m, n], et), fill=False)
        f.emit("linalg.fill ins(%s : %s) outs(%s : %s)" % (f.const(0, et), et, c.name, c.t))
        f.emit("linalg.matmul ins(%s, %s : %s, %s) outs(%s : %s)" %
               (a.name, b.name, a.t, b.t, c.name, c.t))
        self.write_roots(c, a.bound() * b.bound() * k)

    def point(self, f, ctx):
        """A single memref.load/store pair."""
        b = self.pick(ctx, lambda b: b.mt.known_shape() and b.mt.numel() > 0, write=True)
        if b is None:
            return
        ix = [f.const(self.rng.randrange(s)) for s in b.mt.shape]
        c = f.const(self.new_id() % 2 if b.mt.et == "i1" else self.new_id() % 100, b.mt.et)
        f.emit("memref.store %s, %s%s : %s" % (c, b.name, self.idx(ix), b.t))
        self.write_roots(b, 100)
        r = self.pick(ctx, lambda b: b.mt.known_shape() and b.mt.numel() > 0)
        ix = [f.const(self.rng.randrange(s)) for s in r.mt.shape]
        v = f.fresh()
        f.emit("%s = memref.load %s%s : %s" % (v, r.name, self.idx(ix), r.t))
        self.mix(f, ctx, self.to_i64(f, v, r.mt.et))

    # ---------------------------------------------------------------- regions
    def carried_body(self, f, ctx, trips, name, carry, roots, fresh_root):
        """One trip of a loop that carries a buffer in `name`: statements,
        then the buffer for the next trip (a fresh one or the updated one)."""
        c = ctx.child(trips)
        cur = Buf(name, carry.mt, roots)
        c.env.append(cur)
        self.region_body(f, c, self.rng.randint(1, 3))
        if fresh_root is not None:
            return self.replacement(f, c, cur, fresh_root)
        if cur.writable():
            self.update_buf(f, c, cur)
        return cur

    def region_body(self, f, ctx, n):
        start = len(ctx.env)
        for _ in range(n):
            self.stmt(f, ctx)
        # read what this region made, so its bytes must survive until here
        for b in ctx.env[start:]:
            if b.visible() and self.chance(0.6):
                self.read(f, ctx, b)

    def carried(self, ctx):
        """A buffer to carry through a region, and whether a fresh one may replace it."""
        b = self.pick(ctx, lambda b: b.mt.known_shape())
        if b is None:
            return None
        return b

    def replacement(self, f, ctx, cur, root):
        """Alloc a fresh buffer of cur's type, filled from cur reversed (+ its own id)."""
        mt = MemType(cur.mt.shape, cur.mt.et)
        name = f.fresh("m")
        f.emit("%s = memref.alloc() : %s" % (name, mt))
        t = Buf(name, mt, [root])
        et = mt.et
        rid = self.new_id()
        if mt.rank == 0 or mt.numel() == 0 or (is_float(et) and cur.bound() + 1000 > FLOAT_LIMIT):
            self.fill(f, ctx, t)
            return t

        def body(ivs, acc):
            last = mt.shape[-1] - 1
            r = f.fresh()
            f.emit("%s = arith.subi %s, %s : index" % (r, f.const(last), ivs[-1]))
            src = ivs[:-1] + [r]
            v = f.fresh()
            f.emit("%s = memref.load %s%s : %s" % (v, cur.name, self.idx(src), cur.t))
            w = self.from_i64(f, self.index_val(f, ivs, rid), et)
            s, _ = self.binop(f, et, v, w, 0, 0) if not is_float(et) else (None, 0)
            if s is None:
                s = f.fresh()
                f.emit("%s = arith.addf %s, %s : %s" % (s, v, w, et))
            f.emit("memref.store %s, %s%s : %s" % (s, t.name, self.idx(ivs), t.t))
        self.loops(f, t, body)
        root.bound = max(root.bound, cur.bound() + 1000)
        return t

    def scf_for(self, f, ctx):
        trips = self.rng.randint(1, 3)
        ub = f.const(trips)
        carry = self.carried(ctx) if self.chance(0.7) else None
        iv = f.fresh("i")
        if carry is None:
            f.emit("scf.for %s = %s to %s step %s {" % (iv, f.const(0), ub, f.const(1)))
            f.ind += 1
            c = ctx.child(trips)
            self.region_body(f, c, self.rng.randint(1, 4))
            f.ind -= 1
            f.emit("}")
            return
        fresh_root = Root() if carry.mt.plain() and self.chance(0.6) else None
        it, res = f.fresh("it"), f.fresh("r")
        f.emit("%s = scf.for %s = %s to %s step %s iter_args(%s = %s) -> (%s) {" %
               (res, iv, f.const(0), ub, f.const(1), it, carry.name, carry.t))
        f.ind += 1
        c = ctx.child(trips)
        roots = carry.roots | ({fresh_root} if fresh_root else set())
        cur = Buf(it, carry.mt, roots)
        c.env.append(cur)
        self.region_body(f, c, self.rng.randint(1, 3))
        out = cur
        if fresh_root is not None:
            out = self.replacement(f, c, cur, fresh_root)
        elif cur.writable() and self.chance(0.5):
            self.fill(f, c, cur) if self.chance(0.3) else self.update_buf(f, c, cur)
        f.emit("scf.yield %s : %s" % (out.name, out.t))
        f.ind -= 1
        f.emit("}")
        ctx.env.append(Buf(res, carry.mt, roots))

    def update_buf(self, f, ctx, b):
        save = ctx.env
        ctx.env = [b]
        self.update(f, ctx)
        ctx.env = save

    def scf_while(self, f, ctx):
        carry = self.carried(ctx)
        if carry is None:
            return
        trips = self.rng.randint(1, 3)
        fresh_root = Root() if carry.mt.plain() and self.chance(0.6) else None
        roots = carry.roots | ({fresh_root} if fresh_root else set())
        res, b0, k0 = f.fresh("w"), f.fresh("wb"), f.fresh("wk")
        f.emit("%s:2 = scf.while (%s = %s, %s = %s) : (%s, index) -> (%s, index) {" %
               (res, b0, carry.name, k0, f.const(0), carry.t, carry.t))
        f.ind += 1
        if self.chance(0.5):
            # the before region runs trips + 1 times
            cb = ctx.child(trips + 1)
            cb.env.append(Buf(b0, carry.mt, roots))
            self.region_body(f, cb, self.rng.randint(1, 2))
        go = f.fresh("go")
        f.emit("%s = arith.cmpi slt, %s, %s : index" % (go, k0, f.const(trips)))
        f.emit("scf.condition(%s) %s, %s : %s, index" % (go, b0, k0, carry.t))
        f.ind -= 1
        b1, k1 = f.fresh("wb"), f.fresh("wk")
        f.emit("} do {")
        f.emit("^bb0(%s: %s, %s: index):" % (b1, carry.t, k1))
        f.ind += 1
        out = self.carried_body(f, ctx, trips, b1, carry, roots, fresh_root)
        k2 = f.fresh("wk")
        f.emit("%s = arith.addi %s, %s : index" % (k2, k1, f.const(1)))
        f.emit("scf.yield %s, %s : %s, index" % (out.name, k2, carry.t))
        f.ind -= 1
        f.emit("}")
        ctx.env.append(Buf(res + "#0", carry.mt, roots))

    def branch_value(self, f, c, carry, others):
        """Statements of one branch, then the buffer it yields (carry's type)."""
        self.region_body(f, c, self.rng.randint(0, 2))
        choice = self.rng.random()
        if choice < 0.4 and carry.mt.plain():
            root = Root()
            t = Buf(f.fresh("m"), MemType(carry.mt.shape, carry.mt.et), [root])
            f.emit("%s = memref.alloc() : %s" % (t.name, t.t))
            c.env.append(t)
            self.fill(f, c, t)
            return t
        cands = [o for o in others if o.t == carry.t]
        return self.rng.choice(cands) if cands else carry

    def scf_if(self, f, ctx):
        carry = self.carried(ctx)
        if carry is None:
            return
        cnd = self.cond(f, ctx)
        res = f.fresh("if")
        f.emit("%s = scf.if %s -> (%s) {" % (res, cnd, carry.t))
        f.ind += 1
        c1 = ctx.child()
        y1 = self.branch_value(f, c1, carry, self.bufs(ctx))
        f.emit("scf.yield %s : %s" % (y1.name, carry.t))
        f.ind -= 1
        f.emit("} else {")
        f.ind += 1
        c2 = ctx.child()
        y2 = self.branch_value(f, c2, carry, self.bufs(ctx))
        f.emit("scf.yield %s : %s" % (y2.name, carry.t))
        f.ind -= 1
        f.emit("}")
        ctx.env.append(Buf(res, carry.mt, y1.roots | y2.roots))

    def scf_switch(self, f, ctx):
        carry = self.carried(ctx)
        if carry is None:
            return
        sel = self.runtime_index(f, ctx, 0, 3)
        res = f.fresh("sw")
        ncase = self.rng.randint(1, 2)
        f.emit("%s = scf.index_switch %s -> %s" % (res, sel, carry.t))
        roots = set()
        for k in list(range(ncase)) + ["default"]:
            f.emit("case %d {" % k if k != "default" else "default {")
            f.ind += 1
            c = ctx.child()
            y = self.branch_value(f, c, carry, self.bufs(ctx))
            roots |= y.roots
            f.emit("scf.yield %s : %s" % (y.name, carry.t))
            f.ind -= 1
            f.emit("}")
        ctx.env.append(Buf(res, carry.mt, roots))

    # ---------------------------------------------------------------- cf
    def open_block(self, f, label, args=()):
        head = label
        if args:
            head += "(%s)" % ", ".join("%s: %s" % a for a in args)
        f.blocks.append([head + ":", []])

    def cfg(self, f, ctx):
        kind = self.rng.choice(["loop", "diamond", "switch"])
        carry = self.carried(ctx)
        if carry is None:
            return
        if kind == "loop":
            trips = self.rng.randint(1, 3)
            H, B, E = f.label(), f.label(), f.label()
            iv, bb = f.fresh("ci"), f.fresh("cb")
            f.emit("cf.br %s(%s, %s : index, %s)" % (H, f.const(0), carry.name, carry.t))
            fresh_root = Root() if carry.mt.plain() and self.chance(0.7) else None
            roots = carry.roots | ({fresh_root} if fresh_root else set())
            self.open_block(f, H, [(iv, "index"), (bb, carry.t)])
            if self.chance(0.6):
                # the header runs between trips (and is often laid out after the body)
                save_mult, save_cfg = ctx.mult, ctx.no_cfg
                ctx.mult, ctx.no_cfg = ctx.mult * (trips + 1), True
                for _ in range(self.rng.randint(1, 2)):
                    self.stmt(f, ctx)
                ctx.mult, ctx.no_cfg = save_mult, save_cfg
            go = f.fresh("go")
            f.emit("%s = arith.cmpi slt, %s, %s : index" % (go, iv, f.const(trips)))
            f.emit("cf.cond_br %s, %s, %s" % (go, B, E))
            self.open_block(f, B)
            out = self.carried_body(f, ctx, trips, bb, carry, roots, fresh_root)
            nx = f.fresh("ci")
            f.emit("%s = arith.addi %s, %s : index" % (nx, iv, f.const(1)))
            f.emit("cf.br %s(%s, %s : index, %s)" % (H, nx, out.name, carry.t))
            self.open_block(f, E)
            ctx.env.append(Buf(bb, carry.mt, roots))
            return
        M = f.label()
        arg = f.fresh("cm")
        if kind == "diamond":
            T, F = f.label(), f.label()
            cnd = self.cond(f, ctx)
            f.emit("cf.cond_br %s, %s, %s" % (cnd, T, F))
            targets = [T, F]
        else:
            sel = self.runtime_index(f, ctx, 0, 3)
            s32 = f.fresh()
            f.emit("%s = arith.index_cast %s : index to i32" % (s32, sel))
            targets = [f.label() for _ in range(self.rng.randint(2, 3))]
            cases = ", ".join("%d: %s" % (i, t) for i, t in enumerate(targets[1:]))
            f.emit("cf.switch %s : i32, [default: %s, %s]" % (s32, targets[0], cases))
        roots = set()
        for t in targets:
            self.open_block(f, t)
            c = ctx.child()
            y = self.branch_value(f, c, carry, self.bufs(ctx))
            roots |= y.roots
            f.emit("cf.br %s(%s : %s)" % (M, y.name, carry.t))
        self.open_block(f, M, [(arg, carry.t)])
        ctx.env.append(Buf(arg, carry.mt, roots))

    # ---------------------------------------------------------------- calls
    def call(self, f, ctx):
        if ctx.depth > 0 and self.chance(0.5) or f.name != "main" or self.helpers >= 6:
            return
        args = []
        roots = set()
        for b in self.bufs(ctx):
            if not (b.roots & roots) and len(args) < 3 and self.chance(0.4):
                args.append(b)
                roots |= b.roots
        self.helpers += 1
        name = "helper%d" % self.helpers
        returns_buf = self.chance(0.3)
        ret_mt = MemType(self.pick_shape(), self.pick_et()) if returns_buf else None
        params = []
        h = Func(self, name, [], ["i64"] + ([str(ret_mt)] if returns_buf else []))
        penv = []
        proots = []
        for i, a in enumerate(args):
            pn = "%%arg%d" % i
            h.params.append((pn, a.t))
            r = Root(a.bound())
            r.frozen = not a.writable()
            proots.append(r)
            penv.append(Buf(pn, a.mt, [r]))
        self.body(h, penv, printing=False, n=self.rng.randint(2, 6), mult=ctx.mult,
                  ret_buf=ret_mt)
        for a, r in zip(args, proots):
            self.write_roots(a, r.bound)
        self.funcs.append(h)
        res = f.fresh("call")
        rt = h.ret_types
        f.emit("%s%s = func.call @%s(%s) : (%s) -> %s" % (
            res, ":2" if returns_buf else "", name, ", ".join(a.name for a in args),
            ", ".join(a.t for a in args), rt[0] if len(rt) == 1 else "(%s)" % ", ".join(rt)))
        self.mix(f, ctx, res + ("#0" if returns_buf else ""))
        if returns_buf:
            b = Buf(res + "#1", ret_mt, [Root(1000)])
            ctx.env.append(b)

    # ---------------------------------------------------------------- async
    def async_exec(self, f, ctx):
        if ctx.in_async:
            return
        self.uses_async = True
        owned = set()
        for b in self.bufs(ctx):
            if self.chance(0.3):
                owned |= b.roots
        tok, val = f.fresh("tok"), f.fresh("av")
        f.emit("%s, %s = async.execute -> !async.value<i64> {" % (tok, val))
        f.ind += 1
        sink = f.fresh("asink")
        f.emit("%s = memref.alloca() : memref<1xi64>" % sink)
        f.emit("memref.store %s, %s[%s] : memref<1xi64>" %
               (f.const(self.new_id(), "i64"), sink, f.const(0)))
        c = Ctx([b for b in ctx.env if b.roots <= owned and b.visible()], [],
                ctx.depth + 1, sink, ctx.mult, False, in_async=True)
        c.no_cfg = True
        self.region_body(f, c, self.rng.randint(1, 4))
        r = f.fresh()
        f.emit("%s = memref.load %s[%s] : memref<1xi64>" % (r, sink, f.const(0)))
        f.emit("async.yield %s : i64" % r)
        f.ind -= 1
        f.emit("}")
        # what the region touches belongs to it until the await
        for r_ in owned:
            r_.locked = True
        save = ctx.no_cfg
        ctx.no_cfg = True
        mode = self.rng.choice(["plain", "plain", "nested", "chain", "block"])
        if mode == "block" and not (ctx.top and not save and self.on("cfg")):
            mode = "plain"
        for _ in range(self.rng.randint(0, 3)):
            self.stmt(f, ctx)
        if mode == "block":
            # the await is in another block than the execute
            nb = f.label()
            f.emit("cf.br %s" % nb)
            self.open_block(f, nb)
            for _ in range(self.rng.randint(0, 2)):
                self.stmt(f, ctx)
        ctx.no_cfg = save
        w = f.fresh("aw")
        if mode == "chain":
            # a second execute waits for the first; only its token is awaited
            tok2 = f.fresh("tok")
            f.emit("%s = async.execute [%s] {" % (tok2, tok))
            f.emit("  async.yield")
            f.emit("}")
            for _ in range(self.rng.randint(0, 2)):
                self.stmt(f, ctx)
            f.emit("async.await %s : !async.token" % tok2)
        for r_ in owned:
            r_.locked = False
        if mode == "nested":
            # the await sits in a region of a later op
            cnd = self.cond(f, ctx)
            f.emit("%s = scf.if %s -> (i64) {" % (w, cnd))
            x = f.fresh("aw")
            f.emit("  %s = async.await %s : !async.value<i64>" % (x, val))
            f.emit("  scf.yield %s : i64" % x)
            f.emit("} else {")
            y = f.fresh("aw")
            f.emit("  %s = async.await %s : !async.value<i64>" % (y, val))
            f.emit("  scf.yield %s : i64" % y)
            f.emit("}")
        else:
            if self.chance(0.3):
                f.emit("async.await %s : !async.token" % tok)
            f.emit("%s = async.await %s : !async.value<i64>" % (w, val))
        self.mix(f, ctx, w)
        # what the region wrote is read again after the await
        for b in self.bufs(ctx, lambda b: b.roots <= owned):
            if self.chance(0.5):
                self.read(f, ctx, b)

    # ---------------------------------------------------------------- driver
    def stmt(self, f, ctx):
        opts = [("alloc", 6), ("read", 6), ("update", 3), ("point", 1)]
        if self.on("dyn"):
            opts.append(("dyn", 1))
        if any(self.on(k) for k in ["subview", "cast", "reshape", "reinterpret", "view",
                                    "transpose", "distinct", "ucc", "select"]):
            opts.append(("view", 6))
        if self.on("tensor") and not ctx.in_async:
            opts += [("to_tensor", 2), ("read_tensor", 2), ("tensor_alias", 2)]
        if self.on("generic"):
            opts.append(("elementwise", 3))
        if self.on("dying") and self.on("generic"):
            opts.append(("dying", 2))
        if self.on("copy"):
            opts.append(("copy", 2))
        if self.on("matmul"):
            opts.append(("matmul", 1))
        if ctx.depth < self.max_depth:
            for k, w in [("for", 2), ("while", 1), ("if", 2), ("switch", 1)]:
                if self.on(k):
                    opts.append((k, w))
            if self.on("call") and not ctx.in_async:
                opts.append(("call", 1))
            if self.on("async") and not ctx.in_async:
                opts.append(("async", 1))
        if self.on("cfg") and ctx.top and not ctx.no_cfg:
            opts.append(("cfg", 2))
        total = sum(w for _, w in opts)
        x = self.rng.uniform(0, total)
        for k, w in opts:
            x -= w
            if x <= 0:
                break
        if not self.bufs(ctx) and k not in ("alloc", "call"):
            k = "alloc"
        if k == "alloc":
            self.new_static(f, ctx)
        elif k == "read":
            b = self.pick(ctx)
            if b is not None:
                self.read(f, ctx, b)
        elif k == "update":
            self.update(f, ctx)
        elif k == "point":
            self.point(f, ctx)
        elif k == "dyn":
            self.new_dynamic(f, ctx)
        elif k == "view":
            v = self.new_view(f, ctx)
            if v is not None and self.chance(0.3) and v.writable():
                self.update_buf(f, ctx, v)
        elif k == "to_tensor":
            self.to_tensor(f, ctx)
        elif k == "read_tensor":
            self.read_tensor(f, ctx)
        elif k == "tensor_alias":
            self.tensor_alias(f, ctx)
        elif k == "elementwise":
            self.elementwise(f, ctx)
        elif k == "dying":
            self.dying(f, ctx)
        elif k == "copy":
            self.copy(f, ctx)
        elif k == "matmul":
            self.matmul(f, ctx)
        elif k == "for":
            self.scf_for(f, ctx)
        elif k == "while":
            self.scf_while(f, ctx)
        elif k == "if":
            self.scf_if(f, ctx)
        elif k == "switch":
            self.scf_switch(f, ctx)
        elif k == "call":
            self.call(f, ctx)
        elif k == "async":
            self.async_exec(f, ctx)
        elif k == "cfg":
            self.cfg(f, ctx)

    def body(self, f, env, printing, n, mult=1, ret_buf=None):
        sink = "%sink"
        f.emit("%s = memref.alloca() : memref<1xi64>" % sink)
        f.emit("memref.store %s, %s[%s] : memref<1xi64>" %
               (f.const(self.new_id(), "i64"), sink, f.const(0)))
        ctx = Ctx(list(env), [], 0, sink, mult, printing, top=True)
        for _ in range(n):
            self.stmt(f, ctx)
        # the end: every buffer and tensor still visible is read once more
        for b in ctx.env:
            self.read(f, ctx, b)
        for t in list(ctx.tensors):
            ctx.tensors = [t]
            self.read_tensor(f, ctx)
        if f.name == "main":
            f.emit("return")
            return
        r = f.fresh()
        f.emit("%s = memref.load %s[%s] : memref<1xi64>" % (r, sink, f.const(0)))
        if ret_buf is not None:
            b = self.alloc(f, ctx, ret_buf)
            f.emit("return %s, %s : i64, %s" % (r, b.name, b.t))
        else:
            f.emit("return %s : i64" % r)

    def module(self):
        main = Func(self, "main", [], [])
        self.body(main, [], printing=True, n=self.size)
        self.funcs.append(main)
        out = ["// gen.py --seed %d --features %s --size %d" %
               (self.seed, ",".join(sorted(self.feat)), self.size),
               "module {",
               "  func.func private @printI64(i64)",
               "  func.func private @printNewline()"]
        for fn in self.funcs:
            out.append(fn.text(self.rng))
        out.append("}")
        return "\n".join(out) + "\n"


def generate(seed, features="all", size=None):
    feats = parse_features(features) if isinstance(features, str) else set(features)
    rng = random.Random(seed * 7919 + 1)
    if size is None:
        size = rng.randint(6, 16)
    g = Gen(seed, feats, size)
    text = g.module()
    return text, g.uses_async


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--features", default="all",
                    help="comma list, 'all', 'none', '-name' removes (known: %s)" %
                    ",".join(FEATURES))
    ap.add_argument("--size", type=int, default=None,
                    help="top-level statements of main (default: 6-16 by seed)")
    ap.add_argument("-o", "--output", default="-")
    a = ap.parse_args()
    text, _ = generate(a.seed, a.features, a.size)
    write_output(text, a.output)


def write_output(text, path):
    """The program to path, or to stdout for "-" (both generators' CLI)."""
    if path == "-":
        sys.stdout.write(text)
    else:
        with open(path, "w") as fh:
            fh.write(text)


if __name__ == "__main__":
    main()
