// RUN: memplan-opt %s -split-input-file --pass-pipeline='builtin.module(tensor-mem-plan{arena=argument})' | FileCheck %s --check-prefix=ARG
// RUN: memplan-opt %s -split-input-file --pass-pipeline='builtin.module(tensor-mem-plan{arena=argument})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: memplan-opt %s -split-input-file --tensor-mem-plan=preserve-intermediates=true | FileCheck %s --check-prefix=PRESERVE
// RUN: memplan-opt %s -split-input-file --tensor-mem-plan | FileCheck %s --check-prefix=DEFAULT

// Three 256-byte buffers; %a and %c never live together.
//   default: %a and %c share offset 0 or 256 -> 512 bytes.
//   preserve-intermediates: no reuse -> 768 bytes.
//   arena=argument: the 512-byte arena comes from the caller.

// DEFAULT-LABEL: func.func @layer
// DEFAULT: memref.alloc() {alignment = 64 : i64} : memref<512xi8>
// PRESERVE-LABEL: func.func @layer
// PRESERVE: memref.alloc() {alignment = 64 : i64} : memref<768xi8>
// PRESERVE-DAG: arith.constant 0 : index
// PRESERVE-DAG: arith.constant 256 : index
// PRESERVE-DAG: arith.constant 512 : index
// ARG-LABEL: func.func @layer
// ARG-SAME:    %{{.*}}: memref<512xi8> {memplan.arena_alignment = 64 : i64, memplan.arena_size = 512 : i64, memplan.nocapture})
// ARG-NOT:     memref.alloc
// ARG:         memref.view %arg2
// ARG:         return
func.func @layer(%in: memref<64xf32>, %out: memref<64xf32>) {
  %a = memref.alloc() : memref<64xf32>
  memref.copy %in, %a : memref<64xf32> to memref<64xf32>
  %b = memref.alloc() : memref<64xf32>
  memref.copy %a, %b : memref<64xf32> to memref<64xf32>
  %c = memref.alloc() : memref<64xf32>
  memref.copy %b, %c : memref<64xf32> to memref<64xf32>
  memref.copy %c, %out : memref<64xf32> to memref<64xf32>
  return
}

// The caller provides the callee's arena around the call. The callee keeps
// no reference to it (memplan.nocapture), so the caller plans it as one of
// its own buffers: with arena=argument the caller's arena comes from its
// own caller in turn.
// ARG-LABEL: func.func @caller
// ARG-SAME:    %[[A:[a-z0-9]+]]: memref<512xi8> {memplan.arena_alignment = 64 : i64, memplan.arena_size = 512 : i64, memplan.nocapture})
// ARG-NOT:     memref.alloc
// ARG:         %[[V:.*]] = memref.view %[[A]][%{{.*}}][] : memref<512xi8> to memref<512xi8>
// ARG-NEXT:    call @layer(%{{.*}}, %{{.*}}, %[[V]]) : (memref<64xf32>, memref<64xf32>, memref<512xi8>) -> ()
// ARG-NEXT:    return
func.func @caller(%in: memref<64xf32>, %out: memref<64xf32>) {
  call @layer(%in, %out) : (memref<64xf32>, memref<64xf32>) -> ()
  return
}

// %t (256 bytes) is live across the call: the caller's arena holds it and
// the callee's 512 bytes side by side, 768 bytes, and frees nothing.
// ARG-LABEL: func.func @freeing_caller
// ARG-SAME:    %[[A:[a-z0-9]+]]: memref<768xi8> {memplan.arena_alignment = 64 : i64, memplan.arena_size = 768 : i64, memplan.nocapture})
// ARG-NOT:     memref.alloc
// ARG:         %[[V:.*]] = memref.view %[[A]][%{{.*}}][] : memref<768xi8> to memref<512xi8>
// ARG-NEXT:    call @layer(%{{.*}}, %{{.*}}, %[[V]]) : (memref<64xf32>, memref<64xf32>, memref<512xi8>) -> ()
// ARG-NOT:     memref.dealloc
func.func @freeing_caller(%in: memref<64xf32>, %out: memref<64xf32>) {
  %t = memref.alloc() : memref<64xf32>
  call @layer(%in, %out) : (memref<64xf32>, memref<64xf32>) -> ()
  memref.copy %in, %t : memref<64xf32> to memref<64xf32>
  memref.copy %t, %out : memref<64xf32> to memref<64xf32>
  memref.dealloc %t : memref<64xf32>
  return
}

// A function also named by func.constant cannot take an extra argument: it
// keeps an arena of its own, and says so.
// ARG-LABEL: func.func @by_value
// ARG-SAME:    (%{{.*}}: memref<64xf32>, %{{.*}}: memref<64xf32>) {
// ARG:         memref.alloc() {alignment = 64 : i64} : memref<512xi8>
// REMARK: remark: tensor-mem-plan: 'by_value' is used other than by calls, so it gets an arena of its own instead of an arena argument
// REMARK-NOT: see current operation
// ARG-LABEL: func.func @takes_address
// ARG:         constant @by_value
func.func @by_value(%in: memref<64xf32>, %out: memref<64xf32>) {
  %a = memref.alloc() : memref<64xf32>
  memref.copy %in, %a : memref<64xf32> to memref<64xf32>
  %b = memref.alloc() : memref<64xf32>
  memref.copy %a, %b : memref<64xf32> to memref<64xf32>
  %c = memref.alloc() : memref<64xf32>
  memref.copy %b, %c : memref<64xf32> to memref<64xf32>
  memref.copy %c, %out : memref<64xf32> to memref<64xf32>
  return
}
func.func @takes_address() -> ((memref<64xf32>, memref<64xf32>) -> ()) {
  %f = func.constant @by_value : (memref<64xf32>, memref<64xf32>) -> ()
  return %f : (memref<64xf32>, memref<64xf32>) -> ()
}

// -----

// A persistent buffer (TFLite's kTfLiteArenaRwPersistent) shares bytes with
// nobody, even with buffers that live after it: %p (256 B) + %a and %b (256 B
// each, never together, so sharing) = 512.
// DEFAULT-LABEL: func.func @persistent
// DEFAULT: memref.alloc() {alignment = 64 : i64} : memref<512xi8>
func.func @persistent(%in: memref<64xf32>, %out: memref<64xf32>) {
  %p = memref.alloc() {memplan.persistent} : memref<64xf32>
  memref.copy %in, %p : memref<64xf32> to memref<64xf32>
  %a = memref.alloc() : memref<64xf32>
  memref.copy %p, %a : memref<64xf32> to memref<64xf32>
  memref.copy %a, %out : memref<64xf32> to memref<64xf32>
  %b = memref.alloc() : memref<64xf32>
  memref.copy %in, %b : memref<64xf32> to memref<64xf32>
  memref.copy %b, %out : memref<64xf32> to memref<64xf32>
  return
}

// -----

// Each memory space gets its own arena, of its own space.
// DEFAULT-LABEL: func.func @spaces
// DEFAULT-DAG: memref.alloc() {alignment = 64 : i64} : memref<64xi8>
// DEFAULT-DAG: memref.alloc() {alignment = 64 : i64} : memref<128xi8, 3>
// DEFAULT-DAG: memref.view %{{.*}} : memref<128xi8, 3> to memref<4xf32, 3>
func.func @spaces(%out: memref<4xf32>) {
  %a = memref.alloc() : memref<4xf32, 3>
  %b = memref.alloc() : memref<4xf32, 3>
  %c = memref.alloc() : memref<4xf32>
  memref.copy %a, %b : memref<4xf32, 3> to memref<4xf32, 3>
  memref.copy %b, %c : memref<4xf32, 3> to memref<4xf32>
  memref.copy %c, %out : memref<4xf32> to memref<4xf32>
  return
}
