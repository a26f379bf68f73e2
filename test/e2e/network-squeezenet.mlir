// A real network runs planned and prints exactly what it prints unplanned:
// SqueezeNet 1.1 at 224x224 from ../shared/models, whose elided weights the
// repository's script replaces by deterministic constants.
//
// REQUIRES: shared-data
// RUN: python3 %src/scripts/replace_elided_weights.py %shared/models/squeezenet1_1_224.mlir %t.net.mlir --main
// RUN: memplan-opt %t.net.mlir --one-shot-bufferize="bufferize-function-boundaries" -o %t.buf.mlir
// RUN: memplan-opt %t.buf.mlir %lower_to_llvm | mlir-runner -e main -entry-point-result=void -shared-libs=%runner_libs | sed -e 's/base@ = 0x[0-9a-f]*//' > %t.ref
// RUN: memplan-opt %t.buf.mlir --tensor-mem-plan=remarks=true -o /dev/null 2>&1 | FileCheck %s --check-prefix=PLAN
// RUN: memplan-opt %t.buf.mlir --tensor-mem-plan %lower_to_llvm | mlir-runner -e main -entry-point-result=void -shared-libs=%runner_libs | sed -e 's/base@ = 0x[0-9a-f]*//' > %t.planned
// RUN: diff %t.ref %t.planned
// RUN: FileCheck %s < %t.planned

// 66 allocs after one-shot-bufferize (shared/models/README.md): in @forward
// all but the returned result are planned, at the bound.
// PLAN: remark: tensor-mem-plan: 65 buffers planned, {{[0-9]+}} bytes without planning, arena [[N:[0-9]+]] bytes, lower bound [[N]], strategy auto

// CHECK: rank = 2 offset = 0 sizes = [1, 1000] strides = [1000, 1] data =
// CHECK-NOT: nan
// CHECK-NOT: inf
