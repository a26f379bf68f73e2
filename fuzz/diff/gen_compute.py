"""Compute and data movement (features generic, dying, copy, matmul, and the
always-on update and point load/store): what writes and reads buffer
contents, with float bounds tracked so that every value stays exact."""
from gen_model import FLOAT_LIMIT, MemType, is_float


class ComputeMixin:
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

