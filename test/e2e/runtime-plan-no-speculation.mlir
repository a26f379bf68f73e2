// Run-time planning sizes an alloc at the function's entry only when the
// alloc runs on every call (it sits in the entry block). Each alloc below
// that does not (an untaken scf.if branch, a zero-trip scf.for, the body of
// an scf.while that stops at once, an scf.index_switch case not chosen, a
// block after an early exit) asks for n*n floats: 2^46 bytes for the n of
// @main. Sized at the entry, the planned program would abort asking for
// them; the unplanned one never does.
//
// RUN: memplan-opt %s %lower_to_llvm \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%runner_libs \
// RUN:   | FileCheck %s
// RUN: memplan-opt %s --tensor-mem-lower-runtime %lower_to_llvm \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%runner_libs,%memplan_lib/libmemplan_runtime%shlibext \
// RUN:   | FileCheck %s
// RUN: memplan-opt %s --tensor-mem-lower-runtime="symbolic=false" %lower_to_llvm \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%runner_libs,%memplan_lib/libmemplan_runtime%shlibext \
// RUN:   | FileCheck %s
// RUN: memplan-opt %s --tensor-mem-lower-runtime="symbolic=false" | FileCheck %s --check-prefix=IR
// RUN: memplan-opt %s --tensor-mem-lower-runtime | FileCheck %s --check-prefix=SYM

// The two entry allocs of each function are planned together at run time
// (a table of 2 + 3*2 entries); every other alloc is served on its own,
// where it runs.
// IR-LABEL: func.func @shapes
// IR: memref.alloca() : memref<8xi64>
// IR: call @memplan_rt_plan
// IR: scf.if
// IR: call @memplan_rt_alloc
// IR: scf.for
// IR: call @memplan_rt_alloc
// IR: scf.while
// IR: call @memplan_rt_alloc
// IR: scf.index_switch
// IR: call @memplan_rt_alloc
// IR-LABEL: func.func @early_exit
// IR: memref.alloca() : memref<8xi64>
// IR: call @memplan_rt_plan
// IR: cf.cond_br
// IR: ^bb2:
// IR: call @memplan_rt_alloc
// With their offsets computed at the entry (the default), the same allocs
// are left where they run.
// SYM-LABEL: func.func @shapes
// SYM-NOT: memplan_rt_plan
// SYM: arith.mului_extended
// SYM: scf.if
// SYM: call @memplan_rt_alloc
// SYM: scf.for
// SYM: call @memplan_rt_alloc
// SYM: scf.while
// SYM: call @memplan_rt_alloc
// SYM: scf.index_switch
// SYM: call @memplan_rt_alloc
// SYM-LABEL: func.func @early_exit
// SYM-NOT: memplan_rt_plan
// SYM: cf.cond_br
// SYM: ^bb2:
// SYM: call @memplan_rt_alloc

// CHECK: 42
// CHECK-NEXT: 43
// CHECK-NEXT: 44
// CHECK-NEXT: 44

func.func private @printI64(i64)
func.func private @printNewline()

func.func @shapes(%n: index, %flag: i1, %which: index) -> i64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %f1 = arith.constant 1.0 : f32
  %a = memref.alloc(%n) : memref<?xf32>
  %b = memref.alloc(%n) : memref<?xf32>
  %last = arith.subi %n, %c1 : index
  %v40 = arith.constant 40.0 : f32
  memref.store %v40, %a[%last] : memref<?xf32>
  %x = memref.load %a[%last] : memref<?xf32>
  %x1 = arith.addf %x, %f1 : f32
  memref.store %x1, %b[%last] : memref<?xf32>
  %nn = arith.muli %n, %n : index
  // Not taken.
  %y = scf.if %flag -> f32 {
    %big = memref.alloc(%nn) : memref<?xf32>
    memref.store %x1, %big[%c0] : memref<?xf32>
    %r = memref.load %big[%c0] : memref<?xf32>
    memref.dealloc %big : memref<?xf32>
    scf.yield %r : f32
  } else {
    scf.yield %x1 : f32
  }
  // Zero trips.
  %z = scf.for %i = %c0 to %c0 step %c1 iter_args(%acc = %y) -> f32 {
    %big = memref.alloc(%nn) : memref<?xf32>
    memref.store %acc, %big[%c0] : memref<?xf32>
    %r = memref.load %big[%c0] : memref<?xf32>
    memref.dealloc %big : memref<?xf32>
    scf.yield %r : f32
  }
  // The condition fails at once: the body never runs.
  %w = scf.while (%acc = %z) : (f32) -> f32 {
    scf.condition(%flag) %acc : f32
  } do {
  ^bb0(%acc: f32):
    %big = memref.alloc(%nn) : memref<?xf32>
    memref.store %acc, %big[%c0] : memref<?xf32>
    %r = memref.load %big[%c0] : memref<?xf32>
    memref.dealloc %big : memref<?xf32>
    scf.yield %r : f32
  }
  // Case 5 is never chosen.
  %s = scf.index_switch %which -> f32
  case 5 {
    %big = memref.alloc(%nn) : memref<?xf32>
    memref.store %w, %big[%c0] : memref<?xf32>
    %r = memref.load %big[%c0] : memref<?xf32>
    memref.dealloc %big : memref<?xf32>
    scf.yield %r : f32
  }
  default {
    scf.yield %w : f32
  }
  %bl = memref.load %b[%last] : memref<?xf32>
  %sum = arith.addf %s, %bl : f32
  %half = arith.constant 0.5 : f32
  %avg = arith.mulf %sum, %half : f32
  %out = arith.fptosi %avg : f32 to i64
  memref.dealloc %a : memref<?xf32>
  memref.dealloc %b : memref<?xf32>
  return %out : i64
}

func.func @early_exit(%n: index, %flag: i1) -> i64 {
  %c1 = arith.constant 1 : index
  %a = memref.alloc(%n) : memref<?xf32>
  %b = memref.alloc(%n) : memref<?xf32>
  %last = arith.subi %n, %c1 : index
  %v = arith.constant 43.0 : f32
  memref.store %v, %a[%last] : memref<?xf32>
  %x = memref.load %a[%last] : memref<?xf32>
  memref.store %x, %b[%last] : memref<?xf32>
  %y = memref.load %b[%last] : memref<?xf32>
  %r = arith.fptosi %y : f32 to i64
  memref.dealloc %a : memref<?xf32>
  memref.dealloc %b : memref<?xf32>
  %nn = arith.muli %n, %n : index
  cf.cond_br %flag, ^bb2, ^bb1
^bb1:
  return %r : i64
^bb2:
  %big = memref.alloc(%nn) : memref<?xf32>
  %c0 = arith.constant 0 : index
  memref.store %v, %big[%c0] : memref<?xf32>
  %f = memref.load %big[%c0] : memref<?xf32>
  memref.dealloc %big : memref<?xf32>
  %g = arith.fptosi %f : f32 to i64
  return %g : i64
}

func.func @main() {
  // 2^22 floats is 16 MiB; n*n floats would be 2^46 bytes.
  %n = arith.constant 4194304 : index
  %false = arith.constant false
  %c0 = arith.constant 0 : index
  %c42 = arith.constant 42 : i64
  func.call @printI64(%c42) : (i64) -> ()
  func.call @printNewline() : () -> ()
  %e = func.call @early_exit(%n, %false) : (index, i1) -> i64
  func.call @printI64(%e) : (i64) -> ()
  func.call @printNewline() : () -> ()
  // (41 + 41) / 2 + ... : the scf shapes all pass 41 through, so 41.
  %s = func.call @shapes(%n, %false, %c0) : (index, i1, index) -> i64
  %s3 = arith.addi %s, %c42 : i64
  %s4 = arith.subi %s3, %c42 : i64
  %c3 = arith.constant 3 : i64
  %p = arith.addi %s4, %c3 : i64
  func.call @printI64(%p) : (i64) -> ()
  func.call @printNewline() : () -> ()
  %e2 = func.call @early_exit(%n, %false) : (index, i1) -> i64
  %e3 = arith.addi %e2, %c3 : i64
  %c2 = arith.constant 2 : i64
  %e4 = arith.subi %e3, %c2 : i64
  func.call @printI64(%e4) : (i64) -> ()
  func.call @printNewline() : () -> ()
  return
}
