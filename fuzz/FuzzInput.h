//===- FuzzInput.h - How the word fuzzers read their input ------*- C++ -*-===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A fuzz input of the word fuzzers is a mode byte, then 8-byte words.
///
//===----------------------------------------------------------------------===//

#ifndef MMPTX_FUZZ_FUZZINPUT_H
#define MMPTX_FUZZ_FUZZINPUT_H

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

namespace mmptx {
namespace fuzz {

/// Takes the mode byte off the input [\p Data, + \p Size) into \p Mode.
/// \returns false for an empty input.
inline bool takeMode(const uint8_t *&Data, size_t &Size, uint8_t &Mode) {
  if (Size < 1)
    return false;
  Mode = Data[0];
  ++Data;
  --Size;
  return true;
}

/// \returns the input [\p Data, + \p Size) as 8-byte words; a last partial
/// word is dropped.
inline std::vector<uint64_t> readWords(const uint8_t *Data, size_t Size) {
  std::vector<uint64_t> Words(Size / 8);
  if (!Words.empty())
    std::memcpy(Words.data(), Data, Words.size() * 8);
  return Words;
}

} // namespace fuzz
} // namespace mmptx

#endif // MMPTX_FUZZ_FUZZINPUT_H
