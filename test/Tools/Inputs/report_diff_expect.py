#!/usr/bin/env python3
"""FileCheck lines for memplan-report-diff A B, derived from the two JSON
reports themselves: per function in both, the arena bytes, the peak (task
and live bytes), the buffer counts, and each buffer (matched by location,
op and type, when that key is unique) whose offset differs.

  report_diff_expect.py A.json B.json > checks
"""
import json
import sys


def key(b):
    if not b.get("location"):
        return "#%s" % b["id"]
    return "%s %s %s" % (b["location"], b.get("op", ""), b.get("type", ""))


def main():
    a, b = (json.load(open(p)) for p in sys.argv[1:3])
    fb = {f["function"]: f for f in b["functions"]}
    both = 0
    for f in a["functions"]:
        g = fb.get(f["function"])
        if g is None:
            continue
        both += 1
        print("CHECK-LABEL: @%s" % f["function"])
        gb = {x["memory_space"]: x for x in g["arenas"]}
        for x in f["arenas"]:
            y = gb.get(x["memory_space"])
            if y is None:
                continue
            print("CHECK: arena bytes %d -> %d" % (x["arena_size"], y["arena_size"]))
            print("CHECK: peak task %d, %d B -> task %d, %d B" %
                  (x["peak"]["task"], x["lower_bound"], y["peak"]["task"], y["lower_bound"]))
            print("CHECK: buffers %d -> %d:" % (len(x["buffers"]), len(y["buffers"])))
            kx = [key(v) for v in x["buffers"]]
            ky = {key(v): v for v in y["buffers"]}
            for v in x["buffers"]:
                k = key(v)
                w = ky.get(k)
                if w and kx.count(k) == 1 and v["offset"] != w["offset"]:
                    print("CHECK-DAG: offset %d -> %d" % (v["offset"], w["offset"]))
    print("CHECK: functions in both: %d" % both)


if __name__ == "__main__":
    main()
