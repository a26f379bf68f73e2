//===- UnplannedReason.cpp - The message of each reason -------------------===//

#include "memplan/Analysis/UnplannedReason.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/ErrorHandling.h"

using namespace memplan;

/// The one message table; {0} is the reason's detail.
static const char *format(UnplannedKind Kind) {
  switch (Kind) {
  case UnplannedKind::NotPlainAlloc:
    return "allocated by '{0}', which the rewrite does not turn into a view "
           "of the arena";
  case UnplannedKind::DynamicShape:
    return "dynamic shape";
  case UnplannedKind::BoundAboveCap:
    return "dynamic shape (its bound, {0})";
  case UnplannedKind::NoLayout:
    return "{0}";
  case UnplannedKind::InParallelLoop:
    return "inside a parallel loop ('{0}')";
  case UnplannedKind::InAsyncRegion:
    return "inside an asynchronous region ('{0}')";
  case UnplannedKind::InUnknownRegion:
    return "inside a region of unknown semantics ('{0}')";
  case UnplannedKind::CarriedByLoop:
    return "carried across iterations of its loop";
  case UnplannedKind::CarriedByCFGLoop:
    return "carried across iterations of a control-flow loop";
  case UnplannedKind::Escapes:
    return "{0}";
  case UnplannedKind::ForwardedThroughControlFlow:
    return "forwarded through control flow, where the deallocation that runs "
           "after planning would free the arena";
  case UnplannedKind::UsedInAnotherBlock:
    return "used in another block of a CFG, where the deallocation that runs "
           "after planning would free the arena";
  case UnplannedKind::OutlivesIteration:
    return "outlives the iteration of its loop";
  }
  llvm_unreachable("every kind has a message");
}

std::string UnplannedReason::message() const {
  llvm::StringRef Format = format(Kind);
  size_t At = Format.find("{0}");
  if (At == llvm::StringRef::npos)
    return Format.str();
  return (Format.take_front(At) + llvm::Twine(Detail) +
          Format.drop_front(At + 3))
      .str();
}
