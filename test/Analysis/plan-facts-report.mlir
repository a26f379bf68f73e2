// What the analysis and the strategies decide for one small function, read
// from the JSON report and the summary remark (what every build has; the
// LLVM_DEBUG traces of the same facts print only with -debug-only, which
// Debian's LLVM 22, built without assertions, does not have).
// RUN: memplan-opt %s --tensor-mem-plan="strategy=greedy-by-size-offsets remarks=true report=%t.json" -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: FileCheck %s --input-file=%t.json
// RUN: memplan-opt %s --tensor-mem-plan="strategy=auto report=%t.auto.json" -o /dev/null
// RUN: FileCheck %s --check-prefix=AUTO --input-file=%t.auto.json

// Tasks (as the report numbers them): %a is filled at 1 and read at 5, %b is
// allocated at 4 and stored to at 6; nine tasks in all. Sizes are 64 and 32
// bytes; the arena aligns to 64, so the two live together need 128, the bound.
// %r is returned: left alone.
// CHECK:      "alignment": 64,
// CHECK-NEXT: "arena_size": 128,
// CHECK:      "first_task": 1,
// CHECK-NEXT: "id": 0,
// CHECK-NEXT: "last_task": 5,
// CHECK-NEXT: "location": "loc(\"{{.*}}":[[@LINE+29]]:8)",
// CHECK:      "size": 64,
// CHECK:      "first_task": 4,
// CHECK-NEXT: "id": 1,
// CHECK-NEXT: "last_task": 6,
// CHECK-NEXT: "location": "loc(\"{{.*}}":[[@LINE+26]]:8)",
// CHECK:      "size": 32,
// CHECK:      "chosen": "greedy-by-size-offsets",
// CHECK:      "lower_bound": 128,
// CHECK:      "optimal": true,
// CHECK:      "strategy": "greedy-by-size-offsets"
// CHECK:      "num_tasks": 9,
// CHECK-NEXT: "unplanned": [
// CHECK-NEXT: {
// CHECK-NEXT: "location": "loc(\"{{.*}}":[[@LINE+20]]:8)",
// CHECK-NEXT: "op": "memref.alloc",
// CHECK-NEXT: "reason": "returned"

// REMARK: remark: buffer not planned: returned
// REMARK: remark: tensor-mem-plan: 2 buffers planned, 96 bytes without planning, arena 128 bytes, lower bound 128, strategy greedy-by-size-offsets (chose greedy-by-size-offsets

// The first fast candidate of auto reaches the bound: auto takes it.
// AUTO:      "arena_size": 128,
// AUTO:      "chosen": "greedy-by-size-offsets",
// AUTO:      "lower_bound": 128,
// AUTO:      "optimal": true,
// AUTO:      "strategy": "auto"
func.func @trace(%x: f32) -> memref<4xf32> {
  %c0 = arith.constant 0 : index
  %a = memref.alloc() : memref<16xf32>
  linalg.fill ins(%x : f32) outs(%a : memref<16xf32>)
  %b = memref.alloc() : memref<8xf32>
  %v = memref.load %a[%c0] : memref<16xf32>
  memref.store %v, %b[%c0] : memref<8xf32>
  %r = memref.alloc() : memref<4xf32>
  return %r : memref<4xf32>
}
