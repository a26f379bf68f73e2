// RUN: memplan-opt %s --tensor-mem-write-into-consumers --split-input-file | FileCheck %s
// After bufferization the padded buffer is the only allocation: the
// convolution-like matmul and the ReLU write into its interior.
// RUN: memplan-opt %s --tensor-mem-write-into-consumers --split-input-file --one-shot-bufferize="bufferize-function-boundaries" --canonicalize --cse | FileCheck %s --check-prefix=BUF
// Without the pass each producer has its own buffer.
// RUN: memplan-opt %s --split-input-file --one-shot-bufferize="bufferize-function-boundaries" --canonicalize --cse | FileCheck %s --check-prefix=OFF

#id = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @pad_of_relu
// CHECK: %[[E:.*]] = tensor.empty() : tensor<6x6xf32>
// CHECK: %[[F:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[E]] : tensor<6x6xf32>)
// CHECK: %[[S:.*]] = tensor.extract_slice %[[F]][1, 1] [4, 4] [1, 1]
// CHECK: %[[B:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[S]] : tensor<4x4xf32>)
// CHECK: %[[M:.*]] = linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<4x4xf32>, tensor<4x4xf32>) outs(%[[B]] : tensor<4x4xf32>)
// The ReLU writes over the product it reads.
// CHECK: %[[R:.*]] = linalg.generic {{.*}} ins(%[[M]] : tensor<4x4xf32>) outs(%[[M]] : tensor<4x4xf32>)
// CHECK: tensor.insert_slice %[[R]] into %[[F]][1, 1] [4, 4] [1, 1]
// CHECK-NOT: tensor.pad
// BUF-LABEL: func.func @pad_of_relu
// BUF-COUNT-1: memref.alloc
// BUF-NOT: memref.alloc
// OFF-LABEL: func.func @pad_of_relu
// OFF-COUNT-2: memref.alloc
func.func @pad_of_relu(%x: tensor<4x4xf32>, %w: tensor<4x4xf32>) -> tensor<6x6xf32> {
  %c0 = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x4xf32>
  %b = linalg.fill ins(%c0 : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  %m = linalg.matmul ins(%x, %w : tensor<4x4xf32>, tensor<4x4xf32>) outs(%b : tensor<4x4xf32>) -> tensor<4x4xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%m : tensor<4x4xf32>) outs(%e : tensor<4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.maximumf %in, %c0 : f32
    linalg.yield %0 : f32
  } -> tensor<4x4xf32>
  %ninf = arith.constant -1.0 : f32
  %p = tensor.pad %r low[1, 1] high[1, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %ninf : f32
  } : tensor<4x4xf32> to tensor<6x6xf32>
  return %p : tensor<6x6xf32>
}

// -----

// A concat of two products, then padded: both products are written into
// the padded buffer, each into its own slice.
// CHECK-LABEL: func.func @pad_of_concat
// CHECK: %[[F:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<6x10xf32>)
// CHECK: %[[C:.*]] = tensor.extract_slice %[[F]][1, 1] [4, 8] [1, 1]
// CHECK: %[[S0:.*]] = tensor.extract_slice %[[C]][0, 0] [4, 4] [1, 1]
// CHECK: %[[M0:.*]] = linalg.matmul {{.*}} outs(%[[S0]] : tensor<4x4xf32>)
// CHECK: %[[I0:.*]] = tensor.insert_slice %[[M0]] into %[[C]][0, 0] [4, 4] [1, 1]
// CHECK: %[[S1:.*]] = tensor.extract_slice %[[I0]][0, 4] [4, 4] [1, 1]
// CHECK: %[[M1:.*]] = linalg.matmul {{.*}} outs(%[[S1]] : tensor<4x4xf32>)
// CHECK: %[[I1:.*]] = tensor.insert_slice %[[M1]] into %[[I0]][0, 4] [4, 4] [1, 1]
// CHECK: tensor.insert_slice %[[I1]] into %[[F]][1, 1] [4, 8] [1, 1]
// CHECK-NOT: tensor.concat
// BUF-LABEL: func.func @pad_of_concat
// BUF-COUNT-1: memref.alloc
// BUF-NOT: memref.alloc
// OFF-LABEL: func.func @pad_of_concat
// OFF-COUNT-4: memref.alloc
// BUF-LABEL: func.func @left_alone
func.func @pad_of_concat(%x: tensor<4x4xf32>, %w: tensor<4x4xf32>) -> tensor<6x10xf32> {
  %e0 = tensor.empty() : tensor<4x4xf32>
  %m0 = linalg.matmul ins(%x, %w : tensor<4x4xf32>, tensor<4x4xf32>) outs(%e0 : tensor<4x4xf32>) -> tensor<4x4xf32>
  %e1 = tensor.empty() : tensor<4x4xf32>
  %m1 = linalg.matmul ins(%x, %x : tensor<4x4xf32>, tensor<4x4xf32>) outs(%e1 : tensor<4x4xf32>) -> tensor<4x4xf32>
  %c = tensor.concat dim(1) %m0, %m1 : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x8xf32>
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %c low[1, 1] high[1, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %zero : f32
  } : tensor<4x8xf32> to tensor<6x10xf32>
  return %p : tensor<6x10xf32>
}

// -----

// Left alone: an input read again after the pad (its chain does not end
// at the pad), a dynamic shape, and a padding value computed inside the
// region.
// CHECK-LABEL: func.func @left_alone
// CHECK-COUNT-3: tensor.pad
func.func @left_alone(%x: tensor<4x4xf32>, %w: tensor<4x4xf32>, %d: tensor<?x4xf32>, %v: f32) -> (tensor<6x6xf32>, tensor<4x4xf32>, tensor<?x6xf32>, tensor<6x6xf32>) {
  %e = tensor.empty() : tensor<4x4xf32>
  %m = linalg.matmul ins(%x, %w : tensor<4x4xf32>, tensor<4x4xf32>) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %m low[1, 1] high[1, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %zero : f32
  } : tensor<4x4xf32> to tensor<6x6xf32>
  %pd = tensor.pad %d low[0, 1] high[0, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %zero : f32
  } : tensor<?x4xf32> to tensor<?x6xf32>
  %e2 = tensor.empty() : tensor<4x4xf32>
  %m2 = linalg.matmul ins(%x, %x : tensor<4x4xf32>, tensor<4x4xf32>) outs(%e2 : tensor<4x4xf32>) -> tensor<4x4xf32>
  %p2 = tensor.pad %m2 low[1, 1] high[1, 1] {
  ^bb0(%i: index, %j: index):
    %s = arith.addf %v, %v : f32
    tensor.yield %s : f32
  } : tensor<4x4xf32> to tensor<6x6xf32>
  return %p, %m, %pd, %p2 : tensor<6x6xf32>, tensor<4x4xf32>, tensor<?x6xf32>, tensor<6x6xf32>
}

// -----

// A concat of a concat (found by fuzz/diff shapes.py padcat, seed 5): the
// inner concat's buffer becomes a slice of the outer one, made before the
// inner buffer's first use (it was made after it: invalid IR).
// CHECK-LABEL: func.func @concat_of_concat
// CHECK: %[[OUTER:.*]] = tensor.empty() : tensor<12xf32>
// CHECK-NEXT: %[[INNER:.*]] = tensor.extract_slice %[[OUTER]][0] [8] [1]
// CHECK-NEXT: tensor.extract_slice %[[INNER]][0] [4] [1]
// CHECK-NOT: tensor.concat
// BUF-LABEL: func.func @concat_of_concat
// BUF-COUNT-1: memref.alloc
// BUF-NOT: memref.alloc
// BUF: return
func.func @concat_of_concat(%x: tensor<4xf32>) -> tensor<12xf32> {
  %c1 = arith.constant 1.0 : f32
  %e0 = tensor.empty() : tensor<4xf32>
  %a = linalg.fill ins(%c1 : f32) outs(%e0 : tensor<4xf32>) -> tensor<4xf32>
  %e1 = tensor.empty() : tensor<4xf32>
  %b = linalg.copy ins(%x : tensor<4xf32>) outs(%e1 : tensor<4xf32>) -> tensor<4xf32>
  %ab = tensor.concat dim(0) %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<8xf32>
  %e2 = tensor.empty() : tensor<4xf32>
  %c = linalg.copy ins(%x : tensor<4xf32>) outs(%e2 : tensor<4xf32>) -> tensor<4xf32>
  %abc = tensor.concat dim(0) %ab, %c : (tensor<8xf32>, tensor<4xf32>) -> tensor<12xf32>
  return %abc : tensor<12xf32>
}
