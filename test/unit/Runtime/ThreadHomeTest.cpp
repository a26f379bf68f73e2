//===- ThreadHomeTest.cpp - Thread numbers given back ---------------------===//
//
// A thread that moved to another heap gives back its own number when it
// ends, not the heap it moved to: live threads never share a number.
//
//===----------------------------------------------------------------------===//

#include "ThreadHome.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <set>
#include <thread>

using namespace memplan::rt;

namespace {
size_t freeCount(unsigned N) {
  FreeHomes &F = freeHomes();
  std::lock_guard<std::mutex> L(F.Lock);
  return std::count(F.Numbers.begin(), F.Numbers.end(), N);
}
} // namespace

TEST(RuntimeThreads, AThreadThatMovedHomeGivesBackItsNumber) {
  unsigned Number = 0, Moved = 0;
  size_t MovedFreeBefore = 0;
  std::thread([&] {
    ThreadHome H;
    Number = H.Number;
    Moved = H.Number + 1; // as lockHome moves a thread to the next heap
    H.Index = Moved;
    MovedFreeBefore = freeCount(Moved);
    EXPECT_EQ(freeCount(Number), 0u); // taken while the thread lives
  }).join();
  EXPECT_EQ(freeCount(Number), 1u);
  EXPECT_EQ(freeCount(Moved), MovedFreeBefore);
  // Homes alive at once hold distinct numbers, the lowest free one first.
  ThreadHome A, B, C;
  std::set<unsigned> Live{A.Number, B.Number, C.Number};
  EXPECT_EQ(Live.size(), 3u);
  EXPECT_TRUE(Live.count(Number));
}
