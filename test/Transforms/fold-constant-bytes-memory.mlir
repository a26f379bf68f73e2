// Raw-byte folds under mode=memory (the default) and mode=speed: the weights
// never grow in memory mode. A folded constant's original goes when nothing
// else reads it and stays when something does; memory mode then folds
// nothing (the folded copy would sit beside it), speed folds anyway. Where a
// permutation can be read through by its readers, memory reads through
// (no bytes at all, no compile-time copy) and speed folds.
// RUN: memplan-opt %s --split-input-file --tensor-mem-hoist-constants="remarks=true" 2>%t.mem.remarks | FileCheck %s --check-prefix=MEM
// RUN: FileCheck %s --check-prefix=MEMREMARK < %t.mem.remarks
// RUN: memplan-opt %s --split-input-file --tensor-mem-hoist-constants="mode=speed hoist=false" | FileCheck %s --check-prefix=SPEED
// RUN: memplan-opt %s --split-input-file --tensor-mem-hoist-constants="fold-bytes=false" | FileCheck %s --check-prefix=OFF

// Only the transpose reads %w; its reader is no linalg op, so nothing reads
// through it: folded, and the original erased.
// MEM-LABEL: func.func @dies
// MEM:         %[[C:.*]] = arith.constant dense_resource<[[B:memplan_folded[_0-9]*]]> : tensor<3x2xf32>
// MEM-NOT:     linalg.transpose
// MEM:         tensor.insert_slice %[[C]]
// MEM:         dialect_resources
// MEM-NOT:     w23:
// MEM:         [[B]]: "0x040000000000803F00008040000000400000A040000040400000C040"
// MEM-NOT:     w23:
// MEMREMARK: remark: tensor-mem-hoist-constants: folded: 24 bytes
// OFF-LABEL: func.func @dies
// OFF:         linalg.transpose
func.func @dies(%into: tensor<4x2xf32>) -> tensor<4x2xf32> {
  %w = arith.constant dense_resource<w23> : tensor<2x3xf32>
  %e = tensor.empty() : tensor<3x2xf32>
  %t = linalg.transpose ins(%w : tensor<2x3xf32>) outs(%e : tensor<3x2xf32>) permutation = [1, 0]
  %r = tensor.insert_slice %t into %into[0, 0] [3, 2] [1, 1] : tensor<3x2xf32> into tensor<4x2xf32>
  return %r : tensor<4x2xf32>
}
{-#
  dialect_resources: {
    builtin: {
      w23: "0x040000000000803F0000004000004040000080400000A0400000C040"
    }
  }
#-}

// -----

// %w is read by the transpose and by another op: memory mode leaves the
// transpose (a folded copy would grow the weights); speed folds it and keeps
// %w for its other reader.
// MEM-LABEL: func.func @kept
// MEM:         linalg.transpose
// MEMREMARK: remark: tensor-mem-hoist-constants: left alone: folding would keep 24 bytes beside constants still read elsewhere (mode=memory)
// SPEED-LABEL: func.func @kept
// SPEED-DAG:     %[[W:.*]] = arith.constant dense_resource<w23> : tensor<2x3xf32>
// SPEED-DAG:     %[[C:.*]] = arith.constant dense_resource<[[B:memplan_folded[_0-9]*]]> : tensor<3x2xf32>
// SPEED-NOT:     linalg.transpose
// SPEED:         tensor.insert_slice %[[C]]
// SPEED:         tensor.insert_slice %[[W]]
// SPEED:         dialect_resources
// SPEED-DAG:     w23: "0x040000000000803F0000004000004040000080400000A0400000C040"
// SPEED-DAG:     [[B]]: "0x040000000000803F00008040000000400000A040000040400000C040"
func.func @kept(%into: tensor<4x2xf32>, %into2: tensor<2x4xf32>) -> (tensor<4x2xf32>, tensor<2x4xf32>) {
  %w = arith.constant dense_resource<w23> : tensor<2x3xf32>
  %e = tensor.empty() : tensor<3x2xf32>
  %t = linalg.transpose ins(%w : tensor<2x3xf32>) outs(%e : tensor<3x2xf32>) permutation = [1, 0]
  %r = tensor.insert_slice %t into %into[0, 0] [3, 2] [1, 1] : tensor<3x2xf32> into tensor<4x2xf32>
  %r2 = tensor.insert_slice %w into %into2[0, 0] [2, 3] [1, 1] : tensor<2x3xf32> into tensor<2x4xf32>
  return %r, %r2 : tensor<4x2xf32>, tensor<2x4xf32>
}
{-#
  dialect_resources: {
    builtin: {
      w23: "0x040000000000803F0000004000004040000080400000A0400000C040"
    }
  }
#-}

// -----

// A matmul reads the transposed weight: memory mode reads %w through the
// transposed map (no new bytes, no copy at compile time), speed folds.
// MEM-LABEL: func.func @read_through
// MEM-NOT:     memplan_folded
// MEM:         linalg.generic
// MEM-SAME:      ins(%{{.*}}, %cst : tensor<1x3xf32>, tensor<2x3xf32>)
// MEM:         w23:
// SPEED-LABEL: func.func @read_through
// SPEED:         arith.constant dense_resource<memplan_folded{{[_0-9]*}}> : tensor<3x2xf32>
// SPEED:         linalg.matmul
// SPEED-NOT:     w23:
func.func @read_through(%x: tensor<1x3xf32>, %acc: tensor<1x2xf32>) -> tensor<1x2xf32> {
  %w = arith.constant dense_resource<w23> : tensor<2x3xf32>
  %e = tensor.empty() : tensor<3x2xf32>
  %t = linalg.transpose ins(%w : tensor<2x3xf32>) outs(%e : tensor<3x2xf32>) permutation = [1, 0]
  %r = linalg.matmul ins(%x, %t : tensor<1x3xf32>, tensor<3x2xf32>) outs(%acc : tensor<1x2xf32>) -> tensor<1x2xf32>
  return %r : tensor<1x2xf32>
}
{-#
  dialect_resources: {
    builtin: {
      w23: "0x040000000000803F0000004000004040000080400000A0400000C040"
    }
  }
#-}

// -----

// A link of a chain must not grow the weights: the 16-byte slice read by
// the add is small enough, but folding the broadcast it comes from would put
// 128 bytes where %w had 16 (memory mode keeps it; speed's max-growth too).
// MEM-LABEL: func.func @growing_link
// MEM:         linalg.broadcast
// MEM:         w4:
// SPEED-LABEL: func.func @growing_link
// SPEED:         linalg.broadcast
func.func @growing_link(%x: tensor<1x4xf32>) -> tensor<1x4xf32> {
  %w = arith.constant dense_resource<w4> : tensor<4xf32>
  %e = tensor.empty() : tensor<8x4xf32>
  %b = linalg.broadcast ins(%w : tensor<4xf32>) outs(%e : tensor<8x4xf32>) dimensions = [0]
  %s = tensor.extract_slice %b[0, 0] [1, 4] [1, 1] : tensor<8x4xf32> to tensor<1x4xf32>
  %r = linalg.add ins(%s, %x : tensor<1x4xf32>, tensor<1x4xf32>) outs(%x : tensor<1x4xf32>) -> tensor<1x4xf32>
  return %r : tensor<1x4xf32>
}
{-#
  dialect_resources: {
    builtin: {
      w4: "0x040000000000803F000000400000404000008040"
    }
  }
#-}

// -----

// One blob held by two constants (here in two functions): erasing the one
// the transpose reads frees no byte, so memory mode does not fold it; speed
// does.
// MEM-LABEL: func.func @shared_blob
// MEM:         linalg.transpose
// MEMREMARK: remark: tensor-mem-hoist-constants: left alone: folding would keep 24 bytes beside constants still read elsewhere (mode=memory)
// SPEED-LABEL: func.func @shared_blob
// SPEED-NOT:     linalg.transpose
// SPEED-LABEL: func.func @other
func.func @shared_blob(%into: tensor<4x2xf32>) -> tensor<4x2xf32> {
  %w = arith.constant dense_resource<w23> : tensor<2x3xf32>
  %e = tensor.empty() : tensor<3x2xf32>
  %t = linalg.transpose ins(%w : tensor<2x3xf32>) outs(%e : tensor<3x2xf32>) permutation = [1, 0]
  %r = tensor.insert_slice %t into %into[0, 0] [3, 2] [1, 1] : tensor<3x2xf32> into tensor<4x2xf32>
  return %r : tensor<4x2xf32>
}
func.func @other(%into: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %w = arith.constant dense_resource<w23> : tensor<2x3xf32>
  %r = tensor.insert_slice %w into %into[0, 0] [2, 3] [1, 1] : tensor<2x3xf32> into tensor<2x4xf32>
  return %r : tensor<2x4xf32>
}
{-#
  dialect_resources: {
    builtin: {
      w23: "0x040000000000803F0000004000004040000080400000A0400000C040"
    }
  }
#-}
