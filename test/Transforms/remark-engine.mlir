// Every memplan remark goes through one channel (emitPassRemark,
// include/memplan/Transforms/Remarks.h): MLIR's remark engine, under the
// category memplan.<pass>, when --remarks-filter selects it; the diagnostic
// remark with the pass's remarks=true; nothing when neither asks.
// RUN: memplan-opt %s --memplan-pipeline --remarks-filter='memplan.*' --remark-format=yaml --remarks-output-file=%t.yaml -o /dev/null 2>&1 | count 0
// RUN: FileCheck %s --input-file=%t.yaml
// Stock mlir-opt with the plugin: the same remarks.
// RUN: mlir-opt %s --load-pass-plugin=%memplan_lib/MemPlanPlugin%shlibext --pass-pipeline='builtin.module(memplan-pipeline)' --remarks-filter='memplan.*' --remark-format=yaml --remarks-output-file=%t.plugin.yaml -o /dev/null
// RUN: FileCheck %s --input-file=%t.plugin.yaml
// A filter matches a whole category: one pass; or one kind of remark.
// RUN: memplan-opt %s --memplan-pipeline --remarks-filter=memplan.tensor-mem-plan --remark-format=yaml --remarks-output-file=%t.plan.yaml -o /dev/null
// RUN: FileCheck %s --check-prefix=ONE --implicit-check-not=Pass: --input-file=%t.plan.yaml
// RUN: memplan-opt %s --memplan-pipeline --remarks-filter-missed='memplan.*' --remark-format=yaml --remarks-output-file=%t.missed.yaml -o /dev/null
// RUN: FileCheck %s --check-prefix=MISSED --implicit-check-not='--- !' --input-file=%t.missed.yaml
// Neither remarks=true nor a filter: not a line.
// RUN: memplan-opt %s --memplan-pipeline -o /dev/null 2>&1 | count 0
// remarks=true: the diagnostics, in the engine's words.
// RUN: memplan-opt %s --memplan-pipeline=remarks=true -o /dev/null 2>&1 | FileCheck %s --check-prefix=TEXT

// CHECK:      --- !Passed
// CHECK-NEXT: Pass: memplan.tensor-mem-hoist-constants
// CHECK-NEXT: Name: ReadThrough
// CHECK:      Function: f
// CHECK-NEXT: Args:
// CHECK-NEXT:   - Remark: 'tensor-mem-hoist-constants: 1 permuted constants read through a map (128 bytes never materialized)'
// CHECK:      --- !Missed
// CHECK-NEXT: Pass: memplan.tensor-mem-schedule
// CHECK-NEXT: Name: BlockLeftAlone
// CHECK:        - Remark: 'tensor-mem-schedule: block left alone: a dynamic size not computed from the function''s arguments by arithmetic'
// CHECK:      --- !Analysis
// CHECK-NEXT: Pass: memplan.tensor-mem-schedule
// CHECK-NEXT: Name: Summary
// CHECK:        - Remark: 'tensor-mem-schedule: ''f'' model peak
// CHECK:      --- !Missed
// CHECK-NEXT: Pass: memplan.tensor-mem-plan
// CHECK-NEXT: Name: BufferNotPlanned
// CHECK-NEXT: DebugLoc: { File: '{{.*}}remark-engine.mlir',
// CHECK:      Line: [[@LINE+51]], Column: 9 }
// CHECK-NEXT: Function: f
// CHECK-NEXT: Args:
// CHECK-NEXT:   - Remark: 'buffer not planned: returned'
// CHECK-NEXT:   - Reason: returned
// CHECK:      --- !Missed
// CHECK-NEXT: Pass: memplan.tensor-mem-plan
// CHECK-NEXT: Name: BufferNotPlanned
// CHECK:        - Reason: dynamic shape
// CHECK:      --- !Passed
// CHECK-NEXT: Pass: memplan.tensor-mem-plan
// CHECK-NEXT: Name: ArenaPlanned
// CHECK:        - Remark: 'tensor-mem-plan: 2 buffers planned, 256 bytes without planning, arena 256 bytes, lower bound 256, strategy auto
// CHECK-NEXT:   - BuffersPlanned: '2'
// CHECK:        - ArenaBytes: '256'
// CHECK:      --- !Missed
// CHECK-NEXT: Pass: memplan.tensor-mem-lower-runtime
// CHECK-NEXT: Name: ServedOneByOne
// CHECK:        - Remark: 'tensor-mem-lower-runtime: served one by one by memplan_rt_alloc: its sizes are not known at the function''s entry
// CHECK:      --- !Analysis
// CHECK-NEXT: Pass: memplan.tensor-mem-lower-runtime
// CHECK-NEXT: Name: Summary
// CHECK:        - Remark: 'tensor-mem-lower-runtime: @f: no run-time arena, 1 served one by one

// ONE-COUNT-3: Pass: memplan.tensor-mem-plan

// MISSED-COUNT-4: --- !Missed

// TEXT: remark: tensor-mem-hoist-constants: 1 permuted constants read through a map (128 bytes never materialized)
// TEXT: remark: tensor-mem-schedule: block left alone: a dynamic size not computed from the function's arguments by arithmetic
// TEXT: remark: tensor-mem-schedule: 'f' model peak
// TEXT: remark: buffer not planned: returned
// TEXT: remark: buffer not planned: dynamic shape
// TEXT: remark: tensor-mem-plan: 2 buffers planned, 256 bytes without planning, arena 256 bytes, lower bound 256, strategy auto
// TEXT: remark: tensor-mem-lower-runtime: served one by one by memplan_rt_alloc: its sizes are not known at the function's entry
// TEXT: remark: tensor-mem-lower-runtime: @f: no run-time arena, 1 served one by one

// A transposed constant (read through), three temporaries (one returned) and
// a dynamic one (left to the runtime), sized by a value read from memory
// (which the order does not model).
func.func @f(%x: tensor<4x8xf32>, %nt: tensor<index>) -> (tensor<4x8xf32>, f32) {
  %n = tensor.extract %nt[] : tensor<index>
  %w = arith.constant dense<1.0> : tensor<8x4xf32>
  %e0 = tensor.empty() : tensor<4x8xf32>
  %wt = linalg.transpose ins(%w : tensor<8x4xf32>) outs(%e0 : tensor<4x8xf32>) permutation = [1, 0]
  %c0 = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x8xf32>
  %a = linalg.fill ins(%c0 : f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %b = linalg.add ins(%x, %wt : tensor<4x8xf32>, tensor<4x8xf32>) outs(%a : tensor<4x8xf32>) -> tensor<4x8xf32>
  %e2 = tensor.empty() : tensor<4x8xf32>
  %c = linalg.mul ins(%b, %x : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e2 : tensor<4x8xf32>) -> tensor<4x8xf32>
  %e3 = tensor.empty() : tensor<4x8xf32>
  %d = linalg.add ins(%c, %b : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e3 : tensor<4x8xf32>) -> tensor<4x8xf32>
  %dyn = tensor.empty(%n) : tensor<?xf32>
  %dz = linalg.fill ins(%c0 : f32) outs(%dyn : tensor<?xf32>) -> tensor<?xf32>
  %i0 = arith.constant 0 : index
  %s = tensor.extract %dz[%i0] : tensor<?xf32>
  return %d, %s : tensor<4x8xf32>, f32
}
