"""Compare two memplan reports of one net, without and with hoist-constants.

check_weights.py OFF.json ON.json TYPE: TYPE is the memref type of the
constant-derived weight; prints whether the arena plans it, the arenas,
whether the arena with hoisting sits at its live bound, and how the weights
list it.
"""
import json
import sys


def forward(path):
    fns = json.load(open(path))["functions"]
    return next(f for f in fns if not f["function"].startswith("__memplan_"))


off, on, ty = forward(sys.argv[1]), forward(sys.argv[2]), sys.argv[3]
for name, fn in (("off", off), ("on", on)):
    planned = [b for a in fn["arenas"] for b in a["buffers"] if b["type"] == ty]
    print("%s: weight in arena %s" % (name, "yes" if planned else "no"))
arena = lambda f: sum(a["arena_size"] for a in f["arenas"])
bound = lambda f: sum(a["lower_bound"] for a in f["arenas"])
print("on arena %s off arena" % ("<" if arena(on) < arena(off) else
                                 "==" if arena(on) == arena(off) else ">"))
print("on arena at bound %s" % ("yes" if arena(on) == bound(on) else "no"))
dims = ty[len("memref<"):-1].split("x")
size = 4
for d in dims[:-1]:
    size *= int(d)
print("weights: " + " ".join(sorted("%s %d" % (b["kind"], b["bytes"])
                                    for b in on["weights"]["buffers"]
                                    if b["bytes"] == size)))
print("weights bytes sum ok %s" % (
    "yes" if on["weights"]["bytes"] ==
    sum(b["bytes"] for b in on["weights"]["buffers"]) else "no"))
