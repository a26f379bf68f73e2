// Stock mlir-opt loads the plugin and runs the pass by pipeline.
// RUN: mlir-opt %s --load-pass-plugin=%memplan_lib/MemPlanPlugin%shlibext --pass-pipeline='builtin.module(func.func(tensor-mem-plan{strategy=greedy-by-size-offsets}))' | FileCheck %s
// RUN: mlir-opt %s --load-pass-plugin=%memplan_lib/MemPlanPlugin%shlibext --pass-pipeline='builtin.module(tensor-mem-plan)' | FileCheck %s
// RUN: not mlir-opt %s --load-pass-plugin=%memplan_lib/MemPlanPlugin%shlibext --pass-pipeline='builtin.module(func.func(tensor-mem-plan{strategy=nope}))' 2>&1 | FileCheck %s --check-prefix=BAD

// Two conflicting 256-byte buffers: 512 bytes.
// CHECK: memref.alloc() {alignment = 64 : i64} : memref<512xi8>
// CHECK-COUNT-2: memref.view
// BAD: unknown strategy 'nope'; valid strategies:
func.func @f(%out: memref<64xf32>) {
  %a = memref.alloc() : memref<64xf32>
  %b = memref.alloc() : memref<64xf32>
  memref.copy %a, %b : memref<64xf32> to memref<64xf32>
  memref.copy %b, %out : memref<64xf32> to memref<64xf32>
  return
}
