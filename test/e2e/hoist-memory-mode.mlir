// hoist-constants=memory (the default) never keeps a second copy of a
// weight: a weight transposed only to feed a matmul is read through the
// transposed map (no transpose, no buffer, no global), and a constant-derived
// tensor whose constants are still read elsewhere is neither folded nor
// hoisted (either would add its bytes beside them). speed folds and hoists.
// All three print what the unplanned program prints.
//
// RUN: memplan-opt %s --one-shot-bufferize="bufferize-function-boundaries" %lower_to_llvm | mlir-runner -e main -entry-point-result=void -shared-libs=%runner_libs | sed -e 's/base@ = 0x[0-9a-f]*//' > %t.ref
// RUN: FileCheck %s < %t.ref
// RUN: memplan-opt %s --memplan-pipeline="remarks=true report=%t.json" -o %t.mem.mlir 2> %t.remarks
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: memplan-opt %s --tensor-mem-hoist-constants | FileCheck %s --check-prefix=IR
// RUN: memplan-opt %t.mem.mlir %lower_to_llvm | mlir-runner -e main -entry-point-result=void -shared-libs=%runner_libs | sed -e 's/base@ = 0x[0-9a-f]*//' > %t.mem
// RUN: diff %t.ref %t.mem
// RUN: memplan-opt %s --tensor-mem-hoist-constants="mode=speed fold-limit-bytes=0 fold-bytes=false" --memplan-pipeline="hoist-constants=off report=%t.speed.json" %lower_to_llvm | mlir-runner -e main -entry-point-result=void -shared-libs=%runner_libs | sed -e 's/base@ = 0x[0-9a-f]*//' > %t.speed
// RUN: diff %t.ref %t.speed
// The footprint: nothing hoisted by memory; speed (not folding) hoists the
// 48-byte transposed W (and its 4-byte once-flag, taken off).
// RUN: %python -c "import json, sys; print(*[f['footprint']['hoisted'] for f in json.load(open(sys.argv[1]))['functions'] if f['function'] == 'forward'], *[f['footprint']['hoisted'] - 4 for f in json.load(open(sys.argv[2]))['functions'] if f['function'] == 'forward'])" %t.json %t.speed.json | FileCheck %s --check-prefix=HOISTED

// x = [[1, 0, 0], [0, 1, 1]] then [[0, 0, 1], [1, 1, 1]]; W^T's columns are
// W's rows; out = x W^T + 2B + B.
// CHECK: data =
// CHECK-NEXT: [4,   10,   16,   22]
// CHECK-NEXT: [8,   17,   26,   35]
// CHECK: data =
// CHECK-NEXT: [6,   12,   18,   24]
// CHECK-NEXT: [9,   21,   33,   45]

// REMARK: remark: tensor-mem-hoist-constants: 1 permuted constants read through a map (48 bytes never materialized)
// REMARK-NOT: hoisted into

// IR-LABEL: func.func @forward
// IR-NOT: linalg.transpose
// IR: linalg.generic {indexing_maps = [#map{{[0-9]*}}, #map{{[0-9]*}}, #map{{[0-9]*}}]
// IR-SAME: ins(%{{.*}}, %cst : tensor<2x3xf32>, tensor<4x3xf32>)
// IR-NOT: memref.global

// HOISTED: 0 48

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>

func.func private @printMemrefF32(tensor<*xf32>)

func.func @forward(%x: tensor<2x3xf32>) -> tensor<2x4xf32> {
  %w = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0], [10.0, 11.0, 12.0]]> : tensor<4x3xf32>
  %b = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3x4xf32>
  %wt = linalg.transpose ins(%w : tensor<4x3xf32>) outs(%e : tensor<3x4xf32>) permutation = [1, 0]
  %o = tensor.empty() : tensor<2x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%o : tensor<2x4xf32>) -> tensor<2x4xf32>
  %m = linalg.matmul ins(%x, %wt : tensor<2x3xf32>, tensor<3x4xf32>) outs(%f : tensor<2x4xf32>) -> tensor<2x4xf32>
  // 2B broadcast over rows: derived from %b, which is read again below.
  %o2 = tensor.empty() : tensor<2x4xf32>
  %b2 = linalg.generic {indexing_maps = [#row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%b : tensor<4xf32>) outs(%o2 : tensor<2x4xf32>) {
  ^bb0(%v: f32, %out: f32):
    %d = arith.addf %v, %v : f32
    linalg.yield %d : f32
  } -> tensor<2x4xf32>
  %o3 = tensor.empty() : tensor<2x4xf32>
  %r = linalg.generic {indexing_maps = [#id, #id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%m, %b2, %b : tensor<2x4xf32>, tensor<2x4xf32>, tensor<4xf32>) outs(%o3 : tensor<2x4xf32>) {
  ^bb0(%p: f32, %q: f32, %s: f32, %out: f32):
    %t = arith.addf %p, %q : f32
    %u = arith.addf %t, %s : f32
    linalg.yield %u : f32
  } -> tensor<2x4xf32>
  return %r : tensor<2x4xf32>
}

func.func @main() {
  %x1 = arith.constant dense<[[1.0, 0.0, 0.0], [0.0, 1.0, 1.0]]> : tensor<2x3xf32>
  %x2 = arith.constant dense<[[0.0, 0.0, 1.0], [1.0, 1.0, 1.0]]> : tensor<2x3xf32>
  %r1 = func.call @forward(%x1) : (tensor<2x3xf32>) -> tensor<2x4xf32>
  %u1 = tensor.cast %r1 : tensor<2x4xf32> to tensor<*xf32>
  func.call @printMemrefF32(%u1) : (tensor<*xf32>) -> ()
  %r2 = func.call @forward(%x2) : (tensor<2x3xf32>) -> tensor<2x4xf32>
  %u2 = tensor.cast %r2 : tensor<2x4xf32> to tensor<*xf32>
  func.call @printMemrefF32(%u2) : (tensor<*xf32>) -> ()
  return
}
