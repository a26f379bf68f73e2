#!/usr/bin/env python3
"""Every option of every memplan pass reaches the pass through the plugin's
flag form in stock mlir-opt.

  plugin_pass_options.py MEMPLAN_OPT MLIR_OPT PLUGIN INPUT

The passes are those memplan-opt --help lists; each pass's options and
defaults are what memplan-opt --dump-pass-pipeline prints for it (the
registered pass's own list). Each boolean is flipped and each integer
changed (strings and enums keep their value), then the pass is given as
`--name=options` to memplan-opt and to mlir-opt with the plugin: both must
print the same pass with the same values. Prints one line per pass; exit 1
on a difference.
"""
import re
import subprocess
import sys


# Registered in C++, not from Passes.td.
PIPELINES = {"memplan-pipeline", "memplan-lower-to-llvm"}


def run(cmd):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return p.stdout


def pass_line(dump, name):
    for line in dump.splitlines():
        s = line.strip().rstrip(",")
        if s == name or s.startswith(name + "{"):
            return s
    return None


def changed(value):
    if value in ("true", "false"):
        return "false" if value == "true" else "true"
    if re.fullmatch(r"-?[0-9]+", value):
        v = int(value)
        return str(v * 2 if v > 0 else 7)
    return value


def main():
    memplan_opt, mlir_opt, plugin, inp = sys.argv[1:5]
    names = sorted(set(re.findall(r"^      --((?:tensor-mem|memplan)-[a-z-]+)",
                                  run([memplan_opt, "--help"]), re.M)))
    bad = 0
    for name in names:
        if name in PIPELINES:
            continue  # a pipeline: --dump-pass-pipeline shows its passes
        base = pass_line(run([memplan_opt, inp, "--" + name, "--dump-pass-pipeline",
                              "-o", "/dev/null"]), name)
        opts = re.findall(r"([a-z0-9-]+)=([^ }]*)", base[len(name):] if base else "")
        flag = "--" + name
        if opts:
            flag += "=" + " ".join("%s=%s" % (k, changed(v)) for k, v in opts)
        ours = pass_line(run([memplan_opt, inp, flag, "--dump-pass-pipeline",
                              "-o", "/dev/null"]), name)
        theirs_out = run([mlir_opt, "--load-pass-plugin=" + plugin, inp, flag,
                          "--dump-pass-pipeline", "-o", "/dev/null"])
        theirs = pass_line(theirs_out, name)
        flipped = sum(changed(v) != v for _, v in opts)
        if ours is None or ours != theirs:
            bad += 1
            print("%s: DIFFERS\n  memplan-opt: %s\n  plugin:      %s" %
                  (name, ours, theirs if theirs else theirs_out.strip()[:400]))
        else:
            print("%s: %d options (%d changed), same" % (name, len(opts), flipped))
    print("passes: %d, differing: %d" % (len(set(names) - PIPELINES), bad))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
