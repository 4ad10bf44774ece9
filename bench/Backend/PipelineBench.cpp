//===- PipelineBench.cpp - Mutated variants, end to end, deduplicated -----===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The evolutionary-search loop on the corpus GEMM (288 sites): each
/// variant is a random mutation (1-3 words replaced, inserted or deleted)
/// of one of the four semiring programs (plus-times, L1, L2, max-plus) for
/// the `mma` inject; it is compiled by Stack PTX, rendered into the GEMM,
/// and compiled to cubin by compileBatch, which compiles identical renders
/// once.
///   BM_MutateRender/<N>        Stack PTX compile + render of N variants;
///                              counter `unique` = distinct PTX among them,
///                              `dedup_rate` = 1 - unique / N.
///   BM_EndToEnd/<backend>/<N>  the same, then PTX -> cubin of the batch
///                              on every core; `variants_per_s` counts all
///                              N variants (duplicates are served, not
///                              compiled).
///   BM_Packed/<mode>/<backend>  packed injects: a module of 16 kernels x
///                              128 sites, one random 32-word f32 program
///                              per site; Stack PTX compile of every program
///                              + building the module + PTX -> cubin;
///                              `programs_per_cpu_s` counts the CPU time of
///                              this process and of the ptxas it runs.
///                              Modes: default (identical stubs of a kernel
///                              share a block, IEEE div/sqrt/rcp and non-ftz
///                              approximations through shared functions),
///                              no-dedup, no-share-slow-ops,
///                              no-dedup-no-share-slow-ops (the packing before
///                              either), Ofast-compile=mid, fast-compile (the
///                              fast-compile vocabulary) and both;
///                              `code_blocks` = stub blocks in the module.
/// Run: build/bin/mmptx-bench-pipeline.
///
//===----------------------------------------------------------------------===//

#include "CpuTime.h"
#include "mmptx/Backend/Batch.h"
#include "mmptx/Backend/PackedModule.h"
#include "mmptx/Inject/InjectModule.h"
#include "mmptx/Stack/DefaultStackSet.h"
#include "mmptx/Stack/StackRandom.h"
#include "mmptx/Stack/StackText.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/MemoryBuffer.h"

#include <benchmark/benchmark.h>

#include <thread>

using namespace llvm;
using namespace mmptx;
using namespace mmptx::stack;

// The semiring programs of examples/semiring-gemm, over the stable
// registers of the corpus GEMM's `mma` inject (c: %_x0, a: %_x1, b: %_x2).
static const char *const Semirings[] = {
    ".program { _x0 _x2 _x1 fma.rn.f32 }",                       // c += a * b
    ".program { _x2 _x1 sub.f32 abs.f32 _x0 add.f32 }",          // c += |a - b|
    ".program { _x2 _x1 sub.f32 dup(F32) mul.f32 _x0 add.f32 }", // (a-b)^2
    ".program { _x2 _x1 add.f32 _x0 max.f32 }", // max(c, a + b)
};
static const char *const Registers =
    ".registers { _x0 : F32 mod; _x1 : F32 in; _x2 : F32 in; }\n"
    ".requests { _x0 }\n";

namespace {
struct Pipeline {
  std::unique_ptr<InjectModule> Gemm;
  std::vector<StackProgram> Bases;
  std::vector<uint64_t> Vocabulary; ///< Words a mutation may insert.
  // Stubs by inject: load_a, load_b keep their value; the epilogue writes
  // the accumulator.
  std::string EpilogueStub;

  static Pipeline &get() {
    static Pipeline P = build();
    return P;
  }

  static Pipeline build() {
    Pipeline P;
    const StackInfo &Info = getDefaultStackInfo();
    auto Buf = MemoryBuffer::getFile(std::string(MMPTX_CORPUS_DIR) +
                                     "/anchor_gemm_kernel.ptx");
    if (!Buf)
      report_fatal_error("cannot read the corpus GEMM");
    auto M = InjectModule::create((*Buf)->getBuffer(), "gemm.ptx");
    if (!M)
      report_fatal_error(toString(M.takeError()).c_str());
    P.Gemm = std::move(*M);
    for (const char *S : Semirings) {
      auto Prog = parseStackProgram(std::string(Registers) + S, Info);
      if (!Prog)
        report_fatal_error(toString(Prog.takeError()).c_str());
      P.Bases.push_back(std::move(*Prog));
    }
    StackRng Rng(1);
    P.Vocabulary = randomF32Program(Rng, 256, Info, 2);
    auto Epi = parseStackProgram(".registers { _x0 : F32 out; _x1 : F32 in; }\n"
                                 ".program { _x1 } .requests { _x0 }",
                                 Info);
    if (!Epi)
      report_fatal_error(toString(Epi.takeError()).c_str());
    StackPtxContext Ctx(Info);
    auto Stub =
        Ctx.compile(Epi->getProgram(), Epi->getRegisters(), Epi->Requests);
    if (!Stub)
      report_fatal_error(toString(Stub.takeError()).c_str());
    P.EpilogueStub = Stub->str();
    return P;
  }

  /// Renders \p N mutated variants into \p Out (seeded by \p Seed).
  void renderVariants(unsigned N, uint64_t Seed,
                      std::vector<std::string> &Out) {
    const StackInfo &Info = getDefaultStackInfo();
    StackPtxContext Ctx(Info);
    StackRng Rng(Seed);
    Out.resize(N);
    const Inject *Mma = Gemm->lookupInject("mma");
    const Inject *Epi = Gemm->lookupInject("epilogue");
    std::vector<StringRef> Stubs(Gemm->getNumInjects(), "");
    Stubs[Epi->Index] = EpilogueStub;
    std::vector<uint64_t> Words;
    for (unsigned I = 0; I < N; ++I) {
      const StackProgram &Base = Bases[Rng.below(Bases.size())];
      Words = Base.Main;
      mutateProgram(Rng, Words, Vocabulary);
      Program Prog{Words, {}};
      auto Stub = Ctx.compile(Prog, Base.getRegisters(), Base.Requests);
      if (!Stub)
        report_fatal_error(toString(Stub.takeError()).c_str());
      Stubs[Mma->Index] = *Stub;
      if (Error E = Gemm->render(Stubs, Out[I]))
        report_fatal_error(toString(std::move(E)).c_str());
    }
  }
};
} // namespace

static void BM_MutateRender(benchmark::State &State) {
  Pipeline &P = Pipeline::get();
  unsigned N = unsigned(State.range(0));
  std::vector<std::string> Ptx;
  uint64_t Seed = 0;
  size_t Unique = 0;
  for (auto _ : State) {
    P.renderVariants(N, ++Seed, Ptx);
    State.PauseTiming();
    StringSet<> Seen;
    for (const std::string &T : Ptx)
      Seen.insert(T);
    Unique = Seen.size();
    State.ResumeTiming();
  }
  State.SetItemsProcessed(State.iterations() * N);
  State.counters["unique"] = double(Unique);
  State.counters["dedup_rate"] = 1.0 - double(Unique) / N;
}
BENCHMARK(BM_MutateRender)->Arg(1000)->Unit(benchmark::kMillisecond);

static void BM_EndToEnd(benchmark::State &State) {
  Pipeline &P = Pipeline::get();
  auto C = createPTXCompiler(getAllBackends()[State.range(0)]);
  if (!C) {
    State.SkipWithError(toString(C.takeError()).c_str());
    return;
  }
  State.SetLabel((*C)->getIdentity());
  unsigned N = unsigned(State.range(1));
  std::vector<std::string> Ptx;
  uint64_t Seed = 1000;
  BatchSummary Last;
  for (auto _ : State) {
    P.renderVariants(N, ++Seed, Ptx);
    std::vector<BatchModule> Mods(N);
    for (unsigned I = 0; I < N; ++I)
      Mods[I] = {"v" + std::to_string(I), Ptx[I], nullptr};
    BatchResult R = compileBatch(**C, Mods, {});
    if (R.Summary.Failed) {
      State.SkipWithError("a variant failed to compile");
      return;
    }
    Last = R.Summary;
  }
  State.counters["unique"] = double(Last.Unique);
  State.counters["dedup_rate"] = 1.0 - double(Last.Unique) / N;
  State.counters["threads"] = Last.Threads;
  State.counters["variants_per_s"] = benchmark::Counter(
      double(State.iterations()) * N, benchmark::Counter::kIsRate);
}
BENCHMARK(BM_EndToEnd)
    ->ArgsProduct({{0, 1, 2}, {64}})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Iterations(1);

/// One configuration of the packed benchmark.
struct PackedMode {
  const char *Name;
  expr::Vocabulary Vocabulary;
  bool Deduplicate, ShareSlowOps;
  FastCompileLevel FastCompile;
};

static const PackedMode PackedModes[] = {
    {"default", expr::Vocabulary::All, true, true, FastCompileLevel::None},
    {"no-dedup", expr::Vocabulary::All, false, true, FastCompileLevel::None},
    {"no-share-slow-ops", expr::Vocabulary::All, true, false,
     FastCompileLevel::None},
    {"no-dedup-no-share-slow-ops", expr::Vocabulary::All, false, false,
     FastCompileLevel::None},
    {"Ofast-compile=mid", expr::Vocabulary::All, true, true,
     FastCompileLevel::Mid},
    {"fast-compile", expr::Vocabulary::FastCompile, true, true,
     FastCompileLevel::None},
    {"fast-compile,Ofast-compile=mid", expr::Vocabulary::FastCompile, true,
     true, FastCompileLevel::Mid},
};

static void BM_Packed(benchmark::State &State, BackendKind Backend,
                      const PackedMode &Mode) {
  auto C = createPTXCompiler(Backend);
  if (!C) {
    State.SkipWithError(toString(C.takeError()).c_str());
    return;
  }
  State.SetLabel((*C)->getIdentity());
  const unsigned Kernels = 16, Sites = 128, Words = 32, Inputs = 2;
  const unsigned PerModule = Kernels * Sites;
  const StackInfo &Info = getDefaultStackInfo();
  auto Regs = parseStackProgram(
      ".registers { x0 : F32 in; x1 : F32 in; y : F32 out; }\n"
      ".requests { y }",
      Info);
  if (!Regs) {
    State.SkipWithError(toString(Regs.takeError()).c_str());
    return;
  }
  std::vector<Register> Registers = Regs->getRegisters();
  CompileOptions Opts;
  Opts.FastCompile = Mode.FastCompile;
  PackedModuleSpec Spec;
  Spec.SitesPerKernel = Sites;
  Spec.Deduplicate = Mode.Deduplicate;
  Spec.ShareSlowOps = Mode.ShareSlowOps;
  uint64_t Seed = 0;
  size_t CubinBytes = 0, Blocks = 0;
  double Cpu0 = processCpuSeconds();
  for (auto _ : State) {
    // What a search thread does per generation: compile its programs,
    // pack them and assemble the pack.
    StackPtxContext Ctx(Info);
    StackRng Rng(++Seed);
    std::vector<std::string> Stubs(PerModule);
    for (std::string &Stub : Stubs) {
      std::vector<uint64_t> Prog =
          randomF32Program(Rng, Words, Info, Inputs, Mode.Vocabulary);
      auto T = Ctx.compile(Program{Prog, {}}, Registers, Regs->Requests);
      if (!T)
        report_fatal_error(toString(T.takeError()).c_str());
      Stub = T->str();
    }
    std::vector<StringRef> Refs(Stubs.begin(), Stubs.end());
    auto Module = buildPackedModule(Refs, Spec);
    if (!Module)
      report_fatal_error(toString(Module.takeError()).c_str());
    auto R = (*C)->compile(*Module, Opts, "packed.ptx");
    if (!R) {
      State.SkipWithError(toString(R.takeError()).substr(0, 2000).c_str());
      return;
    }
    CubinBytes = R->Cubin.size();
    State.PauseTiming();
    Blocks = 0;
    for (unsigned K = 0; K != Kernels; ++K) {
      StringSet<> Seen;
      for (unsigned S = 0; S != Sites; ++S)
        Seen.insert(Refs[K * Sites + S]);
      Blocks += Mode.Deduplicate ? Seen.size() : Sites;
    }
    State.ResumeTiming();
  }
  double Programs = double(State.iterations()) * PerModule;
  State.counters["programs_per_cpu_s"] =
      Programs / (processCpuSeconds() - Cpu0);
  State.counters["programs_per_s"] =
      benchmark::Counter(Programs, benchmark::Counter::kIsRate);
  State.counters["code_blocks"] = double(Blocks);
  State.counters["cubin_bytes"] = double(CubinBytes);
}

int main(int Argc, char **Argv) {
  // BM_Packed/<mode>/<backend>: every mode of every backend, side by side.
  for (const PackedMode &Mode : PackedModes)
    for (BackendKind B : getAllBackends())
      benchmark::RegisterBenchmark(
          (Twine("BM_Packed/") + Mode.Name + "/" + getBackendName(B))
              .str()
              .c_str(),
          BM_Packed, B, Mode)
          ->Unit(benchmark::kMillisecond)
          ->UseRealTime()
          ->Iterations(2);
  benchmark::Initialize(&Argc, Argv);
  if (benchmark::ReportUnrecognizedArguments(Argc, Argv))
    return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
