"""Checks the "chosen", "peak" and "writer" fields of a tensor-mem-plan report.

usage: check_peak.py REPORT.json
For every arena: "chosen" names a real strategy (not "auto"); the buffers of
"peak.live" are live at "peak.task" and their aligned sizes sum to
"lower_bound" (a live-bytes bound, so nothing else is live there beyond it); every buffer has a writer op and location. Prints one line
per arena and exits 1 on any mismatch.
"""
import collections
import json
import sys

report = json.load(open(sys.argv[1]))
ok = True
for f in report["functions"]:
    for a in f["arenas"]:
        align = a["alignment"]
        by_id = {b["id"]: b for b in a["buffers"]}
        peak = a["peak"]
        t = peak["task"]
        live = [by_id[i] for i in peak["live"]]
        total = sum((b["size"] + align - 1) // align * align for b in live)
        inside = all(b["first_task"] <= t <= b["last_task"] for b in live)
        every = sorted(b["id"] for b in a["buffers"]
                       if b["first_task"] <= t <= b["last_task"])
        writers = collections.Counter(b["writer"]["op"] for b in a["buffers"])
        located = all(b["writer"]["location"].startswith("loc(") for b in a["buffers"])
        good = (total == a["lower_bound"] and inside
                and every == sorted(peak["live"]) and a["chosen"] != "auto"
                and located)
        ok = ok and good
        print(f"{f['function']}: chosen {a['chosen']}, peak sums to bound "
              f"{'yes' if good else 'NO'}, linalg writers "
              f"{sum(n for op, n in writers.items() if op.startswith('linalg.'))}, "
              f"alloc writers {writers.get('memref.alloc', 0)}")
sys.exit(0 if ok else 1)
