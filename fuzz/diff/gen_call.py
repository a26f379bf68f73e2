"""Calls (feature call): a private helper per call site, taking buffers
(views with their layouts) and writing into them, some returning a new
buffer."""
from gen_emit import Func
from gen_model import Buf, MemType, Root


class CallMixin:
    def call(self, f, ctx):
        if ctx.depth > 0 and self.chance(0.5) or f.name != "main" or self.helpers >= 6:
            return
        args = []
        roots = set()
        for b in self.bufs(ctx):
            if not (b.roots & roots) and len(args) < 3 and self.chance(0.4):
                args.append(b)
                roots |= b.roots
        self.helpers += 1
        name = "helper%d" % self.helpers
        returns_buf = self.chance(0.3)
        ret_mt = MemType(self.pick_shape(), self.pick_et()) if returns_buf else None
        params = []
        h = Func(self, name, [], ["i64"] + ([str(ret_mt)] if returns_buf else []))
        penv = []
        proots = []
        for i, a in enumerate(args):
            pn = "%%arg%d" % i
            h.params.append((pn, a.t))
            r = Root(a.bound())
            r.frozen = not a.writable()
            proots.append(r)
            penv.append(Buf(pn, a.mt, [r]))
        self.body(h, penv, printing=False, n=self.rng.randint(2, 6), mult=ctx.mult,
                  ret_buf=ret_mt)
        for a, r in zip(args, proots):
            self.write_roots(a, r.bound)
        self.funcs.append(h)
        res = f.fresh("call")
        rt = h.ret_types
        f.emit("%s%s = func.call @%s(%s) : (%s) -> %s" % (
            res, ":2" if returns_buf else "", name, ", ".join(a.name for a in args),
            ", ".join(a.t for a in args), rt[0] if len(rt) == 1 else "(%s)" % ", ".join(rt)))
        self.mix(f, ctx, res + ("#0" if returns_buf else ""))
        if returns_buf:
            b = Buf(res + "#1", ret_mt, [Root(1000)])
            ctx.env.append(b)

