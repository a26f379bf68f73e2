//===- Validator.cpp - Checks that a plan is safe -------------------------===//

#include "memplan/Core/Validator.h"
#include "memplan/Core/InplacePairs.h"

#include "llvm/Support/CheckedArithmetic.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <memory>
#include <numeric>
#include <set>
#include <string>

using namespace memplan;

namespace {
/// Fixed-size nodes recycled through a free list, for one std::set.
class NodePool {
public:
  void *allocate(size_t Bytes) {
    if (Free) {
      void *P = Free;
      Free = *static_cast<void **>(Free);
      return P;
    }
    Bytes = std::max(Bytes, sizeof(void *));
    if (Chunks.empty() || Used + Bytes > kChunk) {
      Chunks.push_back(std::make_unique<char[]>(kChunk));
      Used = 0;
    }
    void *P = Chunks.back().get() + Used;
    Used += (Bytes + 15) & ~size_t(15);
    return P;
  }
  void deallocate(void *P) {
    *static_cast<void **>(P) = Free;
    Free = P;
  }

private:
  static constexpr size_t kChunk = 1 << 16;
  std::vector<std::unique_ptr<char[]>> Chunks;
  size_t Used = 0;
  void *Free = nullptr;
};

/// Serves single nodes from a NodePool (a set allocates nothing else).
template <typename T> struct PoolAllocator {
  using value_type = T;
  NodePool *Pool;
  explicit PoolAllocator(NodePool *Pool) : Pool(Pool) {}
  template <typename U>
  PoolAllocator(const PoolAllocator<U> &O) : Pool(O.Pool) {}
  T *allocate(size_t N) {
    if (N != 1)
      return std::allocator<T>().allocate(N);
    return static_cast<T *>(Pool->allocate(sizeof(T)));
  }
  void deallocate(T *P, size_t N) {
    if (N != 1)
      return std::allocator<T>().deallocate(P, N);
    Pool->deallocate(P);
  }
  template <typename U> bool operator==(const PoolAllocator<U> &O) const {
    return Pool == O.Pool;
  }
};
} // namespace

static std::string describe(size_t I, const UsageRecord &R, uint64_t Offset) {
  return "record " + std::to_string(I) + " (size " + std::to_string(R.Size) +
         ", tasks [" + std::to_string(R.FirstTask) + ", " +
         std::to_string(R.LastTask) + "], offset " + std::to_string(Offset) +
         ")";
}

/// Checks that conflicting Records never share a byte, after the per-record
/// checks.
static llvm::Error validateDisjoint(llvm::ArrayRef<UsageRecord> Records,
                                    const OffsetsAssignment &Plan);

llvm::Error memplan::validateOffsets(llvm::ArrayRef<UsageRecord> Records,
                                     const OffsetsAssignment &Plan,
                                     uint64_t Alignment,
                                     llvm::ArrayRef<InplacePair> Pairs) {
  if (Plan.Offsets.size() != Records.size())
    return llvm::createStringError(
        "plan has " + std::to_string(Plan.Offsets.size()) + " offsets for " +
        std::to_string(Records.size()) + " records");
  if (!llvm::isPowerOf2_64(Alignment))
    return llvm::createStringError("alignment " + std::to_string(Alignment) +
                                   " is not a power of two");
  for (size_t I = 0; I < Records.size(); ++I) {
    const UsageRecord &R = Records[I];
    uint64_t Off = Plan.Offsets[I];
    if (R.FirstTask > R.LastTask)
      return llvm::createStringError(describe(I, R, Off) +
                                     " ends before it starts");
    if (Off % Alignment)
      return llvm::createStringError(describe(I, R, Off) +
                                     " is not aligned to " +
                                     std::to_string(Alignment));
    auto End = llvm::checkedAddUnsigned(Off, R.Size);
    if (!End || *End > Plan.TotalSize)
      return llvm::createStringError(describe(I, R, Off) +
                                     " does not fit in the arena of " +
                                     std::to_string(Plan.TotalSize) + " bytes");
  }
  if (Pairs.empty())
    return validateDisjoint(Records, Plan);
  // A pair's bytes are one buffer over the union of its two ranges.
  auto Merged = mergeInplacePairs(Records, Pairs);
  if (!Merged)
    return Merged.takeError();
  for (const InplacePair &P : Pairs)
    if (Plan.Offsets[P.Operand] != Plan.Offsets[P.Result])
      return llvm::createStringError(
          "in-place pair (operand " + std::to_string(P.Operand) + ", result " +
          std::to_string(P.Result) + ") has two offsets: " +
          describe(P.Operand, Records[P.Operand], Plan.Offsets[P.Operand]) +
          ", " + describe(P.Result, Records[P.Result], Plan.Offsets[P.Result]));
  OffsetsAssignment MergedPlan;
  MergedPlan.TotalSize = Plan.TotalSize;
  MergedPlan.Offsets.resize(Merged->Records.size());
  for (size_t I = 0; I < Records.size(); ++I)
    MergedPlan.Offsets[Merged->MergedOf[I]] = Plan.Offsets[I];
  return validateDisjoint(Merged->Records, MergedPlan);
}

static llvm::Error validateDisjoint(llvm::ArrayRef<UsageRecord> Records,
                                    const OffsetsAssignment &Plan) {
  // Sweep by start task. The active records are pairwise disjoint in bytes,
  // so a newcomer only has to be checked against its neighbours by offset.
  // Starts and ends are sorted once; the active set's nodes come from a
  // free list (a malloc per node costs more than the whole tree walk).
  size_t N = Records.size();
  std::vector<std::pair<uint64_t, size_t>> Starts, Ends;
  Starts.reserve(N);
  Ends.reserve(N);
  for (size_t I = 0; I < N; ++I)
    if (Records[I].Size) {
      Starts.push_back({Records[I].FirstTask, I});
      Ends.push_back({Records[I].LastTask, I});
    }
  std::sort(Starts.begin(), Starts.end());
  std::sort(Ends.begin(), Ends.end());
  NodePool Pool;
  using ActiveSet = std::set<std::pair<uint64_t, size_t>,
                             std::less<std::pair<uint64_t, size_t>>,
                             PoolAllocator<std::pair<uint64_t, size_t>>>;
  ActiveSet ByOffset{PoolAllocator<std::pair<uint64_t, size_t>>(&Pool)};
  std::vector<ActiveSet::iterator> Where(N);
  size_t E = 0;
  for (auto [First, I] : Starts) {
    const UsageRecord &R = Records[I];
    while (E < Ends.size() && Ends[E].first < First)
      ByOffset.erase(Where[Ends[E++].second]);
    uint64_t Off = Plan.Offsets[I];
    auto It = ByOffset.lower_bound({Off, 0});
    if (It != ByOffset.end() && It->first < Off + R.Size)
      return llvm::createStringError(
          describe(I, R, Off) + " overlaps " +
          describe(It->second, Records[It->second], It->first));
    if (It != ByOffset.begin()) {
      auto Prev = std::prev(It);
      if (Prev->first + Records[Prev->second].Size > Off)
        return llvm::createStringError(
            describe(I, R, Off) + " overlaps " +
            describe(Prev->second, Records[Prev->second], Prev->first));
    }
    Where[I] = ByOffset.emplace_hint(It, Off, I);
  }
  return llvm::Error::success();
}

llvm::Error memplan::validateObjects(llvm::ArrayRef<UsageRecord> Records,
                                     const ObjectsAssignment &Plan,
                                     llvm::ArrayRef<InplacePair> Pairs) {
  if (Plan.ObjectIds.size() != Records.size())
    return llvm::createStringError(
        "plan has " + std::to_string(Plan.ObjectIds.size()) +
        " object ids for " + std::to_string(Records.size()) + " records");
  if (!Pairs.empty()) {
    // A pair is one tensor over the union of its ranges, in one object.
    auto Merged = mergeInplacePairs(Records, Pairs);
    if (!Merged)
      return Merged.takeError();
    for (const InplacePair &P : Pairs)
      if (Plan.ObjectIds[P.Operand] != Plan.ObjectIds[P.Result])
        return llvm::createStringError(
            "in-place pair (operand " + std::to_string(P.Operand) +
            ", result " + std::to_string(P.Result) + ") is in two objects");
    for (size_t I = 0; I < Records.size(); ++I)
      if (Plan.ObjectIds[I] >= Plan.ObjectSizes.size() ||
          Plan.ObjectSizes[Plan.ObjectIds[I]] < Records[I].Size)
        return llvm::createStringError("record " + std::to_string(I) +
                                       " has no object of its size");
    ObjectsAssignment MergedPlan;
    MergedPlan.ObjectSizes = Plan.ObjectSizes;
    MergedPlan.ObjectIds.resize(Merged->Records.size());
    for (size_t I = 0; I < Records.size(); ++I)
      MergedPlan.ObjectIds[Merged->MergedOf[I]] = Plan.ObjectIds[I];
    return validateObjects(Merged->Records, MergedPlan);
  }
  std::vector<std::vector<size_t>> Members(Plan.ObjectSizes.size());
  for (size_t I = 0; I < Records.size(); ++I) {
    size_t Obj = Plan.ObjectIds[I];
    if (Obj >= Plan.ObjectSizes.size())
      return llvm::createStringError("record " + std::to_string(I) +
                                     " has no valid object");
    if (Plan.ObjectSizes[Obj] < Records[I].Size)
      return llvm::createStringError(
          "record " + std::to_string(I) + " of size " +
          std::to_string(Records[I].Size) + " is in object " +
          std::to_string(Obj) + " of only " +
          std::to_string(Plan.ObjectSizes[Obj]) + " bytes");
    Members[Obj].push_back(I);
  }
  // Members of one object must be disjoint in time: sorted by start, each
  // must begin after the previous one ended.
  for (size_t Obj = 0; Obj < Members.size(); ++Obj) {
    auto &M = Members[Obj];
    std::sort(M.begin(), M.end(), [&](size_t A, size_t B) {
      return Records[A].FirstTask < Records[B].FirstTask;
    });
    for (size_t K = 1; K < M.size(); ++K)
      if (Records[M[K]].FirstTask <= Records[M[K - 1]].LastTask)
        return llvm::createStringError("records " + std::to_string(M[K - 1]) +
                                       " and " + std::to_string(M[K]) +
                                       " share object " + std::to_string(Obj) +
                                       " but their lifetimes overlap");
  }
  return llvm::Error::success();
}
