// greedy-best takes the smaller of greedy-by-size and greedy-by-breadth (the
// TFLite record sets are in SharedObjectStrategiesTest.cpp).
#include "memplan/Core/Strategies/GreedyBest.h"
#include "TestUtil.h"
#include "memplan/Core/Strategies/GreedyByBreadth.h"
#include "memplan/Core/Strategies/GreedyBySize.h"
#include "memplan/Core/Validator.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <random>

using namespace memplan;

namespace {
TEST(GreedyBestTest, TakesBreadthWhenStrictlySmaller) {
  MEMPLAN_REQUIRE_SHARED_DATA();
  // tvm_deep_speech: both greedy strategies; greedy-best is the smaller.
  auto Set = test::readShared("peers/tvm_deep_speech.csv");
  uint64_t Best = 0, Size = 0, Breadth = 0;
  for (uint64_t S : greedyBest(Set.Records).ObjectSizes)
    Best += S;
  for (uint64_t S : greedyBySize(Set.Records).ObjectSizes)
    Size += S;
  for (uint64_t S : greedyByBreadth(Set.Records).ObjectSizes)
    Breadth += S;
  EXPECT_EQ(Best, std::min(Size, Breadth));
}
} // namespace
