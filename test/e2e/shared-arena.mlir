// One arena for functions that never run at once (issue 26): the module
// names them in memplan.shared_arena. Their arenas are one uninitialized
// global, sized for the largest (prefill: two live 256-byte temporaries =
// 512 bytes; decode: one of 64), allocated with the program rather than on
// every call. The promise is checked at run time: a busy flag, taken at
// entry and given back at every return.
//
// RUN: memplan-opt %s %lower_to_llvm | mlir-runner -e main -entry-point-result=void -shared-libs=%runner_libs > %t.ref
// RUN: memplan-opt %s --memplan-pipeline="bufferize=false report=%t.json" %lower_to_llvm | mlir-runner -e main -entry-point-result=void -shared-libs=%runner_libs,%memplan_lib/libmemplan_runtime.so > %t.planned
// RUN: diff %t.ref %t.planned
// RUN: memplan-opt %s --tensor-mem-plan | FileCheck %s --check-prefix=IR
// RUN: FileCheck %s --check-prefix=REPORT --input-file=%t.json
//
// IR-DAG: memref.global "private" @__memplan_shared_arena : memref<512xi8> = uninitialized {alignment = 64 : i64, memplan.shared_arena_global}
// IR-DAG: memref.global "private" @__memplan_shared_arena_busy : memref<i32> = dense<0>
// IR-LABEL: func.func @prefill
// IR: memref.atomic_rmw assign
// IR: memref.get_global @__memplan_shared_arena : memref<512xi8>
// IR-NOT: memref.alloc
// IR: memref.atomic_rmw assign
// IR-NEXT: return
// IR-LABEL: func.func @decode
// IR: memref.get_global @__memplan_shared_arena : memref<512xi8>
// IR-NOT: memref.alloc
// IR-LABEL: func.func @main
//
// Each function's own plan, and the arena it lives in.
// REPORT: "arena_size": 64,
// REPORT: "shared": {
// REPORT-NEXT: "bytes": 512,
// REPORT-NEXT: "global": "__memplan_shared_arena",
// REPORT-NEXT: "sized_by": "prefill"
// REPORT: "function": "decode",
// REPORT: "arena_size": 512,
// REPORT: "sized_by": "prefill"
// REPORT: "function": "prefill",
//
// Broken at run time: the program stops and says who ran at once.
// RUN: memplan-opt %S/Inputs/shared-arena-nested-call.mlir --memplan-pipeline="bufferize=false" %lower_to_llvm > %t.nested.mlir
// RUN: env MEMPLAN_RT_ON_OOM=exit not mlir-runner %t.nested.mlir -e main -entry-point-result=void -shared-libs=%runner_libs,%memplan_lib/libmemplan_runtime.so 2>&1 | FileCheck %s --check-prefix=BROKEN
// BROKEN: memplan_rt: fatal: broken promise: @decode was called while another function of memplan.shared_arena [@prefill, @decode] was running; they share one arena
//
// Seen when planning: an error at the caller.
// RUN: not memplan-opt %S/Inputs/shared-arena-direct-call.mlir --tensor-mem-plan -o /dev/null 2>&1 | FileCheck %s --check-prefix=DIRECT
// DIRECT: shared-arena-direct-call.mlir:{{[0-9]+}}:3: error: tensor-mem-plan: @prefill calls @decode, so the two run at once and cannot share an arena (memplan.shared_arena)
// A function of the set that calls itself runs twice at once: an error
// too (it planned, and the run-time check stopped the program).
// RUN: sed 's/func.call @decode(%u)/func.call @prefill(%u)/' %S/Inputs/shared-arena-direct-call.mlir | not memplan-opt --tensor-mem-plan -o /dev/null 2>&1 | FileCheck %s --check-prefix=SELF
// SELF: error: tensor-mem-plan: @prefill calls itself, so two of its calls run at once and cannot share an arena (memplan.shared_arena)
//
// Names that are not functions with a body, and the pass nested below the
// module, are errors too.
// RUN: sed 's/@prefill, @decode]/@prefill, @printI64]/' %s | not memplan-opt --tensor-mem-plan -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOTFN
// NOTFN: error: tensor-mem-plan: memplan.shared_arena names @printI64, which is not a function with a body of this module
// The same function twice, and none at all: said, not taken silently.
// RUN: sed 's/@prefill, @decode]/@prefill, @prefill]/' %s | not memplan-opt --tensor-mem-plan -o /dev/null 2>&1 | FileCheck %s --check-prefix=TWICE
// TWICE: error: tensor-mem-plan: memplan.shared_arena names @prefill twice
// RUN: sed 's/\[@prefill, @decode\]/[]/' %s | not memplan-opt --tensor-mem-plan -o /dev/null 2>&1 | FileCheck %s --check-prefix=NONE
// NONE: error: tensor-mem-plan: memplan.shared_arena names no function
// RUN: not memplan-opt %s --pass-pipeline="builtin.module(func.func(tensor-mem-plan))" -o /dev/null 2>&1 | FileCheck %s --check-prefix=NESTED
// NESTED: error: tensor-mem-plan: memplan.shared_arena needs the pass to run on the module, not nested in it

module attributes {memplan.shared_arena = [@prefill, @decode]} {
  func.func private @printI64(i64)
  func.func private @printNewline()
  // Two temporaries of 64 floats each, live together: 512 bytes.
  func.func @prefill(%x: f32) -> f32 {
    %c0 = arith.constant 0 : index
    %c5 = arith.constant 5 : index
    %a = memref.alloc() : memref<64xf32>
    %b = memref.alloc() : memref<64xf32>
    linalg.fill ins(%x : f32) outs(%a : memref<64xf32>)
    linalg.fill ins(%x : f32) outs(%b : memref<64xf32>)
    %u = memref.load %a[%c5] : memref<64xf32>
    %v = memref.load %b[%c0] : memref<64xf32>
    %s = arith.addf %u, %v : f32
    memref.dealloc %a : memref<64xf32>
    memref.dealloc %b : memref<64xf32>
    return %s : f32
  }
  // One temporary of 16 floats: 64 bytes.
  func.func @decode(%x: f32) -> f32 {
    %c3 = arith.constant 3 : index
    %a = memref.alloc() : memref<16xf32>
    linalg.fill ins(%x : f32) outs(%a : memref<16xf32>)
    %u = memref.load %a[%c3] : memref<16xf32>
    %s = arith.mulf %u, %u : f32
    memref.dealloc %a : memref<16xf32>
    return %s : f32
  }
  func.func @main() {
    %c = arith.constant 3.0 : f32
    %p = func.call @prefill(%c) : (f32) -> f32
    %d0 = func.call @decode(%p) : (f32) -> f32
    %d1 = func.call @decode(%d0) : (f32) -> f32
    %p2 = func.call @prefill(%d1) : (f32) -> f32
    %i = arith.fptosi %p2 : f32 to i64
    func.call @printI64(%i) : (i64) -> ()
    func.call @printNewline() : () -> ()
    return
  }
}
