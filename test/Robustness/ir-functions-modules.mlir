// Functions without bodies are skipped; functions in nested modules get
// their own arenas; a function without buffers is left as it was. The
// output verifies with stock mlir-opt.
// RUN: memplan-opt %s --tensor-mem-plan=remarks=true -verify-diagnostics | mlir-opt --verify-each | FileCheck %s
// CHECK: func.func private @decl(memref<4xf32>)
// CHECK-LABEL: func.func @empty()
// CHECK-NEXT: return
// CHECK-LABEL: func.func @nested
// CHECK: memref.alloc() {alignment = 64 : i64} : memref<64xi8>
// CHECK-LABEL: func.func @deepest
// CHECK: memref.alloc() {alignment = 64 : i64} : memref<64xi8>
func.func private @decl(memref<4xf32>)
func.func @empty() {
  return
}
module @inner {
  // expected-remark @below {{1 buffer planned, 16 bytes without planning, arena 64 bytes}}
  func.func @nested() {
    %c0 = arith.constant 0 : index
    %a = memref.alloc() : memref<4xf32>
    %v = memref.load %a[%c0] : memref<4xf32>
    return
  }
  module @deeper {
    func.func private @decl2(memref<8xf32>)
    // expected-remark @below {{1 buffer planned, 32 bytes without planning, arena 64 bytes}}
    func.func @deepest() {
      %c0 = arith.constant 0 : index
      %a = memref.alloc() : memref<8xf32>
      %v = memref.load %a[%c0] : memref<8xf32>
      return
    }
  }
}
