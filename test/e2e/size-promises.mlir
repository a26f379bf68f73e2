// A size the user bounds (memplan.max on an index argument, dim-bounds on a
// dynamic dimension of an argument) is planned at the bound and checked at
// run time: a kept promise runs as unplanned, a broken one stops the
// program with a message naming the promise, the size and the bound,
// instead of writing past the planned bytes.
//
// RUN: memplan-opt %s --tensor-mem-plan=dim-bounds=16 %lower_to_llvm \
// RUN:   | mlir-runner -e kept -entry-point-result=void -shared-libs=%runner_libs,%memplan_lib/libmemplan_runtime%shlibext \
// RUN:   | FileCheck %s --check-prefix=KEPT
// RUN: memplan-opt %s %lower_to_llvm \
// RUN:   | mlir-runner -e kept -entry-point-result=void -shared-libs=%runner_libs \
// RUN:   | FileCheck %s --check-prefix=KEPT
// RUN: memplan-opt %s --tensor-mem-plan=dim-bounds=16 %lower_to_llvm > %t.ll.mlir
// RUN: env MEMPLAN_RT_ON_OOM=exit not mlir-runner %t.ll.mlir -e broken_max -entry-point-result=void -shared-libs=%runner_libs,%memplan_lib/libmemplan_runtime%shlibext 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BROKEN-MAX
// RUN: env MEMPLAN_RT_ON_OOM=exit not mlir-runner %t.ll.mlir -e broken_dim -entry-point-result=void -shared-libs=%runner_libs,%memplan_lib/libmemplan_runtime%shlibext 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BROKEN-DIM
// RUN: memplan-opt %s --tensor-mem-plan=dim-bounds=16 | FileCheck %s --check-prefix=IR
// RUN: memplan-opt %s --tensor-mem-plan="dim-bounds=16 check-promises=false" | FileCheck %s --check-prefix=NOCHECK
// RUN: memplan-opt %s --pass-pipeline="builtin.module(func.func(tensor-mem-plan{dim-bounds=16}))" | FileCheck %s --check-prefix=NESTED

// KEPT: 28
// KEPT-NEXT: 8
// KEPT-NEXT: 20

// BROKEN-MAX: memplan_rt: fatal: broken size promise: memplan.max = 16 on argument 0 of @sum_max (dim 0 of the buffer at loc("{{.*}}size-promises.mlir":{{[0-9]+}}:{{[0-9]+}})), but the size is 20 (> 16)
// BROKEN-MAX-NOT: {{^}}190

// BROKEN-DIM: memplan_rt: fatal: broken size promise: dim-bounds=16 on dim 0 of argument 0 of @sum_dim {{.*}}, but the size is 20 (> 16)

// The promised sizes are planned at 16 floats: two buffers live together,
// 64 bytes each. Each is checked before its view.
// IR-LABEL: func.func @sum_max
// IR: %[[A:.*]] = memref.alloc() {alignment = 64 : i64} : memref<128xi8>
// IR: %[[B:.*]] = arith.cmpi ugt, %arg0, %c16
// IR-NEXT: scf.if %[[B]] {
// IR: call @memplan_rt_broken_promise
// IR: memref.view %[[A]]
// IR-LABEL: func.func @sum_dim
// IR: memref<128xi8>
// IR: call @memplan_rt_broken_promise
// IR-LABEL: func.func @static_dim
// 20 floats of a static dimension, not the 16 of dim-bounds: 80 bytes,
// aligned to 128.
// IR: memref.alloc() {alignment = 64 : i64} : memref<128xi8>
// IR-NOT: memplan_rt_broken_promise
// IR-LABEL: func.func @kept

// NOCHECK-NOT: memplan_rt_broken_promise
// NOCHECK-NOT: scf.if

// Nested under func.func the pass may not declare the runtime function:
// the check is a cf.assert.
// NESTED-LABEL: func.func @sum_max
// NESTED: cf.assert %{{.*}}, "memplan: broken size promise: memplan.max = 16 on argument 0 of @sum_max

func.func private @printI64(i64)
func.func private @printNewline()

/// Sums 0..n-1 through two temporaries of n floats.
func.func @sum_max(%n: index {memplan.max = 16 : i64}) -> i64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %a = memref.alloc(%n) : memref<?xf32>
  %b = memref.alloc(%n) : memref<?xf32>
  scf.for %i = %c0 to %n step %c1 {
    %ii = arith.index_cast %i : index to i64
    %f = arith.sitofp %ii : i64 to f32
    memref.store %f, %a[%i] : memref<?xf32>
  }
  scf.for %i = %c0 to %n step %c1 {
    %v = memref.load %a[%i] : memref<?xf32>
    memref.store %v, %b[%i] : memref<?xf32>
  }
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> f32 {
    %v = memref.load %b[%i] : memref<?xf32>
    %r = arith.addf %acc, %v : f32
    scf.yield %r : f32
  }
  memref.dealloc %a : memref<?xf32>
  memref.dealloc %b : memref<?xf32>
  %r = arith.fptosi %s : f32 to i64
  return %r : i64
}

/// The same with n the dynamic dimension of an argument.
func.func @sum_dim(%t: memref<?xf32>) -> i64 {
  %c0 = arith.constant 0 : index
  %n = memref.dim %t, %c0 : memref<?xf32>
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %a = memref.alloc(%n) : memref<?xf32>
  %b = memref.alloc(%n) : memref<?xf32>
  scf.for %i = %c0 to %n step %c1 {
    %v = memref.load %t[%i] : memref<?xf32>
    memref.store %v, %a[%i] : memref<?xf32>
  }
  scf.for %i = %c0 to %n step %c1 {
    %v = memref.load %a[%i] : memref<?xf32>
    memref.store %v, %b[%i] : memref<?xf32>
  }
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> f32 {
    %v = memref.load %b[%i] : memref<?xf32>
    %w = arith.addf %acc, %v : f32
    scf.yield %w : f32
  }
  memref.dealloc %a : memref<?xf32>
  memref.dealloc %b : memref<?xf32>
  %q = arith.fptosi %s : f32 to i64
  return %q : i64
}

/// dim 0 of the argument is static: 20, whatever dim-bounds says.
func.func @static_dim(%t: memref<20xf32>) -> i64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %t, %c0 : memref<20xf32>
  %zero = arith.constant 0.0 : f32
  %a = memref.alloc(%n) : memref<?xf32>
  scf.for %i = %c0 to %n step %c1 {
    %v = memref.load %t[%i] : memref<20xf32>
    memref.store %v, %a[%i] : memref<?xf32>
  }
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> f32 {
    %v = memref.load %a[%i] : memref<?xf32>
    %w = arith.addf %acc, %v : f32
    scf.yield %w : f32
  }
  memref.dealloc %a : memref<?xf32>
  %q = arith.fptosi %s : f32 to i64
  return %q : i64
}

func.func @ones(%n: index) -> memref<?xf32> {
  %one = arith.constant 1.0 : f32
  %t = memref.alloc(%n) : memref<?xf32>
  linalg.fill ins(%one : f32) outs(%t : memref<?xf32>)
  return %t : memref<?xf32>
}

func.func @kept() {
  %c8 = arith.constant 8 : index
  %c20 = arith.constant 20 : index
  // 0+...+7 = 28
  %r = func.call @sum_max(%c8) : (index) -> i64
  func.call @printI64(%r) : (i64) -> ()
  func.call @printNewline() : () -> ()
  // 8 ones, then 20 ones of the static argument.
  %t = func.call @ones(%c8) : (index) -> memref<?xf32>
  %d = func.call @sum_dim(%t) : (memref<?xf32>) -> i64
  %s20 = func.call @ones(%c20) : (index) -> memref<?xf32>
  %s = memref.cast %s20 : memref<?xf32> to memref<20xf32>
  %e = func.call @static_dim(%s) : (memref<20xf32>) -> i64
  func.call @printI64(%d) : (i64) -> ()
  func.call @printNewline() : () -> ()
  func.call @printI64(%e) : (i64) -> ()
  func.call @printNewline() : () -> ()
  memref.dealloc %t : memref<?xf32>
  memref.dealloc %s20 : memref<?xf32>
  return
}

func.func @broken_max() {
  %c20 = arith.constant 20 : index
  %r = func.call @sum_max(%c20) : (index) -> i64
  func.call @printI64(%r) : (i64) -> ()
  func.call @printNewline() : () -> ()
  return
}

func.func @broken_dim() {
  %c20 = arith.constant 20 : index
  %t = func.call @ones(%c20) : (index) -> memref<?xf32>
  %d = func.call @sum_dim(%t) : (memref<?xf32>) -> i64
  func.call @printI64(%d) : (i64) -> ()
  func.call @printNewline() : () -> ()
  memref.dealloc %t : memref<?xf32>
  return
}
