// 0-d memrefs (one element) and shapes with a zero dimension (no bytes).
// By hand with alignment=1: memref<f32> 4 bytes, memref<i64> 8 bytes, both
// live together: 12 raw; the empty ones take 0 bytes. The i64's alignment (8)
// raises the arena's, so both round up to 8: arena 16. The output lowers
// and runs.
// RUN: memplan-opt %s --tensor-mem-plan="alignment=1 strategy=first-fit remarks=true" -verify-diagnostics | FileCheck %s
// RUN: memplan-opt %s --tensor-mem-plan="alignment=1 strategy=first-fit" %lower_to_llvm | mlir-runner -e main -entry-point-result=void -shared-libs=%runner_libs | FileCheck %s --check-prefix=OUT
// CHECK: memref.alloc() {alignment = 8 : i64} : memref<16xi8>
// CHECK-DAG: memref.view %{{.*}} : memref<16xi8> to memref<f32>
// CHECK-DAG: memref.view %{{.*}} : memref<16xi8> to memref<i64>
// CHECK-DAG: memref.view %{{.*}} : memref<16xi8> to memref<0xf32>
// CHECK-DAG: memref.view %{{.*}} : memref<16xi8> to memref<4x0x3xf64>
// OUT: 42
func.func private @printI64(i64)
func.func private @printNewline()
// expected-remark @below {{4 buffers planned, 12 bytes without planning, arena 16 bytes}}
func.func @main() {
  %f = arith.constant 2.0 : f32
  %i = arith.constant 40 : i64
  %a = memref.alloc() : memref<f32>
  %b = memref.alloc() : memref<i64>
  %e = memref.alloc() : memref<0xf32>
  %g = memref.alloc() : memref<4x0x3xf64>
  memref.store %f, %a[] : memref<f32>
  memref.store %i, %b[] : memref<i64>
  %x = memref.load %a[] : memref<f32>
  %y = memref.load %b[] : memref<i64>
  %xi = arith.fptosi %x : f32 to i64
  %s = arith.addi %xi, %y : i64
  func.call @printI64(%s) : (i64) -> ()
  func.call @printNewline() : () -> ()
  memref.dealloc %a : memref<f32>
  memref.dealloc %b : memref<i64>
  memref.dealloc %e : memref<0xf32>
  memref.dealloc %g : memref<4x0x3xf64>
  return
}
