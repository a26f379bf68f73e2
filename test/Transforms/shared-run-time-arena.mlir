// tensor-mem-lower-runtime with memplan.shared_arena (issue 26): after
// tensor-mem-plan's check at each entry, the functions of the set take one
// block kept across calls (memplan_rt_shared_arena); the static shared
// arena (32 bytes at alignment=16) moves into its first bytes, and the
// dynamic buffers start at the next multiple of the run-time alignment (64,
// not 32). A single dynamic buffer takes the block too: it is kept across
// calls. @g, with no dynamic buffer, takes the block for its static bytes.
//
// RUN: memplan-opt %s --tensor-mem-plan=alignment=16 --tensor-mem-lower-runtime="alignment=64 report=%t.json" | FileCheck %s
// RUN: FileCheck %s --check-prefix=REPORT --input-file=%t.json
// Off: each function its own arena per call, the static global kept.
// RUN: memplan-opt %s --tensor-mem-plan=alignment=16 --tensor-mem-lower-runtime="alignment=64 shared-arena=false" | FileCheck %s --check-prefix=OFF

// CHECK: memref.global "private" @__memplan_shared_run_time_arena : memref<3xi64> = dense<0>
// CHECK-NOT: @__memplan_shared_arena :
// CHECK-LABEL: func.func @f(
// CHECK: %c64 = arith.constant 64 : index
// CHECK-NEXT: %[[AT:.*]] = arith.addi %{{.*}}, %c64 : index
// CHECK: } {memplan.exclusion_guard}
// CHECK: %[[ARENA:.*]] = call @memplan_rt_shared_arena(
// CHECK: %[[SLOT:.*]] = call @memplan_rt_slot(%[[ARENA]])
// CHECK: memref.view %[[ARENA]][%{{.*}}][] : memref<?xi8> to memref<32xi8>
// CHECK: memref.view %[[SLOT]][%[[AT]]][%arg0] : memref<?xi8> to memref<?xf32>
// CHECK-NOT: memplan_rt_free
// CHECK: return
// CHECK-LABEL: func.func @g(
// CHECK: } {memplan.exclusion_guard}
// CHECK: %[[B:.*]] = call @memplan_rt_shared_arena(%{{.*}}, %c32_i64,
// CHECK: memref.view %[[B]][%{{.*}}][] : memref<?xi8> to memref<32xi8>
// CHECK: return

// REPORT: "function": "f",
// REPORT: "runtime": {
// REPORT: "shared_arena": "__memplan_shared_run_time_arena"
// REPORT: "function": "g",
// REPORT: "runtime": {
// REPORT: "shared_arena": "__memplan_shared_run_time_arena"

// OFF: memref.global "private" @__memplan_shared_arena : memref<32xi8>
// OFF-NOT: memplan_rt_shared_arena
// OFF: call @memplan_rt_alloc

module attributes {memplan.shared_arena = [@f, @g]} {
  func.func @f(%n: index) -> f32 {
    %c0 = arith.constant 0 : index
    %cst = arith.constant 1.0 : f32
    %s = memref.alloc() : memref<5xf32>
    %d = memref.alloc(%n) : memref<?xf32>
    linalg.fill ins(%cst : f32) outs(%s : memref<5xf32>)
    linalg.fill ins(%cst : f32) outs(%d : memref<?xf32>)
    %a = memref.load %s[%c0] : memref<5xf32>
    %b = memref.load %d[%c0] : memref<?xf32>
    %r = arith.addf %a, %b : f32
    memref.dealloc %s : memref<5xf32>
    memref.dealloc %d : memref<?xf32>
    return %r : f32
  }
  func.func @g() -> f32 {
    %c0 = arith.constant 0 : index
    %cst = arith.constant 2.0 : f32
    %s = memref.alloc() : memref<3xf32>
    linalg.fill ins(%cst : f32) outs(%s : memref<3xf32>)
    %a = memref.load %s[%c0] : memref<3xf32>
    memref.dealloc %s : memref<3xf32>
    return %a : f32
  }
}
