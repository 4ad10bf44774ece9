//===- StackConcurrencyTest.cpp - compileStackPtx from many threads -------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// compileStackPtx keeps one context per thread and table; threads that
/// compile at once must not share state. utils/tsan.sh runs this under
/// ThreadSanitizer.
///
//===----------------------------------------------------------------------===//

#include "mmptx/Stack/DefaultStackSet.h"
#include "mmptx/Stack/StackCompiler.h"
#include "mmptx/Stack/StackRandom.h"

#include "gtest/gtest.h"

#include <thread>

using namespace mmptx::stack;

namespace {

TEST(StackConcurrencyTest, ConcurrentCompilesMatchSerialOnes) {
  const StackInfo &Info = getDefaultStackInfo();
  std::vector<Register> Regs = {
      {"x", 0, RegKind::In}, {"y", 0, RegKind::In}, {"z", 0, RegKind::Out}};
  std::vector<uint32_t> Reqs = {2};
  StackRng Rng(2024);
  std::vector<std::vector<uint64_t>> Progs;
  std::vector<std::string> SerialStubs;
  for (unsigned I = 0; I != 64; ++I) {
    Progs.push_back(randomF32Program(Rng, 1 + Rng.below(128), Info, 2));
    SerialStubs.push_back(
        llvm::cantFail(compileStackPtx(Info, {Progs.back(), {}}, Regs, Reqs)));
  }
  std::vector<int> Mismatches(4, 0);
  std::vector<std::thread> Threads;
  for (unsigned T = 0; T != Mismatches.size(); ++T)
    Threads.emplace_back([&, T] {
      // Each thread walks the programs from a different start.
      for (unsigned I = 0; I != 4 * Progs.size(); ++I) {
        size_t P = (I + 17 * T) % Progs.size();
        llvm::Expected<std::string> S =
            compileStackPtx(Info, {Progs[P], {}}, Regs, Reqs);
        if (!S) {
          llvm::consumeError(S.takeError());
          ++Mismatches[T];
        } else if (*S != SerialStubs[P]) {
          ++Mismatches[T];
        }
      }
    });
  for (std::thread &T : Threads)
    T.join();
  for (int N : Mismatches)
    EXPECT_EQ(N, 0);
}

} // namespace
