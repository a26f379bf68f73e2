#!/usr/bin/env python3
"""Issue 22 item 7: what a program holds, measured by running it.

Usage: footprint.py BUILD_DIR MODELS_DIR [--nets a,b,...] [--calls N]
                    [--timeout S] [--json OUT.json] [--keep DIR]

For each net of MODELS_DIR (../shared/models), real_weights.py gives every
weight deterministic pseudo-random data (`dense_resource` blobs, not code)
and a @main that calls @forward once, then N more times (timed with
rtclock), printing a checksum of every output per call. Three variants:

  unplanned  one-shot-bufferize{bufferize-function-boundaries
             function-boundary-type-conversion=identity-layout-map}
             buffer-deallocation-pipeline
  plan       the same with tensor-mem-plan{report=...} before the
             deallocation pipeline (its footprint is its arena)
  pipeline   memplan-pipeline{report=...} (defaults), libmemplan_runtime.so

each lowered by the lit tests' %lower_math, compiled by mlir-runner -O2
(-e bench_noop --dump-object-file: the JIT compiles the module and runs
nothing) and linked by cc into a native executable with bench_rt.c (the
runner utilities it calls, without libMLIR/libLLVM), which prints VmHWM
from /proc/self/status at exit: the program's peak RSS, not the JIT's
compile memory (nor the Python parent's, which ru_maxrss keeps across exec). Reported per net: @forward's footprint steady / first_call
from the report (plan, pipeline), VmHWM, seconds per call after the first
(the fastest of the N: the machine may be shared),
and whether the three print the same checksums (a mismatch is printed
loudly and the script exits 1; outputs must also be finite and differ
between the two inputs). Then each of issue 22's goals with its values.
A net whose compile or run exceeds --timeout seconds is skipped, and said so.
"""
import argparse
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
LLVM = "/usr/lib/llvm-22"
OSB = ("--one-shot-bufferize=bufferize-function-boundaries "
       "function-boundary-type-conversion=identity-layout-map")
LOWER_MATH = ("--convert-linalg-to-loops --expand-strided-metadata "
              "--lower-affine --convert-scf-to-cf --convert-math-to-llvm "
              "--convert-math-to-libm --finalize-memref-to-llvm "
              "--convert-arith-to-llvm --convert-func-to-llvm "
              "--convert-cf-to-llvm --reconcile-unrealized-casts").split()
# Small nets first, then the required 224 ones; the rest by size.
DEFAULT_NETS = [
    "squeezenet1_1", "resnet18", "mobilenet_v3_small", "densenet121",
    "squeezenet1_1_224", "mobilenet_v3_small_224", "resnet50_224",
    "convnext_tiny_224", "bert_base", "efficientnet_b7_600",
    "mnasnet0_5", "resnet34", "mobilenet_v3_large", "efficientnet_b0",
    "resnet50", "efficientnet_v2_s", "convnext_tiny", "resnet152",
    "wide_resnet50_2", "efficientnet_v2_m", "densenet161", "densenet201",
    "efficientnet_b7", "convnext_base", "alexnet", "vgg11", "vgg16_bn",
    "inception_v3"]
# Nets whose upstream weights are `dense_resource` blobs (issue 22's
# "real-data nets"); here every net gets real data.
BLOB_NETS = {"squeezenet1_1_224", "mobilenet_v3_small_224", "resnet50_224",
             "convnext_tiny_224", "efficientnet_b7_600"}
VARIANTS = ["unplanned", "plan", "pipeline"]
# Nets whose outputs are NaN whatever the weights, so that equal outputs say
# nothing about the plan: their footprint, VmHWM and time still count.
DEGENERATE = {
    # 1 - mask (all ones) is 0, compared == 0 selects -inf for every
    # attention score: softmax is NaN in every layer, in every variant.
    "bert_base": "its exported attention mask selects -inf for every score "
                 "(softmax NaN in every variant)",
}


class Skip(Exception):
    pass


def run(cmd, timeout, what):
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        raise Skip("%s took more than %d s" % (what, timeout))
    if p.returncode != 0:
        raise RuntimeError("%s failed (exit %d): %s\n%s" % (
            what, p.returncode, " ".join(cmd), p.stderr[-3000:]))
    return p.stdout


def run_measured(exe, timeout):
    """Runs exe; returns (stdout, VmHWM in bytes, exit status)."""
    out = tempfile.TemporaryFile()
    start = time.time()
    proc = subprocess.Popen([exe], stdout=out, stderr=subprocess.STDOUT)
    while True:
        pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
        if pid:
            break
        if time.time() - start > timeout:
            proc.kill()
            os.wait4(proc.pid, 0)
            raise Skip("running took more than %d s" % timeout)
        time.sleep(0.05)
    proc.returncode = os.waitstatus_to_exitcode(status)
    out.seek(0)
    return out.read().decode(), usage.ru_maxrss * 1024, proc.returncode


def parse_output(text):
    """{call id: [fields]}, the seconds of the fastest call after the first
    (the machine is shared: the minimum is the least disturbed) and VmHWM."""
    calls, times, hwm = {}, [], None
    for line in text.splitlines():
        fields = [f.strip() for f in line.split(",") if f.strip()]
        if not fields or not fields[0].lstrip("-").isdigit():
            continue
        if fields[0] == "-1":
            times.append(float(fields[1]))
        elif fields[0] == "-2":
            hwm = int(fields[1]) * 1024
        else:
            calls[int(fields[0])] = fields[1:]
    return calls, min(times) if times else None, hwm


def forward_footprint(report):
    for fn in json.load(open(report))["functions"]:
        if fn["function"] == "forward":
            return fn["footprint"]
    raise RuntimeError("no @forward in " + report)


def build_and_run(build, src, variant, work, timeout):
    opt = os.path.join(build, "bin", "memplan-opt")
    rt = os.path.join(build, "lib")
    report = os.path.join(work, variant + ".json")
    if variant == "unplanned":
        passes = [OSB, "--buffer-deallocation-pipeline"]
    elif variant == "plan":
        passes = [OSB, "--tensor-mem-plan=report=" + report,
                  "--buffer-deallocation-pipeline"]
    else:
        passes = ["--memplan-pipeline=report=" + report]
    lowered = os.path.join(work, variant + ".llvm.mlir")
    t0 = time.time()
    run([opt, src] + passes + LOWER_MATH + ["-o", lowered], timeout,
        "memplan-opt (%s)" % variant)
    obj = os.path.join(work, variant + ".o")
    libs = ["%s/lib/libmlir_c_runner_utils.so" % LLVM]
    if variant == "pipeline":
        libs.append(os.path.join(rt, "libmemplan_runtime.so"))
    run([LLVM + "/bin/mlir-runner", lowered, "-e", "bench_noop",
         "-entry-point-result=void", "-O2", "-shared-libs=" + ",".join(libs),
         "--dump-object-file", "--object-filename=" + obj], timeout,
        "mlir-runner -O2 (%s)" % variant)
    exe = os.path.join(work, variant + ".exe")
    link = ["cc", "-O2", "-no-pie", obj, os.path.join(HERE, "bench_rt.c"),
            "-o", exe, "-lm"]
    if variant == "pipeline":
        link += ["-L" + rt, "-lmemplan_runtime", "-Wl,-rpath," + rt]
    run(link, timeout, "cc (%s)" % variant)
    os.remove(lowered)
    compile_s = time.time() - t0
    text, _, rc = run_measured(exe, timeout)
    if rc != 0:
        raise RuntimeError("%s exited %d:\n%s" % (exe, rc, text[-2000:]))
    calls, per_call, hwm = parse_output(text)
    if hwm is None:
        raise RuntimeError("%s printed no VmHWM:\n%s" % (exe, text[-2000:]))
    r = {"vmhwm": hwm, "per_call": per_call, "calls": calls,
         "compile_s": round(compile_s, 1)}
    if variant != "unplanned":
        r["footprint"] = forward_footprint(report)
    return r


def mib(b):
    return "%.2f" % (b / 2**20)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("build")
    ap.add_argument("models")
    ap.add_argument("--nets", default=",".join(DEFAULT_NETS))
    ap.add_argument("--calls", type=int, default=3)
    ap.add_argument("--timeout", type=int, default=300,
                    help="seconds per compile step or run (default 300)")
    ap.add_argument("--json", help="write the measurements here")
    ap.add_argument("--keep", help="keep the programs in this folder")
    ap.add_argument("--table", metavar="JSON",
                    help="print the table and goals of a --json file, run nothing")
    a = ap.parse_args()
    if a.table:
        j = json.load(open(a.table))
        print_table(j["results"], j["skipped"], j["failures"])
        return 1 if j["failures"] else 0
    nets = [n for n in a.nets.split(",") if n]
    results, skipped, failures = {}, {}, []

    # Written after every net: a run stopped for time keeps what it measured.
    def save():
        if a.json:
            json.dump({"calls": a.calls, "results": results, "skipped": skipped,
                       "failures": failures}, open(a.json, "w"), indent=1)
    print("footprint (bench/footprint/footprint.py): %d nets, real weight data, "
          "1 + %d calls, native executables" % (len(nets), a.calls), flush=True)
    for net in nets:
        work = a.keep and os.path.join(a.keep, net) or tempfile.mkdtemp(prefix="fp-")
        os.makedirs(work, exist_ok=True)
        try:
            src = os.path.join(work, net + ".real.mlir")
            run([sys.executable, os.path.join(HERE, "real_weights.py"),
                 os.path.join(a.models, net + ".mlir"), src,
                 "--calls", str(a.calls)], a.timeout, "real_weights.py")
            r = {}
            for v in VARIANTS:
                r[v] = build_and_run(a.build, src, v, work, a.timeout)
        except Skip as e:
            skipped[net] = str(e)
            print("  %-24s skipped: %s" % (net, e), flush=True)
            continue
        except RuntimeError as e:
            failures.append("%s: %s" % (net, e))
            print("!!! %s: FAILED: %s" % (net, e), flush=True)
            continue
        finally:
            if not a.keep:
                shutil.rmtree(work, ignore_errors=True)
        ref = r["unplanned"]["calls"]
        same = all(r[v]["calls"] == ref for v in VARIANTS)
        sums = [float(f) for fields in ref.values() for f in fields[0::2]]
        finite = bool(sums) and all(math.isfinite(s) for s in sums)
        varies = len(ref) > 1 and ref[0] != ref[1]
        steady = all(ref[c] == ref[1] for c in ref if c >= 1)
        r["equal"] = same
        results[net] = r
        if not same:
            failures.append("%s: OUTPUTS DIFFER: %s" % (net, {
                v: r[v]["calls"] for v in VARIANTS}))
            print("!!! %s: OUTPUTS DIFFER between variants:" % net)
            for v in VARIANTS:
                print("!!!   %-9s %s" % (v, r[v]["calls"]))
        if net in DEGENERATE:
            print("  (%s: outputs not compared for meaning: %s)" % (net, DEGENERATE[net]))
        elif not (finite and varies and steady):
            failures.append("%s: outputs not finite (%s), not varying with the "
                            "input (%s) or not repeatable (%s)"
                            % (net, finite, varies, steady))
            print("!!! %s: outputs finite %s, vary with the input %s, repeat %s"
                  % (net, finite, varies, steady))
        p, q = r["plan"]["footprint"], r["pipeline"]["footprint"]
        u = r["unplanned"]
        print("  %-24s plan %s MiB, pipeline %s/%s MiB; VmHWM MiB %s %s %s; "
              "ms/call %.1f %.1f %.1f; equal %s" % (
                  net, mib(p["steady"]), mib(q["steady"]), mib(q["first_call"]),
                  mib(u["vmhwm"]), mib(r["plan"]["vmhwm"]),
                  mib(r["pipeline"]["vmhwm"]), 1e3 * u["per_call"],
                  1e3 * r["plan"]["per_call"], 1e3 * r["pipeline"]["per_call"],
                  "yes" if same else "NO"), flush=True)
        save()
    print_table(results, skipped, failures)
    save()
    return 1 if failures else 0


def print_table(results, skipped, failures):
    print()
    print("footprint of @forward (report; plan = its arena), MiB: steady / first_call")
    print("VmHWM of the executable, MiB; ms per call after the first (fastest); "
          "pipe/x = pipeline / x")
    hdr = ("| net | plan | pipeline steady | first_call | pipe/plan | VmHWM unpl | "
           "plan | pipeline | pipe/unpl | ms/call unpl | plan | pipeline | pipe/unpl | equal |")
    print(hdr)
    print("|" + "---|" * (hdr.count("|") - 1))
    for net, r in results.items():
        p, q = r["plan"]["footprint"], r["pipeline"]["footprint"]
        u = r["unplanned"]
        print("| %s%s | %s | %s | %s | %.3f | %s | %s | %s | %.3f | %.1f | %.1f | %.1f | %.3f | %s |" % (
            net, "*" if net in BLOB_NETS else "", mib(p["steady"]),
            mib(q["steady"]), mib(q["first_call"]),
            q["steady"] / p["steady"] if p["steady"] else float("nan"),
            mib(u["vmhwm"]), mib(r["plan"]["vmhwm"]), mib(r["pipeline"]["vmhwm"]),
            r["pipeline"]["vmhwm"] / u["vmhwm"], 1e3 * u["per_call"],
            1e3 * r["plan"]["per_call"], 1e3 * r["pipeline"]["per_call"],
            r["pipeline"]["per_call"] / u["per_call"],
            "yes" if r["equal"] else "**NO**"))
    print("(* weights were dense_resource blobs upstream)")
    for net, why in skipped.items():
        print("skipped %s: %s" % (net, why))
    if not results:
        return
    def goal(text, values, ok):
        worst = max(values.items(), key=lambda kv: kv[1])
        print("  %s %s: worst %s %.3f (%d nets)" % (
            "MET " if ok(worst[1]) else "MISSED", text, worst[0], worst[1],
            len(values)))
    print("goals (issue 22):")
    fp = {n: r["pipeline"]["footprint"]["steady"] / max(1, r["plan"]["footprint"]["steady"])
          for n, r in results.items()}
    goal("memplan-pipeline steady footprint <= plain plan's arena on every net",
         fp, lambda x: x <= 1.0)
    fc = {n: r["pipeline"]["footprint"]["first_call"] / max(1, r["plan"]["footprint"]["steady"])
          for n, r in results.items()}
    goal("memplan-pipeline first_call footprint <= plain plan's arena (informative)",
         fc, lambda x: x <= 1.0)
    blob = {n: v for n, v in fp.items() if n in BLOB_NETS}
    if blob:
        goal("real-data (upstream blob) nets: steady <= 0.95x plain plan's arena",
             blob, lambda x: x <= 0.95)
    goal("all nets here have real data: steady <= 0.95x plain plan's arena",
         fp, lambda x: x <= 0.95)
    goal("peak RSS (VmHWM) of memplan-pipeline <= unplanned on every net",
         {n: r["pipeline"]["vmhwm"] / r["unplanned"]["vmhwm"]
          for n, r in results.items()}, lambda x: x <= 1.0)
    goal("time per call of memplan-pipeline <= 1.05x unplanned",
         {n: r["pipeline"]["per_call"] / r["unplanned"]["per_call"]
          for n, r in results.items()}, lambda x: x <= 1.05)
    goal("outputs equal (1 = a net differs)",
         {n: 0.0 if r["equal"] else 1.0 for n, r in results.items()},
         lambda x: x == 0)
    for f in failures:
        print("FAILURE: " + f[:2000])


if __name__ == "__main__":
    sys.exit(main())
