//===- ConstantBytesTest.cpp - gatherStrided against element by element --===//
//
// The raw-byte fold must move exactly what an element-by-element gather
// moves, whatever the shape, the permutation, repeated (stride 0) and unit
// dimensions, and the element size (the memcpy runs, the tiles and the odd
// sizes take different paths).
//
//===----------------------------------------------------------------------===//

#include "ConstantBytes.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <cstring>
#include <numeric>
#include <random>
#include <vector>

using memplan::constant_bytes::gatherStrided;

namespace {
std::vector<char> naive(const std::vector<char> &Src,
                        const std::vector<int64_t> &Shape,
                        const std::vector<int64_t> &Strides, unsigned E) {
  int64_t N = 1;
  for (int64_t S : Shape)
    N *= S;
  std::vector<char> Dst(N * E);
  for (int64_t I = 0; I < N; ++I) {
    int64_t Rest = I, Off = 0;
    for (size_t K = Shape.size(); K-- > 0;) {
      Off += (Rest % Shape[K]) * Strides[K];
      Rest /= Shape[K];
    }
    std::memcpy(&Dst[I * E], &Src[Off * E], E);
  }
  return Dst;
}

TEST(ConstantBytesTest, PermutationsBroadcastsAndSizesMatchElementByElement) {
  std::mt19937 Rng(7);
  for (int Case = 0; Case < 400; ++Case) {
    unsigned E = std::vector<unsigned>{1, 2, 3, 4, 8, 12}[Rng() % 6];
    size_t Rank = 1 + Rng() % 4;
    std::vector<int64_t> SrcShape(Rank);
    for (int64_t &S : SrcShape)
      S = 1 + Rng() % 40;
    // Row-major strides of the source, permuted into the result's order;
    // sometimes a dimension repeats (stride 0, a broadcast).
    std::vector<int64_t> SrcStrides(Rank, 1);
    for (size_t K = Rank; K-- > 1;)
      SrcStrides[K - 1] = SrcStrides[K] * SrcShape[K];
    std::vector<size_t> Perm(Rank);
    std::iota(Perm.begin(), Perm.end(), 0);
    std::shuffle(Perm.begin(), Perm.end(), Rng);
    std::vector<int64_t> Shape, Strides;
    for (size_t P : Perm) {
      Shape.push_back(SrcShape[P]);
      Strides.push_back(SrcStrides[P]);
    }
    if (Rng() % 4 == 0) {
      size_t At = Rng() % (Rank + 1);
      Shape.insert(Shape.begin() + At, 1 + Rng() % 5);
      Strides.insert(Strides.begin() + At, 0);
    }
    int64_t N = 1;
    for (int64_t S : SrcShape)
      N *= S;
    std::vector<char> Src(N * E);
    for (char &C : Src)
      C = char(Rng());
    std::vector<char> Want = naive(Src, Shape, Strides, E);
    std::vector<char> Got(Want.size(), 0);
    gatherStrided(Src.data(), Got.data(), Shape, Strides, E);
    ASSERT_EQ(Got, Want) << "case " << Case << ", element bytes " << E;
  }
}

TEST(ConstantBytesTest, ScalarAndEmpty) {
  std::vector<char> Src = {1, 2, 3, 4};
  std::vector<char> Got(4, 0);
  gatherStrided(Src.data(), Got.data(), {}, {}, 4);
  EXPECT_EQ(Got, Src);
  gatherStrided(Src.data(), nullptr, {0, 3}, {3, 1}, 4);
}
} // namespace
