// RUN: not memplan-opt %s --tensor-mem-plan=strategy=nope 2>&1 | FileCheck %s --check-prefix=STRATEGY
// RUN: not memplan-opt %s --tensor-mem-plan=alignment=48 2>&1 | FileCheck %s --check-prefix=ALIGN
// RUN: not memplan-opt %s --tensor-mem-plan=alignment=0 2>&1 | FileCheck %s --check-prefix=ALIGN0
// RUN: not memplan-opt %s --tensor-mem-plan=budget-ms=-5 2>&1 | FileCheck %s --check-prefix=BUDGET
// RUN: not memplan-opt %s --tensor-mem-plan=arena=heap 2>&1 | FileCheck %s --check-prefix=ARENA

// STRATEGY: unknown strategy 'nope'; valid strategies: {{.*}}auto{{.*}}greedy-by-size-offsets
// ALIGN: alignment 48 is not a positive power of two
// ALIGN0: alignment 0 is not a positive power of two
// BUDGET: budget-ms -5 is negative
// ARENA: for the --arena option: Cannot find option named 'heap'
func.func @f() {
  %a = memref.alloc() : memref<4xf32>
  return
}
