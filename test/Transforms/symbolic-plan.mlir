// tensor-mem-lower-runtime plans the dynamic buffers of a function whose
// sizes are polynomials of its arguments at compile time: the entry computes
// their offsets with adds and maxes (symbolic=true, the default), and no
// memplan_rt_plan is called. Other sizes still go to memplan_rt_plan.
//
// RUN: rm -f %t.json
// RUN: memplan-opt %s --tensor-mem-lower-runtime="remarks=true report=%t.json" 2> %t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK < %t.err
// RUN: FileCheck %s --check-prefix=JSON < %t.json
// RUN: memplan-opt %s --tensor-mem-lower-runtime="symbolic=false" | FileCheck %s --check-prefix=OFF

// Three buffers of n rows in a chain (a and c never meet), 32n, 64n and
// 16n bytes. Stacking b at the bottom, a and c on it, gives 96n rounded to
// 64: the smallest arena at every n (the other order, a and c under b,
// costs 128 at n = 1), so one order is kept. Offsets are maxes of ends,
// rounded up to 64; an overflow asks the runtime for -1 bytes.
// CHECK-LABEL: func.func @chain
// CHECK-SAME: (%[[N:.*]]: index)
// CHECK-NOT: memplan_rt_plan
// CHECK: arith.mului_extended
// CHECK: arith.addui_extended
// CHECK: %[[TOTAL:.*]] = arith.select %{{.*}}, %{{.*}}, %{{.*}} : i64
// CHECK: %[[ARENA:.*]] = call @memplan_rt_alloc(%[[TOTAL]], %{{.*}})
// Each slot takes its base through memplan_rt_slot (separate-slots).
// CHECK: %[[S0:.*]] = call @memplan_rt_slot(%[[ARENA]])
// CHECK: %[[S1:.*]] = call @memplan_rt_slot(%[[ARENA]])
// CHECK: %[[S2:.*]] = call @memplan_rt_slot(%[[ARENA]])
// CHECK: memref.view %[[S0]]
// CHECK: memref.view %[[S1]]
// CHECK: memref.view %[[S2]]
// CHECK: call @memplan_rt_free(%[[ARENA]])
// CHECK-NEXT: return
// REMARK: remark: tensor-mem-lower-runtime: @chain: 3 dynamic buffers planned together in one run-time arena (symbolic plan, 1 order), 0 served one by one
// OFF-LABEL: func.func @chain
// OFF: call @memplan_rt_plan
// JSON: "function": "chain"
// JSON: "plan": "symbolic"
// JSON: "symbolic_orders": 1
func.func @chain(%n: index) {
  %c0 = arith.constant 0 : index
  %f = arith.constant 1.0 : f32
  %a = memref.alloc(%n) : memref<?x8xf32>
  memref.store %f, %a[%c0, %c0] : memref<?x8xf32>
  %b = memref.alloc(%n) : memref<?x16xf32>
  %v = memref.load %a[%c0, %c0] : memref<?x8xf32>
  memref.store %v, %b[%c0, %c0] : memref<?x16xf32>
  memref.dealloc %a : memref<?x8xf32>
  %c = memref.alloc(%n) : memref<?x4xf32>
  %w = memref.load %b[%c0, %c0] : memref<?x16xf32>
  memref.store %w, %c[%c0, %c0] : memref<?x4xf32>
  memref.dealloc %b : memref<?x16xf32>
  memref.dealloc %c : memref<?x4xf32>
  return
}

// Sizes computed from an argument by affine.apply and arith (pos + 1, as a
// decoder's attention over the cache) are polynomials too.
// CHECK-LABEL: func.func @through_arith
// CHECK-NOT: memplan_rt_plan
// CHECK: call @memplan_rt_alloc
// REMARK: remark: tensor-mem-lower-runtime: @through_arith: 2 dynamic buffers planned together in one run-time arena (symbolic plan
// JSON: "function": "through_arith"
// JSON: "plan": "symbolic"
func.func @through_arith(%pos: index) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %f = arith.constant 1.0 : f32
  %len = affine.apply affine_map<(d0) -> (d0 + 1)>(%pos)
  %twice = arith.muli %len, %c2 : index
  %a = memref.alloc(%len) : memref<?x32xf32>
  %b = memref.alloc(%twice) : memref<?xf32>
  memref.store %f, %a[%c0, %c0] : memref<?x32xf32>
  memref.store %f, %b[%c0] : memref<?xf32>
  memref.dealloc %a : memref<?x32xf32>
  memref.dealloc %b : memref<?xf32>
  return
}

// A size chosen by a comparison is not a polynomial: the run-time planner
// places these buffers.
// CHECK-LABEL: func.func @not_polynomial
// CHECK: call @memplan_rt_plan
// REMARK: remark: tensor-mem-lower-runtime: @not_polynomial: 2 dynamic buffers planned together in one run-time arena (memplan_rt_plan)
// JSON: "function": "not_polynomial"
// JSON: "plan": "run-time"
func.func @not_polynomial(%n: index, %m: index) {
  %c0 = arith.constant 0 : index
  %f = arith.constant 1.0 : f32
  %big = arith.cmpi ugt, %n, %m : index
  %k = arith.select %big, %n, %m : index
  %a = memref.alloc(%k) : memref<?xf32>
  %b = memref.alloc(%n) : memref<?xf32>
  memref.store %f, %a[%c0] : memref<?xf32>
  memref.store %f, %b[%c0] : memref<?xf32>
  memref.dealloc %a : memref<?xf32>
  memref.dealloc %b : memref<?xf32>
  return
}

// In place (inplace=true, as memplan-pipeline sets it): an elementwise
// result takes its dying operand's bytes when their shapes are provably
// equal, the same SSA size %n: %a and %b share one offset, and one slot
// base. %c's size is %m, not provably %n's, so it gets bytes of its own.
// RUN: memplan-opt %s --tensor-mem-lower-runtime="inplace=true remarks=true" 2> %t.inplace.err | FileCheck %s --check-prefix=INPLACE
// RUN: FileCheck %s --check-prefix=INPLACE-REMARK < %t.inplace.err
// INPLACE-LABEL: func.func @elementwise_chain
// INPLACE: %[[ARENA:.*]] = call @memplan_rt_alloc
// INPLACE: %[[SLOT:.*]] = call @memplan_rt_slot(%[[ARENA]])
// INPLACE: %[[SLOT2:.*]] = call @memplan_rt_slot(%[[ARENA]])
// INPLACE-NOT: memplan_rt_slot
// INPLACE: memref.view %[[SLOT]][%[[SHARED:.*]]][%arg0]
// INPLACE: memref.view %[[SLOT]][%[[SHARED]]][%arg0]
// INPLACE: memref.view %[[SLOT2]][%[[OTHER:.*]]][%arg1]
// INPLACE-REMARK: @elementwise_chain: 3 dynamic buffers planned together in one run-time arena (symbolic plan, 1 order, 1 in place)
// Without it, three offsets:
// REMARK: @elementwise_chain: 3 dynamic buffers planned together in one run-time arena (symbolic plan, 1 order), 0 served
#id = affine_map<(d0) -> (d0)>
func.func @elementwise_chain(%n: index, %m: index) {
  %c0 = arith.constant 0 : index
  %f = arith.constant 1.0 : f32
  %a = memref.alloc(%n) : memref<?xf32>
  linalg.fill ins(%f : f32) outs(%a : memref<?xf32>)
  %b = memref.alloc(%n) : memref<?xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%a : memref<?xf32>) outs(%b : memref<?xf32>) {
  ^bb0(%x: f32, %y: f32):
    %s = arith.addf %x, %x : f32
    linalg.yield %s : f32
  }
  memref.dealloc %a : memref<?xf32>
  %c = memref.alloc(%m) : memref<?xf32>
  %v = memref.load %b[%c0] : memref<?xf32>
  memref.store %v, %c[%c0] : memref<?xf32>
  memref.dealloc %b : memref<?xf32>
  memref.dealloc %c : memref<?xf32>
  return
}
