"""Writes a MiniMalloc CSV of N records: one huge buffer live throughout and
N-1 small ones of varied sizes and lifetimes (a picture where a linear offset
axis squashes almost everything into a few pixels).

usage: many_records.py N OUT.csv
"""
import random
import sys

n, out = int(sys.argv[1]), sys.argv[2]
rng = random.Random(7)
tasks = 2 * n
with open(out, "w") as f:
    f.write("id,lower,upper,size\n")
    f.write(f"0,0,{tasks},{1 << 30}\n")
    for i in range(1, n):
        lo = rng.randrange(tasks - 1)
        hi = min(tasks, lo + 1 + rng.randrange(60))
        f.write(f"{i},{lo},{hi},{64 * rng.randrange(1, 4096)}\n")
