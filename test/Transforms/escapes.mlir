// RUN: memplan-opt %s --tensor-mem-plan=remarks=true -verify-diagnostics -allow-unregistered-dialect -split-input-file | FileCheck %s

// A returned buffer is the caller's; it stays a plain alloc.
// CHECK-LABEL: func.func @returned
// CHECK-NEXT:    %[[A:.*]] = memref.alloc() : memref<4xf32>
// CHECK-NEXT:    return %[[A]]
func.func @returned() -> memref<4xf32> {
  // expected-remark @below {{buffer not planned: returned}}
  %a = memref.alloc() : memref<4xf32>
  // expected-note @below {{because of this op}}
  return %a : memref<4xf32>
}

// -----

// Returned through a view: still the caller's.
// CHECK-LABEL: func.func @returned_view
// CHECK:         memref.alloc() : memref<16xf32>
func.func @returned_view() -> memref<4x4xf32> {
  // expected-remark @below {{buffer not planned: returned}}
  %a = memref.alloc() : memref<16xf32>
  %e = memref.expand_shape %a [[0, 1]] output_shape [4, 4] : memref<16xf32> into memref<4x4xf32>
  // expected-note @below {{because of this op}}
  return %e : memref<4x4xf32>
}

// -----

func.func private @consume(memref<4xf32>)

// CHECK-LABEL: func.func @called
// CHECK:         memref.alloc() : memref<4xf32>
func.func @called() {
  // expected-remark @below {{buffer not planned: passed to a call ('func.call')}}
  %a = memref.alloc() : memref<4xf32>
  // expected-note @below {{because of this op}}
  func.call @consume(%a) : (memref<4xf32>) -> ()
  return
}

// -----

// CHECK-LABEL: func.func @stored
// CHECK:         memref.alloc() : memref<4xf32>
func.func @stored(%box: memref<1xmemref<4xf32>>) {
  %c0 = arith.constant 0 : index
  // expected-remark @below {{buffer not planned: stored by 'memref.store'}}
  %a = memref.alloc() : memref<4xf32>
  // expected-note @below {{because of this op}}
  memref.store %a, %box[%c0] : memref<1xmemref<4xf32>>
  return
}

// -----

// CHECK-LABEL: func.func @pointer_taken
// CHECK:         memref.alloc() : memref<4xf32>
func.func @pointer_taken() -> index {
  // expected-remark @below {{buffer not planned: its pointer is taken ('memref.extract_aligned_pointer_as_index')}}
  %a = memref.alloc() : memref<4xf32>
  // expected-note @below {{because of this op}}
  %p = memref.extract_aligned_pointer_as_index %a : memref<4xf32> -> index
  return %p : index
}

// -----

// An op the planner knows nothing about may keep the buffer.
// CHECK-LABEL: func.func @unknown_op
// CHECK:         memref.alloc() : memref<4xf32>
func.func @unknown_op() {
  // expected-remark @below {{buffer not planned: used by 'test.unknown', whose memory effects are unknown}}
  %a = memref.alloc() : memref<4xf32>
  // expected-note @below {{because of this op}}
  "test.unknown"(%a) : (memref<4xf32>) -> ()
  return
}

// -----

// A dynamic shape is for the runtime lowering; the static buffer beside it is
// planned alone.
// CHECK-LABEL: func.func @dynamic
// CHECK:         memref.alloc() {alignment = 64 : i64} : memref<64xi8>
// CHECK:         memref.alloc(%{{.*}}) : memref<?xf32>
// expected-remark @below {{tensor-mem-plan: 1 buffer planned, 16 bytes without planning, arena 64 bytes, lower bound 64, strategy auto}}
func.func @dynamic(%n: index, %out: memref<4xf32>) {
  // expected-remark @below {{buffer not planned: dynamic shape}}
  %d = memref.alloc(%n) : memref<?xf32>
  %s = memref.alloc() : memref<4xf32>
  memref.copy %s, %out : memref<4xf32> to memref<4xf32>
  return
}

// -----

// CHECK-LABEL: func.func @layout
// CHECK:         memref.alloc() : memref<4xf32, strided<[2]>>
func.func @layout() {
  // expected-remark @below {{buffer not planned: non-identity layout}}
  %a = memref.alloc() : memref<4xf32, strided<[2]>>
  return
}

// -----

// realloc frees its operand: arena bytes must never be handed to it.
// CHECK-LABEL: func.func @realloc
// CHECK:         memref.alloc() : memref<4xf32>
func.func @realloc(%out: memref<8xf32>) {
  // expected-remark @below {{buffer not planned: freed by 'memref.realloc'}}
  %a = memref.alloc() : memref<4xf32>
  // expected-note @below {{because of this op}}
  // expected-remark @below {{buffer not planned: allocated by 'memref.realloc', which the rewrite does not turn into a view of the arena}}
  %b = memref.realloc %a : memref<4xf32> to memref<8xf32>
  memref.copy %b, %out : memref<8xf32> to memref<8xf32>
  return
}
