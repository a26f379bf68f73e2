// -mlir-timing shows the pass's three phases nested under it: the analysis
// (an MLIR analysis, timed as every analysis is), the strategy and the
// rewrite, also when the pass runs once per function (the phases accumulate
// over functions).
// RUN: memplan-opt %s --tensor-mem-plan -mlir-timing -o /dev/null 2>&1 | FileCheck %s
// RUN: memplan-opt %s --pass-pipeline="builtin.module(func.func(tensor-mem-plan))" -mlir-timing -mlir-disable-threading -o /dev/null 2>&1 | FileCheck %s
// RUN: mlir-opt %s --load-pass-plugin=%memplan_lib/MemPlanPlugin%shlibext --pass-pipeline="builtin.module(tensor-mem-plan)" -mlir-timing -o /dev/null 2>&1 | FileCheck %s

// CHECK:      Execution time report
// CHECK:      TensorMemPlan
// CHECK-NEXT:   (A) memplan::BufferUsageAnalysis
// CHECK-NEXT:   (A) memplan strategy
// CHECK-NEXT:   (A) memplan rewrite
// CHECK-NOT:  (A) memplan

func.func @f(%out: memref<16xf32>) {
  %a = memref.alloc() : memref<16xf32>
  %b = memref.alloc() : memref<16xf32>
  memref.copy %a, %b : memref<16xf32> to memref<16xf32>
  memref.copy %b, %out : memref<16xf32> to memref<16xf32>
  return
}

func.func @g(%out: memref<16xf32>) {
  %a = memref.alloc() : memref<16xf32>
  memref.copy %a, %out : memref<16xf32> to memref<16xf32>
  return
}
