// Minimal reproducer: a planned buffer's record starts at its memref.alloc,
// not at its first use. %late holds nothing until task 6 (copy %t2 -> %late),
// yet its record is [0, 8], so it may not share bytes with %t1 (dead after 4).
//   memplan-opt early_start.mlir --tensor-mem-plan="report=R.json alignment=64"
// gives lower_bound = arena_size = 3072 (records %late [0,8], %t1 [1,4],
// %t2 [3,6]); with %late starting at its first use (task 6) the bound is 2048.
// Upstream's deallocs agree with memplan's ends (optimize-allocation-liveness
// moves deallocs, never allocs), so this is not a memplan/upstream difference.
// one-shot-bufferize emits this shape for a tensor.empty used as the `outs`
// of an op far below it (inception_v3.mlir:836, resnet50_224.mlir:380).
func.func @early(%in: memref<256xf32>, %out: memref<256xf32>) {
  %late = memref.alloc() : memref<256xf32>
  %t1 = memref.alloc() : memref<256xf32>
  memref.copy %in, %t1 : memref<256xf32> to memref<256xf32>
  %t2 = memref.alloc() : memref<256xf32>
  memref.copy %t1, %t2 : memref<256xf32> to memref<256xf32>
  memref.dealloc %t1 : memref<256xf32>
  memref.copy %t2, %late : memref<256xf32> to memref<256xf32>
  memref.dealloc %t2 : memref<256xf32>
  memref.copy %late, %out : memref<256xf32> to memref<256xf32>
  memref.dealloc %late : memref<256xf32>
  return
}
