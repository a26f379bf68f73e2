// What tensor-mem-lower-runtime lowers and what it leaves alone (with a
// remark), on already-bufferized IR.
//
// RUN: memplan-opt %s --split-input-file --tensor-mem-lower-runtime="plan-at-run-time=false remarks=true" --verify-diagnostics=only-expected | FileCheck %s
// RUN: not memplan-opt %s --split-input-file --tensor-mem-lower-runtime="alignment=3" 2>&1 | FileCheck %s --check-prefix=BADALIGN

// BADALIGN: tensor-mem-lower-runtime: alignment 3 is not a positive power of two

// Byte sizes: the element stride (i1 -> 1, i17 -> 4, vector<3xf32> -> 16,
// complex<f64> -> 16) times the static dims, times each dynamic size; -1
// (which memplan_rt_alloc reports) when a product wraps past 64 bits.
// CHECK-LABEL: func.func @sizes
// CHECK-SAME: (%[[N:.*]]: index, %[[M:.*]]: index)
// CHECK: %[[C1:.*]] = arith.constant 1 : i64
// CHECK: %[[NI:.*]] = arith.index_cast %[[N]] : index to i64
// CHECK: %[[LO:.*]], %[[HI:.*]] = arith.mului_extended %[[C1]], %[[NI]] : i64
// CHECK: %[[HIGH:.*]] = arith.cmpi ne, %[[HI]], %{{.*}} : i64
// CHECK: %[[WRAP:.*]] = arith.ori %{{.*}}, %[[HIGH]] : i1
// CHECK: %[[M1:.*]] = arith.constant -1 : i64
// CHECK: %[[B1:.*]] = arith.select %[[WRAP]], %[[M1]], %[[LO]] : i64
// CHECK: %[[A1:.*]] = arith.constant 64 : i64
// CHECK: %[[BUF1:.*]] = call @memplan_rt_alloc(%[[B1]], %[[A1]])
// CHECK: memref.view %[[BUF1]][%{{.*}}][%[[N]]] : memref<?xi8> to memref<?xi1>
// None is used: each is freed right after it is made (at its last use).
// CHECK-NEXT: call @memplan_rt_free(%[[BUF1]]) : (memref<?xi8>) -> ()
// CHECK: arith.constant 12 : i64
// CHECK: memref.view {{.*}} : memref<?xi8> to memref<3x?xi17>
// CHECK: arith.constant 16 : i64
// CHECK: memref.view {{.*}} : memref<?xi8> to memref<?xvector<3xf32>>
// CHECK: %[[C2:.*]] = arith.constant 320 : i64
// CHECK: arith.mului_extended %[[C2]], %{{.*}} : i64
// CHECK: arith.mului_extended %{{.*}}, %{{.*}} : i64
// CHECK: %[[B5:.*]] = arith.select %{{.*}}, %{{.*}}, %{{.*}} : i64
// CHECK: %[[A5:.*]] = arith.constant 256 : i64
// CHECK: call @memplan_rt_alloc(%[[B5]], %[[A5]])
// CHECK: memref.view {{.*}} : memref<?xi8> to memref<?x20x?xcomplex<f64>>
// CHECK-NEXT: call @memplan_rt_free
// CHECK-NEXT: memref.alloc() : memref<4xf32>
// CHECK-NEXT: memref.dealloc %{{.*}} : memref<4xf32>
// CHECK-NEXT: return
func.func @sizes(%n: index, %m: index) {
  %a = memref.alloc(%n) : memref<?xi1>
  %b = memref.alloc(%n) : memref<3x?xi17>
  %c = memref.alloc(%n) : memref<?xvector<3xf32>>
  %d = memref.alloc(%n, %m) {alignment = 256} : memref<?x20x?xcomplex<f64>>
  %s = memref.alloc() : memref<4xf32>
  memref.dealloc %a : memref<?xi1>
  memref.dealloc %b : memref<3x?xi17>
  memref.dealloc %c : memref<?xvector<3xf32>>
  memref.dealloc %d : memref<?x20x?xcomplex<f64>>
  memref.dealloc %s : memref<4xf32>
  return
}
// The static alloc is not touched without all=true.
// CHECK-LABEL: func.func @static_left
// CHECK: memref.alloc() : memref<4xf32>
func.func @static_left() {
  %s = memref.alloc() : memref<4xf32>
  memref.dealloc %s : memref<4xf32>
  return
}

// -----

// Deallocs reached through views and casts become frees of the buffer.
// CHECK-LABEL: func.func @through_views
// CHECK: %[[BUF:.*]] = call @memplan_rt_alloc
// CHECK: scf.if
// CHECK-NEXT: call @memplan_rt_free(%[[BUF]])
func.func @through_views(%n: index, %c: i1) {
  %a = memref.alloc(%n) : memref<?x4xf32>
  %cast = memref.cast %a : memref<?x4xf32> to memref<?x?xf32>
  scf.if %c {
    memref.dealloc %cast : memref<?x?xf32>
  }
  return
}

// -----

func.func @left_alone(%n: index, %c: i1) -> memref<?xf32> {
  // expected-remark @below {{left alone: non-identity layout}}
  %a = memref.alloc(%n) : memref<?xf32, strided<[2]>>
  // expected-remark @below {{left alone: non-default memory space}}
  %b = memref.alloc(%n) : memref<?xf32, 1>
  // expected-remark @below {{left alone: element type has no known byte size}}
  %d = memref.alloc(%n) : memref<?xmemref<f32>>
  // expected-remark @below {{left alone: returned}}
  %r = memref.alloc(%n) : memref<?xf32>
  // Yielded by scf.if and never used again: lowered (the analysis follows
  // the yield), not freed, as the input never frees it.
  %y = memref.alloc(%n) : memref<?xf32>
  %s = scf.if %c -> memref<?xf32> {
    scf.yield %y : memref<?xf32>
  } else {
    scf.yield %y : memref<?xf32>
  }
  return %r : memref<?xf32>
}

// -----

// Every alias is followed (issue: a runtime pointer reached the caller's
// free()): returned through arith.select; freed by memref.realloc; stored
// into a memref of memrefs and freed after being loaded back; an alignment
// the runtime cannot serve.
func.func @escapes(%n: index, %c: i1, %box: memref<1xmemref<?xf32>>) -> memref<?xf32> {
  %c0 = arith.constant 0 : index
  // expected-remark @below {{left alone: returned}}
  %a = memref.alloc(%n) : memref<?xf32>
  // expected-remark @below {{left alone: returned}}
  %b = memref.alloc(%n) : memref<?xf32>
  %s = arith.select %c, %a, %b : memref<?xf32>
  // expected-remark @below {{left alone: freed by 'memref.realloc'}}
  %r = memref.alloc(%n) : memref<?xf32>
  %r2 = memref.realloc %r(%n) : memref<?xf32> to memref<?xf32>
  memref.dealloc %r2 : memref<?xf32>
  // expected-remark @below {{left alone: stored by 'memref.store'}}
  %st = memref.alloc(%n) : memref<?xf32>
  memref.store %st, %box[%c0] : memref<1xmemref<?xf32>>
  %back = memref.load %box[%c0] : memref<1xmemref<?xf32>>
  memref.dealloc %back : memref<?xf32>
  // expected-remark @below {{left alone: alignment 2097152 is above the runtime's largest (1048576)}}
  %big = memref.alloc(%n) {alignment = 2097152} : memref<?xf32>
  memref.dealloc %big : memref<?xf32>
  return %s : memref<?xf32>
}

// -----

// expected-error @below {{'memplan_rt_alloc' is declared with type}}
func.func private @memplan_rt_alloc(i64) -> memref<?xi8>
func.func @clash(%n: index) {
  %a = memref.alloc(%n) : memref<?xf32>
  return
}

// -----

// A function in a nested module: the runtime is declared in the nearest
// symbol table, where the call can see it.
// CHECK-LABEL: module @outer
// CHECK:         module @inner
// CHECK-DAG:       func.func private @memplan_rt_alloc(i64, i64) -> memref<?xi8> attributes {llvm.emit_c_interface}
// CHECK-DAG:       func.func private @memplan_rt_free(memref<?xi8>) attributes {llvm.emit_c_interface}
// CHECK:           func.func @nested
// CHECK:             call @memplan_rt_alloc
module @outer {
  module @inner {
    func.func @nested(%n: index) {
      %a = memref.alloc(%n) : memref<?xf32>
      memref.dealloc %a : memref<?xf32>
      return
    }
  }
}
