// RUN: memplan-opt %s --tensor-mem-plan="remarks=true report=%t.json" -verify-diagnostics | FileCheck %s
// RUN: FileCheck %s --check-prefix=REPORT < %t.json

// An op with an Allocate effect other than memref.alloc (gpu.alloc) is left
// alone, with a reason in the remark and the report; the memref.alloc beside
// it is still planned.

// CHECK-LABEL: func.func @gpu_alloc_beside_alloc
// CHECK:         gpu.alloc () : memref<4xf32>
// CHECK:         memref.view
// CHECK-NOT:     memref.alloc() : memref<4xf32>
// expected-remark @below {{tensor-mem-plan: 1 buffer planned}}
func.func @gpu_alloc_beside_alloc(%out: memref<4xf32>) {
  // expected-remark @below {{buffer not planned: allocated by 'gpu.alloc', which the rewrite does not turn into a view of the arena}}
  %g = gpu.alloc () : memref<4xf32>
  %a = memref.alloc() : memref<4xf32>
  memref.copy %g, %a : memref<4xf32> to memref<4xf32>
  memref.copy %a, %out : memref<4xf32> to memref<4xf32>
  return
}

// REPORT: "op": "gpu.alloc",
// REPORT-NEXT: "reason": "allocated by 'gpu.alloc', which the rewrite does not turn into a view of the arena"
