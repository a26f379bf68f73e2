// A dynamic buffer whose byte count wraps past 2^64 (n = 2^62 floats is
// 2^64 bytes, 0 once wrapped) is not planned into a smaller arena: both
// run-time plans, offsets computed at the entry (symbolic) and the table
// memplan_rt_plan reads, ask the allocator for -1 bytes, which reports and
// stops. The table once took the wrapped 0, planned an empty arena and
// handed the program views of 2^62 floats over it. So does an alloc served
// on its own (@one: it runs only when %flag is set, so it is not planned at
// the entry), which asked for 0 bytes. A size that fits runs.
//
// RUN: memplan-opt %s --tensor-mem-lower-runtime="symbolic=false" %lower_to_llvm > %t.table.ll.mlir
// RUN: memplan-opt %s --tensor-mem-lower-runtime %lower_to_llvm > %t.sym.ll.mlir
// RUN: mlir-runner %t.table.ll.mlir -e fits -entry-point-result=void -shared-libs=%runner_libs,%memplan_lib/libmemplan_runtime%shlibext | FileCheck %s --check-prefix=FITS
// RUN: mlir-runner %t.sym.ll.mlir -e fits -entry-point-result=void -shared-libs=%runner_libs,%memplan_lib/libmemplan_runtime%shlibext | FileCheck %s --check-prefix=FITS
// RUN: env MEMPLAN_RT_ON_OOM=exit not mlir-runner %t.table.ll.mlir -e wraps_one -entry-point-result=void -shared-libs=%runner_libs,%memplan_lib/libmemplan_runtime%shlibext 2>&1 | FileCheck %s --check-prefix=WRAPS
// RUN: env MEMPLAN_RT_ON_OOM=exit not mlir-runner %t.table.ll.mlir -e wraps -entry-point-result=void -shared-libs=%runner_libs,%memplan_lib/libmemplan_runtime%shlibext 2>&1 | FileCheck %s --check-prefix=WRAPS
// RUN: env MEMPLAN_RT_ON_OOM=exit not mlir-runner %t.sym.ll.mlir -e wraps -entry-point-result=void -shared-libs=%runner_libs,%memplan_lib/libmemplan_runtime%shlibext 2>&1 | FileCheck %s --check-prefix=WRAPS
// RUN: memplan-opt %s --tensor-mem-lower-runtime="symbolic=false" | FileCheck %s --check-prefix=IR

// IR-LABEL: func.func @two
// IR: arith.mului_extended
// IR: arith.select
// IR: call @memplan_rt_plan
// IR-LABEL: func.func @one
// IR: scf.if
// IR: arith.mului_extended
// IR: arith.select
// IR: call @memplan_rt_alloc

// FITS: 41
// FITS-NEXT: 41
// WRAPS: memplan_rt: fatal: allocation of -1 bytes (align {{[0-9]+}}) failed: the byte count passed 2^63 - 1
// WRAPS-NOT: 41

func.func private @printI64(i64)
func.func private @printNewline()

func.func @two(%n: index) -> i64 {
  %c0 = arith.constant 0 : index
  %a = memref.alloc(%n) : memref<?xf32>
  %b = memref.alloc(%n) : memref<?xf32>
  %v = arith.constant 40.0 : f32
  %one = arith.constant 1.0 : f32
  memref.store %v, %a[%c0] : memref<?xf32>
  %x = memref.load %a[%c0] : memref<?xf32>
  %y = arith.addf %x, %one : f32
  memref.store %y, %b[%c0] : memref<?xf32>
  %z = memref.load %b[%c0] : memref<?xf32>
  memref.dealloc %a : memref<?xf32>
  memref.dealloc %b : memref<?xf32>
  %r = arith.fptosi %z : f32 to i64
  return %r : i64
}

func.func @one(%n: index, %flag: i1) -> i64 {
  %r = scf.if %flag -> i64 {
    %c0 = arith.constant 0 : index
    %a = memref.alloc(%n) : memref<?xf32>
    %v = arith.constant 41.0 : f32
    memref.store %v, %a[%c0] : memref<?xf32>
    %x = memref.load %a[%c0] : memref<?xf32>
    memref.dealloc %a : memref<?xf32>
    %i = arith.fptosi %x : f32 to i64
    scf.yield %i : i64
  } else {
    %z = arith.constant 0 : i64
    scf.yield %z : i64
  }
  return %r : i64
}

func.func @fits() {
  %n = arith.constant 1000 : index
  %t = arith.constant true
  %r = call @two(%n) : (index) -> i64
  call @printI64(%r) : (i64) -> ()
  call @printNewline() : () -> ()
  %r1 = call @one(%n, %t) : (index, i1) -> i64
  call @printI64(%r1) : (i64) -> ()
  call @printNewline() : () -> ()
  return
}

func.func @wraps() {
  %n = arith.constant 4611686018427387904 : index
  %r = call @two(%n) : (index) -> i64
  call @printI64(%r) : (i64) -> ()
  call @printNewline() : () -> ()
  return
}

func.func @wraps_one() {
  %n = arith.constant 4611686018427387904 : index
  %t = arith.constant true
  %r = call @one(%n, %t) : (index, i1) -> i64
  call @printI64(%r) : (i64) -> ()
  call @printNewline() : () -> ()
  return
}
