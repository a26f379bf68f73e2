// The picture's subtitle counts the buffers left alone with the right
// number: "1 buffer not planned", "2 buffers not planned".
// RUN: memplan-opt %s --tensor-mem-plan="timeline=%t.svg" -o /dev/null
// RUN: FileCheck %s --input-file=%t.svg
// CHECK-DAG: 1 buffer not planned;
// CHECK-DAG: 2 buffers not planned;

// One temporary planned, the returned buffer left alone.
func.func @one(%x: memref<16xf32>) -> memref<16xf32> {
  %t = memref.alloc() : memref<16xf32>
  memref.copy %x, %t : memref<16xf32> to memref<16xf32>
  %r = memref.alloc() : memref<16xf32>
  memref.copy %t, %r : memref<16xf32> to memref<16xf32>
  return %r : memref<16xf32>
}

// One temporary planned, both returned buffers left alone.
func.func @two(%x: memref<16xf32>) -> (memref<16xf32>, memref<16xf32>) {
  %t = memref.alloc() : memref<16xf32>
  memref.copy %x, %t : memref<16xf32> to memref<16xf32>
  %r = memref.alloc() : memref<16xf32>
  memref.copy %t, %r : memref<16xf32> to memref<16xf32>
  %s = memref.alloc() : memref<16xf32>
  memref.copy %t, %s : memref<16xf32> to memref<16xf32>
  return %r, %s : memref<16xf32>, memref<16xf32>
}
