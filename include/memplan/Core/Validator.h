//===- Validator.h - Checks that a plan is safe ----------------*- C++ -*-===//

#ifndef MEMPLAN_CORE_VALIDATOR_H
#define MEMPLAN_CORE_VALIDATOR_H

#include "memplan/Core/Types.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

namespace memplan {

/// Succeeds when conflicting records never share a byte, every offset is a
/// multiple of Alignment and every buffer lies inside [0, TotalSize).
/// The error names the first offending records. O(n log n). The records of
/// a declared in-place pair may overlap: they must meet at exactly one task
/// and have equal offsets (checked on the merged records, InplacePairs.h).
llvm::Error validateOffsets(llvm::ArrayRef<UsageRecord> Records,
                            const OffsetsAssignment &Plan,
                            uint64_t Alignment = 1,
                            llvm::ArrayRef<InplacePair> Pairs = {});

/// Succeeds when every tensor has an object at least its size and tensors
/// sharing an object never conflict, except declared in-place pairs, which
/// must share their object.
llvm::Error validateObjects(llvm::ArrayRef<UsageRecord> Records,
                            const ObjectsAssignment &Plan,
                            llvm::ArrayRef<InplacePair> Pairs = {});

} // namespace memplan

#endif // MEMPLAN_CORE_VALIDATOR_H
