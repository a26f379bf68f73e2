// Dynamic shapes and unranked views are not planned, with a remark; the
// output is valid IR.
// RUN: memplan-opt %s --tensor-mem-plan=remarks=true -verify-diagnostics -split-input-file | mlir-opt --verify-each -split-input-file | FileCheck %s

// CHECK-LABEL: func.func @dynamic
// CHECK: memref.alloc(%{{.*}}) : memref<?xf32>
func.func @dynamic(%n: index) {
  // expected-remark @below {{buffer not planned: dynamic shape}}
  %a = memref.alloc(%n) : memref<?xf32>
  memref.dealloc %a : memref<?xf32>
  return
}

// -----

// CHECK-LABEL: func.func @mixed
// CHECK: memref.alloc(%{{.*}}) : memref<4x?xf32>
func.func @mixed(%n: index) {
  %c0 = arith.constant 0 : index
  // expected-remark @below {{buffer not planned: dynamic shape}}
  %a = memref.alloc(%n) : memref<4x?xf32>
  %v = memref.load %a[%c0, %c0] : memref<4x?xf32>
  return
}

// -----

func.func private @take(memref<*xf32>)

// An unranked cast handed to a call escapes.
// CHECK-LABEL: func.func @unranked
// CHECK: memref.alloc() : memref<4xf32>
func.func @unranked() {
  // expected-remark @below {{buffer not planned: passed to a call ('func.call')}}
  %a = memref.alloc() : memref<4xf32>
  %u = memref.cast %a : memref<4xf32> to memref<*xf32>
  // expected-note @below {{because of this op}}
  func.call @take(%u) : (memref<*xf32>) -> ()
  return
}

// -----

// An unranked cast that is only cast back and read stays planned.
// CHECK-LABEL: func.func @unranked_local
// CHECK: memref.view
// expected-remark @below {{1 buffer planned}}
func.func @unranked_local() -> f32 {
  %c0 = arith.constant 0 : index
  %a = memref.alloc() : memref<4xf32>
  %u = memref.cast %a : memref<4xf32> to memref<*xf32>
  %r = memref.cast %u : memref<*xf32> to memref<4xf32>
  %v = memref.load %r[%c0] : memref<4xf32>
  return %v : f32
}
