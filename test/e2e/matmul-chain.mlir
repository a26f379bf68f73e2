// A matmul and a chain of elementwise ops of several sizes, bufferized,
// planned into one arena, lowered and run: it must print exactly what the
// unplanned program prints.
//
// RUN: memplan-opt %s --one-shot-bufferize="bufferize-function-boundaries" -o %t.bufferized.mlir
// RUN: memplan-opt %t.bufferized.mlir %lower_to_llvm | mlir-runner -e main -entry-point-result=void -shared-libs=%runner_libs | sed -e 's/base@ = 0x[0-9a-f]*//' > %t.ref
// RUN: memplan-opt %t.bufferized.mlir --tensor-mem-plan=remarks=true 2> %t.remarks | FileCheck %s --check-prefix=PLAN
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: memplan-opt %t.bufferized.mlir --tensor-mem-plan %lower_to_llvm | mlir-runner -e main -entry-point-result=void -shared-libs=%runner_libs | sed -e 's/base@ = 0x[0-9a-f]*//' > %t.planned
// RUN: diff %t.ref %t.planned
// RUN: FileCheck %s < %t.planned
//
// With deallocations inserted, the planned program frees its arena instead.
// RUN: memplan-opt %s --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --buffer-deallocation-pipeline --tensor-mem-plan %lower_to_llvm | mlir-runner -e main -entry-point-result=void -shared-libs=%runner_libs | sed -e 's/base@ = 0x[0-9a-f]*//' > %t.dealloc
// RUN: diff %t.ref %t.dealloc

// PLAN: memref.alloc() {alignment = 64 : i64} : memref<{{[0-9]+}}xi8>
// PLAN-NOT: memref.alloc() : memref<8x8xf32>
// REMARK: tensor-mem-plan: {{[0-9]+}} buffers planned

// The whole output equals the reference run (the diffs above); these lines
// pin entries computed by hand: a[i][k] = (i + k) mod 5, b[k][j] = (k + 2j)
// mod 3, m = a x b, then t = sum_{d<4} max(m/2 + d - 9, 0) and the printed
// value is (t*t + m) / 2. Row 0: m = 30 everywhere -> 465.
// CHECK: rank = 2 offset = 0 sizes = [8, 8] strides = [8, 1] data =
// CHECK-NEXT: {{\[\[}}465, {{ *}}465, {{ *}}465, {{ *}}465, {{ *}}465, {{ *}}465, {{ *}}465, {{ *}}465],
// CHECK: [465, {{ *}}739, {{ *}}594, {{ *}}465, {{ *}}739, {{ *}}594, {{ *}}465, {{ *}}739]]

func.func private @printMemrefF32(tensor<*xf32>)

#id = affine_map<(d0, d1) -> (d0, d1)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#drop0 = affine_map<(d0, d1, d2) -> (d1, d2)>

func.func @main() {
  %zero = arith.constant 0.0 : f32
  %half = arith.constant 0.5 : f32
  %two = arith.constant 2.0 : f32

  // a[i][k] = (i + k) mod 5, b[k][j] = (k + 2j) mod 3.
  %ea = tensor.empty() : tensor<8x16xf32>
  %a = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]}
      outs(%ea : tensor<8x16xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %k = linalg.index 1 : index
    %s = arith.addi %i, %k : index
    %c5 = arith.constant 5 : index
    %m = arith.remui %s, %c5 : index
    %mi = arith.index_cast %m : index to i32
    %f = arith.sitofp %mi : i32 to f32
    linalg.yield %f : f32
  } -> tensor<8x16xf32>
  %eb = tensor.empty() : tensor<16x8xf32>
  %b = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]}
      outs(%eb : tensor<16x8xf32>) {
  ^bb0(%o: f32):
    %k = linalg.index 0 : index
    %j = linalg.index 1 : index
    %j2 = arith.addi %j, %j : index
    %s = arith.addi %k, %j2 : index
    %c3 = arith.constant 3 : index
    %m = arith.remui %s, %c3 : index
    %mi = arith.index_cast %m : index to i32
    %f = arith.sitofp %mi : i32 to f32
    linalg.yield %f : f32
  } -> tensor<16x8xf32>

  %e0 = tensor.empty() : tensor<8x8xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%e0 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<8x16xf32>, tensor<16x8xf32>)
                      outs(%fill : tensor<8x8xf32>) -> tensor<8x8xf32>

  // 1: x * 0.5
  %e1 = tensor.empty() : tensor<8x8xf32>
  %t1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%mm : tensor<8x8xf32>) outs(%e1 : tensor<8x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.mulf %x, %half : f32
    linalg.yield %r : f32
  } -> tensor<8x8xf32>
  // 2: broadcast to 4x8x8 and add the depth index
  %e2 = tensor.empty() : tensor<4x8x8xf32>
  %t2 = linalg.generic {indexing_maps = [#drop0, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%t1 : tensor<8x8xf32>) outs(%e2 : tensor<4x8x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %d = linalg.index 0 : index
    %di = arith.index_cast %d : index to i32
    %df = arith.sitofp %di : i32 to f32
    %r = arith.addf %x, %df : f32
    linalg.yield %r : f32
  } -> tensor<4x8x8xf32>
  // 3: relu-like max(x - 9, 0) on the big tensor
  %e3 = tensor.empty() : tensor<4x8x8xf32>
  %t3 = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%t2 : tensor<4x8x8xf32>) outs(%e3 : tensor<4x8x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %c9 = arith.constant 9.0 : f32
    %s = arith.subf %x, %c9 : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  } -> tensor<4x8x8xf32>
  // 4: sum over depth back to 8x8
  %e4 = tensor.empty() : tensor<8x8xf32>
  %z4 = linalg.fill ins(%zero : f32) outs(%e4 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %t4 = linalg.generic {indexing_maps = [#id3, #drop0], iterator_types = ["reduction", "parallel", "parallel"]}
      ins(%t3 : tensor<4x8x8xf32>) outs(%z4 : tensor<8x8xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %r = arith.addf %x, %acc : f32
    linalg.yield %r : f32
  } -> tensor<8x8xf32>
  // 5: x * x
  %e5 = tensor.empty() : tensor<8x8xf32>
  %t5 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%t4 : tensor<8x8xf32>) outs(%e5 : tensor<8x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.mulf %x, %x : f32
    linalg.yield %r : f32
  } -> tensor<8x8xf32>
  // 6: x + matmul (keeps the matmul result alive across the chain)
  %e6 = tensor.empty() : tensor<8x8xf32>
  %t6 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%t5, %mm : tensor<8x8xf32>, tensor<8x8xf32>) outs(%e6 : tensor<8x8xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %r = arith.addf %x, %y : f32
    linalg.yield %r : f32
  } -> tensor<8x8xf32>
  // 7: x / 2
  %e7 = tensor.empty() : tensor<8x8xf32>
  %t7 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%t6 : tensor<8x8xf32>) outs(%e7 : tensor<8x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.divf %x, %two : f32
    linalg.yield %r : f32
  } -> tensor<8x8xf32>

  %u = tensor.cast %t7 : tensor<8x8xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
