// Execution: a buffer read only inside async.execute lives until the await
// (found by fuzz/diff, fuzz/diff/repros/async-execute-ends-life.mlir). %b,
// made and filled while the region may still run, must not get %a's bytes;
// the record test shows the two records intersect, and every strategy that
// runs it prints the unplanned sums.
//
// RUN: memplan-opt %s --test-memplan-usage-records -o /dev/null 2>&1 | FileCheck %s --check-prefix=RECORDS
// RUN: memplan-opt %s --tensor-mem-plan=strategy=first-fit %lower_async | mlir-runner -O0 -e main -entry-point-result=void -shared-libs=%runner_libs,%llvm_lib/libmlir_async_runtime.so | FileCheck %s
// RUN: memplan-opt %s --tensor-mem-plan=strategy=greedy-by-size-offsets %lower_async | mlir-runner -O0 -e main -entry-point-result=void -shared-libs=%runner_libs,%llvm_lib/libmlir_async_runtime.so | FileCheck %s
// RUN: memplan-opt %s --tensor-mem-plan=strategy=naive %lower_async | mlir-runner -O0 -e main -entry-point-result=void -shared-libs=%runner_libs,%llvm_lib/libmlir_async_runtime.so | FileCheck %s
// %a lives to the async.await (task 29), past %b's alloc (task 18).
// RECORDS: remark: record: 800 bytes, tasks [6, 29]
// RECORDS: remark: record: 800 bytes, tasks [18, 26]
// CHECK: 4950
// CHECK-NEXT: 1000
module {
  func.func private @printI64(i64)
  func.func private @printNewline()
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c10 = arith.constant 10 : index
    %c100 = arith.constant 100 : index
    %one = arith.constant 1 : i64
    %zero = arith.constant 0 : i64
    %a = memref.alloc() : memref<100xi64>
    scf.for %i = %c0 to %c100 step %c1 {
      memref.store %one, %a[%i] : memref<100xi64>
    }
    %tok, %val = async.execute -> !async.value<i64> {
      %s = scf.for %k = %c0 to %c10 step %c1 iter_args(%s0 = %zero) -> (i64) {
        %s1 = scf.for %i = %c0 to %c100 step %c1 iter_args(%s2 = %s0) -> (i64) {
          %x = memref.load %a[%i] : memref<100xi64>
          %t = arith.addi %s2, %x : i64
          scf.yield %t : i64
        }
        scf.yield %s1 : i64
      }
      async.yield %s : i64
    }
    %b = memref.alloc() : memref<100xi64>
    scf.for %i = %c0 to %c100 step %c1 {
      %x = arith.index_cast %i : index to i64
      memref.store %x, %b[%i] : memref<100xi64>
    }
    %sb = scf.for %i = %c0 to %c100 step %c1 iter_args(%s = %zero) -> (i64) {
      %x = memref.load %b[%i] : memref<100xi64>
      %t = arith.addi %s, %x : i64
      scf.yield %t : i64
    }
    func.call @printI64(%sb) : (i64) -> ()
    func.call @printNewline() : () -> ()
    %v = async.await %val : !async.value<i64>
    func.call @printI64(%v) : (i64) -> ()
    func.call @printNewline() : () -> ()
    return
  }
}
