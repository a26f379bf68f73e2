// memplan-pipeline: bufferize -> plan -> deallocate -> runtime, from
// memplan-opt and from stock mlir-opt with the plugin.
// RUN: memplan-opt %s --memplan-pipeline="strategy=greedy-by-size-offsets" | FileCheck %s
// RUN: mlir-opt %s --load-pass-plugin=%memplan_lib/MemPlanPlugin%shlibext --pass-pipeline="builtin.module(memplan-pipeline{strategy=greedy-by-size-offsets})" | FileCheck %s
// RUN: memplan-opt %s --memplan-pipeline="deallocate=false" | FileCheck %s --check-prefix=NODEALLOC
// RUN: memplan-opt %s --memplan-pipeline="runtime=false" | FileCheck %s --check-prefix=NORT
// RUN: not memplan-opt %s --memplan-pipeline="strategy=nope" 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: memplan-opt %s --memplan-pipeline="remarks=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=PLANFIRST
// (out-params=false: @main would allocate @three's result itself.)
// RUN: memplan-opt %s --memplan-pipeline="arena=argument preserve-intermediates=true out-params=false" | FileCheck %s --check-prefix=OPTS
// Every tensor-mem-plan option is a memplan-pipeline option too, and
// reaches the pass: pipeline-pass-options.test.
// RUN: memplan-opt %S/Inputs/chain.mlir --memplan-pipeline="strategy=greedy-by-size-offsets budget-ms=0 inplace=false" | FileCheck %s --check-prefix=CHAIN
// RUN: memplan-opt %S/Inputs/chain.mlir --memplan-pipeline="remarks=true" 2>&1 | FileCheck %s --check-prefix=INPLACE
// RUN: memplan-opt %S/Inputs/chain.mlir --memplan-pipeline="preserve-intermediates=true" | FileCheck %s --check-prefix=PRESERVE
// RUN: memplan-opt %S/Inputs/chain.mlir --memplan-pipeline="alignment=512 inplace=false" | FileCheck %s --check-prefix=ALIGN
// RUN: memplan-opt %S/Inputs/chain.mlir --memplan-pipeline="arena=argument inplace=false" | FileCheck %s --check-prefix=ARG
// RUN: memplan-opt %S/Inputs/chain.mlir --memplan-pipeline="report=%t.json timeline=%t.html inplace=false" -o /dev/null
// RUN: FileCheck %s --check-prefix=REPORT --input-file=%t.json
// RUN: FileCheck %s --check-prefix=TIMELINE --input-file=%t.html
// RUN: not memplan-opt %S/Inputs/chain.mlir --memplan-pipeline="budget-ms=-1" 2>&1 | FileCheck %s --check-prefix=BUDGET
// RUN: not memplan-opt %S/Inputs/chain.mlir --memplan-pipeline="alignment=3" 2>&1 | FileCheck %s --check-prefix=BADALIGN
// RUN: not memplan-opt %S/Inputs/chain.mlir --memplan-pipeline="arena=stack" 2>&1 | FileCheck %s --check-prefix=BADARENA

// Two 4x8xf32 temporaries (128 B each) that live together, and a dynamic
// one for the runtime.
// CHECK-LABEL: func.func @f
// CHECK:         %[[ARENA:.*]] = memref.alloc() {alignment = 64 : i64} : memref<256xi8>
// CHECK-COUNT-2: memref.view %[[ARENA]]
// CHECK:         call @memplan_rt_alloc
// CHECK-DAG:     memref.dealloc %[[ARENA]] : memref<256xi8>
// CHECK-DAG:     call @memplan_rt_free
// CHECK:         return
// NODEALLOC-NOT: memref.dealloc
// NORT-NOT:      memplan_rt_alloc
// BAD: unknown strategy 'nope'

// Inputs/chain.mlir: four 256-byte temporaries, each live with the next
// only: 512 bytes with reuse, 1024 without; at alignment 512 two slots of
// 512; with arena=argument the arena is the function's last argument (all
// with inplace=false). In place (the pipeline's default) each elementwise
// result takes the bytes of its dying operand: one 256-byte chain.
// INPLACE:      remark: tensor-mem-plan: 4 buffers planned, 1024 bytes without planning, arena 256 bytes, lower bound 256, {{.*}}, 3 in place
// INPLACE:      memref.alloc() {alignment = 64 : i64} : memref<256xi8>
// The deallocation pipeline's CSE folds the four identical views into one.
// INPLACE-NEXT: %[[V:.*]] = memref.view %{{.*}}[%c0][]
// INPLACE-NEXT: linalg.add ins(%{{.*}}, %{{.*}} : {{.*}}) outs(%[[V]] :
// INPLACE-NEXT: linalg.mul ins(%[[V]], %{{.*}} : {{.*}}) outs(%[[V]] :
// INPLACE-NEXT: linalg.add ins(%[[V]], %{{.*}} : {{.*}}) outs(%[[V]] :
// INPLACE-NEXT: linalg.mul ins(%[[V]], %{{.*}} : {{.*}}) outs(%[[V]] :
// CHAIN:        memref.alloc() {alignment = 64 : i64} : memref<512xi8>
// CHAIN:        memref.view %{{.*}}[%c0{{.*}}][]
// CHAIN:        memref.view %{{.*}}[%c256{{.*}}][]
// PRESERVE:     memref.alloc() {alignment = 64 : i64} : memref<1024xi8>
// ALIGN:        memref.alloc() {alignment = 512 : i64} : memref<1024xi8>
// ALIGN:        memref.view %{{.*}}[%c512{{.*}}][]
// ARG:          func.func @chain(%{{.*}}: memref<8x8xf32>, %{{.*}}: memref<512xi8> {{.*}}memplan.arena_size = 512 : i64
// ARG-NOT:      memref.alloc() {{.*}}xi8>
// REPORT:       "arena_size": 512
// TIMELINE:     <html
// BUDGET:       budget-ms -1 is negative
// BADALIGN:     alignment 3 is not a positive power of two
// BADARENA:     for the --arena option: Cannot find option named 'stack'
func.func @f(%x: tensor<4x8xf32>, %n: index) -> (tensor<4x8xf32>, f32) {
  %c0 = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x8xf32>
  %a = linalg.fill ins(%c0 : f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %b = linalg.add ins(%x, %x : tensor<4x8xf32>, tensor<4x8xf32>) outs(%a : tensor<4x8xf32>) -> tensor<4x8xf32>
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

// Planning runs before the deallocation pipeline, whose pointer compares
// (extract_aligned_pointer_as_index) in functions that return buffers or
// call such functions made every temporary unplannable: 0 planned before.
// PLANFIRST: remark: tensor-mem-plan: 2 buffers planned, 512 bytes without planning, arena 512 bytes
// OPTS-LABEL: func.func @three
// OPTS-SAME:    memplan.arena_size = 512
// @main plans @three's arena as a buffer of its own arena, which
// arena=argument makes @main's argument too.
// OPTS-LABEL: func.func @main
// OPTS-SAME:    memplan.arena_size = 512
// OPTS-NOT:     memref.alloc
// OPTS:         call @three
func.func @three(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %e = tensor.empty() : tensor<8x8xf32>
  %a = linalg.add ins(%x, %x : tensor<8x8xf32>, tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  %e2 = tensor.empty() : tensor<8x8xf32>
  %b = linalg.mul ins(%a, %x : tensor<8x8xf32>, tensor<8x8xf32>) outs(%e2 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %e3 = tensor.empty() : tensor<8x8xf32>
  %c = linalg.add ins(%b, %a : tensor<8x8xf32>, tensor<8x8xf32>) outs(%e3 : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %c : tensor<8x8xf32>
}
func.func @main(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %r = call @three(%x) : (tensor<8x8xf32>) -> tensor<8x8xf32>
  return %r : tensor<8x8xf32>
}
