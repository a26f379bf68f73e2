#!/usr/bin/env python3
"""@forward's footprint with and without the raw-byte constant fold.

Usage: fold_footprint.py BUILD MODELS_DIR --nets a,b [--json OUT]

Each net gets real weight data (real_weights.py: dense_resource blobs), then:
  plain: mlir-opt --one-shot-bufferize=bufferize-function-boundaries,
         memplan-opt --tensor-mem-plan (its arena);
  for hoist-constants=memory and =speed:
    before: --tensor-mem-hoist-constants="mode=M fold-bytes=false" then
            --memplan-pipeline="hoist-constants=off" (the pipeline without
            the fold: it runs the same pass first);
    after:  --memplan-pipeline="hoist-constants=M".
Printed per net and mode: footprint steady / first_call, hoisted bytes and
the weights' bytes (constants and hoisted globals) from the reports.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def forward(report):
    with open(report) as f:
        for fn in json.load(f)["functions"]:
            if fn["function"] == "forward":
                return fn
    raise SystemExit(f"{report}: no @forward")


def run(cmd):
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        raise SystemExit(" ".join(cmd) + "\n" + r.stderr[-3000:])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("build")
    ap.add_argument("models")
    ap.add_argument("--nets", required=True)
    ap.add_argument("--json")
    a = ap.parse_args()
    opt = os.path.join(a.build, "bin", "memplan-opt")
    mlir_opt = "/usr/lib/llvm-22/bin/mlir-opt"
    rows = []
    print("| net | plain arena | mode | before: steady / first_call / hoisted / weights | after: steady / first_call / hoisted / weights | after/plain |")
    print("|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        for net in a.nets.split(","):
            src = os.path.join(tmp, net + ".mlir")
            run([sys.executable, os.path.join(HERE, "real_weights.py"),
                 os.path.join(a.models, net + ".mlir"), src, "--calls", "1"])
            buf = os.path.join(tmp, net + ".buf.mlir")
            run([mlir_opt, src, "--one-shot-bufferize=bufferize-function-boundaries",
                 "-o", buf])
            plain = os.path.join(tmp, "plain.json")
            run([opt, buf, f"--tensor-mem-plan=report={plain}", "-o", os.devnull])
            arena = forward(plain)["footprint"]["steady"]
            for mode in ("memory", "speed"):
                out = {}
                for when in ("before", "after"):
                    rep = os.path.join(tmp, f"{when}.json")
                    if when == "before":
                        cmd = [opt, src,
                               f"--tensor-mem-hoist-constants=mode={mode} fold-bytes=false",
                               f"--memplan-pipeline=hoist-constants=off report={rep}"]
                    else:
                        cmd = [opt, src,
                               f"--memplan-pipeline=hoist-constants={mode} report={rep}"]
                    run(cmd + ["-o", os.devnull])
                    fn = forward(rep)
                    fp = fn["footprint"]
                    out[when] = {"steady": fp["steady"],
                                 "first_call": fp["first_call"],
                                 "hoisted": fp["hoisted"],
                                 "weights": fn["weights"]["bytes"]}
                b, f = out["before"], out["after"]
                print(f"| {net} | {arena:,} | {mode} | {b['steady']:,} / {b['first_call']:,} / "
                      f"{b['hoisted']:,} / {b['weights']:,} | {f['steady']:,} / {f['first_call']:,} / "
                      f"{f['hoisted']:,} / {f['weights']:,} | {f['steady'] / arena:.3f} |",
                      flush=True)
                rows.append({"net": net, "plain_arena": arena, "mode": mode, **out})
    if a.json:
        with open(a.json, "w") as f:
            json.dump(rows, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
