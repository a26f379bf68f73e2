// RUN: memplan-opt %s --test-memplan-usage-records -verify-diagnostics -split-input-file -o /dev/null

// affine.for is a loop like scf.for; its implicit affine.yield is task 5.
func.func @affine_loop(%out: memref<4xf32>) {
  // expected-remark @below {{record: 16 bytes, tasks [0, 6]}}
  %a = memref.alloc() : memref<4xf32>
  affine.for %i = 0 to 4 {
    // expected-remark @below {{record: 4 bytes, tasks [2, 4]}}
    %t = memref.alloc() : memref<1xf32>
    %v = affine.load %a[%i] : memref<4xf32>
    affine.store %v, %t[0] : memref<1xf32>
  }
  memref.copy %a, %out : memref<4xf32> to memref<4xf32>
  return
}

// -----

// affine.if runs once: a buffer used in it lives to its use, not the if's end.
#set = affine_set<(d0) : (d0 - 2 >= 0)>
func.func @affine_if(%i: index, %out: memref<4xf32>) {
  // expected-remark @below {{record: 16 bytes, tasks [0, 2]}}
  %a = memref.alloc() : memref<4xf32>
  affine.if #set(%i) {
    memref.copy %a, %out : memref<4xf32> to memref<4xf32>
  }
  return
}

// -----

// A buffer made in scf.execute_region and yielded out lives to its use.
func.func @execute_region(%out: memref<4xf32>) {
  %r = scf.execute_region -> memref<4xf32> {
    // expected-remark @below {{record: 16 bytes, tasks [1, 3]}}
    %a = memref.alloc() : memref<4xf32>
    scf.yield %a : memref<4xf32>
  }
  memref.copy %r, %out : memref<4xf32> to memref<4xf32>
  return
}

// -----

func.func @forall() {
  scf.forall (%i) in (4) {
    // expected-remark @below {{unplanned: inside a parallel loop ('scf.forall')}}
    %t = memref.alloc() : memref<4xf32>
  }
  return
}

// -----

// memref.alloca and globals are not the planner's: no record, no remark.
memref.global "private" @g : memref<4xf32> = dense<0.0>
func.func @alloca_and_global(%out: memref<4xf32>) {
  %s = memref.alloca() : memref<4xf32>
  %g = memref.get_global @g : memref<4xf32>
  memref.copy %g, %s : memref<4xf32> to memref<4xf32>
  memref.copy %s, %out : memref<4xf32> to memref<4xf32>
  return
}

// -----

// Every function-like op has its own records and tasks.
gpu.module @kernels {
  gpu.func @kernel(%out: memref<4xf32>) {
    // expected-remark @below {{record: 16 bytes, tasks [0, 1]}}
    %a = memref.alloc() : memref<4xf32>
    memref.copy %a, %out : memref<4xf32> to memref<4xf32>
    gpu.return
  }
}

// -----

// i1 and i4 take a byte per element, index 8 bytes, complex<f32> 8,
// vector<3xf32> its padded 16, a 0-d memref one element.
func.func @element_sizes() {
  // expected-remark @below {{record: 10 bytes, tasks [0, 0]}}
  %a = memref.alloc() : memref<10xi1>
  // expected-remark @below {{record: 10 bytes, tasks [1, 1]}}
  %b = memref.alloc() : memref<10xi4>
  // expected-remark @below {{record: 24 bytes, tasks [2, 2]}}
  %c = memref.alloc() : memref<3xindex>
  // expected-remark @below {{record: 16 bytes, tasks [3, 3]}}
  %d = memref.alloc() : memref<2xcomplex<f32>>
  // expected-remark @below {{record: 32 bytes, tasks [4, 4]}}
  %e = memref.alloc() : memref<2xvector<3xf32>>
  // expected-remark @below {{record: 8 bytes, tasks [5, 5]}}
  %f = memref.alloc() : memref<f64>
  // expected-remark @below {{unplanned: byte size overflows 64 bits}}
  %g = memref.alloc() : memref<4611686018427387904x8xf32>
  // A memref of memrefs holds descriptors, whose size is not the element's.
  // expected-remark @below {{unplanned: element type has no known byte size}}
  %h = memref.alloc() : memref<4xmemref<f32>>
  return
}
