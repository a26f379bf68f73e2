// A @forward that returns its weights (and its input) as rows of one tensor,
// so that a test sees what vary_weights.py makes of each kind of constant.
module {
  func.func @forward(%arg0: tensor<1x4xf32>) -> tensor<7x4xf32> {
    %w = arith.constant dense<5.000000e-01> : tensor<3x4xf32>
    %z = arith.constant dense<0.000000e+00> : tensor<4xf32>
    %s = arith.constant dense<2.0> : tensor<4xf32>
    %e = arith.constant dense_resource<__elided__> : tensor<4xf32>
    // Left alone: not a float tensor, not a splat, rank 0.
    %i = arith.constant dense<1> : tensor<4xi64>
    %l = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
    %r = arith.constant dense<3.0> : tensor<f32>
    %o = tensor.empty() : tensor<7x4xf32>
    // The input first: each weight then meets an argument-derived tensor,
    // so each is hoisted on its own.
    %o1 = tensor.insert_slice %arg0 into %o[6, 0] [1, 4] [1, 1] : tensor<1x4xf32> into tensor<7x4xf32>
    %o2 = tensor.insert_slice %w into %o1[0, 0] [3, 4] [1, 1] : tensor<3x4xf32> into tensor<7x4xf32>
    %o3 = tensor.insert_slice %z into %o2[3, 0] [1, 4] [1, 1] : tensor<4xf32> into tensor<7x4xf32>
    %o4 = tensor.insert_slice %s into %o3[4, 0] [1, 4] [1, 1] : tensor<4xf32> into tensor<7x4xf32>
    %o5 = tensor.insert_slice %e into %o4[5, 0] [1, 4] [1, 1] : tensor<4xf32> into tensor<7x4xf32>
    return %o5 : tensor<7x4xf32>
  }
}
