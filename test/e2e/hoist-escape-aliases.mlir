// A hoisted global must never reach the caller (issue 21, item 5): the
// caller may write into what it gets back, and the next call would compute
// with the written values. Each function computes W = transpose of a
// constant at run time (fold-limit-bytes=0 forbids folding it) and returns an
// alias of it: through arith.select, tensor.reshape, a constant-derived
// tensor.expand_shape (W itself also read by a matmul), or an scf.if yield.
// @main writes 99 into what the first call returns, then prints what the
// second call returns. Hoisting used to follow only W's direct users, so the
// first three handed the global out and the second call printed 99s
// (deallocate=false: the deallocation pipeline's clone at the return hid it).
//
// RUN: memplan-opt %s --memplan-pipeline="hoist-constants=false deallocate=false" %lower_to_llvm | mlir-runner -e main -entry-point-result=void -shared-libs=%runner_libs | sed -e 's/base@ = 0x[0-9a-f]*//' > %t.ref
// RUN: memplan-opt %s --memplan-pipeline="fold-limit-bytes=0 deallocate=false" -o %t.hoisted.mlir
// RUN: memplan-opt %t.hoisted.mlir %lower_to_llvm | mlir-runner -e main -entry-point-result=void -shared-libs=%runner_libs | sed -e 's/base@ = 0x[0-9a-f]*//' > %t.hoisted
// RUN: diff %t.ref %t.hoisted
// RUN: FileCheck %s < %t.hoisted
// W stays in the function that returns it; @expand's matmul still reads W.
// RUN: FileCheck %s --check-prefix=IR < %t.hoisted.mlir
// IR-NOT: memref.global "private" @__memplan_hoisted

// W = [[1, 4], [2, 5], [3, 6]] on every call; @expand also returns a x W.
// CHECK: sizes = [3, 2] strides = [2, 1] data =
// CHECK-NEXT: {{\[\[}}1, {{ *}}4],
// CHECK: sizes = [6] strides = [1] data =
// CHECK-NEXT: [1, {{ *}}4, {{ *}}2, {{ *}}5, {{ *}}3, {{ *}}6]
// CHECK: sizes = [1, 2] strides = [2, 1] data =
// CHECK-NEXT: {{\[\[}}1, {{ *}}4]]
// CHECK: sizes = [3, 2, 1] strides = [2, 1, 1] data =
// CHECK-NEXT: {{\[\[\[}}1],
// CHECK-NEXT: [4]],
// CHECK: sizes = [3, 2] strides = [2, 1] data =
// CHECK-NEXT: {{\[\[}}1, {{ *}}4],

#t = affine_map<(d0, d1) -> (d1, d0)>
#id = affine_map<(d0, d1) -> (d0, d1)>

func.func private @printMemrefF32(tensor<*xf32>)

func.func @sel(%c: i1, %b: tensor<3x2xf32>) -> tensor<3x2xf32> {
  %wt = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %e = tensor.empty() : tensor<3x2xf32>
  %w = linalg.generic {indexing_maps = [#t, #id], iterator_types = ["parallel", "parallel"]}
      ins(%wt : tensor<2x3xf32>) outs(%e : tensor<3x2xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<3x2xf32>
  %s = arith.select %c, %w, %b : tensor<3x2xf32>
  return %s : tensor<3x2xf32>
}

func.func @reshape(%shape: tensor<1xindex>) -> tensor<6xf32> {
  %wt = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %e = tensor.empty() : tensor<3x2xf32>
  %w = linalg.generic {indexing_maps = [#t, #id], iterator_types = ["parallel", "parallel"]}
      ins(%wt : tensor<2x3xf32>) outs(%e : tensor<3x2xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<3x2xf32>
  %r = tensor.reshape %w(%shape) : (tensor<3x2xf32>, tensor<1xindex>) -> tensor<6xf32>
  return %r : tensor<6xf32>
}

func.func @expand(%a: tensor<1x3xf32>) -> (tensor<1x2xf32>, tensor<3x2x1xf32>) {
  %wt = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3x2xf32>
  %w = linalg.generic {indexing_maps = [#t, #id], iterator_types = ["parallel", "parallel"]}
      ins(%wt : tensor<2x3xf32>) outs(%e : tensor<3x2xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<3x2xf32>
  %x = tensor.expand_shape %w [[0], [1, 2]] output_shape [3, 2, 1] : tensor<3x2xf32> into tensor<3x2x1xf32>
  %eo = tensor.empty() : tensor<1x2xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%eo : tensor<1x2xf32>) -> tensor<1x2xf32>
  %m = linalg.matmul ins(%a, %w : tensor<1x3xf32>, tensor<3x2xf32>) outs(%acc : tensor<1x2xf32>) -> tensor<1x2xf32>
  return %m, %x : tensor<1x2xf32>, tensor<3x2x1xf32>
}

func.func @branch(%c: i1, %b: tensor<3x2xf32>) -> tensor<3x2xf32> {
  %wt = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %e = tensor.empty() : tensor<3x2xf32>
  %w = linalg.generic {indexing_maps = [#t, #id], iterator_types = ["parallel", "parallel"]}
      ins(%wt : tensor<2x3xf32>) outs(%e : tensor<3x2xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<3x2xf32>
  %r = scf.if %c -> tensor<3x2xf32> {
    scf.yield %w : tensor<3x2xf32>
  } else {
    scf.yield %b : tensor<3x2xf32>
  }
  return %r : tensor<3x2xf32>
}

// Fresh, writable buffers for each call, so that bufferization writes into
// what a call returns in place.
func.func @zeros() -> tensor<3x2xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3x2xf32>
  %b = linalg.fill ins(%z : f32) outs(%e : tensor<3x2xf32>) -> tensor<3x2xf32>
  return %b : tensor<3x2xf32>
}

func.func @main() {
  %true = arith.constant true
  %n = arith.constant 99.0 : f32
  %shape = arith.constant dense<6> : tensor<1xindex>
  %a = arith.constant dense<[[1.0, 0.0, 0.0]]> : tensor<1x3xf32>

  %b1 = func.call @zeros() : () -> tensor<3x2xf32>
  %s1 = func.call @sel(%true, %b1) : (i1, tensor<3x2xf32>) -> tensor<3x2xf32>
  %s1w = linalg.fill ins(%n : f32) outs(%s1 : tensor<3x2xf32>) -> tensor<3x2xf32>
  %b2 = func.call @zeros() : () -> tensor<3x2xf32>
  %s2 = func.call @sel(%true, %b2) : (i1, tensor<3x2xf32>) -> tensor<3x2xf32>
  %s2u = tensor.cast %s2 : tensor<3x2xf32> to tensor<*xf32>
  func.call @printMemrefF32(%s2u) : (tensor<*xf32>) -> ()

  %r1 = func.call @reshape(%shape) : (tensor<1xindex>) -> tensor<6xf32>
  %r1w = linalg.fill ins(%n : f32) outs(%r1 : tensor<6xf32>) -> tensor<6xf32>
  %r2 = func.call @reshape(%shape) : (tensor<1xindex>) -> tensor<6xf32>
  %r2u = tensor.cast %r2 : tensor<6xf32> to tensor<*xf32>
  func.call @printMemrefF32(%r2u) : (tensor<*xf32>) -> ()

  %m1, %x1 = func.call @expand(%a) : (tensor<1x3xf32>) -> (tensor<1x2xf32>, tensor<3x2x1xf32>)
  %x1w = linalg.fill ins(%n : f32) outs(%x1 : tensor<3x2x1xf32>) -> tensor<3x2x1xf32>
  %m2, %x2 = func.call @expand(%a) : (tensor<1x3xf32>) -> (tensor<1x2xf32>, tensor<3x2x1xf32>)
  %m2u = tensor.cast %m2 : tensor<1x2xf32> to tensor<*xf32>
  func.call @printMemrefF32(%m2u) : (tensor<*xf32>) -> ()
  %x2u = tensor.cast %x2 : tensor<3x2x1xf32> to tensor<*xf32>
  func.call @printMemrefF32(%x2u) : (tensor<*xf32>) -> ()

  %b3 = func.call @zeros() : () -> tensor<3x2xf32>
  %i1 = func.call @branch(%true, %b3) : (i1, tensor<3x2xf32>) -> tensor<3x2xf32>
  %i1w = linalg.fill ins(%n : f32) outs(%i1 : tensor<3x2xf32>) -> tensor<3x2xf32>
  %b4 = func.call @zeros() : () -> tensor<3x2xf32>
  %i2 = func.call @branch(%true, %b4) : (i1, tensor<3x2xf32>) -> tensor<3x2xf32>
  %i2u = tensor.cast %i2 : tensor<3x2xf32> to tensor<*xf32>
  func.call @printMemrefF32(%i2u) : (tensor<*xf32>) -> ()
  return
}
