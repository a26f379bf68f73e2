//===- CAPITest.cpp - The C ABI and the MLIR entry points -----------------===//

#include "memplan/Runtime/memplan_runtime.h"

#include "gtest/gtest.h"

#include <string>

namespace {

TEST(RuntimeCAPI, CreateAllocFreeStatsDump) {
  memplan_rt_options O;
  memplan_rt_options_init(&O);
  EXPECT_EQ(O.rounding, 256u);
  O.trace = 1;
  memplan_rt_status S = MEMPLAN_RT_BAD_OPTIONS;
  memplan_rt_allocator *A = memplan_rt_create(&O, &S);
  ASSERT_NE(A, nullptr);
  EXPECT_EQ(S, MEMPLAN_RT_OK);

  void *P = memplan_rt_allocate(A, 3000, 128, &S);
  ASSERT_NE(P, nullptr);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(P) % 128, 0u);
  memplan_rt_stats St;
  memplan_rt_get_stats(A, &St);
  EXPECT_EQ(St.num_allocs, 1u);
  EXPECT_EQ(St.bytes_in_use, 3072u);
  EXPECT_EQ(St.requested_bytes_in_use, 3000u);

  size_t Len = memplan_rt_dump(A, 1, nullptr, 0);
  ASSERT_GT(Len, 0u);
  std::string Buf(Len + 1, 'x');
  EXPECT_EQ(memplan_rt_dump(A, 1, Buf.data(), Buf.size()), Len);
  EXPECT_EQ(Buf[Len], '\0');
  EXPECT_NE(Buf.find("\"requested\":3000"), std::string::npos);
  // A short buffer is cut and terminated.
  char Small[8];
  EXPECT_EQ(memplan_rt_dump(A, 0, Small, sizeof(Small)),
            memplan_rt_dump(A, 0, nullptr, 0));
  EXPECT_EQ(std::string(Small), "memplan");

  EXPECT_EQ(memplan_rt_deallocate(A, P), MEMPLAN_RT_OK);
  EXPECT_EQ(memplan_rt_deallocate(A, P), MEMPLAN_RT_DOUBLE_FREE);
  memplan_rt_get_stats(A, &St);
  EXPECT_EQ(St.bytes_in_use, 0u);
  EXPECT_EQ(St.num_failures, 1u);
  EXPECT_STREQ(memplan_rt_status_string(MEMPLAN_RT_DOUBLE_FREE),
               "pointer is already free");
  memplan_rt_destroy(A);

  O.rounding = 3;
  EXPECT_EQ(memplan_rt_create(&O, &S), nullptr);
  EXPECT_EQ(S, MEMPLAN_RT_BAD_OPTIONS);
  EXPECT_EQ(memplan_rt_allocate(nullptr, 8, 8, &S), nullptr);
  EXPECT_EQ(S, MEMPLAN_RT_BAD_OPTIONS);
}

TEST(RuntimeCAPI, MlirEntryPointsUseTheGlobalAllocator) {
  memplan_rt_allocator *G = memplan_rt_global();
  ASSERT_NE(G, nullptr);
  memplan_rt_stats Before;
  memplan_rt_get_stats(G, &Before);

  memplan_rt_memref_i8 M{};
  _mlir_ciface_memplan_rt_alloc(&M, 1000, 256);
  ASSERT_NE(M.allocated, nullptr);
  EXPECT_EQ(M.aligned, M.allocated);
  EXPECT_EQ(M.offset, 0);
  EXPECT_EQ(M.sizes[0], 1000);
  EXPECT_EQ(M.strides[0], 1);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(M.aligned) % 256, 0u);
  memplan_rt_stats During;
  memplan_rt_get_stats(G, &During);
  EXPECT_EQ(During.requested_bytes_in_use,
            Before.requested_bytes_in_use + 1000);

  _mlir_ciface_memplan_rt_free(&M);
  memplan_rt_stats After;
  memplan_rt_get_stats(G, &After);
  EXPECT_EQ(After.requested_bytes_in_use, Before.requested_bytes_in_use);
  EXPECT_EQ(After.num_frees, Before.num_frees + 1);

  // Zero bytes: a memref of size 0 on a block of its own (upstream's
  // printer reads the first element of an empty memref), aligned, and
  // freed as any other.
  memplan_rt_memref_i8 Z{}, Z2{};
  _mlir_ciface_memplan_rt_alloc(&Z, 0, 64);
  _mlir_ciface_memplan_rt_alloc(&Z2, 0, 64);
  ASSERT_NE(Z.allocated, nullptr);
  EXPECT_NE(Z.allocated, Z2.allocated);
  EXPECT_EQ(Z.aligned, Z.allocated);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(Z.aligned) % 64, 0u);
  EXPECT_EQ(Z.sizes[0], 0);
  memplan_rt_stats WithEmpty;
  memplan_rt_get_stats(G, &WithEmpty);
  EXPECT_EQ(WithEmpty.num_allocs, After.num_allocs + 2);
  _mlir_ciface_memplan_rt_free(&Z);
  _mlir_ciface_memplan_rt_free(&Z2);
  memplan_rt_stats Freed;
  memplan_rt_get_stats(G, &Freed);
  EXPECT_EQ(Freed.num_frees, After.num_frees + 2);
  EXPECT_EQ(Freed.requested_bytes_in_use, Before.requested_bytes_in_use);
  EXPECT_EQ(Freed.num_failures, Before.num_failures);
}

// A slot's base is the arena itself, every field of it, and takes nothing:
// lowered code indexes the slot with the arena's offsets.
TEST(RuntimeCAPI, SlotReturnsItsArena) {
  memplan_rt_allocator *G = memplan_rt_global();
  memplan_rt_memref_i8 Arena{};
  _mlir_ciface_memplan_rt_alloc(&Arena, 4096, 64);
  ASSERT_NE(Arena.allocated, nullptr);
  memplan_rt_stats Before;
  memplan_rt_get_stats(G, &Before);
  memplan_rt_memref_i8 Slot{};
  _mlir_ciface_memplan_rt_slot(&Slot, &Arena);
  EXPECT_EQ(Slot.allocated, Arena.allocated);
  EXPECT_EQ(Slot.aligned, Arena.aligned);
  EXPECT_EQ(Slot.offset, Arena.offset);
  EXPECT_EQ(Slot.sizes[0], Arena.sizes[0]);
  EXPECT_EQ(Slot.strides[0], Arena.strides[0]);
  memplan_rt_stats After;
  memplan_rt_get_stats(G, &After);
  EXPECT_EQ(After.num_allocs, Before.num_allocs);
  EXPECT_EQ(After.bytes_in_use, Before.bytes_in_use);
  _mlir_ciface_memplan_rt_free(&Arena);
}

} // namespace
