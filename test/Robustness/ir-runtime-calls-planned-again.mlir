// A program that calls the memplan runtime already (planned output, or
// written by hand): with deallocate=true the deallocation after planning
// would free the runtime's block with free(), after its memplan_rt_free
// (planning planned output twice once crashed there, with rc 0 from
// memplan-opt). Default-deny: a located error. With deallocate=false the
// program's own free stays, and it runs: 16 ones, nothing left in use.
//
// RUN: not memplan-opt %s --memplan-pipeline 2>&1 | FileCheck %s --check-prefix=ERR
// RUN: not memplan-opt %s --memplan-pipeline="runtime=false" 2>&1 | FileCheck %s --check-prefix=ERR
// RUN: memplan-opt %s --memplan-pipeline=deallocate=false --memplan-lower-to-llvm \
// RUN:   | env MEMPLAN_RT_STATS=1 mlir-runner -e main -entry-point-result=void -shared-libs=%runner_libs,%memplan_lib/libmemplan_runtime%shlibext 2>&1 \
// RUN:   | FileCheck %s
// ERR: :[[@LINE+15]]:10: error: tensor-mem-plan: this program already calls the memplan runtime, whose blocks go back through memplan_rt_free
// ERR-SAME: plan a program once, before tensor-mem-lower-runtime, or run memplan-pipeline with deallocate=false
// CHECK-COUNT-16: 1
// CHECK: num allocs: 1
// CHECK: num frees: 1
// CHECK: bytes in use: 0

func.func private @printMemrefF32(memref<*xf32>)
func.func private @memplan_rt_alloc(i64, i64) -> memref<?xi8> attributes {llvm.emit_c_interface}
func.func private @memplan_rt_free(memref<?xi8>) attributes {llvm.emit_c_interface}
func.func @main() {
  %c0 = arith.constant 0 : index
  %n = arith.constant 64 : i64
  %al = arith.constant 64 : i64
  %one = arith.constant 1.0 : f32
  %raw = call @memplan_rt_alloc(%n, %al) : (i64, i64) -> memref<?xi8>
  %v = memref.view %raw[%c0][] : memref<?xi8> to memref<16xf32>
  linalg.fill ins(%one : f32) outs(%v : memref<16xf32>)
  %u = memref.cast %v : memref<16xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  call @memplan_rt_free(%raw) : (memref<?xi8>) -> ()
  return
}
