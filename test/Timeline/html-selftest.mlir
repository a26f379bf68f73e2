// The HTML page in headless Chromium: its own self-test (file://...#selftest)
// clicks the size column of the "live at the peak" table twice (ascending,
// then descending), zooms with the wheel, resets, and switches to the spread
// y scale; the DOM dump shows the outcome, the peak marker and the table.
// REQUIRES: chromium
// RUN: rm -rf %t.profile && mkdir -p %t.profile
// RUN: memplan-opt %s --tensor-mem-plan="timeline=%t.html report=%t.json" -o /dev/null
// RUN: %chromium --user-data-dir=%t.profile --virtual-time-budget=5000 --dump-dom "file://%t.html#selftest" > %t.dom 2>/dev/null
// RUN: %python %S/Inputs/selftest.py %t.dom | FileCheck %s
// RUN: FileCheck %s --check-prefix=TABLE --input-file=%t.html
// RUN: FileCheck %s --check-prefix=TIP --input-file=%t.html
// CHECK: drawn 3 of 3
// CHECK: peak markers 1 tables 1 modes linear
// CHECK: selftest section 0: peak ok, legend ok, rows 3, sort ok, zoom ok, spread min height ok, peak line ok, task ops ok
//
// The table lists the buffers live at the peak, largest first, with the op
// that fills each (the linalg op whose outs it is), its location and what it
// shares in place (nothing here); its title names the op at the peak task
// (the third alloc, named as the IR prints it), as does the peak line above
// the picture. Each tooltip names the ops at its first and last task.
// TABLE:      <p class="peak-line" data-task="3">peak: task 3, %alloc_1 = memref.alloc at loc(&quot;{{.*}}html-selftest.mlir&quot;:35:8); 2.00 KiB (2048 B) live (aligned) in 3 buffers</p>
// TABLE:      Live at the peak (task 3, %alloc_1 = memref.alloc at loc(&quot;{{.*}}html-selftest.mlir&quot;:35:8)): 3 buffers, 2.00 KiB (2048 B) aligned
// TABLE:      <tr data-i="1"><td data-v="1">#1</td><td data-v="1024">1.00 KiB (1024 B)</td>{{.*}}<td>linalg.generic</td><td>loc(&quot;{{.*}}html-selftest.mlir&quot;:37:3)</td><td></td></tr>
// TABLE-NEXT: <tr data-i="0"><td data-v="0">#0</td><td data-v="512">512 B</td>{{.*}}<td>linalg.fill</td><td>loc(&quot;{{.*}}html-selftest.mlir&quot;:36:3)</td><td></td></tr>
// TABLE-NEXT: <tr data-i="2"><td data-v="2">#2</td>{{.*}}<td>memref.copy</td>
// Tooltips name the same op and location, then the alloc's, then the op at
// the buffer's first task (task 0 is the constant, 1 the alloc of %a).
// TIP:        data-tip="#0 linalg.fill memref&lt;128xf32&gt;&#10;loc(&quot;{{.*}}html-selftest.mlir&quot;:36:3)&#10;allocated at loc(&quot;{{.*}}html-selftest.mlir&quot;:33:8){{.*}}&#10;first: task 1, %alloc = memref.alloc at loc(&quot;{{.*}}html-selftest.mlir&quot;:33:8)&#10;last: task

#id = affine_map<(d0) -> (d0)>
func.func @net(%in: memref<256xf32>, %out: memref<128xf32>) {
  %c = arith.constant 1.0 : f32
  %a = memref.alloc() : memref<128xf32>
  %b = memref.alloc() : memref<256xf32>
  %d = memref.alloc() : memref<128xf32>
  linalg.fill ins(%c : f32) outs(%a : memref<128xf32>)
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%in : memref<256xf32>) outs(%b : memref<256xf32>) {
  ^bb0(%x: f32, %y: f32):
    %s = arith.addf %x, %c : f32
    linalg.yield %s : f32
  }
  %sb = memref.subview %b[0][128][1] : memref<256xf32> to memref<128xf32, strided<[1]>>
  memref.copy %sb, %d : memref<128xf32, strided<[1]>> to memref<128xf32>
  memref.copy %a, %out : memref<128xf32> to memref<128xf32>
  memref.copy %d, %out : memref<128xf32> to memref<128xf32>
  return
}
