// Input of pipeline-input-frees.mlir: a bufferization.dealloc, which only
// upstream's deallocation writes, so running it again would not take.
func.func @g(%c: i1) {
  %a = memref.alloc() : memref<16xf32>
  bufferization.dealloc (%a : memref<16xf32>) if (%c)
  return
}
