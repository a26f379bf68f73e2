// The hoisting's init function runs exactly once when several threads make
// the first call at once (issue 21, item 6). W (256x256, from a splat through
// a payload that reads linalg.index, so it is not folded) is hoisted into a
// global filled on the first call; Inputs/hoist-init-threads.c calls @f from
// 4 threads released by one barrier, 3 times each, and checks every output.
// It runs plain, then with the lowered code instrumented by ThreadSanitizer
// (the functions marked sanitize_thread so that their loads and stores are
// checked, not only their atomics): the ready flag's plain load and store,
// and the init function's writes to W, used to be data races.
//
// RUN: memplan-opt %s --memplan-pipeline="hoist-constants=speed fold-limit-bytes=0" %lower_to_llvm -o %t.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// RUN: %llvm_lib/../bin/mlir-translate --mlir-to-llvmir %t.mlir -o %t.ll
// RUN: %llvm_lib/../bin/llc -O2 -filetype=obj -relocation-model=pic %t.ll -o %t.o
// RUN: cc -O1 %S/Inputs/hoist-init-threads.c %t.o -o %t.plain -lpthread
// RUN: %t.plain | FileCheck %s
// RUN: sed -E 's/^(define [^{]*)\{$/\1 sanitize_thread {/' %t.ll > %t.tsan.ll
// RUN: %llvm_lib/../bin/opt -passes='tsan-module,function(tsan)' -tsan-instrument-memintrinsics=false %t.tsan.ll -o %t.tsan.bc
// RUN: %llvm_lib/../bin/llc -O2 -filetype=obj -relocation-model=pic %t.tsan.bc -o %t.tsan.o
// RUN: cc -fsanitize=thread -O1 -g %S/Inputs/hoist-init-threads.c %t.tsan.o -o %t.tsan -lpthread
// RUN: env TSAN_OPTIONS=halt_on_error=1 %t.tsan 2>&1 | FileCheck %s --check-prefix=TSAN
// CHECK: OK
// TSAN-NOT: WARNING: ThreadSanitizer
// TSAN: OK
// TSAN-NOT: WARNING: ThreadSanitizer

// The hoisting happened, and the flag is only touched by atomics.
// IR: llvm.mlir.global private @__memplan_hoisted_f
// IR: llvm.atomicrmw _or
// IR-NOT: llvm.load {{.*}}__memplan_ready

#id = affine_map<(d0, d1) -> (d0, d1)>

func.func @f(%am: memref<1x256xf32>, %out: memref<1x256xf32>) attributes {llvm.emit_c_interface} {
  %a = bufferization.to_tensor %am restrict : memref<1x256xf32> to tensor<1x256xf32>
  %one = arith.constant dense<1.0> : tensor<256x256xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<256x256xf32>
  %w = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%one : tensor<256x256xf32>) outs(%e : tensor<256x256xf32>) {
  ^bb0(%in: f32, %o: f32):
    %i = linalg.index 0 : index
    %ii = arith.index_cast %i : index to i32
    %if = arith.sitofp %ii : i32 to f32
    %r = arith.addf %in, %if : f32
    linalg.yield %r : f32
  } -> tensor<256x256xf32>
  %eo = tensor.empty() : tensor<1x256xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%eo : tensor<1x256xf32>) -> tensor<1x256xf32>
  %m = linalg.matmul ins(%a, %w : tensor<1x256xf32>, tensor<256x256xf32>) outs(%acc : tensor<1x256xf32>) -> tensor<1x256xf32>
  bufferization.materialize_in_destination %m in restrict writable %out : (tensor<1x256xf32>, memref<1x256xf32>) -> ()
  return
}
