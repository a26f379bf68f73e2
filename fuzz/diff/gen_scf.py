"""Structured control flow (features for, while, if, switch): loops carrying
a buffer (updated, or replaced by a fresh one per trip) and branches
yielding a buffer."""
from gen_model import FLOAT_LIMIT, Buf, MemType, Root, is_float


class ScfMixin:
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
        par = self.on("parallel") and self.rng2.random() < 0.4
        if par:
            carry = None
        if carry is None:
            lo, step = f.const(0), f.const(1)
            f.emit(("scf.parallel (%s) = (%s) to (%s) step (%s) {" if par else
                    "scf.for %s = %s to %s step %s {") % (iv, lo, ub, step))
            f.ind += 1
            c = ctx.child(trips)
            self.region_body(f, c, self.rng.randint(1, 4))
            if par:
                f.emit("scf.reduce")
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

