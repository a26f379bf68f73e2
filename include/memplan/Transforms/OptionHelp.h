//===- OptionHelp.h - defaults and strategy names in --help -----*- C++ -*-===//
//
// `--help` of memplan-opt (and of stock mlir-opt with the plugin) prints
// each pass option's description; LLVM's command line prints no default.
// These cl modifiers, given after cl::init (and cl::values), append the
// default read from the option itself, so the text cannot drift from the
// definition, and, for `strategy`, the strategies registered when the
// option is made (a user's strategy, loaded first, is listed too).
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_TRANSFORMS_OPTIONHELP_H
#define MEMPLAN_TRANSFORMS_OPTIONHELP_H

#include "mlir/Pass/PassOptions.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/CommandLine.h"

#include <string>
#include <type_traits>

namespace memplan {
namespace detail {
/// Help + " (default: Value)", kept for the life of the process.
llvm::StringRef helpWithDefault(llvm::StringRef Help, llvm::StringRef Value);
/// Help + " (registered: a, b, ...)", the strategies registered now.
llvm::StringRef helpWithStrategies(llvm::StringRef Help);

template <class Opt, class T>
std::string defaultText(const Opt &O, const T &Value) {
  if constexpr (std::is_same_v<T, bool>) {
    return Value ? "true" : "false";
  } else if constexpr (std::is_enum_v<T>) {
    // The first name of the value among the option's cl::values.
    const auto &Parser = const_cast<Opt &>(O).getParser();
    for (unsigned I = 0, E = Parser.getNumOptions(); I != E; ++I)
      if (static_cast<const llvm::cl::OptionValue<T> &>(
              Parser.getOptionValue(I))
              .compare(Value))
        return Parser.getOption(I).str();
    return "?";
  } else if constexpr (std::is_integral_v<T>) {
    return std::to_string(Value);
  } else {
    std::string S(Value);
    return S.empty() ? "\"\"" : S;
  }
}
} // namespace detail

/// cl modifier: appends "(default: V)" to the option's help.
struct HelpDefault {
  template <class Opt> void apply(Opt &O) const {
    if (O.getDefault().hasValue())
      O.setDescription(detail::helpWithDefault(
          O.HelpStr, detail::defaultText(O, O.getDefault().getValue())));
  }
};
inline constexpr HelpDefault helpDefault{};

/// cl modifier: appends the registered strategy names to the option's help.
struct HelpStrategies {
  template <class Opt> void apply(Opt &O) const {
    O.setDescription(detail::helpWithStrategies(O.HelpStr));
  }
};
inline constexpr HelpStrategies helpStrategies{};

/// The same for options made without the modifiers (a pipeline's options
/// struct calls it from its constructor): Printed is PassOptions::print's
/// "{name=value ...}" of freshly made options, so each value is a default.
void addDefaultsToHelp(
    const llvm::DenseMap<llvm::StringRef, llvm::cl::Option *> &Options,
    llvm::StringRef Printed);

} // namespace memplan

#endif // MEMPLAN_TRANSFORMS_OPTIONHELP_H
