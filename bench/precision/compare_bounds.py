#!/usr/bin/env python3
"""Compare memplan's live-bytes bound with upstream MLIR's own liveness.

For every network in ../shared/models/*.mlir (or $MEMPLAN_SHARED_DIR/models):

  memplan : memplan-opt NET --one-shot-bufferize="bufferize-function-boundaries"
                            --tensor-mem-plan="report=R.json alignment=64"
            bound = max over tasks of the bytes of the records live at that task
            (report sizes as they are = raw; each size rounded up to 64 = aligned;
            the aligned one must equal the report's lower_bound).
  upstream: mlir-opt NET --one-shot-bufferize="bufferize-function-boundaries
                            function-boundary-type-conversion=identity-layout-map"
                         --buffer-results-to-out-params[=modify-public-functions]
                         --buffer-deallocation-pipeline --optimize-allocation-liveness
            bound = peak of a walk over the function's ops in program order:
            +size at each static memref.alloc, -size at its memref.dealloc.

Buffers are matched across the two programs by (source location, type,
occurrence). Ranges are compared on a common axis: the sequence of top-level
linalg ops ("anchors"), which both bufferized programs share op for op.
A memplan buffer whose last task lies past the anchor after which upstream
deallocs it is "over-long" (upstream proves it dead earlier).

Usage: compare_bounds.py [--detail] [--keep DIR] [--hoist] [--i1-bits] [NET ...]
  --detail  per net: buffers on one side only, memplan's peak, every memplan
            range longer than upstream's (none found), same-IR mismatches
  --hoist   buffer-results-to-out-params hoist-static-allocs: the returned
            alloc becomes the out-param (no copy, not counted upstream)
  --i1-bits size upstream i1 as packed bits (reproduces the issue's figures)
  --keep D  keep memplan's JSON reports in D
"""
import argparse
import glob
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MODELS = os.path.join(os.environ.get("MEMPLAN_SHARED_DIR",
                                     os.path.join(ROOT, "..", "shared")), "models")
MEMPLAN_OPT = os.environ.get("MEMPLAN_OPT",
                             os.path.join(ROOT, "build", "bin", "memplan-opt"))
MLIR_OPT = "/usr/lib/llvm-22/bin/mlir-opt"
ALIGN = 64
I1_BITS = False
PRINT = ["--mlir-print-op-generic", "--mlir-print-debuginfo",
         "--mlir-print-local-scope"]


def run(cmd):
    for attempt in range(10):
        exe = cmd[0]
        if not os.path.exists(exe):       # the build dir is rebuilt by others
            time.sleep(30)
            continue
        p = subprocess.run(cmd, capture_output=True, text=True)
        if p.returncode != 0:
            raise RuntimeError("command failed: %s\n%s" % (" ".join(cmd),
                                                           p.stderr[-3000:]))
        return p
    raise RuntimeError("missing " + cmd[0])


# ---------------------------------------------------------------- IR parsing
ELEM_BYTES = {"f16": 2, "bf16": 2, "f32": 4, "f64": 8, "index": 8,
              "f8E4M3FN": 1, "f8E5M2": 1}


def elem_bytes(t):
    if t in ELEM_BYTES:
        return ELEM_BYTES[t]
    m = re.fullmatch(r"[su]?i(\d+)", t)
    if m:
        b = (int(m.group(1)) + 7) // 8
        p = 1
        while p < b:
            p *= 2
        return p
    raise ValueError("element type " + t)


def memref_bytes(ty):
    """bytes of a static identity-layout memref type string, else None"""
    m = re.match(r"memref<([^,>]*)", ty)
    if not m:
        return None
    parts = m.group(1).split("x")
    n = 1
    for d in parts[:-1]:
        if d == "?":
            return None
        n *= int(d)
    return n * elem_bytes(parts[-1].strip())


def align_up(n, a=ALIGN):
    return (n + a - 1) // a * a


OP_RE = re.compile(r'^\s*(?:(%[\w]+)(?::\d+)?(?:\s*,\s*%[\w]+)* = )?"([\w.]+)"\((.*?)\)')
LOC_RE = re.compile(r'loc\((.*)\)\s*$')


class Op:
    __slots__ = ("idx", "end", "name", "result", "operands", "loc", "rtype",
                 "depth", "line")

    def __repr__(self):
        return "%s@%s#%d" % (self.name, self.loc, self.idx)


def parse_functions(text):
    """Generic-form IR -> {func name: [Op] in pre-order} (task numbering of
    memplan: every op in the function body, nested ops included, an op's own
    number before its regions'; .end = last number inside its regions)."""
    funcs = {}
    cur = None
    stack = []         # open region ops (inside the current function)
    for line in text.splitlines():
        s = line.strip()
        if cur is None:
            if s.startswith('"func.func"'):
                name = re.search(r'sym_name = "([^"]+)"', s).group(1)
                cur = funcs.setdefault(name, [])
                stack = []
            continue
        if s.startswith("^"):
            continue
        if s.startswith("})") or s.startswith("}, {"):
            if s.startswith("})"):
                if not stack:          # end of the function
                    cur = None
                    continue
                op = stack.pop()
                op.end = len(cur) - 1
                m = LOC_RE.search(s)
                op.loc = m.group(1) if m else None
                tm = re.search(r':\s*\(.*\)\s*->\s*(.*?)\s*loc\(', s)
                op.rtype = tm.group(1) if tm else ""
            continue
        m = OP_RE.match(line)
        if not m:
            continue
        op = Op()
        op.idx = len(cur)
        op.end = op.idx
        op.result = m.group(1)
        op.name = m.group(2)
        op.operands = re.findall(r"%[\w#]+", m.group(3))
        op.depth = len(stack)
        op.line = s[:160]
        cur.append(op)
        if s.endswith("({"):
            stack.append(op)
            op.loc = None
        else:
            lm = LOC_RE.search(s)
            op.loc = lm.group(1) if lm else None
            tm = re.search(r'->\s*(.*?)\s*loc\(', s)
            op.rtype = tm.group(1) if tm else ""
    return funcs


def short_loc(loc):
    if loc is None:
        return "?"
    m = re.search(r'":(\d+:\d+)', loc)
    return m.group(1) if m else loc


# ---------------------------------------------------------------- bounds
def sweep(intervals):
    """intervals: [(first, last, size)] inclusive -> (peak, task at peak)"""
    ev = defaultdict(int)
    for f, l, s in intervals:
        ev[f] += s
        ev[l + 1] -= s
    cur = best = 0
    at = None
    for t in sorted(ev):
        cur += ev[t]
        if cur > best:
            best, at = cur, t
    return best, at


def memplan_side(net, tmp):
    rep = os.path.join(tmp, "r.json")
    run([MEMPLAN_OPT, net, "--one-shot-bufferize=bufferize-function-boundaries",
         "--tensor-mem-plan=report=%s alignment=%d" % (rep, ALIGN),
         "-o", os.devnull])
    report = json.load(open(rep))
    # The same bufferized program, printed, for the task numbering.
    ir = run([MEMPLAN_OPT, net,
              "--one-shot-bufferize=bufferize-function-boundaries"] + PRINT).stdout
    return report, parse_functions(ir)


def upstream_side(net, hoist, tmp=None):
    brtop = "--buffer-results-to-out-params=modify-public-functions"
    if hoist:
        brtop += " hoist-static-allocs"
    ir = run([MLIR_OPT, net,
              "--one-shot-bufferize=bufferize-function-boundaries "
              "function-boundary-type-conversion=identity-layout-map",
              brtop, "--buffer-deallocation-pipeline",
              "--optimize-allocation-liveness"] + PRINT).stdout
    same = None
    if tmp:
        # memplan's own analysis over upstream's program: same ops, same
        # task numbers, so its records can be checked against the deallocs.
        up = os.path.join(tmp, "up.mlir")
        open(up, "w").write(ir)
        rep = os.path.join(tmp, "up.json")
        run([MEMPLAN_OPT, up, "--tensor-mem-plan=report=%s alignment=%d"
             % (rep, ALIGN), "-o", os.devnull])
        same = json.load(open(rep))
    return parse_functions(ir), same


def is_anchor(op):
    return op.depth == 0 and op.name.startswith("linalg.")


def anchors_before(ops):
    """prefix count: anchors[i] = number of anchor ops with index <= i"""
    out, n = [], 0
    for op in ops:
        if is_anchor(op):
            n += 1
        out.append(n)
    return out


def upstream_buffers(ops):
    """static allocs with their dealloc index (None: never deallocated)"""
    allocs = {}
    order = []
    for op in ops:
        if op.name == "memref.alloc" and op.depth == 0:
            size = memref_bytes(op.rtype)
            if size is None:
                continue
            b = {"op": op, "size": size, "first": op.idx, "dealloc": None,
                 "type": op.rtype, "loc": op.loc}
            allocs[op.result] = b
            order.append(b)
        elif op.name == "memref.dealloc":
            v = op.operands[0]
            if v in allocs:
                allocs[v]["dealloc"] = op.idx
            else:
                print("  note: dealloc of a non-alloc value", op.line,
                      file=sys.stderr)
    return order


def upstream_peak(bufs, n_ops, aligned):
    iv = []
    for b in bufs:
        last = b["dealloc"] - 1 if b["dealloc"] is not None else n_ops
        iv.append((b["first"], last, align_up(b["size"]) if aligned else b["size"]))
    return sweep(iv)


def key_counter(items, keyf):
    seen = Counter()
    out = {}
    for it in items:
        k = keyf(it)
        out[k + (seen[k],)] = it
        seen[k] += 1
    return out


def analyze(path, hoist, detail, keep):
    net = os.path.basename(path)[:-5]
    with tempfile.TemporaryDirectory() as tmp:
        report, mfuncs = memplan_side(path, tmp)
        ufuncs, same = upstream_side(path, hoist, tmp)
        if keep:
            os.makedirs(keep, exist_ok=True)
            json.dump(report, open(os.path.join(keep, net + ".report.json"), "w"),
                      indent=1)
    rows = []
    for fn in report["functions"]:
        name = fn["function"]
        mops, uops = mfuncs[name], ufuncs[name]
        assert len(mops) == fn["num_tasks"], (len(mops), fn["num_tasks"])
        recs = [b for a in fn["arenas"] for b in a["buffers"]]
        raw, raw_at = sweep([(b["first_task"], b["last_task"], b["size"]) for b in recs])
        ali, _ = sweep([(b["first_task"], b["last_task"], align_up(b["size"]))
                        for b in recs])
        lb = max([a["lower_bound"] for a in fn["arenas"]] or [0])
        assert len(fn["arenas"]) <= 1 and ali == lb, (ali, lb)
        ubufs = upstream_buffers(uops)
        if I1_BITS:      # only to reproduce the figures: i1 packed
            for b in ubufs:
                if b["type"].endswith("xi1>") or b["type"] == "memref<i1>":
                    b["size"] = (b["size"] + 7) // 8
        uraw, uraw_at = upstream_peak(ubufs, len(uops), False)
        uali, _ = upstream_peak(ubufs, len(uops), True)

        # ---- matching by (loc, type, occurrence)
        for b in recs:
            assert mops[b["first_task"]].name == "memref.alloc"
            b["loc"] = mops[b["first_task"]].loc
        mk = key_counter(recs, lambda b: (b["loc"], b["type"]))
        uk = key_counter(ubufs, lambda b: (b["loc"], b["type"]))
        only_m = [mk[k] for k in mk if k not in uk]
        only_u = [uk[k] for k in uk if k not in mk]
        # ---- common axis: top-level linalg ops
        ma, ua = anchors_before(mops), anchors_before(uops)
        mseq = [(o.name, o.loc) for o in mops if is_anchor(o)]
        useq = [(o.name, o.loc) for o in uops if is_anchor(o)]
        same_axis = mseq == useq
        longer, shorter = [], []
        for k in mk:
            if k not in uk:
                continue
            m, u = mk[k], uk[k]
            if u["dealloc"] is None:
                continue
            # anchors that memplan keeps the buffer alive through vs upstream
            m_end = ma[m["last_task"]]
            u_end = ua[u["dealloc"]]
            if same_axis and m_end > u_end:
                longer.append((m, u, m_end - u_end))
            if same_axis and m_end < u_end:
                shorter.append((m, u, u_end - m_end))
        # ---- memplan's analysis over upstream's own program (same tasks)
        sfn = next(f for f in same["functions"] if f["function"] == name)
        assert sfn["num_tasks"] == len(uops), (sfn["num_tasks"], len(uops))
        srecs = [b for a in sfn["arenas"] for b in a["buffers"]]
        s_lb = max([a["lower_bound"] for a in sfn["arenas"]] or [0])
        by_first = {b["first"]: b for b in ubufs}
        s_over, s_slack = [], []
        for r in srecs:
            d = by_first[r["first_task"]]["dealloc"]
            if d is None:
                continue
            if r["last_task"] >= d:
                s_over.append(r)
            elif any(o.depth == 0 and o.name != "memref.dealloc"
                     for o in uops[r["last_task"] + 1:d]):
                s_slack.append(r)
        # ---- bound with upstream's ranges over memplan's tasks
        # (anchor index -> memplan task of that anchor's end)
        manch = [o for o in mops if is_anchor(o)]
        fixed = []
        for k, m in mk.items():
            last = m["last_task"]
            if k in uk and uk[k]["dealloc"] is not None and same_axis:
                n = ua[uk[k]["dealloc"]]      # anchors before upstream's dealloc
                # live through the end of the n-th anchor (or its alloc)
                cand = manch[n - 1].end if n > 0 else m["first_task"]
                last = min(last, max(cand, m["first_task"]))
            fixed.append((m["first_task"], last, m["size"]))
        fixed_raw, _ = sweep(fixed)
        # ---- records starting at the first use of the alloc's value instead
        # of at the alloc (a view counts as a use: conservative)
        first_use = {}
        for o in mops:
            for v in o.operands:
                first_use.setdefault(v, o.idx)
        late_raw, _ = sweep([(first_use.get(mops[b["first_task"]].result,
                                            b["first_task"]),
                              b["last_task"], b["size"]) for b in recs])
        row = dict(net=net, func=name, m_raw=raw, m_ali=ali, u_raw=uraw,
                   u_ali=uali, n_m=len(recs),
                   n_unpl=len(fn.get("unplanned", [])), n_u=len(ubufs),
                   only_m=len(only_m), only_u=len(only_u),
                   only_u_bytes=sum(b["size"] for b in only_u),
                   longer=len(longer), shorter=len(shorter),
                   s_lb=s_lb, s_n=len(srecs), s_over=len(s_over),
                   s_slack=len(s_slack), late_raw=late_raw, fixed_raw=fixed_raw, same_axis=same_axis)
        rows.append(row)
        if detail:
            print("== %s/%s" % (net, name))
            print("memplan peak raw %d at task %s; upstream peak raw %d at op %s"
                  % (raw, raw_at, uraw, uraw_at))
            print("memplan bound with upstream's ends: %d" % fixed_raw)
            print("anchor sequences identical:", same_axis, len(mseq), len(useq))
            for b in only_u:
                print("  only upstream: %s %s size %d alloc op %d dealloc %s"
                      % (b["type"], short_loc(b["loc"]), b["size"], b["first"],
                         b["dealloc"]))
            for b in only_m:
                print("  only memplan : %s %s size %d [%d,%d]"
                      % (b["type"], short_loc(b["loc"]), b["size"],
                         b["first_task"], b["last_task"]))
            for r in s_over + s_slack:
                print("  same-IR: %s %s memplan [%d,%d], upstream dealloc at op %d"
                      % (r["type"], short_loc(r["location"]), r["first_task"],
                         r["last_task"], by_first[r["first_task"]]["dealloc"]))
            for u in fn.get("unplanned", []):
                print("  memplan unplanned:", short_loc(u["location"]), u["reason"])
            live_at_peak = [b for b in recs
                            if b["first_task"] <= raw_at <= b["last_task"]]
            peak_anchor = ma[raw_at]
            print("  memplan peak: task %d = %s, anchor #%d"
                  % (raw_at, mops[raw_at].line[:110], peak_anchor))
            for m, u, d in sorted(longer, key=lambda x: -x[0]["size"]):
                lu = mops[m["last_task"]]
                while lu.depth > 0:
                    lu = next(o for o in reversed(mops[:lu.idx]) if o.idx <= lu.idx
                              and o.end >= lu.idx and o.depth < lu.depth)
                prev = uops[u["dealloc"] - 1]
                at_peak = m in live_at_peak and ua[u["dealloc"]] < peak_anchor
                print("  over-long: %s %s size %d memplan [%d,%d] last=%s@%s; "
                      "upstream dealloc after %s@%s (%d anchors earlier)%s"
                      % (m["type"], short_loc(m["loc"]), m["size"], m["first_task"],
                         m["last_task"], lu.name, short_loc(lu.loc), prev.name,
                         short_loc(prev.loc), d,
                         "  <-- live at memplan's peak" if at_peak else ""))
    return rows


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("nets", nargs="*")
    ap.add_argument("--detail", action="store_true")
    ap.add_argument("--hoist", action="store_true")
    ap.add_argument("--keep")
    ap.add_argument("--i1-bits", action="store_true",
                    help="size upstream i1 buffers as packed bits (wrong: "
                         "LLVM stores an i1 per byte); reproduces the issue")
    a = ap.parse_args()
    global I1_BITS
    I1_BITS = a.i1_bits
    nets = a.nets or sorted(glob.glob(os.path.join(MODELS, "*.mlir")))
    nets = [n if n.endswith(".mlir") else os.path.join(MODELS, n + ".mlir")
            for n in nets]
    hdr = ("| net | memplan raw | memplan al64 | upstream raw | upstream al64 "
           "| diff raw | diff al64 | bufs memplan (+unplanned) | allocs upstream "
           "| only upstream (B) | only memplan | memplan ranges longer / shorter "
           "| memplan raw w/ upstream ends | memplan on upstream IR: al64 bound, "
           "records, past dealloc, ends before dealloc "
           "| memplan raw, records from first use |")
    print(hdr)
    print("|" + "---|" * (hdr.count("|") - 1))
    for n in nets:
        for r in analyze(n, a.hoist, a.detail, a.keep):
            print("| %s | %d | %d | %d | %d | %+d | %+d | %d (+%d) | %d | %d (%d) "
                  "| %d | %d / %d | %d | %d, %d, %d, %d | %d (%+.1f%%) |"
                  % (r["net"], r["m_raw"], r["m_ali"], r["u_raw"], r["u_ali"],
                     r["m_raw"] - r["u_raw"], r["m_ali"] - r["u_ali"], r["n_m"],
                     r["n_unpl"], r["n_u"], r["only_u"], r["only_u_bytes"],
                     r["only_m"], r["longer"], r["shorter"], r["fixed_raw"],
                     r["s_lb"], r["s_n"], r["s_over"], r["s_slack"],
                     r["late_raw"], 100.0 * (r["late_raw"] - r["m_raw"]) / max(r["m_raw"], 1)),
                  flush=True)


if __name__ == "__main__":
    main()
