// Input of report-writer-print.test: %a is written by linalg.fill, then
// given to @sum, which only reads it (through a subview), and to @scale,
// which writes it in place.
func.func private @sum(%m: memref<4xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %s = memref.subview %m[0] [2] [1] : memref<4xf32> to memref<2xf32, strided<[1]>>
  %v = memref.load %s[%c0] : memref<2xf32, strided<[1]>>
  return %v : f32
}
func.func private @scale(%m: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %v = memref.load %m[%c0] : memref<4xf32>
  memref.store %v, %m[%c0] : memref<4xf32>
  return
}
func.func @main(%out: memref<2xf32>) {
  %f = arith.constant 2.0 : f32
  %c0 = arith.constant 0 : index
  %a = memref.alloc() : memref<4xf32>
  %b = memref.alloc() : memref<4xf32>
  linalg.fill ins(%f : f32) outs(%a : memref<4xf32>)
  %r = func.call @sum(%a) : (memref<4xf32>) -> f32
  memref.store %r, %out[%c0] : memref<2xf32>
  linalg.fill ins(%f : f32) outs(%b : memref<4xf32>)
  func.call @scale(%b) : (memref<4xf32>) -> ()
  %r2 = func.call @sum(%b) : (memref<4xf32>) -> f32
  memref.store %r2, %out[%c0] : memref<2xf32>
  return
}
