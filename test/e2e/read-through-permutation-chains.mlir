// hoist-constants=memory (the default) reads a permuted constant-derived
// tensor through the permuted map, so the copy never exists. Found by
// probing with hand-written programs, each with the default pipeline:
//  - @double_transpose: a transpose, then a generic that transposes it
//    back. The first rewrite changed the second copy's input map, and the
//    second was then read through the map it had before: x^T + 1 printed.
//  - @matmul_same: matmul(%t, %t) of one transposed constant. Each use was
//    rewritten in turn, and the first generalized (erased) the matmul the
//    second still pointed into: a segfault.
//  - @copy_of_transpose: linalg.copy of a transpose, itself a permuting
//    copy, generalized away while rewriting the first and then used: a
//    segfault.
// Copies are now done last first (a copy's readers come after it), and a
// reader once, all its operands at a time.
//
// RUN: memplan-opt %s --one-shot-bufferize="bufferize-function-boundaries" --buffer-deallocation-pipeline --convert-bufferization-to-memref %lower_to_llvm | mlir-runner -e main -entry-point-result=void -shared-libs=%runner_libs | sed -e 's/base@ = 0x[0-9a-f]*//' > %t.ref
// RUN: FileCheck %s --input-file=%t.ref
// RUN: memplan-opt %s --memplan-pipeline %lower_to_llvm | mlir-runner -e main -entry-point-result=void -shared-libs=%runner_libs,%memplan_lib/libmemplan_runtime%shlibext | sed -e 's/base@ = 0x[0-9a-f]*//' > %t.planned
// RUN: diff %t.ref %t.planned
// RUN: memplan-opt %s --tensor-mem-hoist-constants="remarks=true" -o %t.hoisted.mlir 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: FileCheck %s --check-prefix=IR --input-file=%t.hoisted.mlir
//
// x = [[0, 1], [2, 3]], read twice transposed, plus 1:
// CHECK: [1,   2]
// CHECK-NEXT: [3,   4]
// t = [[1, 3], [2, 4]]; t * t:
// CHECK: [7,   15]
// CHECK-NEXT: [10,   22]
// t + t:
// CHECK: [2,   6]
// CHECK-NEXT: [4,   8]
// x = [[0, 1, 2], [3, 4, 5]] transposed, copied, plus 1:
// CHECK: [1,   4]
// CHECK-NEXT: [2,   5]
// CHECK-NEXT: [3,   6]
//
// Two copies of 16 bytes in each of the first two functions, two of 24 in
// the third, all gone:
// REMARK: remark: tensor-mem-hoist-constants: 2 permuted constants read through a map (32 bytes never materialized)
// REMARK: remark: tensor-mem-hoist-constants: 2 permuted constants read through a map (32 bytes never materialized)
// REMARK: remark: tensor-mem-hoist-constants: 2 permuted constants read through a map (48 bytes never materialized)
// IR-NOT: linalg.transpose
// IR-NOT: linalg.copy

#id = affine_map<(d0, d1) -> (d0, d1)>
#tr = affine_map<(d0, d1) -> (d1, d0)>

func.func private @printMemrefF32(tensor<*xf32>)

func.func @double_transpose() {
  %ex = tensor.empty() : tensor<2x2xf32>
  %x = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]}
      outs(%ex : tensor<2x2xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c2 = arith.constant 2 : index
    %i2 = arith.muli %i, %c2 : index
    %s = arith.addi %i2, %j : index
    %si = arith.index_cast %s : index to i32
    %f = arith.sitofp %si : i32 to f32
    linalg.yield %f : f32
  } -> tensor<2x2xf32>
  %e1 = tensor.empty() : tensor<2x2xf32>
  %t1 = linalg.transpose ins(%x : tensor<2x2xf32>) outs(%e1 : tensor<2x2xf32>) permutation = [1, 0]
  %e2 = tensor.empty() : tensor<2x2xf32>
  %t2 = linalg.generic {indexing_maps = [#tr, #id], iterator_types = ["parallel", "parallel"]}
      ins(%t1 : tensor<2x2xf32>) outs(%e2 : tensor<2x2xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<2x2xf32>
  %e3 = tensor.empty() : tensor<2x2xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%t2 : tensor<2x2xf32>) outs(%e3 : tensor<2x2xf32>) {
  ^bb0(%a: f32, %o: f32):
    %one = arith.constant 1.0 : f32
    %s = arith.addf %a, %one : f32
    linalg.yield %s : f32
  } -> tensor<2x2xf32>
  %u = tensor.cast %r : tensor<2x2xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}

func.func @matmul_same() {
  %cst = arith.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %e = tensor.empty() : tensor<2x2xf32>
  %t = linalg.transpose ins(%cst : tensor<2x2xf32>) outs(%e : tensor<2x2xf32>) permutation = [1, 0]
  %zero = arith.constant 0.0 : f32
  %e2 = tensor.empty() : tensor<2x2xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e2 : tensor<2x2xf32>) -> tensor<2x2xf32>
  %m = linalg.matmul ins(%t, %t : tensor<2x2xf32>, tensor<2x2xf32>) outs(%f : tensor<2x2xf32>) -> tensor<2x2xf32>
  %u = tensor.cast %m : tensor<2x2xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  %e3 = tensor.empty() : tensor<2x2xf32>
  %cst2 = arith.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %e4 = tensor.empty() : tensor<2x2xf32>
  %t2 = linalg.transpose ins(%cst2 : tensor<2x2xf32>) outs(%e4 : tensor<2x2xf32>) permutation = [1, 0]
  %a = linalg.add ins(%t2, %t2 : tensor<2x2xf32>, tensor<2x2xf32>) outs(%e3 : tensor<2x2xf32>) -> tensor<2x2xf32>
  %ua = tensor.cast %a : tensor<2x2xf32> to tensor<*xf32>
  call @printMemrefF32(%ua) : (tensor<*xf32>) -> ()
  return
}

func.func @copy_of_transpose() {
  %ex = tensor.empty() : tensor<2x3xf32>
  %x = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]}
      outs(%ex : tensor<2x3xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c3 = arith.constant 3 : index
    %i3 = arith.muli %i, %c3 : index
    %s = arith.addi %i3, %j : index
    %si = arith.index_cast %s : index to i32
    %f = arith.sitofp %si : i32 to f32
    linalg.yield %f : f32
  } -> tensor<2x3xf32>
  %e1 = tensor.empty() : tensor<3x2xf32>
  %t1 = linalg.transpose ins(%x : tensor<2x3xf32>) outs(%e1 : tensor<3x2xf32>) permutation = [1, 0]
  %e2 = tensor.empty() : tensor<3x2xf32>
  %t2 = linalg.copy ins(%t1 : tensor<3x2xf32>) outs(%e2 : tensor<3x2xf32>) -> tensor<3x2xf32>
  %e3 = tensor.empty() : tensor<3x2xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%t2 : tensor<3x2xf32>) outs(%e3 : tensor<3x2xf32>) {
  ^bb0(%a: f32, %o: f32):
    %one = arith.constant 1.0 : f32
    %s = arith.addf %a, %one : f32
    linalg.yield %s : f32
  } -> tensor<3x2xf32>
  %u = tensor.cast %r : tensor<3x2xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}

func.func @main() {
  call @double_transpose() : () -> ()
  call @matmul_same() : () -> ()
  call @copy_of_transpose() : () -> ()
  return
}
