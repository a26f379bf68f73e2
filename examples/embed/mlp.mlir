// A two-layer perceptron in linalg on tensors, the input of the example
// driver: x (4x8 ones) -> matmul w (8x8, all 0.5) -> relu(. - 3) -> matmul w
// -> sum. Every matmul entry is 8 * 0.5 * v: layer 1 gives 4, relu(4 - 3) = 1,
// layer 2 gives 4 again; the sum of the 32 entries is 128.
func.func @forward() -> f32 {
  %x = arith.constant dense<1.0> : tensor<4x8xf32>
  %w = arith.constant dense<0.5> : tensor<8x8xf32>
  %zero = arith.constant 0.0 : f32
  %three = arith.constant 3.0 : f32
  %e0 = tensor.empty() : tensor<4x8xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<4x8xf32>) -> tensor<4x8xf32>
  %h0 = linalg.matmul ins(%x, %w : tensor<4x8xf32>, tensor<8x8xf32>)
                      outs(%z0 : tensor<4x8xf32>) -> tensor<4x8xf32>
  %e1 = tensor.empty() : tensor<4x8xf32>
  %h1 = linalg.generic {
      indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
      iterator_types = ["parallel", "parallel"]}
      ins(%h0 : tensor<4x8xf32>) outs(%e1 : tensor<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.subf %a, %three : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %e2 = tensor.empty() : tensor<4x8xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<4x8xf32>) -> tensor<4x8xf32>
  %h2 = linalg.matmul ins(%h1, %w : tensor<4x8xf32>, tensor<8x8xf32>)
                      outs(%z2 : tensor<4x8xf32>) -> tensor<4x8xf32>
  %e3 = tensor.empty() : tensor<f32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<f32>) -> tensor<f32>
  %sum = linalg.generic {
      indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> ()>],
      iterator_types = ["reduction", "reduction"]}
      ins(%h2 : tensor<4x8xf32>) outs(%z3 : tensor<f32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  } -> tensor<f32>
  %v = tensor.extract %sum[] : tensor<f32>
  return %v : f32
}
