// tensor-mem-hoist-constants decides on the whole alias closure of a
// constant-derived tensor W (issue 21, item 5): an alias that is returned,
// yielded by a loop, passed to a call or written keeps W in the function; an
// alias that is only read does not. test/e2e/hoist-escape-aliases.mlir runs
// such programs.
//
// RUN: memplan-opt %s --tensor-mem-hoist-constants="mode=speed fold-limit-bytes=0 fold-bytes=false remarks=true" 2> %t.remarks | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks

#t = affine_map<(d0, d1) -> (d1, d0)>
#id = affine_map<(d0, d1) -> (d0, d1)>

func.func private @use(tensor<3x2xf32>)

// Returned through a select.
// CHECK-LABEL: func.func @select_returned(
// CHECK-NEXT:    arith.constant dense
// CHECK-NEXT:    tensor.empty
// CHECK-NEXT:    linalg.generic
// CHECK:         arith.select
// REMARK: remark: tensor-mem-hoist-constants: left alone: returned or yielded through 'arith.select'
func.func @select_returned(%c: i1, %b: tensor<3x2xf32>) -> (tensor<3x2xf32>) {
  %wt = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %e = tensor.empty() : tensor<3x2xf32>
  %w = linalg.generic {indexing_maps = [#t, #id], iterator_types = ["parallel", "parallel"]}
      ins(%wt : tensor<2x3xf32>) outs(%e : tensor<3x2xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<3x2xf32>
  %s = arith.select %c, %w, %b : tensor<3x2xf32>
  return %s : tensor<3x2xf32>
}

// Returned through a reshape whose shape is an argument.
// CHECK-LABEL: func.func @reshape_returned(
// CHECK-NEXT:    arith.constant dense
// CHECK-NEXT:    tensor.empty
// CHECK-NEXT:    linalg.generic
// CHECK:         tensor.reshape
// REMARK: remark: tensor-mem-hoist-constants: left alone: returned or yielded through 'tensor.reshape'
func.func @reshape_returned(%shape: tensor<1xindex>) -> (tensor<6xf32>) {
  %wt = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %e = tensor.empty() : tensor<3x2xf32>
  %w = linalg.generic {indexing_maps = [#t, #id], iterator_types = ["parallel", "parallel"]}
      ins(%wt : tensor<2x3xf32>) outs(%e : tensor<3x2xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<3x2xf32>
  %r = tensor.reshape %w(%shape) : (tensor<3x2xf32>, tensor<1xindex>) -> tensor<6xf32>
  return %r : tensor<6xf32>
}

// W is read by a matmul, and returned through a constant-derived cast.
// CHECK-LABEL: func.func @cast_returned(
// CHECK-NEXT:    arith.constant dense
// CHECK-NEXT:    tensor.empty
// CHECK-NEXT:    linalg.generic
// CHECK:         tensor.cast
// REMARK: remark: tensor-mem-hoist-constants: left alone: returned or yielded through 'tensor.cast'
func.func @cast_returned(%a: tensor<1x3xf32>, %acc: tensor<1x2xf32>) -> (tensor<1x2xf32>, tensor<?x2xf32>) {
  %wt = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %e = tensor.empty() : tensor<3x2xf32>
  %w = linalg.generic {indexing_maps = [#t, #id], iterator_types = ["parallel", "parallel"]}
      ins(%wt : tensor<2x3xf32>) outs(%e : tensor<3x2xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<3x2xf32>
  %m = linalg.matmul ins(%a, %w : tensor<1x3xf32>, tensor<3x2xf32>) outs(%acc : tensor<1x2xf32>) -> tensor<1x2xf32>
  %c = tensor.cast %w : tensor<3x2xf32> to tensor<?x2xf32>
  return %m, %c : tensor<1x2xf32>, tensor<?x2xf32>
}

// Returned through an scf.if.
// CHECK-LABEL: func.func @branch_returned(
// CHECK-NEXT:    arith.constant dense
// CHECK-NEXT:    tensor.empty
// CHECK-NEXT:    linalg.generic
// CHECK:         scf.if
// REMARK: remark: tensor-mem-hoist-constants: left alone: returned or yielded through 'scf.if'
func.func @branch_returned(%c: i1, %b: tensor<3x2xf32>) -> (tensor<3x2xf32>) {
  %wt = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %e = tensor.empty() : tensor<3x2xf32>
  %w = linalg.generic {indexing_maps = [#t, #id], iterator_types = ["parallel", "parallel"]}
      ins(%wt : tensor<2x3xf32>) outs(%e : tensor<3x2xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<3x2xf32>
  %r = scf.if %c -> tensor<3x2xf32> {
    scf.yield %w : tensor<3x2xf32>
  } else {
    scf.yield %b : tensor<3x2xf32>
  }
  return %r : tensor<3x2xf32>
}

// Passed to a call through a select.
// CHECK-LABEL: func.func @select_to_call(
// CHECK-NEXT:    arith.constant dense
// CHECK-NEXT:    tensor.empty
// CHECK-NEXT:    linalg.generic
// REMARK: remark: tensor-mem-hoist-constants: left alone: passed to a call through 'arith.select'
func.func @select_to_call(%c: i1, %b: tensor<3x2xf32>) {
  %wt = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %e = tensor.empty() : tensor<3x2xf32>
  %w = linalg.generic {indexing_maps = [#t, #id], iterator_types = ["parallel", "parallel"]}
      ins(%wt : tensor<2x3xf32>) outs(%e : tensor<3x2xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<3x2xf32>
  %s = arith.select %c, %w, %b : tensor<3x2xf32>
  func.call @use(%s) : (tensor<3x2xf32>) -> ()
  return
}

// Written through a select (the destination of a fill).
// CHECK-LABEL: func.func @select_written(
// CHECK-NEXT:    arith.constant dense
// CHECK-NEXT:    tensor.empty
// CHECK-NEXT:    linalg.generic
// REMARK: remark: tensor-mem-hoist-constants: left alone: used as a destination (outs) through 'arith.select'
func.func @select_written(%c: i1, %b: tensor<3x2xf32>, %v: f32) -> (tensor<3x2xf32>) {
  %wt = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %e = tensor.empty() : tensor<3x2xf32>
  %w = linalg.generic {indexing_maps = [#t, #id], iterator_types = ["parallel", "parallel"]}
      ins(%wt : tensor<2x3xf32>) outs(%e : tensor<3x2xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<3x2xf32>
  %s = arith.select %c, %w, %b : tensor<3x2xf32>
  %f = linalg.fill ins(%v : f32) outs(%s : tensor<3x2xf32>) -> tensor<3x2xf32>
  return %f : tensor<3x2xf32>
}

// Only read through a select and an scf.if: hoisted.
// CHECK-LABEL: func.func @select_read(
// CHECK:         %[[G:.*]] = memref.get_global @__memplan_hoisted_select_read
// CHECK:         %[[W:.*]] = bufferization.to_tensor %[[G]]
// CHECK:         arith.select %{{.*}}, %[[W]],
// REMARK: remark: tensor-mem-hoist-constants: hoisted into @__memplan_hoisted_select_read: 24 bytes
func.func @select_read(%c: i1, %b: tensor<3x2xf32>, %a: tensor<1x3xf32>, %acc: tensor<1x2xf32>) -> (tensor<1x2xf32>) {
  %wt = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %e = tensor.empty() : tensor<3x2xf32>
  %w = linalg.generic {indexing_maps = [#t, #id], iterator_types = ["parallel", "parallel"]}
      ins(%wt : tensor<2x3xf32>) outs(%e : tensor<3x2xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<3x2xf32>
  %s = arith.select %c, %w, %b : tensor<3x2xf32>
  %r = scf.if %c -> tensor<3x2xf32> {
    scf.yield %s : tensor<3x2xf32>
  } else {
    scf.yield %b : tensor<3x2xf32>
  }
  %m = linalg.matmul ins(%a, %r : tensor<1x3xf32>, tensor<3x2xf32>) outs(%acc : tensor<1x2xf32>) -> tensor<1x2xf32>
  return %m : tensor<1x2xf32>
}
