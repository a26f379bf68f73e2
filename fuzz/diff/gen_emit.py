"""Writing IR text: one function being emitted (Func: blocks, constants,
fresh names), and the Gen mixin for what every feature emits with: element
conversions, loops over every element, hashes into the sink, picking a
visible buffer."""
from gen_model import is_float


class Func:
    def __init__(self, gen, name, params, ret_types):
        self.gen = gen
        self.name = name
        self.params = params        # list of (name, type str)
        self.ret_types = ret_types
        self.consts = {}            # (value, type) -> name
        self.const_lines = []
        self.blocks = [["", []]]    # [label line, lines]; first is entry
        self.n = 0
        self.ind = 1

    def fresh(self, p="v"):
        self.n += 1
        return "%%%s%d" % (p, self.n)

    def label(self):
        self.n += 1
        return "^bb%d" % self.n

    def const(self, v, t="index"):
        key = (v, t)
        if key not in self.consts:
            name = "%%c%s_%s" % (str(v).replace("-", "m").replace(".", "_"), t)
            self.consts[key] = name
            if t == "i1":
                lit = "true" if v else "false"
            elif t in ("f32", "f64"):
                lit = "%s : %s" % (float(v), t)
            else:
                lit = "%d : %s" % (v, t)
            self.const_lines.append("    %s = arith.constant %s" % (name, lit))
        return self.consts[key]

    def emit(self, line):
        self.blocks[-1][1].append("  " * (self.ind + 1) + line)

    def text(self, rng):
        args = ", ".join("%s: %s" % p for p in self.params)
        ret = ""
        if self.ret_types:
            ret = " -> " + (self.ret_types[0] if len(self.ret_types) == 1
                            else "(%s)" % ", ".join(self.ret_types))
        vis = "" if self.name == "main" else "private "
        out = ["  func.func %s@%s(%s)%s {" % (vis, self.name, args, ret)]
        out += self.const_lines
        out += self.blocks[0][1]
        rest = self.blocks[1:]
        if self.gen.shuffle_blocks:
            rest = list(rest)
            rng.shuffle(rest)
        for label, lines in rest:
            out.append("  " + label)
            out += lines
        out.append("  }")
        return "\n".join(out)



class EmitMixin:
    # ---- element conversions (f is the function being emitted)
    def to_i64(self, f, v, et):
        r = f.fresh()
        if is_float(et):
            f.emit("%s = arith.fptosi %s : %s to i64" % (r, v, et))
        elif et == "i64":
            return v
        elif et == "i1":
            f.emit("%s = arith.extui %s : i1 to i64" % (r, v))
        else:
            f.emit("%s = arith.extsi %s : %s to i64" % (r, v, et))
        return r

    def from_i64(self, f, x, et):
        """x is a small non-negative i64 (< 1000)."""
        r = f.fresh()
        if is_float(et):
            f.emit("%s = arith.sitofp %s : i64 to %s" % (r, x, et))
        elif et == "i64":
            return x
        else:
            f.emit("%s = arith.trunci %s : i64 to %s" % (r, x, et))
        return r

    def index_val(self, f, ivs, rid):
        """(rid * 37 + sum(iv_k * m_k)) mod 997 as i64 (small, positive)."""
        acc = f.const(rid * 37 % 997, "index")
        for iv in ivs:
            m = f.const(self.rng.choice([1, 3, 5, 7, 11, 13]), "index")
            t = f.fresh()
            f.emit("%s = arith.muli %s, %s : index" % (t, iv, m))
            a = f.fresh()
            f.emit("%s = arith.addi %s, %s : index" % (a, acc, t))
            acc = a
        x = f.fresh()
        f.emit("%s = arith.index_cast %s : index to i64" % (x, acc))
        y = f.fresh()
        f.emit("%s = arith.remui %s, %s : i64" % (y, x, f.const(997, "i64")))
        return y

    def dim(self, f, b, k):
        if not b.mt.dyn[k] and b.mt.shape[k] is not None:
            return f.const(b.mt.shape[k])
        d = f.fresh("d")
        f.emit("%s = memref.dim %s, %s : %s" % (d, b.name, f.const(k), b.t))
        return d

    def loops(self, f, b, body, iter_i64=None, reverse_last=False):
        """Nested scf.for over all elements of b; body(ivs, acc) -> new acc or None."""
        ubs = [self.dim(f, b, k) for k in range(b.mt.rank)]
        return self._loops(f, ubs, [], body, iter_i64)

    def _loops(self, f, ubs, ivs, body, acc):
        if len(ivs) == len(ubs):
            return body(ivs, acc)
        iv = f.fresh("i")
        c0, c1 = f.const(0), f.const(1)
        if acc is None:
            f.emit("scf.for %s = %s to %s step %s {" % (iv, c0, ubs[len(ivs)], c1))
            f.ind += 1
            self._loops(f, ubs, ivs + [iv], body, None)
            f.ind -= 1
            f.emit("}")
            return None
        res, a = f.fresh("h"), f.fresh("a")
        f.emit("%s = scf.for %s = %s to %s step %s iter_args(%s = %s) -> (i64) {" %
               (res, iv, c0, ubs[len(ivs)], c1, a, acc))
        f.ind += 1
        r = self._loops(f, ubs, ivs + [iv], body, a)
        f.emit("scf.yield %s : i64" % r)
        f.ind -= 1
        f.emit("}")
        return res

    def idx(self, ivs):
        return "[%s]" % ", ".join(ivs)

    # ---- hashing and sinks
    def hash_buf(self, f, b):
        def body(ivs, acc):
            v = f.fresh()
            f.emit("%s = memref.load %s%s : %s" % (v, b.name, self.idx(ivs), b.t))
            x = self.to_i64(f, v, b.mt.et)
            m = f.fresh()
            f.emit("%s = arith.muli %s, %s : i64" % (m, acc, f.const(31, "i64")))
            n = f.fresh()
            f.emit("%s = arith.addi %s, %s : i64" % (n, m, x))
            return n
        return self.loops(f, b, body, iter_i64=f.const(self.new_id(), "i64"))

    def mix(self, f, ctx, h):
        o = f.fresh()
        c0 = f.const(0)
        f.emit("%s = memref.load %s[%s] : memref<1xi64>" % (o, ctx.sink, c0))
        m = f.fresh()
        f.emit("%s = arith.muli %s, %s : i64" % (m, o, f.const(1000003, "i64")))
        n = f.fresh()
        f.emit("%s = arith.xori %s, %s : i64" % (n, m, h))
        f.emit("memref.store %s, %s[%s] : memref<1xi64>" % (n, ctx.sink, c0))
        if ctx.printing:
            f.emit("func.call @printI64(%s) : (i64) -> ()" % h)
            f.emit("func.call @printNewline() : () -> ()")

    def read(self, f, ctx, b):
        self.mix(f, ctx, self.hash_buf(f, b))

    # ---- buffer choice
    def bufs(self, ctx, pred=None, write=False):
        out = [b for b in ctx.env if b.visible() and (not write or b.writable())
               and (pred is None or pred(b))]
        return out

    def pick(self, ctx, pred=None, write=False, old=True):
        c = self.bufs(ctx, pred, write)
        if not c:
            return None
        if old and len(c) > 2 and self.chance(0.5):
            return self.rng.choice(c[: max(1, len(c) // 2)])  # favour long lives
        return self.rng.choice(c)

    def write_roots(self, b, bound):
        for r in b.roots:
            r.bound = max(r.bound, bound)
