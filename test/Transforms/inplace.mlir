// RUN: memplan-opt %s --tensor-mem-plan="inplace=true report=%t.json remarks=true" 2> %t.remarks | FileCheck %s
// RUN: FileCheck %s --check-prefix=REPORT --input-file=%t.json
// RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.remarks
// Without the option nothing shares bytes at an op (the chain needs 192).
// RUN: memplan-opt %s --tensor-mem-plan="remarks=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOPAIRS
// Every strategy honours the pairs (planMemory validates them).
// RUN: memplan-opt %s --tensor-mem-plan="inplace=true strategy=greedy-by-size" | FileCheck %s --check-prefix=OBJECTS
// RUN: memplan-opt %s --tensor-mem-plan="inplace=true strategy=naive" -o /dev/null
// RUN: memplan-opt %s --tensor-mem-plan="inplace=true strategy=exact" -o /dev/null
// preserve-intermediates keeps every buffer apart, pairs too.
// RUN: memplan-opt %s --tensor-mem-plan="inplace=true preserve-intermediates=true remarks=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=PRESERVE

#id = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#unit = affine_map<(d0, d1) -> (0, d1)>

// Tasks: 0 alloc d, 1-3 d = in + in (generic, addf, yield), 4 alloc a,
// 5-7 a = in * in, 8 alloc b, 9-11 b = a * a, 12 alloc c, 13-15 c = b + d,
// 16 copy c -> out, 17 return. Records: d [0, 15], a [4, 11], b [8, 15],
// c [12, 16]. a dies at task 9 where b starts (b's first use), b dies at 13
// where c starts; d dies at 13 too but c already takes b's bytes. The pairs
// cut a to [4, 9], b to [9, 13], c to [13, 16]: one chain [4, 16] of 64
// bytes next to d (64 bytes): arena 128. Without pairs, d, a and b are live
// at task 9 (and d, b, c at 13): 3 x 64 = 192.

// CHECK-LABEL: func.func @chain
// CHECK:         memref.alloc() {alignment = 64 : i64} : memref<128xi8>
// CHECK:         arith.constant [[D:[0-9]+]] : index
// CHECK:         arith.constant [[OFF:[0-9]+]] : index
// CHECK-NEXT:    %[[A:.*]] = memref.view
// CHECK:         arith.constant [[OFF]] : index
// CHECK-NEXT:    %[[B:.*]] = memref.view
// CHECK:         arith.constant [[OFF]] : index
// CHECK-NEXT:    %[[C:.*]] = memref.view
// CHECK:         linalg.generic {{.*}} ins(%[[B]], %{{.*}} : {{.*}}) outs(%[[C]] :
// OBJECTS-LABEL: func.func @chain
// OBJECTS:         memref.alloc() {alignment = 64 : i64} : memref<128xi8>

// REPORT:      "arena_size": 128,
// REPORT:      "first_task": 0,
// REPORT-NEXT: "id": 0,
// REPORT-NEXT: "last_task": 15,
// REPORT:      "first_task": 4,
// REPORT-NEXT: "id": 1,
// REPORT-NEXT: "last_task": 9,
// REPORT:      "offset": [[OFF:[0-9]+]],
// REPORT:      "first_task": 9,
// REPORT-NEXT: "id": 2,
// REPORT-NEXT: "inplace_of": 1,
// REPORT-NEXT: "last_task": 13,
// REPORT:      "offset": [[OFF]],
// REPORT:      "first_task": 13,
// REPORT-NEXT: "id": 3,
// REPORT-NEXT: "inplace_of": 2,
// REPORT-NEXT: "last_task": 16,
// REPORT:      "offset": [[OFF]],
// REPORT:      "lower_bound": 128,
// REPORT:      "function": "chain",

// REMARK: inplace.mlir:[[@LINE+3]]:1: remark: tensor-mem-plan: 4 buffers planned, 256 bytes without planning, arena 128 bytes, lower bound 128, {{.*}}, 2 in place
// NOPAIRS: inplace.mlir:[[@LINE+2]]:1: remark: tensor-mem-plan: 4 buffers planned, 256 bytes without planning, arena 192 bytes, lower bound 192, {{.*}} buffers live); footprint: {{[^,]*}}, callees 0, hoisted 0), first call {{[0-9]+}} bytes{{$}}
// PRESERVE: inplace.mlir:[[@LINE+1]]:1: remark: tensor-mem-plan: 4 buffers planned, 256 bytes without planning, arena 256 bytes, lower bound 256, {{.*}} buffers live); footprint: {{[^,]*}}, callees 0, hoisted 0), first call {{[0-9]+}} bytes{{$}}
func.func @chain(%in: memref<16xf32>, %out: memref<16xf32>) {
  %d = memref.alloc() : memref<16xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%in : memref<16xf32>) outs(%d : memref<16xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.addf %x, %x : f32
    linalg.yield %r : f32
  }
  %a = memref.alloc() : memref<16xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%in : memref<16xf32>) outs(%a : memref<16xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.mulf %x, %x : f32
    linalg.yield %r : f32
  }
  %b = memref.alloc() : memref<16xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%a : memref<16xf32>) outs(%b : memref<16xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.mulf %x, %x : f32
    linalg.yield %r : f32
  }
  %c = memref.alloc() : memref<16xf32>
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%b, %d : memref<16xf32>, memref<16xf32>) outs(%c : memref<16xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %r = arith.addf %x, %y : f32
    linalg.yield %r : f32
  }
  memref.copy %c, %out : memref<16xf32> to memref<16xf32>
  return
}

// torch-mlir's relu reads its 1xN input through (0, d1): on the loops
// (d0 runs once) that is the identity, so b takes a's bytes. A named
// elementwise op (linalg.exp) then takes b's, and an i32 -> f32 conversion
// (same element size) c's: one 64-byte chain.
// CHECK-LABEL: func.func @unit_dim_named_and_cast
// CHECK:         memref.alloc() {alignment = 64 : i64} : memref<64xi8>
// REMARK: inplace.mlir:[[@LINE+1]]:1: remark: tensor-mem-plan: 4 buffers planned, 256 bytes without planning, arena 64 bytes, lower bound 64, {{.*}}, 3 in place
func.func @unit_dim_named_and_cast(%in: memref<1x16xf32>, %out: memref<1x16xf32>) {
  %a = memref.alloc() : memref<1x16xf32>
  memref.copy %in, %a : memref<1x16xf32> to memref<1x16xf32>
  %b = memref.alloc() : memref<1x16xf32>
  linalg.generic {indexing_maps = [#unit, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%a : memref<1x16xf32>) outs(%b : memref<1x16xf32>) {
  ^bb0(%x: f32, %o: f32):
    %z = arith.constant 0.0 : f32
    %r = arith.maximumf %x, %z : f32
    linalg.yield %r : f32
  }
  %c = memref.alloc() : memref<1x16xf32>
  linalg.exp ins(%b : memref<1x16xf32>) outs(%c : memref<1x16xf32>)
  %i = memref.alloc() : memref<1x16xi32>
  linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%c : memref<1x16xf32>) outs(%i : memref<1x16xi32>) {
  ^bb0(%x: f32, %o: i32):
    %r = arith.fptosi %x : f32 to i32
    linalg.yield %r : i32
  }
  linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%i : memref<1x16xi32>) outs(%out : memref<1x16xf32>) {
  ^bb0(%x: i32, %o: f32):
    %r = arith.sitofp %x : i32 to f32
    linalg.yield %r : f32
  }
  return
}

// memref.copy a -> b where a dies: b takes a's bytes (the copy then copies
// them onto themselves). Two 64-byte buffers, one offset: arena 64.
// CHECK-LABEL: func.func @copy
// CHECK:         memref.alloc() {alignment = 64 : i64} : memref<64xi8>
// CHECK:         %[[VA:.*]] = memref.view %{{.*}}[%{{.*}}][] : memref<64xi8> to memref<16xf32>
// CHECK:         %[[VB:.*]] = memref.view %{{.*}}[%{{.*}}][] : memref<64xi8> to memref<16xf32>
// CHECK-NEXT:    memref.copy %[[VA]], %[[VB]]
// REMARK: inplace.mlir:[[@LINE+1]]:1: remark: tensor-mem-plan: 2 buffers planned, 128 bytes without planning, arena 64 bytes, lower bound 64, {{.*}}, 1 in place
func.func @copy(%in: memref<16xf32>, %out: memref<16xf32>) {
  %a = memref.alloc() : memref<16xf32>
  memref.copy %in, %a : memref<16xf32> to memref<16xf32>
  %b = memref.alloc() : memref<16xf32>
  memref.copy %a, %b : memref<16xf32> to memref<16xf32>
  memref.copy %b, %out : memref<16xf32> to memref<16xf32>
  return
}
