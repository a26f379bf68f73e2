// Input of pipeline-input-frees.mlir: @fill_box stores the buffer it
// allocates into its caller's box; @main reads it from there and frees it.
func.func private @printMemrefF32(memref<*xf32>)
func.func @fill_box(%box: memref<1xmemref<4xf32>>, %f: f32) {
  %c0 = arith.constant 0 : index
  %a = memref.alloc() : memref<4xf32>
  linalg.fill ins(%f : f32) outs(%a : memref<4xf32>)
  memref.store %a, %box[%c0] : memref<1xmemref<4xf32>>
  return
}
func.func @main() {
  %c0 = arith.constant 0 : index
  %f = arith.constant 7.0 : f32
  %box = memref.alloca() : memref<1xmemref<4xf32>>
  call @fill_box(%box, %f) : (memref<1xmemref<4xf32>>, f32) -> ()
  %b = memref.load %box[%c0] : memref<1xmemref<4xf32>>
  %u = memref.cast %b : memref<4xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  memref.dealloc %b : memref<4xf32>
  return
}
