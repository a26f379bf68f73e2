// Real networks planned by memplan-pipeline, which plans in place by default
// (and splits shared tensor.empty ops first), print exactly what they print
// unplanned: SqueezeNet 1.1 at 224x224 (elided weights replaced by the
// repository's deterministic constants) and ResNet-18 (batch norm: math ops).
//
// RUN: python3 %src/scripts/replace_elided_weights.py %shared/models/squeezenet1_1_224.mlir %t.sq.mlir --main
// RUN: memplan-opt %t.sq.mlir --one-shot-bufferize="bufferize-function-boundaries" %lower_math | mlir-runner -e main -entry-point-result=void -shared-libs=%runner_libs | sed -e 's/base@ = 0x[0-9a-f]*//' > %t.sq.ref
// RUN: memplan-opt %t.sq.mlir --memplan-pipeline="remarks=true" %lower_math 2> %t.sq.remarks | mlir-runner -e main -entry-point-result=void -shared-libs=%runner_libs | sed -e 's/base@ = 0x[0-9a-f]*//' > %t.sq.planned
// RUN: diff %t.sq.ref %t.sq.planned
// RUN: FileCheck %s < %t.sq.planned
// RUN: FileCheck %s --check-prefix=PAIRS < %t.sq.remarks
//
// RUN: python3 %src/scripts/replace_elided_weights.py %shared/models/resnet18.mlir %t.rn.mlir --main
// RUN: memplan-opt %t.rn.mlir --one-shot-bufferize="bufferize-function-boundaries" %lower_math | mlir-runner -e main -entry-point-result=void -shared-libs=%runner_libs | sed -e 's/base@ = 0x[0-9a-f]*//' > %t.rn.ref
// RUN: memplan-opt %t.rn.mlir --memplan-pipeline="remarks=true" %lower_math 2> %t.rn.remarks | mlir-runner -e main -entry-point-result=void -shared-libs=%runner_libs | sed -e 's/base@ = 0x[0-9a-f]*//' > %t.rn.planned
// RUN: diff %t.rn.ref %t.rn.planned
// RUN: FileCheck %s < %t.rn.planned
// RUN: FileCheck %s --check-prefix=PAIRS < %t.rn.remarks

// PAIRS: remark: tensor-mem-plan: {{[0-9]+}} buffers planned, {{.*}}, {{[1-9][0-9]*}} in place

// CHECK: rank = 2 offset = 0 sizes = [1, 1000] strides = [1000, 1] data =
// CHECK-NOT: nan
// CHECK-NOT: inf
