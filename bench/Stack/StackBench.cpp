//===- StackBench.cpp - Stack PTX compile time ----------------------------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Nanoseconds per compile of random f32 programs of 8, 32 and 128 words
/// (inputs x and y, f32 constants, the f32 instructions of the default set,
/// dup and swap; one F32 request), cycling through 256 programs per size so
/// the branch predictor cannot learn one. One reused StackPtxContext: this
/// is the steady state of a search loop. BM_StackCompileFresh builds a new
/// context per compile for comparison. Run: build/bin/mmptx-bench-stack.
///
//===----------------------------------------------------------------------===//

#include "mmptx/Stack/StackCompiler.h"
#include "mmptx/Stack/StackRandom.h"

#include <benchmark/benchmark.h>

#include <map>

using namespace mmptx;
using namespace mmptx::stack;

namespace {

struct Corpus {
  std::vector<std::vector<uint64_t>> programs;
  std::vector<Register> regs = {
      {"x", 0, RegKind::In}, {"y", 0, RegKind::In}, {"z", 0, RegKind::Out}};
  std::vector<uint32_t> requests = {2};
  size_t bytes = 0;
};

const Corpus &getCorpus(int64_t words) {
  static std::map<int64_t, Corpus> corpora;
  Corpus &c = corpora[words];
  if (c.programs.empty()) {
    StackRng rng(uint64_t(words) * 7919);
    for (int i = 0; i != 256; ++i)
      c.programs.push_back(
          randomF32Program(rng, size_t(words), getDefaultStackInfo(), 2));
  }
  return c;
}

void BM_StackCompile(benchmark::State &st) {
  const Corpus &c = getCorpus(st.range(0));
  StackPtxContext ctx(getDefaultStackInfo());
  size_t i = 0, bytes = 0;
  for (auto _ : st) {
    const std::vector<uint64_t> &p = c.programs[i++ & 255];
    llvm::Expected<llvm::StringRef> s =
        ctx.compile({p, {}}, c.regs, c.requests);
    bytes += s->size();
    benchmark::DoNotOptimize(s->data());
  }
  st.SetBytesProcessed(int64_t(bytes));
}
BENCHMARK(BM_StackCompile)
    ->Arg(8)
    ->Arg(32)
    ->Arg(128)
    ->Unit(benchmark::kNanosecond);

void BM_StackCompileFresh(benchmark::State &st) {
  const Corpus &c = getCorpus(st.range(0));
  size_t i = 0;
  for (auto _ : st) {
    StackPtxContext ctx(getDefaultStackInfo());
    const std::vector<uint64_t> &p = c.programs[i++ & 255];
    llvm::Expected<llvm::StringRef> s =
        ctx.compile({p, {}}, c.regs, c.requests);
    benchmark::DoNotOptimize(s->data());
  }
}
BENCHMARK(BM_StackCompileFresh)
    ->Arg(8)
    ->Arg(32)
    ->Arg(128)
    ->Unit(benchmark::kNanosecond);

} // namespace

BENCHMARK_MAIN();
