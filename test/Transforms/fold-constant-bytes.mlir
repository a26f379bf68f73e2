// tensor-mem-hoist-constants folds layout ops of constant data on raw bytes:
// dense_resource blobs (which MLIR's folders do not read) and dense
// attributes of any size. A fold off (fold-bytes=false) leaves every op here.
// RUN: memplan-opt %s --split-input-file --tensor-mem-hoist-constants="mode=speed hoist=false" | FileCheck %s
// RUN: memplan-opt %s --split-input-file --tensor-mem-hoist-constants="mode=speed hoist=false fold-limit-bytes=0" | FileCheck %s --check-prefix=LIMIT
// RUN: memplan-opt %s --split-input-file --tensor-mem-hoist-constants="mode=speed hoist=false fold-bytes=false fold-limit-bytes=0" | FileCheck %s --check-prefix=OFF

// A linalg.transpose of a blob: a new blob, transposed; the original, read
// by nothing else, is gone.
// CHECK-LABEL: func.func @blob_transpose
// CHECK:         %[[C:.*]] = arith.constant dense_resource<[[B:memplan_folded[_0-9]*]]> : tensor<3x2xf32>
// CHECK-NOT:     linalg.transpose
// CHECK:         linalg.matmul ins(%{{.*}}, %[[C]] :
// CHECK:         dialect_resources
// CHECK-NOT:     w23:
// CHECK:         [[B]]: "0x040000000000803F00008040000000400000A040000040400000C040"
// CHECK-NOT:     w23:
// OFF-LABEL: func.func @blob_transpose
// OFF:         linalg.transpose
func.func @blob_transpose(%x: tensor<1x3xf32>, %acc: tensor<1x2xf32>) -> tensor<1x2xf32> {
  %w = arith.constant dense_resource<w23> : tensor<2x3xf32>
  %e = tensor.empty() : tensor<3x2xf32>
  %t = linalg.transpose ins(%w : tensor<2x3xf32>) outs(%e : tensor<3x2xf32>) permutation = [1, 0]
  %r = linalg.matmul ins(%x, %t : tensor<1x3xf32>, tensor<3x2xf32>) outs(%acc : tensor<1x2xf32>) -> tensor<1x2xf32>
  return %r : tensor<1x2xf32>
}
{-#
  dialect_resources: {
    builtin: {
      w23: "0x040000000000803F0000004000004040000080400000A0400000C040"
    }
  }
#-}

// -----

// A permuting generic over a dense i32 attribute, rank 3: a dense attribute
// when small, a blob above fold-limit-bytes (no size limit on the fold).
// out[a, b, c] = in[b, c, a].
// CHECK-LABEL: func.func @dense_permute3
// CHECK:         arith.constant dense<{{\[}}{{\[}}[0, 4, 8], [12, 16, 20]], {{\[}}[1, 5, 9], [13, 17, 21]], {{\[}}[2, 6, 10], [14, 18, 22]], {{\[}}[3, 7, 11], [15, 19, 23]]]> : tensor<4x2x3xi32>
// CHECK-NOT:     linalg.generic
// LIMIT-LABEL: func.func @dense_permute3
// LIMIT:         arith.constant dense_resource<[[B:memplan_folded[_0-9]*]]> : tensor<4x2x3xi32>
// LIMIT-NOT:     linalg.generic
// LIMIT:         [[B]]: "0x04000000000000000400000008000000
// OFF-LABEL: func.func @dense_permute3
// OFF:         linalg.generic
#in = affine_map<(a, b, c) -> (b, c, a)>
#out = affine_map<(a, b, c) -> (a, b, c)>
func.func @dense_permute3(%x: tensor<4x2x3xi32>, %o: tensor<4x2x3xi32>) -> tensor<4x2x3xi32> {
  %w = arith.constant dense<[[[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]], [[12, 13, 14, 15], [16, 17, 18, 19], [20, 21, 22, 23]]]> : tensor<2x3x4xi32>
  %e = tensor.empty() : tensor<4x2x3xi32>
  %t = linalg.generic {indexing_maps = [#in, #out], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%w : tensor<2x3x4xi32>) outs(%e : tensor<4x2x3xi32>) {
  ^bb0(%a: i32, %b: i32):
    linalg.yield %a : i32
  } -> tensor<4x2x3xi32>
  %r = linalg.add ins(%t, %x : tensor<4x2x3xi32>, tensor<4x2x3xi32>) outs(%o : tensor<4x2x3xi32>) -> tensor<4x2x3xi32>
  return %r : tensor<4x2x3xi32>
}

// -----

// A transpose that adds a unit dimension (torch's 768x768 -> 1x768x768),
// f16: two-byte elements.
// CHECK-LABEL: func.func @blob_unit_dim_f16
// CHECK:         arith.constant dense_resource<[[B:memplan_folded[_0-9]*]]> : tensor<1x3x2xf16>
// CHECK-NOT:     linalg.generic
// CHECK:         [[B]]: "0x02000000003C00440040004500420046"
// OFF-LABEL: func.func @blob_unit_dim_f16
// OFF:         linalg.generic
#in = affine_map<(u, i, j) -> (j, i)>
#out = affine_map<(u, i, j) -> (u, i, j)>
func.func @blob_unit_dim_f16(%x: tensor<1x3x2xf16>, %o: tensor<1x3x2xf16>) -> tensor<1x3x2xf16> {
  %w = arith.constant dense_resource<h23> : tensor<2x3xf16>
  %e = tensor.empty() : tensor<1x3x2xf16>
  %t = linalg.generic {indexing_maps = [#in, #out], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%w : tensor<2x3xf16>) outs(%e : tensor<1x3x2xf16>) {
  ^bb0(%a: f16, %b: f16):
    linalg.yield %a : f16
  } -> tensor<1x3x2xf16>
  %r = linalg.add ins(%t, %x : tensor<1x3x2xf16>, tensor<1x3x2xf16>) outs(%o : tensor<1x3x2xf16>) -> tensor<1x3x2xf16>
  return %r : tensor<1x3x2xf16>
}
{-#
  dialect_resources: {
    builtin: {
      h23: "0x02000000003C00400042004400450046"
    }
  }
#-}

// -----

// Reshapes of a blob share its bytes under the new type (nothing copied, no
// new blob); of a dense attribute, the same elements reshaped.
// CHECK-LABEL: func.func @reshapes
// CHECK-NOT:     tensor.collapse_shape
// CHECK:         %[[A:.*]] = arith.constant dense_resource<w6> : tensor<6xf32>
// CHECK:         linalg.add ins(%[[A]],
// CHECK-NOT:     tensor.reshape
// CHECK:         %[[B:.*]] = arith.constant dense_resource<w6> : tensor<3x2xf32>
// CHECK:         linalg.add ins(%[[B]],
// CHECK:         dialect_resources
// CHECK-NEXT:      builtin
// CHECK-NEXT:        w6: "0x040000000000803F0000004000004040000080400000A0400000C040"
// CHECK-NEXT:      }
// LIMIT-LABEL: func.func @reshapes
// LIMIT:         arith.constant dense<{{\[}}[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
// LIMIT-NOT:     tensor.expand_shape
// OFF-LABEL: func.func @reshapes
// OFF:         tensor.collapse_shape
// OFF:         tensor.reshape
// OFF:         tensor.expand_shape
func.func @reshapes(%x: tensor<6xf32>, %y: tensor<3x2xf32>, %z: tensor<2x3xi32>) -> (tensor<6xf32>, tensor<3x2xf32>, tensor<2x3xi32>) {
  %w = arith.constant dense_resource<w6> : tensor<2x3xf32>
  %c = tensor.collapse_shape %w [[0, 1]] : tensor<2x3xf32> into tensor<6xf32>
  %a = linalg.add ins(%c, %x : tensor<6xf32>, tensor<6xf32>) outs(%x : tensor<6xf32>) -> tensor<6xf32>
  %s = arith.constant dense<[3, 2]> : tensor<2xi64>
  %r = tensor.reshape %w(%s) : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<3x2xf32>
  %b = linalg.add ins(%r, %y : tensor<3x2xf32>, tensor<3x2xf32>) outs(%y : tensor<3x2xf32>) -> tensor<3x2xf32>
  %d = arith.constant dense<[1, 2, 3, 4, 5, 6]> : tensor<6xi32>
  %ex = tensor.expand_shape %d [[0, 1]] output_shape [2, 3] : tensor<6xi32> into tensor<2x3xi32>
  %e = linalg.add ins(%ex, %z : tensor<2x3xi32>, tensor<2x3xi32>) outs(%z : tensor<2x3xi32>) -> tensor<2x3xi32>
  return %a, %b, %e : tensor<6xf32>, tensor<3x2xf32>, tensor<2x3xi32>
}
{-#
  dialect_resources: {
    builtin: {
      w6: "0x040000000000803F0000004000004040000080400000A0400000C040"
    }
  }
#-}

// -----

// An elided blob has no bytes: a transpose of it stays (a reshape of it
// would only retype it; see @reshapes).
// CHECK-LABEL: func.func @elided
// CHECK:         linalg.transpose
// OFF-LABEL: func.func @elided
func.func @elided(%x: tensor<1x3xf32>, %acc: tensor<1x2xf32>) -> tensor<1x2xf32> {
  %w = arith.constant dense_resource<__elided__> : tensor<2x3xf32>
  %e = tensor.empty() : tensor<3x2xf32>
  %t = linalg.transpose ins(%w : tensor<2x3xf32>) outs(%e : tensor<3x2xf32>) permutation = [1, 0]
  %r = linalg.matmul ins(%x, %t : tensor<1x3xf32>, tensor<3x2xf32>) outs(%acc : tensor<1x2xf32>) -> tensor<1x2xf32>
  return %r : tensor<1x2xf32>
}
