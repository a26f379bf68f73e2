#map = affine_map<(d0, d1) -> (d0, d1)>
func.func @block(%x: tensor<16x32xf32>, %w1: tensor<32x32xf32>, %w2: tensor<32x32xf32>) -> tensor<16x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<16x32xf32>
  %f0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<16x32xf32>) -> tensor<16x32xf32>
  %h = linalg.matmul ins(%x, %w1 : tensor<16x32xf32>, tensor<32x32xf32>) outs(%f0 : tensor<16x32xf32>) -> tensor<16x32xf32>
  %e1 = tensor.empty() : tensor<16x32xf32>
  %r = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%h : tensor<16x32xf32>) outs(%e1 : tensor<16x32xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.maximumf %a, %zero : f32
    linalg.yield %m : f32
  } -> tensor<16x32xf32>
  %e2 = tensor.empty() : tensor<16x32xf32>
  %s = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%r : tensor<16x32xf32>) outs(%e2 : tensor<16x32xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = math.exp %a : f32
    linalg.yield %m : f32
  } -> tensor<16x32xf32>
  %e3 = tensor.empty() : tensor<16x32xf32>
  %f3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<16x32xf32>) -> tensor<16x32xf32>
  %o = linalg.matmul ins(%s, %w2 : tensor<16x32xf32>, tensor<32x32xf32>) outs(%f3 : tensor<16x32xf32>) -> tensor<16x32xf32>
  %e4 = tensor.empty() : tensor<16x32xf32>
  %y = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%o, %x : tensor<16x32xf32>, tensor<16x32xf32>) outs(%e4 : tensor<16x32xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.addf %a, %b : f32
    linalg.yield %m : f32
  } -> tensor<16x32xf32>
  return %y : tensor<16x32xf32>
}
