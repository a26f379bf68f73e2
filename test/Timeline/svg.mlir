// The SVG timeline: one section per function with an arena, one rectangle
// per buffer, the lines and the legend; well-formed XML.
// RUN: memplan-opt %s --tensor-mem-plan="strategy=greedy-by-size-offsets timeline=%t.svg" -o /dev/null
// RUN: FileCheck %s --input-file=%t.svg
// RUN: %python -c "import sys, xml.etree.ElementTree as E; r = E.parse(sys.argv[1]).getroot(); print(len([e for e in r.iter() if e.get('class') == 'buffer']))" %t.svg | FileCheck %s --check-prefix=XML
// RUN: not memplan-opt %s --tensor-mem-plan="timeline=%t.png" -o /dev/null 2>&1 | FileCheck %s --check-prefix=EXT

// Tasks: 0 alloc a, 1 alloc b, 2 copy, 3 copy, 4 return: a [0,2], b [1,3]
// conflict, 64 B each after alignment: arena 128 = bound, ratio 1.
// CHECK:      <svg xmlns="http://www.w3.org/2000/svg"
// CHECK:      <g class="section" data-buffers="2">
// CHECK:      <text class="title" {{.*}}>@two</text>
// Tooltips name the op that fills the buffer (a is only read: its alloc),
// then the ops at its first and last task, as the IR the pass was given
// prints them: b is filled by the first copy, a's last task.
// CHECK:      <rect class="buffer" {{.*}}><title>#0 memref.alloc memref&lt;16xf32&gt;&#10;loc(&quot;{{.*}}svg.mlir&quot;:[[A:[0-9]+]]:8)&#10;size 64 B&#10;offset {{0|64}}&#10;first: task 0, %alloc = memref.alloc at loc(&quot;{{.*}}svg.mlir&quot;:[[A]]:8)&#10;last: task 2, memref.copy at loc(&quot;{{.*}}svg.mlir&quot;:[[COPY:[0-9]+]]:3)</title></rect>
// CHECK:      <rect class="buffer" {{.*}}><title>#1 memref.copy memref&lt;16xf32&gt;&#10;loc(&quot;{{.*}}svg.mlir&quot;:[[COPY]]:3)&#10;allocated at loc(&quot;{{.*}}svg.mlir&quot;:[[B:[0-9]+]]:8)&#10;size 64 B&#10;offset {{0|64}}&#10;first: task 1, %alloc_0 = memref.alloc at loc(&quot;{{.*}}svg.mlir&quot;:[[B]]:8)&#10;last: task 3, memref.copy at loc(&quot;{{.*}}svg.mlir&quot;:{{[0-9]+}}:3)</title></rect>
// CHECK:      <path class="live"
// CHECK:      <line class="bound"
// CHECK:      <line class="arena"
// The peak: both live from task 1.
// CHECK:      <line class="peak"
// CHECK:      arena 128 B
// CHECK:      lower bound 128 B
// CHECK:      peak: task 1, 2 live
// CHECK:      peak op: memref.alloc
// CHECK:      arena / bound = 1.0000
// CHECK:      2 buffers, 5 tasks
// CHECK:      </svg>
// XML: 2
// EXT: timeline file '{{.*}}.png' must end in .svg or .html

func.func @two(%out: memref<16xf32>) {
  %a = memref.alloc() : memref<16xf32>
  %b = memref.alloc() : memref<16xf32>
  memref.copy %a, %b : memref<16xf32> to memref<16xf32>
  memref.copy %b, %out : memref<16xf32> to memref<16xf32>
  return
}
