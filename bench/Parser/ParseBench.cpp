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

/// Reports the bytes each iteration read, and the file.
static void setThroughput(benchmark::State &St, const llvm::SourceMgr &SM,
                          unsigned ID) {
  St.SetBytesProcessed(St.iterations() *
                       SM.getMemoryBuffer(ID)->getBufferSize());
  St.SetLabel(Files[St.range(0)]);
}

/// Times \p Parse over the corpus file St.range(0).
template <typename ParseFnT>
static void runParse(benchmark::State &St, ParseFnT Parse) {
  unsigned ID;
  llvm::SourceMgr &SM = corpus(ID, St.range(0));
  for (auto _ : St) {
    auto M = Parse(SM, ID);
    if (!M) {
      St.SkipWithError("parse failed");
      llvm::consumeError(M.takeError());
      return;
    }
    benchmark::DoNotOptimize(M->get());
  }
  setThroughput(St, SM, ID);
}

static void BM_Structure(benchmark::State &St) {
  runParse(St, [](llvm::SourceMgr &SM, unsigned ID) {
    return parseStructure(SM, ID);
  });
}
BENCHMARK(BM_Structure)->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);

static void BM_FullParse(benchmark::State &St) {
  runParse(St,
           [](llvm::SourceMgr &SM, unsigned ID) { return parsePTX(SM, ID); });
}
BENCHMARK(BM_FullParse)->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);

/// Times \p Run (false: failed) over the structure of the corpus file
/// St.range(0), parsed once.
template <typename RunFnT>
static void runOnModule(benchmark::State &St, RunFnT Run) {
  unsigned ID;
  llvm::SourceMgr &SM = corpus(ID, St.range(0));
  auto M = parseStructure(SM, ID);
  if (!M) {
    llvm::consumeError(M.takeError());
    St.SkipWithError("parse failed");
    return;
  }
  for (auto _ : St)
    if (!Run(**M))
      return;
  setThroughput(St, SM, ID);
}

/// The on-demand half alone: verifyModule() over a parsed module.
static void BM_Verify(benchmark::State &St) {
  runOnModule(St, [&St](const ptx::Module &M) {
    if (llvm::Error E = verifyModule(M)) {
      llvm::consumeError(std::move(E));
      St.SkipWithError("verify failed");
      return false;
    }
    return true;
  });
}
BENCHMARK(BM_Verify)->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);

static void BM_Print(benchmark::State &St) {
  runOnModule(St, [](const ptx::Module &M) {
    std::string S = printModuleToString(M);
    benchmark::DoNotOptimize(S.data());
    return true;
  });
}
BENCHMARK(BM_Print)->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);

BENCHMARK_MAIN();
