// Every form --buffer-deallocation-pipeline goes through, planned and run.
// fill 1.0, x + x, y * y: the program prints 4 (by hand: (1 + 1)^2).
// 1. ownership-based-buffer-deallocation: bufferization.dealloc ops own the
//    buffers; they stay unplanned with a remark, and the output still lowers
//    and runs.
// RUN: mlir-opt %s --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --ownership-based-buffer-deallocation > %t.own.mlir
// RUN: memplan-opt %t.own.mlir --tensor-mem-plan=remarks=true 2>&1 >/dev/null | FileCheck %s --check-prefix=OWN
// RUN: memplan-opt %t.own.mlir --tensor-mem-plan --bufferization-lower-deallocations %lower_to_llvm | mlir-runner -e main -entry-point-result=void -shared-libs=%runner_libs | FileCheck %s
// OWN-COUNT-3: remark: buffer not planned: managed by 'bufferization.dealloc'
// OWN-NOT: buffers planned
// 2. + buffer-deallocation-simplification: the same.
// RUN: mlir-opt %t.own.mlir --buffer-deallocation-simplification > %t.simple.mlir
// RUN: memplan-opt %t.simple.mlir --tensor-mem-plan=remarks=true 2>&1 >/dev/null | FileCheck %s --check-prefix=OWN
// RUN: memplan-opt %t.simple.mlir --tensor-mem-plan --bufferization-lower-deallocations %lower_to_llvm | mlir-runner -e main -entry-point-result=void -shared-libs=%runner_libs | FileCheck %s
// 3. + bufferization-lower-deallocations: memref.dealloc under scf.if; the
//    three 64-byte buffers (16 x f32) are planned: x and y, then y and z live
//    together, so 2 x 64 = 128 bytes; the arena is freed once.
// RUN: mlir-opt %t.simple.mlir --bufferization-lower-deallocations > %t.lowered.mlir
// RUN: memplan-opt %t.lowered.mlir --tensor-mem-plan=remarks=true 2>&1 >/dev/null | FileCheck %s --check-prefix=PLANNED
// RUN: memplan-opt %t.lowered.mlir --tensor-mem-plan | FileCheck %s --check-prefix=IR
// RUN: memplan-opt %t.lowered.mlir --tensor-mem-plan %lower_to_llvm | mlir-runner -e main -entry-point-result=void -shared-libs=%runner_libs | FileCheck %s
// 4. The whole pipeline: the same plan.
// RUN: mlir-opt %s --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --buffer-deallocation-pipeline > %t.full.mlir
// RUN: memplan-opt %t.full.mlir --tensor-mem-plan=remarks=true 2>&1 >/dev/null | FileCheck %s --check-prefix=PLANNED
// RUN: memplan-opt %t.full.mlir --tensor-mem-plan | mlir-opt --verify-each | FileCheck %s --check-prefix=IR
// RUN: memplan-opt %t.full.mlir --tensor-mem-plan %lower_to_llvm | mlir-runner -e main -entry-point-result=void -shared-libs=%runner_libs | FileCheck %s
// PLANNED: remark: tensor-mem-plan: 3 buffers planned, 192 bytes without planning, arena 128 bytes
// IR: memref.alloc() {alignment = 64 : i64} : memref<128xi8>
// IR-NOT: memref.alloc()
// IR-COUNT-1: memref.dealloc
// IR-NOT: memref.dealloc
// CHECK: 4
func.func private @printF32(f32)
func.func private @printNewline()

func.func @main() {
  %cst = arith.constant 1.0 : f32
  %c0 = arith.constant 0 : index
  %t0 = tensor.empty() : tensor<16xf32>
  %x = linalg.fill ins(%cst : f32) outs(%t0 : tensor<16xf32>) -> tensor<16xf32>
  %t1 = tensor.empty() : tensor<16xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : tensor<16xf32>) outs(%t1 : tensor<16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %in : f32
    linalg.yield %s : f32
  } -> tensor<16xf32>
  %t2 = tensor.empty() : tensor<16xf32>
  %z = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%y : tensor<16xf32>) outs(%t2 : tensor<16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.mulf %in, %in : f32
    linalg.yield %s : f32
  } -> tensor<16xf32>
  %v = tensor.extract %z[%c0] : tensor<16xf32>
  func.call @printF32(%v) : (f32) -> ()
  func.call @printNewline() : () -> ()
  return
}
