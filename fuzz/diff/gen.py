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

from gen_alloc import AllocMixin
from gen_async import AsyncMixin
from gen_call import CallMixin
from gen_cfg import CfgMixin
from gen_compute import ComputeMixin
from gen_emit import EmitMixin, Func
# ELEM_BYTES and parse_features are read as gen.* by run.py and shapes.py
from gen_model import ELEM_BYTES, ELEM_TYPES, FEATURES, Buf, Ctx, Root, parse_features  # noqa: F401
from gen_scf import ScfMixin
from gen_tensor import TensorMixin
from gen_views import ViewMixin


class Gen(EmitMixin, AllocMixin, ViewMixin, TensorMixin, ComputeMixin, ScfMixin, CfgMixin,
          CallMixin, AsyncMixin):
    """One program: the statement choice and the driver; each feature's
    statements are in its gen_*.py mixin."""

    def __init__(self, seed, features, size, max_depth=2):
        self.rng = random.Random(seed)
        # features added later draw from their own stream, so that the
        # programs of a seed stay what they were (tests pin seeds)
        self.rng2 = random.Random(seed * 31 + 7)
        self.seed = seed
        self.feat = features
        self.size = size
        self.max_depth = max_depth
        self.funcs = []
        self.helpers = 0
        self.next_id = seed % 97 + 1
        self.uses_async = False
        self.globals = []
        self.unawaited = 0
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
            if b.visible():  # locked: read by an unawaited execute (gen_async.py)
                self.read(f, ctx, b)
        for t in list(ctx.tensors):
            ctx.tensors = [t]
            self.read_tensor(f, ctx)
        if self.on("box"):
            # A buffer stored into a box (memref<1xmemref<..>>) and read back
            # through what the box gives: it escapes, so it stays unplanned,
            # and memplan-pipeline's deallocation, which does not follow a
            # buffer into memory, must refuse the program. Drawn from a
            # stream of its own: the rest of the program is the same text.
            boxes = random.Random(self.seed * 1000033 + len(self.funcs))
            cands = [b for b in ctx.env if b.visible()]
            if cands and boxes.random() < 0.3:
                b = boxes.choice(cands)
                box, got = f.fresh(), f.fresh()
                bt = "memref<1x%s>" % b.t
                f.emit("%s = memref.alloca() : %s" % (box, bt))
                f.emit("memref.store %s, %s[%s] : %s" % (b.name, box, f.const(0), bt))
                f.emit("%s = memref.load %s[%s] : %s" % (got, box, f.const(0), bt))
                self.read(f, ctx, Buf(got, b.mt, b.roots))
        if self.on("dealloc"):
            # What this function allocated at its top level (the buffers still
            # visible here) may be freed now, after every read. Drawn from a
            # stream of its own: the rest of the program is the same text.
            frees = random.Random(self.seed * 1000003 + len(self.funcs))
            for b in ctx.env:
                # a buffer left locked may still be read by an execute that
                # is never awaited (gen_async.py, unawaited)
                if b.alloc_in is f and frees.random() < 0.7 and b.visible():
                    f.emit("memref.dealloc %s : %s" % (b.name, b.t))
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
        out += self.globals
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
