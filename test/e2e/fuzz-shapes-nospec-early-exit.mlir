// Found by the differential fuzzer (fuzz/diff shapes family, scene
// nospec-exit; fuzz/diff/repros/shapes-nospec-early-exit-speculation.mlir):
// run-time planning sized @e's arena at its entry, n*n elements of ^work
// included, though for n = 8388608 the cf.cond_br returns early: the planned
// program aborted asking for 2^49 bytes. Fixed by 9b21954 (allocs off the
// entry block are not planned at the entry).
//
// RUN: memplan-opt %s --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" %lower_to_llvm | mlir-runner -e main -entry-point-result=void -shared-libs=%runner_libs > %t.ref
// RUN: memplan-opt %s --memplan-pipeline="deallocate=false runtime=true" 2>/dev/null %lower_to_llvm | mlir-runner -e main -entry-point-result=void -shared-libs=%runner_libs,%memplan_lib/libmemplan_runtime%shlibext > %t.planned
// RUN: diff %t.ref %t.planned
// RUN: memplan-opt %s --memplan-pipeline="runtime=true" 2>/dev/null --convert-bufferization-to-memref %lower_to_llvm | mlir-runner -e main -entry-point-result=void -shared-libs=%runner_libs,%memplan_lib/libmemplan_runtime%shlibext > %t.dealloc
// RUN: diff %t.ref %t.dealloc
// RUN: FileCheck %s --input-file=%t.planned
// CHECK: 13
// CHECK-NEXT: 7
// CHECK-NEXT: 1609
module {
  func.func private @printI64(i64)
  func.func private @printNewline()
  func.func private @e(%n: index) -> i64 {
    %c0 = arith.constant 0 : index
    %c1000 = arith.constant 1000 : index
    %big = arith.cmpi uge, %n, %c1000 : index
    %z = arith.constant 7 : i64
    cf.cond_br %big, ^ret, ^work
  ^ret:
    return %z : i64
  ^work:
    %sz = arith.muli %n, %n : index
    %e = tensor.empty(%sz) : tensor<?xi32>
    %k = arith.constant 3 : i32
    %f = linalg.fill ins(%k : i32) outs(%e : tensor<?xi32>) -> tensor<?xi32>
    %g = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%f : tensor<?xi32>) outs(%e : tensor<?xi32>) {
    ^bb0(%a: i32, %o: i32):
      %s = arith.addi %a, %a : i32
      linalg.yield %s : i32
    } -> tensor<?xi32>
    %e2 = tensor.empty(%n) : tensor<?xi32>
    %f2 = linalg.fill ins(%k : i32) outs(%e2 : tensor<?xi32>) -> tensor<?xi32>
    %v = tensor.extract %g[%c0] : tensor<?xi32>
    %v2 = tensor.extract %f2[%c0] : tensor<?xi32>
    %v3 = arith.addi %v, %v2 : i32
    %w = arith.extsi %v3 : i32 to i64
    %nn = arith.index_cast %sz : index to i64
    %r = arith.addi %w, %nn : i64
    return %r : i64
  }
  func.func @main() {
    %c2 = arith.constant 2 : index
    %c40 = arith.constant 40 : index
    %cb = arith.constant 8388608 : index
    %r1 = call @e(%c2) : (index) -> i64
    call @printI64(%r1) : (i64) -> ()
    call @printNewline() : () -> ()
    %r2 = call @e(%cb) : (index) -> i64
    call @printI64(%r2) : (i64) -> ()
    call @printNewline() : () -> ()
    %r3 = call @e(%c40) : (index) -> i64
    call @printI64(%r3) : (i64) -> ()
    call @printNewline() : () -> ()
    return
  }
}
