// A bound MLIR can prove but that no program will use (minui %n, 2^40
// floats: 4 TiB) is above max-static-bytes: the buffer stays dynamic, with
// a remark, and the runtime serves the 40 bytes it gets. Planned at the
// bound, the arena's malloc failed and the program crashed.
//
// RUN: memplan-opt %s --tensor-mem-plan 2>&1 | FileCheck %s --check-prefix=IR
// RUN: memplan-opt %s --tensor-mem-plan=max-static-bytes=64 2>&1 | FileCheck %s --check-prefix=SMALL
// RUN: not memplan-opt %s --tensor-mem-plan=max-static-bytes=-1 2>&1 | FileCheck %s --check-prefix=NEG
// RUN: memplan-opt %s --tensor-mem-plan --tensor-mem-lower-runtime %lower_to_llvm \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%runner_libs,%memplan_lib/libmemplan_runtime%shlibext \
// RUN:   | FileCheck %s

// IR: remark: buffer not planned: dynamic shape (its bound, 4398046511104 bytes, is above max-static-bytes=268435456)
// IR-LABEL: func.func @sum
// IR-NOT: memref<4398046511104xi8>
// IR: memref.alloc(%{{.*}}) : memref<?xf32>
// The small one (at most 16 floats) is planned.
// IR: memref<64xi8>

// With a cap of 64 bytes the 16 floats fit and nothing else does.
// SMALL: remark: buffer not planned: dynamic shape (its bound, 4398046511104 bytes, is above max-static-bytes=64)
// SMALL: memref<64xi8>

// NEG: max-static-bytes -1 is negative

// CHECK: 45

func.func private @printI64(i64)
func.func private @printNewline()

func.func @sum(%n: index) -> i64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %huge = arith.constant 1099511627776 : index
  %c16 = arith.constant 16 : index
  %zero = arith.constant 0.0 : f32
  %m = arith.minui %n, %huge : index
  %a = memref.alloc(%m) : memref<?xf32>
  %k = arith.minui %n, %c16 : index
  %b = memref.alloc(%k) : memref<?xf32>
  scf.for %i = %c0 to %m step %c1 {
    %ii = arith.index_cast %i : index to i64
    %f = arith.sitofp %ii : i64 to f32
    memref.store %f, %a[%i] : memref<?xf32>
  }
  scf.for %i = %c0 to %k step %c1 {
    %v = memref.load %a[%i] : memref<?xf32>
    memref.store %v, %b[%i] : memref<?xf32>
  }
  %s = scf.for %i = %c0 to %k step %c1 iter_args(%acc = %zero) -> f32 {
    %v = memref.load %b[%i] : memref<?xf32>
    %r = arith.addf %acc, %v : f32
    scf.yield %r : f32
  }
  memref.dealloc %a : memref<?xf32>
  memref.dealloc %b : memref<?xf32>
  %r = arith.fptosi %s : f32 to i64
  return %r : i64
}

func.func @main() {
  // 0 + 1 + ... + 9
  %c10 = arith.constant 10 : index
  %r = func.call @sum(%c10) : (index) -> i64
  func.call @printI64(%r) : (i64) -> ()
  func.call @printNewline() : () -> ()
  return
}
