// A loop whose temporary changes size every iteration (3i floats in
// iteration i). Unlowered, lowered (dynamic allocs only) and lowered with
// all=true (every alloc, static ones too) print the same lines; the runtime
// ends with nothing in use.
//
// RUN: memplan-opt %s --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --buffer-deallocation-pipeline %lower_to_llvm \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%runner_libs \
// RUN:   | FileCheck %s
// RUN: memplan-opt %s --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --buffer-deallocation-pipeline --tensor-mem-lower-runtime %lower_to_llvm \
// RUN:   | env MEMPLAN_RT_STATS=1 mlir-runner -e main -entry-point-result=void -shared-libs=%runner_libs,%memplan_lib/libmemplan_runtime%shlibext 2>&1 \
// RUN:   | FileCheck %s --check-prefixes=CHECK,STATS,DYN
// RUN: memplan-opt %s --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --buffer-deallocation-pipeline --tensor-mem-lower-runtime="all=true alignment=128" %lower_to_llvm \
// RUN:   | env MEMPLAN_RT_STATS=1 mlir-runner -e main -entry-point-result=void -shared-libs=%runner_libs,%memplan_lib/libmemplan_runtime%shlibext 2>&1 \
// RUN:   | FileCheck %s --check-prefixes=CHECK,STATS,ALL
// RUN: memplan-opt %s --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --buffer-deallocation-pipeline --tensor-mem-lower-runtime="all=true alignment=128" \
// RUN:   | FileCheck %s --check-prefix=IR

// Iteration i sums k + i over k < 3i: 3i(3i-1)/2 + 3i^2 = 6, 27, 63, 114;
// the total is 210.

// In the loop body both the dynamic temporary and the static 0-d reduction
// result go through the runtime with all=true, and each is freed in the body.
// IR-LABEL: func.func @main
// IR: scf.for
// IR: %[[A:.*]] = arith.constant 128 : i64
// IR-NEXT: %[[T:.*]] = func.call @memplan_rt_alloc(%{{.*}}, %[[A]]) : (i64, i64) -> memref<?xi8>
// IR: memref.view %[[T]]
// IR: %[[FOUR:.*]] = arith.constant 4 : i64
// IR-NEXT: %[[A2:.*]] = arith.constant 128 : i64
// IR-NEXT: %[[R:.*]] = func.call @memplan_rt_alloc(%[[FOUR]], %[[A2]])
// IR: memref.view %[[R]][%{{.*}}][] : memref<?xi8> to memref<f32>
// IR-DAG: func.call @memplan_rt_free(%[[T]])
// IR-DAG: func.call @memplan_rt_free(%[[R]])
// IR: scf.yield

func.func private @printF32(f32)
func.func private @printNewline()

func.func @main() {
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %zero = arith.constant 0.0 : f32
  %total = scf.for %i = %c1 to %c5 step %c1 iter_args(%acc = %zero) -> (f32) {
    %n = arith.muli %i, %c3 : index
    %e = tensor.empty(%n) : tensor<?xf32>
    %t = linalg.generic {indexing_maps = [affine_map<(k) -> (k)>],
                         iterator_types = ["parallel"]}
        outs(%e : tensor<?xf32>) {
    ^bb0(%out: f32):
      %k = linalg.index 0 : index
      %s = arith.addi %k, %i : index
      %si = arith.index_cast %s : index to i64
      %f = arith.sitofp %si : i64 to f32
      linalg.yield %f : f32
    } -> tensor<?xf32>
    %e0 = tensor.empty() : tensor<f32>
    %z = linalg.fill ins(%zero : f32) outs(%e0 : tensor<f32>) -> tensor<f32>
    %r = linalg.reduce ins(%t : tensor<?xf32>) outs(%z : tensor<f32>)
        dimensions = [0]
      (%in: f32, %init: f32) {
        %a = arith.addf %in, %init : f32
        linalg.yield %a : f32
      }
    %v = tensor.extract %r[] : tensor<f32>
    func.call @printF32(%v) : (f32) -> ()
    func.call @printNewline() : () -> ()
    %next = arith.addf %acc, %v : f32
    scf.yield %next : f32
  }
  func.call @printF32(%total) : (f32) -> ()
  func.call @printNewline() : () -> ()
  return
}

// CHECK: 6
// CHECK-NEXT: 27
// CHECK-NEXT: 63
// CHECK-NEXT: 114
// CHECK-NEXT: 210
// Four temporaries (dynamic only), or eight (all=true: the 0-d results too).
// DYN: num allocs: 4
// ALL: num allocs: 8
// STATS: num failures: 0
// STATS: bytes in use: 0
// STATS: requested bytes in use: 0
