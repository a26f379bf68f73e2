// Renders the HTML timeline in headless Chromium and checks from the DOM
// (after the page's script ran) that there is one rectangle per buffer.
// REQUIRES: chromium
// RUN: rm -rf %t.profile && mkdir -p %t.profile
// RUN: memplan-opt %s --tensor-mem-plan="timeline=%t.html report=%t.json" -o /dev/null
// RUN: %chromium --user-data-dir=%t.profile --dump-dom file://%t.html > %t.dom 2>/dev/null
// RUN: %python %S/Inputs/count_rects.py %t.dom %t.json | FileCheck %s
// The planned buffers are 3 in @three and 2 in @two; @none has no arena.
// CHECK: buffers 5 rects 5 drawn 5 tips 5

func.func @three(%out: memref<64xf32>) {
  %a = memref.alloc() : memref<64xf32>
  %b = memref.alloc() : memref<128xf32>
  %sv = memref.subview %b[64][64][1] : memref<128xf32> to memref<64xf32, strided<[1], offset: 64>>
  memref.copy %a, %sv : memref<64xf32> to memref<64xf32, strided<[1], offset: 64>>
  %c = memref.alloc() : memref<64xf32>
  memref.copy %sv, %c : memref<64xf32, strided<[1], offset: 64>> to memref<64xf32>
  memref.copy %c, %out : memref<64xf32> to memref<64xf32>
  return
}

func.func @two(%out: memref<16xf32>) {
  %a = memref.alloc() : memref<16xf32>
  %b = memref.alloc() : memref<16xf32>
  memref.copy %a, %b : memref<16xf32> to memref<16xf32>
  memref.copy %b, %out : memref<16xf32> to memref<16xf32>
  return
}

func.func @none() -> memref<4xf32> {
  %r = memref.alloc() : memref<4xf32>
  return %r : memref<4xf32>
}
