"""Aliasing views (features subview, cast, reshape, reinterpret, view,
transpose, distinct, ucc, select): each a new Buf over its source's roots."""
from gen_model import ELEM_BYTES, Buf, MemType


class ViewMixin:
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

