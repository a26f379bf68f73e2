// An scf.while doubles a state tensor until a counter runs out; a buffer
// made before the loop is read in every trip, temporaries die per trip.
//
// RUN: memplan-opt %s --one-shot-bufferize="bufferize-function-boundaries allow-return-allocs-from-loops" -o %t.buf.mlir
// RUN: memplan-opt %t.buf.mlir %lower_to_llvm | mlir-runner -e main -entry-point-result=void -shared-libs=%runner_libs | sed -e 's/base@ = 0x[0-9a-f]*//' > %t.ref
// RUN: memplan-opt %t.buf.mlir --tensor-mem-plan=remarks=true -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: memplan-opt %t.buf.mlir --tensor-mem-plan %lower_to_llvm | mlir-runner -e main -entry-point-result=void -shared-libs=%runner_libs | sed -e 's/base@ = 0x[0-9a-f]*//' > %t.planned
// RUN: diff %t.ref %t.planned
// RUN: FileCheck %s < %t.planned

// REMARK: remark: tensor-mem-plan: {{[1-9][0-9]*}} buffers planned

// x0[j] = j, w = 1; trip i: x = 2x + (i + 1) * w. Three trips:
// 2j + 1, 4j + 4, 8j + 11.
// CHECK: data =
// CHECK-NEXT: [11, {{ *}}19, {{ *}}27, {{ *}}35]

func.func private @printMemrefF32(tensor<*xf32>)

#id = affine_map<(d0) -> (d0)>

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  %ew = tensor.empty() : tensor<4xf32>
  %w = linalg.fill ins(%one : f32) outs(%ew : tensor<4xf32>) -> tensor<4xf32>
  %ex = tensor.empty() : tensor<4xf32>
  %x0 = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel"]}
      outs(%ex : tensor<4xf32>) {
  ^bb0(%o: f32):
    %j = linalg.index 0 : index
    %jj = arith.index_cast %j : index to i32
    %f = arith.sitofp %jj : i32 to f32
    linalg.yield %f : f32
  } -> tensor<4xf32>
  %r:2 = scf.while (%x = %x0, %i = %c0) : (tensor<4xf32>, index) -> (tensor<4xf32>, index) {
    %go = arith.cmpi slt, %i, %c3 : index
    scf.condition(%go) %x, %i : tensor<4xf32>, index
  } do {
  ^bb0(%x: tensor<4xf32>, %i: index):
    %i1 = arith.addi %i, %c1 : index
    %ii = arith.index_cast %i1 : index to i32
    %fi = arith.sitofp %ii : i32 to f32
    %et = tensor.empty() : tensor<4xf32>
    %t = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
        ins(%w : tensor<4xf32>) outs(%et : tensor<4xf32>) {
    ^bb0(%a: f32, %o: f32):
      %v = arith.mulf %a, %fi : f32
      linalg.yield %v : f32
    } -> tensor<4xf32>
    %ey = tensor.empty() : tensor<4xf32>
    %y = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
        ins(%x, %t : tensor<4xf32>, tensor<4xf32>) outs(%ey : tensor<4xf32>) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %m = arith.mulf %a, %two : f32
      %v = arith.addf %m, %b : f32
      linalg.yield %v : f32
    } -> tensor<4xf32>
    scf.yield %y, %i1 : tensor<4xf32>, index
  }
  %u = tensor.cast %r#0 : tensor<4xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
