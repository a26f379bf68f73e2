// RUN: memplan-opt %s --tensor-mem-plan="inplace=true remarks=true" -o /dev/null 2>&1 | FileCheck %s
// RUN: memplan-opt %s --tensor-mem-plan="inplace=true report=%t.json" -o /dev/null
// RUN: not grep inplace_of %t.json

// Each function is one change away from an in-place pair and must get
// none: every remark ends without ", N in place". Each has two 64-byte
// buffers a and b live together at the op that writes b: arena 128.

#id = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#tr = affine_map<(d0, d1) -> (d1, d0)>

// a is read again after b's op.
// CHECK: inplace-denied.mlir:[[@LINE+1]]:1: remark: tensor-mem-plan: 2 buffers planned, 128 bytes without planning, arena 128 bytes, lower bound 128, {{.*}} buffers live); footprint: {{[^,]*}}, callees 0, hoisted 0), first call {{[0-9]+}} bytes{{$}}
func.func @used_later(%in: memref<16xf32>, %out: memref<16xf32>, %out2: memref<16xf32>) {
  %a = memref.alloc() : memref<16xf32>
  memref.copy %in, %a : memref<16xf32> to memref<16xf32>
  %b = memref.alloc() : memref<16xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%a : memref<16xf32>) outs(%b : memref<16xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.mulf %x, %x : f32
    linalg.yield %r : f32
  }
  memref.copy %a, %out2 : memref<16xf32> to memref<16xf32>
  memref.copy %b, %out : memref<16xf32> to memref<16xf32>
  return
}

// A transpose: b[i][j] reads a[j][i], which b[j][i] may already have
// overwritten.
// CHECK: inplace-denied.mlir:[[@LINE+1]]:1: remark: tensor-mem-plan: 2 buffers planned, 128 bytes without planning, arena 128 bytes, lower bound 128, {{.*}} buffers live); footprint: {{[^,]*}}, callees 0, hoisted 0), first call {{[0-9]+}} bytes{{$}}
func.func @transpose(%in: memref<4x4xf32>, %out: memref<4x4xf32>) {
  %a = memref.alloc() : memref<4x4xf32>
  memref.copy %in, %a : memref<4x4xf32> to memref<4x4xf32>
  %b = memref.alloc() : memref<4x4xf32>
  linalg.generic {indexing_maps = [#tr, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%a : memref<4x4xf32>) outs(%b : memref<4x4xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  }
  memref.copy %b, %out : memref<4x4xf32> to memref<4x4xf32>
  return
}

// f32 -> f16: element i sits at other bytes (b is 32 bytes, rounded to 64).
// CHECK: inplace-denied.mlir:[[@LINE+1]]:1: remark: tensor-mem-plan: 2 buffers planned, 96 bytes without planning, arena 128 bytes, lower bound 128, {{.*}} buffers live); footprint: {{[^,]*}}, callees 0, hoisted 0), first call {{[0-9]+}} bytes{{$}}
func.func @element_size(%in: memref<16xf32>, %out: memref<16xf16>) {
  %a = memref.alloc() : memref<16xf32>
  memref.copy %in, %a : memref<16xf32> to memref<16xf32>
  %b = memref.alloc() : memref<16xf16>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%a : memref<16xf32>) outs(%b : memref<16xf16>) {
  ^bb0(%x: f32, %o: f16):
    %r = arith.truncf %x : f32 to f16
    linalg.yield %r : f16
  }
  memref.copy %b, %out : memref<16xf16> to memref<16xf16>
  return
}

// A view of a is another operand of the op.
// CHECK: inplace-denied.mlir:[[@LINE+1]]:1: remark: tensor-mem-plan: 2 buffers planned, 128 bytes without planning, arena 128 bytes, lower bound 128, {{.*}} buffers live); footprint: {{[^,]*}}, callees 0, hoisted 0), first call {{[0-9]+}} bytes{{$}}
func.func @alias_operand(%in: memref<16xf32>, %out: memref<16xf32>) {
  %a = memref.alloc() : memref<16xf32>
  memref.copy %in, %a : memref<16xf32> to memref<16xf32>
  %v = memref.subview %a[0][16][1] : memref<16xf32> to memref<16xf32, strided<[1]>>
  %b = memref.alloc() : memref<16xf32>
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%a, %v : memref<16xf32>, memref<16xf32, strided<[1]>>) outs(%b : memref<16xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %r = arith.addf %x, %y : f32
    linalg.yield %r : f32
  }
  memref.copy %b, %out : memref<16xf32> to memref<16xf32>
  return
}

// Inside a loop (default-deny: only ops at the function's top level).
// CHECK: inplace-denied.mlir:[[@LINE+1]]:1: remark: tensor-mem-plan: 2 buffers planned, 128 bytes without planning, arena 128 bytes, lower bound 128, {{.*}} buffers live); footprint: {{[^,]*}}, callees 0, hoisted 0), first call {{[0-9]+}} bytes{{$}}
func.func @in_loop(%in: memref<16xf32>, %out: memref<16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  scf.for %i = %c0 to %c2 step %c1 {
    %a = memref.alloc() : memref<16xf32>
    memref.copy %in, %a : memref<16xf32> to memref<16xf32>
    %b = memref.alloc() : memref<16xf32>
    linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
        ins(%a : memref<16xf32>) outs(%b : memref<16xf32>) {
    ^bb0(%x: f32, %o: f32):
      %r = arith.mulf %x, %x : f32
      linalg.yield %r : f32
    }
    memref.copy %b, %out : memref<16xf32> to memref<16xf32>
  }
  return
}

// The op accumulates into b (its payload reads the init): b's old contents
// matter, and b is written before the op.
// CHECK: inplace-denied.mlir:[[@LINE+1]]:1: remark: tensor-mem-plan: 2 buffers planned, 128 bytes without planning, arena 128 bytes, lower bound 128, {{.*}} buffers live); footprint: {{[^,]*}}, callees 0, hoisted 0), first call {{[0-9]+}} bytes{{$}}
func.func @reads_init(%in: memref<16xf32>, %out: memref<16xf32>) {
  %b = memref.alloc() : memref<16xf32>
  memref.copy %in, %b : memref<16xf32> to memref<16xf32>
  %a = memref.alloc() : memref<16xf32>
  memref.copy %in, %a : memref<16xf32> to memref<16xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%a : memref<16xf32>) outs(%b : memref<16xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.addf %x, %o : f32
    linalg.yield %r : f32
  }
  memref.copy %b, %out : memref<16xf32> to memref<16xf32>
  return
}

// A reduction (a row sum) is not elementwise.
// CHECK: inplace-denied.mlir:[[@LINE+1]]:1: remark: tensor-mem-plan: 2 buffers planned, 128 bytes without planning, arena 128 bytes, lower bound 128, {{.*}} buffers live); footprint: {{[^,]*}}, callees 0, hoisted 0), first call {{[0-9]+}} bytes{{$}}
func.func @reduction(%in: memref<16x1xf32>, %out: memref<16xf32>) {
  %a = memref.alloc() : memref<16x1xf32>
  memref.copy %in, %a : memref<16x1xf32> to memref<16x1xf32>
  %b = memref.alloc() : memref<16xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%a : memref<16x1xf32>) outs(%b : memref<16xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  }
  memref.copy %b, %out : memref<16xf32> to memref<16xf32>
  return
}

// A copy whose source is read again afterwards.
// CHECK: inplace-denied.mlir:[[@LINE+1]]:1: remark: tensor-mem-plan: 2 buffers planned, 128 bytes without planning, arena 128 bytes, lower bound 128, {{.*}} buffers live); footprint: {{[^,]*}}, callees 0, hoisted 0), first call {{[0-9]+}} bytes{{$}}
func.func @copy_used_later(%in: memref<16xf32>, %out: memref<16xf32>, %out2: memref<16xf32>) {
  %a = memref.alloc() : memref<16xf32>
  memref.copy %in, %a : memref<16xf32> to memref<16xf32>
  %b = memref.alloc() : memref<16xf32>
  memref.copy %a, %b : memref<16xf32> to memref<16xf32>
  memref.copy %a, %out2 : memref<16xf32> to memref<16xf32>
  memref.copy %b, %out : memref<16xf32> to memref<16xf32>
  return
}

// A copy into a view of b (a subview: the rest of b is not written).
// CHECK: inplace-denied.mlir:[[@LINE+1]]:1: remark: tensor-mem-plan: 2 buffers planned, 192 bytes without planning, arena 192 bytes, lower bound 192, {{.*}} buffers live); footprint: {{[^,]*}}, callees 0, hoisted 0), first call {{[0-9]+}} bytes{{$}}
func.func @copy_into_view(%in: memref<16xf32>, %out: memref<32xf32>) {
  %a = memref.alloc() : memref<16xf32>
  memref.copy %in, %a : memref<16xf32> to memref<16xf32>
  %b = memref.alloc() : memref<32xf32>
  %v = memref.subview %b[0][16][1] : memref<32xf32> to memref<16xf32, strided<[1]>>
  memref.copy %a, %v : memref<16xf32> to memref<16xf32, strided<[1]>>
  memref.copy %b, %out : memref<32xf32> to memref<32xf32>
  return
}
