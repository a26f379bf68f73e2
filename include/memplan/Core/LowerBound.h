//===- LowerBound.h - Lower bounds on the arena size ------------*- C++ -*-===//

#ifndef MEMPLAN_CORE_LOWERBOUND_H
#define MEMPLAN_CORE_LOWERBOUND_H

#include "memplan/Core/Types.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/CheckedArithmetic.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MathExtras.h"

#include <optional>
#include <string>
#include <vector>

namespace memplan {

/// Max over tasks of the bytes live at that task: no offset plan is smaller.
/// Sizes are taken as they are (round them first to bound aligned plans).
uint64_t liveBytesLowerBound(llvm::ArrayRef<UsageRecord> Records);

/// Where the live bytes peak.
struct LivePeak {
  /// The first task where the live bytes reach their maximum.
  uint64_t Task = 0;
  /// Indices of the records live at Task, in record order.
  std::vector<size_t> Live;
  /// Their summed sizes (saturating): liveBytesLowerBound(Records).
  uint64_t Bytes = 0;
};

/// The peak of Records (aligned ones give the bound of aligned plans). No
/// records: task 0, nothing live.
LivePeak livePeak(llvm::ArrayRef<UsageRecord> Records);

/// Sum of the positional maximums (TFLite GPU CalculatePositionalMaximums):
/// no shared-object plan needs fewer bytes, since the K-th largest tensor of
/// every task needs an object of its own. Saturates at UINT64_MAX.
uint64_t objectsLowerBound(llvm::ArrayRef<UsageRecord> Records);

/// Value rounded up to a multiple of Alignment (0 and 1 leave it as it is),
/// or nothing when that overflows 64 bits: llvm::alignTo alone would wrap.
inline std::optional<uint64_t> checkedAlignToUnsigned(uint64_t Value,
                                                      uint64_t Alignment) {
  if (Alignment <= 1)
    return Value;
  if (!llvm::checkedAddUnsigned(Value, Alignment - 1))
    return std::nullopt;
  return llvm::alignTo(Value, Alignment);
}

/// Names record I in an error: a tool that read a file gives the id and
/// line the user wrote (0-based positions meant nothing there); null names
/// it "record I".
using RecordNamer = llvm::function_ref<std::string(size_t)>;
inline std::string recordName(RecordNamer Name, size_t I) {
  return Name ? Name(I) : "record " + std::to_string(I);
}

/// Sizes rounded up to Alignment; an error when a size overflows 64 bits.
llvm::Expected<std::vector<UsageRecord>>
alignRecords(llvm::ArrayRef<UsageRecord> Records, uint64_t Alignment,
             RecordNamer Name = {});

} // namespace memplan

#endif // MEMPLAN_CORE_LOWERBOUND_H
