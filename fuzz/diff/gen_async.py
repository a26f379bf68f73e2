"""Concurrency (feature async): async.execute owning its buffers until the
async.await (plain, nested in an scf.if, in another block, or through a
dependent execute); sometimes a second execute that reads the same buffers
and is never awaited, held back by a flag until later statements have run
(`unawaited`)."""
import random

from gen_model import Ctx


class AsyncMixin:
    spinning = False

    def spin(self, f, flag):
        """Wait until the i32 flag is set (an atomic read in a loop)."""
        z = f.const(0, "i32")
        f.emit("scf.while : () -> () {")
        v, c = f.fresh("sp"), f.fresh("sp")
        f.emit("  %s = memref.atomic_rmw addi %s, %s[%s] : (i32, memref<1xi32>) -> i32"
               % (v, z, flag, f.const(0)))
        f.emit("  %s = arith.cmpi eq, %s, %s : i32" % (c, v, z))
        f.emit("  scf.condition(%s)" % c)
        f.emit("} do {")
        f.emit("  scf.yield")
        f.emit("}")

    def setflag(self, f, flag, v):
        r = f.fresh("sp")
        f.emit("%s = memref.atomic_rmw assign %s, %s[%s] : (i32, memref<1xi32>) -> i32"
               % (r, f.const(v, "i32"), flag, f.const(0)))

    def unawaited_start(self, f, owned_bufs):
        """An execute that hashes the buffers once `go` is set, stores the hash
        and sets `done`; never awaited. Made after the execute that main awaits,
        so that a runtime of one worker (first in, first out) runs that one
        first. A planner that took the other execute's wait as this one's join
        gave these buffers' bytes to later allocs (its hash then differs)."""
        k = len(self.globals)
        names = ["@fz_go%d" % k, "@fz_done%d" % k, "@fz_out%d" % k]
        for n in names[:2]:
            self.globals.append('  memref.global "private" %s : memref<1xi32> = dense<0>' % n)
        self.globals.append('  memref.global "private" %s : memref<1xi64> = dense<0>' % names[2])
        go, done, out = f.fresh("go"), f.fresh("done"), f.fresh("out")
        f.emit("%s = memref.get_global %s : memref<1xi32>" % (go, names[0]))
        f.emit("%s = memref.get_global %s : memref<1xi32>" % (done, names[1]))
        f.emit("%s = memref.get_global %s : memref<1xi64>" % (out, names[2]))
        tok = f.fresh("utok")
        f.emit("%s = async.execute {" % tok)
        f.ind += 1
        self.spin(f, go)
        acc = f.const(self.new_id(), "i64")
        for b in owned_bufs:
            h = self.hash_buf(f, b)
            m = f.fresh()
            f.emit("%s = arith.muli %s, %s : i64" % (m, acc, f.const(1000003, "i64")))
            x = f.fresh()
            f.emit("%s = arith.xori %s, %s : i64" % (x, m, h))
            acc = x
        f.emit("memref.store %s, %s[%s] : memref<1xi64>" % (acc, out, f.const(0)))
        self.setflag(f, done, 1)
        f.emit("async.yield")
        f.ind -= 1
        f.emit("}")
        self.spinning = True
        return go, done, out

    def unawaited_end(self, f, ctx, flags):
        go, done, out = flags
        self.setflag(f, go, 1)
        self.spin(f, done)
        # a second call of this function waits again
        self.setflag(f, go, 0)
        self.setflag(f, done, 0)
        h = f.fresh()
        f.emit("%s = memref.load %s[%s] : memref<1xi64>" % (h, out, f.const(0)))
        self.mix(f, ctx, h)
        self.spinning = False

    def async_exec(self, f, ctx):
        # no execute while one spins: a runtime of one worker would hang
        if ctx.in_async or self.spinning:
            return
        self.uses_async = True
        owned = set()
        for b in self.bufs(ctx):
            if self.chance(0.3):
                owned |= b.roots
        # what an unawaited execute would read (visible now, locked below)
        owned_bufs = [b for b in ctx.env if owned and b.roots <= owned and b.visible()]
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
        # Drawn from a stream of its own: without it the rest is the same choices.
        # Not with chain: its second execute would queue behind the spinning one.
        flags = None
        side = random.Random(self.seed * 1000033 + self.next_id)
        if side.random() < 0.35 and ctx.top and mode in ("plain", "nested") and owned_bufs:
            self.unawaited += 1
            flags = self.unawaited_start(f, owned_bufs)
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
        if flags:
            # What the unawaited one reads is used no more (not even hashed at
            # the end, nor freed): its bytes are free to a planner that takes
            # the wait above as its join. Buffers of the same types, and
            # statements, that may take them.
            for r_ in owned:
                r_.locked = True
            for b in owned_bufs:
                if b.mt.plain():
                    self.alloc(f, ctx, b.mt)
            for _ in range(self.rng.randint(0, 2)):
                self.stmt(f, ctx)
            self.unawaited_end(f, ctx, flags)

