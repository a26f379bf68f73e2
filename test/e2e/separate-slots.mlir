// Each slot of a run-time arena takes its base pointer through
// memplan_rt_slot (separate-slots, on by default), so that LLVM sees the
// slots as distinct objects, as it sees two mallocs. With one base, the
// views sit at offsets computed at entry that LLVM cannot compare: a loop
// reading one slot with one stride and writing another with another (the
// transpose in @kernels) is an "Unknown data dependence" and stays scalar.
// An in-place pair (@pair: c takes b's bytes) keeps one slot: two bases for
// one buffer would make the vectorized loop's overlap check fail every time.
//
// RUN: memplan-opt %s --memplan-pipeline | FileCheck %s --check-prefix=IR
// RUN: memplan-opt %s --memplan-pipeline="separate-slots=false" | FileCheck %s --check-prefix=ONE
//
// RUN: memplan-opt %s --memplan-pipeline --memplan-lower-to-llvm | mlir-translate --mlir-to-llvmir | opt -O2 -mtriple=x86_64-unknown-linux-gnu -pass-remarks-analysis=loop-vectorize -o /dev/null 2> %t.slots.remarks
// RUN: FileCheck %s --check-prefix=VEC --input-file=%t.slots.remarks --allow-empty
// RUN: memplan-opt %s --memplan-pipeline="separate-slots=false" --memplan-lower-to-llvm | mlir-translate --mlir-to-llvmir | opt -O2 -mtriple=x86_64-unknown-linux-gnu -pass-remarks-analysis=loop-vectorize -o /dev/null 2> %t.one.remarks
// RUN: FileCheck %s --check-prefix=ONE-VEC --input-file=%t.one.remarks
//
// Run at n = 1, 7 and 1000, planned and not: the same output.
// RUN: memplan-opt %s --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --buffer-deallocation-pipeline --memplan-lower-to-llvm | mlir-runner -O2 -e main -entry-point-result=void -shared-libs=%runner_libs | sed -e 's/base@ = 0x[0-9a-f]*//' > %t.ref
// RUN: memplan-opt %s --memplan-pipeline --memplan-lower-to-llvm | mlir-runner -O2 -e main -entry-point-result=void -shared-libs=%runner_libs,%memplan_lib/libmemplan_runtime%shlibext | sed -e 's/base@ = 0x[0-9a-f]*//' > %t.slots
// RUN: diff %t.ref %t.slots
// The same with offsets the runtime plans (symbolic=false: memplan_rt_plan
// when the function runs), each buffer its own slot there.
// RUN: memplan-opt %s --memplan-pipeline="symbolic=false" --memplan-lower-to-llvm | mlir-runner -O2 -e main -entry-point-result=void -shared-libs=%runner_libs,%memplan_lib/libmemplan_runtime%shlibext | sed -e 's/base@ = 0x[0-9a-f]*//' > %t.rtplan
// RUN: diff %t.ref %t.rtplan
// RUN: memplan-opt %s --memplan-pipeline="symbolic=false" | FileCheck %s --check-prefix=RTPLAN
// RTPLAN-LABEL: func.func @kernels(
// RTPLAN: call @memplan_rt_plan
// RTPLAN-COUNT-3: call @memplan_rt_slot
// RUN: FileCheck %s --check-prefix=OUT --input-file=%t.slots

// IR-LABEL: func.func @pair(
// IR: %[[ARENA:.*]] = call @memplan_rt_alloc
// IR-DAG: %[[A:.*]] = call @memplan_rt_slot(%[[ARENA]])
// IR-DAG: %[[B:.*]] = call @memplan_rt_slot(%[[ARENA]])
// IR-NOT: call @memplan_rt_slot
// IR: memref.view %[[A]]
// IR: %[[VB:.*]] = memref.view %[[B]][%[[OB:.*]]]
// IR: %[[VC:.*]] = memref.view %[[B]][%[[OB]]]
// IR: ins(%[[VB]], %{{.*}} : {{.*}}) outs(%[[VC]] :
// IR-LABEL: func.func @kernels(
// IR-COUNT-3: call @memplan_rt_slot
// IR-NOT: call @memplan_rt_slot
// IR: return
// ONE-NOT: memplan_rt_slot

// VEC-NOT: Unknown data dependence
// ONE-VEC: Unknown data dependence

// Per n, @pair's sum over i < n of (2i + 1) * 2i (0 at n = 1, 406 at
// n = 7), then the sum of @kernels' c, which is 0 for every n: with x[i][j]
// = 16i + j, a = 2x and w[k][j] = k - j, b[i][j] = 32i (120 - 16j) + 2480 -
// 240j and c = b * a sums to 0 over j for each i. At n = 1000, float sums
// round: there only the diff above holds.
// OUT: data =
// OUT-NEXT: [0]
// OUT: data =
// OUT-NEXT: [0]
// OUT: data =
// OUT-NEXT: [406]
// OUT: data =
// OUT-NEXT: [0]
#id = affine_map<(d0) -> (d0)>
#sum = affine_map<(d0) -> ()>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#tr = affine_map<(d0, d1) -> (d1, d0)>
#sum2 = affine_map<(d0, d1) -> ()>

func.func private @printMemrefF32(tensor<*xf32>)

func.func @pair(%x: tensor<?xf32>) -> tensor<f32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?xf32>
  %e1 = tensor.empty(%n) : tensor<?xf32>
  %a = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<?xf32>) outs(%e1 : tensor<?xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = arith.addf %v, %v : f32
    linalg.yield %r : f32
  } -> tensor<?xf32>
  %e2 = tensor.empty(%n) : tensor<?xf32>
  %b = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%a : tensor<?xf32>) outs(%e2 : tensor<?xf32>) {
  ^bb0(%v: f32, %o: f32):
    %one = arith.constant 1.0 : f32
    %r = arith.addf %v, %one : f32
    linalg.yield %r : f32
  } -> tensor<?xf32>
  %e3 = tensor.empty(%n) : tensor<?xf32>
  %c = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%b, %a : tensor<?xf32>, tensor<?xf32>) outs(%e3 : tensor<?xf32>) {
  ^bb0(%u: f32, %v: f32, %o: f32):
    %r = arith.mulf %u, %v : f32
    linalg.yield %r : f32
  } -> tensor<?xf32>
  %z = arith.constant 0.0 : f32
  %e4 = tensor.empty() : tensor<f32>
  %f = linalg.fill ins(%z : f32) outs(%e4 : tensor<f32>) -> tensor<f32>
  %s = linalg.generic {indexing_maps = [#id, #sum], iterator_types = ["reduction"]}
      ins(%c : tensor<?xf32>) outs(%f : tensor<f32>) {
  ^bb0(%v: f32, %o: f32):
    %r = arith.addf %v, %o : f32
    linalg.yield %r : f32
  } -> tensor<f32>
  return %s : tensor<f32>
}

func.func @kernels(%x: tensor<?x16xf32>, %w: tensor<16x16xf32>) -> tensor<?x16xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x16xf32>
  %e1 = tensor.empty(%n) : tensor<?x16xf32>
  %a = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<?x16xf32>) outs(%e1 : tensor<?x16xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = arith.addf %v, %v : f32
    linalg.yield %r : f32
  } -> tensor<?x16xf32>
  %e2 = tensor.empty(%n) : tensor<?x16xf32>
  %z = arith.constant 0.0 : f32
  %f = linalg.fill ins(%z : f32) outs(%e2 : tensor<?x16xf32>) -> tensor<?x16xf32>
  %b = linalg.matmul ins(%a, %w : tensor<?x16xf32>, tensor<16x16xf32>) outs(%f : tensor<?x16xf32>) -> tensor<?x16xf32>
  %e3 = tensor.empty(%n) : tensor<16x?xf32>
  %t = linalg.generic {indexing_maps = [#tr, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%b : tensor<?x16xf32>) outs(%e3 : tensor<16x?xf32>) {
  ^bb0(%v: f32, %o: f32):
    linalg.yield %v : f32
  } -> tensor<16x?xf32>
  %e4 = tensor.empty(%n) : tensor<?x16xf32>
  %c = linalg.generic {indexing_maps = [#tr, #id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%t, %a : tensor<16x?xf32>, tensor<?x16xf32>) outs(%e4 : tensor<?x16xf32>) {
  ^bb0(%u: f32, %v: f32, %o: f32):
    %r = arith.mulf %u, %v : f32
    linalg.yield %r : f32
  } -> tensor<?x16xf32>
  return %c : tensor<?x16xf32>
}

func.func @run(%n: index) {
  %e = tensor.empty(%n) : tensor<?xf32>
  %x = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel"]}
      outs(%e : tensor<?xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %ii = arith.index_cast %i : index to i32
    %r = arith.sitofp %ii : i32 to f32
    linalg.yield %r : f32
  } -> tensor<?xf32>
  %s = call @pair(%x) : (tensor<?xf32>) -> tensor<f32>
  %su = tensor.cast %s : tensor<f32> to tensor<*xf32>
  call @printMemrefF32(%su) : (tensor<*xf32>) -> ()
  // x2[i][j] = 16 i + j, w[k][j] = k - j.
  %e2 = tensor.empty(%n) : tensor<?x16xf32>
  %x2 = linalg.generic {indexing_maps = [#id2], iterator_types = ["parallel", "parallel"]}
      outs(%e2 : tensor<?x16xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c16 = arith.constant 16 : index
    %i16 = arith.muli %i, %c16 : index
    %v = arith.addi %i16, %j : index
    %vi = arith.index_cast %v : index to i32
    %r = arith.sitofp %vi : i32 to f32
    linalg.yield %r : f32
  } -> tensor<?x16xf32>
  %ew = tensor.empty() : tensor<16x16xf32>
  %w = linalg.generic {indexing_maps = [#id2], iterator_types = ["parallel", "parallel"]}
      outs(%ew : tensor<16x16xf32>) {
  ^bb0(%o: f32):
    %k = linalg.index 0 : index
    %j = linalg.index 1 : index
    %d = arith.subi %k, %j : index
    %di = arith.index_cast %d : index to i32
    %r = arith.sitofp %di : i32 to f32
    linalg.yield %r : f32
  } -> tensor<16x16xf32>
  %k = call @kernels(%x2, %w) : (tensor<?x16xf32>, tensor<16x16xf32>) -> tensor<?x16xf32>
  %z = arith.constant 0.0 : f32
  %e5 = tensor.empty() : tensor<f32>
  %f = linalg.fill ins(%z : f32) outs(%e5 : tensor<f32>) -> tensor<f32>
  %ks = linalg.generic {indexing_maps = [#id2, #sum2], iterator_types = ["reduction", "reduction"]}
      ins(%k : tensor<?x16xf32>) outs(%f : tensor<f32>) {
  ^bb0(%v: f32, %o: f32):
    %r = arith.addf %v, %o : f32
    linalg.yield %r : f32
  } -> tensor<f32>
  %ksu = tensor.cast %ks : tensor<f32> to tensor<*xf32>
  call @printMemrefF32(%ksu) : (tensor<*xf32>) -> ()
  return
}

func.func @main() {
  %c1 = arith.constant 1 : index
  %c7 = arith.constant 7 : index
  %c1000 = arith.constant 1000 : index
  call @run(%c1) : (index) -> ()
  call @run(%c7) : (index) -> ()
  call @run(%c1000) : (index) -> ()
  return
}
