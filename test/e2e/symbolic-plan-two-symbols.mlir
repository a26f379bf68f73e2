// A symbolic plan over two sizes, a length S and a batch B: orders are
// chosen at points where S and B differ, not only where they are equal.
// Four buffers over steps 0..4 (a step: allocs, then a check of every live
// buffer, then deallocs):
//
//   b0 640*S [0,1]   b1 384*S [1,3]   b2 128*S*S [2,2]   b3 640*B [2,4]
//
// b0 meets b1 only; b1, b2 and b3 meet at step 2. Two orders:
//   D: b0 and b3 at the bottom, b1 on both, b2 on b1:
//      arena max(b0, b3) + b1 + b2
//   K: b1 at the bottom, b0 and b2 on b1, b3 on b2:
//      arena b1 + max(b0, b2 + b3)
// Where B = S both are 1024*S + 128*S*S, so sampling only there (as the
// pass did) kept D, the first found. At S = 4, B = 1 (b0 2560, b1 1536,
// b2 2048, b3 640): D 2560 + 1536 + 2048 = 6144, K 1536 + max(2560, 2688) =
// 4224, the bytes live at step 2: the pass now samples B apart from S and
// keeps K. At S = B = 4 both give 6144. Each buffer is filled with its own
// value at its alloc and summed at every step it is live; @two returns the
// number of wrong sums.
//
// RUN: memplan-opt %s --tensor-mem-lower-runtime="report=%t.json" | FileCheck %s --check-prefix=IR
// RUN: FileCheck %s --check-prefix=JSON < %t.json
// IR-LABEL: func.func @two
// IR-NOT: memplan_rt_plan
// IR: call @memplan_rt_alloc
// JSON: "plan": "symbolic"
//
// RUN: memplan-opt %s --tensor-mem-lower-runtime %lower_vector_to_llvm > %t.ll.mlir
// RUN: env MEMPLAN_RT_STATS=1 mlir-runner %t.ll.mlir -e skewed -entry-point-result=void -shared-libs=%runner_libs,%memplan_lib/libmemplan_runtime%shlibext 2>&1 | FileCheck %s --check-prefixes=CHECK,SKEWED
// RUN: env MEMPLAN_RT_STATS=1 mlir-runner %t.ll.mlir -e diagonal -entry-point-result=void -shared-libs=%runner_libs,%memplan_lib/libmemplan_runtime%shlibext 2>&1 | FileCheck %s --check-prefixes=CHECK,DIAGONAL
// Unplanned (one malloc per buffer) for comparison:
// RUN: memplan-opt %s %lower_vector_to_llvm | mlir-runner -e skewed -entry-point-result=void -shared-libs=%runner_libs | FileCheck %s
// RUN: memplan-opt %s %lower_vector_to_llvm | mlir-runner -e diagonal -entry-point-result=void -shared-libs=%runner_libs | FileCheck %s
// CHECK: {{^}}0{{$}}
// SKEWED: num allocs: 1
// SKEWED: peak requested bytes in use: 4224{{$}}
// DIAGONAL: num allocs: 1
// DIAGONAL: peak requested bytes in use: 6144{{$}}

func.func @two(%s: index, %b: index) -> i32 {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0 : i32
  %fz = arith.constant 0.0 : f32
  %acc = memref.alloca() : memref<f32>
  %bad = memref.alloca() : memref<i32>
  memref.store %zero, %bad[] : memref<i32>
  %c160_0 = arith.constant 160 : index
  %c96_1 = arith.constant 96 : index
  %c32_2 = arith.constant 32 : index
  %c160_3 = arith.constant 160 : index
  %b0 = memref.alloc(%s) : memref<?x160xf32>
  %n0_0 = arith.muli %c160_0, %s : index
  %v0 = arith.constant 1.0 : f32
  linalg.fill ins(%v0 : f32) outs(%b0 : memref<?x160xf32>)
  %ni0 = arith.index_cast %n0_0 : index to i64
  %nf0 = arith.uitofp %ni0 : i64 to f32
  %want0 = arith.mulf %nf0, %v0 : f32
  %b1 = memref.alloc(%s) : memref<?x96xf32>
  %n1_0 = arith.muli %c96_1, %s : index
  %v1 = arith.constant 2.0 : f32
  linalg.fill ins(%v1 : f32) outs(%b1 : memref<?x96xf32>)
  %ni1 = arith.index_cast %n1_0 : index to i64
  %nf1 = arith.uitofp %ni1 : i64 to f32
  %want1 = arith.mulf %nf1, %v1 : f32
  memref.store %fz, %acc[] : memref<f32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>], iterator_types = ["reduction", "reduction"]} ins(%b0 : memref<?x160xf32>) outs(%acc : memref<f32>) {
  ^bb0(%x: f32, %a: f32):
    %y = arith.addf %x, %a : f32
    linalg.yield %y : f32
  }
  %sum0_1 = memref.load %acc[] : memref<f32>
  %m0_1 = arith.cmpf une, %sum0_1, %want0 : f32
  %mi0_1 = arith.extui %m0_1 : i1 to i32
  %bo0_1 = memref.load %bad[] : memref<i32>
  %bn0_1 = arith.addi %bo0_1, %mi0_1 : i32
  memref.store %bn0_1, %bad[] : memref<i32>
  memref.dealloc %b0 : memref<?x160xf32>
  %b2 = memref.alloc(%s, %s) : memref<?x?x32xf32>
  %n2_0 = arith.muli %c32_2, %s : index
  %n2_1 = arith.muli %n2_0, %s : index
  %v2 = arith.constant 3.0 : f32
  linalg.fill ins(%v2 : f32) outs(%b2 : memref<?x?x32xf32>)
  %ni2 = arith.index_cast %n2_1 : index to i64
  %nf2 = arith.uitofp %ni2 : i64 to f32
  %want2 = arith.mulf %nf2, %v2 : f32
  %b3 = memref.alloc(%b) : memref<?x160xf32>
  %n3_0 = arith.muli %c160_3, %b : index
  %v3 = arith.constant 4.0 : f32
  linalg.fill ins(%v3 : f32) outs(%b3 : memref<?x160xf32>)
  %ni3 = arith.index_cast %n3_0 : index to i64
  %nf3 = arith.uitofp %ni3 : i64 to f32
  %want3 = arith.mulf %nf3, %v3 : f32
  memref.store %fz, %acc[] : memref<f32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>], iterator_types = ["reduction", "reduction"]} ins(%b1 : memref<?x96xf32>) outs(%acc : memref<f32>) {
  ^bb0(%x: f32, %a: f32):
    %y = arith.addf %x, %a : f32
    linalg.yield %y : f32
  }
  %sum1_2 = memref.load %acc[] : memref<f32>
  %m1_2 = arith.cmpf une, %sum1_2, %want1 : f32
  %mi1_2 = arith.extui %m1_2 : i1 to i32
  %bo1_2 = memref.load %bad[] : memref<i32>
  %bn1_2 = arith.addi %bo1_2, %mi1_2 : i32
  memref.store %bn1_2, %bad[] : memref<i32>
  memref.store %fz, %acc[] : memref<f32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> ()>], iterator_types = ["reduction", "reduction", "reduction"]} ins(%b2 : memref<?x?x32xf32>) outs(%acc : memref<f32>) {
  ^bb0(%x: f32, %a: f32):
    %y = arith.addf %x, %a : f32
    linalg.yield %y : f32
  }
  %sum2_2 = memref.load %acc[] : memref<f32>
  %m2_2 = arith.cmpf une, %sum2_2, %want2 : f32
  %mi2_2 = arith.extui %m2_2 : i1 to i32
  %bo2_2 = memref.load %bad[] : memref<i32>
  %bn2_2 = arith.addi %bo2_2, %mi2_2 : i32
  memref.store %bn2_2, %bad[] : memref<i32>
  memref.dealloc %b2 : memref<?x?x32xf32>
  memref.store %fz, %acc[] : memref<f32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>], iterator_types = ["reduction", "reduction"]} ins(%b1 : memref<?x96xf32>) outs(%acc : memref<f32>) {
  ^bb0(%x: f32, %a: f32):
    %y = arith.addf %x, %a : f32
    linalg.yield %y : f32
  }
  %sum1_3 = memref.load %acc[] : memref<f32>
  %m1_3 = arith.cmpf une, %sum1_3, %want1 : f32
  %mi1_3 = arith.extui %m1_3 : i1 to i32
  %bo1_3 = memref.load %bad[] : memref<i32>
  %bn1_3 = arith.addi %bo1_3, %mi1_3 : i32
  memref.store %bn1_3, %bad[] : memref<i32>
  memref.store %fz, %acc[] : memref<f32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>], iterator_types = ["reduction", "reduction"]} ins(%b3 : memref<?x160xf32>) outs(%acc : memref<f32>) {
  ^bb0(%x: f32, %a: f32):
    %y = arith.addf %x, %a : f32
    linalg.yield %y : f32
  }
  %sum3_3 = memref.load %acc[] : memref<f32>
  %m3_3 = arith.cmpf une, %sum3_3, %want3 : f32
  %mi3_3 = arith.extui %m3_3 : i1 to i32
  %bo3_3 = memref.load %bad[] : memref<i32>
  %bn3_3 = arith.addi %bo3_3, %mi3_3 : i32
  memref.store %bn3_3, %bad[] : memref<i32>
  memref.dealloc %b1 : memref<?x96xf32>
  memref.store %fz, %acc[] : memref<f32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>], iterator_types = ["reduction", "reduction"]} ins(%b3 : memref<?x160xf32>) outs(%acc : memref<f32>) {
  ^bb0(%x: f32, %a: f32):
    %y = arith.addf %x, %a : f32
    linalg.yield %y : f32
  }
  %sum3_4 = memref.load %acc[] : memref<f32>
  %m3_4 = arith.cmpf une, %sum3_4, %want3 : f32
  %mi3_4 = arith.extui %m3_4 : i1 to i32
  %bo3_4 = memref.load %bad[] : memref<i32>
  %bn3_4 = arith.addi %bo3_4, %mi3_4 : i32
  memref.store %bn3_4, %bad[] : memref<i32>
  memref.dealloc %b3 : memref<?x160xf32>
  %r = memref.load %bad[] : memref<i32>
  return %r : i32
}

func.func @run(%s: index, %b: index) {
  %r = call @two(%s, %b) : (index, index) -> i32
  vector.print %r : i32
  return
}

func.func @skewed() {
  %s = arith.constant 4 : index
  %b = arith.constant 1 : index
  call @run(%s, %b) : (index, index) -> ()
  return
}

func.func @diagonal() {
  %s = arith.constant 4 : index
  call @run(%s, %s) : (index, index) -> ()
  return
}
