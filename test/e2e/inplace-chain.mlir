// An elementwise chain where results take the bytes of dying operands
// (inplace=true), bufferized, planned, lowered and run: it must print exactly
// what the unplanned program prints, through tensor-mem-plan and through
// memplan-pipeline (in-place on by default there).
//
// RUN: memplan-opt %s --one-shot-bufferize="bufferize-function-boundaries" -o %t.buf.mlir
// RUN: memplan-opt %t.buf.mlir %lower_to_llvm | mlir-runner -e main -entry-point-result=void -shared-libs=%runner_libs | sed -e 's/base@ = 0x[0-9a-f]*//' > %t.ref
// RUN: memplan-opt %t.buf.mlir --tensor-mem-plan="inplace=true remarks=true" -o %t.planned.mlir 2> %t.remarks
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: memplan-opt %t.planned.mlir %lower_to_llvm | mlir-runner -e main -entry-point-result=void -shared-libs=%runner_libs | sed -e 's/base@ = 0x[0-9a-f]*//' > %t.planned
// RUN: diff %t.ref %t.planned
// RUN: FileCheck %s < %t.planned
// RUN: memplan-opt %s --memplan-pipeline="remarks=true" 2> %t.pipeline.remarks %lower_to_llvm | mlir-runner -e main -entry-point-result=void -shared-libs=%runner_libs | sed -e 's/base@ = 0x[0-9a-f]*//' > %t.pipeline
// RUN: diff %t.ref %t.pipeline
// RUN: FileCheck %s --check-prefix=PIPE < %t.pipeline.remarks

// a[i][j] = 4i + j; t1 = 2a (a is read again by t5: no pair); t2 = t1 + 1
// (takes t1's bytes); t3 = transpose(t2) (another element: no pair);
// t4 = t3 * t3 (takes t3's); t5 = t4 - a (takes t4's) is passed to
// printMemrefF32, which keeps no reference: planned too.
// REMARK: remark: tensor-mem-plan: 6 buffers planned, {{.*}}, 3 in place
// In memplan-pipeline a and t1, t2 are computed from constants only, so
// hoist-constants=memory reads t2 through the transposed map: t3 never
// exists, t4 reads t2 through another map than its own (no pair), t5 takes
// t4's bytes.
// PIPE: remark: tensor-mem-hoist-constants: 1 permuted constants read through a map (64 bytes never materialized)
// PIPE: remark: tensor-mem-plan: 5 buffers planned, {{.*}}, 2 in place

// t5[i][j] = (8j + 2i + 1)^2 - (4i + j). Row 0: 1, 81 - 1, 289 - 2,
// 625 - 3; row 3: 49 - 12, 225 - 13, 529 - 14, 961 - 15.
// CHECK: rank = 2 offset = 0 sizes = [4, 4] strides = [4, 1] data =
// CHECK-NEXT: {{\[\[}}1, {{ *}}80, {{ *}}287, {{ *}}622],
// CHECK: [37, {{ *}}212, {{ *}}515, {{ *}}946]]

func.func private @printMemrefF32(tensor<*xf32>)

#id = affine_map<(d0, d1) -> (d0, d1)>
#tr = affine_map<(d0, d1) -> (d1, d0)>

func.func @main() {
  %ea = tensor.empty() : tensor<4x4xf32>
  %a = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]}
      outs(%ea : tensor<4x4xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c4 = arith.constant 4 : index
    %i4 = arith.muli %i, %c4 : index
    %s = arith.addi %i4, %j : index
    %si = arith.index_cast %s : index to i32
    %f = arith.sitofp %si : i32 to f32
    linalg.yield %f : f32
  } -> tensor<4x4xf32>
  %e1 = tensor.empty() : tensor<4x4xf32>
  %t1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<4x4xf32>) outs(%e1 : tensor<4x4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.addf %x, %x : f32
    linalg.yield %r : f32
  } -> tensor<4x4xf32>
  %e2 = tensor.empty() : tensor<4x4xf32>
  %t2 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%t1 : tensor<4x4xf32>) outs(%e2 : tensor<4x4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %one = arith.constant 1.0 : f32
    %r = arith.addf %x, %one : f32
    linalg.yield %r : f32
  } -> tensor<4x4xf32>
  %e3 = tensor.empty() : tensor<4x4xf32>
  %t3 = linalg.generic {indexing_maps = [#tr, #id], iterator_types = ["parallel", "parallel"]}
      ins(%t2 : tensor<4x4xf32>) outs(%e3 : tensor<4x4xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  } -> tensor<4x4xf32>
  %e4 = tensor.empty() : tensor<4x4xf32>
  %t4 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%t3 : tensor<4x4xf32>) outs(%e4 : tensor<4x4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.mulf %x, %x : f32
    linalg.yield %r : f32
  } -> tensor<4x4xf32>
  %e5 = tensor.empty() : tensor<4x4xf32>
  %t5 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%t4, %a : tensor<4x4xf32>, tensor<4x4xf32>) outs(%e5 : tensor<4x4xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %r = arith.subf %x, %y : f32
    linalg.yield %r : f32
  } -> tensor<4x4xf32>
  %u = tensor.cast %t5 : tensor<4x4xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
