//===- ReadOnlyData.cpp - The globals a function reads --------------------===//

#include "memplan/Analysis/ReadOnlyData.h"
#include "memplan/Analysis/ElementLayout.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;

memplan::WeightsReport memplan::collectReadOnlyData(FunctionOpInterface Fn) {
  WeightsReport Data;
  llvm::StringSet<> Seen;
  Fn->walk([&](memref::GetGlobalOp Get) {
    if (!Seen.insert(Get.getName()).second)
      return;
    auto Global = SymbolTable::lookupNearestSymbolFrom<memref::GlobalOp>(
        Get, Get.getNameAttr());
    if (!Global)
      return;
    GlobalBufferReport B;
    B.Name = Get.getName().str();
    if (llvm::Expected<ElementLayout> L =
            getBufferLayout(Global.getType(), Global))
      B.Bytes = L->Size;
    else
      llvm::consumeError(L.takeError());
    if (Global->hasAttr(kHoistedGlobalAttr))
      B.Kind = "hoisted";
    else
      B.Kind = Global.getConstant() ? "constant" : "mutable";
    Data.Bytes = llvm::SaturatingAdd(Data.Bytes, B.Bytes);
    Data.Buffers.push_back(std::move(B));
  });
  return Data;
}
