// A dynamic-size tensor carried by an scf.while and used after it. The
// buffer the before region makes is freed (ownership-based deallocation) in
// the after region and after the loop, through values the loop carries:
// tensor-mem-lower-runtime freed its runtime pointer there, out of scope
// (invalid IR: operand does not dominate its use). It is left to
// memref.alloc now, with a remark, as are the loop's other buffers.
//
// RUN: memplan-opt %s --one-shot-bufferize="bufferize-function-boundaries allow-return-allocs-from-loops" %lower_to_llvm | mlir-runner -e main -entry-point-result=void -shared-libs=%runner_libs | sed -e 's/base@ = 0x[0-9a-f]*//' > %t.ref
// RUN: memplan-opt %s --memplan-pipeline="remarks=true" -o %t.mlir 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: memplan-opt %t.mlir %lower_to_llvm | mlir-runner -e main -entry-point-result=void -shared-libs=%runner_libs,%memplan_lib/libmemplan_runtime%shlibext | sed -e 's/base@ = 0x[0-9a-f]*//' > %t.out
// RUN: diff %t.ref %t.out
// RUN: FileCheck %s < %t.out
// RUN: memplan-opt %s --memplan-pipeline="symbolic=false inplace=false" %lower_to_llvm | mlir-runner -e main -entry-point-result=void -shared-libs=%runner_libs,%memplan_lib/libmemplan_runtime%shlibext | sed -e 's/base@ = 0x[0-9a-f]*//' | diff %t.ref -

// REMARK-DAG: :40:5: remark: tensor-mem-lower-runtime: left alone: freed through a value a loop or a branch carries, where the allocation's pointer is not at hand
// REMARK-DAG: :32:9: remark: tensor-mem-lower-runtime: left alone: freed through a value that may be another buffer

// x = 1.5 (8 of them); t2 = x * x = 2.25, doubled 3 times = 18, plus 1.
// CHECK: data =
// CHECK-NEXT: [19, {{ *}}19, {{ *}}19, {{ *}}19, {{ *}}19, {{ *}}19, {{ *}}19, {{ *}}19]
// CHECK: data =
// CHECK-NEXT: [1.5,
#id = affine_map<(i) -> (i)>
func.func private @printMemrefF32(tensor<*xf32>)
memref.global "private" @lim : memref<1xindex> = dense<[3]>
func.func @f(%t: tensor<?xf32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %g = memref.get_global @lim : memref<1xindex>
  %lim = memref.load %g[%c0] : memref<1xindex>
  %d0 = tensor.dim %t, %c0 : tensor<?xf32>
  %e0 = tensor.empty(%d0) : tensor<?xf32>
  %t2 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%t : tensor<?xf32>) outs(%e0 : tensor<?xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.mulf %a, %a : f32
    linalg.yield %r : f32
  } -> tensor<?xf32>
  %w:2 = scf.while (%u = %t2, %j = %c0) : (tensor<?xf32>, index) -> (tensor<?xf32>, index) {
    %lt = arith.cmpi ult, %j, %lim : index
    scf.condition(%lt) %u, %j : tensor<?xf32>, index
  } do {
  ^bb0(%u: tensor<?xf32>, %j: index):
    %d = tensor.dim %u, %c0 : tensor<?xf32>
    %e = tensor.empty(%d) : tensor<?xf32>
    %v = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%u : tensor<?xf32>) outs(%e : tensor<?xf32>) {
    ^bb0(%a: f32, %o: f32):
      %r = arith.addf %a, %a : f32
      linalg.yield %r : f32
    } -> tensor<?xf32>
    %j1 = arith.addi %j, %c1 : index
    scf.yield %v, %j1 : tensor<?xf32>, index
  }
  %d4 = tensor.dim %w#0, %c0 : tensor<?xf32>
  %e4 = tensor.empty(%d4) : tensor<?xf32>
  %res = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%w#0 : tensor<?xf32>) outs(%e4 : tensor<?xf32>) {
  ^bb0(%a: f32, %o: f32):
    %one = arith.constant 1.0 : f32
    %q = arith.addf %a, %one : f32
    linalg.yield %q : f32
  } -> tensor<?xf32>
  return %res : tensor<?xf32>
}
func.func @main() {
  %one = arith.constant 1.5 : f32
  %c8 = arith.constant 8 : index
  %e = tensor.empty(%c8) : tensor<?xf32>
  %x = linalg.fill ins(%one : f32) outs(%e : tensor<?xf32>) -> tensor<?xf32>
  %r = func.call @f(%x) : (tensor<?xf32>) -> tensor<?xf32>
  %u = tensor.cast %r : tensor<?xf32> to tensor<*xf32>
  func.call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  %u2 = tensor.cast %x : tensor<?xf32> to tensor<*xf32>
  func.call @printMemrefF32(%u2) : (tensor<*xf32>) -> ()
  return
}
