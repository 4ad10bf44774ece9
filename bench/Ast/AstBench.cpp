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

#include <benchmark/benchmark.h>

#include <map>

using namespace mmptx;
using namespace mmptx::ast;

namespace {

const AstVar inputs[] = {{"x", 0}, {"y", 0}};

const std::vector<std::vector<uint64_t>> &getCorpus(int64_t nodes) {
  static std::map<int64_t, std::vector<std::vector<uint64_t>>> corpora;
  std::vector<std::vector<uint64_t>> &c = corpora[nodes];
  if (c.empty()) {
    const stack::StackInfo &info = stack::getDefaultStackInfo();
    std::vector<uint32_t> ops = getReferenceAstInstrMap(info);
    stack::StackRng rng(uint64_t(nodes) * 7919);
    for (int i = 0; i != 256; ++i)
      c.push_back(randomAstExpr(rng, info, 0, unsigned(nodes), inputs, ops));
  }
  return c;
}

void run(benchmark::State &st, bool share) {
  const auto &c = getCorpus(st.range(0));
  AstPtxOptions o;
  o.shareSubexpressions = share;
  AstPtxContext ctx(stack::getDefaultStackInfo(), o);
  size_t i = 0;
  for (auto _ : st) {
    AstOutput out{{"z", 0}, c[i++ & 255]};
    llvm::Expected<llvm::StringRef> s =
        ctx.compile(AstProgram{out, {}}, inputs);
    benchmark::DoNotOptimize(s->data());
  }
  // time / (nodes * 1e-9) = nanoseconds per node.
  st.counters["ns/node"] = benchmark::Counter(
      double(st.range(0)) * double(st.iterations()) * 1e-9,
      benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

void BM_AstCompile(benchmark::State &st) { run(st, true); }
void BM_AstCompileNoShare(benchmark::State &st) { run(st, false); }

BENCHMARK(BM_AstCompile)
    ->Arg(8)
    ->Arg(32)
    ->Arg(128)
    ->Unit(benchmark::kNanosecond);
BENCHMARK(BM_AstCompileNoShare)
    ->Arg(8)
    ->Arg(32)
    ->Arg(128)
    ->Unit(benchmark::kNanosecond);

} // namespace

BENCHMARK_MAIN();
