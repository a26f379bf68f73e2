//===- FoldConstantElements.cpp - One element op, bit-exact ---------------===//
//
// A folded constant must hold exactly what the program would compute at run
// time. IEEE-754 makes one float operation or conversion exact under the
// default rounding (to nearest, ties to even), which APFloat and the CPU
// share; what is not pinned down is left unfolded: NaNs (their payload is
// the target's choice), a float out of an integer's range (poison), fast-math
// flags (which allow contraction with neighbours) and explicit rounding
// modes.
//
//===----------------------------------------------------------------------===//

#include "FoldConstantBytes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/APSInt.h"
#include "llvm/ADT/TypeSwitch.h"

#include <cstring>

using namespace mlir;
using namespace memplan;
using llvm::APFloat;
using llvm::APInt;

std::optional<unsigned> constant_bytes::elementBytes(Type T) {
  if (isa<Float16Type, BFloat16Type, Float32Type, Float64Type>(T))
    return T.getIntOrFloatBitWidth() / 8;
  if (auto I = dyn_cast<IntegerType>(T))
    if (I.isSignless() && llvm::is_contained({8u, 16u, 32u, 64u}, I.getWidth()))
      return I.getWidth() / 8;
  return std::nullopt;
}

bool constant_bytes::isExactElementOp(Operation *Op) {
  if (Op->getNumResults() != 1 || Op->getNumRegions() != 0)
    return false;
  if (auto F = dyn_cast<arith::ArithFastMathInterface>(Op))
    if (arith::FastMathFlagsAttr A = F.getFastMathFlagsAttr();
        A && A.getValue() != arith::FastMathFlags::none)
      return false;
  if (Op->hasAttr("roundingmode"))
    return false;
  for (Type T : Op->getOperandTypes())
    if (!elementBytes(getElementTypeOrSelf(T)))
      return false;
  if (!elementBytes(getElementTypeOrSelf(Op->getResult(0).getType())))
    return false;
  Type R = getElementTypeOrSelf(Op->getResult(0).getType());
  if (isa<arith::AddFOp, arith::SubFOp, arith::MulFOp, arith::DivFOp>(Op))
    return isa<Float32Type, Float64Type>(R);
  return isa<arith::ExtFOp, arith::TruncFOp, arith::SIToFPOp, arith::UIToFPOp,
             arith::FPToSIOp, arith::FPToUIOp, arith::ExtSIOp, arith::ExtUIOp,
             arith::TruncIOp, arith::BitcastOp, arith::NegFOp, arith::AddIOp,
             arith::SubIOp, arith::MulIOp, arith::AndIOp, arith::OrIOp,
             arith::XOrIOp>(Op);
}

namespace {
using Bits = std::optional<uint64_t>;

APFloat toFloat(Type T, uint64_t B) {
  return APFloat(cast<FloatType>(T).getFloatSemantics(),
                 APInt(T.getIntOrFloatBitWidth(), B));
}

Bits fromFloat(const APFloat &F) {
  if (F.isNaN())
    return std::nullopt;
  return F.bitcastToAPInt().getZExtValue();
}

/// The result bits of Op on one element's operand bits.
Bits evaluateOne(Operation *Op, Type In, Type Out, uint64_t A, uint64_t B) {
  unsigned InW = In.getIntOrFloatBitWidth(), OutW = Out.getIntOrFloatBitWidth();
  auto Int = [&](uint64_t V) { return APInt(InW, V); };
  auto Rne = APFloat::rmNearestTiesToEven;
  return llvm::TypeSwitch<Operation *, Bits>(Op)
      .Case<arith::ExtFOp, arith::TruncFOp>([&](auto) -> Bits {
        APFloat F = toFloat(In, A);
        if (F.isNaN())
          return std::nullopt;
        bool Loses;
        F.convert(cast<FloatType>(Out).getFloatSemantics(), Rne, &Loses);
        return fromFloat(F);
      })
      .Case<arith::SIToFPOp, arith::UIToFPOp>([&](auto) -> Bits {
        APFloat F(cast<FloatType>(Out).getFloatSemantics());
        F.convertFromAPInt(Int(A), isa<arith::SIToFPOp>(Op), Rne);
        return fromFloat(F);
      })
      .Case<arith::FPToSIOp, arith::FPToUIOp>([&](auto) -> Bits {
        llvm::APSInt R(OutW, isa<arith::FPToUIOp>(Op));
        bool Exact;
        if (toFloat(In, A).convertToInteger(R, APFloat::rmTowardZero, &Exact) ==
            APFloat::opInvalidOp)
          return std::nullopt;
        return R.getZExtValue();
      })
      .Case([&](arith::ExtSIOp) { return Int(A).sext(OutW).getZExtValue(); })
      .Case([&](arith::ExtUIOp) { return Int(A).zext(OutW).getZExtValue(); })
      .Case([&](arith::TruncIOp) { return Int(A).trunc(OutW).getZExtValue(); })
      .Case([&](arith::BitcastOp) -> Bits { return A; })
      .Case([&](arith::NegFOp) -> Bits {
        APFloat F = toFloat(In, A);
        F.changeSign();
        return fromFloat(F);
      })
      .Case<arith::AddFOp, arith::SubFOp, arith::MulFOp, arith::DivFOp>(
          [&](auto) -> Bits {
            APFloat X = toFloat(In, A), Y = toFloat(In, B);
            if (X.isNaN() || Y.isNaN())
              return std::nullopt;
            if (isa<arith::AddFOp>(Op))
              X.add(Y, Rne);
            else if (isa<arith::SubFOp>(Op))
              X.subtract(Y, Rne);
            else if (isa<arith::MulFOp>(Op))
              X.multiply(Y, Rne);
            else
              X.divide(Y, Rne);
            return fromFloat(X);
          })
      .Case([&](arith::AddIOp) { return (Int(A) + Int(B)).getZExtValue(); })
      .Case([&](arith::SubIOp) { return (Int(A) - Int(B)).getZExtValue(); })
      .Case([&](arith::MulIOp) { return (Int(A) * Int(B)).getZExtValue(); })
      .Case([&](arith::AndIOp) { return (Int(A) & Int(B)).getZExtValue(); })
      .Case([&](arith::OrIOp) { return (Int(A) | Int(B)).getZExtValue(); })
      .Case([&](arith::XOrIOp) { return (Int(A) ^ Int(B)).getZExtValue(); })
      .Default([](Operation *) { return std::nullopt; });
}

} // namespace

LogicalResult constant_bytes::evaluateElements(
    Operation *Op, ArrayRef<ElementOperand> Operands, char *Out, int64_t N) {
  assert(isExactElementOp(Op) && Operands.size() == Op->getNumOperands());
  if (Operands.size() > 2)
    return failure();
  Type In = getElementTypeOrSelf(Op->getOperand(0).getType());
  Type Res = getElementTypeOrSelf(Op->getResult(0).getType());
  unsigned InB = *elementBytes(In), OutB = *elementBytes(Res);
  auto Load = [&](const ElementOperand &E, int64_t I) {
    uint64_t V = 0;
    std::memcpy(&V, E.Data + (E.Scalar ? 0 : I * InB), InB);
    return V;
  };
  for (int64_t I = 0; I < N; ++I) {
    uint64_t A = Load(Operands[0], I);
    uint64_t B = Operands.size() == 2 ? Load(Operands[1], I) : 0;
    Bits R = evaluateOne(Op, In, Res, A, B);
    if (!R)
      return failure();
    std::memcpy(Out + I * OutB, &*R, OutB);
  }
  return success();
}
