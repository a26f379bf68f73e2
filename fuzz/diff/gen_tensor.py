"""Tensors (feature tensor): bufferization.to_tensor of a buffer that is
never written again, tensor aliases of it, tensor.extract reads."""
from gen_model import TensorVal


class TensorMixin:
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

