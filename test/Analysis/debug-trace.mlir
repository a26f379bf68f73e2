// The LLVM_DEBUG traces of the analysis and the strategies. They exist only
// where LLVM has -debug-only (built with assertions; Debian's is not).
// REQUIRES: debug-only
// RUN: memplan-opt %s --tensor-mem-plan="strategy=greedy-by-size-offsets" -debug-only=memplan-usage-records,memplan-plan -o /dev/null 2>&1 | FileCheck %s
// RUN: memplan-opt %s --tensor-mem-plan="strategy=auto" -debug-only=memplan-auto -o /dev/null 2>&1 | FileCheck %s --check-prefix=AUTO

// Tasks (as the JSON report numbers them): %a is filled at 1 and read at 5,
// %b is allocated at 4 and stored to at 6; nine tasks in all. Sizes are
// 64 and 32 bytes, aligned to f32 (4); the arena aligns to 64, so the two
// live together need 128, the bound.
// CHECK:      record #0: loc({{.*}}:[[@LINE+12]]:8): size 64, tasks [1, 5], align 4
// CHECK-NEXT: record #1: loc({{.*}}:[[@LINE+13]]:8): size 32, tasks [4, 6], align 4
// CHECK-NEXT: left alone: loc({{.*}}:[[@LINE+15]]:8): returned
// CHECK-NEXT: function trace: 9 tasks, 2 planned, 0 dynamic, 1 left alone
// CHECK:      strategy greedy-by-size-offsets: 2 records, alignment 64
// CHECK-NEXT: strategy greedy-by-size-offsets chose greedy-by-size-offsets: arena 128 bytes, bound 128 (optimal)

// The first fast candidate reaches the bound: auto stops there.
// AUTO:      candidate greedy-by-size-offsets: 128 bytes (bound 128)
// AUTO-NEXT: won: greedy-by-size-offsets, 128 bytes (optimal)
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
