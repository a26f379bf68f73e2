// Returned buffers as out-parameters (tensor-mem-results-to-out-params, on
// in memplan-pipeline): @double (private) and @square (public) return a
// buffer each allocates; after the pass, @main allocates each right before
// the call, and tensor-mem-plan plans those three buffers in @main's arena
// (two live at once: 2 x 1024 bytes). @square keeps its signature for
// callers outside the module; @main calls a private copy. The planned
// program prints what the unplanned one prints.
//
// RUN: memplan-opt %s --one-shot-bufferize="bufferize-function-boundaries" %lower_to_llvm | mlir-runner -e main -entry-point-result=void -shared-libs=%runner_libs | grep -v base@ > %t.ref
// RUN: memplan-opt %s --memplan-pipeline="report=%t.json" -o %t.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// RUN: memplan-opt %t.mlir %lower_to_llvm | mlir-runner -e main -entry-point-result=void -shared-libs=%runner_libs,%memplan_lib/libmemplan_runtime%shlibext | grep -v base@ > %t.out
// RUN: diff %t.ref %t.out
// RUN: FileCheck %s --input-file=%t.out
// RUN: %python -c "import json, sys; [print(f['function'], len(b), sum(a['arena_size'] for a in f['arenas'])) for f in json.load(open(sys.argv[1]))['functions'] for b in [[x for a in f['arenas'] for x in a['buffers']]]]" %t.json | FileCheck %s --check-prefix=REPORT
// RUN: %python -c "import json, sys; [print(b['location']) for f in json.load(open(sys.argv[1]))['functions'] if f['function'] == 'main' for a in f['arenas'] for b in a['buffers']]" %t.json | FileCheck %s --check-prefix=LOC
// Without the pass, each callee's result is returned, not planned.
// RUN: memplan-opt %s --memplan-pipeline="out-params=false report=%t.off.json" -o /dev/null
// RUN: %python -c "import json, sys; [print(f['function'], len(b), sum(a['arena_size'] for a in f['arenas'])) for f in json.load(open(sys.argv[1]))['functions'] for b in [[x for a in f['arenas'] for x in a['buffers']]]]" %t.off.json | FileCheck %s --check-prefix=OFF

// IR-LABEL: func.func private @double(
// IR-SAME: memref<256xf32>, %{{.*}}: memref<256xf32>{{.*}}) {
// IR-LABEL: func.func @square(
// IR-SAME: -> memref<256xf32>
// IR-LABEL: func.func private @square_out_params(
// IR-LABEL: func.func @main()
// IR: %[[A:.*]] = memref.alloc() {alignment = 64 : i64} : memref<2048xi8>
// IR-NOT: memref.alloc
// IR: call @double(
// IR: call @square_out_params(
// IR: call @double(

// (0.75 * 2)^2 * 2
// CHECK: [4.5, 4.5, 4.5,

// The three results, in @main's arena: @double's first result is dead when
// the second call writes.
// REPORT-DAG: main 3 2048
// REPORT-DAG: double 0 0
// OFF-DAG: main 0 0
// OFF-DAG: double 0 0

#id = affine_map<(d0) -> (d0)>
func.func private @printMemrefF32(tensor<*xf32>)

func.func private @double(%x: tensor<256xf32>) -> tensor<256xf32> {
  %e = tensor.empty() : tensor<256xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%x : tensor<256xf32>) outs(%e : tensor<256xf32>) {
  ^bb0(%v: f32, %o: f32):
    %d = arith.addf %v, %v : f32
    linalg.yield %d : f32
  } -> tensor<256xf32>
  return %r : tensor<256xf32>
}

func.func @square(%x: tensor<256xf32>) -> tensor<256xf32> {
  %e = tensor.empty() : tensor<256xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%x : tensor<256xf32>) outs(%e : tensor<256xf32>) {
  ^bb0(%v: f32, %o: f32):
    %d = arith.mulf %v, %v : f32
    linalg.yield %d : f32
  } -> tensor<256xf32>
  return %r : tensor<256xf32>
}

func.func @main() {
  %c = arith.constant dense<0.75> : tensor<256xf32>
  // Each result is a buffer of @main's arena, where the call is.
  // LOC-DAG: calls-out-params.mlir":[[@LINE+1]]:8)
  %1 = func.call @double(%c) : (tensor<256xf32>) -> tensor<256xf32>
  // LOC-DAG: calls-out-params.mlir":[[@LINE+1]]:8)
  %2 = func.call @square(%1) : (tensor<256xf32>) -> tensor<256xf32>
  // LOC-DAG: calls-out-params.mlir":[[@LINE+1]]:8)
  %3 = func.call @double(%2) : (tensor<256xf32>) -> tensor<256xf32>
  %u = tensor.cast %3 : tensor<256xf32> to tensor<*xf32>
  func.call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
