// Input of report-writer-print.test: %a is written by linalg.fill, then
// only printed.
func.func private @printMemrefF32(memref<*xf32>)
func.func @main() {
  %f = arith.constant 2.0 : f32
  %a = memref.alloc() : memref<4xf32>
  %b = memref.alloc() : memref<4xf32>
  linalg.fill ins(%f : f32) outs(%a : memref<4xf32>)
  %u = memref.cast %a : memref<4xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  linalg.fill ins(%f : f32) outs(%b : memref<4xf32>)
  %v = memref.cast %b : memref<4xf32> to memref<*xf32>
  call @printMemrefF32(%v) : (memref<*xf32>) -> ()
  return
}
