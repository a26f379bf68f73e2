// Expectations from openxla/xla xla/service/heap_simulator/
// heap_simulator_test.cc, GlobalDecreasingSizeBestFitHeapTest.DecreasingSize
// (heap 100) and .BestFit (heap 140), with their offsets.
#include "memplan/Core/Strategies/BestFit.h"
#include "TestUtil.h"
#include "memplan/Core/LowerBound.h"
#include "memplan/Core/Validator.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <random>

using namespace memplan;

namespace {

TEST(BestFitTest, XlaDecreasingSize) {
  MEMPLAN_REQUIRE_SHARED_DATA();
  auto Set = test::readShared("peers/xla_DecreasingSize.csv");
  OffsetsAssignment A = bestFitSize(Set.Records);
  EXPECT_EQ(A.TotalSize, 100u);
  // a = 90, b = 40, c = 70, d = 0.
  EXPECT_EQ(A.Offsets, (std::vector<uint64_t>{90, 40, 70, 0}));
}

TEST(BestFitTest, XlaBestFit) {
  MEMPLAN_REQUIRE_SHARED_DATA();
  auto Set = test::readShared("peers/xla_BestFit.csv");
  OffsetsAssignment A = bestFitSize(Set.Records);
  EXPECT_EQ(A.TotalSize, 140u);
  // a = 90, b = 120, c = 50, d = 90, e = 0.
  EXPECT_EQ(A.Offsets, (std::vector<uint64_t>{90, 120, 50, 90, 0}));
}

TEST(BestFitTest, AreaOrderValidForAnyInputOrder) {
  MEMPLAN_REQUIRE_SHARED_DATA();
  test::expectValidForAnyOrder(bestFitSize, "peers/tvm_deep_speech.csv", 10,
                               11);
  test::expectValidForAnyOrder(bestFitArea, "peers/tvm_deep_speech.csv", 10,
                               11);
}

} // namespace
