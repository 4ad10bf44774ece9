//===- BackendBench.cpp - PTX -> cubin: backends, threads, cache ----------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// PTX -> cubin on bench/corpus with each backend:
///   BM_Compile/<backend>/<kernel>    one module (0: the GEMM, 1: the tiny
///                                    kernel), warm process;
///   BM_Batch/<backend>/<threads>     8 distinct GEMM variants on a pool of
///                                    1..k threads: modules/s, so the ratio
///                                    of two rows is the scaling (on an
///                                    idle machine), and cpu_ms_per_module
///                                    (every thread's time) stays flat if
///                                    threads do not slow each other;
///   BM_CacheHit/<kernel>             a cached module: key + lookup;
///   BM_CacheKey/<kernel>             the key alone (a hash of the PTX);
///   BM_CacheHitCuTeSize              a hit at the size of a CuTe variant
///                                    (336 KB of PTX, a 345 KB cubin): key +
///                                    lookup, no backend needed.
/// Backend numbers: 0 nvptxcompiler, 1 nvjitlink, 2 ptxas; a backend
/// missing from this build is skipped. Run: build/bin/mmptx-bench-backend
/// (the GEMM rows take seconds each; --benchmark_filter narrows them).
///
//===----------------------------------------------------------------------===//

#include "CpuTime.h"
#include "mmptx/Backend/Batch.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Threading.h"

#include <benchmark/benchmark.h>

using namespace llvm;
using namespace mmptx;

static const char *const Files[] = {"anchor_gemm_kernel.ptx",
                                    "ptx_inject_simple_kernel.ptx"};

static const std::string &corpus(int64_t Which) {
  static std::string Texts[2];
  if (Texts[Which].empty()) {
    std::string Path = std::string(MMPTX_CORPUS_DIR) + "/" + Files[Which];
    auto Buf = MemoryBuffer::getFile(Path);
    if (!Buf) {
      fprintf(stderr, "cannot read %s\n", Path.c_str());
      exit(1);
    }
    Texts[Which] = (*Buf)->getBuffer().str();
  }
  return Texts[Which];
}

/// The backend \p Index, created once; null (and the row skipped) if this
/// build or machine lacks it.
static PTXCompiler *backend(benchmark::State &State, int64_t Index) {
  static std::unique_ptr<PTXCompiler> Compilers[3];
  static bool Tried[3];
  if (!Tried[Index]) {
    Tried[Index] = true;
    auto C = createPTXCompiler(getAllBackends()[Index]);
    if (C)
      Compilers[Index] = std::move(*C);
    else
      consumeError(C.takeError());
  }
  if (!Compilers[Index])
    State.SkipWithError("backend not available");
  else
    State.SetLabel(Compilers[Index]->getIdentity());
  return Compilers[Index].get();
}

static void BM_Compile(benchmark::State &State) {
  PTXCompiler *C = backend(State, State.range(0));
  if (!C)
    return;
  const std::string &Ptx = corpus(State.range(1));
  // The first call of a process costs more; keep it out of the timing.
  consumeError(C->compile(Ptx, {}).takeError());
  for (auto _ : State) {
    Expected<CompileResult> R = C->compile(Ptx, {});
    if (!R) {
      State.SkipWithError(toString(R.takeError()).c_str());
      return;
    }
    benchmark::DoNotOptimize(R->Cubin.data());
  }
  State.SetItemsProcessed(State.iterations());
}
BENCHMARK(BM_Compile)
    ->ArgsProduct({{0, 1, 2}, {0, 1}})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

static void BM_Batch(benchmark::State &State) {
  PTXCompiler *C = backend(State, State.range(0));
  if (!C)
    return;
  unsigned Threads = unsigned(State.range(1));
  if (Threads > hardware_concurrency().compute_thread_count()) {
    State.SkipWithError("more threads than cores");
    return;
  }
  // Distinct texts, so nothing is deduplicated; all compile the same work.
  // Enough modules to keep 16 threads busy (the 1 -> 16 core scaling).
  const unsigned N = 64;
  std::vector<std::string> Texts;
  for (unsigned I = 0; I < N; ++I)
    Texts.push_back("// variant " + std::to_string(I) + "\n" + corpus(0));
  std::vector<BatchModule> Mods;
  for (unsigned I = 0; I < N; ++I)
    Mods.push_back({"v" + std::to_string(I), Texts[I], nullptr});
  BatchOptions BO;
  BO.Threads = Threads;
  consumeError(C->compile(corpus(1), {}).takeError());
  double Cpu0 = processCpuSeconds();
  for (auto _ : State) {
    BatchResult R = compileBatch(*C, Mods, {}, BO);
    if (R.Summary.Failed) {
      State.SkipWithError("a module failed");
      return;
    }
  }
  State.SetItemsProcessed(State.iterations() * N);
  State.counters["cpu_ms_per_module"] =
      1e3 * (processCpuSeconds() - Cpu0) / (State.iterations() * N);
}
BENCHMARK(BM_Batch)
    ->ArgsProduct({{0, 1, 2}, {1, 2, 4, 8, 16}})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

/// \returns a cache in a new directory \p Dir (the caller removes it), or
/// null with the benchmark skipped and the reason given.
static std::unique_ptr<ContentCache> openScratchCache(benchmark::State &State,
                                                      SmallString<128> &Dir) {
  if (sys::fs::createUniqueDirectory("mmptx-bench-cache", Dir)) {
    State.SkipWithError("cannot create a cache directory");
    return nullptr;
  }
  auto Cache = ContentCache::open(Dir);
  if (!Cache) {
    State.SkipWithError(toString(Cache.takeError()).c_str());
    return nullptr;
  }
  return std::move(*Cache);
}

static void BM_CacheHit(benchmark::State &State) {
  PTXCompiler *C = backend(State, 2);
  if (!C)
    return;
  SmallString<128> Dir;
  std::unique_ptr<ContentCache> Cache = openScratchCache(State, Dir);
  if (!Cache)
    return;
  const std::string &Ptx = corpus(State.range(0));
  consumeError(compileCached(*C, Cache.get(), Ptx, {}).takeError());
  for (auto _ : State) {
    bool Hit = false;
    Expected<CompileResult> R =
        compileCached(*C, Cache.get(), Ptx, {}, "<ptx>", nullptr, &Hit);
    if (!R || !Hit) {
      consumeError(R.takeError());
      State.SkipWithError("not a cache hit");
      break;
    }
  }
  sys::fs::remove_directories(Dir);
}
BENCHMARK(BM_CacheHit)->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);

static void BM_CacheKey(benchmark::State &State) {
  PTXCompiler *C = backend(State, 2);
  if (!C)
    return;
  const std::string &Ptx = corpus(State.range(0));
  for (auto _ : State)
    benchmark::DoNotOptimize(getCubinCacheKey(*C, Ptx, {}));
  State.SetBytesProcessed(State.iterations() * Ptx.size());
}
BENCHMARK(BM_CacheKey)->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);

static void BM_CacheHitCuTeSize(benchmark::State &State) {
  SmallString<128> Dir;
  std::unique_ptr<ContentCache> Cache = openScratchCache(State, Dir);
  if (!Cache)
    return;
  // The GEMM text repeated to the size NVRTC gives for the CuTe example, and
  // a cubin of the size ptxas makes of it.
  std::string Ptx;
  while (Ptx.size() < 336 * 1000)
    Ptx += corpus(0);
  Ptx.resize(336 * 1000);
  std::string Cubin(345 * 1000, '\x7f');
  auto Key = [&] {
    return CacheKey("ptx->cubin")
        .add("ptxas 13.0.88")
        .add("arch=sm_80")
        .add(Ptx)
        .final();
  };
  consumeError(Cache->store(Key(), {Cubin, "", "ptxas 13.0.88"}));
  for (auto _ : State) {
    Optional<std::vector<std::string>> F = Cache->lookup(Key());
    if (!F) {
      State.SkipWithError("not a cache hit");
      break;
    }
    benchmark::DoNotOptimize(F);
  }
  sys::fs::remove_directories(Dir);
}
BENCHMARK(BM_CacheHitCuTeSize)->Unit(benchmark::kMicrosecond);

BENCHMARK_MAIN();
