// Malformed IR: a located parse or verifier error and a non-zero exit; the
// pass never runs on it.
// RUN: not memplan-opt %S/Inputs/malformed.mlir --tensor-mem-plan 2>&1 | FileCheck %s --check-prefix=PARSE
// PARSE: malformed.mlir:2:{{[0-9]+}}: error: expected ',' or '>' in memref type
// RUN: not memplan-opt %s --tensor-mem-plan 2>&1 | FileCheck %s --check-prefix=VERIFY
// VERIFY: ir-malformed.mlir:[[@LINE+4]]:8: error: 'memref.alloc' op incorrect number of dynamic sizes
// RUN: printf '' > %t.empty.mlir
// RUN: memplan-opt %t.empty.mlir --tensor-mem-plan | mlir-opt --verify-each
func.func @f() {
  %a = "memref.alloc"() <{operandSegmentSizes = array<i32: 0, 0>}> : () -> memref<?xf32>
  return
}
