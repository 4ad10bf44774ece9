//===- Random.h - The random source of the program generators ---*- C++ -*-===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef MMPTX_EXPR_RANDOM_H
#define MMPTX_EXPR_RANDOM_H

#include <cstdint>

namespace mmptx {
namespace expr {

/// SplitMix64: small, fast and the same on every platform.
class Rng {
public:
  explicit Rng(uint64_t Seed) : State(Seed) {}
  uint64_t next() {
    uint64_t Z = (State += 0x9E3779B97F4A7C15ULL);
    Z = (Z ^ (Z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    Z = (Z ^ (Z >> 27)) * 0x94D049BB133111EBULL;
    return Z ^ (Z >> 31);
  }
  /// \returns a value in [0, n) (0 when n is 0).
  uint32_t below(uint32_t N) { return N ? uint32_t(next() % N) : 0; }

private:
  uint64_t State;
};

} // namespace expr
} // namespace mmptx

#endif // MMPTX_EXPR_RANDOM_H
