// Report and timeline paths are checked before any IR is rewritten: a bad
// one fails the pass at once, and nothing is written.
// RUN: rm -rf %t.dir && mkdir -p %t.dir
// A timeline in a missing directory: the (good) report is not written either.
// RUN: not memplan-opt %s --tensor-mem-plan="report=%t.dir/r.json timeline=%t.dir/missing/t.html" -o %t.dir/out.mlir 2>&1 | FileCheck %s --check-prefix=TIMELINE
// RUN: not test -e %t.dir/r.json
// RUN: not test -e %t.dir/out.mlir
// TIMELINE: error: cannot write '{{.*}}missing/t.html': {{.*}} (tensor-mem-plan timeline=); nothing was planned
// TIMELINE-NOT: remark
//
// A report path that is a directory.
// RUN: not memplan-opt %s --tensor-mem-plan="report=%t.dir" -o /dev/null 2>&1 | FileCheck %s --check-prefix=DIR
// DIR: error: cannot write '{{.*}}.dir': {{.*}} (tensor-mem-plan report=)
//
// A wrong extension is found first as well.
// RUN: not memplan-opt %s --tensor-mem-plan="report=%t.dir/r.json timeline=%t.dir/t.png" -o /dev/null 2>&1 | FileCheck %s --check-prefix=EXT
// RUN: not test -e %t.dir/r.json
// EXT: error: tensor-mem-plan: timeline file '{{.*}}t.png' must end in .svg or .html
//
// One file for both: the picture would overwrite the report (it once did,
// with exit 0).
// RUN: not memplan-opt %s --tensor-mem-plan="report=%t.dir/same.html timeline=%t.dir/same.html" -o /dev/null 2>&1 | FileCheck %s --check-prefix=SAME
// RUN: not test -e %t.dir/same.html
// SAME: error: tensor-mem-plan: report= and timeline= name the same file '{{.*}}same.html': the picture would overwrite the report
//
// The check leaves no file behind, and an existing report is not truncated
// by it (only rewritten once planned).
// RUN: memplan-opt %s --tensor-mem-plan="report=%t.dir/r.json timeline=%t.dir/t.svg" -o /dev/null
// RUN: FileCheck %s --check-prefix=GOOD --input-file=%t.dir/r.json
// GOOD: "function": "f"

func.func @f(%out: memref<4xf32>) {
  %a = memref.alloc() : memref<4xf32>
  memref.copy %a, %out : memref<4xf32> to memref<4xf32>
  return
}
