//===- ThreadHome.cpp - Thread numbers: taken, given back -----------------===//
//
// A thread takes the lowest number an ended thread gave back, or a new one,
// and gives its own number back when it ends.
//
//===----------------------------------------------------------------------===//

#include "ThreadHome.h"

#include <algorithm>

using namespace memplan::rt;

FreeHomes &memplan::rt::freeHomes() {
  static FreeHomes *F = new FreeHomes;
  return *F;
}

ThreadHome::ThreadHome() {
  FreeHomes &F = freeHomes();
  std::lock_guard<std::mutex> L(F.Lock);
  if (F.Numbers.empty()) {
    Number = F.Next++;
  } else {
    auto Min = std::min_element(F.Numbers.begin(), F.Numbers.end());
    Number = *Min;
    F.Numbers.erase(Min);
  }
  Index = Number;
}

ThreadHome::~ThreadHome() {
  FreeHomes &F = freeHomes();
  std::lock_guard<std::mutex> L(F.Lock);
  F.Numbers.push_back(Number);
}
