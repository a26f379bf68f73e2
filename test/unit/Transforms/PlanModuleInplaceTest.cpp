//===- PlanModuleInplaceTest.cpp - In-place pairs through the C++ API -----===//
//
// planModule with PlanOptions::Inplace returns the pairs, and the buffers of
// a pair share one offset; without it nothing shares bytes at an op.
//
//===----------------------------------------------------------------------===//

#include "memplan/Transforms/PlanResult.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

using namespace mlir;

namespace {

// b = a * a over 16 floats: a dies at the op that starts b.
constexpr const char *kInput = R"mlir(
#id = affine_map<(d0) -> (d0)>
func.func @f(%in: memref<16xf32>, %out: memref<16xf32>) {
  %a = memref.alloc() : memref<16xf32>
  memref.copy %in, %a : memref<16xf32> to memref<16xf32>
  %b = memref.alloc() : memref<16xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%a : memref<16xf32>) outs(%b : memref<16xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.mulf %x, %x : f32
    linalg.yield %r : f32
  }
  memref.copy %b, %out : memref<16xf32> to memref<16xf32>
  return
}
)mlir";

TEST(PlanModuleInplaceTest, PairsShareOneOffset) {
  DialectRegistry Registry;
  Registry.insert<arith::ArithDialect, func::FuncDialect, linalg::LinalgDialect,
                  memref::MemRefDialect>();
  MLIRContext Context(Registry);
  OwningOpRef<ModuleOp> Module = parseSourceString<ModuleOp>(kInput, &Context);
  ASSERT_TRUE(Module);

  memplan::PlanOptions Options;
  auto Without = memplan::planModule(*Module, Options);
  ASSERT_TRUE(bool(Without)) << llvm::toString(Without.takeError());
  ASSERT_EQ(Without->size(), 1u);
  EXPECT_TRUE((*Without)[0].InplacePairs.empty());
  EXPECT_EQ((*Without)[0].arenaSize(), 128u); // a and b live at the op

  Options.Inplace = true;
  auto With = memplan::planModule(*Module, Options);
  ASSERT_TRUE(bool(With)) << llvm::toString(With.takeError());
  ASSERT_EQ(With->size(), 1u);
  const memplan::PlannedArena &A = (*With)[0];
  ASSERT_EQ(A.InplacePairs.size(), 1u);
  EXPECT_EQ(A.InplacePairs[0].Operand, 0u);
  EXPECT_EQ(A.InplacePairs[0].Result, 1u);
  EXPECT_EQ(A.offset(0), A.offset(1));
  EXPECT_EQ(A.Records[0].LastTask, A.Records[1].FirstTask);
  EXPECT_EQ(A.arenaSize(), 64u);
  EXPECT_EQ(A.liveBound(), 64u);
}

} // namespace
