"""Allocations (features align, dyn, fill, generic): static and dynamic
memref.alloc, each filled with values that depend on its own id; indices and
conditions computed from data at run time."""
from gen_model import Buf, MemType, Root


class AllocMixin:
    def alloc(self, f, ctx, mt, fill=True):
        name = f.fresh("m")
        attr = ""
        if self.on("align") and self.chance(0.3):
            attr = " {alignment = %d}" % self.rng.choice([8, 16, 32, 64, 128, 256])
        f.emit("%s = memref.alloc()%s : %s" % (name, attr, mt))
        b = Buf(name, mt, [Root()], alloc_in=f)
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
        b = Buf(name, mt, [Root()], alloc_in=f)
        ctx.env.append(b)
        self.fill(f, ctx, b)
        return b

    def cond(self, f, ctx):
        """An i1 computed from data (or a constant)."""
        if self.chance(0.25):
            return f.const(self.chance(0.5), "i1")
        x = self.runtime_index(f, ctx, 0, 2)
        c = f.fresh("cond")
        f.emit("%s = arith.cmpi eq, %s, %s : index" % (c, x, f.const(0)))
        return c

