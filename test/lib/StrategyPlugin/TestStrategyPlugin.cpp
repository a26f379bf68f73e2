//===- TestStrategyPlugin.cpp - A user's strategy as a loadable library ---===//
//
// memplan-solve --load=this.so registers "test-reverse-stack".
//
//===----------------------------------------------------------------------===//

#include "ReverseStack.h"

extern "C" void memplanRegisterStrategies() {
  memplan::registerStrategy("test-reverse-stack", memplan::test::reverseStack,
                            "test: reverse stack, no reuse");
}
