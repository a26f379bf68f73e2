// Across calls (tensor-mem-plan across-calls, on in memplan-pipeline): the
// private @block is planned before its caller and gets its arena as an
// argument; each call site's arena is then a buffer of @forward's arena,
// live for its call, so the second call reuses the first one's bytes: one
// block arena (2048 bytes: two 1 KiB temporaries live together) where each
// call site had its own. The planned program prints what the unplanned one
// prints.
//
// RUN: memplan-opt %s --one-shot-bufferize="bufferize-function-boundaries" %lower_to_llvm | mlir-runner -e main -entry-point-result=void -shared-libs=%runner_libs | sed -e 's/base@ = 0x[0-9a-f]*//' > %t.ref
// RUN: memplan-opt %s --memplan-pipeline="report=%t.json" -o %t.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// RUN: memplan-opt %t.mlir %lower_to_llvm | mlir-runner -e main -entry-point-result=void -shared-libs=%runner_libs,%memplan_lib/libmemplan_runtime%shlibext | sed -e 's/base@ = 0x[0-9a-f]*//' > %t.out
// RUN: diff %t.ref %t.out
// RUN: %python -c "import json, sys; [print(f['function'], sum(a['arena_size'] for a in f['arenas']), f['footprint']['steady']) for f in json.load(open(sys.argv[1]))['functions']]" %t.json | FileCheck %s --check-prefix=SIZES
// Without it, @block allocates its own arena on every call.
// RUN: memplan-opt %s --memplan-pipeline="across-calls=false report=%t.off.json" -o /dev/null
// RUN: %python -c "import json, sys; [print(f['function'], sum(a['arena_size'] for a in f['arenas']), f['footprint']['steady']) for f in json.load(open(sys.argv[1]))['functions']]" %t.off.json | FileCheck %s --check-prefix=OFF

// IR-LABEL: func.func private @block
// IR-SAME: memref<2048xi8> {memplan.arena_alignment = 64 : i64, memplan.arena_size = 2048 : i64, memplan.nocapture}
// IR-LABEL: func.func @forward
// IR: %[[A:.*]] = memref.alloc() {alignment = 64 : i64} : memref<2048xi8>
// Both call sites pass the same bytes (a whole-arena view at offset 0
// folds to the arena).
// IR-NEXT: call @block(%{{.*}}, %[[A]])
// IR-NEXT: call @block(%{{.*}}, %[[A]])

// @block's arena is its callers': @forward holds one for both calls.
// SIZES: block 2048 0
// SIZES: forward 2048 2048
// SIZES: main 0 2048

// OFF: block 2048 2048
// OFF: forward 0 2048

#id = affine_map<(d0, d1) -> (d0, d1)>
func.func private @printMemrefF32(tensor<*xf32>)
func.func private @block(%x: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %e = tensor.empty() : tensor<16x16xf32>
  %a = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<16x16xf32>) outs(%e : tensor<16x16xf32>) {
  ^bb0(%v: f32, %o: f32):
    %d = arith.addf %v, %v : f32
    linalg.yield %d : f32
  } -> tensor<16x16xf32>
  %e2 = tensor.empty() : tensor<16x16xf32>
  %b = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%a, %x : tensor<16x16xf32>, tensor<16x16xf32>) outs(%e2 : tensor<16x16xf32>) {
  ^bb0(%v: f32, %w: f32, %o: f32):
    %d = arith.mulf %v, %w : f32
    linalg.yield %d : f32
  } -> tensor<16x16xf32>
  %e3 = tensor.empty() : tensor<16x16xf32>
  %c = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%b, %a : tensor<16x16xf32>, tensor<16x16xf32>) outs(%e3 : tensor<16x16xf32>) {
  ^bb0(%v: f32, %w: f32, %o: f32):
    %d = arith.subf %v, %w : f32
    linalg.yield %d : f32
  } -> tensor<16x16xf32>
  return %c : tensor<16x16xf32>
}
func.func @forward(%x: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %1 = func.call @block(%x) : (tensor<16x16xf32>) -> tensor<16x16xf32>
  %2 = func.call @block(%1) : (tensor<16x16xf32>) -> tensor<16x16xf32>
  return %2 : tensor<16x16xf32>
}
func.func @main() {
  %c = arith.constant dense<0.5> : tensor<16x16xf32>
  %r = func.call @forward(%c) : (tensor<16x16xf32>) -> tensor<16x16xf32>
  %u = tensor.cast %r : tensor<16x16xf32> to tensor<*xf32>
  func.call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
