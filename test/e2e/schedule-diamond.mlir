// The diamond of test/Transforms/schedule.mlir as a program: scheduled (the
// default of memplan-pipeline) it prints exactly what it prints unscheduled,
// and what was derived by hand below.
//
// RUN: memplan-opt %s --memplan-pipeline="schedule=false" %lower_to_llvm | mlir-runner -e main -entry-point-result=void -shared-libs=%runner_libs | sed -e 's/base@ = 0x[0-9a-f]*//' > %t.ref
// RUN: memplan-opt %s --memplan-pipeline %lower_to_llvm | mlir-runner -e main -entry-point-result=void -shared-libs=%runner_libs | sed -e 's/base@ = 0x[0-9a-f]*//' > %t.sched
// RUN: diff %t.ref %t.sched
// RUN: FileCheck %s < %t.sched
// The order did change (the a-branch now runs before the b-branch):
// RUN: memplan-opt %s --tensor-mem-schedule=remarks=true -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// REMARK: tensor-mem-schedule: 'main' model peak {{[0-9]+}} -> {{[0-9]+}} bytes (1 blocks with a lower peak

// in[j] = j, x[j] = j + 1; b[i][k][j] = x[j] * k + i, so b2[i][k] = b[i][k][15]
// = 16k + i; a[i][j] = x[j] + i, so a2 = a[15][15] = 31; o[i] = a2 + b2[i][1]
// (the reductions keep their last element) = 47 + i.
// CHECK: rank = 1 offset = 0 sizes = [16] strides = [1] data =
// CHECK-NEXT: [47, {{ *}}48, {{ *}}49, {{ *}}50, {{ *}}51, {{ *}}52, {{ *}}53, {{ *}}54, {{ *}}55, {{ *}}56, {{ *}}57, {{ *}}58, {{ *}}59, {{ *}}60, {{ *}}61, {{ *}}62]

func.func private @printMemrefF32(tensor<*xf32>)

#v = affine_map<(d0) -> (d0)>
#m = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
#all2 = affine_map<(d0, d1) -> ()>
#c3 = affine_map<(d0, d1, d2) -> (d2)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#r3 = affine_map<(d0, d1, d2) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @main() {
  %e0 = tensor.empty() : tensor<16xf32>
  %in = linalg.generic {indexing_maps = [#v], iterator_types = ["parallel"]} outs(%e0 : tensor<16xf32>) {
  ^bb0(%o: f32):
    %j = linalg.index 0 : index
    %ji = arith.index_cast %j : index to i32
    %jf = arith.sitofp %ji : i32 to f32
    linalg.yield %jf : f32
  } -> tensor<16xf32>
  %ex = tensor.empty() : tensor<16xf32>
  %ea = tensor.empty() : tensor<16x16xf32>
  %eb = tensor.empty() : tensor<16x2x16xf32>
  %ea2 = tensor.empty() : tensor<f32>
  %eb2 = tensor.empty() : tensor<16x2xf32>
  %eo = tensor.empty() : tensor<16xf32>
  %x = linalg.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]} ins(%in : tensor<16xf32>) outs(%ex : tensor<16xf32>) {
  ^bb0(%i: f32, %o: f32):
    %c = arith.constant 1.0 : f32
    %r = arith.addf %i, %c : f32
    linalg.yield %r : f32
  } -> tensor<16xf32>
  %b = linalg.generic {indexing_maps = [#c3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x : tensor<16xf32>) outs(%eb : tensor<16x2x16xf32>) {
  ^bb0(%i: f32, %o: f32):
    %r = linalg.index 1 : index
    %ri = arith.index_cast %r : index to i32
    %rf = arith.sitofp %ri : i32 to f32
    %m = arith.mulf %i, %rf : f32
    %r0 = linalg.index 0 : index
    %r0i = arith.index_cast %r0 : index to i32
    %r0f = arith.sitofp %r0i : i32 to f32
    %p = arith.addf %m, %r0f : f32
    linalg.yield %p : f32
  } -> tensor<16x2x16xf32>
  %a = linalg.generic {indexing_maps = [#col, #m], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<16xf32>) outs(%ea : tensor<16x16xf32>) {
  ^bb0(%i: f32, %o: f32):
    %r = linalg.index 0 : index
    %ri = arith.index_cast %r : index to i32
    %rf = arith.sitofp %ri : i32 to f32
    %p = arith.addf %i, %rf : f32
    linalg.yield %p : f32
  } -> tensor<16x16xf32>
  %b2 = linalg.generic {indexing_maps = [#id3, #r3], iterator_types = ["parallel", "parallel", "reduction"]} ins(%b : tensor<16x2x16xf32>) outs(%eb2 : tensor<16x2xf32>) {
  ^bb0(%i: f32, %o: f32):
    linalg.yield %i : f32
  } -> tensor<16x2xf32>
  %a2 = linalg.generic {indexing_maps = [#m, #all2], iterator_types = ["reduction", "reduction"]} ins(%a : tensor<16x16xf32>) outs(%ea2 : tensor<f32>) {
  ^bb0(%i: f32, %o: f32):
    linalg.yield %i : f32
  } -> tensor<f32>
  %o = linalg.generic {indexing_maps = [#all2, #m, #row], iterator_types = ["parallel", "reduction"]} ins(%a2, %b2 : tensor<f32>, tensor<16x2xf32>) outs(%eo : tensor<16xf32>) {
  ^bb0(%i: f32, %j: f32, %out: f32):
    %sum = arith.addf %i, %j : f32
    linalg.yield %sum : f32
  } -> tensor<16xf32>
  %u = tensor.cast %o : tensor<16xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
