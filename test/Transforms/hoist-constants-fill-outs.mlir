// A zero linalg.fill as a matmul's destination is the accumulator's init:
// left alone without a remark, even with remarks=true; a fill read as an
// input (hoisted or folded) still gets one, so the remarks are on.
// RUN: memplan-opt %s --tensor-mem-hoist-constants="remarks=true mode=speed" -o /dev/null 2>&1 | FileCheck %s
// RUN: memplan-opt %s --tensor-mem-hoist-constants="remarks=true mode=memory" -o /dev/null 2>&1 | FileCheck %s --check-prefix=MEMORY
// CHECK-NOT: used as a destination
// CHECK: remark: tensor-mem-hoist-constants:
// CHECK-NOT: used as a destination
// MEMORY-NOT: used as a destination

func.func @init(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>) -> tensor<4x4xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x4xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  %m = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x4xf32>) outs(%f : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %m : tensor<4x4xf32>
}

// A fill read as an input: a candidate, so it gets a remark.
func.func @input(%a: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %one = arith.constant 1.0 : f32
  %e = tensor.empty() : tensor<4x4xf32>
  %f = linalg.fill ins(%one : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  %e2 = tensor.empty() : tensor<4x4xf32>
  %s = linalg.add ins(%a, %f : tensor<4x4xf32>, tensor<4x4xf32>) outs(%e2 : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %s : tensor<4x4xf32>
}
