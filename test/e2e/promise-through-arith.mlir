// A promise reaches the sizes computed from it: `memplan.max = 15` on %pos
// bounds `pos + 1` by 16 and `affine.apply 2 * pos + 3` by 33 (ValueBounds
// writes each size as a map of %pos, evaluated at its bound), so both
// buffers are planned into a static arena, each checked at run time. Kept
// promises print what the unplanned program prints; a broken one stops
// with the promise and the size it bounds.
//
// RUN: memplan-opt %s %lower_to_llvm | mlir-runner -e kept -entry-point-result=void -shared-libs=%runner_libs > %t.ref
// RUN: memplan-opt %s --tensor-mem-plan %lower_to_llvm | mlir-runner -e kept -entry-point-result=void -shared-libs=%runner_libs,%memplan_lib/libmemplan_runtime%shlibext > %t.out
// RUN: diff %t.ref %t.out
// RUN: FileCheck %s --check-prefix=KEPT < %t.out
// RUN: memplan-opt %s --tensor-mem-plan %lower_to_llvm > %t.ll.mlir
// RUN: env MEMPLAN_RT_ON_OOM=exit not mlir-runner %t.ll.mlir -e broken -entry-point-result=void -shared-libs=%runner_libs,%memplan_lib/libmemplan_runtime%shlibext 2>&1 | FileCheck %s --check-prefix=BROKEN
// RUN: memplan-opt %s --tensor-mem-plan | FileCheck %s --check-prefix=IR

// sum(0..3) + sum(0..8) = 6 + 36; sum(0..15) + sum(0..32) = 120 + 528.
// KEPT: 42
// KEPT-NEXT: 648

// BROKEN: memplan_rt: fatal: broken size promise: memplan.max = 15 on argument 0 of @window, which bounds this size by 16 (dim 0 of the buffer at {{.*}}), but the size is 21 (> 16)

// 16 + 33 floats live together: 64 + 132 bytes, each at a 64-byte offset.
// IR-LABEL: func.func @window
// IR: memref.alloc() {alignment = 64 : i64} : memref<256xi8>
// IR: arith.cmpi ugt, %{{.*}}, %c16
// IR: arith.cmpi ugt, %{{.*}}, %c33
// IR-NOT: memref.alloc(

func.func private @printI64(i64)
func.func private @printNewline()

/// Sums 0..pos through a buffer of pos + 1 floats, plus 0..2pos+2 through
/// one of 2 pos + 3.
func.func @window(%pos: index {memplan.max = 15 : i64}) -> i64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.addi %pos, %c1 : index
  %m = affine.apply affine_map<(d0) -> (d0 * 2 + 3)>(%pos)
  %a = memref.alloc(%n) : memref<?xf32>
  %b = memref.alloc(%m) : memref<?xf32>
  scf.for %i = %c0 to %n step %c1 {
    %ii = arith.index_cast %i : index to i64
    %f = arith.sitofp %ii : i64 to f32
    memref.store %f, %a[%i] : memref<?xf32>
  }
  scf.for %i = %c0 to %m step %c1 {
    %ii = arith.index_cast %i : index to i64
    %f = arith.sitofp %ii : i64 to f32
    memref.store %f, %b[%i] : memref<?xf32>
  }
  %zero = arith.constant 0.0 : f32
  %sa = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> f32 {
    %v = memref.load %a[%i] : memref<?xf32>
    %s = arith.addf %acc, %v : f32
    scf.yield %s : f32
  }
  %sb = scf.for %i = %c0 to %m step %c1 iter_args(%acc = %sa) -> f32 {
    %v = memref.load %b[%i] : memref<?xf32>
    %s = arith.addf %acc, %v : f32
    scf.yield %s : f32
  }
  memref.dealloc %a : memref<?xf32>
  memref.dealloc %b : memref<?xf32>
  %r = arith.fptosi %sb : f32 to i64
  return %r : i64
}

func.func @kept() {
  %c3 = arith.constant 3 : index
  %c15 = arith.constant 15 : index
  %r0 = call @window(%c3) : (index) -> i64
  call @printI64(%r0) : (i64) -> ()
  call @printNewline() : () -> ()
  %r1 = call @window(%c15) : (index) -> i64
  call @printI64(%r1) : (i64) -> ()
  call @printNewline() : () -> ()
  return
}

func.func @broken() {
  %c20 = arith.constant 20 : index
  %r = call @window(%c20) : (index) -> i64
  call @printI64(%r) : (i64) -> ()
  call @printNewline() : () -> ()
  return
}
