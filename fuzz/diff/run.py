#!/usr/bin/env python3
"""Differential fuzzer for memplan: random memref programs (gen.py), each run
unplanned and planned by `memplan-opt --tensor-mem-plan` (every strategy,
several alignments, cycled over the seeds), outputs compared; every JSON
report is checked independently: no two buffers whose [first, last] task
ranges intersect may share a byte, offsets are aligned and inside the arena.

Exit status: 0 when nothing was found, 1 on any finding (mismatch, report
overlap, crash or error of memplan-opt, hang), 2 on a generator bug (an
unplanned program that does not lower or run).

  run.py --seeds 1-200 --jobs 2           fixed batch
  run.py --seconds 600 --jobs 2           run until time (seeds from --seeds start)
  run.py --seeds 7 --strategies all --alignments 8,64,256 -v   one seed, every variant

A finding is written to --out (default /tmp/memplan-fuzz-diff/): the program,
the planned IR, both outputs, the report and the commands that reproduce it.
"""
import argparse
import concurrent.futures as cf
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import gen  # noqa: E402
import shapes  # noqa: E402

LOWER = ["--one-shot-bufferize",
         "--async-to-async-runtime", "--async-runtime-ref-counting",
         "--async-runtime-ref-counting-opt", "--convert-async-to-llvm",
         "--convert-linalg-to-loops", "--expand-strided-metadata", "--lower-affine",
         "--convert-scf-to-cf", "--finalize-memref-to-llvm", "--convert-arith-to-llvm",
         "--convert-func-to-llvm", "--convert-cf-to-llvm", "--reconcile-unrealized-casts"]
ALIGNMENTS = [8, 16, 64, 256]
TIMEOUT = 60


def parse_seeds(text):
    """'A-B' (inclusive), 'A-' (from A on, with --seconds) or 'A'; None if
    malformed."""
    a, dash, b = text.partition("-")
    if not a.isdigit() or (b and not b.isdigit()) or (b and int(b) < int(a)):
        return None
    return int(a), (int(b) if b else None) if dash else int(a)


class Tools:
    def __init__(self, a):
        self.opt = a.memplan_opt
        self.runner = os.path.join(a.llvm_bin, "mlir-runner")
        lib = a.llvm_lib
        self.libs = [os.path.join(lib, "libmlir_runner_utils.so"),
                     os.path.join(lib, "libmlir_c_runner_utils.so")]
        self.async_lib = os.path.join(lib, "libmlir_async_runtime.so")
        self.rt_lib = a.runtime_lib
        self.has_async = os.path.exists(self.async_lib)

    def opt_cmd(self, inp, flags, out):
        return [self.opt, inp] + flags + ["-o", out]

    def run_cmd(self, inp, runtime=False, level="-O0"):
        libs = list(self.libs)
        if self.has_async:
            libs.append(self.async_lib)
        if runtime:
            libs.append(self.rt_lib)
        # -O0: the JIT's default level crashes on async coroutines (measured);
        # shapes programs (no async) run at -O2 every --o2-every seeds
        return [self.runner, level, inp, "-e", "main", "-entry-point-result=void",
                "-shared-libs=" + ",".join(libs)]


def sh(cmd):
    return " ".join("'%s'" % c if any(x in c for x in " ;()=\"") else c for c in cmd)


# The runtime's purging under lowered code. The default delay (1000 ms)
# never purges in a program this short, so half the runs that use the
# runtime purge pages free for 1 ms, with the purge thread making its passes
# beside the program (MEMPLAN_RT_PURGE_THREAD): a page purged under a live
# block would read back as zeros. The stats at exit give the bytes purged.
# (Eager purging, MEMPLAN_RT_PURGE_DELAY_MS=0, and a frag cap of 1.0 purged
# nothing in 501 programs: their heaps never grow past a peak.)
RT_ENVS = [{},
           {"MEMPLAN_RT_PURGE_DELAY_MS": "1", "MEMPLAN_RT_PURGE_THREAD": "1",
            "MEMPLAN_RT_STATS": "1"}]
# Programs that call a dynamic function in a loop (shapes feature repeat)
# plan every repeated episode (MEMPLAN_RT_REPLAY=2: their buffers are too
# small for the default's rule on a plan's records), so that a plan that
# served a block still in use would show; the rest run with the default.
REPLAY_ENV = {"MEMPLAN_RT_REPLAY": "2", "MEMPLAN_RT_STATS": "1"}


def runtime_env(seed, k, stats=True):
    env = dict(RT_ENVS[(seed + k) % len(RT_ENVS)])
    if not stats:
        env.pop("MEMPLAN_RT_STATS", None)
    return env


def purged_bytes(err):
    m = re.search(r"^bytes purged \(total\): (\d+)$", err, re.M)
    return int(m.group(1)) if m else 0


def count_purges(st, err):
    if purged_bytes(err):
        st.add(runtime_purges=1)
    # Learned plans of repeated episodes (on by default for lowered code).
    m = re.search(r"^allocs served by those plans: (\d+)$", err, re.M)
    if m and int(m.group(1)):
        st.add(runtime_replays=1)
        # episodes of two kinds or more (repeat's turns), a plan each
        k = re.search(r"^repeated episodes planned \(MEMPLAN_RT_REPLAY\): (\d+)$", err, re.M)
        if k and int(k.group(1)) >= 2:
            st.add(runtime_replay_kinds=1)


def env_prefix(env):
    return "env %s " % " ".join("%s=%s" % kv for kv in sorted(env.items())) if env else ""


def set_timeout(t):
    global TIMEOUT
    TIMEOUT = t


def call(cmd, timeout=None, env=None):
    """(status, stdout, stderr); status 'ok', 'error' (rc != 0), 'crash' (signal), 'timeout'."""
    for attempt in range(40):  # build/bin may be momentarily missing during a rebuild
        try:
            p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               timeout=timeout or TIMEOUT,
                               env=dict(os.environ, **env) if env else None)
            break
        except (PermissionError, FileNotFoundError, OSError) as e:
            if isinstance(e, subprocess.TimeoutExpired) or attempt == 39:
                raise
            time.sleep(15)
        except subprocess.TimeoutExpired as e:
            return "timeout", (e.stdout or b"").decode(errors="replace"), \
                (e.stderr or b"").decode(errors="replace")
    out, err = p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")
    if p.returncode == 0:
        return "ok", out, err
    return ("crash" if p.returncode < 0 or "Stack dump" in err or "PLEASE submit" in err
            else "error"), out, err


def required_alignment(b, prog_lines):
    """What a buffer needs: its element's size (natural alignment) and the
    alloc's {alignment = N}, found on the program line its location names."""
    need = 1
    m = re.search(r"x?(f64|f32|i64|i32|i16|i8|i1)>", b.get("type", ""))
    if m:
        need = gen.ELEM_BYTES.get(m.group(1), 1)
    m = re.search(r':(\d+):\d+\)', b.get("location", ""))
    if m and prog_lines and 0 < int(m.group(1)) <= len(prog_lines):
        a = re.search(r"memref\.alloc\([^)]*\) \{alignment = (\d+)", prog_lines[int(m.group(1)) - 1])
        if a:
            need = max(need, int(a.group(1)))
    return need


def check_report(path, prog_lines=None):
    """Independent check of a JSON plan report; returns a list of problems."""
    try:
        with open(path) as fh:
            rep = json.load(fh)
    except (OSError, ValueError) as e:
        return ["report unreadable: %s" % e]
    probs = []
    for fn in rep.get("functions", []):
        for ai, ar in enumerate(fn.get("arenas", [])):
            align = ar.get("alignment", 1)
            size = ar.get("arena_size", 0)
            bufs = ar.get("buffers", [])
            for b in bufs:
                if align and b["offset"] % align:
                    probs.append("%s: buffer %s offset %d not aligned to %d" %
                                 (fn["function"], b["id"], b["offset"], align))
                need = required_alignment(b, prog_lines)
                if b["offset"] % need or (align and align % need):
                    probs.append("%s: buffer %s (%s) needs alignment %d: offset %d, arena "
                                 "alignment %d" % (fn["function"], b["id"], b.get("type"), need,
                                                   b["offset"], align))
                if b["offset"] < 0 or b["offset"] + b["size"] > size:
                    probs.append("%s: buffer %s [%d, %d) outside arena of %d bytes" %
                                 (fn["function"], b["id"], b["offset"],
                                  b["offset"] + b["size"], size))
            # An in-place pair (inplace_of) shares its bytes by design: one
            # offset, task ranges that meet at exactly one task.
            by_id = {b["id"]: b for b in bufs}
            pairs = set()
            for b in bufs:
                if "inplace_of" not in b:
                    continue
                a = by_id.get(b["inplace_of"])
                if a is None or a["offset"] != b["offset"] or \
                        a["last_task"] != b["first_task"] or \
                        a["first_task"] > a["last_task"] or b["first_task"] > b["last_task"]:
                    probs.append("%s arena %d: buffer %s in place of %s, but not at one offset "
                                 "meeting at one task" % (fn["function"], ai, b["id"],
                                                          b["inplace_of"]))
                    continue
                pairs.add((a["id"], b["id"]))
            for i in range(len(bufs)):
                a = bufs[i]
                for b in bufs[i + 1:]:
                    if a["first_task"] > b["last_task"] or b["first_task"] > a["last_task"]:
                        continue
                    if a["size"] == 0 or b["size"] == 0:
                        continue
                    if (a["id"], b["id"]) in pairs or (b["id"], a["id"]) in pairs:
                        continue
                    if a["offset"] < b["offset"] + b["size"] and \
                            b["offset"] < a["offset"] + a["size"]:
                        probs.append(
                            "%s arena %d: buffers %s [%d,%d] bytes [%d,%d) and %s [%d,%d] "
                            "bytes [%d,%d) overlap" % (
                                fn["function"], ai, a["id"], a["first_task"], a["last_task"],
                                a["offset"], a["offset"] + a["size"], b["id"],
                                b["first_task"], b["last_task"], b["offset"],
                                b["offset"] + b["size"]))
    return probs


def inject_bug(ir_text, report_path):
    """Corrupt one planned offset: a buffer takes the offset of another one whose
    task range intersects its own, in the IR and in the report (test of the fuzzer)."""
    with open(report_path) as fh:
        rep = json.load(fh)
    for fn in rep.get("functions", []):
        for ar in fn.get("arenas", []):
            bufs = ar.get("buffers", [])
            for i, a in enumerate(bufs):
                for b in bufs[i + 1:]:
                    if a["first_task"] > b["last_task"] or b["first_task"] > a["last_task"]:
                        continue
                    if a["offset"] == b["offset"] or not a["size"] or not b["size"]:
                        continue
                    loc = b.get("location", "")
                    lines = ir_text.split("\n")
                    for k, line in enumerate(lines):
                        m = re.search(r"= memref\.view (%[\w.]+)\[(%[\w.]+)\]", line)
                        if m and loc and loc in line:
                            name = "%memplan_injected"
                            indent = line[: len(line) - len(line.lstrip())]
                            lines[k] = line[: m.start(2)] + name + line[m.end(2):]
                            lines.insert(k, "%s%s = arith.constant %d : index" %
                                         (indent, name, a["offset"]))
                            b["offset"] = a["offset"]
                            with open(report_path, "w") as fh:
                                json.dump(rep, fh)
                            return "\n".join(lines), "buffer %s now at offset %d (as %s)" % (
                                b["id"], a["offset"], a["id"])
    return ir_text, None


class Stats:
    def __init__(self):
        self.lock = threading.Lock()
        self.c = dict(programs=0, runs=0, mismatches=0, overlaps=0, tool_failures=0,
                      hangs=0, gen_errors=0, pipeline_skipped=0, injected=0,
                      invariant=0, inplace_pairs=0, shape_programs=0, o2_programs=0,
                      own_frees=0, pipeline_own_frees=0, boxed=0,
                      pipeline_refused_boxed=0, unawaited=0, late_sizes=0, parallel=0,
                      wcarry=0, repeat=0)
        self.c.update(dict.fromkeys(ENGAGED, 0))
        self.scenes = {}
        self.variants = set()
        self.findings = []

    def add(self, **kw):
        with self.lock:
            for k, v in kw.items():
                self.c[k] += v


def variants_for(seed, a, strategies):
    """The (strategy, alignment, mode) triples a seed runs: strategies and
    alignments cycle over the seeds so a long run covers every combination."""
    out = []
    n = len(strategies) * len(a.alignments)
    for j in range(a.variants):
        idx = (seed * a.variants + j) % n
        s = strategies[idx % len(strategies)]
        al = a.alignments[(idx // len(strategies)) % len(a.alignments)]
        mode = "plan"
        if a.runtime_every and (seed + j) % a.runtime_every == 0:
            mode = "plan+runtime"
        if a.inplace_every and (seed + j) % a.inplace_every == 0:
            mode += "+inplace"
        if a.pipeline_every and (seed + j) % a.pipeline_every == 1 % a.pipeline_every:
            mode = "pipeline"
        out.append((s, al, mode))
    return out


def plan_flags(s, al, mode, report):
    if mode == "pipeline":
        return ["--memplan-pipeline=bufferize=false deallocate=true runtime=true "
                "strategy=%s alignment=%d report=%s" % (s, al, report)]
    opts = "strategy=%s alignment=%d report=%s" % (s, al, report)
    if "inplace" in mode:
        opts += " inplace=true"
    flags = ["--tensor-mem-plan=" + opts]
    if "runtime" in mode:
        flags.append("--tensor-mem-lower-runtime")
    return flags


def uses_runtime(mode):
    return "runtime" in mode or mode == "pipeline"


def save_files(d, files):
    """Writes files (name -> text; None: left out) into the folder d."""
    os.makedirs(d, exist_ok=True)
    for name, content in files.items():
        if content is None:
            continue
        with open(os.path.join(d, name), "w") as fh:
            fh.write(content)
    return d


def save_finding(a, tools, seed, kind, variant, files, detail, env=None):
    s, al, mode = variant
    d = save_files(os.path.join(a.out, "seed%d-%s-%s-a%d-%s" % (
        seed, kind, s, al, mode.replace("+", "_"))), files)
    flags = plan_flags(s, al, mode, "report.json")
    cmds = [
        "# regenerate: %s" % sh([sys.executable, os.path.join(HERE, "gen.py"), "--seed",
                                 str(seed), "--features", a.features] +
                                (["--size", str(a.size)] if a.size else [])),
        "# unplanned:",
        sh(tools.opt_cmd("prog.mlir", LOWER, "-")) + " | " + sh(tools.run_cmd("-")),
        "# planned:",
        sh(tools.opt_cmd("prog.mlir", flags, "planned.mlir")),
        sh(tools.opt_cmd("prog.mlir", flags + LOWER, "-")) + " | " + env_prefix(env) +
        sh(tools.run_cmd("-", runtime=uses_runtime(mode))),
    ]
    with open(os.path.join(d, "README.txt"), "w") as fh:
        fh.write("%s on seed %d, strategy=%s alignment=%d mode=%s\n%s\n\n%s\n" %
                 (kind, seed, s, al, mode, detail, "\n".join(cmds)))
    return d


FREE_LINE = re.compile(r"^\s*memref\.dealloc .*\n", re.M)


# A memref stored into memory (the gen.py feature box).
BOXED = re.compile(r"memref\.store %\S+, %\S+\[[^]]*\] : memref<1xmemref<")


def dealloc_ok(tools, prog, tmp, ref):
    """Does the program run unchanged with upstream's deallocation alone?
    Its own frees (feature dealloc) go first: upstream takes no program that
    frees, and places every free itself."""
    ll = os.path.join(tmp, "dealloc.ll.mlir")
    nofree = os.path.join(tmp, "nofree.mlir")
    with open(prog) as src, open(nofree, "w") as dst:
        dst.write(FREE_LINE.sub("", src.read()))
    if call(tools.opt_cmd(nofree, ["--buffer-deallocation-pipeline"] + LOWER, ll))[0] != "ok":
        return False
    status, out, _ = call(tools.run_cmd(ll))
    return status == "ok" and out == ref


def family_of(seed, a):
    if a.family == "mixed":
        return "shapes" if seed % 2 else "memref"
    return a.family


def run_seed(seed, a, tools, strategies, st, tmp_root):
    tmp = tempfile.mkdtemp(prefix="s%d-" % seed, dir=tmp_root)
    try:
        if family_of(seed, a) == "shapes":
            return _run_seed_shapes(seed, a, tools, strategies, st, tmp)
        return _run_seed(seed, a, tools, strategies, st, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def reference_run(seed, a, tools, tmp, text, passes, family, level="-O0"):
    """Writes the program, lowers it with passes and runs it unplanned:
    (prog path, reference output, None), or a generator error saved and
    reported: (prog path, None, [message])."""
    prog = os.path.join(tmp, "prog.mlir")
    with open(prog, "w") as fh:
        fh.write(text)
    lowered = os.path.join(tmp, "ref.ll.mlir")
    status, ref, err = call(tools.opt_cmd(prog, passes, lowered))
    if status == "ok":
        status, ref, err2 = call(tools.run_cmd(lowered, level=level))
        err += err2
    if status == "ok":
        return prog, ref, None
    tag = "" if family == "memref" else family + "-"
    d = save_files(os.path.join(a.out, "seed%d-%sgenerator-error" % (seed, tag)),
                   {"prog.mlir": text, "stderr.txt": err})
    what = "" if family == "memref" else family + "; "
    return prog, None, ["seed %d: GENERATOR ERROR (%sunplanned program fails: %s) -> %s" %
                        (seed, what, status, d)]


def _run_seed(seed, a, tools, strategies, st, tmp):
    text, uses_async = gen.generate(seed, a.features, a.size)
    if uses_async and not tools.has_async:
        return []
    prog, ref, error = reference_run(seed, a, tools, tmp, text, LOWER, "memref")
    st.add(programs=1, own_frees=int("memref.dealloc" in text),
           boxed=int(BOXED.search(text) is not None),
           unawaited=len(re.findall(r"%utok\d+ = async\.execute", text)),
           parallel=int("scf.parallel" in text))
    if error:
        st.add(gen_errors=1)
        return error
    msgs = []
    # The analysis' own invariant, derived apart from its task arithmetic:
    # a buffer that may be live at an op has the op's task in its record.
    _, _, inv_err = call([tools.opt, prog, "--test-memplan-liveness-invariant",
                          "-o", os.devnull])
    if "liveness invariant violated" in inv_err:
        st.add(invariant=1)
        d = save_files(os.path.join(a.out, "seed%d-invariant" % seed),
                       {"prog.mlir": text, "stderr.txt": inv_err})
        with st.lock:
            st.findings.append(d)
        msgs.append("seed %d: INVARIANT (a record misses a live point) -> %s" % (seed, d))
    for k, variant in enumerate(variants_for(seed, a, strategies)):
        s, al, mode = variant
        renv = runtime_env(seed, k) if uses_runtime(mode) else {}
        with st.lock:
            st.variants.add(variant)
        report = os.path.join(tmp, "report-%s-%d.json" % (s, al))
        if os.path.exists(report):
            os.remove(report)
        flags = plan_flags(s, al, mode, report)
        out_ll = os.path.join(tmp, "planned.ll.mlir")
        planned_text = None
        note = ""
        if a.inject_bug:
            planned = os.path.join(tmp, "planned.mlir")
            # locations inline: inject_bug finds a buffer's view by its location
            status, _, err = call(tools.opt_cmd(prog, flags + ["--mlir-print-debuginfo",
                                                               "--mlir-print-local-scope"],
                                                planned))
            if status == "ok":
                with open(planned) as fh:
                    planned_text, note = inject_bug(fh.read(), report)
                if note:
                    st.add(injected=1)
                with open(planned, "w") as fh:
                    fh.write(planned_text)
                status, _, err = call(tools.opt_cmd(planned, LOWER, out_ll))
        else:
            status, _, err = call(tools.opt_cmd(prog, flags + LOWER, out_ll))
        st.add(runs=1)
        kind, detail, got = None, "", None
        if mode == "pipeline" and BOXED.search(text):
            # A buffer stored into memory: the pipeline's deallocation does not
            # follow it, so memplan-pipeline must refuse the program (upstream's
            # alone frees it too early, or happens to run).
            if status != "ok" and "stores a buffer into memory" in err:
                st.add(pipeline_refused_boxed=1)
                continue
            kind = "boxed-accepted"
            detail = ("memplan-pipeline took a program that stores a buffer into "
                      "memory\n" + err[-2000:])
            st.add(tool_failures=1)
        elif mode == "pipeline" and not dealloc_ok(tools, prog, tmp, ref):
            # upstream's deallocation does not take this program (an error, or it
            # frees too early): not memplan's fault, no reference to compare with
            st.add(pipeline_skipped=1)
            continue
        if mode == "pipeline" and "memref.dealloc" in text:
            st.add(pipeline_own_frees=1)
        if kind is not None:
            pass  # straight to the finding
        elif status != "ok":
            kind = "tool-" + status
            detail = err[-4000:]
            st.add(tool_failures=1) if status != "timeout" else st.add(hangs=1)
        else:
            status, got, err = call(tools.run_cmd(out_ll, runtime=uses_runtime(mode)),
                                    env=renv)
            count_purges(st, err)
            if status == "timeout":
                kind, detail = "hang", "planned program did not finish in %ds" % TIMEOUT
                st.add(hangs=1)
            elif status != "ok" or got != ref:
                kind = "mismatch"
                detail = "planned program %s; outputs differ" % (
                    "exited with " + status if status != "ok" else "ran")
                detail += "\n" + err[-2000:]
                st.add(mismatches=1)
            probs = check_report(report, text.split("\n")) if os.path.exists(report) else []
            if os.path.exists(report):
                with open(report) as fh:
                    st.add(inplace_pairs=fh.read().count('"inplace_of"'))
            if probs:
                st.add(overlaps=1)
                if kind is None:
                    kind = "overlap"
                detail += "\nreport: " + "\n".join(probs[:20])
        if kind is None:
            continue
        if planned_text is None:
            planned = os.path.join(tmp, "planned.mlir")
            call(tools.opt_cmd(prog, flags, planned))
            if os.path.exists(planned):
                with open(planned) as fh:
                    planned_text = fh.read()
        rep_text = open(report).read() if os.path.exists(report) else None
        if note:
            detail = "injected bug: %s\n%s" % (note, detail)
        d = save_finding(a, tools, seed, kind, variant,
                         {"prog.mlir": text, "planned.mlir": planned_text, "ref.txt": ref,
                          "got.txt": got, "report.json": rep_text}, detail, renv)
        msgs.append("seed %d: %s (strategy=%s alignment=%d %s%s) -> %s" %
                    (seed, kind.upper(), s, al, mode,
                     " " + env_prefix(renv).strip() if renv else "", d))
        with st.lock:
            st.findings.append((seed, kind, variant, d))
    return msgs

# ---------------------------------------------------------------- shapes family
# Tensor-level programs (shapes.py) run unplanned (one-shot-bufferize) and
# through memplan-pipeline; what each run engaged is counted from the planned
# IR and the JSON report, not from what the generator meant.

# allow-return-allocs-from-loops: an scf.while that yields a new tensor
# (feature wcarry) bufferizes, as memplan-pipeline's bufferization does.
SHAPES_REF = ["--one-shot-bufferize=bufferize-function-boundaries "
              "function-boundary-type-conversion=identity-layout-map "
              "allow-return-allocs-from-loops"]
SHAPES_DEALLOC = ["--one-shot-bufferize=bufferize-function-boundaries "
                  "function-boundary-type-conversion=identity-layout-map "
                  "allow-return-allocs-from-loops", "--buffer-deallocation-pipeline"]
# clones of the deallocation pipeline become allocs and copies
SHAPES_LOWER = LOWER[:1] + ["--convert-bufferization-to-memref"] + LOWER[1:]
ENGAGED = ["inplace_pairs", "hoisted_globals", "reordered_ops", "reordered_dynamic",
           "global_reads_moved",
           "runtime_plans", "symbolic_plans", "symbolic_multi_order", "dynamic_inplace", "runtime_allocs", "bounded_sizes", "promise_checks",
           "promise_stops", "into_consumers", "shared_arenas", "shared_run_time_arenas", "arena_slots",
           "runtime_purges", "runtime_replays", "runtime_replay_kinds", "permutes_gone"]
LABELS = {"shared_run_time_arenas": "shared run-time arenas",
          "runtime_purges": "runs whose runtime purged pages (1 ms, purge thread)",
          "runtime_replays": "runs whose runtime served allocs from a learned plan",
          "runtime_replay_kinds": "of them with plans of several kinds",
          "arena_slots": "run-time arena slots with their own base",
          "reordered_dynamic": "reordered ops with dynamic sizes",
          "symbolic_multi_order": "symbolic plans with several orders",
          "permutes_gone": "permuting copies read through or folded away"}


def shapes_variants(seed, a, strategies, meta):
    out = []
    n = len(strategies) * len(a.alignments)
    for j in range(a.variants):
        idx = (seed * a.variants + j) % n
        s = strategies[idx % len(strategies)]
        al = a.alignments[(idx // len(strategies)) % len(a.alignments)]
        k = seed // 2 + j
        mode = ["pipeline", "pipeline+nodealloc", "passes"][k % 3]
        if (k // 3) % 2 == 1:
            mode += "+hoist"
        if mode.startswith("passes") and (k // 6) % 2 == 1:
            # the run-time planner, which symbolic plans otherwise replace
            mode += "+rtplan"
        if (k // 12) % 2 == 1 or ("cross" in meta.get("scenes", []) and k % 2 == 1):
            # no order: the lifetimes the generator wrote (the cross scene's
            # overlaps, which the order shortens: several stacking orders
            # engaged in 1 of seeds 1-200 with the order, 4 without)
            mode += "+nosched"
        out.append((s, al, mode))
    return out


def deallocates(mode):
    return mode.startswith("pipeline") and "nodealloc" not in mode


def shapes_flags(s, al, mode, report, meta, extra=""):
    if mode.startswith("passes"):
        # the passes one by one, without deallocation
        plan = "strategy=%s alignment=%d report=%s inplace=true" % (s, al, report)
        if meta.get("dim_bounds") is not None:
            plan += " dim-bounds=%d" % meta["dim_bounds"]
        return ["--tensor-mem-hoist-constants" + ("=fold-limit-bytes=0 fold-bytes=false mode=speed"
                                                   if "hoist" in mode else ""),
                *([] if "nosched" in mode else ["--tensor-mem-schedule"]),
                "--tensor-mem-write-into-consumers",
                "--tensor-mem-split-empty",
                "--one-shot-bufferize=bufferize-function-boundaries "
                "function-boundary-type-conversion=identity-layout-map "
                "allow-return-allocs-from-loops",
                "--tensor-mem-plan=" + plan + (" " + extra if extra else ""),
                # its runtime section joins the report (shared run-time arenas)
                "--tensor-mem-lower-runtime=report=%s" % report +
                (" symbolic=false" if "rtplan" in mode else "")]
    opts = "strategy=%s alignment=%d runtime=true report=%s" % (s, al, report)
    if extra:
        opts += " " + extra
    if "nodealloc" in mode:
        opts += " deallocate=false"
    if "nosched" in mode:
        opts += " schedule=false"
    if "hoist" in mode:
        # hoisted, not folded (mode speed: the default, memory, never hoists a copy)
        opts += " fold-limit-bytes=0 fold-bytes=false hoist-constants=speed"
    if meta.get("dim_bounds") is not None:
        opts += " dim-bounds=%d" % meta["dim_bounds"]
    return ["--memplan-pipeline=" + opts]


def engagement(planned, report_text):
    """What the planned program does that the unplanned one does not."""
    e = dict.fromkeys(ENGAGED, 0)
    if report_text:
        e["inplace_pairs"] = report_text.count('"inplace_of"')
        e["bounded_sizes"] = report_text.count("planned at its bound")
        # dynamic buffers written over a dying operand in a symbolic plan
        e["dynamic_inplace"] = sum(int(n) for n in re.findall(
            r'"inplace_pairs": (\d+)', report_text))
        # symbolic plans whose entry chooses among orders by the arena
        e["symbolic_multi_order"] = sum(int(n) > 1 for n in re.findall(
            r'"symbolic_orders": (\d+)', report_text))
        # functions of memplan.shared_arena: a static arena in the shared
        # global (arenas[].shared), a run-time arena in the shared block
        # (runtime.shared_arena; absent from older reports)
        try:
            fns = json.loads(report_text).get("functions", [])
        except (ValueError, AttributeError):
            fns = []
        for fn in fns:
            if any(isinstance(ar, dict) and ar.get("shared") for ar in fn.get("arenas", [])):
                e["shared_arenas"] += 1
            rt = fn.get("runtime")
            if isinstance(rt, dict) and rt.get("shared_arena"):
                e["shared_run_time_arenas"] += 1
    if not planned:
        return e
    e["hoisted_globals"] = len(re.findall(r"memref\.global .*(memplan\.hoisted|@__memplan_hoisted)",
                                          planned))
    e["runtime_plans"] = len(re.findall(r"call @memplan_rt_plan\(", planned))
    # a symbolic plan (SymbolicPlan.cpp) checks its sizes for a wrap with
    # mului_extended, which the generator never writes: one per function
    e["symbolic_plans"] = sum("arith.mului_extended" in fn
                              for fn in re.split(r"\n  func\.func ", planned))
    e["runtime_allocs"] = len(re.findall(r"call @memplan_rt_alloc\(", planned))
    # separate-slots: one memplan_rt_slot call per slot of a run-time arena
    e["arena_slots"] = len(re.findall(r"call @memplan_rt_slot\(", planned))
    e["promise_checks"] = len(re.findall(r"call @memplan_rt_broken_promise\(", planned))
    # ops moved by the order: fz.n (the generator's text order) per function
    for fn in re.split(r"\n  func\.func ", planned):
        seen = []
        for m in re.finditer(r"fz\.n = (\d+)( : i64)?(, fz\.(r|w) = \d+)?", fn):
            seen.append((int(m.group(1)), m.group(4)))
        hi = -1
        # a function with dynamic sizes (SampledSizes.h samples them)
        dynamic = re.search(r"memref<(\d+x)*\?", fn) is not None
        for i, (n, kind) in enumerate(seen):
            if n < hi:
                e["reordered_ops"] += 1
                e["reordered_dynamic"] += dynamic
            hi = max(hi, n)
            if kind == "r" and any(k2 == "w" and n2 > n for n2, k2 in seen[:i]):
                e["global_reads_moved"] += 1
    return e


def promise_stop(status, got, err, ref, bound):
    """Did the planned program stop as a broken promise must: non-zero exit,
    what it printed a prefix of the reference, a message naming memplan and
    the bound?"""
    if status == "ok" or not ref.startswith(got):
        return False
    for line in err.split("\n"):
        if "memplan" in line and re.search(r"\b%d\b" % bound, line):
            return True
    return False


def bound_planned_in(report_text, fn_name):
    try:
        rep = json.loads(report_text)
    except (ValueError, TypeError):
        return False
    for fn in rep.get("functions", []):
        if fn.get("function") == fn_name and "planned at its bound" in json.dumps(fn):
            return True
    return False


def _run_seed_shapes(seed, a, tools, strategies, st, tmp):
    text, meta = shapes.generate(seed, a.shape_features, a.shape_size)
    # At -O2 LLVM vectorizes, behind overlap checks between the slots of a
    # run-time arena (separate-slots): code -O0 never makes. Counted over the
    # shapes programs: mixed gives them the odd seeds, which seed % 4 never
    # picked, so `make fuzz-diff` ran none at -O2.
    nth = seed // 2 if a.family == "mixed" else seed
    level = "-O2" if a.o2_every and nth % a.o2_every == 0 else "-O0"
    prog, ref, error = reference_run(seed, a, tools, tmp, text,
                                     SHAPES_REF + SHAPES_LOWER, "shapes", level)
    st.add(programs=1, shape_programs=1, o2_programs=int(level == "-O2"),
           late_sizes=int("fz.late" in text),
           wcarry=int(any(sc.startswith("wcarry-") for sc in meta.get("scenes", []))),
           repeat=int(any(sc.startswith("repeat-") for sc in meta.get("scenes", []))))
    with st.lock:
        for sc in meta.get("scenes", []):
            st.scenes[sc] = st.scenes.get(sc, 0) + 1
    if error:
        st.add(gen_errors=1)
        return error
    msgs = []
    dealloc_ref = [None]

    def upstream_dealloc_ok():
        if dealloc_ref[0] is None:
            ll = os.path.join(tmp, "dealloc.ll.mlir")
            ok = call(tools.opt_cmd(prog, SHAPES_DEALLOC + SHAPES_LOWER, ll))[0] == "ok"
            if ok:
                s2, out2, _ = call(tools.run_cmd(ll, level=level))
                ok = s2 == "ok" and out2 == ref
            dealloc_ref[0] = ok
        return dealloc_ref[0]

    # pads and concats tensor-mem-write-into-consumers rewrote (LLVM's pass
    # statistics are compiled out of release builds)
    consumers = os.path.join(tmp, "consumers.mlir")
    redirected = 0
    if call(tools.opt_cmd(prog, ["--tensor-mem-schedule", "--tensor-mem-write-into-consumers"],
                          consumers))[0] == "ok":
        pattern = re.compile(r"= tensor\.(pad|concat) ")
        redirected = (len(pattern.findall(open(prog).read())) -
                      len(pattern.findall(open(consumers).read())))

    for k, variant in enumerate(shapes_variants(seed, a, strategies, meta)):
        s, al, mode = variant
        # a broken promise's stop is read from stderr: no stats there
        renv = runtime_env(seed, k, stats=meta.get("broken") is None)
        if meta.get("broken") is None and any(
                sc.startswith("repeat-") for sc in meta.get("scenes", [])):
            renv = dict(REPLAY_ENV)  # no purge thread: counts by the seed
        with st.lock:
            st.variants.add(("shapes",) + variant)
        report = os.path.join(tmp, "report-%s-%d.json" % (s, al))
        if os.path.exists(report):
            os.remove(report)
        flags = shapes_flags(s, al, mode, report, meta, a.pipeline_options)
        planned = os.path.join(tmp, "planned.mlir")
        out_ll = os.path.join(tmp, "planned.ll.mlir")
        for f_ in (planned, out_ll):
            if os.path.exists(f_):
                os.remove(f_)
        status, _, err = call(tools.opt_cmd(prog, flags + ["--mlir-print-debuginfo"], planned))
        if status == "ok":
            status, _, err = call(tools.opt_cmd(planned, SHAPES_LOWER, out_ll))
        st.add(runs=1)
        planned_text = open(planned).read() if os.path.exists(planned) else None
        rep_text = open(report).read() if os.path.exists(report) else None
        kind, detail, got = None, "", None
        if status != "ok":
            if deallocates(mode) and not upstream_dealloc_ok():
                st.add(pipeline_skipped=1)
                if a.verbose:
                    msgs.append("seed %d: pipeline skipped (upstream deallocation fails too)"
                                % seed)
                continue
            kind = "tool-" + status
            detail = err[-4000:]
            st.add(tool_failures=1) if status != "timeout" else st.add(hangs=1)
        else:
            eng = engagement(planned_text, rep_text)
            eng["into_consumers"] = redirected
            # the permute scene tags its copies; hoisting moves them, keeping the tag
            if planned_text:
                eng["permutes_gone"] = max(0, text.count("fz.p = ") -
                                           planned_text.count("fz.p = "))
            st.add(**eng)
            status, got, err = call(tools.run_cmd(out_ll, runtime=True, level=level),
                                    env=renv)
            count_purges(st, err)
            broken = meta.get("broken")
            if status == "timeout":
                kind, detail = "hang", "planned program did not finish in %ds" % TIMEOUT
                st.add(hangs=1)
            elif broken is not None and promise_stop(status, got, err, ref, broken):
                st.add(promise_stops=1)
            elif status == "ok" and got == ref:
                if broken is not None and bound_planned_in(rep_text, meta.get("broken_fn")):
                    kind = "promise-silent"
                    detail = ("the last call of @%s breaks its promise (bound %d) and the "
                              "planned program ran on without a message" %
                              (meta.get("broken_fn"), broken))
                    st.add(mismatches=1)
            else:
                if deallocates(mode) and not upstream_dealloc_ok():
                    st.add(pipeline_skipped=1)
                    continue
                kind = "mismatch"
                detail = "planned program %s; outputs differ" % (
                    "exited with " + status if status != "ok" else "ran")
                if broken is not None:
                    detail += " (a broken promise, bound %d: no stop with a message)" % broken
                detail += "\n" + err[-2000:]
                st.add(mismatches=1)
            probs = check_report(report) if rep_text else []
            if probs:
                st.add(overlaps=1)
                kind = kind or "overlap"
                detail += "\nreport: " + "\n".join(probs[:20])
        if kind is None:
            continue
        d = save_files(os.path.join(a.out, "seed%d-shapes-%s-%s-a%d-%s" % (
            seed, kind, s, al, mode.replace("+", "_"))),
            {"prog.mlir": text, "planned.mlir": planned_text, "ref.txt": ref,
             "got.txt": got, "report.json": rep_text})
        fl = shapes_flags(s, al, mode, "report.json", meta, a.pipeline_options)
        cmds = [
            "# regenerate: %s" % sh([sys.executable, os.path.join(HERE, "shapes.py"), "--seed",
                                     str(seed), "--features", a.shape_features] +
                                    (["--size", str(a.shape_size)] if a.shape_size else [])),
            "# unplanned:",
            sh(tools.opt_cmd("prog.mlir", SHAPES_REF + SHAPES_LOWER, "-")) + " | " +
            sh(tools.run_cmd("-", level=level)),
            "# planned:",
            sh(tools.opt_cmd("prog.mlir", fl, "planned.mlir")),
            sh(tools.opt_cmd("prog.mlir", fl + SHAPES_LOWER, "-")) + " | " +
            env_prefix(renv) + sh(tools.run_cmd("-", runtime=True, level=level)),
        ]
        with open(os.path.join(d, "README.txt"), "w") as fh:
            fh.write("%s on seed %d (shapes: %s), strategy=%s alignment=%d mode=%s\n%s\n\n%s\n" %
                     (kind, seed, " ".join(meta.get("scenes", [])), s, al, mode, detail,
                      "\n".join(cmds)))
        msgs.append("seed %d: %s (shapes %s; strategy=%s alignment=%d %s%s) -> %s" %
                    (seed, kind.upper(), ",".join(meta.get("scenes", [])), s, al, mode,
                     " " + env_prefix(renv).strip() if renv else "", d))
        with st.lock:
            st.findings.append((seed, kind, variant, d))
    return msgs


def list_strategies(opt):
    solve = os.path.join(os.path.dirname(opt), "memplan-solve")
    if not os.path.exists(solve):
        solve = os.path.join(SRC, "build", "bin", "memplan-solve")
    p = subprocess.run([solve, "--list"], stdout=subprocess.PIPE, check=True)
    return [l.split()[0] for l in p.stdout.decode().splitlines() if l.strip()]


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seeds", default="1-200",
                    help="A-B (inclusive), one seed, or A- (from A, with --seconds)")
    ap.add_argument("--seconds", type=float, default=0,
                    help="run until this many seconds have passed (seeds from --seeds' start)")
    ap.add_argument("--jobs", type=int, default=1, help="parallel programs (at most 2)")
    ap.add_argument("--strategies", default="all",
                    help="comma list or 'all' (memplan-solve --list)")
    ap.add_argument("--alignments", default=",".join(map(str, ALIGNMENTS)))
    ap.add_argument("--variants", type=int, default=1,
                    help="planned variants per program (default 1; strategies cycle)")
    ap.add_argument("--runtime-every", type=int, default=3,
                    help="every Nth variant also runs tensor-mem-lower-runtime (0: never)")
    ap.add_argument("--inplace-every", type=int, default=2,
                    help="every Nth tensor-mem-plan variant plans with inplace=true "
                         "(memplan-pipeline always does; 0: never)")
    ap.add_argument("--pipeline-every", type=int, default=5,
                    help="every Nth variant uses memplan-pipeline with deallocation (0: never)")
    ap.add_argument("--features", default="all", help="generator features (gen.py --help)")
    ap.add_argument("--size", type=int, default=None, help="generator --size")
    ap.add_argument("--family", default="memref", choices=["memref", "shapes", "mixed"],
                    help="memref: gen.py programs planned by tensor-mem-plan (default); "
                         "shapes: shapes.py tensor programs through memplan-pipeline; "
                         "mixed: odd seeds shapes, even seeds memref")
    ap.add_argument("--shape-features", default="all",
                    help="shapes.py features (shapes.py --help)")
    ap.add_argument("--shape-size", type=int, default=None, help="shapes.py --size")
    ap.add_argument("--o2-every", type=int, default=4,
                    help="every Nth shapes program runs unplanned and planned at -O2 "
                         "(LLVM's vectorized code; the others at -O0); 0: never")
    ap.add_argument("--pipeline-options", default="",
                    help="more memplan-pipeline options for the shapes family "
                         "(check-promises=false must give findings)")
    ap.add_argument("--quick", action="store_true",
                    help="small programs (size 6), one variant, no pipeline variant")
    ap.add_argument("--out", default=os.path.join(tempfile.gettempdir(), "memplan-fuzz-diff"),
                    help="directory for findings")
    ap.add_argument("--memplan-opt", default=os.path.join(SRC, "build", "bin", "memplan-opt"))
    ap.add_argument("--llvm-bin", default="/usr/lib/llvm-22/bin")
    ap.add_argument("--llvm-lib", default="/usr/lib/llvm-22/lib")
    ap.add_argument("--runtime-lib", default=None,
                    help="libmemplan_runtime.so (default: next to memplan-opt, ../lib)")
    ap.add_argument("--timeout", type=int, default=60,
                    help="seconds per tool run before it counts as a hang")
    ap.add_argument("--stop-on-finding", action="store_true")
    ap.add_argument("-v", "--verbose", action="store_true")
    ap.add_argument("--inject-bug", action="store_true", help=argparse.SUPPRESS)
    a = ap.parse_args()

    if a.jobs < 1 or a.jobs > 2:
        ap.error("--jobs must be 1 or 2 (this machine has 2 cores)")
    if a.runtime_lib is None:
        a.runtime_lib = os.path.join(os.path.dirname(os.path.dirname(a.memplan_opt)), "lib",
                                     "libmemplan_runtime.so")
    if a.quick:
        a.size = a.size or 6
        a.variants = 1
        a.pipeline_every = 0
    a.alignments = [int(x) for x in a.alignments.split(",")]
    set_timeout(a.timeout)
    gen.parse_features(a.features)  # validate
    shapes.parse_features(a.shape_features)
    for _ in range(60):  # someone may be rebuilding build/
        if os.path.exists(a.memplan_opt):
            break
        time.sleep(5)
    strategies = list_strategies(a.memplan_opt)
    if a.strategies != "all":
        want = a.strategies.split(",")
        bad = [s for s in want if s not in strategies]
        if bad:
            ap.error("unknown strategies %s (known: %s)" % (bad, ",".join(strategies)))
        strategies = want
    seed_range = parse_seeds(a.seeds)
    if seed_range is None:
        ap.error("--seeds %r: want A-B with A <= B, A- or A (A, B counts)" % a.seeds)
    lo, hi = seed_range
    if hi is None and not a.seconds:
        ap.error("--seeds %s has no end: give --seconds, or A-B" % a.seeds)
    tools = Tools(a)
    os.makedirs(a.out, exist_ok=True)
    st = Stats()
    t0 = time.time()
    tmp_root = tempfile.mkdtemp(prefix="memplan-fuzz-diff-")

    def seeds():
        s = lo
        while True:
            if a.seconds:
                if time.time() - t0 >= a.seconds:
                    return
            elif s > hi:
                return
            yield s
            s += 1

    stop = threading.Event()
    try:
        with cf.ThreadPoolExecutor(max_workers=a.jobs) as ex:
            pending = set()
            it = seeds()
            done = False
            while not done or pending:
                while not done and len(pending) < a.jobs * 2 and not stop.is_set():
                    try:
                        s = next(it)
                    except StopIteration:
                        done = True
                        break
                    pending.add(ex.submit(run_seed, s, a, tools, strategies, st, tmp_root))
                if stop.is_set():
                    done = True
                if not pending:
                    break
                fin, pending = cf.wait(pending, return_when=cf.FIRST_COMPLETED)
                for fu in fin:
                    for m in fu.result():
                        print(m, flush=True)
                        if a.stop_on_finding:
                            stop.set()
                if a.verbose:
                    print("  ... %d programs, %d runs, %.0fs" %
                          (st.c["programs"], st.c["runs"], time.time() - t0), flush=True)
    finally:
        shutil.rmtree(tmp_root, ignore_errors=True)
    el = time.time() - t0
    c = st.c
    covered = len(st.variants)
    print("programs: %d  runs: %d  mismatches: %d  report overlaps: %d  tool failures: %d  "
          "hangs: %d  generator errors: %d  pipeline skipped: %d  "
          "invariant violations: %d  time: %.1fs" % (
              c["programs"], c["runs"], c["mismatches"], c["overlaps"], c["tool_failures"],
              c["hangs"], c["gen_errors"], c["pipeline_skipped"], c["invariant"], el))
    modes = 0
    if a.family != "shapes":
        modes += (1 + bool(a.runtime_every)) * (1 + bool(a.inplace_every)) + bool(a.pipeline_every)
    if a.family != "memref":
        modes += 6  # pipeline, pipeline+nodealloc, passes, each also +hoist
    print("variants covered: %d of %d (strategy x alignment x mode)  in-place pairs: %d%s" % (
        covered, len(strategies) * len(a.alignments) * modes,
        c["inplace_pairs"],
        "  injected bugs: %d" % c["injected"] if a.inject_bug else ""))
    if c["programs"] > c["shape_programs"]:
        print("memref programs that free their own buffers: %d  through memplan-pipeline: %d" % (
            c["own_frees"], c["pipeline_own_frees"]))
        print("memref programs that store a buffer into memory: %d  refused by "
              "memplan-pipeline: %d" % (c["boxed"], c["pipeline_refused_boxed"]))
        print("async.execute never awaited beside one that is (gen_async.py): %d"
              % c["unawaited"])
        print("memref programs with an scf.parallel loop (feature parallel): %d" % c["parallel"])
    if c["shape_programs"]:
        print("shapes programs: %d (at -O2: %d)  scenes: %s" % (
            c["shape_programs"], c["o2_programs"], " ".join("%s=%d" % kv for kv in sorted(st.scenes.items()))))
        print("shapes programs with dynamic sizes read right before their tensor.empty: %d"
              % c["late_sizes"])
        print("shapes programs with a dynamic tensor carried by an scf.while (feature wcarry): %d"
              % c["wcarry"])
        print("shapes programs calling a dynamic function in a loop (feature repeat): %d"
              % c["repeat"])
        print("engaged (from planned IR and reports): %s" % "  ".join(
            "%s: %d" % (LABELS.get(k, k.replace("_", " ")), c[k]) for k in ENGAGED))
    if st.findings:
        print("findings in %s" % a.out)
    if (c["mismatches"] or c["overlaps"] or c["tool_failures"] or c["hangs"] or
            c["invariant"]):
        sys.exit(1)
    if c["gen_errors"]:
        sys.exit(2)


if __name__ == "__main__":
    main()
