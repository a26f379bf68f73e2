//===- CustomStrategyTest.cpp - A user's strategy through the pass --------===//
//
// A compiler that embeds memplan registers its own strategy from C++ and
// selects it by name in tensor-mem-plan, exactly like a built-in one.
//
//===----------------------------------------------------------------------===//

#include "../../lib/StrategyPlugin/ReverseStack.h"
#include "memplan/Core/Strategy.h"
#include "memplan/Transforms/Passes.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

using namespace mlir;

namespace {

// Three 256-byte buffers, each live with the next: %a-%b and %b-%c conflict.
constexpr const char *kInput = R"mlir(
func.func @f(%in: memref<64xf32>, %out: memref<64xf32>) {
  %a = memref.alloc() : memref<64xf32>
  memref.copy %in, %a : memref<64xf32> to memref<64xf32>
  %b = memref.alloc() : memref<64xf32>
  memref.copy %a, %b : memref<64xf32> to memref<64xf32>
  %c = memref.alloc() : memref<64xf32>
  memref.copy %b, %c : memref<64xf32> to memref<64xf32>
  memref.copy %c, %out : memref<64xf32> to memref<64xf32>
  return
}
)mlir";

void registerOnce() {
  static bool Done = [] {
    memplan::registerMemPlanPasses();
    memplan::registerStrategy("test-reverse-stack", memplan::test::reverseStack,
                              "a user's strategy");
    return true;
  }();
  (void)Done;
}

std::string runPass(llvm::StringRef Options, bool &Ok) {
  DialectRegistry Registry;
  Registry
      .insert<arith::ArithDialect, func::FuncDialect, memref::MemRefDialect>();
  MLIRContext Context(Registry);
  Context.allowUnregisteredDialects(false);
  OwningOpRef<ModuleOp> Module = parseSourceString<ModuleOp>(kInput, &Context);
  EXPECT_TRUE(Module);
  PassManager PM(&Context);
  Ok = succeeded(parsePassPipeline(
           ("func.func(tensor-mem-plan{" + Options + "})").str(), PM)) &&
       succeeded(PM.run(*Module));
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  Module->print(OS);
  return Out;
}

TEST(CustomStrategyTest, RegisteredStrategyRunsInThePass) {
  registerOnce();
  bool Ok = false;
  std::string Out = runPass("strategy=test-reverse-stack", Ok);
  ASSERT_TRUE(Ok) << Out;
  // No reuse, reverse order: %c at 0, %b at 256, %a at 512 of 768.
  EXPECT_NE(Out.find("memref<768xi8>"), std::string::npos) << Out;
  size_t A = Out.find("arith.constant 512 : index");
  size_t B = Out.find("arith.constant 256 : index");
  size_t C = Out.find("arith.constant 0 : index");
  ASSERT_NE(A, std::string::npos) << Out;
  ASSERT_NE(B, std::string::npos) << Out;
  ASSERT_NE(C, std::string::npos) << Out;
  EXPECT_LT(A, B);
  EXPECT_LT(B, C);
  // The default reuses %a's bytes for %c: 512.
  std::string Default = runPass("", Ok);
  ASSERT_TRUE(Ok);
  EXPECT_NE(Default.find("memref<512xi8>"), std::string::npos) << Default;
}

TEST(CustomStrategyTest, UnknownNameListsTheUsersStrategyToo) {
  registerOnce();
  std::string Msg = llvm::toString(memplan::unknownStrategyError("nope"));
  EXPECT_NE(Msg.find("test-reverse-stack"), std::string::npos) << Msg;
}

} // namespace
