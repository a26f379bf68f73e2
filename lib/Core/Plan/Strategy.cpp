//===- Strategy.cpp - The strategy registry and planMemory ----------------===//

#include "memplan/Core/Strategy.h"
#include "memplan/Core/InplacePairs.h"
#include "memplan/Core/LowerBound.h"
#include "memplan/Core/Validator.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Sequence.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/CheckedArithmetic.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <mutex>

#define DEBUG_TYPE "memplan-plan"

using namespace memplan;

namespace {
struct Registry {
  std::mutex Mutex;
  llvm::StringMap<StrategyInfo> Strategies;
};
} // namespace

static Registry &rawRegistry() {
  static Registry R;
  return R;
}

// True while registerBuiltinStrategies() runs on this thread, whose own
// registerStrategy() calls must not wait for themselves.
static thread_local bool LoadingBuiltins = false;

static Registry &getRegistry() {
  // Built-ins are registered on first use rather than by static initializers,
  // which a static link would silently drop.
  static std::once_flag Once;
  if (!LoadingBuiltins)
    std::call_once(Once, [] {
      LoadingBuiltins = true;
      registerBuiltinStrategies();
      LoadingBuiltins = false;
    });
  return rawRegistry();
}

void memplan::registerStrategy(llvm::StringRef Name, StrategyFn Fn,
                               llvm::StringRef Description, StrategyKind Kind) {
  Registry &R = getRegistry();
  std::lock_guard<std::mutex> Lock(R.Mutex);
  R.Strategies[Name] =
      StrategyInfo{Name.str(), Description.str(), Kind, std::move(Fn)};
}

const StrategyInfo *memplan::lookupStrategy(llvm::StringRef Name) {
  Registry &R = getRegistry();
  std::lock_guard<std::mutex> Lock(R.Mutex);
  auto It = R.Strategies.find(Name);
  return It == R.Strategies.end() ? nullptr : &It->second;
}

std::vector<std::string> memplan::strategyNames() {
  Registry &R = getRegistry();
  std::lock_guard<std::mutex> Lock(R.Mutex);
  std::vector<std::string> Names;
  for (auto &Entry : R.Strategies)
    Names.push_back(Entry.getKey().str());
  std::sort(Names.begin(), Names.end());
  return Names;
}

llvm::Error memplan::unknownStrategyError(llvm::StringRef Name) {
  std::string Msg = "unknown strategy '" + Name.str() + "'; valid strategies:";
  bool First = true;
  for (const std::string &N : strategyNames()) {
    Msg += (First ? " " : ", ") + N;
    First = false;
  }
  return llvm::createStringError(Msg);
}

llvm::Expected<Plan> memplan::planFromObjects(ObjectsAssignment Objects,
                                              uint64_t Alignment) {
  std::vector<uint64_t> ObjectOffsets(Objects.ObjectSizes.size());
  uint64_t End = 0;
  assert(llvm::isPowerOf2_64(std::max<uint64_t>(Alignment, 1)) &&
         "alignment is a power of two");
  for (size_t Obj = 0; Obj < Objects.ObjectSizes.size(); ++Obj) {
    auto Start = checkedAlignToUnsigned(End, Alignment);
    auto NewEnd =
        Start ? llvm::checkedAddUnsigned(*Start, Objects.ObjectSizes[Obj])
              : std::nullopt;
    if (!NewEnd)
      return llvm::createStringError(
          std::make_error_code(std::errc::value_too_large),
          "arena size overflows 64 bits");
    ObjectOffsets[Obj] = *Start;
    End = *NewEnd;
  }
  Plan P;
  P.Offsets.TotalSize = End;
  P.Offsets.Offsets.reserve(Objects.ObjectIds.size());
  for (size_t Obj : Objects.ObjectIds) {
    if (Obj >= ObjectOffsets.size())
      return llvm::createStringError("a tensor was left without an object");
    P.Offsets.Offsets.push_back(ObjectOffsets[Obj]);
  }
  P.Objects = std::move(Objects);
  return P;
}

Plan memplan::planFromOffsets(OffsetsAssignment Offsets) {
  Plan P;
  P.Offsets = std::move(Offsets);
  return P;
}

llvm::Error memplan::checkAlignment(uint64_t Alignment) {
  if (!llvm::isPowerOf2_64(Alignment))
    return llvm::createStringError("alignment " + std::to_string(Alignment) +
                                   " is not a positive power of two");
  if (Alignment > kMaxAlignment)
    return llvm::createStringError(
        "alignment " + std::to_string(Alignment) +
        " is above the largest alignment memplan plans with, " +
        std::to_string(kMaxAlignment) + " (1 GiB)");
  return llvm::Error::success();
}

llvm::Error memplan::checkAlignmentOption(int64_t Alignment) {
  if (Alignment <= 0)
    return llvm::createStringError("alignment " + std::to_string(Alignment) +
                                   " is not a positive power of two");
  return checkAlignment(static_cast<uint64_t>(Alignment));
}

llvm::Error memplan::checkRecords(llvm::ArrayRef<UsageRecord> Records,
                                  uint64_t Alignment,
                                  llvm::ArrayRef<InplacePair> Pairs,
                                  RecordNamer Name) {
  if (llvm::Error E = checkAlignment(Alignment))
    return E;
  for (size_t I = 0; I < Records.size(); ++I)
    if (Records[I].FirstTask > Records[I].LastTask)
      return llvm::createStringError(
          recordName(Name, I) + " ends (task " +
          std::to_string(Records[I].LastTask) + ") before it starts (task " +
          std::to_string(Records[I].FirstTask) + ")");
  auto Aligned = alignRecords(Records, Alignment, Name);
  if (!Aligned)
    return Aligned.takeError();
  std::optional<MergedRecords> Merged;
  if (!Pairs.empty()) {
    auto M = mergeInplacePairs(*Aligned, Pairs, Name);
    if (!M)
      return M.takeError();
    Merged = std::move(*M);
  }
  llvm::ArrayRef<UsageRecord> Live =
      Merged ? llvm::ArrayRef<UsageRecord>(Merged->Records)
             : llvm::ArrayRef<UsageRecord>(*Aligned);
  // A sweep in task order, ends before starts at one task: where the sum
  // overflows, no plan exists, whatever the strategy.
  std::vector<std::pair<uint64_t, size_t>> Starts;
  std::vector<std::pair<uint64_t, size_t>> Ends;
  for (auto [I, R] : llvm::enumerate(Live)) {
    Starts.push_back({R.FirstTask, I});
    Ends.push_back({R.LastTask, I});
  }
  llvm::sort(Starts);
  llvm::sort(Ends);
  uint64_t Sum = 0;
  size_t E = 0;
  for (auto [Task, I] : Starts) {
    for (; E < Ends.size() && Ends[E].first < Task; ++E)
      Sum -= Live[Ends[E].second].Size;
    std::optional<uint64_t> Next = llvm::checkedAddUnsigned(Sum, Live[I].Size);
    if (!Next)
      return llvm::createStringError(
          "the records live at task " + std::to_string(Task) +
          " need more than 2^64 - 1 bytes together (aligned to " +
          std::to_string(Alignment) + "): no plan can hold them");
    Sum = *Next;
  }
  return llvm::Error::success();
}

llvm::Expected<Plan> memplan::planMemory(llvm::StringRef Name,
                                         llvm::ArrayRef<UsageRecord> Records,
                                         const StrategyOptions &Options) {
  if (llvm::Error E =
          checkRecords(Records, Options.Alignment, Options.InplacePairs))
    return std::move(E);
  const StrategyInfo *Info = lookupStrategy(Name);
  if (!Info)
    return unknownStrategyError(Name);
  auto Aligned = alignRecords(Records, Options.Alignment);
  if (!Aligned)
    return Aligned.takeError();
  // Strategies plan each chain of in-place pairs as one record.
  std::optional<MergedRecords> Merged;
  std::optional<StrategyOptions> MergedOptions;
  if (!Options.InplacePairs.empty()) {
    if (!Options.ReuseGraph.empty())
      return llvm::createStringError(
          "a reuse graph and in-place pairs cannot be combined");
    auto M = mergeInplacePairs(*Aligned, Options.InplacePairs);
    if (!M)
      return M.takeError();
    Merged = std::move(*M);
    MergedOptions = Options;
    MergedOptions->InplacePairs.clear();
  }
  llvm::ArrayRef<UsageRecord> ToPlan =
      Merged ? llvm::ArrayRef<UsageRecord>(Merged->Records)
             : llvm::ArrayRef<UsageRecord>(*Aligned);
  const StrategyOptions &ToPlanOptions =
      MergedOptions ? *MergedOptions : Options;
  auto Invalid = [&](llvm::Error E) {
    return llvm::joinErrors(
        llvm::createStringError("strategy '" + Name.str() +
                                "' returned an invalid plan"),
        std::move(E));
  };
  LLVM_DEBUG(llvm::dbgs() << "strategy " << Name << ": " << Records.size()
                          << " records (" << ToPlan.size()
                          << " once in-place pairs are merged), alignment "
                          << Options.Alignment << "\n");
  auto Result = Info->Fn(ToPlan, ToPlanOptions);
  if (!Result)
    return Result.takeError();
  if (Result->Objects)
    if (llvm::Error E = validateObjects(ToPlan, *Result->Objects))
      return Invalid(std::move(E));
  if (llvm::Error E =
          validateOffsets(ToPlan, Result->Offsets, Options.Alignment))
    return Invalid(std::move(E));
  if (Result->Requested.empty())
    Result->Requested = Name.str();
  if (Result->Chosen.empty())
    Result->Chosen = Result->Requested;
  // One sweep gives the peak and the live-bytes bound; a strategy may have
  // proven more (exact refutes smaller arenas). With pairs, the peak names
  // the records as given (livePeakWithPairs).
  auto Peak = livePeakWithPairs(*Aligned, Options.InplacePairs);
  if (!Peak)
    return Peak.takeError();
  Result->Peak = std::move(*Peak);
  Result->CertifiedBound = std::max(Result->CertifiedBound, Result->Peak.Bytes);
  Result->Alignment = Options.Alignment;
  Result->InplacePairs = Options.InplacePairs;
  Result->Kind =
      Result->Objects ? StrategyKind::SharedObjects : StrategyKind::Offsets;
  if (Result->Objects)
    Result->ObjectsLowerBound = objectsLowerBound(ToPlan);
  if (!Result->Objects && Result->Offsets.TotalSize <= Result->CertifiedBound)
    Result->Optimal = true;
  if (Merged) {
    Result->Offsets = expandOffsets(*Merged, Result->Offsets);
    if (Result->Objects)
      Result->Objects = expandObjects(*Merged, *Result->Objects);
    // The plan of the records as given, pairs and all.
    if (llvm::Error E = validateOffsets(
            *Aligned, Result->Offsets, Options.Alignment, Options.InplacePairs))
      return Invalid(std::move(E));
  }
  // The validator accepted the plan: every buffer lies inside the arena.
  assert(Result->Offsets.Offsets.size() == Records.size() &&
         "one offset per record");
  assert(llvm::all_of(llvm::seq<size_t>(0, Records.size()),
                      [&](size_t I) {
                        return Result->Offsets.Offsets[I] % Options.Alignment ==
                                   0 &&
                               Result->Offsets.Offsets[I] +
                                       (*Aligned)[I].Size <=
                                   Result->Offsets.TotalSize;
                      }) &&
         "every buffer is aligned and inside the arena");
  LLVM_DEBUG(llvm::dbgs() << "strategy " << Name << " chose " << Result->Chosen
                          << ": arena " << Result->Offsets.TotalSize
                          << " bytes, bound " << Result->LowerBound
                          << (Result->Optimal ? " (optimal)" : "") << "\n");
  return Result;
}
