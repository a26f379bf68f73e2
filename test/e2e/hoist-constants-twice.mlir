// A weight transposed and scaled at run time from a constant, hoisted into a
// global filled on the first call (fold-limit-bytes=0 fold-bytes=false forbid folding it):
// calling the function twice must print what the program without hoisting
// prints, and what folding it at compile time prints.
//
// RUN: memplan-opt %s --memplan-pipeline="hoist-constants=false" %lower_to_llvm | mlir-runner -e main -entry-point-result=void -shared-libs=%runner_libs | sed -e 's/base@ = 0x[0-9a-f]*//' > %t.ref
// RUN: memplan-opt %s --tensor-mem-hoist-constants="mode=speed fold-limit-bytes=0 fold-bytes=false" --memplan-pipeline="hoist-constants=off" -o %t.hoisted.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.hoisted.mlir
// RUN: memplan-opt %t.hoisted.mlir %lower_to_llvm | mlir-runner -e main -entry-point-result=void -shared-libs=%runner_libs | sed -e 's/base@ = 0x[0-9a-f]*//' > %t.hoisted
// RUN: diff %t.ref %t.hoisted
// RUN: memplan-opt %s --memplan-pipeline %lower_to_llvm | mlir-runner -e main -entry-point-result=void -shared-libs=%runner_libs | sed -e 's/base@ = 0x[0-9a-f]*//' > %t.folded
// RUN: diff %t.ref %t.folded
// RUN: FileCheck %s < %t.hoisted

// IR: memref.global "private" @__memplan_hoisted_f : memref<3x2xf32> = uninitialized
// IR-LABEL: func.func @f(
// IR:         memref.atomic_rmw ori
// IR:         scf.if
// IR:           memref.atomic_rmw maxs
// IR:           scf.if
// IR-NEXT:        func.call @__memplan_init_f({{.*}})
// IR-NEXT:        memref.atomic_rmw assign
// IR:         memref.get_global @__memplan_hoisted_f
// IR-NOT:     linalg.generic
// IR:         linalg.matmul

// By hand: W = 2 * transpose([[1,2,3],[4,5,6]]) = [[2,8],[4,10],[6,12]];
// [[1,0,2],[0,1,1]] x W = [[14,32],[10,22]], [[2,1,0],[1,1,1]] x W =
// [[8,26],[12,30]].
// CHECK: data =
// CHECK-NEXT: {{\[\[}}14, {{ *}}32],
// CHECK-NEXT: [10, {{ *}}22]]
// CHECK: data =
// CHECK-NEXT: {{\[\[}}8, {{ *}}26],
// CHECK-NEXT: [12, {{ *}}30]]

#t = affine_map<(d0, d1) -> (d1, d0)>
#id = affine_map<(d0, d1) -> (d0, d1)>

func.func private @printMemrefF32(tensor<*xf32>)

func.func @f(%a: tensor<2x3xf32>) -> tensor<2x2xf32> {
  %wt = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %two = arith.constant 2.0 : f32
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3x2xf32>
  %w = linalg.generic {indexing_maps = [#t, #id], iterator_types = ["parallel", "parallel"]}
      ins(%wt : tensor<2x3xf32>) outs(%e : tensor<3x2xf32>) {
  ^bb0(%in: f32, %out: f32):
    %x = arith.mulf %in, %two : f32
    linalg.yield %x : f32
  } -> tensor<3x2xf32>
  %eo = tensor.empty() : tensor<2x2xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x2xf32>) -> tensor<2x2xf32>
  %m = linalg.matmul ins(%a, %w : tensor<2x3xf32>, tensor<3x2xf32>) outs(%acc : tensor<2x2xf32>) -> tensor<2x2xf32>
  return %m : tensor<2x2xf32>
}

func.func @main() {
  %a1 = arith.constant dense<[[1.0, 0.0, 2.0], [0.0, 1.0, 1.0]]> : tensor<2x3xf32>
  %a2 = arith.constant dense<[[2.0, 1.0, 0.0], [1.0, 1.0, 1.0]]> : tensor<2x3xf32>
  %r1 = func.call @f(%a1) : (tensor<2x3xf32>) -> tensor<2x2xf32>
  %u1 = tensor.cast %r1 : tensor<2x2xf32> to tensor<*xf32>
  func.call @printMemrefF32(%u1) : (tensor<*xf32>) -> ()
  %r2 = func.call @f(%a2) : (tensor<2x3xf32>) -> tensor<2x2xf32>
  %u2 = tensor.cast %r2 : tensor<2x2xf32> to tensor<*xf32>
  func.call @printMemrefF32(%u2) : (tensor<*xf32>) -> ()
  return
}
