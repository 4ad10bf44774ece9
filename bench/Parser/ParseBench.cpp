//===- ParseBench.cpp - Parser throughput on the corpus -------------------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// MB/s of the structural pass, the full operand parse, the operand parse
/// alone and printing, on the files of bench/corpus.
/// Run: build/bin/mmptx-bench-parse.
///
//===----------------------------------------------------------------------===//

#include "mmptx/Parser/Parser.h"
#include "mmptx/Printer/Printer.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

#include <benchmark/benchmark.h>

using namespace mmptx;

static const char *const Files[] = {"anchor_gemm_kernel.ptx",
                                    "anchor_gemm_many_kernels.ptx"};

static llvm::SourceMgr &corpus(unsigned &ID, int64_t Which) {
  static llvm::SourceMgr SM;
  static unsigned IDs[2] = {0, 0};
  if (!IDs[Which]) {
    std::string Path = std::string(MMPTX_CORPUS_DIR) + "/" + Files[Which];
    auto Buf = llvm::MemoryBuffer::getFile(Path);
    if (!Buf) {
      fprintf(stderr, "cannot read %s\n", Path.c_str());
      exit(1);
    }
    IDs[Which] = SM.AddNewSourceBuffer(std::move(*Buf), llvm::SMLoc());
  }
  ID = IDs[Which];
  return SM;
}

static void BM_Structure(benchmark::State &St) {
  unsigned ID;
  llvm::SourceMgr &SM = corpus(ID, St.range(0));
  for (auto _ : St) {
    auto M = parseStructure(SM, ID);
    if (!M) {
      St.SkipWithError("parse failed");
      llvm::consumeError(M.takeError());
      return;
    }
    benchmark::DoNotOptimize(M->get());
  }
  St.SetBytesProcessed(St.iterations() *
                       SM.getMemoryBuffer(ID)->getBufferSize());
  St.SetLabel(Files[St.range(0)]);
}
BENCHMARK(BM_Structure)->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);

static void BM_FullParse(benchmark::State &St) {
  unsigned ID;
  llvm::SourceMgr &SM = corpus(ID, St.range(0));
  for (auto _ : St) {
    auto M = parsePTX(SM, ID);
    if (!M) {
      St.SkipWithError("parse failed");
      llvm::consumeError(M.takeError());
      return;
    }
    benchmark::DoNotOptimize(M->get());
  }
  St.SetBytesProcessed(St.iterations() *
                       SM.getMemoryBuffer(ID)->getBufferSize());
  St.SetLabel(Files[St.range(0)]);
}
BENCHMARK(BM_FullParse)->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);

/// The on-demand half alone: verifyModule() over a parsed module.
static void BM_Verify(benchmark::State &St) {
  unsigned ID;
  llvm::SourceMgr &SM = corpus(ID, St.range(0));
  auto M = parseStructure(SM, ID);
  if (!M) {
    llvm::consumeError(M.takeError());
    St.SkipWithError("parse failed");
    return;
  }
  for (auto _ : St) {
    if (llvm::Error E = verifyModule(**M)) {
      llvm::consumeError(std::move(E));
      St.SkipWithError("verify failed");
      return;
    }
  }
  St.SetBytesProcessed(St.iterations() *
                       SM.getMemoryBuffer(ID)->getBufferSize());
  St.SetLabel(Files[St.range(0)]);
}
BENCHMARK(BM_Verify)->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);

static void BM_Print(benchmark::State &St) {
  unsigned ID;
  llvm::SourceMgr &SM = corpus(ID, St.range(0));
  auto M = parseStructure(SM, ID);
  if (!M) {
    llvm::consumeError(M.takeError());
    St.SkipWithError("parse failed");
    return;
  }
  for (auto _ : St) {
    std::string S = printModuleToString(**M);
    benchmark::DoNotOptimize(S.data());
  }
  St.SetBytesProcessed(St.iterations() *
                       SM.getMemoryBuffer(ID)->getBufferSize());
  St.SetLabel(Files[St.range(0)]);
}
BENCHMARK(BM_Print)->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);

BENCHMARK_MAIN();
