"""The shapes family's `shared` scene: two or three functions named in the
module's `memplan.shared_arena` (they never run at once: one static arena
global sized for the largest, one run-time block kept across calls and
grown when a call needs more). A set mixes static-only, dynamic-only and
mixed functions; `main` calls them in alternation with sizes that grow and
shrink (index arguments and dims of tensor arguments), straight or from an
`scf.for`, feeds a result of one into the next call of another and reads
results after later calls of the set: a result left in the shared arena is
overwritten, and the outputs differ. Sometimes a function of another scene
joins the set.

A mixin of shapes.SGen (self.filled, self.generic, self.hash_t, ...). Its
random choices come from a generator of their own, so a program without
the scene is the same text as before the scene existed.
"""
import random

KINDS = ["static", "dynamic", "mixed"]
SIZES = [1, 2, 3, 5, 8, 13, 24, 40, 64, 100, 150]
# scenes whose function main calls and which call nothing of another scene
JOINABLE = ("chain", "padcat", "glob", "nospec", "bound", "promise", "hoist")


class SharedMixin:
    def shared_wanted(self):
        """One program in three with `shared` on, every one when it is the
        only scene (its own generator: the other scenes' choices do not
        move)."""
        self.srng = random.Random(self.seed * 15485863 + 101)
        alone = not (self.feat - {"shared", "broken"})
        return "shared" in self.feat and (self.srng.random() < 0.35 or alone)

    def scene_shared(self, m):
        saved, self.rng = self.rng, self.srng
        try:
            self._scene_shared(m)
        finally:
            self.rng = saved

    def _size(self):
        if self.chance(0.06):
            return 0  # an empty call: the block stays as it is (or is not made yet)
        return self.rng.choice(SIZES)

    def _dim(self):
        """A dim of a tensor argument: dim-bounds promises it when on."""
        if self.dim_bounds is not None:
            return self.rng.choice([1, 2, 3, self.dim_bounds // 2, self.dim_bounds])
        return self._size()

    def _shared_fn(self, kind):
        """(Fn, input shape): a function of the set of this kind, returning
        (tensor, i64): a fresh tensor main reads later, a hash of its
        temporaries."""
        if kind == "static":
            xs = [self.rng.choice([8, 16, 32, 64])]
            f = self.new_fn("shared", [("%x", self.ttype(xs))], None)
            hs, live = [], []
            for _ in range(self.rng.randint(1, 2)):
                # sizes differ between functions: one of them sizes the global
                sh = self.rng.choice([[16], [64], [256], [1024], [8, 16], [32, 32]])
                t = self.filled(f, sh)
                if self.chance(0.5):
                    t = self.generic(f, [t], sh)
                live.append((t, sh))
            for t, sh in live:  # hashed late: live together
                hs.append(self.hash_t(f, t, sh))
            def fresh():
                r = self.generic(f, ["%x"], xs)
                return self.generic(f, [r, "%x"], xs) if self.chance(0.5) else r
            res = self._result(f, fresh, xs, None, "%x")
            rt = self.ttype(xs)
            f.rets = [rt, "i64"]
            f.emit("return %s, %s : %s, i64" % (res, self.combine(f, hs), rt))
            return f, xs
        xs = [None] if self.chance(0.7) else [None, 4]
        aty = "index" if self.dim_bounds is None else "tensor<1xindex>"
        f = self.new_fn("shared", [("%x", self.ttype(xs)), ("%na", aty)], None)
        n = self.size_arg(f, "%na")
        d = f.fresh("d")
        f.emit("%s = tensor.dim %%x, %s : %s" % (d, f.const(0), self.ttype(xs)))
        sizes = [n, d]
        if self.chance(0.6):
            s = f.fresh("sz")
            f.emit("%s = arith.addi %s, %s : index" % (s, n, f.const(self.rng.randint(1, 9))))
            sizes.append(s)
        if self.chance(0.4):
            s = f.fresh("sz")
            f.emit("%s = arith.muli %s, %s : index" % (s, n, f.const(2)))
            sizes.append(s)
        if self.chance(0.3):
            s = f.fresh("sz")
            f.emit("%s = arith.addi %s, %s : index" % (s, n, d))
            sizes.append(s)
        # sizes no promise or bound covers (dim-bounds covers d)
        free = [s for s in sizes if s != d or self.dim_bounds is None]
        if kind == "mixed" and self.chance(0.6):
            # bounded: planned at its bound, in the static arena
            b = self.rng.choice([8, 32, 100])
            s = f.fresh("sz")
            if self.chance(0.5):
                f.emit("%s = arith.minui %s, %s : index" % (s, n, f.const(b)))
            else:
                f.emit("%s = affine.min affine_map<()[s0] -> (s0, %d)>()[%s]" % (s, b, n))
            sizes.append(s)
        live = []
        # mostly two dynamic buffers sized at entry: a run-time arena to share
        # (a lone one is served by itself)
        lone = self.chance(0.15)
        for i in range(self.rng.randint(2, 3)):
            sz = self.rng.choice(free if i < 2 and not lone else sizes)
            sh = [None] if self.chance(0.7) else [None, self.rng.choice([3, 4])]
            t = self.filled(f, sh, [sz])
            if self.chance(0.5):
                t = self.generic(f, [t], sh, dyn_sizes=[sz])
            live.append((t, sh))
        if kind == "mixed":
            sh = self.rng.choice([[16], [128], [512], [4, 8]])
            t = self.filled(f, sh)
            if self.chance(0.5):
                t = self.generic(f, [t], sh)
            live.append((t, sh))
        self.rng.shuffle(live)
        hs = [self.hash_t(f, t, sh) for t, sh in live]
        x = self.generic(f, ["%x"], xs, dyn_sizes=[d])
        hs.append(self.hash_t(f, x, xs))
        if self.chance(0.5) or self.dim_bounds is not None:
            # the result has the input's shape (main may feed it on)
            rs = xs
            two = self.chance(0.5)
            res = self._result(f, lambda: self.generic(f, [x, "%x"] if two else [x], xs,
                                                       dyn_sizes=[d]), rs, d, n)
        else:
            # sized by the argument: larger or smaller than the input
            rs = [None] if self.chance(0.6) else [None, 4]
            res = self._result(f, lambda: self.filled(f, rs, [n]), rs, n, n)
        rt = self.ttype(rs)
        f.rets = [rt, "i64"]
        f.emit("return %s, %s : %s, i64" % (res, self.combine(f, hs), rt))
        return f, xs

    def _result(self, f, fresh, shape, dyn, sel):
        """The returned tensor, made by fresh() (a new tensor of shape, its
        first dim dyn when dynamic) or through what keeps it a view of or a
        choice between temporaries: an extract_slice of a larger one, an
        expand_shape/collapse_shape round trip, an scf.if yielding one of two
        made in its branches. sel: an index (or tensor) the choice reads."""
        how = self.rng.choice(["fresh", "fresh", "slice", "reshape", "if"])
        ty = self.ttype(shape)
        if how == "slice":
            k = self.rng.randint(1, 5)
            if dyn is None:
                big = [shape[0] + k]
                t = self.filled(f, big)
                sizes = [str(shape[0])]
            else:
                bs = f.fresh("sz")
                f.emit("%s = arith.addi %s, %s : index" % (bs, dyn, f.const(k)))
                big = list(shape)
                t = self.filled(f, big, [bs])
                sizes = [dyn] + [str(s_) for s_ in shape[1:]]
            if self.chance(0.5):
                t = self.generic(f, [t], big, dyn_sizes=[bs] if dyn is not None else ())
            off = self.rng.randint(0, k)
            r = f.fresh("sl")
            f.emit("%s = tensor.extract_slice %s[%s] [%s] [%s] : %s to %s" % (
                r, t, ", ".join([str(off)] + ["0"] * (len(shape) - 1)), ", ".join(sizes),
                ", ".join(["1"] * len(shape)), self.ttype(big), ty))
            return r
        if how == "reshape" and len(shape) == 1:
            t = fresh()
            ex = [shape[0], 1]
            e = f.fresh("ex")
            f.emit("%s = tensor.expand_shape %s [[0, 1]] output_shape [%s, 1] : %s into %s" % (
                e, t, dyn if dyn is not None else shape[0], ty, self.ttype(ex)))
            r = f.fresh("co")
            f.emit("%s = tensor.collapse_shape %s [[0, 1]] : %s into %s" % (
                r, e, self.ttype(ex), ty))
            return r
        if how == "if":
            if sel == "%x":
                v = f.fresh("sv")
                f.emit("%s = tensor.extract %%x[%s] : %s" % (v, f.const(0), ty))
                b = f.fresh("sb")
                f.emit("%s = arith.andi %s, %s : i32" % (b, v, f.const(1, "i32")))
                c = f.fresh("sc")
                f.emit("%s = arith.cmpi eq, %s, %s : i32" % (c, b, f.const(0, "i32")))
            else:
                b = f.fresh("sb")
                f.emit("%s = arith.andi %s, %s : index" % (b, sel, f.const(1)))
                c = f.fresh("sc")
                f.emit("%s = arith.cmpi eq, %s, %s : index" % (c, b, f.const(0)))
            r = f.fresh("sif")
            f.emit("%s = scf.if %s -> (%s) {" % (r, c, ty))
            f.ind += 1
            f.emit("scf.yield %s : %s" % (fresh(), ty))
            f.ind -= 1
            f.emit("} else {")
            f.ind += 1
            f.emit("scf.yield %s : %s" % (fresh(), ty))
            f.ind -= 1
            f.emit("}")
            return r
        return fresh()

    def _shared_input(self, m, fn, xs, pool):
        """A tensor for fn's %x: a result of an earlier call of the set of
        the same type (read by this call while it writes its arena), or a
        fresh one."""
        t = self.ttype(xs)
        same = [p for p in pool if p[1] == t]
        if same and self.chance(0.4):
            return self.rng.choice(same)[0]
        if xs[0] is None:
            return self.filled(m, xs, [m.const(self._dim())])
        return self.filled(m, xs)

    def _shared_call(self, m, f, xs, x, n):
        r = m.fresh("sr")
        args, tys = [x], [self.ttype(xs)]
        if n is not None:
            a, ty = self.size_val(m, n) if isinstance(n, int) else (n, "index")
            args.append(a)
            tys.append(ty)
        m.emit("%s:2 = func.call @%s(%s) : (%s) -> (%s)" % (
            r, f.name, ", ".join(args), ", ".join(tys), ", ".join(f.rets)))
        return r

    def _scene_shared(self, m):
        k = self.rng.choice([2, 2, 3])
        kinds = self.rng.sample(KINDS, k)
        self.meta["scenes"].append("shared-" + "-".join(sorted(kinds)))
        fns = [self._shared_fn(kind) for kind in kinds]
        dyn = {f.name: f for (f, xs) in fns if len(f.params) > 1}
        maxn = dict.fromkeys(dyn, 0)
        # calls in alternation (now and then the same function twice)
        order, prev = [], None
        for _ in range(self.rng.randint(k + 1, 2 * k + 1)):
            cand = [p for p in fns if p[0] is not prev] if self.chance(0.85) else fns
            pick = self.rng.choice(cand)
            order.append(pick)
            prev = pick[0]
        pool = []      # (value, type, shape, calls of the set since)
        for f, xs in order:
            n = self._size() if f.name in dyn else None
            if n is not None:
                maxn[f.name] = max(maxn[f.name], n)
            x = self._shared_input(m, f, xs, pool)
            r = self._shared_call(m, f, xs, x, n)
            self.print_(m, r + "#1")
            for p in pool:
                p[3] += 1
            rs = self._ret_shape(f)
            pool.append([r + "#0", self.ttype(rs), rs, 0])
            if self.chance(0.2):
                self.print_(m, self.hash_t(m, r + "#0", rs))
            # read some results after later calls of the set
            for p in [p for p in pool if p[3] > 0]:
                if self.chance(0.3):
                    self.print_(m, self.hash_t(m, p[0], p[2]))
                    pool.remove(p)
        for p in pool:
            self.print_(m, self.hash_t(m, p[0], p[2]))
        if dyn and self.chance(0.4):
            self._shared_loop(m, fns, dyn, maxn)
        joined = []
        if self.chance(0.3):
            others = [g for g in self.funcs if g.name.rstrip("0123456789") in JOINABLE]
            if others:
                joined = [self.rng.choice(others)]
                self.meta["scenes"].append("shared-joined-" + joined[0].name.rstrip("0123456789"))
        for name, f in dyn.items():
            if self.dim_bounds is None and self.chance(0.3):
                # a kept promise: sizes up to it planned in the static arena
                f.params[1] = ("%na", "index {memplan.max = %d : i64}" % (
                    max(1, maxn[name] + self.rng.randint(0, 10))))
        self.shared_set = [f.name for f, _ in fns] + [g.name for g in joined]
        self.rng.shuffle(self.shared_set)

    def _ret_shape(self, f):
        t = f.rets[0]
        inner = t[len("tensor<"):-1].split("x")[:-1]
        return [None if s == "?" else int(s) for s in inner]

    def _shared_loop(self, m, fns, dyn, maxn):
        """main calls two functions of the set from an scf.for, sizes growing
        or shrinking with the trip (chosen at run time), the first result
        read after the second call."""
        a = self.rng.choice(list(dyn.values()))
        b = self.rng.choice([p for p in fns if p[0] is not a])
        trips = self.rng.randint(2, 4)
        step = self.rng.choice([1, 7, 30])
        grow = self.chance(0.5)
        c0 = self.rng.randint(0, 20) + (0 if grow else step * (trips - 1))
        maxn[a.name] = max(maxn[a.name], c0 + (step * (trips - 1) if grow else 0))
        r, iv, acc = m.fresh("lr"), m.fresh("i"), m.fresh("a")
        m.emit("%s = scf.for %s = %s to %s step %s iter_args(%s = %s) -> (i64) {" % (
            r, iv, m.const(0), m.const(trips), m.const(1), acc, m.const(11, "i64")))
        m.ind += 1
        sc = m.fresh("n")
        m.emit("%s = arith.muli %s, %s : index" % (sc, iv, m.const(step)))
        n = m.fresh("n")
        if grow:
            m.emit("%s = arith.addi %s, %s : index" % (n, m.const(c0), sc))
        else:
            m.emit("%s = arith.subi %s, %s : index" % (n, m.const(c0), sc))
        if self.dim_bounds is not None:
            nt = m.fresh("nt")
            m.emit("%s = tensor.from_elements %s : tensor<1xindex>" % (nt, n))
            n = nt
        axs = [p[1] for p in fns if p[0] is a][0]
        # the input's dim follows the trip too, unless dim-bounds promises it
        xa = self.filled(m, axs, [n if self.dim_bounds is None else m.const(self._dim())])
        ra = m.fresh("sr")
        aty = "index" if self.dim_bounds is None else "tensor<1xindex>"
        m.emit("%s:2 = func.call @%s(%s, %s) : (%s, %s) -> (%s)" % (
            ra, a.name, xa, n, self.ttype(axs), aty, ", ".join(a.rets)))
        bf, bxs = b
        xb = self._shared_input(m, bf, bxs, [])
        bn = None
        if bf.name in dyn:
            bn = self._size()
            maxn[bf.name] = max(maxn[bf.name], bn)
        rb = self._shared_call(m, bf, bxs, xb, bn)
        h = self.hash_t(m, ra + "#0", self._ret_shape(a), acc=acc)
        h = self.hash_t(m, rb + "#0", self._ret_shape(bf), acc=h)
        h = self.combine(m, [h, ra + "#1", rb + "#1"])
        m.emit("scf.yield %s : i64" % h)
        m.ind -= 1
        m.emit("}")
        self.print_(m, r)
