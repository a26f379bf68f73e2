// Elements whose store size is not their allocation size: LLVM pads i24 to
// 4 bytes (ABI alignment 4), so memref<64xi24> takes 256 bytes, not 192.
// The plan used to give each buffer 192 bytes (arena 384): %b overlapped the
// end of %a and both ran past the arena (heap corruption, "malloc(): ...").
// Planned and unplanned runs must print the same sums: 64 * 1 and 64 * 2.
// RUN: mlir-opt %s %lower_to_llvm | mlir-runner -e main -entry-point-result=void -shared-libs=%runner_libs | FileCheck %s
// RUN: memplan-opt %s --tensor-mem-plan %lower_to_llvm | mlir-runner -e main -entry-point-result=void -shared-libs=%runner_libs | FileCheck %s
// RUN: memplan-opt %s --tensor-mem-plan | FileCheck %s --check-prefix=PLAN
// CHECK: 64
// CHECK-NEXT: 128
// By hand: 64 * 4 = 256 bytes each, both live together: 512.
// PLAN: memref.alloc() {alignment = 64 : i64} : memref<512xi8>
// PLAN-DAG: memref.view %{{.*}}[%c0{{.*}}][] : memref<512xi8> to memref<64xi24>
// PLAN-DAG: memref.view %{{.*}}[%c256][] : memref<512xi8> to memref<64xi24>
func.func private @printI64(i64)
func.func private @printNewline()

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %one = arith.constant 1 : i24
  %two = arith.constant 2 : i24
  %a = memref.alloc() : memref<64xi24>
  %b = memref.alloc() : memref<64xi24>
  scf.for %i = %c0 to %c64 step %c1 {
    memref.store %one, %a[%i] : memref<64xi24>
  }
  scf.for %i = %c0 to %c64 step %c1 {
    memref.store %two, %b[%i] : memref<64xi24>
  }
  %s = scf.for %i = %c0 to %c64 step %c1 iter_args(%acc = %c0) -> index {
    %v = memref.load %a[%i] : memref<64xi24>
    %w = arith.index_cast %v : i24 to index
    %n = arith.addi %acc, %w : index
    scf.yield %n : index
  }
  %t = scf.for %i = %c0 to %c64 step %c1 iter_args(%acc = %c0) -> index {
    %v = memref.load %b[%i] : memref<64xi24>
    %w = arith.index_cast %v : i24 to index
    %n = arith.addi %acc, %w : index
    scf.yield %n : index
  }
  %s64 = arith.index_cast %s : index to i64
  %t64 = arith.index_cast %t : index to i64
  func.call @printI64(%s64) : (i64) -> ()
  func.call @printNewline() : () -> ()
  func.call @printI64(%t64) : (i64) -> ()
  func.call @printNewline() : () -> ()
  memref.dealloc %a : memref<64xi24>
  memref.dealloc %b : memref<64xi24>
  return
}
