// memplan-pipeline on a memref program that frees its own buffers: the
// planned buffers' frees go with them, the arena is left to the
// deallocation the pipeline runs (which rejects a program that frees), and
// the output is the unplanned program's. Once, the arena kept a free of its
// own at the function's location, and upstream's deallocation failed with
// "memory free side-effect on MemRef value not supported!".
//
// RUN: memplan-opt %s %lower_to_llvm | mlir-runner -e main -entry-point-result=void -shared-libs=%runner_libs > %t.ref
// RUN: memplan-opt %s --memplan-pipeline="bufferize=false" %lower_to_llvm | mlir-runner -e main -entry-point-result=void -shared-libs=%runner_libs,%memplan_lib/libmemplan_runtime.so > %t.planned
// RUN: diff %t.ref %t.planned
// RUN: memplan-opt %s --memplan-pipeline="bufferize=false" | FileCheck %s --check-prefix=IR
//
// One arena of two 64-byte buffers live together, freed once.
// IR-LABEL: func.func @f
// IR: %[[ARENA:.*]] = memref.alloc() {alignment = 64 : i64} : memref<128xi8>
// IR-NOT: memref.alloc
// IR: memref.dealloc %[[ARENA]] : memref<128xi8>
// IR-NOT: memref.dealloc
// IR: return
//
// A free the plan cannot take (of a buffer a call lets escape) stays, and
// the pipeline says where it is and what to do, before upstream's
// deallocation fails on it; without the deallocation it plans.
// RUN: not memplan-opt %S/Inputs/pipeline-input-frees-escape.mlir --memplan-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=ESCAPE
// ESCAPE: pipeline-input-frees-escape.mlir:7:3: error: tensor-mem-plan: 'memref.dealloc' frees a buffer, but the deallocation that runs after this pass (deallocation-runs-after; memplan-pipeline's deallocate=true) places every free itself and rejects a program that frees its own: run memplan-pipeline with deallocate=false
// ESCAPE-NOT: not supported
// RUN: memplan-opt %S/Inputs/pipeline-input-frees-escape.mlir --memplan-pipeline=deallocate=false | FileCheck %s --check-prefix=KEPT
// KEPT: %[[A:.*]] = memref.alloc() : memref<16xf32>
// KEPT: memref.dealloc %[[A]] : memref<16xf32>

func.func private @printF32(f32)
func.func private @printNewline()
func.func @f(%x: f32) -> f32 {
  %c0 = arith.constant 0 : index
  %c7 = arith.constant 7 : index
  %a = memref.alloc() : memref<16xf32>
  %b = memref.alloc() : memref<16xf32>
  linalg.fill ins(%x : f32) outs(%a : memref<16xf32>)
  %u = memref.load %a[%c7] : memref<16xf32>
  %w = arith.addf %u, %x : f32
  linalg.fill ins(%w : f32) outs(%b : memref<16xf32>)
  %v = memref.load %b[%c0] : memref<16xf32>
  %s = arith.mulf %u, %v : f32
  memref.dealloc %a : memref<16xf32>
  memref.dealloc %b : memref<16xf32>
  return %s : f32
}
func.func @main() {
  %c = arith.constant 1.5 : f32
  %r = func.call @f(%c) : (f32) -> f32
  %r2 = func.call @f(%r) : (f32) -> f32
  func.call @printF32(%r2) : (f32) -> ()
  func.call @printNewline() : () -> ()
  return
}
