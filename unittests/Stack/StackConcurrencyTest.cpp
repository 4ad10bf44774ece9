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
  const StackInfo &info = getDefaultStackInfo();
  std::vector<Register> regs = {
      {"x", 0, RegKind::In}, {"y", 0, RegKind::In}, {"z", 0, RegKind::Out}};
  std::vector<uint32_t> reqs = {2};
  StackRng rng(2024);
  std::vector<std::vector<uint64_t>> progs;
  std::vector<std::string> expected;
  for (unsigned i = 0; i != 64; ++i) {
    progs.push_back(randomF32Program(rng, 1 + rng.below(128), info, 2));
    expected.push_back(
        llvm::cantFail(compileStackPtx(info, {progs.back(), {}}, regs, reqs)));
  }
  std::vector<int> mismatches(4, 0);
  std::vector<std::thread> threads;
  for (unsigned t = 0; t != mismatches.size(); ++t)
    threads.emplace_back([&, t] {
      // Each thread walks the programs from a different start.
      for (unsigned i = 0; i != 4 * progs.size(); ++i) {
        size_t p = (i + 17 * t) % progs.size();
        llvm::Expected<std::string> s =
            compileStackPtx(info, {progs[p], {}}, regs, reqs);
        if (!s) {
          llvm::consumeError(s.takeError());
          ++mismatches[t];
        } else if (*s != expected[p]) {
          ++mismatches[t];
        }
      }
    });
  for (std::thread &t : threads)
    t.join();
  for (int n : mismatches)
    EXPECT_EQ(n, 0);
}

} // namespace
