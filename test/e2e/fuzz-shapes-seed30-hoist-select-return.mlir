// Found by the differential fuzzer (fuzz/diff shapes family, seed 30 and
// others of scene `hoist`; fuzz/diff/repros/shapes-seed30-hoist-select-return-written.mlir):
// a constant-derived tensor reaches `return` through arith.select and
// tensor.cast; the caller writes into the result in place and calls again.
// Folded (deallocate=false), the caller wrote into a read-only constant
// global: segfault. Hoisted (fold-limit-bytes=0, hoist-constants=speed), the second call saw the
// first caller's write (976 instead of -24). Fixed by 65c98c6.
//
// RUN: memplan-opt %s --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" %lower_to_llvm | mlir-runner -e main -entry-point-result=void -shared-libs=%runner_libs > %t.ref
// RUN: memplan-opt %s --memplan-pipeline="deallocate=false" %lower_to_llvm | mlir-runner -e main -entry-point-result=void -shared-libs=%runner_libs > %t.folded
// RUN: diff %t.ref %t.folded
// RUN: memplan-opt %s --memplan-pipeline="deallocate=false fold-limit-bytes=0 hoist-constants=speed" %lower_to_llvm | mlir-runner -e main -entry-point-result=void -shared-libs=%runner_libs > %t.hoisted
// RUN: diff %t.ref %t.hoisted
// RUN: memplan-opt %s --memplan-pipeline="fold-limit-bytes=0 hoist-constants=speed" --convert-bufferization-to-memref %lower_to_llvm | mlir-runner -e main -entry-point-result=void -shared-libs=%runner_libs > %t.dealloc
// RUN: diff %t.ref %t.dealloc
// RUN: memplan-opt %s --tensor-mem-hoist-constants="fold-limit-bytes=0 mode=speed" --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" %lower_to_llvm | mlir-runner -e main -entry-point-result=void -shared-libs=%runner_libs > %t.pass
// RUN: diff %t.ref %t.pass
// RUN: FileCheck %s --input-file=%t.hoisted
// CHECK: 976
// CHECK-NEXT: -24
module {
  func.func private @printI64(i64)
  func.func private @printNewline()
  func.func private @h(%s: i1, %y: tensor<4xi32>) -> tensor<4xi32> {
    %k = arith.constant dense<[-24, -15, 34, 43]> : tensor<4xi32>
    %e = tensor.empty() : tensor<4xi32>
    %t = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%k : tensor<4xi32>) outs(%e : tensor<4xi32>) {
    ^bb0(%a: i32, %o: i32):
      linalg.yield %a : i32
    } -> tensor<4xi32>
    %sel = arith.select %s, %t, %y : tensor<4xi32>
    %c1 = tensor.cast %sel : tensor<4xi32> to tensor<?xi32>
    %c2 = tensor.cast %c1 : tensor<?xi32> to tensor<4xi32>
    return %c2 : tensor<4xi32>
  }
  func.func private @show(%t: tensor<4xi32>) {
    %c0 = arith.constant 0 : index
    %v = tensor.extract %t[%c0] : tensor<4xi32>
    %w = arith.extsi %v : i32 to i64
    func.call @printI64(%w) : (i64) -> ()
    func.call @printNewline() : () -> ()
    return
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %s = arith.cmpi ult, %c0, %c1 : index
    %ey = tensor.empty() : tensor<4xi32>
    %y = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%ey : tensor<4xi32>) {
    ^bb0(%o: i32):
      %i = linalg.index 0 : index
      %ii = arith.index_cast %i : index to i32
      linalg.yield %ii : i32
    } -> tensor<4xi32>
    %v = arith.constant 1000 : i32
    %r = func.call @h(%s, %y) : (i1, tensor<4xi32>) -> tensor<4xi32>
    %w = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%r : tensor<4xi32>) {
    ^bb0(%o: i32):
      %q = arith.addi %o, %v : i32
      linalg.yield %q : i32
    } -> tensor<4xi32>
    func.call @show(%w) : (tensor<4xi32>) -> ()
    %y2 = arith.constant dense<9> : tensor<4xi32>
    %r2 = func.call @h(%s, %y2) : (i1, tensor<4xi32>) -> tensor<4xi32>
    func.call @show(%r2) : (tensor<4xi32>) -> ()
    return
  }
}
