// RUN: memplan-opt %s --test-memplan-inplace-candidates -o /dev/null 2>&1 | FileCheck %s

// The in-place rule itself (docs/InplaceReuse.md), one function per rule:
// each pairing the finder looks at and the one reason it refuses it, as
// the analysis gives them (tensor-mem-plan's remarks only count pairs).
// The copies in and out of the arguments are not candidates (an argument
// is not a planned buffer); only the op under test is checked.

#id = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#tr = affine_map<(d0, d1) -> (d1, d0)>
#red = affine_map<(d0) -> ()>

func.func @paired(%in: memref<16xf32>, %out: memref<16xf32>) {
  %a = memref.alloc() : memref<16xf32>
  memref.copy %in, %a : memref<16xf32> to memref<16xf32>
  %b = memref.alloc() : memref<16xf32>
  // CHECK: inplace-candidates.mlir:[[@LINE+1]]:3: remark: in-place operand #0 into #1: paired
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%a : memref<16xf32>) outs(%b : memref<16xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.mulf %x, %x : f32
    linalg.yield %r : f32
  }
  memref.copy %b, %out : memref<16xf32> to memref<16xf32>
  return
}

func.func @copy_paired(%in: memref<16xf32>, %out: memref<16xf32>) {
  %a = memref.alloc() : memref<16xf32>
  memref.copy %in, %a : memref<16xf32> to memref<16xf32>
  %b = memref.alloc() : memref<16xf32>
  // CHECK: inplace-candidates.mlir:[[@LINE+1]]:3: remark: in-place operand #0 into #1: paired
  memref.copy %a, %b : memref<16xf32> to memref<16xf32>
  memref.copy %b, %out : memref<16xf32> to memref<16xf32>
  return
}

func.func @used_later(%in: memref<16xf32>, %out: memref<16xf32>, %out2: memref<16xf32>) {
  %a = memref.alloc() : memref<16xf32>
  memref.copy %in, %a : memref<16xf32> to memref<16xf32>
  %b = memref.alloc() : memref<16xf32>
  // CHECK: inplace-candidates.mlir:[[@LINE+1]]:3: remark: in-place operand #0 into #1: refused, the operand is used after the op
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%a : memref<16xf32>) outs(%b : memref<16xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  }
  memref.copy %a, %out2 : memref<16xf32> to memref<16xf32>
  memref.copy %b, %out : memref<16xf32> to memref<16xf32>
  return
}

func.func @transpose(%in: memref<4x4xf32>, %out: memref<4x4xf32>) {
  %a = memref.alloc() : memref<4x4xf32>
  memref.copy %in, %a : memref<4x4xf32> to memref<4x4xf32>
  %b = memref.alloc() : memref<4x4xf32>
  // CHECK: inplace-candidates.mlir:[[@LINE+1]]:3: remark: in-place operand #0 into #1: refused, the op does not read and write the same element at once
  linalg.generic {indexing_maps = [#tr, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%a : memref<4x4xf32>) outs(%b : memref<4x4xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  }
  memref.copy %b, %out : memref<4x4xf32> to memref<4x4xf32>
  return
}

func.func @element_size(%in: memref<16xf32>, %out: memref<16xf16>) {
  %a = memref.alloc() : memref<16xf32>
  memref.copy %in, %a : memref<16xf32> to memref<16xf32>
  %b = memref.alloc() : memref<16xf16>
  // CHECK: inplace-candidates.mlir:[[@LINE+1]]:3: remark: in-place operand #0 into #1: refused, element i is not at the same bytes in both
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%a : memref<16xf32>) outs(%b : memref<16xf16>) {
  ^bb0(%x: f32, %o: f16):
    %r = arith.truncf %x : f32 to f16
    linalg.yield %r : f16
  }
  memref.copy %b, %out : memref<16xf16> to memref<16xf16>
  return
}

func.func @reads_result(%in: memref<16xf32>, %out: memref<16xf32>) {
  %a = memref.alloc() : memref<16xf32>
  memref.copy %in, %a : memref<16xf32> to memref<16xf32>
  %b = memref.alloc() : memref<16xf32>
  memref.copy %in, %b : memref<16xf32> to memref<16xf32>
  // CHECK: inplace-candidates.mlir:[[@LINE+1]]:3: remark: in-place into #1: refused, the payload reads the result's old contents
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%a : memref<16xf32>) outs(%b : memref<16xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.addf %x, %o : f32
    linalg.yield %r : f32
  }
  memref.copy %b, %out : memref<16xf32> to memref<16xf32>
  return
}

func.func @reduction(%in: memref<16xf32>, %out: memref<f32>) {
  %a = memref.alloc() : memref<16xf32>
  memref.copy %in, %a : memref<16xf32> to memref<16xf32>
  %b = memref.alloc() : memref<f32>
  // CHECK: inplace-candidates.mlir:[[@LINE+1]]:3: remark: in-place: refused, not elementwise
  linalg.generic {indexing_maps = [#id, #red], iterator_types = ["reduction"]}
      ins(%a : memref<16xf32>) outs(%b : memref<f32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  }
  memref.copy %b, %out : memref<f32> to memref<f32>
  return
}

func.func @seen_twice(%in: memref<16xf32>, %out: memref<16xf32>) {
  %a = memref.alloc() : memref<16xf32>
  memref.copy %in, %a : memref<16xf32> to memref<16xf32>
  %b = memref.alloc() : memref<16xf32>
  // CHECK: inplace-candidates.mlir:[[@LINE+2]]:3: remark: in-place operand #0 into #2: refused, another operand of the op, or an op inside it, sees one of them
  // CHECK: inplace-candidates.mlir:[[@LINE+1]]:3: remark: in-place operand #1 into #2: refused, another operand of the op, or an op inside it, sees one of them
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%a, %a : memref<16xf32>, memref<16xf32>) outs(%b : memref<16xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %r = arith.mulf %x, %y : f32
    linalg.yield %r : f32
  }
  memref.copy %b, %out : memref<16xf32> to memref<16xf32>
  return
}

// One operand, two results: the first takes its bytes, the second cannot.
func.func @operand_taken(%in: memref<16xf32>, %out: memref<16xf32>, %out2: memref<16xf32>) {
  %a = memref.alloc() : memref<16xf32>
  memref.copy %in, %a : memref<16xf32> to memref<16xf32>
  %b = memref.alloc() : memref<16xf32>
  %c = memref.alloc() : memref<16xf32>
  // CHECK: inplace-candidates.mlir:[[@LINE+2]]:3: remark: in-place operand #0 into #1: paired
  // CHECK: inplace-candidates.mlir:[[@LINE+1]]:3: remark: in-place operand #0 into #2: refused, the operand's bytes already go on in another result
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%a : memref<16xf32>) outs(%b, %c : memref<16xf32>, memref<16xf32>) {
  ^bb0(%x: f32, %o: f32, %p: f32):
    %r = arith.negf %x : f32
    linalg.yield %x, %r : f32, f32
  }
  memref.copy %b, %out : memref<16xf32> to memref<16xf32>
  memref.copy %c, %out2 : memref<16xf32> to memref<16xf32>
  return
}
