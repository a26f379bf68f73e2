// Functions of memplan.shared_arena with dynamic buffers (issue 26): their
// run-time arenas are one block kept across calls (memplan_rt_shared_arena),
// grown when a call needs more; @chain's static arena moves into its first
// bytes. Planned and unplanned runs print the same; @main calls the widest
// first, so the set allocates one block for its five calls (each function
// allocating its own arena per call: five blocks, all freed).
//
// RUN: memplan-opt %s --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --buffer-deallocation-pipeline %lower_to_llvm \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%runner_libs | sed -e 's/base@ = 0x[0-9a-f]*//' > %t.ref
// RUN: memplan-opt %s --memplan-pipeline="report=%t.json" %lower_to_llvm \
// RUN:   | env MEMPLAN_RT_STATS=1 mlir-runner -e main -entry-point-result=void -shared-libs=%runner_libs,%memplan_lib/libmemplan_runtime%shlibext 2> %t.stats | sed -e 's/base@ = 0x[0-9a-f]*//' > %t.planned
// RUN: diff %t.ref %t.planned
// RUN: FileCheck %s --check-prefix=SHARED --input-file=%t.stats
// RUN: memplan-opt %s --memplan-pipeline="shared-arena=false" %lower_to_llvm \
// RUN:   | env MEMPLAN_RT_STATS=1 mlir-runner -e main -entry-point-result=void -shared-libs=%runner_libs,%memplan_lib/libmemplan_runtime%shlibext 2> %t.own.stats | sed -e 's/base@ = 0x[0-9a-f]*//' > %t.own
// RUN: diff %t.ref %t.own
// RUN: FileCheck %s --check-prefix=OWN --input-file=%t.own.stats
// RUN: memplan-opt %s --memplan-pipeline | FileCheck %s --check-prefix=IR
// RUN: FileCheck %s --check-prefix=REPORT --input-file=%t.json
// Without tensor-mem-plan's check at the entries, nothing is shared.
// RUN: memplan-opt %s --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --buffer-deallocation-pipeline --tensor-mem-lower-runtime | FileCheck %s --check-prefix=NOGUARD
// NOGUARD-NOT: memplan_rt_shared_arena
// NOGUARD: call @memplan_rt_alloc
// NOGUARD-NOT: memplan_rt_shared_arena
//
// SHARED: num allocs: 1
// OWN: num allocs: 5
// OWN: bytes in use: 0
//
// The slot, and no static shared global left (it moved into the block).
// IR: memref.global "private" @__memplan_shared_run_time_arena : memref<3xi64> = dense<0>
// IR-NOT: @__memplan_shared_arena :
// IR-LABEL: func.func @chain(
// The check that no other function of the set runs comes first.
// IR: memref.atomic_rmw assign
// IR: scf.if
// IR: } {memplan.exclusion_guard}
// IR: %[[SLOT:.*]] = memref.get_global @__memplan_shared_run_time_arena
// IR-NEXT: %[[CAST:.*]] = memref.cast %[[SLOT]]
// IR-NEXT: %[[ARENA:.*]] = call @memplan_rt_shared_arena(%[[CAST]],
// IR-COUNT-2: call @memplan_rt_slot(%[[ARENA]])
// IR-NEXT: arith.constant 0 : index
// IR-NEXT: %[[STATIC:.*]] = memref.view %[[ARENA]][%{{.*}}][] : memref<?xi8> to memref<512xi8>
// IR-NOT: memplan_rt_free
// IR-NOT: memplan_rt_alloc
// IR: return
// IR-LABEL: func.func @rows(
// IR: } {memplan.exclusion_guard}
// IR-NEXT: memref.get_global @__memplan_shared_run_time_arena
// IR-NOT: memplan_rt_free
// IR: return
//
// REPORT: "function": "chain",
// REPORT: "shared_arena": "__memplan_shared_run_time_arena"
// REPORT: "function": "rows",
// REPORT: "shared_arena": "__memplan_shared_run_time_arena"

module attributes {memplan.shared_arena = [@chain, @rows]} {
  // (A B C) for A[i,j] = i + j (n x 8), B = 0.5 (8 x 16), C[k,l] = 2k - l.
  func.func @chain(%n: index) -> tensor<?x4xf32> {
    %zero = arith.constant 0.0 : f32
    %half = arith.constant 0.5 : f32
    %ea = tensor.empty(%n) : tensor<?x8xf32>
    %a = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>],
                         iterator_types = ["parallel", "parallel"]}
        outs(%ea : tensor<?x8xf32>) {
    ^bb0(%out: f32):
      %i = linalg.index 0 : index
      %j = linalg.index 1 : index
      %s = arith.addi %i, %j : index
      %si = arith.index_cast %s : index to i64
      %f = arith.sitofp %si : i64 to f32
      linalg.yield %f : f32
    } -> tensor<?x8xf32>
    %eb = tensor.empty() : tensor<8x16xf32>
    %b = linalg.fill ins(%half : f32) outs(%eb : tensor<8x16xf32>) -> tensor<8x16xf32>
    %e1 = tensor.empty(%n) : tensor<?x16xf32>
    %z1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<?x16xf32>) -> tensor<?x16xf32>
    %ab = linalg.matmul ins(%a, %b : tensor<?x8xf32>, tensor<8x16xf32>)
                        outs(%z1 : tensor<?x16xf32>) -> tensor<?x16xf32>
    %ec = tensor.empty() : tensor<16x4xf32>
    %c = linalg.generic {indexing_maps = [affine_map<(k, l) -> (k, l)>],
                         iterator_types = ["parallel", "parallel"]}
        outs(%ec : tensor<16x4xf32>) {
    ^bb0(%out: f32):
      %k = linalg.index 0 : index
      %l = linalg.index 1 : index
      %k2 = arith.addi %k, %k : index
      %d = arith.subi %k2, %l : index
      %di = arith.index_cast %d : index to i64
      %f = arith.sitofp %di : i64 to f32
      linalg.yield %f : f32
    } -> tensor<16x4xf32>
    %e2 = tensor.empty(%n) : tensor<?x4xf32>
    %z2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<?x4xf32>) -> tensor<?x4xf32>
    %abc = linalg.matmul ins(%ab, %c : tensor<?x16xf32>, tensor<16x4xf32>)
                         outs(%z2 : tensor<?x4xf32>) -> tensor<?x4xf32>
    return %abc : tensor<?x4xf32>
  }

  // Row sums of (i * j + 1) over n x 16: 120 i + 16. Dynamic only.
  func.func @rows(%n: index) -> tensor<?xf32> {
    %zero = arith.constant 0.0 : f32
    %one = arith.constant 1.0 : f32
    %e = tensor.empty(%n) : tensor<?x16xf32>
    %a = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>],
                         iterator_types = ["parallel", "parallel"]}
        outs(%e : tensor<?x16xf32>) {
    ^bb0(%out: f32):
      %i = linalg.index 0 : index
      %j = linalg.index 1 : index
      %p = arith.muli %i, %j : index
      %pi = arith.index_cast %p : index to i64
      %f = arith.sitofp %pi : i64 to f32
      linalg.yield %f : f32
    } -> tensor<?x16xf32>
    %e2 = tensor.empty(%n) : tensor<?x16xf32>
    %b = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>,
                                          affine_map<(i, j) -> (i, j)>],
                         iterator_types = ["parallel", "parallel"]}
        ins(%a : tensor<?x16xf32>) outs(%e2 : tensor<?x16xf32>) {
    ^bb0(%x: f32, %out: f32):
      %y = arith.addf %x, %one : f32
      linalg.yield %y : f32
    } -> tensor<?x16xf32>
    %e3 = tensor.empty(%n) : tensor<?xf32>
    %z = linalg.fill ins(%zero : f32) outs(%e3 : tensor<?xf32>) -> tensor<?xf32>
    %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>,
                                          affine_map<(i, j) -> (i)>],
                         iterator_types = ["parallel", "reduction"]}
        ins(%b : tensor<?x16xf32>) outs(%z : tensor<?xf32>) {
    ^bb0(%x: f32, %acc: f32):
      %s = arith.addf %x, %acc : f32
      linalg.yield %s : f32
    } -> tensor<?xf32>
    return %r : tensor<?xf32>
  }

  func.func private @printMemrefF32(memref<*xf32>)

  func.func @print2(%t: tensor<?x4xf32>) {
    %m = bufferization.to_buffer %t : tensor<?x4xf32> to memref<?x4xf32>
    %u = memref.cast %m : memref<?x4xf32> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    return
  }

  func.func @print1(%t: tensor<?xf32>) {
    %m = bufferization.to_buffer %t : tensor<?xf32> to memref<?xf32>
    %u = memref.cast %m : memref<?xf32> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    return
  }

  func.func @main() {
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c5 = arith.constant 5 : index
    %c9 = arith.constant 9 : index
    %c40 = arith.constant 40 : index
    // A result of one call is read after the next call of the set.
    %r40 = call @chain(%c40) : (index) -> tensor<?x4xf32>
    %s9 = call @rows(%c9) : (index) -> tensor<?xf32>
    call @print2(%r40) : (tensor<?x4xf32>) -> ()
    %r3 = call @chain(%c3) : (index) -> tensor<?x4xf32>
    call @print1(%s9) : (tensor<?xf32>) -> ()
    %s2 = call @rows(%c2) : (index) -> tensor<?xf32>
    %r5 = call @chain(%c5) : (index) -> tensor<?x4xf32>
    call @print2(%r3) : (tensor<?x4xf32>) -> ()
    call @print1(%s2) : (tensor<?xf32>) -> ()
    call @print2(%r5) : (tensor<?x4xf32>) -> ()
    return
  }
}
