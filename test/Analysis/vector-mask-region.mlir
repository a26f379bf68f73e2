// vector.mask runs the one op it masks once, in place: a buffer read or
// written inside it is used there, like inside an scf.if, not captured by
// a region of unknown semantics. (An op whose region may run later or many
// times, like gpu.launch, still captures it: Robustness/ir-unknown-ops.mlir.)
//
// RUN: memplan-opt %s --tensor-mem-plan="remarks=true" -o /dev/null 2>&1 | FileCheck %s

// CHECK-NOT: buffer not planned
// CHECK: remark: tensor-mem-plan: 2 buffers planned
func.func @masked(%m: vector<4xi1>, %v: vector<4xf32>, %out: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %pad = arith.constant 0.0 : f32
  %a = memref.alloc() : memref<4xf32>
  vector.mask %m { vector.transfer_write %v, %a[%c0] : vector<4xf32>, memref<4xf32> } : vector<4xi1>
  %r = vector.mask %m { vector.transfer_read %a[%c0], %pad : memref<4xf32>, vector<4xf32> } : vector<4xi1> -> vector<4xf32>
  %b = memref.alloc() : memref<4xf32>
  vector.transfer_write %r, %b[%c0] : vector<4xf32>, memref<4xf32>
  memref.copy %b, %out : memref<4xf32> to memref<4xf32>
  memref.dealloc %a : memref<4xf32>
  memref.dealloc %b : memref<4xf32>
  return
}
