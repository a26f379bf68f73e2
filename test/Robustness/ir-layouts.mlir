// Non-identity layouts are not planned (a view of the arena has the identity
// layout), with a remark; an identity affine map is the identity layout.
// RUN: memplan-opt %s --tensor-mem-plan=remarks=true -verify-diagnostics | mlir-opt --verify-each --mlir-print-local-scope | FileCheck %s
// CHECK: memref.alloc() : memref<4x4xf32, strided<[8, 1]>>
// CHECK: memref.alloc() : memref<4xf32, affine_map<(d0) -> (d0 + 2)>>
// CHECK: memref.alloc() : memref<4x4xf32, affine_map<(d0, d1) -> (d1, d0)>>
// CHECK: memref.view %{{.*}} to memref<4x4xf32>
// expected-remark @below {{1 buffer planned, 64 bytes without planning, arena 64 bytes}}
func.func @layouts() {
  %c0 = arith.constant 0 : index
  // expected-remark @below {{buffer not planned: non-identity layout}}
  %a = memref.alloc() : memref<4x4xf32, strided<[8, 1]>>
  // expected-remark @below {{buffer not planned: non-identity layout}}
  %b = memref.alloc() : memref<4xf32, affine_map<(d0) -> (d0 + 2)>>
  // expected-remark @below {{buffer not planned: non-identity layout}}
  %c = memref.alloc() : memref<4x4xf32, affine_map<(d0, d1) -> (d1, d0)>>
  %d = memref.alloc() : memref<4x4xf32, affine_map<(d0, d1) -> (d0, d1)>>
  %v = memref.load %a[%c0, %c0] : memref<4x4xf32, strided<[8, 1]>>
  %w = memref.load %b[%c0] : memref<4xf32, affine_map<(d0) -> (d0 + 2)>>
  %x = memref.load %c[%c0, %c0] : memref<4x4xf32, affine_map<(d0, d1) -> (d1, d0)>>
  %y = memref.load %d[%c0, %c0] : memref<4x4xf32, affine_map<(d0, d1) -> (d0, d1)>>
  return
}
