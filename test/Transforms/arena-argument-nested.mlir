// Nested under func.func the pass cannot update callers, so it says so.
// RUN: not memplan-opt %s --pass-pipeline='builtin.module(func.func(tensor-mem-plan{arena=argument}))' 2>&1 | FileCheck %s
// CHECK: error: tensor-mem-plan: arena=argument changes the signature of 'callee', which has callers; run the pass on the enclosing module
func.func @callee(%out: memref<4xf32>) {
  %a = memref.alloc() : memref<4xf32>
  memref.copy %a, %out : memref<4xf32> to memref<4xf32>
  return
}
func.func @caller(%out: memref<4xf32>) {
  call @callee(%out) : (memref<4xf32>) -> ()
  return
}
