// Element types and the bytes the plan gives them, all live together with
// alignment=1 and first-fit, so each offset is the sum of the sizes before
// it. By hand, from LLVM's x86-64 allocation sizes (store size padded to the
// ABI alignment); the column "at" is where each would go unaligned:
//   memref<10xi1>              i1 -> 1 byte            10 at 0
//   memref<3xi4>               i4 -> 1 byte             3 at 10
//   memref<3xindex>            index -> 8 bytes        24 at 13
//   memref<2xcomplex<f32>>     {f32, f32} -> 8         16 at 37
//   memref<2xvector<3xf32>>    <3 x float> -> 16       32 at 53
//   memref<4xi24>              i24 -> 4                16 at 85
//   memref<2xf80>              x86_fp80 -> 16          32 at 101
//   memref<2xi65>              i65 -> 16               32 at 133
//   memref<2xcomplex<i1>>      {i1, i1} -> 2            4 at 165
//   memref<3xvector<2x3xf32>>  [2 x <3 x float>] -> 32 96 at 169
//   265 bytes in all. But lowered accesses assume each element's alignment
//   (16 for <3 x float>, x86_fp80 and i65), so the arena's alignment rises to
//   16 and every size rounds up to it: 16, 16, 32, 16, 32, 16, 32, 32, 16, 96
//   at 0, 16, 32, 64, 80, 112, 128, 160, 192, 208: arena 304.
//   A scalable vector has no static size: left alone.
// RUN: memplan-opt %s --tensor-mem-plan="alignment=1 strategy=first-fit remarks=true" -verify-diagnostics | FileCheck %s
// RUN: memplan-opt %s --tensor-mem-plan="alignment=1 strategy=first-fit" | mlir-opt --verify-each
// CHECK: memref.alloc() {alignment = 16 : i64} : memref<304xi8>
// CHECK: memref.view %{{.*}}[%c0{{.*}}][] : memref<304xi8> to memref<10xi1>
// CHECK: memref.view %{{.*}}[%c16][] : memref<304xi8> to memref<3xi4>
// CHECK: memref.view %{{.*}}[%c32][] : memref<304xi8> to memref<3xindex>
// CHECK: memref.view %{{.*}}[%c64][] : memref<304xi8> to memref<2xcomplex<f32>>
// CHECK: memref.view %{{.*}}[%c80][] : memref<304xi8> to memref<2xvector<3xf32>>
// CHECK: memref.view %{{.*}}[%c112][] : memref<304xi8> to memref<4xi24>
// CHECK: memref.view %{{.*}}[%c128][] : memref<304xi8> to memref<2xf80>
// CHECK: memref.view %{{.*}}[%c160][] : memref<304xi8> to memref<2xi65>
// CHECK: memref.view %{{.*}}[%c192][] : memref<304xi8> to memref<2xcomplex<i1>>
// CHECK: memref.view %{{.*}}[%c208][] : memref<304xi8> to memref<3xvector<2x3xf32>>
// CHECK: memref.alloc() : memref<2xvector<[4]xf32>>
// expected-remark @below {{10 buffers planned, 265 bytes without planning, arena 304 bytes}}
func.func @types() {
  %c0 = arith.constant 0 : index
  %a = memref.alloc() : memref<10xi1>
  %b = memref.alloc() : memref<3xi4>
  %c = memref.alloc() : memref<3xindex>
  %d = memref.alloc() : memref<2xcomplex<f32>>
  %e = memref.alloc() : memref<2xvector<3xf32>>
  %f = memref.alloc() : memref<4xi24>
  %g = memref.alloc() : memref<2xf80>
  %i = memref.alloc() : memref<2xi65>
  %j = memref.alloc() : memref<2xcomplex<i1>>
  %k = memref.alloc() : memref<3xvector<2x3xf32>>
  // expected-remark @below {{buffer not planned: scalable vector element type}}
  %s = memref.alloc() : memref<2xvector<[4]xf32>>
  %0 = memref.load %a[%c0] : memref<10xi1>
  %1 = memref.load %b[%c0] : memref<3xi4>
  %2 = memref.load %c[%c0] : memref<3xindex>
  %3 = memref.load %d[%c0] : memref<2xcomplex<f32>>
  %4 = memref.load %e[%c0] : memref<2xvector<3xf32>>
  %5 = memref.load %f[%c0] : memref<4xi24>
  %6 = memref.load %g[%c0] : memref<2xf80>
  %7 = memref.load %i[%c0] : memref<2xi65>
  %8 = memref.load %j[%c0] : memref<2xcomplex<i1>>
  %9 = memref.load %k[%c0] : memref<3xvector<2x3xf32>>
  %10 = memref.load %s[%c0] : memref<2xvector<[4]xf32>>
  return
}
