// Shapes whose byte size does not fit: 2^62 f32 = 2^64 bytes overflows 64
// bits (left alone with a remark); 2^62 x vector<2^62 x i64> too. An arena of
// 2^63 bytes fits 64 bits but not a memref dimension (int64_t, INT64_MIN is
// "dynamic"): the pass used to emit memref<?xi8> without a size, invalid IR.
// RUN: memplan-opt %s --tensor-mem-plan=remarks=true -split-input-file -verify-diagnostics
// Without -verify-diagnostics the errors make the exit code non-zero:
// RUN: not memplan-opt %s --tensor-mem-plan -split-input-file 2>&1 | FileCheck %s
// CHECK: ir-shape-overflow.mlir:[[@LINE+14]]:1: error: tensor-mem-plan: the arena needs 9223372036854775808 bytes

func.func @bytes_overflow() {
  // expected-remark @below {{buffer not planned: byte size overflows 64 bits}}
  %a = memref.alloc() : memref<4611686018427387904xf32>
  // expected-remark @below {{buffer not planned: byte size overflows 64 bits}}
  %b = memref.alloc() : memref<2xvector<4611686018427387904xi64>>
  return
}

// -----

// 2^61 f32 = 2^63 bytes: one buffer the arena cannot hold.
// expected-error @below {{the arena needs 9223372036854775808 bytes, more than a memref can hold (2^63 - 1)}}
func.func @arena_2pow63() {
  %c0 = arith.constant 0 : index
  %a = memref.alloc() : memref<2305843009213693952xf32>
  %v = memref.load %a[%c0] : memref<2305843009213693952xf32>
  return
}

// -----

// Two buffers of 2^62 bytes live together: 2^63 bytes.
// expected-error @below {{the arena needs 9223372036854775808 bytes}}
func.func @two_halves() {
  %c0 = arith.constant 0 : index
  %a = memref.alloc() : memref<1152921504606846976xf32>
  %b = memref.alloc() : memref<1152921504606846976xf32>
  %v = memref.load %a[%c0] : memref<1152921504606846976xf32>
  %w = memref.load %b[%c0] : memref<1152921504606846976xf32>
  return
}

// -----

// Four buffers of 2^62 bytes live together need 2^64: an error from the
// strategy, not a wrapped arena.
// expected-error @below {{tensor-mem-plan: }}
func.func @four_quarters() {
  %c0 = arith.constant 0 : index
  %a = memref.alloc() : memref<1152921504606846976xf32>
  %b = memref.alloc() : memref<1152921504606846976xf32>
  %c = memref.alloc() : memref<1152921504606846976xf32>
  %d = memref.alloc() : memref<1152921504606846976xf32>
  %v = memref.load %a[%c0] : memref<1152921504606846976xf32>
  %w = memref.load %b[%c0] : memref<1152921504606846976xf32>
  %x = memref.load %c[%c0] : memref<1152921504606846976xf32>
  %y = memref.load %d[%c0] : memref<1152921504606846976xf32>
  return
}

// -----

// 2^60 f32 = 2^62 bytes fits: planned.
// expected-remark @below {{1 buffer planned, 4611686018427387904 bytes without planning, arena 4611686018427387904 bytes}}
func.func @fits() {
  %c0 = arith.constant 0 : index
  %a = memref.alloc() : memref<1152921504606846976xf32>
  %v = memref.load %a[%c0] : memref<1152921504606846976xf32>
  return
}
