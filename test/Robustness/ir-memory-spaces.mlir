// One arena per memory space, each in its space. By hand (alignment=1, all
// live together): default space 4 x f32 = 16 bytes; space 1: 8 + 16 f32 =
// 96 bytes; workgroup: 2 f32 = 8 bytes. f32 accesses need 4-byte alignment,
// which raises each arena's from 1 to 4.
// RUN: memplan-opt %s --tensor-mem-plan="alignment=1 remarks=true" -verify-diagnostics | mlir-opt --verify-each | FileCheck %s
// CHECK-DAG: memref.alloc() {alignment = 4 : i64} : memref<16xi8>
// CHECK-DAG: memref.alloc() {alignment = 4 : i64} : memref<96xi8, 1>
// CHECK-DAG: memref.alloc() {alignment = 4 : i64} : memref<8xi8, #gpu.address_space<workgroup>>
// CHECK-DAG: memref.view %{{.*}} : memref<96xi8, 1> to memref<8xf32, 1>
// CHECK-DAG: memref.view %{{.*}} : memref<96xi8, 1> to memref<16xf32, 1>
// CHECK-NOT: memref.alloc() : memref
// expected-remark @below {{1 buffer planned, 16 bytes without planning, arena 16 bytes}}
// expected-remark @below {{2 buffers planned, 96 bytes without planning, arena 96 bytes, lower bound 96, strategy auto, memory space 1 : i64}}
// expected-remark @below {{1 buffer planned, 8 bytes without planning, arena 8 bytes, lower bound 8, strategy auto, memory space #gpu.address_space<workgroup>}}
func.func @spaces() {
  %c0 = arith.constant 0 : index
  %a = memref.alloc() : memref<4xf32>
  %b = memref.alloc() : memref<8xf32, 1>
  %c = memref.alloc() : memref<2xf32, #gpu.address_space<workgroup>>
  %d = memref.alloc() : memref<16xf32, 1>
  %v = memref.load %a[%c0] : memref<4xf32>
  %w = memref.load %b[%c0] : memref<8xf32, 1>
  %x = memref.load %c[%c0] : memref<2xf32, #gpu.address_space<workgroup>>
  %y = memref.load %d[%c0] : memref<16xf32, 1>
  return
}
