// Constants folded on raw bytes compute what the program computed at run
// time, bit for bit: a weight blob scaled by 0.1 and transposed by one
// generic and read by a matmul, a bias blob reshaped, an i32 blob converted with
// sitofp (16777217 rounds to even). Run unfolded, folded by the pass
// (mode=speed, and the default memory mode), and through memplan-pipeline;
// every output (its values and its bits) is the same. IR checks that each
// fold happened (they fail with fold-bytes=false).
//
// RUN: memplan-opt %s --one-shot-bufferize="bufferize-function-boundaries" %lower_to_llvm | mlir-runner -e main -entry-point-result=void -shared-libs=%runner_libs | sed -e 's/base@ = 0x[0-9a-f]*//' > %t.ref
// RUN: FileCheck %s < %t.ref
// RUN: memplan-opt %s --tensor-mem-hoist-constants="mode=speed" -o %t.speed.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.speed.mlir
// RUN: memplan-opt %t.speed.mlir --one-shot-bufferize="bufferize-function-boundaries" %lower_to_llvm | mlir-runner -e main -entry-point-result=void -shared-libs=%runner_libs | sed -e 's/base@ = 0x[0-9a-f]*//' > %t.speed
// RUN: diff %t.ref %t.speed
// RUN: memplan-opt %s --tensor-mem-hoist-constants -o %t.mem.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.mem.mlir
// RUN: memplan-opt %t.mem.mlir --one-shot-bufferize="bufferize-function-boundaries" %lower_to_llvm | mlir-runner -e main -entry-point-result=void -shared-libs=%runner_libs | sed -e 's/base@ = 0x[0-9a-f]*//' > %t.mem
// RUN: diff %t.ref %t.mem
// RUN: memplan-opt %s --memplan-pipeline %lower_to_llvm | mlir-runner -e main -entry-point-result=void -shared-libs=%runner_libs | sed -e 's/base@ = 0x[0-9a-f]*//' > %t.pipe
// RUN: diff %t.ref %t.pipe

// The values printed: x (0.1 W)^T + b + float(i), then their bits.
// CHECK: Unranked Memref{{.*}}sizes = [2, 3]{{.*}}data =
// CHECK-NEXT: [{{\[}}
// CHECK: Unranked Memref{{.*}}sizes = [2, 3]{{.*}}data =
// CHECK-NEXT: [{{\[}}

// IR-LABEL: func.func @forward
// IR-NOT: linalg.generic
// IR: linalg.matmul
// IR-NOT: tensor.expand_shape
// IR: arith.constant dense_resource<b6> : tensor<2x3xf32>
// IR-NOT: linalg.generic
// IR: arith.constant dense_resource<memplan_folded{{[_0-9]*}}> : tensor<2x3xf32>
// IR: linalg.generic
// IR-NOT: w34:
// IR-NOT: i6:

#id = affine_map<(d0, d1) -> (d0, d1)>
#t = affine_map<(d0, d1) -> (d1, d0)>

func.func private @printMemrefF32(tensor<*xf32>)
func.func private @printMemrefI32(tensor<*xi32>)

func.func @forward(%x: tensor<2x4xf32>) -> tensor<2x3xf32> {
  %w = arith.constant dense_resource<w34> : tensor<3x4xf32>
  %scale = arith.constant 0.1 : f32
  %e = tensor.empty() : tensor<4x3xf32>
  %wt = linalg.generic {indexing_maps = [#t, #id], iterator_types = ["parallel", "parallel"]}
      ins(%w : tensor<3x4xf32>) outs(%e : tensor<4x3xf32>) {
  ^bb0(%a: f32, %o: f32):
    %c = arith.mulf %a, %scale : f32
    linalg.yield %c : f32
  } -> tensor<4x3xf32>
  %zero = arith.constant 0.0 : f32
  %o = tensor.empty() : tensor<2x3xf32>
  %f = linalg.fill ins(%zero : f32) outs(%o : tensor<2x3xf32>) -> tensor<2x3xf32>
  %m = linalg.matmul ins(%x, %wt : tensor<2x4xf32>, tensor<4x3xf32>) outs(%f : tensor<2x3xf32>) -> tensor<2x3xf32>
  %b = arith.constant dense_resource<b6> : tensor<6xf32>
  %b2 = tensor.expand_shape %b [[0, 1]] output_shape [2, 3] : tensor<6xf32> into tensor<2x3xf32>
  %i = arith.constant dense_resource<i6> : tensor<2x3xi32>
  %ie = tensor.empty() : tensor<2x3xf32>
  %fi = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%i : tensor<2x3xi32>) outs(%ie : tensor<2x3xf32>) {
  ^bb0(%a: i32, %o2: f32):
    %c = arith.sitofp %a : i32 to f32
    linalg.yield %c : f32
  } -> tensor<2x3xf32>
  %o3 = tensor.empty() : tensor<2x3xf32>
  %r = linalg.generic {indexing_maps = [#id, #id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%m, %b2, %fi : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>) outs(%o3 : tensor<2x3xf32>) {
  ^bb0(%p: f32, %q: f32, %s: f32, %out: f32):
    %u = arith.addf %p, %q : f32
    %v = arith.addf %u, %s : f32
    linalg.yield %v : f32
  } -> tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}

func.func @main() {
  %x = arith.constant dense<[[0.1, 0.2, 0.3, 0.4], [1.0, -1.0, 0.5, 2.0]]> : tensor<2x4xf32>
  %r = func.call @forward(%x) : (tensor<2x4xf32>) -> tensor<2x3xf32>
  %e = tensor.empty() : tensor<2x3xi32>
  %bits = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%r : tensor<2x3xf32>) outs(%e : tensor<2x3xi32>) {
  ^bb0(%a: f32, %o: i32):
    %c = arith.bitcast %a : f32 to i32
    linalg.yield %c : i32
  } -> tensor<2x3xi32>
  %u = tensor.cast %r : tensor<2x3xf32> to tensor<*xf32>
  func.call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  %ub = tensor.cast %bits : tensor<2x3xi32> to tensor<*xi32>
  func.call @printMemrefI32(%ub) : (tensor<*xi32>) -> ()
  return
}
{-#
  dialect_resources: {
    builtin: {
      w34: "0x04000000CDCCCC3D000080BE9A99993E0000C03F000000C03333333FCDCC4C3D666666BFCDCC8C3FCDCC4C3E9A9919BFC3F5A83E",
      b6: "0x040000000000003F0000A0BF000000400000003E00006040000040BF",
      i6: "0x0400000001000000F9FFFFFF0100000164000000FDFFFFFE2A000000"
    }
  }
#-}
