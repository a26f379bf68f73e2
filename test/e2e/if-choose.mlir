// An scf.if chooses between two buffers computed before it; both must stay
// alive until the chosen one's last use, while new temporaries are made.
//
// RUN: memplan-opt %s --one-shot-bufferize="bufferize-function-boundaries" -o %t.buf.mlir
// RUN: memplan-opt %t.buf.mlir %lower_to_llvm | mlir-runner -e main -entry-point-result=void -shared-libs=%runner_libs | sed -e 's/base@ = 0x[0-9a-f]*//' > %t.ref
// RUN: memplan-opt %t.buf.mlir --tensor-mem-plan=remarks=true -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: memplan-opt %t.buf.mlir --tensor-mem-plan %lower_to_llvm | mlir-runner -e main -entry-point-result=void -shared-libs=%runner_libs | sed -e 's/base@ = 0x[0-9a-f]*//' > %t.planned
// RUN: diff %t.ref %t.planned
// RUN: FileCheck %s < %t.planned
// RUN: memplan-opt %t.buf.mlir --tensor-mem-plan=strategy=greedy-by-size-offsets %lower_to_llvm | mlir-runner -e main -entry-point-result=void -shared-libs=%runner_libs | sed -e 's/base@ = 0x[0-9a-f]*//' | diff %t.ref -

// a and b live across the whole loop; the temporaries inside are planned,
// and so is the printed sum (printMemrefF32 keeps no reference).
// REMARK: remark: tensor-mem-plan: 5 buffers planned

// a[i] = i, b[i] = 10 i; choose(k) = k even ? a : b; out_k = choose(k) + t_k
// with t_k[i] = k (a temporary made after the choice). Printed: out_0 + out_1
// = (a + 0) + (b + 1) = 11 i + 1.
// CHECK: data =
// CHECK-NEXT: [1, {{ *}}12, {{ *}}23, {{ *}}34]

func.func private @printMemrefF32(tensor<*xf32>)

#id = affine_map<(d0) -> (d0)>

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %ten = arith.constant 10.0 : f32
  %ea = tensor.empty() : tensor<4xf32>
  %a = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel"]}
      outs(%ea : tensor<4xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    linalg.yield %f : f32
  } -> tensor<4xf32>
  %eb = tensor.empty() : tensor<4xf32>
  %b = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%a : tensor<4xf32>) outs(%eb : tensor<4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %v = arith.mulf %x, %ten : f32
    linalg.yield %v : f32
  } -> tensor<4xf32>
  // Two rounds: each picks a or b with scf.if and adds a temporary.
  %c2 = arith.constant 2 : index
  %zero = arith.constant 0.0 : f32
  %sum_init = tensor.empty() : tensor<4xf32>
  %acc0 = linalg.fill ins(%zero : f32) outs(%sum_init : tensor<4xf32>) -> tensor<4xf32>
  %sum = scf.for %k = %c0 to %c2 step %c1 iter_args(%acc = %acc0) -> tensor<4xf32> {
    %r = arith.remui %k, %c2 : index
    %even = arith.cmpi eq, %r, %c0 : index
    %s = scf.if %even -> tensor<4xf32> {
      scf.yield %a : tensor<4xf32>
    } else {
      scf.yield %b : tensor<4xf32>
    }
    %e = tensor.empty() : tensor<4xf32>
    %kk = arith.index_cast %k : index to i32
    %kf = arith.sitofp %kk : i32 to f32
    %t = linalg.fill ins(%kf : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
    %e2 = tensor.empty() : tensor<4xf32>
    %o = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
        ins(%s, %t : tensor<4xf32>, tensor<4xf32>) outs(%e2 : tensor<4xf32>) {
    ^bb0(%x: f32, %y: f32, %z: f32):
      %v = arith.addf %x, %y : f32
      linalg.yield %v : f32
    } -> tensor<4xf32>
    %next = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
        ins(%o : tensor<4xf32>) outs(%acc : tensor<4xf32>) {
    ^bb0(%x: f32, %y: f32):
      %v = arith.addf %x, %y : f32
      linalg.yield %v : f32
    } -> tensor<4xf32>
    scf.yield %next : tensor<4xf32>
  }
  %u = tensor.cast %sum : tensor<4xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
