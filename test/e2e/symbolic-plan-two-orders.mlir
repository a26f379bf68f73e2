// A symbolic plan with two stacking orders, chosen at entry by the smaller
// arena (issue 26: "where the best order changes with the value"). Six
// buffers of S rows or S x S, all sizes multiples of 64 bytes, over steps
// 3..10 (a step: allocs, then a check of every live buffer, then deallocs):
//
//   b0 832*S  [4,7]   b1 2048*S [4,6]   b2 256*S*S [3,4]
//   b3 64*S*S [7,7]   b4 64*S*S [7,10]  b5 448*S   [6,7]
//
// The two orders the pass keeps (offsets of each record on the records it
// sits on, by hand):
//   A: b1 at 0; b2 and b5 on b1; b3 on b5; b4 on b3; b0 on b2 and b4.
//   B: b1 and b3 at 0; b4 on b3; b0 on b1 and b4; b2 and b5 on b0.
// S = 2 (b0 1664, b1 4096, b2 1024, b3 256, b4 256, b5 896):
//   A: b2 4096..5120, b5 4096..4992, b3 ..5248, b4 ..5504, b0 5504..7168
//   B: b4 256..512, b0 4096..5760, b2 5760..6784, b5 ..6656: 6784 < 7168
// S = 32 (b0 26624, b1 65536, b2 262144, b3 = b4 65536, b5 14336):
//   A: b2 65536..327680, b5 ..79872, b3 ..145408, b4 ..210944,
//      b0 327680..354304
//   B: b4 65536..131072, b0 ..157696, b2 157696..419840: 354304 < 419840
// So the entry must take B at S = 2 and A at S = 32; either order alone
// misses one of the two sizes below. Each buffer is filled with its own
// value at its alloc and summed at every step it is live: any byte shared
// with a buffer live at the same time changes a sum, and @multi returns the
// number of wrong sums.
//
// RUN: memplan-opt %s --tensor-mem-lower-runtime="report=%t.json" | FileCheck %s --check-prefix=IR
// RUN: FileCheck %s --check-prefix=JSON < %t.json
// IR-LABEL: func.func @multi
// IR-NOT: memplan_rt_plan
// IR: %[[LESS:.*]] = arith.cmpi ult
// IR: arith.select %[[LESS]]
// IR: call @memplan_rt_alloc
// JSON: "plan": "symbolic"
// JSON: "symbolic_orders": 2
//
// RUN: memplan-opt %s --tensor-mem-lower-runtime %lower_vector_to_llvm > %t.ll.mlir
// RUN: env MEMPLAN_RT_STATS=1 mlir-runner %t.ll.mlir -e small -entry-point-result=void -shared-libs=%runner_libs,%memplan_lib/libmemplan_runtime%shlibext 2>&1 | FileCheck %s --check-prefixes=CHECK,SMALL
// RUN: env MEMPLAN_RT_STATS=1 mlir-runner %t.ll.mlir -e large -entry-point-result=void -shared-libs=%runner_libs,%memplan_lib/libmemplan_runtime%shlibext 2>&1 | FileCheck %s --check-prefixes=CHECK,LARGE
// Unplanned (one malloc per buffer) for comparison:
// RUN: memplan-opt %s %lower_vector_to_llvm | mlir-runner -e small -entry-point-result=void -shared-libs=%runner_libs | FileCheck %s
// RUN: memplan-opt %s %lower_vector_to_llvm | mlir-runner -e large -entry-point-result=void -shared-libs=%runner_libs | FileCheck %s
// CHECK: {{^}}0{{$}}
// SMALL: num allocs: 1
// SMALL: peak requested bytes in use: 6784{{$}}
// LARGE: num allocs: 1
// LARGE: peak requested bytes in use: 354304{{$}}

func.func @multi(%s: index) -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %fz = arith.constant 0.0 : f32
  %c208_0 = arith.constant 208 : index
  %c512_1 = arith.constant 512 : index
  %c64_2 = arith.constant 64 : index
  %c16_3 = arith.constant 16 : index
  %c16_4 = arith.constant 16 : index
  %c112_5 = arith.constant 112 : index
  %acc = memref.alloca() : memref<f32>
  %bad = memref.alloca() : memref<i32>
  memref.store %zero, %bad[] : memref<i32>
  %b2 = memref.alloc(%s, %s) : memref<?x?x64xf32>
  %ss2 = arith.muli %s, %s : index
  %n2 = arith.muli %ss2, %c64_2 : index
  %v2 = arith.constant 3.0 : f32
  linalg.fill ins(%v2 : f32) outs(%b2 : memref<?x?x64xf32>)
  %ni2 = arith.index_cast %n2 : index to i64
  %nf2 = arith.uitofp %ni2 : i64 to f32
  %want2 = arith.mulf %nf2, %v2 : f32
  %b0 = memref.alloc(%s) : memref<?x208xf32>
  %n0 = arith.muli %s, %c208_0 : index
  %v0 = arith.constant 1.0 : f32
  linalg.fill ins(%v0 : f32) outs(%b0 : memref<?x208xf32>)
  %ni0 = arith.index_cast %n0 : index to i64
  %nf0 = arith.uitofp %ni0 : i64 to f32
  %want0 = arith.mulf %nf0, %v0 : f32
  %b1 = memref.alloc(%s) : memref<?x512xf32>
  %n1 = arith.muli %s, %c512_1 : index
  %v1 = arith.constant 2.0 : f32
  linalg.fill ins(%v1 : f32) outs(%b1 : memref<?x512xf32>)
  %ni1 = arith.index_cast %n1 : index to i64
  %nf1 = arith.uitofp %ni1 : i64 to f32
  %want1 = arith.mulf %nf1, %v1 : f32
  memref.store %fz, %acc[] : memref<f32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> ()>], iterator_types = ["reduction", "reduction", "reduction"]} ins(%b2 : memref<?x?x64xf32>) outs(%acc : memref<f32>) {
  ^bb0(%x: f32, %a: f32):
    %y = arith.addf %x, %a : f32
    linalg.yield %y : f32
  }
  %sum2_4 = memref.load %acc[] : memref<f32>
  %m2_4 = arith.cmpf une, %sum2_4, %want2 : f32
  %mi2_4 = arith.extui %m2_4 : i1 to i32
  %bo2_4 = memref.load %bad[] : memref<i32>
  %bn2_4 = arith.addi %bo2_4, %mi2_4 : i32
  memref.store %bn2_4, %bad[] : memref<i32>
  memref.dealloc %b2 : memref<?x?x64xf32>
  memref.store %fz, %acc[] : memref<f32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>], iterator_types = ["reduction", "reduction"]} ins(%b0 : memref<?x208xf32>) outs(%acc : memref<f32>) {
  ^bb0(%x: f32, %a: f32):
    %y = arith.addf %x, %a : f32
    linalg.yield %y : f32
  }
  %sum0_5 = memref.load %acc[] : memref<f32>
  %m0_5 = arith.cmpf une, %sum0_5, %want0 : f32
  %mi0_5 = arith.extui %m0_5 : i1 to i32
  %bo0_5 = memref.load %bad[] : memref<i32>
  %bn0_5 = arith.addi %bo0_5, %mi0_5 : i32
  memref.store %bn0_5, %bad[] : memref<i32>
  memref.store %fz, %acc[] : memref<f32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>], iterator_types = ["reduction", "reduction"]} ins(%b1 : memref<?x512xf32>) outs(%acc : memref<f32>) {
  ^bb0(%x: f32, %a: f32):
    %y = arith.addf %x, %a : f32
    linalg.yield %y : f32
  }
  %sum1_5 = memref.load %acc[] : memref<f32>
  %m1_5 = arith.cmpf une, %sum1_5, %want1 : f32
  %mi1_5 = arith.extui %m1_5 : i1 to i32
  %bo1_5 = memref.load %bad[] : memref<i32>
  %bn1_5 = arith.addi %bo1_5, %mi1_5 : i32
  memref.store %bn1_5, %bad[] : memref<i32>
  %b5 = memref.alloc(%s) : memref<?x112xf32>
  %n5 = arith.muli %s, %c112_5 : index
  %v5 = arith.constant 6.0 : f32
  linalg.fill ins(%v5 : f32) outs(%b5 : memref<?x112xf32>)
  %ni5 = arith.index_cast %n5 : index to i64
  %nf5 = arith.uitofp %ni5 : i64 to f32
  %want5 = arith.mulf %nf5, %v5 : f32
  memref.store %fz, %acc[] : memref<f32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>], iterator_types = ["reduction", "reduction"]} ins(%b0 : memref<?x208xf32>) outs(%acc : memref<f32>) {
  ^bb0(%x: f32, %a: f32):
    %y = arith.addf %x, %a : f32
    linalg.yield %y : f32
  }
  %sum0_6 = memref.load %acc[] : memref<f32>
  %m0_6 = arith.cmpf une, %sum0_6, %want0 : f32
  %mi0_6 = arith.extui %m0_6 : i1 to i32
  %bo0_6 = memref.load %bad[] : memref<i32>
  %bn0_6 = arith.addi %bo0_6, %mi0_6 : i32
  memref.store %bn0_6, %bad[] : memref<i32>
  memref.store %fz, %acc[] : memref<f32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>], iterator_types = ["reduction", "reduction"]} ins(%b1 : memref<?x512xf32>) outs(%acc : memref<f32>) {
  ^bb0(%x: f32, %a: f32):
    %y = arith.addf %x, %a : f32
    linalg.yield %y : f32
  }
  %sum1_6 = memref.load %acc[] : memref<f32>
  %m1_6 = arith.cmpf une, %sum1_6, %want1 : f32
  %mi1_6 = arith.extui %m1_6 : i1 to i32
  %bo1_6 = memref.load %bad[] : memref<i32>
  %bn1_6 = arith.addi %bo1_6, %mi1_6 : i32
  memref.store %bn1_6, %bad[] : memref<i32>
  memref.dealloc %b1 : memref<?x512xf32>
  %b3 = memref.alloc(%s, %s) : memref<?x?x16xf32>
  %ss3 = arith.muli %s, %s : index
  %n3 = arith.muli %ss3, %c16_3 : index
  %v3 = arith.constant 4.0 : f32
  linalg.fill ins(%v3 : f32) outs(%b3 : memref<?x?x16xf32>)
  %ni3 = arith.index_cast %n3 : index to i64
  %nf3 = arith.uitofp %ni3 : i64 to f32
  %want3 = arith.mulf %nf3, %v3 : f32
  %b4 = memref.alloc(%s, %s) : memref<?x?x16xf32>
  %ss4 = arith.muli %s, %s : index
  %n4 = arith.muli %ss4, %c16_4 : index
  %v4 = arith.constant 5.0 : f32
  linalg.fill ins(%v4 : f32) outs(%b4 : memref<?x?x16xf32>)
  %ni4 = arith.index_cast %n4 : index to i64
  %nf4 = arith.uitofp %ni4 : i64 to f32
  %want4 = arith.mulf %nf4, %v4 : f32
  memref.store %fz, %acc[] : memref<f32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>], iterator_types = ["reduction", "reduction"]} ins(%b0 : memref<?x208xf32>) outs(%acc : memref<f32>) {
  ^bb0(%x: f32, %a: f32):
    %y = arith.addf %x, %a : f32
    linalg.yield %y : f32
  }
  %sum0_7 = memref.load %acc[] : memref<f32>
  %m0_7 = arith.cmpf une, %sum0_7, %want0 : f32
  %mi0_7 = arith.extui %m0_7 : i1 to i32
  %bo0_7 = memref.load %bad[] : memref<i32>
  %bn0_7 = arith.addi %bo0_7, %mi0_7 : i32
  memref.store %bn0_7, %bad[] : memref<i32>
  memref.store %fz, %acc[] : memref<f32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> ()>], iterator_types = ["reduction", "reduction", "reduction"]} ins(%b3 : memref<?x?x16xf32>) outs(%acc : memref<f32>) {
  ^bb0(%x: f32, %a: f32):
    %y = arith.addf %x, %a : f32
    linalg.yield %y : f32
  }
  %sum3_7 = memref.load %acc[] : memref<f32>
  %m3_7 = arith.cmpf une, %sum3_7, %want3 : f32
  %mi3_7 = arith.extui %m3_7 : i1 to i32
  %bo3_7 = memref.load %bad[] : memref<i32>
  %bn3_7 = arith.addi %bo3_7, %mi3_7 : i32
  memref.store %bn3_7, %bad[] : memref<i32>
  memref.store %fz, %acc[] : memref<f32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>], iterator_types = ["reduction", "reduction"]} ins(%b5 : memref<?x112xf32>) outs(%acc : memref<f32>) {
  ^bb0(%x: f32, %a: f32):
    %y = arith.addf %x, %a : f32
    linalg.yield %y : f32
  }
  %sum5_7 = memref.load %acc[] : memref<f32>
  %m5_7 = arith.cmpf une, %sum5_7, %want5 : f32
  %mi5_7 = arith.extui %m5_7 : i1 to i32
  %bo5_7 = memref.load %bad[] : memref<i32>
  %bn5_7 = arith.addi %bo5_7, %mi5_7 : i32
  memref.store %bn5_7, %bad[] : memref<i32>
  memref.dealloc %b0 : memref<?x208xf32>
  memref.dealloc %b3 : memref<?x?x16xf32>
  memref.dealloc %b5 : memref<?x112xf32>
  memref.store %fz, %acc[] : memref<f32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> ()>], iterator_types = ["reduction", "reduction", "reduction"]} ins(%b4 : memref<?x?x16xf32>) outs(%acc : memref<f32>) {
  ^bb0(%x: f32, %a: f32):
    %y = arith.addf %x, %a : f32
    linalg.yield %y : f32
  }
  %sum4_8 = memref.load %acc[] : memref<f32>
  %m4_8 = arith.cmpf une, %sum4_8, %want4 : f32
  %mi4_8 = arith.extui %m4_8 : i1 to i32
  %bo4_8 = memref.load %bad[] : memref<i32>
  %bn4_8 = arith.addi %bo4_8, %mi4_8 : i32
  memref.store %bn4_8, %bad[] : memref<i32>
  memref.store %fz, %acc[] : memref<f32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> ()>], iterator_types = ["reduction", "reduction", "reduction"]} ins(%b4 : memref<?x?x16xf32>) outs(%acc : memref<f32>) {
  ^bb0(%x: f32, %a: f32):
    %y = arith.addf %x, %a : f32
    linalg.yield %y : f32
  }
  %sum4_9 = memref.load %acc[] : memref<f32>
  %m4_9 = arith.cmpf une, %sum4_9, %want4 : f32
  %mi4_9 = arith.extui %m4_9 : i1 to i32
  %bo4_9 = memref.load %bad[] : memref<i32>
  %bn4_9 = arith.addi %bo4_9, %mi4_9 : i32
  memref.store %bn4_9, %bad[] : memref<i32>
  memref.store %fz, %acc[] : memref<f32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> ()>], iterator_types = ["reduction", "reduction", "reduction"]} ins(%b4 : memref<?x?x16xf32>) outs(%acc : memref<f32>) {
  ^bb0(%x: f32, %a: f32):
    %y = arith.addf %x, %a : f32
    linalg.yield %y : f32
  }
  %sum4_10 = memref.load %acc[] : memref<f32>
  %m4_10 = arith.cmpf une, %sum4_10, %want4 : f32
  %mi4_10 = arith.extui %m4_10 : i1 to i32
  %bo4_10 = memref.load %bad[] : memref<i32>
  %bn4_10 = arith.addi %bo4_10, %mi4_10 : i32
  memref.store %bn4_10, %bad[] : memref<i32>
  memref.dealloc %b4 : memref<?x?x16xf32>
  %r = memref.load %bad[] : memref<i32>
  return %r : i32
}

func.func @run(%s: index) {
  %r = call @multi(%s) : (index) -> i32
  vector.print %r : i32
  return
}

func.func @small() {
  %s = arith.constant 2 : index
  call @run(%s) : (index) -> ()
  return
}

func.func @large() {
  %s = arith.constant 32 : index
  call @run(%s) : (index) -> ()
  return
}
