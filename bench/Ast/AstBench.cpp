//===- AstBench.cpp - AST PTX compile time --------------------------------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Nanoseconds per node of compiling random f32 trees of 8, 32 and 128
/// nodes (words before RETURN: inputs x and y, f32 constants, the
/// reference's 18 f32 instructions), the kind of tree the reference
/// measures at ~150 ns per node. Cycles through 256 trees per size so the
/// branch predictor cannot learn one; one reused AstPtxContext, the steady
/// state of a search loop. BM_AstCompileNoShare turns hash-consing off (the
/// reference's behaviour). Run: build/bin/mmptx-bench-ast; the `ns/node`
/// counter is the figure.
///
//===----------------------------------------------------------------------===//

#include "mmptx/Ast/AstPtx.h"
#include "mmptx/Ast/AstRandom.h"
#include "mmptx/Stack/StackInfo.h"

#include <benchmark/benchmark.h>

#include <map>

using namespace mmptx;
using namespace mmptx::ast;

namespace {

const AstVar Inputs[] = {{"x", 0}, {"y", 0}};

const std::vector<std::vector<uint64_t>> &getCorpus(int64_t Nodes) {
  static std::map<int64_t, std::vector<std::vector<uint64_t>>> Corpora;
  std::vector<std::vector<uint64_t>> &C = Corpora[Nodes];
  if (C.empty()) {
    const stack::StackInfo &Info = stack::getDefaultStackInfo();
    std::vector<uint32_t> Ops = getReferenceAstInstrMap(Info);
    expr::Rng Rng(uint64_t(Nodes) * 7919);
    for (int I = 0; I != 256; ++I)
      C.push_back(randomAstExpr(Rng, Info, 0, unsigned(Nodes), Inputs, Ops));
  }
  return C;
}

void run(benchmark::State &St, bool Share) {
  const auto &C = getCorpus(St.range(0));
  AstPtxOptions O;
  O.ShareSubexpressions = Share;
  AstPtxContext Ctx(stack::getDefaultStackInfo(), O);
  size_t I = 0;
  for (auto _ : St) {
    AstOutput Out{{"z", 0}, C[I++ & 255]};
    llvm::Expected<llvm::StringRef> S =
        Ctx.compile(AstProgram{Out, {}}, Inputs);
    benchmark::DoNotOptimize(S->data());
  }
  // time / (nodes * 1e-9) = nanoseconds per node.
  St.counters["ns/node"] = benchmark::Counter(
      double(St.range(0)) * double(St.iterations()) * 1e-9,
      benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

void BM_AstCompile(benchmark::State &St) { run(St, true); }
void BM_AstCompileNoShare(benchmark::State &St) { run(St, false); }

BENCHMARK(BM_AstCompile)
    ->ArgsProduct({{8, 32, 128}})
    ->Unit(benchmark::kNanosecond);
BENCHMARK(BM_AstCompileNoShare)
    ->ArgsProduct({{8, 32, 128}})
    ->Unit(benchmark::kNanosecond);

} // namespace

BENCHMARK_MAIN();
