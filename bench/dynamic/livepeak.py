#!/usr/bin/env python3
"""The live peak of a bufferized program, computed from its IR.

Input: the output of `one-shot-bufferize` (no deallocation) printed with
--mlir-print-op-generic, with straight-line function bodies (as
gen_workloads.py writes them). Starting at `main`, the walk runs every
function body in order; each op is one program point. A buffer (a
memref.alloc, or a buffer a call returns) is live from the op that creates it
to the last op that uses it or any of its views (any op with a memref result
and a memref operand is a view of that operand); a returned buffer lives to
the end of the function and then in the caller. A call's point counts the
caller's live buffers plus the callee's own peak. Sizes are evaluated from the
IR: arith.constant, memref.dim of an argument or an alloc, arith.addi/subi/
muli/divsi/divui. The live peak is the maximum over program points of the
bytes of the live buffers (exact sizes, no alignment): no allocator can keep
all of a program's buffers in less.

Usage: livepeak.py FILE  -> prints "live peak bytes: N"
"""
import re
import sys

ELEM = {"f32": 4, "f16": 2, "bf16": 2, "f64": 8, "i8": 1, "i1": 1, "i16": 2,
        "i32": 4, "i64": 8, "index": 8}
OP = re.compile(r'^(\s*)(?:(%[\w]+)(?::\d+)? = )?"([\w.]+)"\(([^)]*)\)')
MEMREF = re.compile(r"memref<([^>]*)>")


def parse_memref(t):
    dims = t.split("x")
    elem = dims[-1].split(",")[0].strip()
    return [None if d == "?" else int(d) for d in dims[:-1]], ELEM[elem]


def parse(path):
    funcs = {}
    cur = None
    depth = None
    for line in open(path):
        m = OP.match(line)
        if line.lstrip().startswith('"func.func"'):
            name = re.search(r'sym_name = "([\w]+)"', line).group(1)
            cur = funcs[name] = {"ops": [], "args": []}
            depth = None
            continue
        if cur is None:
            continue
        s = line.strip()
        if s.startswith("^bb0(") and depth is None:
            cur["args"] = re.findall(r"(%\w+): ", s)
            cur["argtypes"] = re.findall(r"%\w+: ([^,)]+(?:<[^>]*>)?)", s)
            continue
        if m:
            ind = len(m.group(1))
            if depth is None:
                depth = ind
            if ind == depth:
                res = m.group(2)
                opname = m.group(3)
                operands = re.findall(r"%\w+", m.group(4))
                tail = line.rsplit("->", 1)[-1] if "->" in line else ""
                attrs = line[m.end():]
                cur["ops"].append({"res": res, "op": opname, "operands": operands,
                                   "restype": tail.strip(), "attrs": attrs, "uses": set(operands)})
                continue
        # nested lines (region bodies, closing lines) belong to the last op
        if cur["ops"]:
            last = cur["ops"][-1]
            last["uses"].update(re.findall(r"%\w+", s.split(":")[0] if s.startswith("})") else s))
            if s.startswith("})") and "->" in s:
                last["restype"] = s.rsplit("->", 1)[-1].strip()
    return funcs


def simulate(funcs, name, argvals):
    """argvals: per argument, ("buf", shape) or ("idx", int).
    Returns (peak bytes of the buffers this call creates, [shapes of returned buffers])."""
    f = funcs[name]
    ops = f["ops"]
    val = {}      # ssa -> int (index values)
    root = {}     # ssa -> buffer id (or None for arguments/globals)
    shape = {}    # ssa -> [dims]
    bufs = {}     # id -> [first, last, bytes]
    extra = {}    # point -> callee peak
    for a, v in zip(f["args"], argvals):
        if v[0] == "buf":
            shape[a] = v[1]
            root[a] = None
        else:
            val[a] = v[1]
    rets = []
    for i, op in enumerate(ops):
        o, r = op["op"], op["res"]
        ins = op["operands"]
        if o == "arith.constant":
            m = re.search(r"value = (-?\d+) : (index|i64|i32)", op["attrs"])
            if m:
                val[r] = int(m.group(1))
        elif o in ("arith.addi", "arith.subi", "arith.muli", "arith.divsi", "arith.divui",
                   "arith.index_cast") and all(x in val for x in ins):
            a = [val[x] for x in ins]
            val[r] = {"arith.addi": lambda: a[0] + a[1], "arith.subi": lambda: a[0] - a[1],
                      "arith.muli": lambda: a[0] * a[1], "arith.divsi": lambda: a[0] // a[1],
                      "arith.divui": lambda: a[0] // a[1], "arith.index_cast": lambda: a[0]}[o]()
        elif o == "memref.dim":
            val[r] = shape[ins[0]][val[ins[1]]]
        elif o == "memref.alloc":
            dims, eb = parse_memref(MEMREF.search(op["restype"]).group(1))
            dyn = iter(ins)
            dims = [d if d is not None else val[next(dyn)] for d in dims]
            n = eb
            for d in dims:
                n *= d
            shape[r] = dims
            root[r] = len(bufs)
            bufs[len(bufs)] = [i, i, n]
        elif o == "func.call":
            callee = re.search(r"callee = @(\w+)", op["attrs"]).group(1)
            args = [("buf", shape[x]) if x in shape else ("idx", val.get(x)) for x in ins]
            peak, rshapes = simulate(funcs, callee, args)
            extra[i] = peak
            if r and rshapes:  # not a scalar result (rtclock)
                dims, n = rshapes[0]
                shape[r] = dims
                root[r] = len(bufs)
                bufs[len(bufs)] = [i, i, n, "call"]
        elif o == "func.return":
            for x in ins:
                b = root.get(x)
                if b is not None:
                    bufs[b][1] = len(ops)
                    rets.append((shape.get(x), bufs[b][2]))
        elif r and "memref<" in op["restype"] and any(x in root for x in ins):
            src = next(x for x in ins if x in root)
            root[r] = root[src]
            if o == "memref.get_global":
                root[r] = None
        elif r and o == "memref.get_global":
            root[r] = None
        for x in op["uses"]:
            b = root.get(x)
            if b is not None and bufs[b][1] < i:
                bufs[b][1] = i
    peak = 0
    for i in range(len(ops) + 1):
        live = sum(b[2] for b in bufs.values()
                   if b[0] <= i <= b[1] and not (len(b) > 3 and b[0] == i))
        peak = max(peak, live + extra.get(i, 0))
    return peak, rets


def main():
    funcs = parse(sys.argv[1])
    peak, _ = simulate(funcs, "main", [])
    print(f"live peak bytes: {peak}")


if __name__ == "__main__":
    main()
