// A function whose dynamic buffer is freed by its end, called ten times:
// five calls at 4096 floats, five at 1000. The runtime learns the first
// call (an episode), plans it and serves the next four from the plan (4
// allocs); the sixth call starts with another size, so it starts no plan
// and is learnt as a second kind, and the last four are served from that
// one (4): 2 plans, 8 allocs from them. With MEMPLAN_RT_REPLAY=0 none.
// Every run prints the reference's lines and ends with nothing in use.
//
// RUN: memplan-opt %s --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --buffer-deallocation-pipeline %lower_to_llvm \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%runner_libs \
// RUN:   | FileCheck %s
// RUN: memplan-opt %s --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --buffer-deallocation-pipeline --tensor-mem-lower-runtime %lower_to_llvm \
// RUN:   | env MEMPLAN_RT_STATS=1 mlir-runner -e main -entry-point-result=void -shared-libs=%runner_libs,%memplan_lib/libmemplan_runtime%shlibext 2>&1 \
// RUN:   | FileCheck %s --check-prefixes=CHECK,ON
// RUN: memplan-opt %s --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --buffer-deallocation-pipeline --tensor-mem-lower-runtime %lower_to_llvm \
// RUN:   | env MEMPLAN_RT_STATS=1 MEMPLAN_RT_REPLAY=0 mlir-runner -e main -entry-point-result=void -shared-libs=%runner_libs,%memplan_lib/libmemplan_runtime%shlibext 2>&1 \
// RUN:   | FileCheck %s --check-prefixes=CHECK,OFF

// Call with n floats: sum over k < n of k + 2k = 3n(n-1)/2, added up in f32
// (25159680 for 4096 prints as 2.51601e+07; 1498500 for 1000).
// CHECK-COUNT-5: 2.51601e+07
// CHECK-COUNT-5: 1.4985e+06
// ON: num allocs: 10
// ON: bytes in use: 0
// ON: repeated episodes planned (MEMPLAN_RT_REPLAY): 2
// ON-NEXT: allocs served by those plans: 8
// OFF: num allocs: 10
// OFF: bytes in use: 0
// OFF: repeated episodes planned (MEMPLAN_RT_REPLAY): 0
// OFF-NEXT: allocs served by those plans: 0

func.func private @printF32(f32)
func.func private @printNewline()

// Two dynamic temporaries of n floats each, both live at the reduction.
func.func @f(%n: index) -> f32 {
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty(%n) : tensor<?xf32>
  %a = linalg.generic {indexing_maps = [affine_map<(k) -> (k)>],
                       iterator_types = ["parallel"]}
      outs(%e1 : tensor<?xf32>) {
  ^bb0(%out: f32):
    %k = linalg.index 0 : index
    %ki = arith.index_cast %k : index to i64
    %f = arith.sitofp %ki : i64 to f32
    linalg.yield %f : f32
  } -> tensor<?xf32>
  %e2 = tensor.empty(%n) : tensor<?xf32>
  %b = linalg.generic {indexing_maps = [affine_map<(k) -> (k)>, affine_map<(k) -> (k)>],
                       iterator_types = ["parallel"]}
      ins(%a : tensor<?xf32>) outs(%e2 : tensor<?xf32>) {
  ^bb0(%in: f32, %out: f32):
    %two = arith.constant 2.0 : f32
    %m = arith.mulf %in, %two : f32
    linalg.yield %m : f32
  } -> tensor<?xf32>
  %e0 = tensor.empty() : tensor<f32>
  %z = linalg.fill ins(%zero : f32) outs(%e0 : tensor<f32>) -> tensor<f32>
  %r = linalg.generic {indexing_maps = [affine_map<(k) -> (k)>, affine_map<(k) -> (k)>,
                                        affine_map<(k) -> ()>],
                       iterator_types = ["reduction"]}
      ins(%a, %b : tensor<?xf32>, tensor<?xf32>) outs(%z : tensor<f32>) {
  ^bb0(%x: f32, %y: f32, %init: f32):
    %s = arith.addf %x, %y : f32
    %t = arith.addf %s, %init : f32
    linalg.yield %t : f32
  } -> tensor<f32>
  %v = tensor.extract %r[] : tensor<f32>
  return %v : f32
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c10 = arith.constant 10 : index
  %c4096 = arith.constant 4096 : index
  %c1000 = arith.constant 1000 : index
  scf.for %i = %c0 to %c10 step %c1 {
    %five = arith.constant 5 : index
    %first = arith.cmpi ult, %i, %five : index
    %n = arith.select %first, %c4096, %c1000 : index
    %v = func.call @f(%n) : (index) -> f32
    func.call @printF32(%v) : (f32) -> ()
    func.call @printNewline() : () -> ()
  }
  return
}
