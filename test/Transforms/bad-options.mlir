// RUN: not memplan-opt %s --tensor-mem-plan=strategy=nope 2>&1 | FileCheck %s --check-prefix=STRATEGY
// RUN: not memplan-opt %s --tensor-mem-plan=alignment=48 2>&1 | FileCheck %s --check-prefix=ALIGN
// RUN: not memplan-opt %s --tensor-mem-plan=alignment=0 2>&1 | FileCheck %s --check-prefix=ALIGN0
// RUN: not memplan-opt %s --tensor-mem-plan=budget-ms=-5 2>&1 | FileCheck %s --check-prefix=BUDGET
// RUN: not memplan-opt %s --tensor-mem-plan=arena=heap 2>&1 | FileCheck %s --check-prefix=ARENA
// RUN: not memplan-opt %s --tensor-mem-plan=dim-bounds=-5 2>&1 | FileCheck %s --check-prefix=DIMBOUNDS
// RUN: not memplan-opt %s --memplan-pipeline=dim-bounds=-2 2>&1 | FileCheck %s --check-prefix=DIMBOUNDS2
// RUN: memplan-opt %s --tensor-mem-plan=dim-bounds=-1 | FileCheck %s --check-prefix=NONE

// STRATEGY: unknown strategy 'nope'; valid strategies: {{.*}}auto{{.*}}greedy-by-size-offsets
// ALIGN: alignment 48 is not a positive power of two
// ALIGN0: alignment 0 is not a positive power of two
// BUDGET: budget-ms -5 is negative
// ARENA: for the --arena option: Cannot find option named 'heap'
// DIMBOUNDS: tensor-mem-plan: dim-bounds -5 is negative (-1 means no bound)
// DIMBOUNDS2: tensor-mem-plan: dim-bounds -2 is negative (-1 means no bound)
// NONE: memref.view
func.func @f() {
  %a = memref.alloc() : memref<4xf32>
  return
}
