#!/usr/bin/env python3
"""Runs the shell blocks of the docs that are marked runnable.

  run_doc_blocks.py SRC BUILD SHARED WORKDIR FILE...

A block is runnable when the line before its ```sh fence is
`<!-- runnable -->`; a ```sh block a user is not meant to paste says why on
that line instead: `<!-- not runnable: REASON -->`. An unmarked ```sh block
is an error, so a new recipe cannot go untested by omission.

Each block runs with bash -e -o pipefail in a fresh folder of WORKDIR that
holds the inputs the docs name (net.mlir and mynet.mlir: a small tensor
program; bufferized.mlir: it bufferized; prog.mlir: a program with @main),
after the substitutions below (docs/Development.md lists them). Prints one
line per block; exit 1 when a block fails or is unmarked.
"""
import os
import re
import shutil
import subprocess
import sys


def substitutions(src, build, shared, work):
    return [
        # The tree under test is built: building it again is lit's job.
        (r"\bmake build\b", ":"),
        # `make check` is the run that holds this test.
        (r"\bmake check\b", ":"),
        # What `make demo` runs, on the build under test.
        (r"\bmake demo\b", "%s/scripts/demo.sh %s %s/models/resnet18.mlir auto"
         % (src, build, shared)),
        (r"(?<![\w/.-])build/", build + "/"),
        (r"--install build\b", "--install " + build),
        (r"(?<![\w/.])\.\./shared/", shared + "/"),
        (r"/opt/memplan", os.path.join(work, "prefix")),
        # No browser in a test: the page must exist and not be empty.
        (r"^chromium (\S+)", r"test -s \1"),
    ]


def blocks(path):
    lines = open(path, encoding="utf-8").read().splitlines()
    for i, line in enumerate(lines):
        m = re.match(r"^(\s*)```sh\s*$", line)
        if not m:
            continue
        indent = len(m.group(1))
        body = []
        for j in range(i + 1, len(lines)):
            if lines[j].strip() == "```":
                break
            body.append(lines[j][indent:])
        marker = lines[i - 1].strip() if i else ""
        yield i + 1, marker, "\n".join(body)


def main():
    src, build, shared, work = sys.argv[1:5]
    inputs = os.path.join(src, "test", "Tools", "Inputs")
    bad = 0
    for doc in sys.argv[5:]:
        name = os.path.relpath(doc, src)
        for line, marker, body in blocks(doc):
            where = "%s:%d" % (name, line)
            if marker.startswith("<!-- not runnable:"):
                print("%s: not runnable (%s)" % (where, marker[18:-3].strip()))
                continue
            if marker != "<!-- runnable -->":
                print("%s: UNMARKED (put <!-- runnable --> or "
                      "<!-- not runnable: why --> on the line before)" % where)
                bad += 1
                continue
            run = os.path.join(work, where.replace("/", "_").replace(":", "-"))
            shutil.rmtree(run, ignore_errors=True)
            os.makedirs(run)
            shutil.copy(os.path.join(inputs, "chain.mlir"), os.path.join(run, "net.mlir"))
            shutil.copy(os.path.join(inputs, "chain.mlir"), os.path.join(run, "mynet.mlir"))
            shutil.copy(os.path.join(src, "test", "e2e", "lower-to-llvm.mlir"),
                        os.path.join(run, "prog.mlir"))
            subprocess.run([os.path.join(build, "bin", "memplan-opt"), "net.mlir",
                            "--one-shot-bufferize=bufferize-function-boundaries",
                            "-o", "bufferized.mlir"], cwd=run, check=True)
            script = body
            for pattern, repl in substitutions(src, build, shared, run):
                script = re.sub(pattern, repl, script, flags=re.M)
            with open(os.path.join(run, "block.sh"), "w") as f:
                f.write(script + "\n")
            # A user's shell: LLVM's tools are not on Debian's PATH.
            env = dict(os.environ, PATH="/usr/local/bin:/usr/bin:/bin")
            p = subprocess.run(["bash", "-e", "-o", "pipefail", "block.sh"], cwd=run, env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               text=True, timeout=900)
            if p.returncode:
                bad += 1
                print("%s: FAILED (exit %d) in %s\n%s" %
                      (where, p.returncode, run, p.stdout[-3000:]))
            else:
                print("%s: ok" % where)
    print("failed or unmarked: %d" % bad)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
