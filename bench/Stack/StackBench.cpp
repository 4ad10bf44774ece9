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

#include "mmptx-c/StackPtx.h"
#include "mmptx/Stack/StackCompiler.h"
#include "mmptx/Stack/StackRandom.h"

#include <benchmark/benchmark.h>

#include <map>

using namespace mmptx;
using namespace mmptx::stack;

namespace {

struct Corpus {
  std::vector<std::vector<uint64_t>> Programs;
  std::vector<Register> Regs = {
      {"x", 0, RegKind::In}, {"y", 0, RegKind::In}, {"z", 0, RegKind::Out}};
  std::vector<uint32_t> Requests = {2};
  size_t Bytes = 0;
};

const Corpus &getCorpus(int64_t Words) {
  static std::map<int64_t, Corpus> Corpora;
  Corpus &C = Corpora[Words];
  if (C.Programs.empty()) {
    StackRng Rng(uint64_t(Words) * 7919);
    for (int I = 0; I != 256; ++I)
      C.Programs.push_back(
          randomF32Program(Rng, size_t(Words), getDefaultStackInfo(), 2));
  }
  return C;
}

void BM_StackCompile(benchmark::State &St) {
  const Corpus &C = getCorpus(St.range(0));
  StackPtxContext Ctx(getDefaultStackInfo());
  size_t I = 0, Bytes = 0;
  for (auto _ : St) {
    const std::vector<uint64_t> &P = C.Programs[I++ & 255];
    llvm::Expected<llvm::StringRef> S =
        Ctx.compile({P, {}}, C.Regs, C.Requests);
    Bytes += S->size();
    benchmark::DoNotOptimize(S->data());
  }
  St.SetBytesProcessed(int64_t(Bytes));
}
BENCHMARK(BM_StackCompile)
    ->ArgsProduct({{8, 32, 128}})
    ->Unit(benchmark::kNanosecond);

void BM_StackCompileFresh(benchmark::State &St) {
  const Corpus &C = getCorpus(St.range(0));
  size_t I = 0;
  for (auto _ : St) {
    StackPtxContext Ctx(getDefaultStackInfo());
    const std::vector<uint64_t> &P = C.Programs[I++ & 255];
    llvm::Expected<llvm::StringRef> S =
        Ctx.compile({P, {}}, C.Regs, C.Requests);
    benchmark::DoNotOptimize(S->data());
  }
}
BENCHMARK(BM_StackCompileFresh)
    ->ArgsProduct({{8, 32, 128}})
    ->Unit(benchmark::kNanosecond);

/// The same through the C API (mmptx_stack_compile): what it adds per call
/// is its argument checks.
void BM_StackCompileCAPI(benchmark::State &St) {
  const Corpus &C = getCorpus(St.range(0));
  mmptx_stack_context_t *Ctx = nullptr;
  if (mmptx_stack_context_create(nullptr, nullptr, &Ctx) !=
      MMPTX_STACK_SUCCESS) {
    St.SkipWithError("mmptx_stack_context_create failed");
    return;
  }
  const mmptx_stack_register_t Regs[] = {{"x", 0, MMPTX_STACK_REG_IN},
                                         {"y", 0, MMPTX_STACK_REG_IN},
                                         {"z", 0, MMPTX_STACK_REG_OUT}};
  std::vector<char> Buffer(1 << 20);
  size_t I = 0, Bytes = 0;
  for (auto _ : St) {
    const std::vector<uint64_t> &P = C.Programs[I++ & 255];
    size_t Written = 0;
    mmptx_stack_compile(Ctx, P.data(), P.size(), nullptr, 0, Regs, 3,
                        C.Requests.data(), C.Requests.size(), Buffer.data(),
                        Buffer.size(), &Written);
    Bytes += Written;
    benchmark::DoNotOptimize(Buffer.data());
  }
  St.SetBytesProcessed(int64_t(Bytes));
  mmptx_stack_context_destroy(Ctx);
}
BENCHMARK(BM_StackCompileCAPI)
    ->ArgsProduct({{8, 32, 128}})
    ->Unit(benchmark::kNanosecond);

} // namespace

BENCHMARK_MAIN();
