// A buffer passed to a call is an ordinary use when the callee keeps no
// reference to it: its body (in the module) shows so, or its declaration
// says so (memplan.nocapture, llvm.nocapture), or it is one of MLIR's
// runner utilities that print memrefs. Then the buffer is planned; a callee
// that returns, stores or frees its argument keeps it, and so do unknown
// callees. The planned program prints what the unplanned one prints.
//
// RUN: memplan-opt %s --tensor-mem-plan="remarks=true" -o %t.mlir 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: FileCheck %s --check-prefix=IR --input-file=%t.mlir
// RUN: memplan-opt %t.mlir %lower_to_llvm | mlir-runner -e main -entry-point-result=void -shared-libs=%runner_libs > %t.planned
// RUN: memplan-opt %s %lower_to_llvm | mlir-runner -e main -entry-point-result=void -shared-libs=%runner_libs > %t.unplanned
// RUN: grep -v base@ %t.planned > %t.p
// RUN: grep -v base@ %t.unplanned > %t.u
// RUN: diff %t.p %t.u
// RUN: FileCheck %s --input-file=%t.planned

// @scale reads and writes its arguments and keeps nothing, @print hands
// its argument to printMemrefF32 only; @keep returns its argument.
// REMARK-DAG: remark: buffer not planned: passed to a call ('func.call')
// REMARK-DAG: remark: tensor-mem-plan: 3 buffers planned
// The bodies' arguments are not marked in the output: the marks are the
// pass's own.
// IR-LABEL: func.func private @scale(%arg0: memref<4xf32>, %arg1: memref<4xf32>) {
// IR-LABEL: func.func @main
// IR: memref.alloc() {alignment = 64 : i64} : memref<{{[0-9]+}}xi8>

// CHECK: [2,   2,   2,   2]
// CHECK: [4,   4,   4,   4]
// CHECK: [3,   3,   3,   3]

func.func private @printMemrefF32(memref<*xf32>)

func.func private @scale(%in: memref<4xf32>, %out: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %two = arith.constant 2.0 : f32
  scf.for %i = %c0 to %c4 step %c1 {
    %v = memref.load %in[%i] : memref<4xf32>
    %w = arith.mulf %v, %two : f32
    memref.store %w, %out[%i] : memref<4xf32>
  }
  return
}

func.func private @keep(%m: memref<4xf32>) -> memref<4xf32> {
  return %m : memref<4xf32>
}

func.func private @print(%m: memref<4xf32>) {
  %u = memref.cast %m : memref<4xf32> to memref<*xf32>
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}

func.func @main() {
  %one = arith.constant 1.0 : f32
  %a = memref.alloc() : memref<4xf32>
  %b = memref.alloc() : memref<4xf32>
  %c = memref.alloc() : memref<4xf32>
  linalg.fill ins(%one : f32) outs(%a : memref<4xf32>)
  func.call @scale(%a, %b) : (memref<4xf32>, memref<4xf32>) -> ()
  func.call @print(%b) : (memref<4xf32>) -> ()
  func.call @scale(%b, %c) : (memref<4xf32>, memref<4xf32>) -> ()
  %cu = memref.cast %c : memref<4xf32> to memref<*xf32>
  func.call @printMemrefF32(%cu) : (memref<*xf32>) -> ()
  // Returned by the callee: kept, not planned.
  %k = memref.alloc() : memref<4xf32>
  %three = arith.constant 3.0 : f32
  linalg.fill ins(%three : f32) outs(%k : memref<4xf32>)
  %k2 = func.call @keep(%k) : (memref<4xf32>) -> memref<4xf32>
  func.call @print(%k2) : (memref<4xf32>) -> ()
  memref.dealloc %a : memref<4xf32>
  memref.dealloc %b : memref<4xf32>
  memref.dealloc %c : memref<4xf32>
  memref.dealloc %k : memref<4xf32>
  return
}
