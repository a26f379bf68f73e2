// memplan-pipeline's identity layouts at function boundaries make @pick copy
// the strided view it returns (every second element) into a fresh buffer;
// the lowering turns that copy into a call of `memrefCopy`. The program runs
// with libmemplan_runtime alone (upstream's Tensor/cast-runtime-verification
// loads no runner library), and gives the same sum with libmlir_c_runner_utils
// loaded before or after it.
//
// RUN: memplan-opt %s --memplan-pipeline -o %t.planned.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.planned.mlir
// RUN: memplan-opt %t.planned.mlir --memplan-lower-to-llvm -o %t.llvm.mlir
// RUN: FileCheck %s --check-prefix=LLVM < %t.llvm.mlir
// RUN: mlir-runner %t.llvm.mlir -e main -entry-point-result=i32 \
// RUN:   -shared-libs=%memplan_lib/libmemplan_runtime%shlibext | FileCheck %s
// RUN: mlir-runner %t.llvm.mlir -e main -entry-point-result=i32 \
// RUN:   -shared-libs=%llvm_lib/libmlir_c_runner_utils.so,%memplan_lib/libmemplan_runtime%shlibext | FileCheck %s
// RUN: mlir-runner %t.llvm.mlir -e main -entry-point-result=i32 \
// RUN:   -shared-libs=%memplan_lib/libmemplan_runtime%shlibext,%llvm_lib/libmlir_c_runner_utils.so | FileCheck %s

// IR-LABEL: func.func private @pick
// IR: memref.copy {{.*}} : memref<?xf32, strided<[?], offset: ?>> to memref<?xf32>
// LLVM: llvm.call @memrefCopy

// 1 + 3 + 5 + 7 + 9 + 11 = 36 (a contiguous read would give 21).
// CHECK: 36

func.func private @pick(%t: tensor<*xf32>) -> tensor<?xf32> {
  %0 = tensor.cast %t : tensor<*xf32> to tensor<?xf32>
  return %0 : tensor<?xf32>
}

func.func @main() -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<12xf32>
  %init = linalg.generic {
      indexing_maps = [affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      outs(%e : tensor<12xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 0 : index
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    linalg.yield %f : f32
  } -> tensor<12xf32>
  // Element i holds i; the slice takes 1, 3, ..., 11.
  %slice = tensor.extract_slice %init[1] [6] [2]
      : tensor<12xf32> to tensor<6xf32>
  %u = tensor.cast %slice : tensor<6xf32> to tensor<*xf32>
  %p = call @pick(%u) : (tensor<*xf32>) -> tensor<?xf32>
  %n = tensor.dim %p, %c0 : tensor<?xf32>
  %sum = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> f32 {
    %x = tensor.extract %p[%i] : tensor<?xf32>
    %a = arith.addf %acc, %x : f32
    scf.yield %a : f32
  }
  %res = arith.fptosi %sum : f32 to i32
  return %res : i32
}
