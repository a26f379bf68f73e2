// A matmul chain whose row count comes from a function argument. Unlowered
// (malloc) and lowered (libmemplan_runtime) runs print the same CHECK lines;
// the runtime ends with nothing in use.
//
// RUN: memplan-opt %s --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --buffer-deallocation-pipeline %lower_to_llvm \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%runner_libs \
// RUN:   | FileCheck %s
// RUN: memplan-opt %s --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --buffer-deallocation-pipeline --tensor-mem-lower-runtime="plan-at-run-time=false" %lower_to_llvm \
// RUN:   | env MEMPLAN_RT_STATS=1 mlir-runner -e main -entry-point-result=void -shared-libs=%runner_libs,%memplan_lib/libmemplan_runtime%shlibext 2>&1 \
// RUN:   | FileCheck %s --check-prefixes=CHECK,STATS
// RUN: memplan-opt %s --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --buffer-deallocation-pipeline --tensor-mem-lower-runtime="plan-at-run-time=false" \
// RUN:   | FileCheck %s --check-prefix=IR
// Planned at run time by memplan_rt_plan (symbolic=false): both temporaries'
// sizes come from the argument, so one arena per call holds both; same
// output, one alloc per call.
// RUN: memplan-opt %s --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --buffer-deallocation-pipeline --tensor-mem-lower-runtime=symbolic=false %lower_to_llvm \
// RUN:   | env MEMPLAN_RT_STATS=1 mlir-runner -e main -entry-point-result=void -shared-libs=%runner_libs,%memplan_lib/libmemplan_runtime%shlibext 2>&1 \
// RUN:   | FileCheck %s --check-prefixes=CHECK,RTPLAN
// RUN: memplan-opt %s --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --buffer-deallocation-pipeline --tensor-mem-lower-runtime=symbolic=false \
// RUN:   | FileCheck %s --check-prefix=RTPLANIR
// The default: the same arena, its offsets computed at the entry from an
// order planned at compile time (the sizes are multiples of the argument).
// RUN: memplan-opt %s --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --buffer-deallocation-pipeline --tensor-mem-lower-runtime %lower_to_llvm \
// RUN:   | env MEMPLAN_RT_STATS=1 mlir-runner -e main -entry-point-result=void -shared-libs=%runner_libs,%memplan_lib/libmemplan_runtime%shlibext 2>&1 \
// RUN:   | FileCheck %s --check-prefixes=CHECK,RTPLAN
// RUN: memplan-opt %s --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --buffer-deallocation-pipeline --tensor-mem-lower-runtime \
// RUN:   | FileCheck %s --check-prefix=SYMIR

// A[i,j] = i + j (n x 8), B = 0.5 (8 x 16), C[k,l] = 2k - l (16 x 4), so
// (A B)[i,k] = 0.5 * (8i + 28) = 4i + 14 and
// (A B C)[i,l] = (4i + 14) * sum_k (2k - l) = (4i + 14) * (240 - 16l).

// The runtime functions are declared once; the two dynamic temporaries go
// through them; the returned buffer stays a memref.alloc (caller frees it).
// IR: func.func private @memplan_rt_alloc(i64, i64) -> memref<?xi8> attributes {llvm.emit_c_interface}
// IR-NEXT: func.func private @memplan_rt_free(memref<?xi8>) attributes {llvm.emit_c_interface}
// IR-NOT: func.func private @memplan_rt
// IR-LABEL: func.func @chain
// IR: %[[BUF:.*]] = call @memplan_rt_alloc(%{{.*}}, %{{.*}}) : (i64, i64) -> memref<?xi8>
// IR: memref.view %[[BUF]][%{{.*}}][%arg0] : memref<?xi8> to memref<?x8xf32>
// IR: %[[BUF2:.*]] = call @memplan_rt_alloc
// IR: memref.view %[[BUF2]][%{{.*}}][%arg0] : memref<?xi8> to memref<?x16xf32>
// Each is freed right after its last use, not at the end of the function.
// IR: linalg.matmul
// IR-NEXT: call @memplan_rt_free(%[[BUF]])
// IR: memref.alloc(%arg0) {{.*}} : memref<?x4xf32>
// IR: linalg.matmul
// IR-NEXT: call @memplan_rt_free(%[[BUF2]])
// IR: return

func.func @chain(%n: index) -> tensor<?x4xf32> {
  %zero = arith.constant 0.0 : f32
  %half = arith.constant 0.5 : f32
  %ea = tensor.empty(%n) : tensor<?x8xf32>
  %a = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      outs(%ea : tensor<?x8xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %s = arith.addi %i, %j : index
    %si = arith.index_cast %s : index to i64
    %f = arith.sitofp %si : i64 to f32
    linalg.yield %f : f32
  } -> tensor<?x8xf32>
  %eb = tensor.empty() : tensor<8x16xf32>
  %b = linalg.fill ins(%half : f32) outs(%eb : tensor<8x16xf32>) -> tensor<8x16xf32>
  %e1 = tensor.empty(%n) : tensor<?x16xf32>
  %z1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<?x16xf32>) -> tensor<?x16xf32>
  %ab = linalg.matmul ins(%a, %b : tensor<?x8xf32>, tensor<8x16xf32>)
                      outs(%z1 : tensor<?x16xf32>) -> tensor<?x16xf32>
  %ec = tensor.empty() : tensor<16x4xf32>
  %c = linalg.generic {indexing_maps = [affine_map<(k, l) -> (k, l)>],
                       iterator_types = ["parallel", "parallel"]}
      outs(%ec : tensor<16x4xf32>) {
  ^bb0(%out: f32):
    %k = linalg.index 0 : index
    %l = linalg.index 1 : index
    %k2 = arith.addi %k, %k : index
    %d = arith.subi %k2, %l : index
    %di = arith.index_cast %d : index to i64
    %f = arith.sitofp %di : i64 to f32
    linalg.yield %f : f32
  } -> tensor<16x4xf32>
  %e2 = tensor.empty(%n) : tensor<?x4xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<?x4xf32>) -> tensor<?x4xf32>
  %abc = linalg.matmul ins(%ab, %c : tensor<?x16xf32>, tensor<16x4xf32>)
                       outs(%z2 : tensor<?x4xf32>) -> tensor<?x4xf32>
  return %abc : tensor<?x4xf32>
}

func.func private @printMemrefF32(memref<*xf32>)

func.func @main() {
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %r3 = call @chain(%c3) : (index) -> tensor<?x4xf32>
  %m3 = bufferization.to_buffer %r3 : tensor<?x4xf32> to memref<?x4xf32>
  %u3 = memref.cast %m3 : memref<?x4xf32> to memref<*xf32>
  call @printMemrefF32(%u3) : (memref<*xf32>) -> ()
  %r5 = call @chain(%c5) : (index) -> tensor<?x4xf32>
  %m5 = bufferization.to_buffer %r5 : tensor<?x4xf32> to memref<?x4xf32>
  %u5 = memref.cast %m5 : memref<?x4xf32> to memref<*xf32>
  call @printMemrefF32(%u5) : (memref<*xf32>) -> ()
  return
}

// CHECK: sizes = [3, 4]
// CHECK-NEXT: [3360, 3136, 2912, 2688]
// CHECK-NEXT: [4320, 4032, 3744, 3456]
// CHECK-NEXT: [5280, 4928, 4576, 4224]
// CHECK: sizes = [5, 4]
// CHECK-NEXT: [3360, 3136, 2912, 2688]
// CHECK-NEXT: [4320, 4032, 3744, 3456]
// CHECK-NEXT: [5280, 4928, 4576, 4224]
// CHECK-NEXT: [6240, 5824, 5408, 4992]
// CHECK-NEXT: [7200, 6720, 6240, 5760]
// STATS: num allocs: 4
// RTPLAN: num allocs: 2
// RTPLAN: bytes in use: 0
// RTPLANIR-LABEL: func.func @chain
// RTPLANIR: %[[TOTAL:.*]] = call @memplan_rt_plan(%{{.*}}, %{{.*}}, %{{.*}}) : (memref<?xi64>, memref<?xi64>, i64) -> i64
// RTPLANIR: %[[ARENA:.*]] = call @memplan_rt_alloc(%[[TOTAL]], %{{.*}})
// RTPLANIR-COUNT-2: call @memplan_rt_slot(%[[ARENA]])
// RTPLANIR-COUNT-2: memref.view
// RTPLANIR: call @memplan_rt_free(%[[ARENA]])
// RTPLANIR-NEXT: return
// SYMIR-LABEL: func.func @chain
// SYMIR-NOT: memplan_rt_plan
// SYMIR: %[[ARENA:.*]] = call @memplan_rt_alloc
// SYMIR-COUNT-2: call @memplan_rt_slot(%[[ARENA]])
// SYMIR-COUNT-2: memref.view
// SYMIR: call @memplan_rt_free(%[[ARENA]])
// SYMIR-NEXT: return
// STATS: bytes in use: 0
// STATS: requested bytes in use: 0
