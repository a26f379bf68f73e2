// An input that was never bufferized has nothing to plan: the pass says so
// (a warning) instead of "planning" it into nothing, and leaves it alone.
// RUN: memplan-opt %s --tensor-mem-plan -split-input-file -verify-diagnostics | FileCheck %s

// Tensor arguments and results.
// expected-warning @below {{tensor-mem-plan: the input has tensor values; run one-shot-bufferize first (nothing planned in 'args')}}
func.func @args(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}
// CHECK-LABEL: func.func @args
// CHECK-NEXT:    return

// -----

// Tensors only inside: the warning points at the first op making one.
func.func @inside(%out: memref<4xf32>) {
  // expected-warning @below {{run one-shot-bufferize first}}
  %e = tensor.empty() : tensor<4xf32>
  %c = arith.constant 1.0 : f32
  %f = linalg.fill ins(%c : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  bufferization.materialize_in_destination %f in writable %out : (tensor<4xf32>, memref<4xf32>) -> ()
  return
}
// CHECK-LABEL: func.func @inside
// CHECK:         tensor.empty

// -----

// Bufferized: no warning.
func.func @bufferized(%out: memref<4xf32>) {
  %a = memref.alloc() : memref<4xf32>
  memref.copy %a, %out : memref<4xf32> to memref<4xf32>
  return
}
// CHECK-LABEL: func.func @bufferized
// CHECK:         memref.view
