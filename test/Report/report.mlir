// RUN: memplan-opt %s --tensor-mem-plan="strategy=greedy-by-size-offsets report=%t.json" -o /dev/null
// RUN: FileCheck %s --input-file=%t.json
// The pass nested under func.func runs once per function; the file still
// holds every function.
// RUN: memplan-opt %s --pass-pipeline="builtin.module(func.func(tensor-mem-plan{strategy=naive report=%t.nested.json}))" -o /dev/null
// RUN: FileCheck %s --check-prefix=NESTED --input-file=%t.nested.json
// RUN: grep -c '"function":' %t.nested.json | FileCheck %s --check-prefix=TWO
// RUN: not memplan-opt %s --tensor-mem-plan="report=%t.missing/dir/r.json" -o /dev/null 2>&1 | FileCheck %s --check-prefix=BADPATH

// Tasks are the ops in program order: 0 alloc a, 1 alloc b, 2 subview of b,
// 3 copy a->b, 4 alloc c, 5 copy b->c, 6 copy c->out, 7 return. a lives
// [0,3], b [1,5], c [4,6]; a and c never meet, so greedy-by-size puts b
// (512 B) at 0, then a and c (256 B each) both at 512: arena 768 = the
// live-bytes bound.

// CHECK:      "functions": [
// CHECK:          "arenas": [
// CHECK:              "alignment": 64,
// CHECK-NEXT:         "arena_size": 768,
// CHECK-NEXT:         "buffers": [
// CHECK-NEXT:           {
// CHECK-NEXT:             "first_task": 0,
// CHECK-NEXT:             "id": 0,
// CHECK-NEXT:             "last_task": 3,
// CHECK-NEXT:             "location": "loc(\"{{.*}}report.mlir\":146:8)",
// CHECK-NEXT:             "offset": 512,
// CHECK-NEXT:             "op": "memref.alloc",
// CHECK-NEXT:             "size": 256,
// CHECK-NEXT:             "type": "memref<64xf32>",
// a is only read: its writer is its alloc; b is filled through its subview.
// CHECK-NEXT:             "writer": {
// CHECK-NEXT:               "location": "loc(\"{{.*}}report.mlir\":146:8)",
// CHECK-NEXT:               "op": "memref.alloc"
// CHECK:                  "first_task": 1,
// CHECK-NEXT:             "id": 1,
// CHECK-NEXT:             "last_task": 5,
// CHECK:                  "offset": 0,
// CHECK:                  "size": 512,
// CHECK:                    "location": "loc(\"{{.*}}report.mlir\":149:3)",
// CHECK-NEXT:               "op": "memref.copy"
// CHECK:                  "first_task": 4,
// CHECK-NEXT:             "id": 2,
// CHECK-NEXT:             "last_task": 6,
// CHECK:                  "offset": 512,
// CHECK:                  "size": 256,
// The schema memplan-solve shares: the live-bytes bound, the best bound
// proven (here the same) and the arena's gap to it (the offsets, a 512,
// b 0, c 512 as derived above, are the buffers' own).
// CHECK:              "bytes_without_planning": 1024,
// CHECK-NEXT:         "certified_lower_bound": 768,
// CHECK-NEXT:         "chosen": "greedy-by-size-offsets",
// CHECK-NEXT:         "gap": 0,
// CHECK-NEXT:         "kind": "offsets",
// CHECK-NEXT:         "lower_bound": 768,
// CHECK-NEXT:         "memory_space": "",
// CHECK-NEXT:         "optimal": true,
// The peak: at task 1 a (256 B) and b (512 B) are live, 768 B = the bound;
// task 1 is b's alloc (task_ops below names it).
// CHECK-NEXT:         "peak": {
// CHECK-NEXT:           "live": [
// CHECK-NEXT:             0,
// CHECK-NEXT:             1
// CHECK-NEXT:           ],
// CHECK-NEXT:           "task": 1
// CHECK-NEXT:         },
// CHECK-NEXT:         "strategy": "greedy-by-size-offsets",
// Every task number of the arena, once, with its op as the IR prints it: the
// buffers' first tasks 0, 1, 4 (the allocs, named as MLIR names them) and
// last tasks 3, 5, 6 (the copies); the peak's 1. Task 2, the subview, is
// named by nothing above, so it is not listed.
// CHECK-NEXT:     "task_ops": [
// CHECK-NEXT:       {
// CHECK-NEXT:         "location": "loc(\"{{.*}}report.mlir\":146:8)",
// CHECK-NEXT:         "op": "memref.alloc",
// CHECK-NEXT:         "result": "%alloc",
// CHECK-NEXT:         "task": 0
// CHECK-NEXT:       },
// CHECK-NEXT:       {
// CHECK-NEXT:         "location": "loc(\"{{.*}}report.mlir\":147:8)",
// CHECK-NEXT:         "op": "memref.alloc",
// CHECK-NEXT:         "result": "%alloc_0",
// CHECK-NEXT:         "task": 1
// CHECK-NEXT:       },
// CHECK-NEXT:       {
// CHECK-NEXT:         "location": "loc(\"{{.*}}report.mlir\":149:3)",
// CHECK-NEXT:         "op": "memref.copy",
// CHECK-NEXT:         "task": 3
// CHECK-NEXT:       },
// CHECK-NEXT:       {
// CHECK-NEXT:         "location": "loc(\"{{.*}}report.mlir\":150:8)",
// CHECK-NEXT:         "op": "memref.alloc",
// CHECK-NEXT:         "result": "%alloc_1",
// CHECK-NEXT:         "task": 4
// CHECK-NEXT:       },
// CHECK-NEXT:       {
// CHECK-NEXT:         "location": "loc(\"{{.*}}report.mlir\":151:3)",
// CHECK-NEXT:         "op": "memref.copy",
// CHECK-NEXT:         "task": 5
// CHECK-NEXT:       },
// CHECK-NEXT:       {
// CHECK-NEXT:         "location": "loc(\"{{.*}}report.mlir\":152:3)",
// CHECK-NEXT:         "op": "memref.copy",
// CHECK-NEXT:         "task": 6
// CHECK-NEXT:       }
// CHECK-NEXT:     ]
// What @chain holds, whole: its arena; it calls nothing and reads no
// hoisted global.
// CHECK:          "entry": true,
// CHECK-NEXT:     "footprint": {
// CHECK-NEXT:       "arenas": 768,
// CHECK-NEXT:       "callees": 0,
// CHECK-NEXT:       "first_call": 768,
// CHECK-NEXT:       "hoisted": 0,
// CHECK-NEXT:       "not_counted": [],
// CHECK-NEXT:       "steady": 768
// CHECK-NEXT:     },
// CHECK-NEXT:     "function": "chain",
// CHECK-NEXT:     "location": "loc(\"{{.*}}report.mlir\":145:1)",
// CHECK-NEXT:     "num_tasks": 8,
// CHECK-NEXT:     "unplanned": []

// The second function returns its buffer: no arena, one unplanned buffer
// with its reason.
// CHECK:          "arenas": [],
// CHECK-NEXT:     "entry": true,
// CHECK-NEXT:     "footprint": {
// CHECK-NEXT:       "arenas": 0,
// CHECK:            "steady": 0
// CHECK-NEXT:     },
// CHECK-NEXT:     "function": "returns",
// CHECK:          "unplanned": [
// CHECK-NEXT:       {
// CHECK-NEXT:         "location": "loc(\"{{.*}}report.mlir\":157:8)",
// CHECK-NEXT:         "op": "memref.alloc",
// CHECK-NEXT:         "reason": "returned"

// Threads may finish in either order; the file lists functions by name.
// NESTED: "strategy": "naive"
// NESTED: "function": "chain"
// NESTED: "function": "returns"

// TWO: 2
// BADPATH: error: cannot write '{{.*}}r.json'

func.func @chain(%out: memref<64xf32>) {
  %a = memref.alloc() : memref<64xf32>
  %b = memref.alloc() : memref<128xf32>
  %sv = memref.subview %b[64][64][1] : memref<128xf32> to memref<64xf32, strided<[1], offset: 64>>
  memref.copy %a, %sv : memref<64xf32> to memref<64xf32, strided<[1], offset: 64>>
  %c = memref.alloc() : memref<64xf32>
  memref.copy %sv, %c : memref<64xf32, strided<[1], offset: 64>> to memref<64xf32>
  memref.copy %c, %out : memref<64xf32> to memref<64xf32>
  return
}

func.func @returns() -> memref<4xf32> {
  %r = memref.alloc() : memref<4xf32>
  return %r : memref<4xf32>
}
