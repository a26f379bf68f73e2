// Calls to functions without a body: the declaration says whether the
// callee keeps a buffer (memplan.nocapture or llvm.nocapture on the
// argument); without a word it does. A body that keeps its argument loses a
// wrong memplan.nocapture: the body decides.
// RUN: memplan-opt %s --tensor-mem-plan=remarks=true 2>&1 | FileCheck %s

func.func private @opaque(memref<4xf32>)
func.func private @declared(memref<4xf32> {memplan.nocapture})
func.func private @llvm_declared(memref<4xf32> {llvm.nocapture})

// CHECK-DAG: calls-nocapture.mlir:[[@LINE+2]]:8: remark: buffer not planned: passed to a call ('func.call')
func.func @unknown() {
  %d = memref.alloc() : memref<4xf32>
  func.call @opaque(%d) : (memref<4xf32>) -> ()
  func.call @declared(%d) : (memref<4xf32>) -> ()
  memref.dealloc %d : memref<4xf32>
  return
}

// CHECK-DAG: remark: tensor-mem-plan: 2 buffers planned, 32 bytes without planning, arena 128 bytes
func.func @declared_only() {
  %d = memref.alloc() : memref<4xf32>
  %e = memref.alloc() : memref<4xf32>
  func.call @declared(%d) : (memref<4xf32>) -> ()
  func.call @llvm_declared(%e) : (memref<4xf32>) -> ()
  func.call @declared(%e) : (memref<4xf32>) -> ()
  memref.dealloc %d : memref<4xf32>
  memref.dealloc %e : memref<4xf32>
  return
}

// The user's mark is wrong: the body frees its argument, which takes it
// from the caller.
func.func private @frees(%m: memref<4xf32> {memplan.nocapture}) {
  memref.dealloc %m : memref<4xf32>
  return
}

// CHECK-DAG: calls-nocapture.mlir:[[@LINE+2]]:8: remark: buffer not planned: passed to a call ('func.call')
func.func @freed_by_callee() {
  %d = memref.alloc() : memref<4xf32>
  func.call @frees(%d) : (memref<4xf32>) -> ()
  return
}
