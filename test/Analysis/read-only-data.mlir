// collectReadOnlyData: each global a function takes, once, with its bytes
// (4x3xf32 = 48, 2xi64 = 16, i1 = 1) and kind.
// RUN: memplan-opt %s --test-memplan-read-only-data -o /dev/null 2>&1 | FileCheck %s
// CHECK: remark: read-only data: 65 bytes; @w 48 constant; @h 16 hoisted; @flag 1 mutable
// CHECK: remark: read-only data: 0 bytes{{$}}
memref.global "private" constant @w : memref<4x3xf32> = dense<1.0>
memref.global "private" @h : memref<2xi64> = uninitialized {memplan.hoisted}
memref.global "private" @flag : memref<i1> = dense<false>
func.func @f() {
  %0 = memref.get_global @w : memref<4x3xf32>
  %1 = memref.get_global @h : memref<2xi64>
  %2 = memref.get_global @w : memref<4x3xf32>
  %3 = memref.get_global @flag : memref<i1>
  return
}
func.func @g() {
  return
}
