//===- RuntimePlanFuzzer.cpp - memplan_rt_plan_offsets against a checker --===//
//
// Input bytes become a run-time plan table (up to 64 buffers: sizes of up to
// 2^k bytes with k drawn from the input, so sums past INT64_MAX are
// reachable; now and then a negative size or a first task after its last)
// and an alignment, as lowered code builds them. A plan it returns must keep
// buffers live at once apart, aligned and inside the arena, and the same
// table must get the same plan from the cache; -1 (no plan) is a finding
// unless the table is bad or the buffers' aligned sizes and the alignment
// together pass INT64_MAX (the runtime's promise; that sum bounds any
// greedy placement's arena).
//
//===----------------------------------------------------------------------===//

#include "memplan/Runtime/memplan_runtime.h"

#include "FuzzReader.h"

#include <cstdio>
#include <cstdlib>
#include <vector>

using memplan::fuzz::Reader;

namespace {

[[noreturn]] void finding(const char *What, size_t I, size_t J) {
  std::fprintf(stderr, "memplan_rt_plan_offsets: %s (buffers %zu, %zu)\n", What,
               I, J);
  std::abort();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  Reader In(Data, Size);
  uint64_t Mode = In.take(1);
  int64_t Align = int64_t(1) << (Mode % 13); // 1 to 4096
  bool Huge = Mode & 0x80;
  std::vector<int64_t> Sizes, Firsts, Lasts;
  while (!In.empty() && Sizes.size() < 64) {
    uint64_t Kind = In.take(1), First = In.take(1), Len = In.take(1) % 16;
    uint64_t Shift = In.take(1) % (Huge ? 63 : 24);
    int64_t Bytes = int64_t(In.take(8) & ((uint64_t(1) << Shift) - 1));
    if (Kind == 0xff)
      Bytes = -1 - Bytes; // a product that wrapped
    Sizes.push_back(Bytes);
    Firsts.push_back(int64_t(First));
    Lasts.push_back(Kind == 0xfe ? int64_t(First) - 1 : int64_t(First + Len));
  }
  size_t N = Sizes.size();
  std::vector<int64_t> Table{int64_t(N), int64_t(Mode)};
  Table.insert(Table.end(), Sizes.begin(), Sizes.end());
  Table.insert(Table.end(), Firsts.begin(), Firsts.end());
  Table.insert(Table.end(), Lasts.begin(), Lasts.end());
  std::vector<int64_t> Offsets(N + 1, 7);
  int64_t Total = memplan_rt_plan_offsets(Table.data(), Align, Offsets.data());

  bool Bad = false;
  __int128 Sum = Align; // the aligned sizes together, and the alignment
  for (size_t I = 0; I < N; ++I) {
    Bad |= Sizes[I] < 0 || Firsts[I] > Lasts[I];
    Sum += (__int128(Sizes[I]) + Align - 1) / Align * Align;
  }
  if (N == 0) {
    if (Total != 0)
      finding("an empty table planned bytes", 0, 0);
    return 0;
  }
  if (Total < 0) {
    if (Total != -1)
      finding("a negative total other than -1", 0, 0);
    if (!Bad && Sum <= INT64_MAX)
      finding("no plan for sizes that fit in INT64_MAX", 0, 0);
    for (size_t I = 0; I < N; ++I)
      if (Offsets[I] != 0)
        finding("no plan, yet an offset was written", I, I);
    return 0;
  }
  if (Bad)
    finding("a plan for a bad table", 0, 0);
  if (Total > Sum - Align)
    finding("an arena past the sizes' sum", 0, 0);
  if (Offsets[N] != 7)
    finding("wrote past the offsets", N, N);
  for (size_t I = 0; I < N; ++I) {
    if (Offsets[I] < 0 || Offsets[I] % Align)
      finding("an offset negative or not aligned", I, I);
    if (Offsets[I] > Total - Sizes[I])
      finding("a buffer past the arena", I, I);
    if (Total % Align)
      finding("an arena not a multiple of the alignment", I, I);
    for (size_t J = I + 1; J < N; ++J)
      if (Firsts[I] <= Lasts[J] && Firsts[J] <= Lasts[I] &&
          Offsets[I] < Offsets[J] + Sizes[J] &&
          Offsets[J] < Offsets[I] + Sizes[I])
        finding("buffers live at once share bytes", I, J);
  }
  // A second call is a cache hit, and must give the same plan.
  std::vector<int64_t> Again(N + 1, 7);
  if (memplan_rt_plan_offsets(Table.data(), Align, Again.data()) != Total ||
      Again != Offsets)
    finding("the cached plan differs", 0, 0);
  return 0;
}
