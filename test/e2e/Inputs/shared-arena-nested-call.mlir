// prefill calls decode through a function value, which the pass cannot
// see: the two run at once, and the run-time check stops the program
// (test/e2e/shared-arena.mlir).
module attributes {memplan.shared_arena = [@prefill, @decode]} {
  func.func private @printI64(i64)
  func.func private @printNewline()
  // Two temporaries of 64 floats each, live together: 512 bytes.
  func.func @prefill(%x: f32) -> f32 {
    %c0 = arith.constant 0 : index
    %c5 = arith.constant 5 : index
    %a = memref.alloc() : memref<64xf32>
    %b = memref.alloc() : memref<64xf32>
    linalg.fill ins(%x : f32) outs(%a : memref<64xf32>)
    linalg.fill ins(%x : f32) outs(%b : memref<64xf32>)
    %u = memref.load %a[%c5] : memref<64xf32>
    %v = memref.load %b[%c0] : memref<64xf32>
    %fd = func.constant @decode : (f32) -> f32
    %w = func.call_indirect %fd(%u) : (f32) -> f32
    %s = arith.addf %w, %v : f32
    memref.dealloc %a : memref<64xf32>
    memref.dealloc %b : memref<64xf32>
    return %s : f32
  }
  // One temporary of 16 floats: 64 bytes.
  func.func @decode(%x: f32) -> f32 {
    %c3 = arith.constant 3 : index
    %a = memref.alloc() : memref<16xf32>
    linalg.fill ins(%x : f32) outs(%a : memref<16xf32>)
    %u = memref.load %a[%c3] : memref<16xf32>
    %s = arith.mulf %u, %u : f32
    memref.dealloc %a : memref<16xf32>
    return %s : f32
  }
  func.func @main() {
    %c = arith.constant 3.0 : f32
    %p = func.call @prefill(%c) : (f32) -> f32
    %d0 = func.call @decode(%p) : (f32) -> f32
    %d1 = func.call @decode(%d0) : (f32) -> f32
    %p2 = func.call @prefill(%d1) : (f32) -> f32
    %i = arith.fptosi %p2 : f32 to i64
    func.call @printI64(%i) : (i64) -> ()
    func.call @printNewline() : () -> ()
    return
  }
}
