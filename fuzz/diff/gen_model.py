"""What gen.py tracks while it writes a program: the feature names, element
types, allocations (Root), memref types, buffers and tensors visible in a
scope, and the scope itself (Ctx)."""


FEATURES = [
    # allocation forms; "dealloc": a function frees what it allocated at its
    # top level, after its last read (memref.dealloc); "box": a buffer is
    # stored into memory (memref<1xmemref<..>>) and read back through it
    "align", "dyn", "dealloc", "box",
    # aliasing views
    "subview", "cast", "reshape", "reinterpret", "view", "transpose",
    "distinct", "ucc", "tensor", "select",
    # structured control flow
    "for", "while", "if", "switch",
    # a loop that carries nothing may be an scf.parallel (run in order once
    # lowered; an alloc in it is left alone by memplan)
    "parallel",
    # unstructured control flow, calls, concurrency
    "cfg", "call", "async",
    # data movement and compute
    "copy", "generic", "fill", "matmul",
    # temporaries that die at the op writing a fresh buffer (in-place reuse)
    "dying",
]

ELEM_TYPES = ["f32", "i32", "i8", "f64", "i1"]
ELEM_BYTES = {"f32": 4, "f64": 8, "i32": 4, "i8": 1, "i1": 1, "i64": 8}
FLOAT_LIMIT = 1 << 22  # every float value stays an exact integer below this


def is_float(et):
    return et[0] == "f"


def parse_features(text, known=None, tool="gen.py"):
    """The feature set a comma list names ("all", "none", "-x", "x") out of
    known (gen.py's FEATURES by default); shapes.py parses its own with it."""
    known = FEATURES if known is None else known
    feats = set()
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        if part == "all":
            feats |= set(known)
        elif part == "none":
            feats = set()
        elif part.startswith("-"):
            feats.discard(part[1:])
        elif part in known:
            feats.add(part)
        else:
            raise SystemExit("%s: unknown feature %r (known: %s)" %
                             (tool, part, ",".join(known)))
    return feats


class Root:
    """One underlying allocation (or a function argument's memory)."""
    counter = 0

    def __init__(self, bound=0):
        Root.counter += 1
        self.id = Root.counter
        self.bound = bound      # max |value| of float elements written so far
        self.frozen = False     # seen by bufferization.to_tensor: no more writes
        self.locked = False     # owned by a pending async.execute


class MemType:
    """A memref type: actual sizes, which dims are `?`, element type and layout.

    strides is None for the identity layout; dyn_layout prints strided<[?..], offset: ?>.
    """

    def __init__(self, shape, et, dyn=None, strides=None, offset=0, dyn_layout=False):
        self.shape = list(shape)         # None entries: size known only at run time
        self.et = et
        self.dyn = list(dyn) if dyn else [s is None for s in shape]
        self.strides = list(strides) if strides is not None else None
        self.offset = offset
        self.dyn_layout = dyn_layout

    @property
    def rank(self):
        return len(self.shape)

    def plain(self):
        """Identity layout, every size static and known."""
        return (self.strides is None and not self.dyn_layout and not any(self.dyn)
                and all(s is not None for s in self.shape))

    def static_strided(self):
        return not self.dyn_layout and not any(self.dyn) and all(s is not None for s in self.shape)

    def known_shape(self):
        return all(s is not None for s in self.shape)

    def eff_strides(self):
        if self.strides is not None:
            return self.strides
        st, acc = [], 1
        for s in reversed(self.shape):
            st.append(acc)
            acc *= s
        return list(reversed(st))

    def numel(self):
        n = 1
        for s in self.shape:
            n *= s
        return n

    def __str__(self):
        dims = "".join(("?" if d else str(s)) + "x" for s, d in zip(self.shape, self.dyn))
        t = "memref<%s%s" % (dims, self.et)
        if self.dyn_layout:
            t += ", strided<[%s], offset: ?>" % ", ".join("?" * 1 for _ in self.shape)
        elif self.strides is not None:
            t += ", strided<[%s]%s>" % (", ".join(map(str, self.strides)),
                                        ", offset: %d" % self.offset if self.offset else "")
        return t + ">"


class Buf:
    def __init__(self, name, mt, roots, alloc_in=None):
        self.name = name
        self.mt = mt
        self.roots = frozenset(roots)
        self.alloc_in = alloc_in  # the function whose memref.alloc made it (may free it)

    @property
    def t(self):
        return str(self.mt)

    def writable(self):
        return not any(r.frozen or r.locked for r in self.roots)

    def visible(self):
        return not any(r.locked for r in self.roots)

    def bound(self):
        return max(r.bound for r in self.roots)


class TensorVal:
    def __init__(self, name, shape, et, roots):
        self.name, self.shape, self.et, self.roots = name, shape, et, frozenset(roots)

    def visible(self):
        return not any(r.locked for r in self.roots)


class Ctx:
    """Where statements are being emitted: scope, nesting, sink, loop multiplier."""

    def __init__(self, env, tensors, depth, sink, mult, printing, in_async=False, top=False):
        self.env = env            # list of Buf visible here
        self.tensors = tensors    # list of TensorVal visible here
        self.depth = depth
        self.sink = sink          # memref<1xi64> alloca name accumulating hashes
        self.mult = mult          # how many times this code may run (bounds floats)
        self.printing = printing  # print each hash (main, not async)
        self.in_async = in_async
        self.top = top            # top level of a function body: may open cf blocks
        self.no_cfg = False

    def child(self, mult=1, top=False):
        c = Ctx(list(self.env), list(self.tensors), self.depth + 1, self.sink,
                self.mult * mult, self.printing, self.in_async, top)
        c.no_cfg = True
        return c

