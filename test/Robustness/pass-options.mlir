// Bad pass options, through memplan-opt and through stock mlir-opt with the
// plugin: a message and a non-zero exit, before any IR is touched.
// RUN: not memplan-opt %s --tensor-mem-plan=strategy=no-such 2> %t.err
// RUN: memplan-solve --list | cut -d' ' -f1 | tr '\n' ',' | sed -e 's/,$//' -e 's/,/, /g' > %t.names
// The message lists exactly the registered names (those of memplan-solve --list).
// RUN: grep -F -- "unknown strategy 'no-such'; valid strategies: $(cat %t.names)" %t.err
// RUN: not memplan-opt %s --tensor-mem-plan=alignment=0 2>&1 | FileCheck %s --check-prefix=ALIGN0
// RUN: not memplan-opt %s --tensor-mem-plan=alignment=3 2>&1 | FileCheck %s --check-prefix=ALIGN3
// RUN: not memplan-opt %s --tensor-mem-plan=alignment=-64 2>&1 | FileCheck %s --check-prefix=ALIGNNEG
// RUN: not memplan-opt %s --tensor-mem-plan=alignment=four 2>&1 | FileCheck %s --check-prefix=ALIGNWORD
// RUN: not memplan-opt %s --tensor-mem-plan=budget-ms=-1 2>&1 | FileCheck %s --check-prefix=BUDGET
// Alignments above 1 GiB are the option's fault: not "no strategy produced a
// valid plan" (2^62), not a 4 TiB arena planned without a word (2^40).
// RUN: not memplan-opt %s --tensor-mem-plan=alignment=4611686018427387904 2>&1 | FileCheck %s --check-prefix=ALIGNHUGE
// RUN: not memplan-opt %s --tensor-mem-plan=alignment=1099511627776 2>&1 | FileCheck %s --check-prefix=ALIGNTERA
// RUN: not memplan-opt %s --memplan-pipeline=alignment=1099511627776 2>&1 | FileCheck %s --check-prefix=ALIGNTERA
// RUN: not memplan-opt %s --tensor-mem-lower-runtime=alignment=1099511627776 2>&1 | FileCheck %s --check-prefix=RTTERA
// RUN: not mlir-opt --load-pass-plugin=%memplan_lib/MemPlanPlugin%shlibext %s --pass-pipeline='builtin.module(func.func(tensor-mem-plan{strategy=no-such}))' 2>&1 | FileCheck %s --check-prefix=PLUGIN
// RUN: not mlir-opt --load-pass-plugin=%memplan_lib/MemPlanPlugin%shlibext %s --pass-pipeline='builtin.module(func.func(tensor-mem-plan{alignment=6}))' 2>&1 | FileCheck %s --check-prefix=ALIGN6
// ALIGN0: alignment 0 is not a positive power of two
// ALIGN3: alignment 3 is not a positive power of two
// ALIGNNEG: alignment -64 is not a positive power of two
// ALIGNWORD: for the --alignment option: 'four' value invalid
// BUDGET: budget-ms -1 is negative
// ALIGNHUGE: error: tensor-mem-plan: alignment 4611686018427387904 is above the largest alignment memplan plans with, 1073741824 (1 GiB)
// ALIGNTERA: error: tensor-mem-plan: alignment 1099511627776 is above the largest alignment memplan plans with, 1073741824 (1 GiB)
// RTTERA: error: tensor-mem-lower-runtime: alignment 1099511627776 is above the largest alignment memplan plans with, 1073741824 (1 GiB)
// PLUGIN: unknown strategy 'no-such'; valid strategies: {{.*}}auto
// ALIGN6: alignment 6 is not a positive power of two
func.func @f() {
  %c0 = arith.constant 0 : index
  %a = memref.alloc() : memref<4xf32>
  %v = memref.load %a[%c0] : memref<4xf32>
  return
}
