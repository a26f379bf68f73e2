// tensor-mem-schedule keeps a read of mutable memory between the writes to
// it (issue 21, item 2). In each function two broadcasts r and r2 read
// memory through bufferization.to_tensor, a write follows, then a large
// temporary: computing r2 after the temporary lowers the peak (every
// function's order changes), but only where no write to the memory r2 reads
// comes between. test/e2e/schedule-mutable-memory.mlir runs such programs.
//
// RUN: memplan-opt %s --tensor-mem-schedule=remarks=true -o %t.mlir 2> %t.remarks
// RUN: FileCheck %s < %t.mlir
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks

#v = affine_map<(d0, d1) -> (d1)>
#m = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>

memref.global "private" @g : memref<4xf32> = dense<[1.0, 2.0, 3.0, 4.0]>
memref.global "private" @other : memref<4xf32> = dense<0.0>
memref.global "private" constant @c : memref<4xf32> = dense<[1.0, 2.0, 3.0, 4.0]>
memref.global "private" @hoisted : memref<4xf32> = uninitialized {memplan.hoisted}

func.func private @writes_anything()

// A store into the global r2 reads: r2 stays before it.
// CHECK-LABEL: func.func @store_global(
// CHECK:         %[[T:.*]] = bufferization.to_tensor
// CHECK:         linalg.generic {{.*}} ins(%[[T]] :
// CHECK:         linalg.generic {{.*}} ins(%[[T]] :
// CHECK:         memref.store
// REMARK: 'store_global' model peak 18688 -> 17664 bytes (1 blocks with a lower peak
func.func @store_global(%x: tensor<64xf32>, %z: tensor<64xf32>) -> tensor<64xf32> {
  %c0 = arith.constant 0 : index
  %c100 = arith.constant 100.0 : f32
  %m = memref.get_global @g : memref<4xf32>
  %t = bufferization.to_tensor %m restrict : memref<4xf32> to tensor<4xf32>
  %e = tensor.empty() : tensor<64x4xf32>
  %r = linalg.generic {indexing_maps = [#v, #m], iterator_types = ["parallel", "parallel"]} ins(%t : tensor<4xf32>) outs(%e : tensor<64x4xf32>) {
  ^bb0(%i: f32, %o: f32):
    linalg.yield %i : f32
  } -> tensor<64x4xf32>
  %e2 = tensor.empty() : tensor<64x4xf32>
  %r2 = linalg.generic {indexing_maps = [#v, #m], iterator_types = ["parallel", "parallel"]} ins(%t : tensor<4xf32>) outs(%e2 : tensor<64x4xf32>) {
  ^bb0(%i: f32, %o: f32):
    %a = arith.addf %i, %i : f32
    linalg.yield %a : f32
  } -> tensor<64x4xf32>
  memref.store %c100, %m[%c0] : memref<4xf32>
  %e3 = tensor.empty() : tensor<64x64xf32>
  %big = linalg.generic {indexing_maps = [#v, #m], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<64xf32>) outs(%e3 : tensor<64x64xf32>) {
  ^bb0(%i: f32, %o: f32):
    linalg.yield %i : f32
  } -> tensor<64x64xf32>
  %s = linalg.generic {indexing_maps = [#m, #row], iterator_types = ["parallel", "reduction"]} ins(%big : tensor<64x64xf32>) outs(%z : tensor<64xf32>) {
  ^bb0(%i: f32, %o: f32):
    %a = arith.addf %i, %o : f32
    linalg.yield %a : f32
  } -> tensor<64xf32>
  %o = linalg.generic {indexing_maps = [#m, #m, #row], iterator_types = ["parallel", "reduction"]} ins(%r, %r2 : tensor<64x4xf32>, tensor<64x4xf32>) outs(%s : tensor<64xf32>) {
  ^bb0(%i: f32, %k: f32, %o: f32):
    %a0 = arith.addf %i, %k : f32
    %a = arith.addf %a0, %o : f32
    linalg.yield %a : f32
  } -> tensor<64xf32>
  return %o : tensor<64xf32>
}

// A call may write anything: r2 stays before it.
// CHECK-LABEL: func.func @call_writes(
// CHECK:         %[[T:.*]] = bufferization.to_tensor
// CHECK:         linalg.generic {{.*}} ins(%[[T]] :
// CHECK:         linalg.generic {{.*}} ins(%[[T]] :
// CHECK:         call @writes_anything
// REMARK: 'call_writes' model peak 18688 -> 17664 bytes (1 blocks with a lower peak
func.func @call_writes(%x: tensor<64xf32>, %z: tensor<64xf32>) -> tensor<64xf32> {
  %c0 = arith.constant 0 : index
  %c100 = arith.constant 100.0 : f32
  %m = memref.get_global @g : memref<4xf32>
  %t = bufferization.to_tensor %m restrict : memref<4xf32> to tensor<4xf32>
  %e = tensor.empty() : tensor<64x4xf32>
  %r = linalg.generic {indexing_maps = [#v, #m], iterator_types = ["parallel", "parallel"]} ins(%t : tensor<4xf32>) outs(%e : tensor<64x4xf32>) {
  ^bb0(%i: f32, %o: f32):
    linalg.yield %i : f32
  } -> tensor<64x4xf32>
  %e2 = tensor.empty() : tensor<64x4xf32>
  %r2 = linalg.generic {indexing_maps = [#v, #m], iterator_types = ["parallel", "parallel"]} ins(%t : tensor<4xf32>) outs(%e2 : tensor<64x4xf32>) {
  ^bb0(%i: f32, %o: f32):
    %a = arith.addf %i, %i : f32
    linalg.yield %a : f32
  } -> tensor<64x4xf32>
  func.call @writes_anything() : () -> ()
  %e3 = tensor.empty() : tensor<64x64xf32>
  %big = linalg.generic {indexing_maps = [#v, #m], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<64xf32>) outs(%e3 : tensor<64x64xf32>) {
  ^bb0(%i: f32, %o: f32):
    linalg.yield %i : f32
  } -> tensor<64x64xf32>
  %s = linalg.generic {indexing_maps = [#m, #row], iterator_types = ["parallel", "reduction"]} ins(%big : tensor<64x64xf32>) outs(%z : tensor<64xf32>) {
  ^bb0(%i: f32, %o: f32):
    %a = arith.addf %i, %o : f32
    linalg.yield %a : f32
  } -> tensor<64xf32>
  %o = linalg.generic {indexing_maps = [#m, #m, #row], iterator_types = ["parallel", "reduction"]} ins(%r, %r2 : tensor<64x4xf32>, tensor<64x4xf32>) outs(%s : tensor<64xf32>) {
  ^bb0(%i: f32, %k: f32, %o: f32):
    %a0 = arith.addf %i, %k : f32
    %a = arith.addf %a0, %o : f32
    linalg.yield %a : f32
  } -> tensor<64xf32>
  return %o : tensor<64xf32>
}

// A memref argument may be written: r2 stays before the store.
// CHECK-LABEL: func.func @memref_arg(
// CHECK:         %[[T:.*]] = bufferization.to_tensor
// CHECK:         linalg.generic {{.*}} ins(%[[T]] :
// CHECK:         linalg.generic {{.*}} ins(%[[T]] :
// CHECK:         memref.store
// REMARK: 'memref_arg' model peak 18688 -> 17664 bytes (1 blocks with a lower peak
func.func @memref_arg(%m: memref<4xf32>, %x: tensor<64xf32>, %z: tensor<64xf32>) -> tensor<64xf32> {
  %c0 = arith.constant 0 : index
  %c100 = arith.constant 100.0 : f32
  %t = bufferization.to_tensor %m restrict : memref<4xf32> to tensor<4xf32>
  %e = tensor.empty() : tensor<64x4xf32>
  %r = linalg.generic {indexing_maps = [#v, #m], iterator_types = ["parallel", "parallel"]} ins(%t : tensor<4xf32>) outs(%e : tensor<64x4xf32>) {
  ^bb0(%i: f32, %o: f32):
    linalg.yield %i : f32
  } -> tensor<64x4xf32>
  %e2 = tensor.empty() : tensor<64x4xf32>
  %r2 = linalg.generic {indexing_maps = [#v, #m], iterator_types = ["parallel", "parallel"]} ins(%t : tensor<4xf32>) outs(%e2 : tensor<64x4xf32>) {
  ^bb0(%i: f32, %o: f32):
    %a = arith.addf %i, %i : f32
    linalg.yield %a : f32
  } -> tensor<64x4xf32>
  memref.store %c100, %m[%c0] : memref<4xf32>
  %e3 = tensor.empty() : tensor<64x64xf32>
  %big = linalg.generic {indexing_maps = [#v, #m], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<64xf32>) outs(%e3 : tensor<64x64xf32>) {
  ^bb0(%i: f32, %o: f32):
    linalg.yield %i : f32
  } -> tensor<64x64xf32>
  %s = linalg.generic {indexing_maps = [#m, #row], iterator_types = ["parallel", "reduction"]} ins(%big : tensor<64x64xf32>) outs(%z : tensor<64xf32>) {
  ^bb0(%i: f32, %o: f32):
    %a = arith.addf %i, %o : f32
    linalg.yield %a : f32
  } -> tensor<64xf32>
  %o = linalg.generic {indexing_maps = [#m, #m, #row], iterator_types = ["parallel", "reduction"]} ins(%r, %r2 : tensor<64x4xf32>, tensor<64x4xf32>) outs(%s : tensor<64xf32>) {
  ^bb0(%i: f32, %k: f32, %o: f32):
    %a0 = arith.addf %i, %k : f32
    %a = arith.addf %a0, %o : f32
    linalg.yield %a : f32
  } -> tensor<64xf32>
  return %o : tensor<64xf32>
}

// An argument may be a view of any global: r2 stays before the store.
// CHECK-LABEL: func.func @arg_vs_global(
// CHECK:         %[[T:.*]] = bufferization.to_tensor
// CHECK:         linalg.generic {{.*}} ins(%[[T]] :
// CHECK:         linalg.generic {{.*}} ins(%[[T]] :
// CHECK:         memref.store
// REMARK: 'arg_vs_global' model peak 18688 -> 17664 bytes (1 blocks with a lower peak
func.func @arg_vs_global(%m: memref<4xf32>, %x: tensor<64xf32>, %z: tensor<64xf32>) -> tensor<64xf32> {
  %c0 = arith.constant 0 : index
  %c100 = arith.constant 100.0 : f32
  %t = bufferization.to_tensor %m restrict : memref<4xf32> to tensor<4xf32>
  %e = tensor.empty() : tensor<64x4xf32>
  %r = linalg.generic {indexing_maps = [#v, #m], iterator_types = ["parallel", "parallel"]} ins(%t : tensor<4xf32>) outs(%e : tensor<64x4xf32>) {
  ^bb0(%i: f32, %o: f32):
    linalg.yield %i : f32
  } -> tensor<64x4xf32>
  %e2 = tensor.empty() : tensor<64x4xf32>
  %r2 = linalg.generic {indexing_maps = [#v, #m], iterator_types = ["parallel", "parallel"]} ins(%t : tensor<4xf32>) outs(%e2 : tensor<64x4xf32>) {
  ^bb0(%i: f32, %o: f32):
    %a = arith.addf %i, %i : f32
    linalg.yield %a : f32
  } -> tensor<64x4xf32>
  %o2 = memref.get_global @other : memref<4xf32>
  memref.store %c100, %o2[%c0] : memref<4xf32>
  %e3 = tensor.empty() : tensor<64x64xf32>
  %big = linalg.generic {indexing_maps = [#v, #m], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<64xf32>) outs(%e3 : tensor<64x64xf32>) {
  ^bb0(%i: f32, %o: f32):
    linalg.yield %i : f32
  } -> tensor<64x64xf32>
  %s = linalg.generic {indexing_maps = [#m, #row], iterator_types = ["parallel", "reduction"]} ins(%big : tensor<64x64xf32>) outs(%z : tensor<64xf32>) {
  ^bb0(%i: f32, %o: f32):
    %a = arith.addf %i, %o : f32
    linalg.yield %a : f32
  } -> tensor<64xf32>
  %o = linalg.generic {indexing_maps = [#m, #m, #row], iterator_types = ["parallel", "reduction"]} ins(%r, %r2 : tensor<64x4xf32>, tensor<64x4xf32>) outs(%s : tensor<64xf32>) {
  ^bb0(%i: f32, %k: f32, %o: f32):
    %a0 = arith.addf %i, %k : f32
    %a = arith.addf %a0, %o : f32
    linalg.yield %a : f32
  } -> tensor<64xf32>
  return %o : tensor<64xf32>
}

// A destination written in place into a writable to_tensor writes its
// memory: r2 stays before the fill.
// CHECK-LABEL: func.func @writable_inplace(
// CHECK:         %[[T:.*]] = bufferization.to_tensor
// CHECK:         linalg.generic {{.*}} ins(%[[T]] :
// CHECK:         linalg.generic {{.*}} ins(%[[T]] :
// CHECK:         linalg.fill {{.*}} outs(%[[T]] :
// REMARK: 'writable_inplace' model peak 18688 -> 17664 bytes (1 blocks with a lower peak
func.func @writable_inplace(%x: tensor<64xf32>, %z: tensor<64xf32>) -> tensor<64xf32> {
  %c0 = arith.constant 0 : index
  %c100 = arith.constant 100.0 : f32
  %m = memref.get_global @g : memref<4xf32>
  %t = bufferization.to_tensor %m restrict writable : memref<4xf32> to tensor<4xf32>
  %e = tensor.empty() : tensor<64x4xf32>
  %r = linalg.generic {indexing_maps = [#v, #m], iterator_types = ["parallel", "parallel"]} ins(%t : tensor<4xf32>) outs(%e : tensor<64x4xf32>) {
  ^bb0(%i: f32, %o: f32):
    linalg.yield %i : f32
  } -> tensor<64x4xf32>
  %e2 = tensor.empty() : tensor<64x4xf32>
  %r2 = linalg.generic {indexing_maps = [#v, #m], iterator_types = ["parallel", "parallel"]} ins(%t : tensor<4xf32>) outs(%e2 : tensor<64x4xf32>) {
  ^bb0(%i: f32, %o: f32):
    %a = arith.addf %i, %i : f32
    linalg.yield %a : f32
  } -> tensor<64x4xf32>
  %w = linalg.fill ins(%c100 : f32) outs(%t : tensor<4xf32>) -> tensor<4xf32>
  %e3 = tensor.empty() : tensor<64x64xf32>
  %big = linalg.generic {indexing_maps = [#v, #m], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<64xf32>) outs(%e3 : tensor<64x64xf32>) {
  ^bb0(%i: f32, %o: f32):
    linalg.yield %i : f32
  } -> tensor<64x64xf32>
  %s = linalg.generic {indexing_maps = [#m, #row], iterator_types = ["parallel", "reduction"]} ins(%big : tensor<64x64xf32>) outs(%z : tensor<64xf32>) {
  ^bb0(%i: f32, %o: f32):
    %a = arith.addf %i, %o : f32
    linalg.yield %a : f32
  } -> tensor<64xf32>
  %o = linalg.generic {indexing_maps = [#m, #m, #row], iterator_types = ["parallel", "reduction"]} ins(%r, %r2 : tensor<64x4xf32>, tensor<64x4xf32>) outs(%s : tensor<64xf32>) {
  ^bb0(%i: f32, %k: f32, %o: f32):
    %a0 = arith.addf %i, %k : f32
    %a = arith.addf %a0, %o : f32
    linalg.yield %a : f32
  } -> tensor<64xf32>
  return %o : tensor<64xf32>
}

// A store into another global: r2 may move past it.
// CHECK-LABEL: func.func @other_global(
// CHECK:         %[[T:.*]] = bufferization.to_tensor
// CHECK:         linalg.generic {{.*}} ins(%[[T]] :
// CHECK:         memref.store
// CHECK:         linalg.generic {{.*}} ins(%[[T]] :
// REMARK: 'other_global' model peak 18688 -> 17664 bytes (1 blocks with a lower peak
func.func @other_global(%x: tensor<64xf32>, %z: tensor<64xf32>) -> tensor<64xf32> {
  %c0 = arith.constant 0 : index
  %c100 = arith.constant 100.0 : f32
  %m = memref.get_global @g : memref<4xf32>
  %t = bufferization.to_tensor %m restrict : memref<4xf32> to tensor<4xf32>
  %e = tensor.empty() : tensor<64x4xf32>
  %r = linalg.generic {indexing_maps = [#v, #m], iterator_types = ["parallel", "parallel"]} ins(%t : tensor<4xf32>) outs(%e : tensor<64x4xf32>) {
  ^bb0(%i: f32, %o: f32):
    linalg.yield %i : f32
  } -> tensor<64x4xf32>
  %e2 = tensor.empty() : tensor<64x4xf32>
  %r2 = linalg.generic {indexing_maps = [#v, #m], iterator_types = ["parallel", "parallel"]} ins(%t : tensor<4xf32>) outs(%e2 : tensor<64x4xf32>) {
  ^bb0(%i: f32, %o: f32):
    %a = arith.addf %i, %i : f32
    linalg.yield %a : f32
  } -> tensor<64x4xf32>
  %o2 = memref.get_global @other : memref<4xf32>
  memref.store %c100, %o2[%c0] : memref<4xf32>
  %e3 = tensor.empty() : tensor<64x64xf32>
  %big = linalg.generic {indexing_maps = [#v, #m], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<64xf32>) outs(%e3 : tensor<64x64xf32>) {
  ^bb0(%i: f32, %o: f32):
    linalg.yield %i : f32
  } -> tensor<64x64xf32>
  %s = linalg.generic {indexing_maps = [#m, #row], iterator_types = ["parallel", "reduction"]} ins(%big : tensor<64x64xf32>) outs(%z : tensor<64xf32>) {
  ^bb0(%i: f32, %o: f32):
    %a = arith.addf %i, %o : f32
    linalg.yield %a : f32
  } -> tensor<64xf32>
  %o = linalg.generic {indexing_maps = [#m, #m, #row], iterator_types = ["parallel", "reduction"]} ins(%r, %r2 : tensor<64x4xf32>, tensor<64x4xf32>) outs(%s : tensor<64xf32>) {
  ^bb0(%i: f32, %k: f32, %o: f32):
    %a0 = arith.addf %i, %k : f32
    %a = arith.addf %a0, %o : f32
    linalg.yield %a : f32
  } -> tensor<64xf32>
  return %o : tensor<64xf32>
}

// Nothing writes a constant global: r2 may move past the call.
// CHECK-LABEL: func.func @constant_global(
// CHECK:         %[[T:.*]] = bufferization.to_tensor
// CHECK:         linalg.generic {{.*}} ins(%[[T]] :
// CHECK:         call @writes_anything
// CHECK:         linalg.generic {{.*}} ins(%[[T]] :
// REMARK: 'constant_global' model peak 18688 -> 17664 bytes (1 blocks with a lower peak
func.func @constant_global(%x: tensor<64xf32>, %z: tensor<64xf32>) -> tensor<64xf32> {
  %c0 = arith.constant 0 : index
  %c100 = arith.constant 100.0 : f32
  %m = memref.get_global @c : memref<4xf32>
  %t = bufferization.to_tensor %m restrict : memref<4xf32> to tensor<4xf32>
  %e = tensor.empty() : tensor<64x4xf32>
  %r = linalg.generic {indexing_maps = [#v, #m], iterator_types = ["parallel", "parallel"]} ins(%t : tensor<4xf32>) outs(%e : tensor<64x4xf32>) {
  ^bb0(%i: f32, %o: f32):
    linalg.yield %i : f32
  } -> tensor<64x4xf32>
  %e2 = tensor.empty() : tensor<64x4xf32>
  %r2 = linalg.generic {indexing_maps = [#v, #m], iterator_types = ["parallel", "parallel"]} ins(%t : tensor<4xf32>) outs(%e2 : tensor<64x4xf32>) {
  ^bb0(%i: f32, %o: f32):
    %a = arith.addf %i, %i : f32
    linalg.yield %a : f32
  } -> tensor<64x4xf32>
  func.call @writes_anything() : () -> ()
  %e3 = tensor.empty() : tensor<64x64xf32>
  %big = linalg.generic {indexing_maps = [#v, #m], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<64xf32>) outs(%e3 : tensor<64x64xf32>) {
  ^bb0(%i: f32, %o: f32):
    linalg.yield %i : f32
  } -> tensor<64x64xf32>
  %s = linalg.generic {indexing_maps = [#m, #row], iterator_types = ["parallel", "reduction"]} ins(%big : tensor<64x64xf32>) outs(%z : tensor<64xf32>) {
  ^bb0(%i: f32, %o: f32):
    %a = arith.addf %i, %o : f32
    linalg.yield %a : f32
  } -> tensor<64xf32>
  %o = linalg.generic {indexing_maps = [#m, #m, #row], iterator_types = ["parallel", "reduction"]} ins(%r, %r2 : tensor<64x4xf32>, tensor<64x4xf32>) outs(%s : tensor<64xf32>) {
  ^bb0(%i: f32, %k: f32, %o: f32):
    %a0 = arith.addf %i, %k : f32
    %a = arith.addf %a0, %o : f32
    linalg.yield %a : f32
  } -> tensor<64xf32>
  return %o : tensor<64xf32>
}

// Nor a hoisted one, after its to_tensor: r2 may move past the call.
// CHECK-LABEL: func.func @hoisted_global(
// CHECK:         %[[T:.*]] = bufferization.to_tensor
// CHECK:         linalg.generic {{.*}} ins(%[[T]] :
// CHECK:         call @writes_anything
// CHECK:         linalg.generic {{.*}} ins(%[[T]] :
// REMARK: 'hoisted_global' model peak 18688 -> 17664 bytes (1 blocks with a lower peak
func.func @hoisted_global(%x: tensor<64xf32>, %z: tensor<64xf32>) -> tensor<64xf32> {
  %c0 = arith.constant 0 : index
  %c100 = arith.constant 100.0 : f32
  %m = memref.get_global @hoisted : memref<4xf32>
  %t = bufferization.to_tensor %m restrict : memref<4xf32> to tensor<4xf32>
  %e = tensor.empty() : tensor<64x4xf32>
  %r = linalg.generic {indexing_maps = [#v, #m], iterator_types = ["parallel", "parallel"]} ins(%t : tensor<4xf32>) outs(%e : tensor<64x4xf32>) {
  ^bb0(%i: f32, %o: f32):
    linalg.yield %i : f32
  } -> tensor<64x4xf32>
  %e2 = tensor.empty() : tensor<64x4xf32>
  %r2 = linalg.generic {indexing_maps = [#v, #m], iterator_types = ["parallel", "parallel"]} ins(%t : tensor<4xf32>) outs(%e2 : tensor<64x4xf32>) {
  ^bb0(%i: f32, %o: f32):
    %a = arith.addf %i, %i : f32
    linalg.yield %a : f32
  } -> tensor<64x4xf32>
  func.call @writes_anything() : () -> ()
  %e3 = tensor.empty() : tensor<64x64xf32>
  %big = linalg.generic {indexing_maps = [#v, #m], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<64xf32>) outs(%e3 : tensor<64x64xf32>) {
  ^bb0(%i: f32, %o: f32):
    linalg.yield %i : f32
  } -> tensor<64x64xf32>
  %s = linalg.generic {indexing_maps = [#m, #row], iterator_types = ["parallel", "reduction"]} ins(%big : tensor<64x64xf32>) outs(%z : tensor<64xf32>) {
  ^bb0(%i: f32, %o: f32):
    %a = arith.addf %i, %o : f32
    linalg.yield %a : f32
  } -> tensor<64xf32>
  %o = linalg.generic {indexing_maps = [#m, #m, #row], iterator_types = ["parallel", "reduction"]} ins(%r, %r2 : tensor<64x4xf32>, tensor<64x4xf32>) outs(%s : tensor<64xf32>) {
  ^bb0(%i: f32, %k: f32, %o: f32):
    %a0 = arith.addf %i, %k : f32
    %a = arith.addf %a0, %o : f32
    linalg.yield %a : f32
  } -> tensor<64xf32>
  return %o : tensor<64xf32>
}
