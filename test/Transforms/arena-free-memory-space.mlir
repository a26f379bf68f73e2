// The input frees its space-1 buffers through memref.memory_space_cast (the
// LLVM lowering frees only the default space); the arena is freed the same
// way, after its last user, and the result lowers to LLVM.
// RUN: memplan-opt %s --tensor-mem-plan | FileCheck %s
// RUN: memplan-opt %s --tensor-mem-plan --finalize-memref-to-llvm --convert-func-to-llvm --convert-arith-to-llvm --reconcile-unrealized-casts -o /dev/null

// CHECK-LABEL: func.func @space_one
// CHECK:         %[[ARENA:.*]] = memref.alloc() {alignment = 64 : i64} : memref<128xi8, 1>
// CHECK-NOT:     memref.dealloc
// CHECK:         %[[CAST:.*]] = memref.memory_space_cast %[[ARENA]] : memref<128xi8, 1> to memref<128xi8>
// CHECK-NEXT:    memref.dealloc %[[CAST]] : memref<128xi8>
// CHECK-NEXT:    return
func.func @space_one(%out: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %f = arith.constant 1.0 : f32
  %a = memref.alloc() : memref<4xf32, 1>
  memref.store %f, %a[%c0] : memref<4xf32, 1>
  %b = memref.alloc() : memref<4xf32, 1>
  %v = memref.load %a[%c0] : memref<4xf32, 1>
  memref.store %v, %b[%c0] : memref<4xf32, 1>
  %ac = memref.memory_space_cast %a : memref<4xf32, 1> to memref<4xf32>
  memref.dealloc %ac : memref<4xf32>
  %w = memref.load %b[%c0] : memref<4xf32, 1>
  memref.store %w, %out[%c0] : memref<4xf32>
  %bc = memref.memory_space_cast %b : memref<4xf32, 1> to memref<4xf32>
  memref.dealloc %bc : memref<4xf32>
  return
}

// The arena of a function whose async work reads a planned buffer is freed
// after the await that joins it, not after the async.execute.
// CHECK-LABEL: func.func @async_arena
// CHECK:         %[[ARENA:.*]] = memref.alloc() {alignment = 64 : i64} : memref<128xi8>
// CHECK:         async.execute
// CHECK:         async.await
// CHECK-NEXT:    memref.dealloc %[[ARENA]] : memref<128xi8>
// CHECK-NEXT:    return
func.func @async_arena(%out: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %f = arith.constant 1.0 : f32
  %a = memref.alloc() : memref<4xf32>
  memref.store %f, %a[%c0] : memref<4xf32>
  %tok = async.execute {
    %v = memref.load %a[%c0] : memref<4xf32>
    memref.store %v, %out[%c0] : memref<4xf32>
    async.yield
  }
  %b = memref.alloc() : memref<4xf32>
  memref.store %f, %b[%c0] : memref<4xf32>
  memref.dealloc %b : memref<4xf32>
  async.await %tok : !async.token
  memref.dealloc %a : memref<4xf32>
  return
}
