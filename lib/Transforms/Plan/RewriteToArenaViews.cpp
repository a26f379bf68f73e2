//===- RewriteToArenaViews.cpp - Planned allocs become arena views --------===//
//
// Every planned memref.alloc becomes `memref.view %arena[%offset][sizes]`;
// its deallocs go, and the arena is freed where the input freed its
// buffers.
//
//===----------------------------------------------------------------------===//

#include "TensorMemPlanInternal.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace memplan;

/// The memory space the input frees its buffers from: a buffer of a
/// non-default space may be freed through a memory_space_cast (the LLVM
/// lowering frees only the default space), and so is then the arena.
static Attribute freedMemorySpace(ArrayRef<const PlannableBuffer *> Buffers,
                                  Attribute ArenaSpace) {
  for (const PlannableBuffer *Buffer : Buffers)
    for (Operation *Dealloc : Buffer->Deallocs)
      if (auto Freed = dyn_cast<MemRefType>(Dealloc->getOperand(0).getType()))
        if (Freed.getMemorySpace() != ArenaSpace)
          return Freed.getMemorySpace();
  return ArenaSpace;
}

static void freeArena(OpBuilder &B, Location Loc, Value Arena,
                      Attribute Space) {
  auto Type = cast<MemRefType>(Arena.getType());
  if (Space != Type.getMemorySpace())
    Arena = memref::MemorySpaceCastOp::create(
        B, Loc,
        MemRefType::get(Type.getShape(), Type.getElementType(),
                        MemRefLayoutAttrInterface(), Space),
        Arena);
  memref::DeallocOp::create(B, Loc, Arena);
}

void memplan::rewriteToArenaViews(FunctionOpInterface Fn,
                                  const ArenaGroup &Group,
                                  const OffsetsAssignment &Offsets, Value Arena,
                                  bool FreesBuffers) {
  assert(Offsets.Offsets.size() == Group.Buffers.size() &&
         "one offset per planned buffer");
  Block &Entry = Fn.getFunctionBody().front();
  OpBuilder B(Fn.getContext());

  // The arena outlives the last task of every buffer in it: the top-level
  // op holding the latest last user (a loop, or the await that joins an
  // async.execute). Found before the rewrite replaces allocs.
  Region &Body = Fn.getFunctionBody();
  Operation *LastTop = nullptr;
  if (Body.hasOneBlock())
    for (const PlannableBuffer *Buffer : Group.Buffers)
      if (Operation *Top = Entry.findAncestorOpInBlock(*Buffer->LastUser))
        if (!LastTop || LastTop->isBeforeInBlock(Top))
          LastTop = Top;

  Attribute FreeSpace = freedMemorySpace(Group.Buffers, Group.MemorySpace);
  for (auto [Buffer, Offset] :
       llvm::zip_equal(Group.Buffers, Offsets.Offsets)) {
    memref::AllocOp Alloc = Buffer->Alloc;
    B.setInsertionPoint(Alloc);
    Value At = arith::ConstantIndexOp::create(B, Alloc.getLoc(),
                                              static_cast<int64_t>(Offset));
    // A dynamic alloc is planned at its bound and viewed at its size.
    Value View = memref::ViewOp::create(B, Alloc.getLoc(), Alloc.getType(),
                                        Arena, At, Alloc.getDynamicSizes());
    for (Operation *Dealloc : Buffer->Deallocs)
      Dealloc->erase();
    if (LastTop == Alloc.getOperation())
      LastTop = View.getDefiningOp();
    Alloc.replaceAllUsesWith(View);
    Alloc.erase();
  }
  if (!FreesBuffers)
    return;
  // The input frees its buffers, so the arena is freed as well: after its
  // last user in a one-block body, else at each exit.
  if (LastTop) {
    if (LastTop->hasTrait<OpTrait::IsTerminator>())
      B.setInsertionPoint(LastTop);
    else
      B.setInsertionPointAfter(LastTop);
    freeArena(B, Fn.getLoc(), Arena, FreeSpace);
    return;
  }
  for (Block &Blk : Body)
    if (!Blk.empty() && Blk.back().hasTrait<OpTrait::ReturnLike>()) {
      B.setInsertionPoint(&Blk.back());
      freeArena(B, Fn.getLoc(), Arena, FreeSpace);
    }
}
