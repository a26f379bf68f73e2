// RUN: memplan-opt %s --test-memplan-usage-records -verify-diagnostics -split-input-file -o /dev/null

// Ops that MLIR 22 gives no alias information for still make aliases: in
// each function %a is read through the alias after %b is made, so their
// records must intersect (each of these miscompiled before).

func.func @transpose(%out: memref<4x4xf32>) {
  %c0 = arith.constant 0 : index
  %f = arith.constant 1.0 : f32
  // expected-remark @below {{record: 64 bytes, tasks [2, 6]}}
  %a = memref.alloc() : memref<4x4xf32>
  %t = memref.transpose %a (i, j) -> (j, i) : memref<4x4xf32> to memref<4x4xf32, affine_map<(d0, d1) -> (d1 * 4 + d0)>>
  // expected-remark @below {{record: 64 bytes, tasks [4, 5]}}
  %b = memref.alloc() : memref<4x4xf32>
  memref.store %f, %b[%c0, %c0] : memref<4x4xf32>
  %v = memref.load %t[%c0, %c0] : memref<4x4xf32, affine_map<(d0, d1) -> (d1 * 4 + d0)>>
  memref.store %v, %out[%c0, %c0] : memref<4x4xf32>
  return
}

// -----

func.func @distinct_objects(%out: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %f = arith.constant 1.0 : f32
  // expected-remark @below {{record: 16 bytes, tasks [2, 6]}}
  %a = memref.alloc() : memref<4xf32>
  %t = memref.distinct_objects %a : memref<4xf32>
  // expected-remark @below {{record: 16 bytes, tasks [4, 5]}}
  %b = memref.alloc() : memref<4xf32>
  memref.store %f, %b[%c0] : memref<4xf32>
  %v = memref.load %t[%c0] : memref<4xf32>
  memref.store %v, %out[%c0] : memref<4xf32>
  return
}

// -----

func.func @unrealized_cast(%out: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %f = arith.constant 1.0 : f32
  // expected-remark @below {{record: 16 bytes, tasks [2, 6]}}
  %a = memref.alloc() : memref<4xf32>
  %t = builtin.unrealized_conversion_cast %a : memref<4xf32> to memref<4xf32>
  // expected-remark @below {{record: 16 bytes, tasks [4, 5]}}
  %b = memref.alloc() : memref<4xf32>
  memref.store %f, %b[%c0] : memref<4xf32>
  %v = memref.load %t[%c0] : memref<4xf32>
  memref.store %v, %out[%c0] : memref<4xf32>
  return
}

// -----

// Partial bufferization: the tensor made from %a is read after %b is made,
// and so is the buffer made back from it.
func.func @to_tensor(%out: memref<4xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %f = arith.constant 1.0 : f32
  // expected-remark @below {{record: 16 bytes, tasks [2, 9]}}
  %a = memref.alloc() : memref<4xf32>
  %t = bufferization.to_tensor %a : memref<4xf32> to tensor<4xf32>
  // expected-remark @below {{record: 16 bytes, tasks [4, 5]}}
  %b = memref.alloc() : memref<4xf32>
  memref.store %f, %b[%c0] : memref<4xf32>
  %v = tensor.extract %t[%c0] : tensor<4xf32>
  %i = tensor.insert %v into %t[%c0] : tensor<4xf32>
  %m = bufferization.to_buffer %i : tensor<4xf32> to memref<4xf32>
  %w = memref.load %m[%c0] : memref<4xf32>
  return %w : f32
}

// -----

func.func @ptr_round_trip(%out: memref<4xf32, #ptr.generic_space>) {
  %c0 = arith.constant 0 : index
  %f = arith.constant 1.0 : f32
  // expected-remark @below {{record: 16 bytes, tasks [2, 7]}}
  %a = memref.alloc() : memref<4xf32, #ptr.generic_space>
  %p = ptr.to_ptr %a : memref<4xf32, #ptr.generic_space> -> !ptr.ptr<#ptr.generic_space>
  // expected-remark @below {{record: 16 bytes, tasks [4, 5]}}
  %b = memref.alloc() : memref<4xf32, #ptr.generic_space>
  memref.store %f, %b[%c0] : memref<4xf32, #ptr.generic_space>
  %m = ptr.from_ptr %p : !ptr.ptr<#ptr.generic_space> -> memref<4xf32, #ptr.generic_space>
  %v = memref.load %m[%c0] : memref<4xf32, #ptr.generic_space>
  memref.store %v, %out[%c0] : memref<4xf32, #ptr.generic_space>
  return
}

// -----

// A pointer taken as an integer may come back as any buffer.
func.func @ptrtoint(%out: memref<4xf32>) -> i64 {
  // expected-remark @below {{unplanned: its pointer is taken ('llvm.ptrtoint')}}
  %a = memref.alloc() : memref<4xf32>
  %p = builtin.unrealized_conversion_cast %a : memref<4xf32> to !llvm.ptr
  %i = llvm.ptrtoint %p : !llvm.ptr to i64
  return %i : i64
}

// -----

// async.execute runs its body concurrently with what follows: %a lives
// until the await (task 9), so %b, made before it, gets other bytes.
func.func @async_execute(%out: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %f = arith.constant 1.0 : f32
  // expected-remark @below {{record: 16 bytes, tasks [2, 9]}}
  %a = memref.alloc() : memref<4xf32>
  %tok = async.execute {
    %v = memref.load %a[%c0] : memref<4xf32>
    memref.store %v, %out[%c0] : memref<4xf32>
    async.yield
  }
  // expected-remark @below {{record: 16 bytes, tasks [7, 8]}}
  %b = memref.alloc() : memref<4xf32>
  memref.store %f, %b[%c0] : memref<4xf32>
  async.await %tok : !async.token
  return
}

// -----

// Never awaited in its block: nothing bounds the work, so %a is left alone;
// and a buffer made inside the async body is never planned.
func.func @async_not_joined(%c: i1, %out: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  // expected-remark @below {{unplanned: used asynchronously by 'async.execute' and not awaited in its block}}
  %a = memref.alloc() : memref<4xf32>
  %tok = async.execute {
    %v = memref.load %a[%c0] : memref<4xf32>
    // expected-remark @below {{unplanned: inside an asynchronous region ('async.execute')}}
    %t = memref.alloc() : memref<4xf32>
    memref.store %v, %t[%c0] : memref<4xf32>
    memref.copy %t, %out : memref<4xf32> to memref<4xf32>
    async.yield
  }
  scf.if %c {
    async.await %tok : !async.token
  }
  return
}

// -----

// Two executes read %a and only the second is awaited: that wait joins the
// second's work, not the first's, which may read %a at any time after. Once
// taken as the join, %b got %a's bytes while the first still read them.
func.func @async_other_token_awaited(%out: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  // expected-remark @below {{unplanned: used asynchronously by 'async.execute' and not awaited in its block}}
  %a = memref.alloc() : memref<4xf32>
  %t1 = async.execute {
    %v = memref.load %a[%c0] : memref<4xf32>
    memref.store %v, %out[%c0] : memref<4xf32>
    async.yield
  }
  %t2 = async.execute {
    %v = memref.load %a[%c0] : memref<4xf32>
    async.yield
  }
  async.await %t2 : !async.token
  // expected-remark @below {{record: 16 bytes, tasks [10, 10]}}
  %b = memref.alloc() : memref<4xf32>
  return
}

// -----

// An execute that depends on the first one's token starts after it ends,
// so awaiting it joins both; but its token is no alias of %a, so a record
// would end before that wait, and a buffer made between the two executes
// and the wait could take %a's bytes. Left alone.
func.func @async_joined_through_dependency(%out: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  // expected-remark @below {{unplanned: used asynchronously by 'async.execute' and not awaited in its block}}
  %a = memref.alloc() : memref<4xf32>
  %t1 = async.execute {
    %v = memref.load %a[%c0] : memref<4xf32>
    memref.store %v, %out[%c0] : memref<4xf32>
    async.yield
  }
  %t2 = async.execute [%t1] {
    async.yield
  }
  async.await %t2 : !async.token
  // expected-remark @below {{record: 16 bytes, tasks [9, 9]}}
  %b = memref.alloc() : memref<4xf32>
  return
}

// -----

// scf.parallel's init reaches its result through the reductions, which the
// interfaces do not forward: %r is %a, read after %c is made. Once, %c took
// %a's bytes. Now the reduction's arguments are aliases too, and the
// reduction region is not understood: %a is left alone.
func.func @parallel_reduce_init(%out: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-remark @below {{unplanned: captured by the region of 'scf.reduce', whose semantics are unknown}}
  %a = memref.alloc() : memref<4xf32>
  %r = scf.parallel (%i) = (%c0) to (%c1) step (%c1) init (%a) -> memref<4xf32> {
    scf.reduce(%a : memref<4xf32>) {
    ^bb0(%l: memref<4xf32>, %rr: memref<4xf32>):
      scf.reduce.return %l : memref<4xf32>
    }
  }
  // expected-remark @below {{record: 16 bytes, tasks [6, 8]}}
  %c = memref.alloc() : memref<4xf32>
  memref.copy %r, %c : memref<4xf32> to memref<4xf32>
  memref.copy %c, %out : memref<4xf32> to memref<4xf32>
  return
}

// -----

// A token that goes into a group is not followed to its wait.
func.func @async_group(%out: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  // expected-remark @below {{unplanned: its async token goes to 'async.add_to_group', which is not a wait}}
  %a = memref.alloc() : memref<4xf32>
  %g = async.create_group %c0 : !async.group
  %tok = async.execute {
    %v = memref.load %a[%c0] : memref<4xf32>
    memref.store %v, %out[%c0] : memref<4xf32>
    async.yield
  }
  %i = async.add_to_group %tok, %g : !async.token
  async.await_all %g
  return
}

// -----

// gpu.memcpy async reads %a until the gpu.wait that joins its token chain.
func.func @gpu_memcpy_async(%out: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %f = arith.constant 1.0 : f32
  // expected-remark @below {{record: 16 bytes, tasks [2, 8]}}
  %a = memref.alloc() : memref<4xf32>
  %t0 = gpu.wait async
  %t1 = gpu.memcpy async [%t0] %out, %a : memref<4xf32>, memref<4xf32>
  %t2 = gpu.wait async [%t1]
  // expected-remark @below {{record: 16 bytes, tasks [6, 7]}}
  %b = memref.alloc() : memref<4xf32>
  memref.store %f, %b[%c0] : memref<4xf32>
  gpu.wait [%t2]
  return
}

// -----

func.func @gpu_never_waited(%out: memref<4xf32>) -> !gpu.async.token {
  // expected-remark @below {{unplanned: returned}}
  %a = memref.alloc() : memref<4xf32>
  %t0 = gpu.wait async
  %t1 = gpu.memcpy async [%t0] %out, %a : memref<4xf32>, memref<4xf32>
  return %t1 : !gpu.async.token
}

// -----

// arith.select and tensor ops on a to_tensor result are aliases too.
func.func @select_and_slice(%c: i1, %out: memref<4xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %f = arith.constant 1.0 : f32
  // expected-remark @below {{record: 16 bytes, tasks [2, 9]}}
  %a = memref.alloc() : memref<4xf32>
  // expected-remark @below {{record: 16 bytes, tasks [3, 9]}}
  %b = memref.alloc() : memref<4xf32>
  %s = arith.select %c, %a, %b : memref<4xf32>
  %t = bufferization.to_tensor %s : memref<4xf32> to tensor<4xf32>
  %slice = tensor.extract_slice %t[1] [2] [1] : tensor<4xf32> to tensor<2xf32>
  // expected-remark @below {{record: 16 bytes, tasks [7, 8]}}
  %d = memref.alloc() : memref<4xf32>
  memref.store %f, %d[%c0] : memref<4xf32>
  %v = tensor.extract %slice[%c0] : tensor<2xf32>
  return %v : f32
}

// -----

// Integer elements are data, not addresses: a transpose of an i32 buffer is
// an alias, not a pointer taken (it was left alone before).
func.func @transpose_i32(%out: memref<2x2xi32>) {
  %c0 = arith.constant 0 : index
  // expected-remark @below {{record: 16 bytes, tasks [1, 3]}}
  %a = memref.alloc() : memref<2x2xi32>
  %t = memref.transpose %a (i, j) -> (j, i) : memref<2x2xi32> to memref<2x2xi32, affine_map<(d0, d1) -> (d1 * 2 + d0)>>
  %v = memref.load %t[%c0, %c0] : memref<2x2xi32, affine_map<(d0, d1) -> (d1 * 2 + d0)>>
  memref.store %v, %out[%c0, %c0] : memref<2x2xi32>
  return
}
