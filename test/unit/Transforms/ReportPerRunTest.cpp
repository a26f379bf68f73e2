//===- ReportPerRunTest.cpp - A long-lived compiler gets fresh reports ----===//
//
// A compiler keeps one pass manager and runs it on module after module: each
// report must hold the functions of its own module, never earlier ones.
//
//===----------------------------------------------------------------------===//

#include "memplan/Transforms/Passes.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"

#include "gtest/gtest.h"

#include <set>

using namespace mlir;

namespace {

std::string moduleWith(llvm::ArrayRef<std::string> Names) {
  std::string Text;
  for (const std::string &N : Names)
    Text += "func.func @" + N + R"mlir((%out: memref<16xf32>) {
  %a = memref.alloc() : memref<16xf32>
  memref.copy %a, %out : memref<16xf32> to memref<16xf32>
  return
}
)mlir";
  return Text;
}

/// The function names in the report file at Path.
std::set<std::string> functionsIn(llvm::StringRef Path) {
  std::set<std::string> Names;
  auto Buffer = llvm::MemoryBuffer::getFile(Path);
  EXPECT_TRUE(bool(Buffer));
  if (!Buffer)
    return Names;
  llvm::Expected<llvm::json::Value> V =
      llvm::json::parse((*Buffer)->getBuffer());
  EXPECT_TRUE(bool(V)) << llvm::toString(V.takeError());
  for (const llvm::json::Value &F : *V->getAsObject()->getArray("functions"))
    Names.insert(F.getAsObject()->getString("function")->str());
  return Names;
}

void runTwice(llvm::StringRef Pipeline) {
  static bool Registered = (memplan::registerMemPlanPasses(), true);
  (void)Registered;
  llvm::SmallString<64> Path;
  ASSERT_FALSE(
      llvm::sys::fs::createTemporaryFile("memplan-report", "json", Path));
  DialectRegistry Registry;
  Registry
      .insert<arith::ArithDialect, func::FuncDialect, memref::MemRefDialect>();
  MLIRContext Context(Registry);
  Context.disableMultithreading();
  PassManager PM(&Context);
  std::string Text = Pipeline.str();
  size_t At = Text.find("PATH");
  Text.replace(At, 4, Path.str().str());
  ASSERT_TRUE(succeeded(parsePassPipeline(Text, PM)));

  OwningOpRef<ModuleOp> First =
      parseSourceString<ModuleOp>(moduleWith({"a", "b"}), &Context);
  ASSERT_TRUE(succeeded(PM.run(*First)));
  std::string Printed;
  llvm::raw_string_ostream OS(Printed);
  First->print(OS);
  // Planned: the alloc became a view of the arena.
  EXPECT_NE(Printed.find("memref.view"), std::string::npos) << Printed;
  EXPECT_EQ(functionsIn(Path), (std::set<std::string>{"a", "b"}));

  OwningOpRef<ModuleOp> Second =
      parseSourceString<ModuleOp>(moduleWith({"c"}), &Context);
  ASSERT_TRUE(succeeded(PM.run(*Second)));
  EXPECT_EQ(functionsIn(Path), (std::set<std::string>{"c"}));
  llvm::sys::fs::remove(Path);
}

TEST(ReportPerRunTest, ModuleLevelPassWritesOnlyItsRun) {
  runTwice("tensor-mem-plan{report=PATH}");
}

TEST(ReportPerRunTest, NestedPassGathersOnlyItsModule) {
  runTwice("func.func(tensor-mem-plan{report=PATH})");
}

} // namespace
