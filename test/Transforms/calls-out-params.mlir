// tensor-mem-results-to-out-params: a buffer a callee allocates and returns
// becomes a trailing argument its callers allocate right before the call.
// A private callee changes in place; a public one keeps its signature and
// the module's calls go to a private copy. Every default-deny rule leaves
// its function alone with a remark.
//
// RUN: memplan-opt %s --tensor-mem-results-to-out-params="remarks=true" -verify-diagnostics | FileCheck %s
// With modify-public-functions, the public callee itself changes.
// RUN: memplan-opt %s --tensor-mem-results-to-out-params="modify-public-functions=true" | FileCheck %s --check-prefix=PUBLIC
// The caller's alloc is then planned in the caller's arena. On a module,
// tensor-mem-plan does the same first (out-params=true by default).
// RUN: memplan-opt %s --tensor-mem-results-to-out-params --tensor-mem-plan="remarks=true" 2>&1 | FileCheck %s --check-prefix=PLAN
// RUN: memplan-opt %s --tensor-mem-plan="remarks=true" 2>&1 | FileCheck %s --check-prefix=PLAN
// RUN: memplan-opt %s --tensor-mem-plan="remarks=true out-params=false" 2>&1 | FileCheck %s --check-prefix=NOPLAN

// CHECK-LABEL: func.func private @make(
// CHECK-SAME: %{{.*}}: f32, %[[OUT:.*]]: memref<4xf32>) {
// CHECK-NOT: memref.alloc
// CHECK: linalg.fill ins(%{{.*}}) outs(%[[OUT]] : memref<4xf32>)
// CHECK-NEXT: return
// CHECK-NEXT: }
func.func private @make(%v: f32) -> memref<4xf32> {
  // expected-remark @below {{result #0 of @make becomes an out-parameter: its callers allocate it}}
  %a = memref.alloc() {alignment = 64 : i64} : memref<4xf32>
  linalg.fill ins(%v : f32) outs(%a : memref<4xf32>)
  return %a : memref<4xf32>
}

// A size the caller has: an argument of the callee.
// CHECK-LABEL: func.func private @dyn(%{{.*}}: index, %{{.*}}: memref<?xf32>) {
func.func private @dyn(%n: index) -> memref<?xf32> {
  // expected-remark @below {{result #0 of @dyn becomes an out-parameter: its callers allocate it}}
  %a = memref.alloc(%n) : memref<?xf32>
  return %a : memref<?xf32>
}

// A caller that returns what @make now writes into its out-parameter
// qualifies on the next round.
// CHECK-LABEL: func.func private @outer(
// CHECK-SAME: %{{.*}}: f32, %[[O:.*]]: memref<4xf32>) {
// CHECK-NEXT: call @make(%{{.*}}, %[[O]]) : (f32, memref<4xf32>) -> ()
// CHECK-NEXT: return
func.func private @outer(%v: f32) -> memref<4xf32> {
  // expected-remark @below {{result #0 of @outer becomes an out-parameter: its callers allocate it}}
  %r = call @make(%v) : (f32) -> memref<4xf32>
  return %r : memref<4xf32>
}

// Public: unchanged for callers outside the module; the module calls a
// private copy.
// CHECK-LABEL: func.func @pub() -> memref<8xf32> {
// CHECK: memref.alloc() : memref<8xf32>
// CHECK-LABEL: func.func private @pub_out_params(%{{.*}}: memref<8xf32>) {
// PUBLIC-LABEL: func.func @pub(%{{.*}}: memref<8xf32>) {
// PUBLIC-NOT: @pub_out_params
func.func @pub() -> memref<8xf32> {
  // expected-remark @below {{result #0 of @pub becomes an out-parameter: its callers allocate it}}
  %a = memref.alloc() : memref<8xf32>
  return %a : memref<8xf32>
}

//===--- Refused: each stays as it was, with a remark. ---===//

// CHECK-LABEL: func.func private @ret_arg(%{{.*}}: memref<4xf32>) -> memref<4xf32>
func.func private @ret_arg(%m: memref<4xf32>) -> memref<4xf32> {
  // expected-remark @below {{result #0 of @ret_arg stays returned: it is an argument or a block argument, not a fresh allocation}}
  return %m : memref<4xf32>
}

memref.global "private" constant @g : memref<4xf32> = dense<1.0>
// CHECK-LABEL: func.func private @ret_global() -> memref<4xf32>
func.func private @ret_global() -> memref<4xf32> {
  %g = memref.get_global @g : memref<4xf32>
  // expected-remark @below {{result #0 of @ret_global stays returned: it is a global}}
  return %g : memref<4xf32>
}

func.func private @keep(memref<4xf32>)
// CHECK-LABEL: func.func private @ret_kept() -> memref<4xf32>
func.func private @ret_kept() -> memref<4xf32> {
  %a = memref.alloc() : memref<4xf32>
  call @keep(%a) : (memref<4xf32>) -> ()
  // expected-remark @below {{result #0 of @ret_kept stays returned: it also escapes: passed to a call ('func.call')}}
  return %a : memref<4xf32>
}

// CHECK-LABEL: func.func private @ret_stored(%{{.*}}: memref<memref<4xf32>>) -> memref<4xf32>
func.func private @ret_stored(%box: memref<memref<4xf32>>) -> memref<4xf32> {
  %a = memref.alloc() : memref<4xf32>
  memref.store %a, %box[] : memref<memref<4xf32>>
  // expected-remark @below {{result #0 of @ret_stored stays returned: it also escapes: stored by 'memref.store'}}
  return %a : memref<4xf32>
}

// CHECK-LABEL: func.func private @twice() -> (memref<4xf32>, memref<4xf32>)
func.func private @twice() -> (memref<4xf32>, memref<4xf32>) {
  %a = memref.alloc() : memref<4xf32>
  // expected-remark @below {{result #0 of @twice stays returned: it is returned twice (result #1 too)}}
  // expected-remark @below {{result #1 of @twice stays returned: it is returned twice (result #0 too)}}
  return %a, %a : memref<4xf32>, memref<4xf32>
}

// CHECK-LABEL: func.func private @ret_view() -> memref<2xf32, strided<[1]>>
func.func private @ret_view() -> memref<2xf32, strided<[1]>> {
  %a = memref.alloc() : memref<4xf32>
  %v = memref.subview %a[0] [2] [1] : memref<4xf32> to memref<2xf32, strided<[1]>>
  // expected-remark @below {{result #0 of @ret_view stays returned: it comes from 'memref.subview', not from a memref.alloc}}
  return %v : memref<2xf32, strided<[1]>>
}

// CHECK-LABEL: func.func private @shape_unknown(%{{.*}}: index) -> memref<?xf32>
func.func private @shape_unknown(%n: index) -> memref<?xf32> {
  %m = arith.addi %n, %n : index
  %a = memref.alloc(%m) : memref<?xf32>
  // expected-remark @below {{result #0 of @shape_unknown stays returned: its shape depends on values the caller does not have}}
  return %a : memref<?xf32>
}

// CHECK-LABEL: func.func private @in_branch(%{{.*}}: i1) -> memref<4xf32>
func.func private @in_branch(%c: i1) -> memref<4xf32> {
  cf.cond_br %c, ^a, ^b
^a:
  %x = memref.alloc() : memref<4xf32>
  // expected-remark @below {{result #0 of @in_branch stays returned: its returns give different buffers}}
  return %x : memref<4xf32>
^b:
  %y = memref.alloc() : memref<4xf32>
  return %y : memref<4xf32>
}

// CHECK-LABEL: func.func private @in_block(%{{.*}}: i1) -> memref<4xf32>
func.func private @in_block(%c: i1) -> memref<4xf32> {
  cf.br ^a
^a:
  %x = memref.alloc() : memref<4xf32>
  // expected-remark @below {{result #0 of @in_block stays returned: it is allocated in a loop or a branch, not once per call}}
  return %x : memref<4xf32>
}

// CHECK-LABEL: func.func private @rec(%{{.*}}: i1) -> memref<4xf32>
// expected-remark @below {{@rec is recursive: its returned buffers stay returned}}
func.func private @rec(%c: i1) -> memref<4xf32> {
  %a = memref.alloc() : memref<4xf32>
  scf.if %c {
    %r = func.call @rec(%c) : (i1) -> memref<4xf32>
  }
  return %a : memref<4xf32>
}

// CHECK-LABEL: func.func private @by_address() -> memref<4xf32>
func.func private @by_address() -> memref<4xf32> {
  %a = memref.alloc() : memref<4xf32>
  return %a : memref<4xf32>
}

// CHECK-LABEL: func.func @main(
// CHECK: %[[A:.*]] = memref.alloc() {alignment = 64 : i64} : memref<4xf32>
// CHECK-NEXT: call @make(%{{.*}}, %[[A]]) : (f32, memref<4xf32>) -> ()
// CHECK: %[[D:.*]] = memref.alloc(%{{.*}}) : memref<?xf32>
// CHECK-NEXT: call @dyn(%{{.*}}, %[[D]]) : (index, memref<?xf32>) -> ()
// CHECK: %[[B:.*]] = memref.alloc() {alignment = 64 : i64} : memref<4xf32>
// CHECK-NEXT: call @outer(%{{.*}}, %[[B]]) : (f32, memref<4xf32>) -> ()
// CHECK: %[[P:.*]] = memref.alloc() : memref<8xf32>
// CHECK-NEXT: call @pub_out_params(%[[P]]) : (memref<8xf32>) -> ()
// CHECK: call @ret_arg(
// CHECK-SAME: -> memref<4xf32>
// CHECK: call @by_address() : () -> memref<4xf32>
// Three static out-parameters of @main (@make, @outer, @pub's copy; @dyn's
// is dynamic) are buffers of its arena.
// PLAN: :[[@LINE+2]]:1: remark: tensor-mem-plan: 3 buffers planned
// NOPLAN-NOT: :[[@LINE+1]]:1: remark: tensor-mem-plan
func.func @main(%v: f32, %n: index, %c: i1, %m: memref<4xf32>,
                %box: memref<memref<4xf32>>) -> f32 {
  %i = arith.constant 0 : index
  %0 = call @make(%v) : (f32) -> memref<4xf32>
  %1 = call @dyn(%n) : (index) -> memref<?xf32>
  %2 = call @outer(%v) : (f32) -> memref<4xf32>
  %3 = call @pub() : () -> memref<8xf32>
  %4 = call @ret_arg(%m) : (memref<4xf32>) -> memref<4xf32>
  %5 = call @ret_global() : () -> memref<4xf32>
  %6 = call @ret_kept() : () -> memref<4xf32>
  %7 = call @ret_stored(%box) : (memref<memref<4xf32>>) -> memref<4xf32>
  %8:2 = call @twice() : () -> (memref<4xf32>, memref<4xf32>)
  %9 = call @ret_view() : () -> memref<2xf32, strided<[1]>>
  %10 = call @shape_unknown(%n) : (index) -> memref<?xf32>
  %11 = call @in_branch(%c) : (i1) -> memref<4xf32>
  %12 = call @in_block(%c) : (i1) -> memref<4xf32>
  %13 = call @rec(%c) : (i1) -> memref<4xf32>
  %14 = call @by_address() : () -> memref<4xf32>
  // expected-remark @below {{'func.constant' refers to @by_address: calls through it keep the returned buffers}}
  %f = func.constant @by_address : () -> memref<4xf32>
  %x = memref.load %0[%i] : memref<4xf32>
  %y = memref.load %2[%i] : memref<4xf32>
  %z = memref.load %3[%i] : memref<8xf32>
  %w = memref.load %1[%i] : memref<?xf32>
  %s = arith.addf %x, %y : f32
  %t = arith.addf %s, %z : f32
  %u = arith.addf %t, %w : f32
  return %u : f32
}
