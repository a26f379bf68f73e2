//===- SharedArenaTest.cpp - memplan_rt_shared_arena ----------------------===//

#include "memplan/Runtime/memplan_runtime.h"

#include <gtest/gtest.h>

#include <cstdint>

namespace {

struct Slot {
  int64_t Data[3] = {0, 0, 0};
  memplan_rt_memref_i64 Ref{Data, Data, 0, {3}, {1}};
};

uint64_t inUse() {
  memplan_rt_stats S;
  memplan_rt_get_stats(memplan_rt_global(), &S);
  return S.requested_bytes_in_use;
}

// One block across calls; a larger request or alignment replaces it, and
// the old block is freed (the functions of the set never run at once).
TEST(SharedArena, KeptAcrossCallsAndGrown) {
  Slot S;
  uint64_t Before = inUse();
  memplan_rt_memref_i8 A{};
  _mlir_ciface_memplan_rt_shared_arena(&A, &S.Ref, 1000, 64);
  ASSERT_NE(A.allocated, nullptr);
  EXPECT_EQ(A.sizes[0], 1000);
  EXPECT_EQ(S.Data[1], 1000);
  EXPECT_EQ(inUse(), Before + 1000);

  // Smaller: the same block, nothing allocated.
  memplan_rt_memref_i8 B{};
  _mlir_ciface_memplan_rt_shared_arena(&B, &S.Ref, 10, 16);
  EXPECT_EQ(B.aligned, A.aligned);
  EXPECT_EQ(B.sizes[0], 1000);
  EXPECT_EQ(inUse(), Before + 1000);

  // Larger: the old block goes back, one block of the new size is held.
  memplan_rt_memref_i8 C{};
  _mlir_ciface_memplan_rt_shared_arena(&C, &S.Ref, 5000, 64);
  ASSERT_NE(C.allocated, nullptr);
  EXPECT_EQ(C.sizes[0], 5000);
  EXPECT_EQ(inUse(), Before + 5000);

  // A larger alignment alone also replaces it, keeping the bytes.
  memplan_rt_memref_i8 D{};
  _mlir_ciface_memplan_rt_shared_arena(&D, &S.Ref, 100, 4096);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(D.aligned) % 4096, 0u);
  EXPECT_EQ(D.sizes[0], 5000);
  EXPECT_EQ(S.Data[2], 4096);
  EXPECT_EQ(inUse(), Before + 5000);

  _mlir_ciface_memplan_rt_free(&D);
  EXPECT_EQ(inUse(), Before);
}

// A first request of 0 bytes holds nothing; the next one allocates.
TEST(SharedArena, EmptyFirst) {
  Slot S;
  memplan_rt_memref_i8 A{};
  _mlir_ciface_memplan_rt_shared_arena(&A, &S.Ref, 0, 64);
  EXPECT_EQ(A.sizes[0], 0);
  memplan_rt_memref_i8 B{};
  _mlir_ciface_memplan_rt_shared_arena(&B, &S.Ref, 64, 64);
  ASSERT_NE(B.allocated, nullptr);
  EXPECT_EQ(S.Data[1], 64);
  _mlir_ciface_memplan_rt_free(&B);
}

TEST(SharedArenaDeathTest, BadSlotEnds) {
  int64_t Two[2] = {0, 0};
  memplan_rt_memref_i64 Ref{Two, Two, 0, {2}, {1}};
  memplan_rt_memref_i8 A{};
  EXPECT_DEATH(_mlir_ciface_memplan_rt_shared_arena(&A, &Ref, 8, 8),
               "without a result or a 3-element slot");
}

} // namespace
