// A buffer read inside a loop lives to the loop's end, its scf.yield; an
// alloc's location names a file with markup in its name.
func.func @loop(%out: memref<16xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = memref.alloc() : memref<16xf32> loc("odd</script><b>.mlir":3:4)
  %b = memref.alloc() : memref<16xf32>
  scf.for %i = %c0 to %n step %c1 {
    memref.copy %a, %b : memref<16xf32> to memref<16xf32>
  }
  memref.copy %b, %out : memref<16xf32> to memref<16xf32>
  return
}
