//===- FuzzReader.h - Numbers from a fuzzer's input bytes -------*- C++ -*-===//
//
// The fuzzers draw their records and tables from the input a few bytes at a
// time; past its end every number is 0, so any input is a whole case.
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_FUZZ_FUZZREADER_H
#define MEMPLAN_FUZZ_FUZZREADER_H

#include <cstddef>
#include <cstdint>

namespace memplan::fuzz {

class Reader {
public:
  Reader(const uint8_t *Data, size_t Size) : Data(Data), Size(Size) {}
  bool empty() const { return Pos >= Size; }
  /// The next \p Bytes bytes, big-endian (0 past the end).
  uint64_t take(unsigned Bytes) {
    uint64_t V = 0;
    for (unsigned I = 0; I < Bytes; ++I)
      V = (V << 8) | (Pos < Size ? Data[Pos++] : 0);
    return V;
  }

private:
  const uint8_t *Data;
  size_t Size;
  size_t Pos = 0;
};

} // namespace memplan::fuzz

#endif // MEMPLAN_FUZZ_FUZZREADER_H
