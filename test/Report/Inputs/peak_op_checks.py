"""Prints the FileCheck line memplan-report-diff's "peak op" line must match
for two reports of one function: each arena's op at its peak task, read from
the report's own task_ops (op, then the location without folders).

usage: peak_op_checks.py A.json B.json
"""
import json
import os
import re
import sys


def peak_op(path):
    arena = json.load(open(path))["functions"][0]["arenas"][0]
    ops = {t["task"]: t for t in arena["task_ops"]}
    t = ops[arena["peak"]["task"]]
    m = re.fullmatch(r'loc\("(.*)":(\d+):(\d+)\)', t["location"])
    return f"{t['op']} at {os.path.basename(m[1])}:{m[2]}:{m[3]}"


print(f"CHECK: peak op {peak_op(sys.argv[1])} -> {peak_op(sys.argv[2])}")
