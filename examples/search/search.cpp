//===- search.cpp - MAP-Elites over Stack PTX programs, in C++ ------------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The inner loop of examples/search/map_elites.py without Python: a
/// MAP-Elites search for a Stack PTX program y = f(x0, x1) that fits
/// x0 * x1 + sin(x0) on sample points. Each generation:
///   1. generate: children are mutations (mutateProgram) of random elites;
///   2. compile each to a stub (one StackPtxContext) and drop duplicates
///      (equal stubs);
///   3. pack: buildPackedModule, --pack-size programs a module;
///   4. compile the packs to cubins with compileBatch (every core);
///   5. evaluate: on a GPU (one module load and one launch per pack) when
///      the driver opens one, else on the CPU interpreter (interpretStackPtx);
///   6. place each program in the archive cell of its descriptors (the
///      stub's instruction count, its fraction of transcendental
///      instructions) if it beats the cell's elite.
///
///   mmptx-example-search [--generations=N] [--population=N] [--pack-size=N]
///                        [--backend=NAME] [--cpu] [--seed=S]
///
//===----------------------------------------------------------------------===//

#include "mmptx/Backend/Batch.h"
#include "mmptx/Backend/PackedModule.h"
#include "mmptx/Runtime/Context.h"
#include "mmptx/Stack/DefaultStackSet.h"
#include "mmptx/Stack/StackInterpreter.h"
#include "mmptx/Stack/StackRandom.h"
#include "mmptx/Support/ToolInit.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <cmath>
#include <cstring>
#include <optional>

using namespace llvm;
using namespace mmptx;
using namespace mmptx::stack;

static cl::OptionCategory Category("mmptx-example-search Options");
static cl::opt<unsigned> Generations("generations",
                                     cl::desc("Generations, 1 to 100000"),
                                     cl::value_desc("N"), cl::init(20),
                                     cl::cat(Category));
static cl::opt<unsigned>
    Population("population",
               cl::desc("Programs per generation, 1 to 1048576 (512)"),
               cl::value_desc("N"), cl::init(512), cl::cat(Category));
static cl::opt<unsigned>
    PackSize("pack-size", cl::desc("Programs per packed module, 1 to 4096"),
             cl::value_desc("N"), cl::init(128), cl::cat(Category));
static cl::opt<std::string>
    BackendName("backend",
                cl::desc("nvptxcompiler, nvjitlink or ptxas (default: the "
                         "first available)"),
                cl::value_desc("name"), cl::cat(Category));
static cl::opt<bool> Cpu("cpu", cl::desc("Evaluate on the CPU even with a GPU"),
                         cl::cat(Category));
static cl::opt<uint64_t> Seed("seed", cl::desc("Random seed (default 1)"),
                              cl::value_desc("S"), cl::init(1),
                              cl::cat(Category));

static constexpr unsigned NumInputs = 2, NumPoints = 64;
static constexpr unsigned CountBins = 24, FracBins = 10;
static constexpr size_t MaxWords = 12;

static double target(double X0, double X1) { return X0 * X1 + std::sin(X0); }

namespace {
struct Elite {
  std::vector<uint64_t> Words;
  double Fitness = -1; ///< 1 / (1 + mse); -1: empty cell
  std::string Stub;
};

/// The gene pool (as map_elites.py's alphabet) and the expression printer.
struct Alphabet {
  std::vector<uint64_t> Words;
  DenseMap<uint64_t, std::pair<char, std::string>> Text;

  explicit Alphabet(const StackInfo &Info) {
    auto Add = [&](uint64_t W, char Kind, std::string Sym) {
      Words.push_back(W);
      Text[W] = {Kind, std::move(Sym)};
    };
    for (unsigned J = 0; J < NumInputs; ++J)
      Add(encodeInput(J), 'x', "x" + std::to_string(J));
    int F32 = Info.findStack("F32");
    for (float C : {0.5f, 1.0f, 2.0f, 3.0f}) {
      uint32_t Bits;
      std::memcpy(&Bits, &C, 4);
      std::string S;
      raw_string_ostream(S) << format("%g", C);
      Add(encodeConstant(uint16_t(F32), Bits), 'x', S);
    }
    for (auto [Name, Sym] :
         {std::pair{"add.ftz.f32", "+"}, std::pair{"sub.ftz.f32", "-"},
          std::pair{"mul.ftz.f32", "*"}})
      Add(encodePtx(uint32_t(Info.findInstr(Name))), '2', Sym);
    for (auto [Name, Sym] : {std::pair{"sin.approx.ftz.f32", "sin"},
                             std::pair{"cos.approx.ftz.f32", "cos"},
                             std::pair{"ex2.approx.ftz.f32", "exp2"}})
      Add(encodePtx(uint32_t(Info.findInstr(Name))), '1', Sym);
  }

  std::string expression(ArrayRef<uint64_t> Prog) const {
    std::vector<std::string> St;
    for (uint64_t W : Prog) {
      auto It = Text.find(W);
      if (It == Text.end())
        continue;
      auto &[Kind, Sym] = It->second;
      if (Kind == 'x') {
        St.push_back(Sym);
      } else if (Kind == '1' && !St.empty()) {
        St.back() = Sym + "(" + St.back() + ")";
      } else if (Kind == '2' && St.size() >= 2) {
        std::string A = St.back();
        St.pop_back();
        St.back() = "(" + A + " " + Sym + " " + St.back() + ")";
      }
    }
    return St.empty() ? "0" : St.back();
  }
};
} // namespace

/// (instruction count, transcendental fraction) of a stub.
static std::pair<unsigned, double> describe(StringRef Stub) {
  unsigned N = 0, T = 0;
  SmallVector<StringRef, 32> Lines;
  Stub.split(Lines, '\n');
  for (StringRef L : Lines) {
    L = L.trim();
    if (!L.endswith(";") || L.startswith(".reg") || L.startswith("//"))
      continue;
    ++N;
    for (StringRef Op :
         {"sin.", "cos.", "ex2.", "lg2.", "rsqrt.", "sqrt.", "rcp.", "tanh."})
      T += L.startswith(Op);
  }
  return {N, N ? double(T) / N : 0.0};
}

static double seconds(std::chrono::steady_clock::time_point Since) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - Since)
      .count();
}

static bool checkRange(StringRef Flag, uint64_t V, uint64_t Lo, uint64_t Hi) {
  if (V >= Lo && V <= Hi)
    return true;
  WithColor::error() << "--" << Flag << "=" << V << ": expected " << Lo
                     << " to " << Hi << "\n";
  return false;
}

int main(int Argc, char **Argv) {
  InitLLVM X(Argc, Argv);
  hideUnrelatedToolOptions(&Category);
  cl::ParseCommandLineOptions(Argc, Argv,
                              "MAP-Elites over Stack PTX programs: generate, "
                              "pack, compile, evaluate\n");
  if (!checkRange("generations", Generations, 1, 100000) ||
      !checkRange("population", Population, 1, 1 << 20) ||
      !checkRange("pack-size", PackSize, 1, 4096))
    return 1;

  const StackInfo &Info = getDefaultStackInfo();
  Alphabet Genes(Info);
  std::vector<Register> Regs = {
      {"x0", uint16_t(Info.findStack("F32")), RegKind::In},
      {"x1", uint16_t(Info.findStack("F32")), RegKind::In},
      {"y", uint16_t(Info.findStack("F32")), RegKind::Out}};
  const uint32_t Request = NumInputs;
  StackPtxContext Ctx(Info, [] {
    StackPtxOptions O;
    O.TargetSm = 80;
    return O;
  }());

  auto Compiler = BackendName.empty() ? createDefaultPTXCompiler()
                                      : createPTXCompiler(BackendName);
  if (!Compiler) {
    WithColor::error() << toString(Compiler.takeError()) << "\n";
    return 1;
  }

  // A GPU when the driver opens one (and --cpu is not given).
  std::unique_ptr<runtime::Context> Gpu;
  if (!Cpu) {
    if (auto Driver = runtime::CudaDriver::get()) {
      if (auto C = runtime::Context::create(*Driver))
        Gpu = std::move(*C);
      else
        consumeError(C.takeError());
    } else {
      consumeError(Driver.takeError());
    }
  }

  // Sample points: inputs as the packed kernels read them (in[j*n + e]).
  StackRng Rng(Seed);
  std::vector<float> In(NumInputs * NumPoints);
  for (float &V : In)
    V = float(Rng.below(1 << 20)) / float(1 << 20) * 4.0f - 2.0f;
  std::vector<double> Want(NumPoints);
  for (unsigned E = 0; E < NumPoints; ++E)
    Want[E] = target(In[E], In[NumPoints + E]);
  std::optional<runtime::DeviceBuffer> InBuf;
  if (Gpu) {
    auto B = Gpu->allocate(In.size() * 4);
    if (!B || B->copyFromHost(In.data(), In.size() * 4)) {
      WithColor::error() << "cannot copy the inputs to the GPU\n";
      return 1;
    }
    InBuf = std::move(*B);
  }
  outs() << "target y = x0 * x1 + sin(x0) on " << NumPoints
         << " points; evaluating on "
         << (Gpu ? "the GPU (" + Gpu->getDeviceInfo().Name + ")"
                 : std::string("the CPU interpreter"))
         << "; compiling with " << (*Compiler)->getIdentity() << "\n";

  std::vector<Elite> Archive(CountBins * FracBins);
  auto Fitness = [&](ArrayRef<float> Out) {
    double Sum = 0;
    for (unsigned E = 0; E < NumPoints; ++E)
      Sum += (double(Out[E]) - Want[E]) * (double(Out[E]) - Want[E]);
    double Mse = Sum / NumPoints;
    return std::isfinite(Mse) ? 1.0 / (1.0 + Mse) : 0.0;
  };

  double TotalSecs = 0, TotalCpu = 0;
  size_t TotalPrograms = 0, TotalUnique = 0;
  for (unsigned Gen = 0; Gen < Generations; ++Gen) {
    auto Start = std::chrono::steady_clock::now();
    // 1. Generate.
    std::vector<unsigned> Filled;
    for (unsigned C = 0; C < Archive.size(); ++C)
      if (Archive[C].Fitness >= 0)
        Filled.push_back(C);
    std::vector<std::vector<uint64_t>> Children(Population);
    for (std::vector<uint64_t> &Child : Children) {
      if (Filled.empty()) {
        for (unsigned I = 0, N = 1 + Rng.below(MaxWords); I < N; ++I)
          Child.push_back(Genes.Words[Rng.below(Genes.Words.size())]);
      } else {
        Child = Archive[Filled[Rng.below(Filled.size())]].Words;
        mutateProgram(Rng, Child, Genes.Words);
        if (Child.size() > MaxWords)
          Child.resize(MaxWords);
      }
    }
    // 2. Stubs, deduplicated.
    StringMap<unsigned> Seen;
    std::vector<std::string> Stubs;
    std::vector<unsigned> Unique; // child index of each unique stub
    for (unsigned I = 0; I < Children.size(); ++I) {
      auto Stub = Ctx.compile(Program{Children[I], {}}, Regs, Request);
      if (!Stub) {
        WithColor::error() << toString(Stub.takeError()) << "\n";
        return 1;
      }
      if (Seen.try_emplace(*Stub, Stubs.size()).second) {
        Stubs.push_back(Stub->str());
        Unique.push_back(I);
      }
    }
    // 3. Pack.
    auto T0 = std::chrono::steady_clock::now();
    std::vector<std::string> Packs;
    for (size_t First = 0; First < Stubs.size(); First += PackSize) {
      std::vector<StringRef> Refs(
          Stubs.begin() + First,
          Stubs.begin() + std::min<size_t>(First + PackSize, Stubs.size()));
      PackedModuleSpec Spec;
      Spec.NumInputs = NumInputs;
      Spec.SitesPerKernel = PackSize;
      auto Ptx = buildPackedModule(Refs, Spec);
      if (!Ptx) {
        WithColor::error() << toString(Ptx.takeError()) << "\n";
        return 1;
      }
      Packs.push_back(std::move(*Ptx));
    }
    // 4. Compile.
    std::vector<BatchModule> Mods;
    for (size_t P = 0; P < Packs.size(); ++P)
      Mods.push_back({"pack" + std::to_string(P), Packs[P], nullptr});
    CompileOptions Opts;
    Opts.Arch = "sm_80";
    BatchResult R = compileBatch(**Compiler, Mods, Opts);
    if (R.Summary.Failed) {
      for (const ModuleResult &M : R.Modules)
        if (!M.Ok)
          WithColor::error() << M.Error << "\n";
      return 1;
    }
    double Compile = seconds(T0);
    // 5. Evaluate.
    T0 = std::chrono::steady_clock::now();
    std::vector<float> Out(Stubs.size() * NumPoints);
    if (Gpu) {
      for (size_t P = 0; P < Packs.size(); ++P) {
        unsigned Sites =
            unsigned(std::min<size_t>(PackSize, Stubs.size() - P * PackSize));
        const std::string &Cubin = R.Modules[P].Result.Cubin;
        auto Mod = Gpu->loadModule(makeArrayRef(Cubin.data(), Cubin.size()));
        auto OutBuf = Gpu->allocate(size_t(Sites) * NumPoints * 4);
        if (!Mod || !OutBuf) {
          WithColor::error() << "cannot load pack " << P << "\n";
          return 1;
        }
        auto K = Mod->getKernel("mmptx_packed_0");
        runtime::LaunchConfig Cfg;
        Cfg.Grid = {Sites, 1, 1};
        Cfg.Block = {NumPoints, 1, 1};
        uint64_t InAddr = InBuf->getAddress(), OutAddr = OutBuf->getAddress();
        uint32_t N = NumPoints;
        if (!K || Gpu->launchWith(*K, Cfg, InAddr, OutAddr, N) ||
            OutBuf->copyToHost(&Out[P * PackSize * NumPoints],
                               size_t(Sites) * NumPoints * 4)) {
          WithColor::error() << "cannot run pack " << P << "\n";
          return 1;
        }
      }
    } else {
      for (size_t U = 0; U < Stubs.size(); ++U)
        for (unsigned E = 0; E < NumPoints; ++E) {
          uint64_t Inputs[] = {f32Bits(In[E]), f32Bits(In[NumPoints + E]), 0};
          auto V = interpretStackPtx(Ctx, Program{Children[Unique[U]], {}},
                                     Regs, Request, Inputs);
          if (!V) {
            WithColor::error() << toString(V.takeError()) << "\n";
            return 1;
          }
          Out[U * NumPoints + E] = bitsF32(uint32_t((*V)[0]));
        }
    }
    double Evaluate = seconds(T0);
    // 6. The archive.
    for (size_t U = 0; U < Stubs.size(); ++U) {
      double F = Fitness(ArrayRef<float>(&Out[U * NumPoints], NumPoints));
      auto [Count, Frac] = describe(Stubs[U]);
      unsigned Cell = std::min(Count, CountBins - 1) * FracBins +
                      std::min(unsigned(Frac * FracBins), FracBins - 1);
      if (F > Archive[Cell].Fitness)
        Archive[Cell] = {Children[Unique[U]], F, Stubs[U]};
    }
    double Secs = seconds(Start);
    double Qd = 0;
    unsigned Cells = 0, Best = 0;
    for (unsigned C = 0; C < Archive.size(); ++C)
      if (Archive[C].Fitness >= 0) {
        Qd += Archive[C].Fitness;
        ++Cells;
        if (Archive[C].Fitness > Archive[Best].Fitness)
          Best = C;
      }
    TotalSecs += Secs;
    TotalCpu += R.Summary.BusySeconds;
    TotalPrograms += Children.size();
    TotalUnique += Stubs.size();
    outs() << format("gen %3u: %zu programs, %zu unique, %zu packs; compile "
                     "%.3fs evaluate %.3fs; %.0f programs/s; QD %.2f "
                     "coverage %.3f; best mse %.3g: y = ",
                     Gen, Children.size(), Stubs.size(), Packs.size(), Compile,
                     Evaluate, Children.size() / Secs, Qd,
                     double(Cells) / Archive.size(),
                     1.0 / Archive[Best].Fitness - 1.0)
           << Genes.expression(Archive[Best].Words) << "\n";
  }
  outs() << format("%zu programs (%zu unique) in %.2f s: %.0f programs/s end "
                   "to end; packed compile %.0f programs per CPU-second\n",
                   TotalPrograms, TotalUnique, TotalSecs,
                   TotalPrograms / TotalSecs,
                   TotalCpu > 0 ? TotalUnique / TotalCpu : 0.0);
  return 0;
}
