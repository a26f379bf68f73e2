//===- FlagForm.cpp - `--tensor-mem-plan=...` in stock mlir-opt -----------===//
//
// Stock mlir-opt builds its list of pass flags (one cl::list whose values are
// the registered pass names) before it parses argv, so passes of a plugin
// loaded by --load-pass-plugin are not flags. The plugin loads while argv is
// being parsed, though, and LLVM looks every later flag up by name in
// cl::getRegisteredOptions(), a map it may edit. So, at load time, the
// plugin points every pass name (mlir-opt's and its own) at one option of
// its own that adds each pass flag, in order, to a pass manager, and keeps
// mlir-opt's `pass-pipeline` option set to that pipeline's text. mlir-opt
// then runs the pipeline as if given --pass-pipeline. Limits (README):
// flags before --load-pass-plugin stay mlir-opt's, and --pass-pipeline
// cannot be mixed with pass flags (as in mlir-opt itself).
//
// The names are read from memplan's registration itself (the TableGen'd
// registerMemPlanPasses() run once with registerPass collecting), so a pass
// added to Passes.td is a flag without an edit here; its options are the
// registered pass's own (addToPipeline parses them).
//
// --help: the option that took the pass names over prints what mlir-opt's
// pass list prints (which reads the pass registry when it prints, so it
// lists memplan's passes too); without that, the names no longer lead to
// mlir-opt's list and --help would show no pass at all.
//
//===----------------------------------------------------------------------===//

#include "memplan/Transforms/Passes.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

using namespace llvm;

// The TableGen'd registration calls ::mlir::registerPass(allocator) once per
// pass of Passes.td. A second copy of it, in a namespace of its own, calls
// this instead: it creates each pass and keeps its argument.
namespace mlir {
namespace {
std::vector<std::string> MemPlanPassNames;
void collectMemPlanPassName(const PassAllocatorFunction &Allocate) {
  MemPlanPassNames.push_back(Allocate()->getArgument().str());
}
} // namespace
} // namespace mlir

#define registerPass collectMemPlanPassName
namespace memplan::collect {
#define GEN_PASS_REGISTRATION
#include "memplan/Transforms/Passes.h.inc"
} // namespace memplan::collect
#undef registerPass

namespace {

/// Stands in for mlir-opt's `pass-pipeline` option once the plugin loads: a
/// --pass-pipeline after pass flags is an error. Taken as the option's next
/// occurrence, it replaced the flags' pipeline, and the passes the flags
/// named silently did not run.
class PipelineGuard : public cl::Option {
public:
  PipelineGuard() : cl::Option(cl::ZeroOrMore, cl::NotHidden) {}
  void install(cl::opt<std::string> *Real, const std::string *FlagsText) {
    Pipeline = Real;
    Text = FlagsText;
    HelpStr = Real->HelpStr;
    Categories = Real->Categories;
    cl::getRegisteredOptions()["pass-pipeline"] = this;
  }

private:
  bool handleOccurrence(unsigned Pos, StringRef Name, StringRef Arg) override {
    if (!Text->empty())
      return error("cannot be mixed with pass flags (it would replace the "
                   "pipeline they made)",
                   Name);
    return Pipeline->addOccurrence(Pos, Name, Arg);
  }
  // Through cl::Option, where they are public.
  size_t getOptionWidth() const override {
    return static_cast<const cl::Option *>(Pipeline)->getOptionWidth();
  }
  void printOptionInfo(size_t GlobalWidth) const override {
    static_cast<const cl::Option *>(Pipeline)->printOptionInfo(GlobalWidth);
  }
  void printOptionValue(size_t, bool) const override {}
  void setDefault() override {}

  cl::opt<std::string> *Pipeline = nullptr;
  const std::string *Text = nullptr;
};

class PassFlags : public cl::Option {
public:
  PassFlags() : cl::Option(cl::ZeroOrMore, cl::NotHidden) {}

  /// Takes over the pass flags of the running tool; false when the tool has
  /// no mlir-opt style pass list (then nothing changes).
  bool install(ArrayRef<StringRef> OwnNames) {
    DenseMap<StringRef, cl::Option *> &Options = cl::getRegisteredOptions();
    Pipeline =
        static_cast<cl::opt<std::string> *>(Options.lookup("pass-pipeline"));
    if (!Pipeline)
      return false;
    for (auto &Entry : Options)
      if (Entry.second->ArgStr.empty() && mlir::PassInfo::lookup(Entry.first)) {
        PassList = Entry.second;
        break;
      }
    if (!PassList)
      return false;
    SmallVector<StringRef> Names(OwnNames);
    for (auto &Entry : Options)
      if (Entry.second == PassList)
        Names.push_back(Entry.first);
    for (StringRef Name : Names)
      Options[Name] = this;
    // --help lists the passes where mlir-opt lists them.
    HelpStr = PassList->HelpStr;
    Categories = PassList->Categories;
    Guard.install(Pipeline, &Text);
    return true;
  }

private:
  bool handleOccurrence(unsigned Pos, StringRef Name, StringRef Arg) override {
    if (PassList->getNumOccurrences())
      return error("pass flags before --load-pass-plugin cannot be mixed with "
                   "memplan's: put --load-pass-plugin first",
                   Name);
    if (Pipeline->getNumOccurrences() != (Text.empty() ? 0 : 1))
      return error("'--pass-pipeline' cannot be mixed with pass flags", Name);
    const mlir::PassRegistryEntry *Entry = mlir::PassInfo::lookup(Name);
    if (!Entry)
      Entry = mlir::PassPipelineInfo::lookup(Name);
    if (!Entry)
      return error("not a registered pass or pipeline", Name);
    std::string Message;
    auto OnError = [&](const Twine &Msg) {
      Message = Msg.str();
      return mlir::failure();
    };
    if (failed(Entry->addToPipeline(PM, Arg, OnError)))
      return error(Message.empty() ? "invalid options '" + Arg + "'"
                                   : Twine(Message),
                   Name);
    bool First = Text.empty();
    Text.clear();
    raw_string_ostream OS(Text);
    PM.printAsTextualPipeline(OS);
    // The first flag makes `pass-pipeline` occur once; later ones update it.
    return Pipeline->addOccurrence(Pos, "pass-pipeline", Text,
                                   /*MultiArg=*/!First);
  }

  size_t getOptionWidth() const override {
    return PassList ? PassList->getOptionWidth() : 0;
  }
  void printOptionInfo(size_t GlobalWidth) const override {
    if (PassList)
      PassList->printOptionInfo(GlobalWidth);
  }
  void printOptionValue(size_t, bool) const override {}
  void setDefault() override {}

  cl::Option *PassList = nullptr;
  cl::opt<std::string> *Pipeline = nullptr;
  PipelineGuard Guard;
  mlir::OpPassManager PM{"builtin.module",
                         mlir::OpPassManager::Nesting::Implicit};
  std::string Text;
};

} // namespace

namespace memplan {
void installPassFlags() {
  static PassFlags Flags;
  static bool Installed = [] {
    mlir::MemPlanPassNames.clear();
    collect::registerMemPlanPasses();
    SmallVector<StringRef> Names(mlir::MemPlanPassNames.begin(),
                                 mlir::MemPlanPassNames.end());
    // The pipelines are registered in C++ (registerMemPlanPipeline,
    // registerMemPlanLowerToLLVM), not from Passes.td: their names.
    // test/Tools/plugin-help.test checks the whole list against memplan-opt's.
    Names.push_back("memplan-pipeline");
    Names.push_back("memplan-lower-to-llvm");
    return Flags.install(Names);
  }();
  (void)Installed;
}
} // namespace memplan
