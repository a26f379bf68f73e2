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
// Without it (and without out-parameters), @block allocates its own arena
// on every call.
// RUN: memplan-opt %s --memplan-pipeline="across-calls=false out-params=false report=%t.off.json" -o /dev/null
// RUN: %python -c "import json, sys; [print(f['function'], sum(a['arena_size'] for a in f['arenas']), f['footprint']['steady']) for f in json.load(open(sys.argv[1]))['functions']]" %t.off.json | FileCheck %s --check-prefix=OFF

// IR-LABEL: func.func private @block
// IR-SAME: memref<2048xi8> {memplan.arena_alignment = 64 : i64, memplan.arena_size = 2048 : i64, memplan.nocapture}
// @block's result is an out-parameter (tensor-mem-results-to-out-params):
// @forward keeps its signature for callers outside the module, @main calls
// a private copy of it.
// IR-LABEL: func.func private @forward_out_params
// Both call sites pass the same block arena, and the first call's result is
// a buffer beside it.
// IR: %[[R:.*]] = memref.view %arg2[%{{.*}}][] : memref<3072xi8> to memref<16x16xf32>
// IR: %[[A:.*]] = memref.view %arg2[%{{.*}}][] : memref<3072xi8> to memref<2048xi8>
// IR-NEXT: call @block(%{{.*}}, %[[R]], %[[A]])
// IR-NEXT: call @block(%[[R]], %arg1, %[[A]])
// IR-LABEL: func.func @main

// @block's arena is its callers': @forward holds one for both calls (2048
// bytes) and the first block's result (1024); the second one is @forward's
// result, planned in @main's arena (3072 + 1024).
// SIZES: block 2048 0
// SIZES: forward 3072 3072
// SIZES: forward_out_params 3072 0
// SIZES: main 4096 4096

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
