// What became of the dynamic buffers: tensor-mem-plan's report lists them as
// "dynamic shape" (unplanned), and tensor-mem-lower-runtime (run by
// memplan-pipeline with the same report=) adds what the runtime lowering did.
// Three of the MLP's four buffers are sized at the entry and planned together
// into one run-time arena, their offsets computed at the entry (a symbolic
// plan, one order); the fourth is returned, so it stays as it was.
// RUN: memplan-opt %s --memplan-pipeline="report=%t.json" -o /dev/null
// RUN: FileCheck %s --input-file=%t.json
// Alone, with plan-at-run-time=false: every buffer one by one, and a report
// of its own; the remarks say the same, per function and per buffer.
// RUN: memplan-opt %s --memplan-pipeline="runtime=false" | memplan-opt --tensor-mem-lower-runtime="plan-at-run-time=false remarks=true report=%t.alone.json" -o /dev/null 2> %t.alone.err
// RUN: FileCheck %s --check-prefix=ALONE --input-file=%t.alone.json
// RUN: FileCheck %s --check-prefix=REMARK-ALONE --input-file=%t.alone.err
// RUN: memplan-opt %s --memplan-pipeline="runtime=false" | memplan-opt --tensor-mem-lower-runtime="remarks=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// Without remarks=true, nothing on stderr (the pipeline passes its own
// remarks= on):
// RUN: memplan-opt %s --memplan-pipeline="runtime=false" | memplan-opt --tensor-mem-lower-runtime -o /dev/null 2>&1 | FileCheck %s --check-prefix=QUIET --allow-empty
// RUN: memplan-opt %s --memplan-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=QUIET --allow-empty
// RUN: memplan-opt %s --memplan-pipeline="remarks=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// QUIET-NOT: remark
// RUN: memplan-opt %s --memplan-pipeline="runtime=false" | not memplan-opt --tensor-mem-lower-runtime="report=%t.missing/dir/r.json" -o /dev/null 2>&1 | FileCheck %s --check-prefix=BADPATH

// CHECK:      "function": "mlp",
// CHECK:      "runtime": {
// The first relu writes over the matmul output it reads (dying there, sized
// by the same %n): one in-place pair.
// CHECK-NEXT:   "inplace_pairs": 1,
// CHECK-NEXT:   "left_alone": [
// CHECK-NEXT:     {
// CHECK-NEXT:       "location": "loc(\"{{.*}}lower-runtime-report.mlir\":78:9)",
// CHECK-NEXT:       "reason": "returned"
// CHECK:        "per_buffer": [],
// CHECK-NEXT:   "plan": "symbolic",
// CHECK-NEXT:   "run_time_arena": [
// CHECK-NEXT:     {
// CHECK-NEXT:       "location": "loc(\"{{.*}}lower-runtime-report.mlir\":66:9)"
// CHECK:            "location": "loc(\"{{.*}}lower-runtime-report.mlir\":69:9)"
// CHECK:            "location": "loc(\"{{.*}}lower-runtime-report.mlir\":75:9)"
// CHECK-NEXT:     }
// CHECK-NEXT:   ],
// CHECK-NEXT:   "symbolic_orders": 1
// CHECK:      "unplanned": [
// CHECK-COUNT-3: "served_at_run_time": "run-time arena"
// CHECK-NOT:  "served_at_run_time"
// CHECK:      "weights"

// ALONE:      "function": "mlp",
// ALONE:      "per_buffer": [
// ALONE-COUNT-3: "reason": "plan-at-run-time=false"
// ALONE:      "plan": "per buffer",
// ALONE:      "run_time_arena": []

// REMARK-ALONE-COUNT-3: remark: tensor-mem-lower-runtime: served one by one by memplan_rt_alloc: plan-at-run-time=false
// REMARK-ALONE: remark: tensor-mem-lower-runtime: @mlp: no run-time arena, 3 served one by one (memplan_rt_alloc), 1 left alone

// REMARK-COUNT-3: remark: tensor-mem-lower-runtime: in the function's run-time arena (offsets computed at entry)
// REMARK: remark: tensor-mem-lower-runtime: @mlp: 3 dynamic buffers planned together in one run-time arena (symbolic plan, 1 order{{(, 1 in place)?}}), 0 served one by one (memplan_rt_alloc), 1 left alone

// BADPATH: error: tensor-mem-lower-runtime: cannot write '{{.*}}r.json'

#map = affine_map<(d0, d1) -> (d0, d1)>
func.func @mlp(%x: tensor<?x64xf32>, %w1: tensor<64x64xf32>, %w2: tensor<64x64xf32>) -> tensor<?x64xf32> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %n = tensor.dim %x, %c0 : tensor<?x64xf32>
  %e0 = tensor.empty(%n) : tensor<?x64xf32>
  %f0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<?x64xf32>) -> tensor<?x64xf32>
  %h = linalg.matmul ins(%x, %w1 : tensor<?x64xf32>, tensor<64x64xf32>) outs(%f0 : tensor<?x64xf32>) -> tensor<?x64xf32>
  %e1 = tensor.empty(%n) : tensor<?x64xf32>
  %r = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%h : tensor<?x64xf32>) outs(%e1 : tensor<?x64xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.maximumf %a, %zero : f32
    linalg.yield %m : f32
  } -> tensor<?x64xf32>
  %e2 = tensor.empty(%n) : tensor<?x64xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<?x64xf32>) -> tensor<?x64xf32>
  %o = linalg.matmul ins(%r, %w2 : tensor<?x64xf32>, tensor<64x64xf32>) outs(%f2 : tensor<?x64xf32>) -> tensor<?x64xf32>
  %e3 = tensor.empty(%n) : tensor<?x64xf32>
  %y = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%o : tensor<?x64xf32>) outs(%e3 : tensor<?x64xf32>) {
  ^bb0(%a: f32, %b: f32):
    %m = arith.maximumf %a, %zero : f32
    linalg.yield %m : f32
  } -> tensor<?x64xf32>
  return %y : tensor<?x64xf32>
}
