// tensor-mem-hoist-constants: what is folded, hoisted, or left alone.
// RUN: memplan-opt %s --split-input-file --tensor-mem-hoist-constants="mode=speed remarks=true" 2> %t.remarks | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: memplan-opt %s --split-input-file --tensor-mem-hoist-constants="mode=speed fold-limit-bytes=0 fold-bytes=false" | FileCheck %s --check-prefix=NOFOLD
// RUN: memplan-opt %s --split-input-file --tensor-mem-hoist-constants="mode=speed hoist=false" | FileCheck %s --check-prefix=NOHOIST
// RUN: memplan-opt %s --split-input-file --tensor-mem-hoist-constants="mode=speed max-growth=0" | FileCheck %s --check-prefix=GROWTH
// RUN: not memplan-opt %s --split-input-file --tensor-mem-hoist-constants="fold-limit-bytes=-1" 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: fold-limit-bytes -1 is negative

#t = affine_map<(d0, d1) -> (d1, d0)>
#id = affine_map<(d0, d1) -> (d0, d1)>

// A transpose of a splat is a splat: folded, whatever its size.
// CHECK-LABEL: func.func @splat_transpose
// CHECK:         %[[C:.*]] = arith.constant dense<2.000000e+00> : tensor<4x3xf32>
// CHECK-NOT:     linalg.generic
// CHECK:         linalg.matmul ins(%{{.*}}, %[[C]] :
// REMARK: remark: tensor-mem-hoist-constants: folded: 48 bytes
// NOFOLD-LABEL: func.func @splat_transpose
// NOFOLD:         arith.constant dense<2.000000e+00> : tensor<4x3xf32>
func.func @splat_transpose(%a: tensor<1x4xf32>, %acc: tensor<1x3xf32>) -> tensor<1x3xf32> {
  %cst = arith.constant dense<2.0> : tensor<3x4xf32>
  %e = tensor.empty() : tensor<4x3xf32>
  %w = linalg.generic {indexing_maps = [#t, #id], iterator_types = ["parallel", "parallel"]}
      ins(%cst : tensor<3x4xf32>) outs(%e : tensor<4x3xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<4x3xf32>
  %m = linalg.matmul ins(%a, %w : tensor<1x4xf32>, tensor<4x3xf32>) outs(%acc : tensor<1x3xf32>) -> tensor<1x3xf32>
  return %m : tensor<1x3xf32>
}

// -----

#t = affine_map<(d0, d1) -> (d1, d0)>
#id = affine_map<(d0, d1) -> (d0, d1)>

// Elided data cannot be folded: hoisted into a global that an init function
// fills on the first call; the chain (transpose, scale) leaves the function.
// CHECK:       memref.global "private" @__memplan_ready_elided : memref<i32> = dense<0> {alignment = 4 : i64, memplan.hoisted}
// CHECK-LABEL: func.func private @__memplan_init_elided()
// CHECK:         arith.constant dense_resource<__elided__> : tensor<3x4xf32>
// CHECK:         %[[T:.*]] = linalg.generic
// CHECK:         %[[S:.*]] = linalg.generic {{.*}} ins(%[[T]]
// CHECK:         %[[G:.*]] = memref.get_global @__memplan_hoisted_elided : memref<4x3xf32>
// CHECK:         bufferization.materialize_in_destination %[[S]] in restrict writable %[[G]]
// CHECK:         return
// CHECK:       memref.global "private" @__memplan_hoisted_elided : memref<4x3xf32> = uninitialized {alignment = 64 : i64, memplan.hoisted}
// CHECK-LABEL: func.func @elided
// The init function runs exactly once, also under concurrent first calls:
// the flag is 0 (not started), 1 (running) or 2 (done), touched only by
// atomics; the first to move it from 0 runs init, the others wait for 2.
// CHECK:         %[[F:.*]] = memref.get_global @__memplan_ready_elided
// CHECK:         %[[C0:.*]] = arith.constant 0 : i32
// CHECK:         %[[C1:.*]] = arith.constant 1 : i32
// CHECK:         %[[C2:.*]] = arith.constant 2 : i32
// CHECK:         %[[S:.*]] = memref.atomic_rmw ori %[[C0]], %[[F]][]
// CHECK:         %[[ND:.*]] = arith.cmpi ne, %[[S]], %[[C2]]
// CHECK:         scf.if %[[ND]] {
// CHECK-NEXT:      %[[B:.*]] = memref.atomic_rmw maxs %[[C1]], %[[F]][]
// CHECK-NEXT:      %[[WON:.*]] = arith.cmpi eq, %[[B]], %[[C0]]
// CHECK-NEXT:      scf.if %[[WON]] {
// CHECK-NEXT:        func.call @__memplan_init_elided()
// CHECK-NEXT:        memref.atomic_rmw assign %[[C2]], %[[F]][]
// CHECK-NEXT:      } else {
// CHECK-NEXT:        scf.while
// CHECK-NEXT:          %[[N:.*]] = memref.atomic_rmw ori %[[C0]], %[[F]][]
// CHECK-NEXT:          %[[SPIN:.*]] = arith.cmpi ne, %[[N]], %[[C2]]
// CHECK-NEXT:          scf.condition(%[[SPIN]])
// CHECK:         %[[H:.*]] = memref.get_global @__memplan_hoisted_elided
// CHECK:         %[[W:.*]] = bufferization.to_tensor %[[H]] restrict : memref<4x3xf32> to tensor<4x3xf32>
// CHECK-NOT:     linalg.generic
// CHECK:         linalg.matmul ins(%{{.*}}, %[[W]] :
// REMARK: remark: tensor-mem-hoist-constants: hoisted into @__memplan_hoisted_elided: 48 bytes
// NOHOIST-LABEL: func.func @elided
// NOHOIST-NOT:     memref.global
// NOHOIST:         linalg.generic
func.func @elided(%a: tensor<1x4xf32>, %acc: tensor<1x3xf32>) -> tensor<1x3xf32> {
  %cst = arith.constant dense_resource<__elided__> : tensor<3x4xf32>
  %two = arith.constant 2.0 : f32
  %e = tensor.empty() : tensor<4x3xf32>
  %w = linalg.generic {indexing_maps = [#t, #id], iterator_types = ["parallel", "parallel"]}
      ins(%cst : tensor<3x4xf32>) outs(%e : tensor<4x3xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<4x3xf32>
  %s = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%w : tensor<4x3xf32>) outs(%e : tensor<4x3xf32>) {
  ^bb0(%in: f32, %out: f32):
    %x = arith.mulf %in, %two : f32
    linalg.yield %x : f32
  } -> tensor<4x3xf32>
  %m = linalg.matmul ins(%a, %s : tensor<1x4xf32>, tensor<4x3xf32>) outs(%acc : tensor<1x3xf32>) -> tensor<1x3xf32>
  return %m : tensor<1x3xf32>
}

// -----

#t = affine_map<(d0, d1) -> (d1, d0)>
#id = affine_map<(d0, d1) -> (d0, d1)>

// Dense (non-splat) data within fold-limit-bytes: upstream's linalg
// constant folding transposes it at compile time. With the limit at 0 it is
// hoisted instead.
// CHECK-LABEL: func.func @dense_transpose
// CHECK{LITERAL}: arith.constant dense<[[1.000000e+00, 3.000000e+00], [2.000000e+00, 4.000000e+00]]> : tensor<2x2xf32>
// CHECK-NOT:     linalg.generic
// NOFOLD-LABEL: func.func @dense_transpose
// NOFOLD:         bufferization.to_tensor {{.*}} restrict : memref<2x2xf32> to tensor<2x2xf32>
func.func @dense_transpose(%a: tensor<2x2xf32>) -> tensor<2x2xf32> {
  %cst = arith.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %e = tensor.empty() : tensor<2x2xf32>
  %w = linalg.generic {indexing_maps = [#t, #id], iterator_types = ["parallel", "parallel"]}
      ins(%cst : tensor<2x2xf32>) outs(%e : tensor<2x2xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<2x2xf32>
  %r = linalg.add ins(%a, %w : tensor<2x2xf32>, tensor<2x2xf32>) outs(%e : tensor<2x2xf32>) -> tensor<2x2xf32>
  return %r : tensor<2x2xf32>
}

// -----

#t = affine_map<(d0, d1) -> (d1, d0)>
#id = affine_map<(d0, d1) -> (d0, d1)>

// A function argument reaches the transpose: nothing to do.
// CHECK-LABEL: func.func @argument
// CHECK-NOT:     memref.global
// CHECK-NOT:     bufferization.to_tensor
// CHECK:         linalg.generic
// CHECK:         linalg.matmul
func.func @argument(%a: tensor<1x4xf32>, %b: tensor<3x4xf32>, %acc: tensor<1x3xf32>) -> tensor<1x3xf32> {
  %e = tensor.empty() : tensor<4x3xf32>
  %w = linalg.generic {indexing_maps = [#t, #id], iterator_types = ["parallel", "parallel"]}
      ins(%b : tensor<3x4xf32>) outs(%e : tensor<4x3xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<4x3xf32>
  %m = linalg.matmul ins(%a, %w : tensor<1x4xf32>, tensor<4x3xf32>) outs(%acc : tensor<1x3xf32>) -> tensor<1x3xf32>
  return %m : tensor<1x3xf32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>

// The payload calls a function (side effects unknown): not pure, so not
// computed from constants only; left as it is.
// CHECK-LABEL: func.func @impure_payload
// CHECK-NOT:     memref.global
// CHECK:         linalg.generic
// CHECK:           func.call @noise
func.func private @noise(f32) -> f32
func.func @impure_payload(%a: tensor<2x2xf32>) -> tensor<2x2xf32> {
  %cst = arith.constant dense<1.0> : tensor<2x2xf32>
  %e = tensor.empty() : tensor<2x2xf32>
  %w = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%cst : tensor<2x2xf32>) outs(%e : tensor<2x2xf32>) {
  ^bb0(%in: f32, %out: f32):
    %n = func.call @noise(%in) : (f32) -> f32
    linalg.yield %n : f32
  } -> tensor<2x2xf32>
  %r = linalg.add ins(%a, %w : tensor<2x2xf32>, tensor<2x2xf32>) outs(%e : tensor<2x2xf32>) -> tensor<2x2xf32>
  return %r : tensor<2x2xf32>
}

// -----

#t = affine_map<(d0, d1) -> (d1, d0)>
#id = affine_map<(d0, d1) -> (d0, d1)>

// Inside a loop: default-deny, left where it is (with a remark).
// CHECK-LABEL: func.func @in_loop
// CHECK-NOT:     memref.global
// CHECK:         scf.for
// CHECK:           linalg.generic
// REMARK: remark: tensor-mem-hoist-constants: left alone: inside a nested region
func.func @in_loop(%a: tensor<1x4xf32>, %acc: tensor<1x3xf32>, %n: index) -> tensor<1x3xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%x = %acc) -> tensor<1x3xf32> {
    %cst = arith.constant dense_resource<__elided__> : tensor<3x4xf32>
    %e = tensor.empty() : tensor<4x3xf32>
    %w = linalg.generic {indexing_maps = [#t, #id], iterator_types = ["parallel", "parallel"]}
        ins(%cst : tensor<3x4xf32>) outs(%e : tensor<4x3xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<4x3xf32>
    %m = linalg.matmul ins(%a, %w : tensor<1x4xf32>, tensor<4x3xf32>) outs(%x : tensor<1x3xf32>) -> tensor<1x3xf32>
    scf.yield %m : tensor<1x3xf32>
  }
  return %r : tensor<1x3xf32>
}

// -----

// A fill used as a matmul's destination is written by it: left alone (a
// global would be copied back into the arena), without a remark: it is how
// linalg initialises an accumulator (hoist-constants-fill-outs.mlir).
// CHECK-LABEL: func.func @destination
// CHECK-NOT:     memref.global
// CHECK:         linalg.fill
func.func @destination(%a: tensor<1x4xf32>, %b: tensor<4x3xf32>) -> tensor<1x3xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x3xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<1x3xf32>) -> tensor<1x3xf32>
  %m = linalg.matmul ins(%a, %b : tensor<1x4xf32>, tensor<4x3xf32>) outs(%f : tensor<1x3xf32>) -> tensor<1x3xf32>
  return %m : tensor<1x3xf32>
}

// -----

#t = affine_map<(d0, d1) -> (d1, d0)>
#id = affine_map<(d0, d1) -> (d0, d1)>

// Returned: the caller could write it; left alone.
// CHECK-LABEL: func.func @returned
// CHECK-NOT:     memref.global
// CHECK:         linalg.generic
// REMARK: remark: tensor-mem-hoist-constants: left alone: returned or yielded
func.func @returned() -> tensor<4x3xf32> {
  %cst = arith.constant dense_resource<__elided__> : tensor<3x4xf32>
  %e = tensor.empty() : tensor<4x3xf32>
  %w = linalg.generic {indexing_maps = [#t, #id], iterator_types = ["parallel", "parallel"]}
      ins(%cst : tensor<3x4xf32>) outs(%e : tensor<4x3xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<4x3xf32>
  return %w : tensor<4x3xf32>
}

// -----

// A broadcast of 4 constant bytes into 64: kept as it is (max-growth=1),
// hoisted with max-growth=0.
// CHECK-LABEL: func.func @broadcast
// CHECK-NOT:     bufferization.to_tensor
// CHECK:         linalg.generic
// REMARK: remark: tensor-mem-hoist-constants: left alone: 64 bytes, more than the 4 bytes of constants it reads
// GROWTH-LABEL: func.func @broadcast
// GROWTH:         bufferization.to_tensor {{.*}} restrict : memref<4x4xf32> to tensor<4x4xf32>
#b = affine_map<(d0, d1) -> (d1)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @broadcast(%a: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %cst = arith.constant dense_resource<__elided__> : tensor<1xf32>
  %c = tensor.collapse_shape %cst [] : tensor<1xf32> into tensor<f32>
  %v = tensor.expand_shape %c [] output_shape [1] : tensor<f32> into tensor<1xf32>
  %e = tensor.empty() : tensor<4x4xf32>
  %w = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (0)>, #id], iterator_types = ["parallel", "parallel"]}
      ins(%v : tensor<1xf32>) outs(%e : tensor<4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<4x4xf32>
  %r = linalg.add ins(%a, %w : tensor<4x4xf32>, tensor<4x4xf32>) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %r : tensor<4x4xf32>
}
