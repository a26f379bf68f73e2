// memplan-lower-to-llvm runs what memplan-pipeline leaves: arena views,
// memplan_rt calls (a size from an argument), math.exp, a private function
// that returns its argument, linalg loops. Planned and lowered by the named
// pipelines, the program prints what the unplanned one prints, through
// memplan-opt and through stock mlir-opt with the plugin.
//
// RUN: memplan-opt %s --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --buffer-deallocation-pipeline --convert-bufferization-to-memref %lower_math \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%runner_libs | sed -e 's/base@ = 0x[0-9a-f]*//' > %t.ref
// RUN: memplan-opt %s --memplan-pipeline -o %t.planned.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.planned.mlir
// RUN: memplan-opt %t.planned.mlir --memplan-lower-to-llvm \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%runner_libs,%memplan_lib/libmemplan_runtime%shlibext | sed -e 's/base@ = 0x[0-9a-f]*//' > %t.planned
// RUN: diff %t.ref %t.planned
// RUN: FileCheck %s < %t.planned
// The runtime's statistics name the source and give no fragmentation once
// nothing is in use (the program frees all it took).
// RUN: memplan-opt %t.planned.mlir --memplan-lower-to-llvm \
// RUN:   | env MEMPLAN_RT_STATS=1 mlir-runner -e main -entry-point-result=void -shared-libs=%runner_libs,%memplan_lib/libmemplan_runtime%shlibext 2>&1 >/dev/null | FileCheck %s --check-prefix=STATS
// RUN: mlir-opt --load-pass-plugin=%memplan_lib/MemPlanPlugin%shlibext %s --memplan-pipeline --memplan-lower-to-llvm \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%runner_libs,%memplan_lib/libmemplan_runtime%shlibext | sed -e 's/base@ = 0x[0-9a-f]*//' > %t.plugin
// RUN: diff %t.ref %t.plugin
//
// A bufferization.clone left by upstream's deallocation (no dynamic
// ownership for private functions) is lowered too.
// RUN: memplan-opt %s --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --tensor-mem-plan="deallocation-runs-after=true" --buffer-deallocation-pipeline -o %t.clone.mlir
// RUN: FileCheck %s --check-prefix=CLONE < %t.clone.mlir
// RUN: memplan-opt %t.clone.mlir --memplan-lower-to-llvm \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%runner_libs | sed -e 's/base@ = 0x[0-9a-f]*//' > %t.clone
// RUN: diff %t.ref %t.clone

// memplan-pipeline planned static buffers into an arena and served the
// dynamic ones from the runtime; it lowered the clone itself.
// IR-DAG: memref.view
// IR-DAG: call @memplan_rt_alloc
// IR-NOT: bufferization.clone
// CLONE: bufferization.clone
// STATS: memplan_rt BFC allocator: {{.*}}, source virtual, heaps
// STATS: bytes in use: 0
// STATS: fragmentation: - (nothing in use)

// x[i][j] = i + j (n x 4, n = 3 from main); y = exp(x - x) + x = 1 + x
// through a planned 3x4 temporary; the printed value is 2y = 2 + 2(i + j).
// CHECK: sizes = [3, 4]
// CHECK-NEXT: {{\[\[}}2, {{ *}}4, {{ *}}6, {{ *}}8],
// CHECK-NEXT: [4, {{ *}}6, {{ *}}8, {{ *}}10],
// CHECK-NEXT: [6, {{ *}}8, {{ *}}10, {{ *}}12]]
// CHECK: sizes = [4]
// CHECK-NEXT: [7, {{ *}}7, {{ *}}7, {{ *}}7]

#id = affine_map<(i, j) -> (i, j)>
#id1 = affine_map<(i) -> (i)>

func.func private @printMemrefF32(tensor<*xf32>)

// Returns its argument: the deallocation pipeline clones it.
func.func private @pass_through(%t: tensor<4xf32>) -> tensor<4xf32> {
  return %t : tensor<4xf32>
}

func.func @compute(%n: index) -> tensor<?x4xf32> {
  %e = tensor.empty(%n) : tensor<?x4xf32>
  %x = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]}
      outs(%e : tensor<?x4xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %s = arith.addi %i, %j : index
    %si = arith.index_cast %s : index to i32
    %f = arith.sitofp %si : i32 to f32
    linalg.yield %f : f32
  }  -> tensor<?x4xf32>
  %e2 = tensor.empty(%n) : tensor<?x4xf32>
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<?x4xf32>) outs(%e2 : tensor<?x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %d = arith.subf %a, %a : f32
    %ex = math.exp %d : f32
    %r = arith.addf %ex, %a : f32
    linalg.yield %r : f32
  } -> tensor<?x4xf32>
  %e3 = tensor.empty(%n) : tensor<?x4xf32>
  %z = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%y : tensor<?x4xf32>) outs(%e3 : tensor<?x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.addf %a, %a : f32
    linalg.yield %r : f32
  } -> tensor<?x4xf32>
  return %z : tensor<?x4xf32>
}

func.func @main() {
  %c3 = arith.constant 3 : index
  %z = call @compute(%c3) : (index) -> tensor<?x4xf32>
  %u = tensor.cast %z : tensor<?x4xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  // Static temporaries: a = 3, b = a + 4 = 7, planned in main's arena.
  %c = arith.constant 3.0 : f32
  %c4 = arith.constant 4.0 : f32
  %e = tensor.empty() : tensor<4xf32>
  %a = linalg.fill ins(%c : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %e1 = tensor.empty() : tensor<4xf32>
  %b = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
      ins(%a : tensor<4xf32>) outs(%e1 : tensor<4xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = arith.addf %v, %c4 : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  %p = call @pass_through(%b) : (tensor<4xf32>) -> tensor<4xf32>
  %pu = tensor.cast %p : tensor<4xf32> to tensor<*xf32>
  call @printMemrefF32(%pu) : (tensor<*xf32>) -> ()
  return
}
