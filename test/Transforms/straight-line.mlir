// RUN: memplan-opt %s --tensor-mem-plan | FileCheck %s
// RUN: memplan-opt %s --tensor-mem-plan=strategy=greedy-by-size-offsets | FileCheck %s

// %a (256 B) and %c (256 B) are never live together; %b (512 B) overlaps
// both. Largest first: %b at 0; %a and %c find no gap below 512 among the
// records they conflict with (only %b), so both go to 512. Arena = 768 =
// 512 + 256, the live-bytes bound.

// CHECK-LABEL: func.func @chain
// CHECK-NEXT:    %[[ARENA:.*]] = memref.alloc() {alignment = 64 : i64} : memref<768xi8>
// CHECK:         %[[OA:.*]] = arith.constant 512 : index
// CHECK-NEXT:    %[[A:.*]] = memref.view %[[ARENA]][%[[OA]]][] : memref<768xi8> to memref<64xf32>
// CHECK-NEXT:    memref.copy %{{.*}}, %[[A]]
// CHECK-NEXT:    %[[OB:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[B:.*]] = memref.view %[[ARENA]][%[[OB]]][] : memref<768xi8> to memref<128xf32>
// CHECK-NEXT:    %[[SV:.*]] = memref.subview %[[B]]
// CHECK-NEXT:    memref.copy %[[A]], %[[SV]]
// CHECK-NEXT:    %[[OC:.*]] = arith.constant 512 : index
// CHECK-NEXT:    %[[C:.*]] = memref.view %[[ARENA]][%[[OC]]][] : memref<768xi8> to memref<64xf32>
// CHECK-NEXT:    memref.copy %[[SV]], %[[C]]
// CHECK-NEXT:    memref.copy %[[C]], %{{.*}}
// The input freed its buffers: their deallocs vanish and the arena is freed
// right after its last use.
// CHECK-NEXT:    memref.dealloc %[[ARENA]] : memref<768xi8>
// CHECK-NEXT:    return
// CHECK-NOT:   memref.dealloc
func.func @chain(%in: memref<64xf32>, %out: memref<64xf32>) {
  %a = memref.alloc() : memref<64xf32>
  memref.copy %in, %a : memref<64xf32> to memref<64xf32>
  %b = memref.alloc() : memref<128xf32>
  %sv = memref.subview %b[64][64][1] : memref<128xf32> to memref<64xf32, strided<[1], offset: 64>>
  memref.copy %a, %sv : memref<64xf32> to memref<64xf32, strided<[1], offset: 64>>
  memref.dealloc %a : memref<64xf32>
  %c = memref.alloc() : memref<64xf32>
  memref.copy %sv, %c : memref<64xf32, strided<[1], offset: 64>> to memref<64xf32>
  memref.dealloc %b : memref<128xf32>
  memref.copy %c, %out : memref<64xf32> to memref<64xf32>
  memref.dealloc %c : memref<64xf32>
  return
}

// Raw one-shot-bufferize output frees nothing, so neither does the arena.
// Two 4-byte buffers live together, each rounded up to 64.
// CHECK-LABEL: func.func @no_deallocs
// CHECK:         memref.alloc() {alignment = 64 : i64} : memref<128xi8>
// CHECK-NOT:     memref.dealloc
// CHECK:         return
func.func @no_deallocs(%out: memref<1xf32>) {
  %a = memref.alloc() : memref<1xf32>
  %b = memref.alloc() : memref<1xf32>
  memref.copy %a, %b : memref<1xf32> to memref<1xf32>
  memref.copy %b, %out : memref<1xf32> to memref<1xf32>
  return
}

// CHECK-LABEL: func.func @no_allocs
// CHECK-NEXT:    memref.copy
// CHECK-NEXT:    return
func.func @no_allocs(%in: memref<4xf32>, %out: memref<4xf32>) {
  memref.copy %in, %out : memref<4xf32> to memref<4xf32>
  return
}

// Declarations have no body and are left alone.
// CHECK: func.func private @external(memref<4xf32>)
func.func private @external(memref<4xf32>)
