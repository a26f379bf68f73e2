//===- OptionHelp.cpp - defaults and strategy names in --help -------------===//

#include "memplan/Transforms/OptionHelp.h"
#include "memplan/Core/Strategy.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"

#include <algorithm>
#include <mutex>

using namespace llvm;

// cl keeps a description as a StringRef: the texts live here. Passes are
// made on several threads (pass manager clones), hence the lock; equal
// texts are kept once, so the set stays as small as the set of options.
static StringRef keep(const std::string &Text) {
  static std::mutex Lock;
  static StringSet<> Texts;
  std::lock_guard<std::mutex> Guard(Lock);
  return Texts.insert(Text).first->getKey();
}

StringRef memplan::detail::helpWithDefault(StringRef Help, StringRef Value) {
  if (Help.contains("(default: "))
    return Help;
  return keep((Help + " (default: " + Value + ")").str());
}

StringRef memplan::detail::helpWithStrategies(StringRef Help) {
  if (Help.contains("(registered: "))
    return Help;
  std::string Names = join(strategyNames(), ", ");
  return keep((Help + " (registered: " + Names + ")").str());
}

void memplan::addDefaultsToHelp(
    const DenseMap<StringRef, cl::Option *> &Options, StringRef Printed) {
  // PassOptions::print writes the options sorted by name, separated by
  // spaces; a value runs up to the next " name=".
  std::vector<StringRef> Names;
  for (const auto &Entry : Options)
    Names.push_back(Entry.first);
  llvm::sort(Names);
  StringRef Text = Printed.trim();
  Text.consume_front("{");
  Text.consume_back("}");
  for (size_t I = 0; I < Names.size(); ++I) {
    std::string Key = (Names[I] + "=").str();
    if (!Text.consume_front(Key))
      return; // Not the form expected: leave the help as it is.
    size_t End = Text.size();
    if (I + 1 < Names.size()) {
      End = Text.find((" " + Names[I + 1] + "=").str());
      if (End == StringRef::npos)
        return;
    }
    StringRef Value = Text.take_front(End);
    Text = Text.drop_front(End).ltrim(' ');
    cl::Option *O = Options.lookup(Names[I]);
    O->setDescription(
        detail::helpWithDefault(O->HelpStr, Value.empty() ? "\"\"" : Value));
    if (Names[I] == "strategy")
      O->setDescription(detail::helpWithStrategies(O->HelpStr));
  }
}
