"""Concurrency (feature async): async.execute owning its buffers until the
async.await (plain, nested in an scf.if, in another block, or through a
dependent execute)."""
from gen_model import Ctx


class AsyncMixin:
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

