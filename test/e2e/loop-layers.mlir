// A loop over "layers": the activation is carried from one iteration to the
// next (iter_args), each layer makes temporaries of two sizes. Planned output
// must equal unplanned output.
//
// RUN: memplan-opt %s --one-shot-bufferize="bufferize-function-boundaries allow-return-allocs-from-loops" -o %t.buf.mlir
// RUN: memplan-opt %t.buf.mlir %lower_to_llvm | mlir-runner -e main -entry-point-result=void -shared-libs=%runner_libs | sed -e 's/base@ = 0x[0-9a-f]*//' > %t.ref
// RUN: memplan-opt %t.buf.mlir --tensor-mem-plan=remarks=true 2>&1 -o /dev/null | FileCheck %s --check-prefix=REMARK
// RUN: memplan-opt %t.buf.mlir --tensor-mem-plan %lower_to_llvm | mlir-runner -e main -entry-point-result=void -shared-libs=%runner_libs | sed -e 's/base@ = 0x[0-9a-f]*//' > %t.planned
// RUN: diff %t.ref %t.planned
// RUN: FileCheck %s < %t.planned

// The temporaries inside the body are planned; the activation that crosses
// iterations is not.
// REMARK-DAG: remark: buffer not planned: {{carried across iterations of its loop|outlives the iteration of its loop}}
// REMARK-DAG: remark: tensor-mem-plan: {{[1-9][0-9]*}} buffers planned

// x0[i] = i; each layer: y = x * 0.5 + (layer + 1), broadcast y to 2x8 and add
// the row index, sum the rows back: x' = 2y + 1. Three layers on x[0] = 0:
// 0 -> 3 -> 8 -> 15 (x' = 2(x/2 + l + 1) + 1 = x + 2l + 3).
// CHECK: data =
// CHECK-NEXT: [15, {{ *}}16, {{ *}}17, {{ *}}18, {{ *}}19, {{ *}}20, {{ *}}21, {{ *}}22]

func.func private @printMemrefF32(tensor<*xf32>)

#id = affine_map<(d0) -> (d0)>
#row = affine_map<(d0, d1) -> (d1)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %zero = arith.constant 0.0 : f32
  %half = arith.constant 0.5 : f32
  %one = arith.constant 1.0 : f32
  %e = tensor.empty() : tensor<8xf32>
  %x0 = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel"]}
      outs(%e : tensor<8xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    linalg.yield %f : f32
  } -> tensor<8xf32>
  %r = scf.for %l = %c0 to %c3 step %c1 iter_args(%x = %x0) -> tensor<8xf32> {
    %li = arith.index_cast %l : index to i32
    %lf = arith.sitofp %li : i32 to f32
    %bias = arith.addf %lf, %one : f32
    %e1 = tensor.empty() : tensor<8xf32>
    %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
        ins(%x : tensor<8xf32>) outs(%e1 : tensor<8xf32>) {
    ^bb0(%a: f32, %o: f32):
      %m = arith.mulf %a, %half : f32
      %s = arith.addf %m, %bias : f32
      linalg.yield %s : f32
    } -> tensor<8xf32>
    %e2 = tensor.empty() : tensor<2x8xf32>
    %b = linalg.generic {indexing_maps = [#row, #id2], iterator_types = ["parallel", "parallel"]}
        ins(%y : tensor<8xf32>) outs(%e2 : tensor<2x8xf32>) {
    ^bb0(%a: f32, %o: f32):
      %i = linalg.index 0 : index
      %ii = arith.index_cast %i : index to i32
      %f = arith.sitofp %ii : i32 to f32
      %s = arith.addf %a, %f : f32
      linalg.yield %s : f32
    } -> tensor<2x8xf32>
    %e3 = tensor.empty() : tensor<8xf32>
    %z = linalg.fill ins(%zero : f32) outs(%e3 : tensor<8xf32>) -> tensor<8xf32>
    %n = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["reduction", "parallel"]}
        ins(%b : tensor<2x8xf32>) outs(%z : tensor<8xf32>) {
    ^bb0(%a: f32, %acc: f32):
      %s = arith.addf %a, %acc : f32
      linalg.yield %s : f32
    } -> tensor<8xf32>
    scf.yield %n : tensor<8xf32>
  }
  %u = tensor.cast %r : tensor<8xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
