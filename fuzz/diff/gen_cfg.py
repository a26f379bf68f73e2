"""Unstructured control flow (feature cfg): a cf loop with a back edge
carrying a buffer, diamonds and cf.switch merging buffers in a block
argument; Func.text shuffles the blocks."""
from gen_model import Buf, Root


class CfgMixin:
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

