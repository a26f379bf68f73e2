// RUN: memplan-opt %s --test-memplan-usage-records -verify-diagnostics -split-input-file -o /dev/null

// Allocations are found by their Allocate effect on a result, as upstream's
// optimize-allocation-liveness finds them. Only memref.alloc becomes a view
// of the arena: any other allocating op is left alone, and said so.

func.func @gpu_alloc(%out: memref<4xf32>) {
  // expected-remark @below {{unplanned: allocated by 'gpu.alloc', which the rewrite does not turn into a view of the arena}}
  %g = gpu.alloc () : memref<4xf32>
  memref.copy %g, %out : memref<4xf32> to memref<4xf32>
  return
}

// -----

// realloc frees its operand (an escape) and allocates its result.
func.func @realloc(%in: memref<4xf32>, %out: memref<8xf32>) {
  // expected-remark @below {{unplanned: allocated by 'memref.realloc', which the rewrite does not turn into a view of the arena}}
  %b = memref.realloc %in : memref<4xf32> to memref<8xf32>
  memref.copy %b, %out : memref<8xf32> to memref<8xf32>
  return
}

// -----

func.func @clone(%in: memref<4xf32>, %out: memref<4xf32>) {
  // expected-remark @below {{unplanned: allocated by 'bufferization.clone', which the rewrite does not turn into a view of the arena}}
  %c = bufferization.clone %in : memref<4xf32> to memref<4xf32>
  memref.copy %c, %out : memref<4xf32> to memref<4xf32>
  return
}

// -----

// On the stack (memref.alloca): freed with its scope, not the planner's, so
// no record and no remark.
func.func @alloca(%out: memref<4xf32>) {
  %s = memref.alloca() : memref<4xf32>
  memref.copy %s, %out : memref<4xf32> to memref<4xf32>
  return
}
