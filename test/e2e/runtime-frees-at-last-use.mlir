// Dynamic buffers whose sizes are known at entry share one arena (one
// alloc); without that, each is freed right after its last use: six
// 1000 x 64 f32 intermediates (256,000 B each) where t(k+1) = t(k) + t(k-1),
// so at most three live at once: the runtime's peak in use is 3 x 256,000 =
// 768,000 B (freed at the end of the function, as the deallocation pipeline
// places them, five were in use: 1,280,000). t6 is returned, so it stays a
// memref.alloc. In the pipeline's symbolic plan (inplace=true) t(k+1) is
// written over t(k-1), which dies at that add and has the same size %n: t1,
// t3, t5 share bytes, t2 and t4 too, so two are live: 512,000 B. With x = 1:
// 2, 3, 5, 8, 13, 21.
//
// RUN: memplan-opt %s --memplan-pipeline="runtime=false" %lower_vector_to_llvm | mlir-runner -e main -entry-point-result=void -shared-libs=%runner_libs | FileCheck %s
// RUN: memplan-opt %s --memplan-pipeline %lower_vector_to_llvm | env MEMPLAN_RT_STATS=1 mlir-runner -e main -entry-point-result=void -shared-libs=%runner_libs,%memplan_lib/libmemplan_runtime%shlibext 2>&1 | FileCheck %s --check-prefixes=CHECK,STATS
// CHECK: 21
// STATS: num allocs: 1
// STATS: peak bytes in use: 512000
// The same beside the purge thread (a pass every 125 us), which lowered code
// never waits for and which ends with the process:
// RUN: memplan-opt %s --memplan-pipeline %lower_vector_to_llvm | env MEMPLAN_RT_STATS=1 MEMPLAN_RT_PURGE_THREAD=1 MEMPLAN_RT_PURGE_DELAY_MS=1 mlir-runner -e main -entry-point-result=void -shared-libs=%runner_libs,%memplan_lib/libmemplan_runtime%shlibext 2>&1 | FileCheck %s --check-prefixes=CHECK,STATS
// Without in-place reuse, the arena holds three:
// RUN: memplan-opt %s --memplan-pipeline="inplace=false" %lower_vector_to_llvm | env MEMPLAN_RT_STATS=1 mlir-runner -e main -entry-point-result=void -shared-libs=%runner_libs,%memplan_lib/libmemplan_runtime%shlibext 2>&1 | FileCheck %s --check-prefixes=CHECK,NOINPLACE
// NOINPLACE: num allocs: 1
// NOINPLACE: peak bytes in use: 768000
// The same without run-time planning: five buffers freed at their last use.
// RUN: memplan-opt %s --memplan-pipeline="runtime=false" --tensor-mem-lower-runtime="plan-at-run-time=false" %lower_vector_to_llvm | env MEMPLAN_RT_STATS=1 mlir-runner -e main -entry-point-result=void -shared-libs=%runner_libs,%memplan_lib/libmemplan_runtime%shlibext 2>&1 | FileCheck %s --check-prefixes=CHECK,LASTUSE
// LASTUSE: num allocs: 5
// LASTUSE: peak bytes in use: 768000
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @chain(%x: tensor<?x64xf32>) -> tensor<?x64xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x64xf32>
  %e1 = tensor.empty(%n) : tensor<?x64xf32>
  %t1 = linalg.add ins(%x, %x : tensor<?x64xf32>, tensor<?x64xf32>) outs(%e1 : tensor<?x64xf32>) -> tensor<?x64xf32>
  %e2 = tensor.empty(%n) : tensor<?x64xf32>
  %t2 = linalg.add ins(%t1, %x : tensor<?x64xf32>, tensor<?x64xf32>) outs(%e2 : tensor<?x64xf32>) -> tensor<?x64xf32>
  %e3 = tensor.empty(%n) : tensor<?x64xf32>
  %t3 = linalg.add ins(%t2, %t1 : tensor<?x64xf32>, tensor<?x64xf32>) outs(%e3 : tensor<?x64xf32>) -> tensor<?x64xf32>
  %e4 = tensor.empty(%n) : tensor<?x64xf32>
  %t4 = linalg.add ins(%t3, %t2 : tensor<?x64xf32>, tensor<?x64xf32>) outs(%e4 : tensor<?x64xf32>) -> tensor<?x64xf32>
  %e5 = tensor.empty(%n) : tensor<?x64xf32>
  %t5 = linalg.add ins(%t4, %t3 : tensor<?x64xf32>, tensor<?x64xf32>) outs(%e5 : tensor<?x64xf32>) -> tensor<?x64xf32>
  %e6 = tensor.empty(%n) : tensor<?x64xf32>
  %t6 = linalg.add ins(%t5, %t4 : tensor<?x64xf32>, tensor<?x64xf32>) outs(%e6 : tensor<?x64xf32>) -> tensor<?x64xf32>
  return %t6 : tensor<?x64xf32>
}
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1000 = arith.constant 1000 : index
  %one = arith.constant 1.0 : f32
  %e = tensor.empty(%c1000) : tensor<?x64xf32>
  %x = linalg.fill ins(%one : f32) outs(%e : tensor<?x64xf32>) -> tensor<?x64xf32>
  %r = call @chain(%x) : (tensor<?x64xf32>) -> tensor<?x64xf32>
  %v = tensor.extract %r[%c0, %c0] : tensor<?x64xf32>
  vector.print %v : f32
  return
}
