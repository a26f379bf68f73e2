// Four 8x8xf32 temporaries (256 B) in a chain: each lives with the next only,
// so two slots (512 B) hold them; with no reuse they need 1024 B.
func.func @chain(%x: tensor<8x8xf32>) -> f32 {
  %e1 = tensor.empty() : tensor<8x8xf32>
  %a = linalg.add ins(%x, %x : tensor<8x8xf32>, tensor<8x8xf32>) outs(%e1 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %e2 = tensor.empty() : tensor<8x8xf32>
  %b = linalg.mul ins(%a, %x : tensor<8x8xf32>, tensor<8x8xf32>) outs(%e2 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %e3 = tensor.empty() : tensor<8x8xf32>
  %c = linalg.add ins(%b, %x : tensor<8x8xf32>, tensor<8x8xf32>) outs(%e3 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %e4 = tensor.empty() : tensor<8x8xf32>
  %d = linalg.mul ins(%c, %x : tensor<8x8xf32>, tensor<8x8xf32>) outs(%e4 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %i = arith.constant 0 : index
  %s = tensor.extract %d[%i, %i] : tensor<8x8xf32>
  return %s : f32
}
