// across-calls: the callee's arena becomes an argument each call site
// allocates. A callee that freed its own buffers had its arena freed at its
// end; so must the call site's arena be, even when the caller frees nothing
// of its own. A call site in a parallel loop is left unplanned (its alloc
// stays), and leaked 1 MiB per iteration before (found by probing; valgrind:
// 64 blocks definitely lost). A caller and callee that free nothing stay so.
// RUN: memplan-opt %s --tensor-mem-plan="across-calls=true" | FileCheck %s

// CHECK-LABEL: func.func private @work(
// CHECK-SAME: memref<1048576xi8> {memplan.arena_alignment
// CHECK-NOT: memref.dealloc
// CHECK: return
func.func private @work(%id: f32) -> f32 {
  %c0 = arith.constant 0 : index
  %t = memref.alloc() : memref<262144xf32>
  memref.store %id, %t[%c0] : memref<262144xf32>
  %v = memref.load %t[%c0] : memref<262144xf32>
  memref.dealloc %t : memref<262144xf32>
  return %v : f32
}

// CHECK-LABEL: func.func @parallel_caller(
// CHECK: scf.parallel
// CHECK: %[[ARENA:.*]] = memref.alloc() {alignment = 64 : i64} : memref<1048576xi8>
// CHECK-NEXT: func.call @work(%{{.*}}, %[[ARENA]])
// CHECK-NEXT: memref.dealloc %[[ARENA]] : memref<1048576xi8>
func.func @parallel_caller(%out: memref<64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  scf.parallel (%i) = (%c0) to (%c64) step (%c1) {
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    %r = func.call @work(%f) : (f32) -> f32
    memref.store %r, %out[%i] : memref<64xf32>
    scf.reduce
  }
  return
}

// CHECK-LABEL: func.func private @keeps(
// CHECK-LABEL: func.func @no_frees(
// CHECK: scf.parallel
// CHECK: memref.alloc() {alignment = 64 : i64} : memref<64xi8>
// CHECK-NEXT: func.call @keeps
// CHECK-NOT: memref.dealloc
// CHECK: return
func.func private @keeps(%out: memref<16xf32>) {
  %t = memref.alloc() : memref<16xf32>
  memref.copy %t, %out : memref<16xf32> to memref<16xf32>
  return
}
func.func @no_frees(%out: memref<16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.parallel (%i) = (%c0) to (%c4) step (%c1) {
    func.call @keeps(%out) : (memref<16xf32>) -> ()
    scf.reduce
  }
  return
}
