//===- PruneBench.cpp - CuTe variants, pruned and unpruned ----------------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// What template pruning saves the PTX compiler. The CuTe GEMM of
/// examples/cute-gemm is compiled by NVRTC as the demo does it
/// (`-default-device`, which emits thousands of unreferenced statics), once
/// as it is and once pruned (mmptx/Transforms/PruneUnusedGlobals.h); the
/// four semiring variants (plus-times, L1, L2, max-plus) are rendered into
/// each and compiled to cubin, one thread, side by side in one process:
///   BM_CuteVariant/<backend>/<pruned>  PTX -> cubin of the four variants;
///                          `cpu_ms_per_variant` is this process's CPU
///                          time (ptxas children included) per variant;
///                          on a pruned row `cpu_vs_unpruned` divides it by
///                          the unpruned row of the same backend;
///                          `ptx_bytes` and `cubin_bytes` per variant.
///   BM_PruneTemplate       the prune itself (parse, mark, sweep, print).
/// Backend numbers: 0 nvptxcompiler, 1 nvjitlink, 2 ptxas; a backend
/// missing from this build is skipped, as is everything without NVRTC or
/// the CUTLASS headers. Run: build/bin/mmptx-bench-prune.
///
//===----------------------------------------------------------------------===//

#include "CpuTime.h"
#include "mmptx/Backend/Batch.h"
#include "mmptx/Frontend/Nvrtc.h"
#include "mmptx/Inject/InjectModule.h"
#include "mmptx/Stack/DefaultStackSet.h"
#include "mmptx/Stack/StackText.h"
#include "mmptx/Transforms/PruneUnusedGlobals.h"

#include "llvm/Support/MemoryBuffer.h"

#include <benchmark/benchmark.h>

#include <map>

using namespace llvm;
using namespace mmptx;
using namespace mmptx::stack;

// The semiring programs of examples/semiring-gemm over the stable registers
// of the CuTe kernel's injects: mma (a: %_x0, b: %_x1, acc: %_x2) and
// epilogue (acc: %_x0, out: %_x1).
static const char *const MmaRegisters =
    ".registers { _x0 : F32 in; _x1 : F32 in; _x2 : F32 mod; }\n"
    ".requests { _x2 }\n";
static const char *const Mmas[] = {
    ".program { _x2 _x1 _x0 fma.rn.f32 }",                       // gemm
    ".program { _x1 _x0 sub.f32 abs.f32 _x2 add.f32 }",          // L1
    ".program { _x1 _x0 sub.f32 dup(F32) mul.f32 _x2 add.f32 }", // L2
    ".program { _x1 _x0 add.f32 _x2 max.f32 }",                  // max-plus
};
static const char *const EpilogueRegisters =
    ".registers { _x0 : F32 in; _x1 : F32 out; }\n.requests { _x1 }\n";
static const char *const Epilogues[] = {".program { _x0 }", ".program { _x0 }",
                                        ".program { _x0 sqrt.rn.f32 }",
                                        ".program { _x0 }"};

namespace {
struct Templates {
  std::string Why; ///< Why there are none.
  std::string Full, Pruned;
  /// The four variants of each: [0] unpruned, [1] pruned.
  std::vector<std::string> Variants[2];

  static Templates &get() {
    static Templates T = build();
    return T;
  }

  static Expected<std::string> compileStub(const char *Registers,
                                           const char *Program) {
    const StackInfo &Info = getDefaultStackInfo();
    auto Prog = parseStackProgram(std::string(Registers) + Program, Info);
    if (!Prog)
      return Prog.takeError();
    StackPtxContext Ctx(Info);
    auto Stub =
        Ctx.compile(Prog->getProgram(), Prog->getRegisters(), Prog->Requests);
    if (!Stub)
      return Stub.takeError();
    return Stub->str();
  }

  static Error render(StringRef Ptx, std::vector<std::string> &Out) {
    auto M = InjectModule::create(Ptx, "cute_gemm.ptx");
    if (!M)
      return M.takeError();
    const Inject *Mma = (*M)->lookupInject("mma");
    const Inject *Epi = (*M)->lookupInject("epilogue");
    if (!Mma || !Epi)
      return createStringError(inconvertibleErrorCode(),
                               "the kernel has no mma/epilogue inject");
    for (unsigned I = 0; I < 4; ++I) {
      auto MmaStub = compileStub(MmaRegisters, Mmas[I]);
      if (!MmaStub)
        return MmaStub.takeError();
      auto EpiStub = compileStub(EpilogueRegisters, Epilogues[I]);
      if (!EpiStub)
        return EpiStub.takeError();
      std::vector<StringRef> Stubs((*M)->getNumInjects(), "");
      Stubs[Mma->Index] = *MmaStub;
      Stubs[Epi->Index] = *EpiStub;
      Out.emplace_back();
      if (Error E = (*M)->render(Stubs, Out.back()))
        return E;
    }
    return Error::success();
  }

  static Templates build() {
    Templates T;
    if (!isNvrtcAvailable() || !*MMPTX_CUTLASS_INCLUDE) {
      T.Why = "needs NVRTC and the CUTLASS headers";
      return T;
    }
    std::string Path = std::string(MMPTX_EXAMPLE_DIR) + "/cute_gemm.cu";
    auto Buf = MemoryBuffer::getFile(Path);
    if (!Buf) {
      T.Why = "cannot read " + Path;
      return T;
    }
    CudaCompileOptions Opts;
    Opts.IncludeDirs = {MMPTX_CUTLASS_INCLUDE, MMPTX_INCLUDE_DIR,
                        MMPTX_GEN_INCLUDE_DIR};
    Opts.ExtraOptions = {"-std=c++17", "-default-device"};
    auto R = compileCudaToPtx((*Buf)->getBuffer(), Path, Opts);
    if (!R) {
      T.Why = toString(R.takeError());
      return T;
    }
    T.Full = std::move(R->Ptx);
    auto Pruned = prunePTX(T.Full);
    if (!Pruned) {
      T.Why = toString(Pruned.takeError());
      return T;
    }
    T.Pruned = std::move(*Pruned);
    if (Error E = joinErrors(render(T.Full, T.Variants[0]),
                             render(T.Pruned, T.Variants[1])))
      T.Why = toString(std::move(E));
    return T;
  }
};
} // namespace

/// CPU ms per variant of the unpruned rows, by backend, for the ratio.
static std::map<int64_t, double> &unprunedCpuMs() {
  static std::map<int64_t, double> Ms;
  return Ms;
}

static void BM_CuteVariant(benchmark::State &State) {
  Templates &T = Templates::get();
  if (!T.Why.empty()) {
    State.SkipWithError(T.Why.c_str());
    return;
  }
  int64_t Backend = State.range(0);
  bool Pruned = State.range(1);
  auto C = createPTXCompiler(getAllBackends()[Backend]);
  if (!C) {
    State.SkipWithError(toString(C.takeError()).c_str());
    return;
  }
  State.SetLabel((*C)->getIdentity() + (Pruned ? ", pruned" : ", unpruned"));
  const std::vector<std::string> &Variants = T.Variants[Pruned];
  // The first compile of a process costs more; keep it out.
  consumeError((*C)->compile(Variants[0], {}).takeError());
  size_t CubinBytes = 0;
  double Cpu0 = processCpuSeconds();
  for (auto _ : State) {
    for (const std::string &Ptx : Variants) {
      Expected<CompileResult> R = (*C)->compile(Ptx, {});
      if (!R) {
        State.SkipWithError(toString(R.takeError()).c_str());
        return;
      }
      CubinBytes = R->Cubin.size();
    }
  }
  double Ms = 1e3 * (processCpuSeconds() - Cpu0) /
              (double(State.iterations()) * Variants.size());
  State.counters["cpu_ms_per_variant"] = Ms;
  State.counters["ptx_bytes"] = double(Variants[0].size());
  State.counters["cubin_bytes"] = double(CubinBytes);
  if (!Pruned)
    unprunedCpuMs()[Backend] = Ms;
  else if (unprunedCpuMs().count(Backend))
    State.counters["cpu_vs_unpruned"] = Ms / unprunedCpuMs()[Backend];
}
// Each backend's unpruned row, then its pruned row.
BENCHMARK(BM_CuteVariant)
    ->ArgsProduct({{0, 1, 2}, {0, 1}})
    ->Unit(benchmark::kMillisecond)
    ->MinTime(2.0);

static void BM_PruneTemplate(benchmark::State &State) {
  Templates &T = Templates::get();
  if (!T.Why.empty()) {
    State.SkipWithError(T.Why.c_str());
    return;
  }
  for (auto _ : State) {
    auto Pruned = prunePTX(T.Full);
    if (!Pruned) {
      State.SkipWithError(toString(Pruned.takeError()).c_str());
      return;
    }
    benchmark::DoNotOptimize(Pruned->data());
  }
  State.SetBytesProcessed(State.iterations() * T.Full.size());
  State.counters["removed_bytes"] = double(T.Full.size() - T.Pruned.size());
}
BENCHMARK(BM_PruneTemplate)->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
