// The flag form in stock mlir-opt: the plugin takes over pass flags after
// --load-pass-plugin and hands mlir-opt the same pipeline as --pass-pipeline
// (tools/memplan-plugin/FlagForm.cpp).
// RUN: mlir-opt --load-pass-plugin=%memplan_lib/MemPlanPlugin%shlibext %s --tensor-mem-plan=strategy=greedy-by-breadth | FileCheck %s
// Mixed with mlir-opt's own pass flags, in command-line order.
// RUN: mlir-opt --load-pass-plugin=%memplan_lib/MemPlanPlugin%shlibext %s --canonicalize --tensor-mem-plan="strategy=greedy-by-breadth remarks=true" --cse --dump-pass-pipeline 2>&1 | FileCheck %s --check-prefix=MIX
// From linalg on tensors: bufferize, deallocate, plan, lower, all as flags.
// RUN: mlir-opt --load-pass-plugin=%memplan_lib/MemPlanPlugin%shlibext %src/examples/embed/mlp.mlir --one-shot-bufferize="bufferize-function-boundaries" --buffer-deallocation-pipeline --tensor-mem-plan=strategy=greedy-by-size-offsets --convert-linalg-to-loops | FileCheck %s --check-prefix=CHAIN
// RUN: mlir-opt --load-pass-plugin=%memplan_lib/MemPlanPlugin%shlibext %src/examples/embed/mlp.mlir --memplan-pipeline=strategy=greedy-by-size-offsets | FileCheck %s --check-prefix=PIPE
// What does not work, with the reason in the message.
// RUN: not mlir-opt --load-pass-plugin=%memplan_lib/MemPlanPlugin%shlibext %s --tensor-mem-plan=strategy=nope 2>&1 | FileCheck %s --check-prefix=BADSTRATEGY
// RUN: not mlir-opt --load-pass-plugin=%memplan_lib/MemPlanPlugin%shlibext %s --tensor-mem-plan=bogus=1 2>&1 | FileCheck %s --check-prefix=BADKEY
// RUN: not mlir-opt %s --tensor-mem-plan --load-pass-plugin=%memplan_lib/MemPlanPlugin%shlibext 2>&1 | FileCheck %s --check-prefix=ORDER
// RUN: not mlir-opt %s --cse --load-pass-plugin=%memplan_lib/MemPlanPlugin%shlibext --tensor-mem-plan 2>&1 | FileCheck %s --check-prefix=BEFORE
// RUN: not mlir-opt --load-pass-plugin=%memplan_lib/MemPlanPlugin%shlibext %s --pass-pipeline="builtin.module(cse)" --tensor-mem-plan 2>&1 | FileCheck %s --check-prefix=PIPELINE
// The other order too: --pass-pipeline after a pass flag replaced the
// pipeline the flags made, and the pass silently did not run (exit 0).
// RUN: not mlir-opt --load-pass-plugin=%memplan_lib/MemPlanPlugin%shlibext %s --tensor-mem-plan --pass-pipeline="builtin.module(cse)" 2>&1 | FileCheck %s --check-prefix=PIPELINE-AFTER
// RUN: mlir-opt --load-pass-plugin=%memplan_lib/MemPlanPlugin%shlibext --help | FileCheck %s --check-prefix=PIPELINE-HELP

// Two conflicting 256-byte buffers: 512 bytes.
// CHECK: memref.alloc() {alignment = 64 : i64} : memref<512xi8>
// CHECK-COUNT-2: memref.view

// MIX:      builtin.module(
// MIX-NEXT:   canonicalize{
// MIX-NEXT:   tensor-mem-plan{{{.*}}remarks=true{{.*}}strategy=greedy-by-breadth
// MIX-NEXT:   cse
// MIX-NEXT: )
// MIX:      remark: tensor-mem-plan: 2 buffers planned, 512 bytes without planning, arena 512 bytes

// mlp.mlir: 4 planned buffers in 256 bytes (see test/Tools/embed.test),
// the arena freed since the deallocation pipeline ran.
// CHAIN:         %[[ARENA:.*]] = memref.alloc() {alignment = 64 : i64} : memref<256xi8>
// CHAIN-COUNT-4: memref.view %[[ARENA]]
// CHAIN:         memref.dealloc %[[ARENA]]
// The pipeline plans before deallocating; its CSE then folds the two views
// at offset 0 (h0 and h2) into one.
// PIPE:          %[[ARENA:.*]] = memref.alloc() {alignment = 64 : i64} : memref<256xi8>
// PIPE-COUNT-3:  memref.view %[[ARENA]]
// PIPE:          memref.dealloc %[[ARENA]]

// BADSTRATEGY: unknown strategy 'nope'
// BADKEY: for the --tensor-mem-plan option: <Pass-Options-Parser>: no such option bogus
// ORDER: Unknown command line argument '--tensor-mem-plan'
// BEFORE: for the --tensor-mem-plan option: pass flags before --load-pass-plugin cannot be mixed with memplan's: put --load-pass-plugin first
// PIPELINE: for the --tensor-mem-plan option: '--pass-pipeline' cannot be mixed with pass flags
// PIPELINE-AFTER: for the --pass-pipeline option: cannot be mixed with pass flags (it would replace the pipeline they made)
// PIPELINE-HELP: --pass-pipeline=<string> {{.*}}Textual description of the pass pipeline to run

func.func @f(%out: memref<64xf32>) {
  %a = memref.alloc() : memref<64xf32>
  %b = memref.alloc() : memref<64xf32>
  memref.copy %a, %b : memref<64xf32> to memref<64xf32>
  memref.copy %b, %out : memref<64xf32> to memref<64xf32>
  return
}
