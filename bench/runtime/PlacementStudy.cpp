//===- PlacementStudy.cpp - Online placement policies on the DNN trace ----===//
//
// How compact can an online allocator be on the DNN-shaped trace without
// giving pages back? Each policy places the trace's blocks (rounded to 256
// bytes, as the runtime's chunks) as they come, in one address space that
// grows at its end only when no free chunk fits (the wilderness kept for
// last), merging neighbours on free, and prints the address high-water over
// the peak of bytes live: the frag a heap that never purges would show. A
// replay ends with every block freed, back into the wilderness, so the next
// replay places as the first did.
// The first policy is the runtime's best fit (bins sorted by size, then
// address) with the tail kept for last; the runtime takes its region's tail
// chunk like any other, which, with caches and plans off, gave 1.146 on a
// fresh heap and 1.399 from the second replay on. No allocator is timed
// here: run.sh prints the table after its goals.
//
//===----------------------------------------------------------------------===//

#include "DnnShapedTensors.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <map>
#include <random>
#include <set>
#include <vector>

namespace {

enum class Policy {
  BestFitLow,    // smallest chunk that fits, lowest address among equals
  BestFitHigh,   // smallest chunk that fits, highest address among equals
  BestFitTop,    // smallest chunk that fits, the block at its top end
  FirstFit,      // lowest address that fits
  LifetimeAware, // knows each block's lifetime: long ones first fit, low
  SizeEnds,      // small blocks at a chunk's top end, large at its bottom
};

struct PolicyInfo {
  Policy P;
  const char *Name;
};

constexpr PolicyInfo Policies[] = {
    {Policy::BestFitLow, "best fit, lowest address (memplan's bins)"},
    {Policy::BestFitHigh, "best fit, highest address"},
    {Policy::BestFitTop, "best fit, block at the chunk's top"},
    {Policy::FirstFit, "first fit by address"},
    {Policy::LifetimeAware, "lifetimes known (over 100 steps: first fit)"},
    {Policy::SizeEnds, "small (< 64 KiB) at the top, large at the bottom"},
};

class Space {
public:
  explicit Space(Policy P) : P(P) {}

  uint64_t alloc(uint64_t N, uint64_t Life) {
    switch (P) {
    case Policy::FirstFit:
      return firstFit(N);
    case Policy::LifetimeAware:
      return Life > 100 ? firstFit(N) : bestFit(N, false, false);
    case Policy::BestFitLow:
      return bestFit(N, false, false);
    case Policy::BestFitHigh:
      return bestFit(N, true, false);
    case Policy::BestFitTop:
      return bestFit(N, false, true);
    case Policy::SizeEnds:
      return bestFit(N, false, N < (64 << 10));
    }
    return grow(N);
  }

  void free(uint64_t A, uint64_t S) {
    auto It = Free.lower_bound(A);
    if (It != Free.end() && It->first == A + S) {
      S += It->second;
      BySize.erase({It->second, It->first});
      It = Free.erase(It);
    }
    if (It != Free.begin()) {
      auto Prev = std::prev(It);
      if (Prev->first + Prev->second == A) {
        A = Prev->first;
        S += Prev->second;
        BySize.erase({Prev->second, Prev->first});
        Free.erase(Prev);
      }
    }
    if (A + S == Top) { // back into the wilderness
      Top = A;
      return;
    }
    Free[A] = S;
    BySize.insert({S, A});
  }

  uint64_t highWater() const { return HighWater; }

private:
  uint64_t grow(uint64_t N) {
    uint64_t A = Top;
    Top += N;
    HighWater = std::max(HighWater, Top);
    return A;
  }

  // Takes N bytes of the free chunk [A, A + S): its bottom, or its top.
  uint64_t take(uint64_t A, uint64_t S, uint64_t N, bool AtTop) {
    Free.erase(A);
    BySize.erase({S, A});
    if (S > N) {
      uint64_t Rest = AtTop ? A : A + N;
      Free[Rest] = S - N;
      BySize.insert({S - N, Rest});
    }
    return AtTop ? A + S - N : A;
  }

  uint64_t firstFit(uint64_t N) {
    for (const auto &[A, S] : Free)
      if (S >= N)
        return take(A, S, N, false);
    return grow(N);
  }

  uint64_t bestFit(uint64_t N, bool HighestAmongEquals, bool AtTop) {
    auto It = BySize.lower_bound({N, 0});
    if (It == BySize.end())
      return grow(N);
    uint64_t S = It->first, A = It->second;
    if (HighestAmongEquals)
      A = std::prev(BySize.lower_bound({S + 1, 0}))->second;
    return take(A, S, N, AtTop);
  }

  Policy P;
  std::map<uint64_t, uint64_t> Free;              // address -> size
  std::set<std::pair<uint64_t, uint64_t>> BySize; // (size, address)
  uint64_t Top = 0, HighWater = 0;
};

struct Event {
  uint64_t Time;
  bool IsAlloc;
  uint32_t Block;
};

/// Places \p Events (blocks of \p Ts, the second copy's numbered after the
/// first's) with each policy; prints high-water / peak live.
void study(const char *Title, const std::vector<Event> &Events,
           const std::vector<memplan::bench::DnnTensor> &Ts) {
  std::printf("%s\n", Title);
  for (const PolicyInfo &Info : Policies) {
    Space S(Info.P);
    std::vector<uint64_t> Addr(Events.size() / 2);
    uint64_t Live = 0, Peak = 0;
    std::printf("  %-52s", Info.Name);
    for (const Event &E : Events) {
      const memplan::bench::DnnTensor &T = Ts[E.Block % Ts.size()];
      uint64_t N = (T.Bytes + 255) / 256 * 256;
      if (E.IsAlloc) {
        Addr[E.Block] = S.alloc(N, T.Last - T.First);
        Live += N;
        Peak = std::max(Peak, Live);
      } else {
        S.free(Addr[E.Block], N);
        Live -= N;
      }
    }
    std::printf(" %.3f\n", double(S.highWater()) / double(Peak));
  }
}

} // namespace

int main() {
  std::vector<memplan::bench::DnnTensor> Ts =
      memplan::bench::dnnShapedTensors(100000, 1);
  // Half-open lifetimes; at one step, frees before allocs (as run.sh's trace).
  std::vector<Event> One;
  for (uint32_t I = 0; I < Ts.size(); ++I) {
    One.push_back({Ts[I].First, true, I});
    One.push_back({Ts[I].Last + 1, false, I});
  }
  std::stable_sort(One.begin(), One.end(), [](const Event &A, const Event &B) {
    return A.Time != B.Time ? A.Time < B.Time : (!A.IsAlloc && B.IsAlloc);
  });
  study("online placement on the DNN trace (100k blocks), no purging: "
        "address high-water / peak live",
        One, Ts);
  // Two threads sharing one heap, each replaying its own copy at the same
  // speed: the copies' events interleaved at random. Per-thread heaps can
  // only do worse without moving pages between them: each reserves for its
  // own copy's peak, and the two peaks do not meet.
  std::vector<Event> Two;
  std::mt19937_64 Rng(7);
  size_t I = 0, J = 0;
  while (I < One.size() || J < One.size()) {
    bool First = J == One.size() || (I < One.size() && Rng() % 2);
    const Event &E = First ? One[I++] : One[J++];
    Two.push_back({E.Time, E.IsAlloc,
                   E.Block + (First ? 0 : static_cast<uint32_t>(Ts.size()))});
  }
  study("the same, two copies interleaved (2 threads sharing one heap)", Two,
        Ts);
  return 0;
}
