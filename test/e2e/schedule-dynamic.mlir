// Blocks with dynamic sizes ordered by tensor-mem-schedule
// (Transforms/schedule-dynamic.mlir has the orders and peaks) compute what
// they compute unordered, at several sizes. The planned program runs
// through --memplan-pipeline (dynamic buffers from memplan_runtime), with
// and without the order.
//
// RUN: memplan-opt %s --memplan-pipeline="schedule=false" %lower_vector_to_llvm | mlir-runner -e main -entry-point-result=void -shared-libs=%runner_libs,%memplan_lib/libmemplan_runtime%shlibext > %t.ref
// RUN: memplan-opt %s --memplan-pipeline %lower_vector_to_llvm | mlir-runner -e main -entry-point-result=void -shared-libs=%runner_libs,%memplan_lib/libmemplan_runtime%shlibext > %t.sched
// RUN: diff %t.ref %t.sched
// RUN: FileCheck %s < %t.sched
// The order changes @attention and @cache_other here too:
// RUN: memplan-opt %s --tensor-mem-schedule=remarks=true -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// REMARK: 'attention' model peak 33792 -> 17412 bytes (1 blocks with a lower peak
// REMARK: 'cache_same' model peak 331780 -> 331780 bytes (0 blocks with a lower peak
// REMARK: 'cache_other' model peak 331780 -> 327684 bytes (1 blocks with a lower peak
//
// @attention with K = V = 1: K^T = 2, S = 16 * 2 = 32 per row, P = -32,
// O = sum over n rows and 16 columns of P * V^T = n * 16 * (-32 * 3) = -1536n.
// CHECK: -1536
// CHECK-NEXT: -10752
// CHECK-NEXT: -49152
// @cache_same with X = 2, @c all 1 at first: O = BIG + R1 + 64 * R2 column 0,
// where R1 (n x 64) and R2 are rows of @c before the write, BIG (n x 256)
// after it (Y = 3X = 6). n = 3: 3*256*6 + 3*64 + 64*3 = 4992; then n = 1
// (row 0 now 6): 256*6 + 64*6 + 64*6 = 2304. Were R2 read after the write,
// the first would be 5952.
// CHECK-NEXT: 4992
// CHECK-NEXT: 2304
// @cache_other writes @d: @c keeps what @cache_same wrote (rows 0..2 = 6),
// so n = 3: 3*256*6 + 192*6 + 192*6 = 6912.
// CHECK-NEXT: 6912

memref.global "private" @c : memref<8x4xf32> = dense<1.0>
memref.global "private" @d : memref<8x4xf32> = dense<1.0>

#m = affine_map<(d0, d1) -> (d0, d1)>
#r = affine_map<(d0, d1) -> (d0)>
#v = affine_map<(d0) -> (d0)>
#s = affine_map<(d0) -> ()>
func.func @attention(%k: tensor<?x16xf32>, %v: tensor<?x16xf32>, %n: index) -> tensor<f32> {
  %ekt = tensor.empty(%n) : tensor<?x16xf32>
  %kt = linalg.generic {indexing_maps = [#m, #m], iterator_types = ["parallel", "parallel"]} ins(%k : tensor<?x16xf32>) outs(%ekt : tensor<?x16xf32>) {
  ^bb0(%i: f32, %o: f32):
    %c = arith.constant 2.0 : f32
    %y = arith.mulf %i, %c : f32
    linalg.yield %y : f32
  } -> tensor<?x16xf32>
  %evt = tensor.empty(%n) : tensor<?x16xf32>
  %vt = linalg.generic {indexing_maps = [#m, #m], iterator_types = ["parallel", "parallel"]} ins(%v : tensor<?x16xf32>) outs(%evt : tensor<?x16xf32>) {
  ^bb0(%i: f32, %o: f32):
    %c = arith.constant 3.0 : f32
    %y = arith.mulf %i, %c : f32
    linalg.yield %y : f32
  } -> tensor<?x16xf32>
  %zero = arith.constant 0.0 : f32
  %es = tensor.empty(%n) : tensor<?xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<?xf32>) -> tensor<?xf32>
  %sc = linalg.generic {indexing_maps = [#m, #r], iterator_types = ["parallel", "reduction"]} ins(%kt : tensor<?x16xf32>) outs(%zs : tensor<?xf32>) {
  ^bb0(%i: f32, %o: f32):
    %y = arith.addf %i, %o : f32
    linalg.yield %y : f32
  } -> tensor<?xf32>
  %ep = tensor.empty(%n) : tensor<?xf32>
  %p = linalg.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]} ins(%sc : tensor<?xf32>) outs(%ep : tensor<?xf32>) {
  ^bb0(%i: f32, %o: f32):
    %y = arith.negf %i : f32
    linalg.yield %y : f32
  } -> tensor<?xf32>
  %eo = tensor.empty() : tensor<f32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<f32>) -> tensor<f32>
  %o = linalg.generic {indexing_maps = [#r, #m, affine_map<(d0, d1) -> ()>], iterator_types = ["reduction", "reduction"]} ins(%p, %vt : tensor<?xf32>, tensor<?x16xf32>) outs(%zo : tensor<f32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %y = arith.mulf %a, %b : f32
    %z = arith.addf %y, %o : f32
    linalg.yield %z : f32
  } -> tensor<f32>
  return %o : tensor<f32>
}

func.func @cache_same(%x: tensor<?x4xf32>, %n: index) -> tensor<f32> {
  %g = memref.get_global @c : memref<8x4xf32>
  %t = bufferization.to_tensor %g restrict : memref<8x4xf32> to tensor<8x4xf32>
  %s = tensor.extract_slice %t[0, 0] [%n, 4] [1, 1] : tensor<8x4xf32> to tensor<?x4xf32>
  %e1 = tensor.empty(%n) : tensor<?x64xf32>
  %r1 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%s : tensor<?x4xf32>) outs(%e1 : tensor<?x64xf32>) {
  ^bb0(%i: f32, %o: f32):
    linalg.yield %i : f32
  } -> tensor<?x64xf32>
  %e2 = tensor.empty(%n) : tensor<?x4xf32>
  %r2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%s : tensor<?x4xf32>) outs(%e2 : tensor<?x4xf32>) {
  ^bb0(%i: f32, %o: f32):
    linalg.yield %i : f32
  } -> tensor<?x4xf32>
  %ey = tensor.empty(%n) : tensor<?x4xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<?x4xf32>) outs(%ey : tensor<?x4xf32>) {
  ^bb0(%i: f32, %o: f32):
    %c3 = arith.constant 3.0 : f32
    %m = arith.mulf %i, %c3 : f32
    linalg.yield %m : f32
  } -> tensor<?x4xf32>
  %g2 = memref.get_global @c : memref<8x4xf32>
  %sv = memref.subview %g2[0, 0] [%n, 4] [1, 1] : memref<8x4xf32> to memref<?x4xf32, strided<[4, 1]>>
  bufferization.materialize_in_destination %y in restrict writable %sv : (tensor<?x4xf32>, memref<?x4xf32, strided<[4, 1]>>) -> ()
  %g3 = memref.get_global @c : memref<8x4xf32>
  %t3 = bufferization.to_tensor %g3 restrict : memref<8x4xf32> to tensor<8x4xf32>
  %s3 = tensor.extract_slice %t3[0, 0] [%n, 4] [1, 1] : tensor<8x4xf32> to tensor<?x4xf32>
  %eb = tensor.empty(%n) : tensor<?x256xf32>
  %big = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%s3 : tensor<?x4xf32>) outs(%eb : tensor<?x256xf32>) {
  ^bb0(%i: f32, %o: f32):
    linalg.yield %i : f32
  } -> tensor<?x256xf32>
  %z = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<f32>
  %f0 = linalg.fill ins(%z : f32) outs(%e0 : tensor<f32>) -> tensor<f32>
  %bs = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>], iterator_types = ["reduction", "reduction"]} ins(%big : tensor<?x256xf32>) outs(%f0 : tensor<f32>) {
  ^bb0(%i: f32, %o: f32):
    %a = arith.addf %i, %o : f32
    linalg.yield %a : f32
  } -> tensor<f32>
  %o = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> ()>], iterator_types = ["reduction", "reduction"]} ins(%r1, %r2 : tensor<?x64xf32>, tensor<?x4xf32>) outs(%bs : tensor<f32>) {
  ^bb0(%i: f32, %j: f32, %o: f32):
    %a = arith.addf %i, %o : f32
    %b = arith.addf %a, %j : f32
    linalg.yield %b : f32
  } -> tensor<f32>
  return %o : tensor<f32>
}

func.func @cache_other(%x: tensor<?x4xf32>, %n: index) -> tensor<f32> {
  %g = memref.get_global @c : memref<8x4xf32>
  %t = bufferization.to_tensor %g restrict : memref<8x4xf32> to tensor<8x4xf32>
  %s = tensor.extract_slice %t[0, 0] [%n, 4] [1, 1] : tensor<8x4xf32> to tensor<?x4xf32>
  %e1 = tensor.empty(%n) : tensor<?x64xf32>
  %r1 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%s : tensor<?x4xf32>) outs(%e1 : tensor<?x64xf32>) {
  ^bb0(%i: f32, %o: f32):
    linalg.yield %i : f32
  } -> tensor<?x64xf32>
  %e2 = tensor.empty(%n) : tensor<?x4xf32>
  %r2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%s : tensor<?x4xf32>) outs(%e2 : tensor<?x4xf32>) {
  ^bb0(%i: f32, %o: f32):
    linalg.yield %i : f32
  } -> tensor<?x4xf32>
  %ey = tensor.empty(%n) : tensor<?x4xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<?x4xf32>) outs(%ey : tensor<?x4xf32>) {
  ^bb0(%i: f32, %o: f32):
    %c3 = arith.constant 3.0 : f32
    %m = arith.mulf %i, %c3 : f32
    linalg.yield %m : f32
  } -> tensor<?x4xf32>
  %gd = memref.get_global @d : memref<8x4xf32>
  %svd = memref.subview %gd[0, 0] [%n, 4] [1, 1] : memref<8x4xf32> to memref<?x4xf32, strided<[4, 1]>>
  bufferization.materialize_in_destination %y in restrict writable %svd : (tensor<?x4xf32>, memref<?x4xf32, strided<[4, 1]>>) -> ()
  %g3 = memref.get_global @c : memref<8x4xf32>
  %t3 = bufferization.to_tensor %g3 restrict : memref<8x4xf32> to tensor<8x4xf32>
  %s3 = tensor.extract_slice %t3[0, 0] [%n, 4] [1, 1] : tensor<8x4xf32> to tensor<?x4xf32>
  %eb = tensor.empty(%n) : tensor<?x256xf32>
  %big = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%s3 : tensor<?x4xf32>) outs(%eb : tensor<?x256xf32>) {
  ^bb0(%i: f32, %o: f32):
    linalg.yield %i : f32
  } -> tensor<?x256xf32>
  %z = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<f32>
  %f0 = linalg.fill ins(%z : f32) outs(%e0 : tensor<f32>) -> tensor<f32>
  %bs = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>], iterator_types = ["reduction", "reduction"]} ins(%big : tensor<?x256xf32>) outs(%f0 : tensor<f32>) {
  ^bb0(%i: f32, %o: f32):
    %a = arith.addf %i, %o : f32
    linalg.yield %a : f32
  } -> tensor<f32>
  %o = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> ()>], iterator_types = ["reduction", "reduction"]} ins(%r1, %r2 : tensor<?x64xf32>, tensor<?x4xf32>) outs(%bs : tensor<f32>) {
  ^bb0(%i: f32, %j: f32, %o: f32):
    %a = arith.addf %i, %o : f32
    %b = arith.addf %a, %j : f32
    linalg.yield %b : f32
  } -> tensor<f32>
  return %o : tensor<f32>
}

func.func @filled(%n: index, %v: f32) -> tensor<?x16xf32> {
  %e = tensor.empty(%n) : tensor<?x16xf32>
  %f = linalg.fill ins(%v : f32) outs(%e : tensor<?x16xf32>) -> tensor<?x16xf32>
  return %f : tensor<?x16xf32>
}

func.func @attend(%n: index) {
  %one = arith.constant 1.0 : f32
  %k = func.call @filled(%n, %one) : (index, f32) -> tensor<?x16xf32>
  %v = func.call @filled(%n, %one) : (index, f32) -> tensor<?x16xf32>
  %o = func.call @attention(%k, %v, %n) : (tensor<?x16xf32>, tensor<?x16xf32>, index) -> tensor<f32>
  %s = tensor.extract %o[] : tensor<f32>
  vector.print %s : f32
  return
}

func.func @write(%n: index, %other: i1) {
  %two = arith.constant 2.0 : f32
  %e = tensor.empty(%n) : tensor<?x4xf32>
  %x = linalg.fill ins(%two : f32) outs(%e : tensor<?x4xf32>) -> tensor<?x4xf32>
  %o = scf.if %other -> tensor<f32> {
    %r = func.call @cache_other(%x, %n) : (tensor<?x4xf32>, index) -> tensor<f32>
    scf.yield %r : tensor<f32>
  } else {
    %r = func.call @cache_same(%x, %n) : (tensor<?x4xf32>, index) -> tensor<f32>
    scf.yield %r : tensor<f32>
  }
  %s = tensor.extract %o[] : tensor<f32>
  vector.print %s : f32
  return
}

func.func @main() {
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c7 = arith.constant 7 : index
  %c32 = arith.constant 32 : index
  %f = arith.constant false
  %t = arith.constant true
  func.call @attend(%c1) : (index) -> ()
  func.call @attend(%c7) : (index) -> ()
  func.call @attend(%c32) : (index) -> ()
  func.call @write(%c3, %f) : (index, i1) -> ()
  func.call @write(%c1, %f) : (index, i1) -> ()
  func.call @write(%c3, %t) : (index, i1) -> ()
  return
}
