// memplan-pipeline on a memref program that frees its own buffers: the
// planned buffers' frees go with them, the arena and the buffers left
// unplanned are freed by the deallocation the pipeline runs (which takes no
// program that frees), and the output is the unplanned program's. Once, the
// arena kept a free of its own at the function's location, and upstream's
// deallocation failed with "memory free side-effect on MemRef value not
// supported!"; so did a free of a buffer left unplanned.
//
// RUN: memplan-opt %s %lower_to_llvm | mlir-runner -e main -entry-point-result=void -shared-libs=%runner_libs > %t.ref
// RUN: memplan-opt %s --memplan-pipeline="bufferize=false" %lower_to_llvm | mlir-runner -e main -entry-point-result=void -shared-libs=%runner_libs,%memplan_lib/libmemplan_runtime.so > %t.planned
// RUN: diff %t.ref %t.planned
// RUN: memplan-opt %s --memplan-pipeline="bufferize=false" | FileCheck %s --check-prefix=IR
// RUN: memplan-opt %s --memplan-pipeline="bufferize=false remarks=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
//
// @f: one arena of two 64-byte buffers live together, freed once.
// IR-LABEL: func.func @f
// IR: %[[ARENA:.*]] = memref.alloc() {alignment = 64 : i64} : memref<128xi8>
// IR-NOT: memref.alloc
// IR: memref.dealloc %[[ARENA]] : memref<128xi8>
// IR-NOT: memref.dealloc
// IR: return
//
// @h: %a and %b reach a use through scf.if, so with the deallocation after
// they stay unplanned; their frees are dropped, said with remarks=true.
// REMARK: pipeline-input-frees.mlir:72:3: remark: tensor-mem-plan: this free of a buffer left unplanned is dropped: the deallocation that runs after this pass places every free itself
// REMARK: pipeline-input-frees.mlir:73:3: remark: tensor-mem-plan: this free of a buffer left unplanned is dropped
//
// A bufferization.dealloc stays an error at it, naming deallocate=false.
// RUN: not memplan-opt %S/Inputs/pipeline-input-bufferization-dealloc.mlir --memplan-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=BDEALLOC
// BDEALLOC: pipeline-input-bufferization-dealloc.mlir:5:3: error: tensor-mem-plan: 'bufferization.dealloc' frees a buffer, but the deallocation that runs after this pass (deallocation-runs-after; memplan-pipeline's deallocate=true) places every free itself and takes no program that frees: run memplan-pipeline with deallocate=false
//
// A buffer stored into memory is an error at the store: upstream's
// deallocation does not follow it there and freed it at the end of
// @fill_box, before @main read it (a use after free, found by probing; the
// same with or without @main's free). With deallocate=false the program's
// own frees stay and it runs as written.
// RUN: not memplan-opt %S/Inputs/pipeline-input-stored-buffer.mlir --memplan-pipeline="bufferize=false" -o /dev/null 2>&1 | FileCheck %s --check-prefix=STORED
// STORED: pipeline-input-stored-buffer.mlir:8:3: error: tensor-mem-plan: this stores a buffer into memory, where the deallocation that runs after this pass (deallocation-runs-after; memplan-pipeline's deallocate=true) does not follow it: it would free the buffer while the memory still holds it; run memplan-pipeline with deallocate=false
// RUN: memplan-opt %S/Inputs/pipeline-input-stored-buffer.mlir --memplan-pipeline="bufferize=false deallocate=false" %lower_to_llvm | mlir-runner -e main -entry-point-result=void -shared-libs=%runner_libs,%memplan_lib/libmemplan_runtime.so | FileCheck %s --check-prefix=STORED-OUT
// STORED-OUT: [7,  7,  7,  7]

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
func.func @h(%x: f32, %pick: i1) -> f32 {
  %c3 = arith.constant 3 : index
  %a = memref.alloc() : memref<16xf32>
  %b = memref.alloc() : memref<16xf32>
  linalg.fill ins(%x : f32) outs(%a : memref<16xf32>)
  %y = arith.addf %x, %x : f32
  linalg.fill ins(%y : f32) outs(%b : memref<16xf32>)
  %c = scf.if %pick -> memref<16xf32> {
    scf.yield %a : memref<16xf32>
  } else {
    scf.yield %b : memref<16xf32>
  }
  %r = memref.load %c[%c3] : memref<16xf32>
  memref.dealloc %a : memref<16xf32>
  memref.dealloc %b : memref<16xf32>
  return %r : f32
}
func.func @main() {
  %c = arith.constant 1.5 : f32
  %t = arith.constant true
  %f = arith.constant false
  %r = func.call @f(%c) : (f32) -> f32
  %r2 = func.call @f(%r) : (f32) -> f32
  %h1 = func.call @h(%r2, %t) : (f32, i1) -> f32
  %h2 = func.call @h(%r2, %f) : (f32, i1) -> f32
  func.call @printF32(%r2) : (f32) -> ()
  func.call @printNewline() : () -> ()
  func.call @printF32(%h1) : (f32) -> ()
  func.call @printNewline() : () -> ()
  func.call @printF32(%h2) : (f32) -> ()
  func.call @printNewline() : () -> ()
  return
}
