// Input of pipeline-input-frees.mlir: %a escapes into an external call, so
// it is not planned, and its free stays.
func.func private @ext(memref<16xf32>)
func.func @g() {
  %a = memref.alloc() : memref<16xf32>
  func.call @ext(%a) : (memref<16xf32>) -> ()
  memref.dealloc %a : memref<16xf32>
  return
}
