//===- Strategy.h - Strategies, the plan they return, the registry -*- C++ -*-//
//
// A strategy is a function from usage records to a plan, registered by name.
// Built-in strategies and a user's own are peers: both go through
// registerStrategy() and are found by lookupStrategy()/planMemory().
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_CORE_STRATEGY_H
#define MEMPLAN_CORE_STRATEGY_H

#include "memplan/Core/LowerBound.h"
#include "memplan/Core/Types.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace memplan {

struct StrategyOptions {
  /// Every offset is a multiple of this (a power of two). Strategies receive
  /// records whose sizes are already rounded up to it.
  uint64_t Alignment = 1;
  /// Time a search-based strategy may spend, in milliseconds.
  double BudgetMs = 1000;
  /// Arena size a search-based strategy aims for (stops when reached).
  std::optional<uint64_t> Capacity;
  /// Optional reallocation graph for greedy-in-order: ReuseGraph[I] lists the
  /// tensors whose object tensor I may reuse. Empty means "any".
  std::vector<std::vector<size_t>> ReuseGraph;
  /// Records that share bytes by design (InplacePairs.h). planMemory() plans
  /// each chain of pairs as one record, so a strategy never sees them.
  std::vector<InplacePair> InplacePairs;
};

enum class StrategyKind { Offsets, SharedObjects, Meta };

/// What a strategy returns. Every plan has offsets; shared-object strategies
/// also say which object each tensor lives in.
struct Plan {
  /// The strategy asked for.
  std::string Requested;
  /// The strategy that made the plan: Requested itself, or the one a meta
  /// strategy (auto) picked ("best-fit-size", "exact", ...).
  std::string Chosen;
  OffsetsAssignment Offsets;
  std::optional<ObjectsAssignment> Objects;
  /// Proven optimal for its kind (equal to its lower bound, or an exhausted
  /// exact search).
  bool Optimal = false;
  /// The best lower bound known on any offsets plan of these (aligned)
  /// records: at least the live-bytes bound, more when the strategy proved
  /// more (exact refutes smaller arenas). A strategy may fill it in (it then
  /// vouches for it); planMemory() raises it to the live-bytes bound.
  uint64_t CertifiedBound = 0;

  // Filled in once by planMemory(), for every reader of the plan (the pass,
  // memplan-solve, reports, pictures):
  /// The alignment of the arena and of every offset it was made under.
  uint64_t Alignment = 1;
  /// The records that share bytes in place (StrategyOptions::InplacePairs).
  std::vector<InplacePair> InplacePairs;
  /// Offsets or SharedObjects: the kind of the plan a meta strategy chose.
  StrategyKind Kind = StrategyKind::Offsets;
  /// Where the live aligned bytes peak; Peak.Bytes is the live-bytes bound.
  LivePeak Peak;
  /// Shared-object plans: the sum of positional maximums, the bound no plan
  /// of that kind goes below.
  std::optional<uint64_t> ObjectsLowerBound;
};

/// A strategy that does not take a set at all (min-cost-flow above its size
/// limit) returns an error of code std::errc::not_supported, and one whose
/// plan would not fit in 64 bits (shared objects, each aligned, can pass
/// 2^64 where offsets do not) std::errc::value_too_large: a tool running
/// several strategies skips those, where any other error is a failure.
using StrategyFn = std::function<llvm::Expected<Plan>(
    llvm::ArrayRef<UsageRecord>, const StrategyOptions &)>;

struct StrategyInfo {
  std::string Name;
  std::string Description;
  StrategyKind Kind = StrategyKind::Offsets;
  StrategyFn Fn;
};

/// Registers (or replaces) a strategy under Name.
void registerStrategy(llvm::StringRef Name, StrategyFn Fn,
                      llvm::StringRef Description = "",
                      StrategyKind Kind = StrategyKind::Offsets);

/// Returns the strategy named Name, or null.
const StrategyInfo *lookupStrategy(llvm::StringRef Name);

/// All registered names, sorted.
std::vector<std::string> strategyNames();

/// The largest alignment memplan plans with: 1 GiB, the largest page size.
/// Above it every buffer would waste gigabytes and arenas grow into the
/// terabytes; it is an input error, not a plan.
constexpr uint64_t kMaxAlignment = uint64_t(1) << 30;

/// Why Alignment cannot plan: zero, not a power of two, or above
/// kMaxAlignment. The one message for a bad alignment, wherever it is given
/// (the passes, the pipeline, the C++ API, memplan-solve): "alignment N ...".
llvm::Error checkAlignment(uint64_t Alignment);

/// The same for an option that may be negative (the passes' alignment is an
/// int64_t): a negative value is named as given, not as the unsigned number
/// it would wrap to.
llvm::Error checkAlignmentOption(int64_t Alignment);

/// Why Records (with their in-place Pairs) cannot be planned at Alignment,
/// whatever the strategy: a bad alignment, a record ending before it starts,
/// a size that overflows 64 bits once aligned, bad pairs, or records live
/// at one task whose aligned sizes sum past 2^64 - 1 (no plan can hold
/// them). The one place that decides what is the input's fault;
/// planMemory() calls it first.
/// \p Name names records in the errors (see RecordNamer).
llvm::Error checkRecords(llvm::ArrayRef<UsageRecord> Records,
                         uint64_t Alignment,
                         llvm::ArrayRef<InplacePair> Pairs = {},
                         RecordNamer Name = {});

/// "Unknown strategy 'x'; valid strategies: a, b, c".
llvm::Error unknownStrategyError(llvm::StringRef Name);

/// Lays objects end to end (each start aligned) and turns a shared-object
/// assignment into a plan with offsets.
llvm::Expected<Plan> planFromObjects(ObjectsAssignment Objects,
                                     uint64_t Alignment);

/// Wraps an offsets assignment into a plan.
Plan planFromOffsets(OffsetsAssignment Offsets);

/// Runs the strategy named Name: rounds sizes up to Options.Alignment, merges
/// the chains of Options.InplacePairs into one record each, calls it, gives
/// each member of a chain the chain's offset, checks the result with the
/// validator and fills in Plan::Strategy, Chosen, Kind, Peak and the bounds
/// (those of the merged records: a chain counts once).
/// A strategy that returns an invalid plan is an error, never a result.
llvm::Expected<Plan> planMemory(llvm::StringRef Name,
                                llvm::ArrayRef<UsageRecord> Records,
                                const StrategyOptions &Options = {});

/// Registers memplan's own strategies; the registry calls it once, on first
/// use. Defined in BuiltinStrategies.cpp, the one place that lists them.
void registerBuiltinStrategies();

} // namespace memplan

#endif // MEMPLAN_CORE_STRATEGY_H
