//===- variants.cpp - One CuTe GEMM, many semiring variants ---------------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The main job of mmptx, end to end, as a program over its libraries (this
/// file is meant to be read as documentation of the API). With the time of
/// each stage:
///
///  1. annotate    a source with comment-form sites (`/* PTX_INJECT`) is
///                 rewritten into marker asm (mmptx/Annotate);
///  2. CUDA -> PTX NVRTC in this process, through the content-keyed cache:
///                 a second run hits (mmptx/Frontend). Where NVRTC cannot
///                 compile the source, --ptx names PTX made by nvcc. The
///                 PTX is the template of every variant: the module-scope
///                 variables and functions nothing refers to (thousands of
///                 CuTe statics with -default-device) are pruned once here
///                 (mmptx/Transforms/PruneUnusedGlobals.h), unless
///                 --no-prune;
///  3. sites       the inject sites of the PTX (mmptx/Inject);
///  4. variants    N variants of the semiring programs of
///                 examples/semiring-gemm (plus-times, L1, L2, max-plus):
///                 the four themselves, then random mutations of them (1-3
///                 words replaced, inserted or deleted; any word sequence
///                 compiles, so every mutation is a valid variant), each
///                 compiled by Stack PTX and rendered into the kernel, one
///                 StackPtxContext per thread (mmptx/Stack);
///  5. cubin       every rendered module to cubin on all cores; identical
///                 renders compiled once, each unique one looked up in the
///                 PTX -> cubin cache first (mmptx/Backend);
///  6. GPU         where a driver and a device are usable, every distinct
///                 cubin is loaded and run on random matrices, and its
///                 result is compared with a CPU reference computed by the
///                 Stack PTX interpreter from that variant's own programs
///                 (mmptx/Runtime, mmptx/Stack/StackInterpreter.h).
///
/// Exit status: 0, or 1 on an error or a variant whose GPU result differs
/// from the reference.
///
//===----------------------------------------------------------------------===//

#include "mmptx/Annotate/Annotate.h"
#include "mmptx/Backend/Batch.h"
#include "mmptx/Frontend/Nvrtc.h"
#include "mmptx/Inject/InjectModule.h"
#include "mmptx/Runtime/Context.h"
#include "mmptx/Stack/StackInfo.h"
#include "mmptx/Stack/StackInterpreter.h"
#include "mmptx/Stack/StackRandom.h"
#include "mmptx/Stack/StackText.h"
#include "mmptx/Stub/StubBuilder.h"
#include "mmptx/Support/ToolInit.h"
#include "mmptx/Support/ToolOutput.h"
#include "mmptx/Transforms/PruneUnusedGlobals.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/Threading.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <cmath>
#include <cstring>
#include <optional>
#include <thread>

using namespace llvm;
using namespace mmptx;
using namespace mmptx::stack;

static cl::OptionCategory Category("mmptx-example-cute-gemm Options");
static cl::opt<std::string>
    Source(cl::Positional, cl::desc("[kernel.cu (default: the CuTe GEMM)]"),
           cl::init(MMPTX_EXAMPLE_DIR "/cute_gemm.cu"), cl::cat(Category));
static cl::opt<unsigned> NumVariants("variants",
                                     cl::desc("Variants to make, 1 to 65536 "
                                              "(default 128)"),
                                     cl::value_desc("N"), cl::init(128),
                                     cl::cat(Category));
static cl::opt<unsigned> Jobs("jobs",
                              cl::desc("Threads, at most 1024 (0: one per "
                                       "core)"),
                              cl::value_desc("J"), cl::init(0),
                              cl::cat(Category));
static cl::opt<std::string>
    Arch("arch", cl::desc("GPU architecture (default: the GPU's, else sm_80)"),
         cl::value_desc("sm_N"), cl::init("sm_80"), cl::cat(Category));
static cl::opt<std::string>
    BackendName("backend",
                cl::desc("nvptxcompiler, nvjitlink or ptxas (default: the "
                         "first available)"),
                cl::value_desc("name"), cl::cat(Category));
static cl::opt<std::string> CacheDir(
    "cache-dir",
    cl::desc("Cache directory for CUDA -> PTX and PTX -> cubin "
             "(default: $MMPTX_CACHE_DIR, else $XDG_CACHE_HOME/mmptx, else "
             "~/.cache/mmptx)"),
    cl::value_desc("dir"), cl::cat(Category));
static cl::opt<bool> NoCache("no-cache", cl::desc("Do not use a cache"),
                             cl::cat(Category));
static cl::opt<uint64_t> Seed("seed", cl::desc("Random seed (default 1)"),
                              cl::value_desc("S"), cl::init(1),
                              cl::cat(Category));
static cl::opt<std::string>
    PtxFile("ptx",
            cl::desc("PTX of the kernel made by nvcc: used where NVRTC is "
                     "absent or cannot compile the source"),
            cl::value_desc("file"), cl::cat(Category));
static cl::opt<std::string>
    SemiringDir("semirings", cl::desc("Directory of the Stack PTX programs"),
                cl::value_desc("dir"), cl::init(MMPTX_SEMIRING_DIR),
                cl::cat(Category));
static cl::opt<bool>
    NoPrune("no-prune",
            cl::desc("Keep the kernel's unreferenced module-scope variables "
                     "and functions (by default they are removed once, "
                     "before the variants are made)"),
            cl::cat(Category));
static cl::list<std::string> IncludeDirs("I", cl::desc("Include directory"),
                                         cl::value_desc("dir"), cl::Prefix,
                                         cl::cat(Category));
static cl::opt<unsigned> MatrixSize("size",
                                    cl::desc("GPU check: M = N (a multiple of "
                                             "64 up to 4096; default 64)"),
                                    cl::init(64), cl::cat(Category));
static cl::opt<unsigned> Depth("depth",
                               cl::desc("GPU check: K (a multiple of 8 up "
                                        "to 4096; default 32)"),
                               cl::init(32), cl::cat(Category));

namespace {
using Clock = std::chrono::steady_clock;
double secondsSince(Clock::time_point T0) {
  return std::chrono::duration<double>(Clock::now() - T0).count();
}
std::string ms(double Seconds) {
  std::string S;
  raw_string_ostream(S) << format("%.1f ms", Seconds * 1e3);
  return S;
}

/// Runs Fn(Thread, Begin, End) over [0, N) split across Threads threads.
template <typename FnT> void parallelFor(unsigned Threads, size_t N, FnT Fn) {
  std::vector<std::thread> Workers;
  for (unsigned T = 0; T < Threads; ++T)
    Workers.emplace_back(Fn, T, N * T / Threads, N * (T + 1) / Threads);
  for (std::thread &W : Workers)
    W.join();
}

/// A Stack PTX program bound to the variables of one inject.
struct BoundProgram {
  StackProgram Text;
  /// Its registers typed against the inject's variables (mmptx/Stub).
  std::optional<stub::StackBinding> Binding;
  std::string Name;
};

/// One variant: the semiring it mutates, its `mma` words, its PTX.
struct Variant {
  unsigned Base = 0;
  std::vector<uint64_t> Words;
  /// The `mma` stub; the PTX is rendered from it into a reused buffer when
  /// it is compiled, never kept per variant.
  std::string MmaStub;
};

// The four semirings: name, `mma` program, `epilogue` program.
const char *const Semirings[][3] = {
    {"gemm", "gemm", "epilogue-identity"},
    {"l1", "l1", "epilogue-identity"},
    {"l2", "l2", "epilogue-sqrt"},
    {"maxplus", "maxplus", "epilogue-identity"}};
} // namespace

/// Parses \p Path and binds its registers, by name, to the variables of
/// inject \p InjectName (the programs name the kernel's variables: a, b,
/// acc), with every check `mmptx-opt --stub-gen` makes.
static Expected<BoundProgram> loadProgram(const InjectModule &M,
                                          StringRef InjectName,
                                          const std::string &Path) {
  const Inject *Inj = M.lookupInject(InjectName);
  if (!Inj)
    return createStringError(inconvertibleErrorCode(),
                             "the PTX has no inject '%s'",
                             InjectName.str().c_str());
  auto Buf = MemoryBuffer::getFile(Path);
  if (!Buf)
    return createStringError(Buf.getError(), "cannot read '%s'", Path.c_str());
  SourceMgr Sm;
  unsigned Id = Sm.AddNewSourceBuffer(std::move(*Buf), SMLoc());
  BoundProgram P;
  P.Name = Path;
  auto Prog = parseStackProgram(Sm, Id, getDefaultStackInfo());
  if (!Prog)
    return Prog.takeError();
  P.Text = std::move(*Prog);
  auto Binding = stub::StackBinding::create(M, *Inj, P.Text, Sm, Id,
                                            getDefaultStackInfo());
  if (!Binding)
    return Binding.takeError();
  P.Binding = std::move(*Binding);
  return P;
}

/// Stage 2: the kernel's PTX, from NVRTC through the cache, else from --ptx.
static Expected<std::string> getKernelPtx(StringRef Text, ContentCache *Cache) {
  CudaCompileOptions Opts;
  Opts.Arch = Arch;
  Opts.IncludeDirs = IncludeDirs;
  for (const char *Dir :
       {MMPTX_CUTLASS_INCLUDE, MMPTX_INCLUDE_DIR, MMPTX_GEN_INCLUDE_DIR})
    if (*Dir)
      Opts.IncludeDirs.push_back(Dir);
  // CuTe's unannotated constexpr helpers are device functions too.
  Opts.ExtraOptions = {"-std=c++17", "-default-device"};
  std::string Why = "NVRTC is not available in this build";
  if (isNvrtcAvailable()) {
    auto T0 = Clock::now();
    auto R = compileCudaToPtx(Text, Source.getValue(), Opts, Cache);
    if (R) {
      outs() << "   " << getNvrtcIdentity() << ": "
             << (R->FromCache ? "cache hit"
                 : Cache      ? "cache miss, compiled"
                              : "compiled")
             << " in " << ms(secondsSince(T0)) << " (" << R->Ptx.size()
             << " bytes of PTX)\n";
      if (!R->CacheNote.empty())
        outs() << "   note: " << R->CacheNote << "\n";
      return std::move(R->Ptx);
    }
    Why = toString(R.takeError());
    Why = StringRef(Why).split('\n').first.str();
  }
  if (PtxFile.empty())
    return createStringError(inconvertibleErrorCode(),
                             "%s; --ptx names PTX made by nvcc instead",
                             Why.c_str());
  auto Buf = MemoryBuffer::getFile(PtxFile);
  if (!Buf)
    return createStringError(Buf.getError(), "cannot read '%s'",
                             PtxFile.c_str());
  outs() << "   " << Why << ":\n   reading the PTX nvcc made, " << PtxFile
         << "\n";
  return (*Buf)->getBuffer().str();
}

/// Stack PTX options for --arch: a word the target lacks is invalid, in the
/// compiler and in the interpreter alike.
static StackPtxOptions getStackOptions() {
  StackPtxOptions Opts;
  StringRef(Arch.getValue())
      .drop_front(3)
      .take_while(isDigit)
      .getAsInteger(10, Opts.TargetSm);
  return Opts;
}

/// Stage 6: the CPU reference of element (\p I, \p J) of the variant whose
/// programs are \p Mma and \p Epi, on the inputs \p A and \p B.
static Expected<float>
referenceElement(StackPtxContext &Ctx, const BoundProgram &Mma,
                 const std::vector<uint64_t> &Words, const BoundProgram &Epi,
                 ArrayRef<float> A, ArrayRef<float> B, unsigned I, unsigned J) {
  const unsigned M = MatrixSize, N = MatrixSize, K = Depth;
  // Inputs in the programs' register order; the kernel starts from acc = 0.
  std::vector<uint64_t> In(Mma.Binding->getRegisters().size(), 0);
  uint64_t Acc = f32Bits(0);
  Program Prog{Words, {}};
  for (unsigned KK = 0; KK < K; ++KK) {
    for (size_t R = 0; R < In.size(); ++R) {
      StringRef Name = Mma.Text.Registers[R].Name;
      In[R] = Name == "a"   ? f32Bits(A[I + KK * M])
              : Name == "b" ? f32Bits(B[J + KK * N])
                            : Acc;
    }
    auto Out = interpretStackPtx(Ctx, Prog, Mma.Binding->getRegisters(),
                                 Mma.Binding->getRequests(), In);
    if (!Out)
      return Out.takeError();
    Acc = (*Out)[0];
  }
  std::vector<uint64_t> EpiIn(Epi.Binding->getRegisters().size(), 0);
  for (size_t R = 0; R < EpiIn.size(); ++R)
    if (Epi.Text.Registers[R].Name == "acc")
      EpiIn[R] = Acc;
  auto Out =
      interpretStackPtx(Ctx, Epi.Text.getProgram(), Epi.Binding->getRegisters(),
                        Epi.Binding->getRequests(), EpiIn);
  if (!Out)
    return Out.takeError();
  return bitsF32((*Out)[0]);
}

/// What C starts as: a NaN that no kernel makes (the GPU's arithmetic gives
/// the canonical NaN 0x7fffffff, and A and B are finite), so that an element
/// the kernel did not write never matches, even a NaN of the reference.
static constexpr uint32_t UnwrittenBits = 0x7fa5a5a5;

/// Whether a GPU value matches the reference: the same bits, both NaN, or
/// within 1e-3 relative (fma contraction by the PTX compiler, approximate
/// instructions).
static bool matches(float Got, float Want) {
  uint32_t GotBits;
  std::memcpy(&GotBits, &Got, 4);
  if (GotBits == UnwrittenBits)
    return false;
  if (std::isnan(Got) || std::isnan(Want))
    return std::isnan(Got) && std::isnan(Want);
  if (Got == Want)
    return true;
  return std::fabs(Got - Want) <= 1e-3f * (1.0f + std::fabs(Want));
}

/// Stage 6 for one cubin: load, run, read back, compare. \returns the
/// number of mismatching elements.
static Expected<unsigned> runAndCheck(runtime::Context &Ctx, StringRef Cubin,
                                      const BoundProgram &Mma, const Variant &V,
                                      const BoundProgram &Epi,
                                      ArrayRef<float> A, ArrayRef<float> B,
                                      unsigned Threads, double &LoadSeconds,
                                      double &RunSeconds, double &CpuSeconds) {
  using namespace runtime;
  const unsigned M = MatrixSize, N = MatrixSize, K = Depth;
  auto T0 = Clock::now();
  auto Mod = Ctx.loadModule(makeArrayRef(Cubin.data(), Cubin.size()));
  if (!Mod)
    return Mod.takeError();
  auto Kernel = Mod->getKernel("cute_gemm");
  if (!Kernel)
    return Kernel.takeError();
  LoadSeconds += secondsSince(T0);

  T0 = Clock::now();
  auto DA = Ctx.allocate(A.size() * 4), DB = Ctx.allocate(B.size() * 4),
       DC = Ctx.allocate(size_t(M) * N * 4);
  if (!DA || !DB || !DC)
    return joinErrors(joinErrors(DA.takeError(), DB.takeError()),
                      DC.takeError());
  // C starts as UnwrittenBits: an element the kernel does not write cannot
  // match.
  std::vector<uint32_t> Unwritten(size_t(M) * N, UnwrittenBits);
  if (Error E =
          joinErrors(joinErrors(DA->copyFromHost(A.data(), A.size() * 4),
                                DB->copyFromHost(B.data(), B.size() * 4)),
                     DC->copyFromHost(Unwritten.data(), Unwritten.size() * 4)))
    return E;
  int Mi = M, Ni = N, Ki = K;
  if (Error E = Ctx.launchWith(*Kernel, {{M / 64, N / 64, 1}, {256, 1, 1}}, Mi,
                               Ni, Ki, DA->getAddress(), Mi, DB->getAddress(),
                               Ni, DC->getAddress(), Mi))
    return E;
  if (Error E = Ctx.synchronize())
    return E;
  std::vector<float> C(size_t(M) * N);
  if (Error E = DC->copyToHost(C.data(), C.size() * 4))
    return E;
  RunSeconds += secondsSince(T0);

  // The reference, columns split across threads.
  T0 = Clock::now();
  std::vector<unsigned> Bad(Threads, 0);
  std::vector<std::string> Errors(Threads), Firsts(Threads);
  parallelFor(Threads, N, [&](unsigned T, size_t J0, size_t J1) {
    StackPtxContext SCtx(getDefaultStackInfo(), getStackOptions());
    for (size_t J = J0; J < J1 && Errors[T].empty(); ++J)
      for (unsigned I = 0; I < M; ++I) {
        auto Want = referenceElement(SCtx, Mma, V.Words, Epi, A, B, I, J);
        if (!Want) {
          Errors[T] = toString(Want.takeError());
          break;
        }
        float Got = C[I + J * M];
        uint32_t GotBits;
        std::memcpy(&GotBits, &Got, 4);
        if (!matches(Got, *Want) && Bad[T]++ == 0)
          raw_string_ostream(Firsts[T])
              << "C[" << I << "][" << J << "] = "
              << (GotBits == UnwrittenBits ? std::string("never written")
                                           : formatv("{0:g}", Got).str())
              << " on the GPU, " << format("%g", *Want) << " on the CPU";
      }
  });
  CpuSeconds += secondsSince(T0);
  unsigned NumBad = 0;
  for (unsigned T = 0; T < Threads; ++T) {
    if (!Errors[T].empty())
      return createStringError(inconvertibleErrorCode(), Errors[T].c_str());
    if (Bad[T] && !NumBad)
      outs() << "   MISMATCH " << Firsts[T] << "\n";
    NumBad += Bad[T];
  }
  return NumBad;
}

static int fail(Error E) {
  WithColor::error(errs(), "mmptx-example-cute-gemm")
      << toString(std::move(E)) << "\n";
  return 1;
}

int main(int argc, char **argv) {
  InitLLVM X(argc, argv);
  ignoreStderrWriteErrorsAtExit();
  hideUnrelatedToolOptions(&Category);
  cl::ParseCommandLineOptions(
      argc, argv,
      "mmptx-example-cute-gemm: one CuTe GEMM, many semiring variants, end "
      "to end\n\n"
      "  annotate -> CUDA to PTX (NVRTC, cached) -> inject sites -> N "
      "mutated\n"
      "  Stack PTX variants -> render -> PTX to cubin (parallel, "
      "deduplicated,\n"
      "  cached) -> on a GPU: run each and check it against the "
      "interpreter\n");
  // Bounds that keep a mistyped number from exhausting the machine: every
  // variant's PTX is held until it is compiled, and the GPU check holds
  // size x depth matrices.
  const unsigned MaxVariants = 1u << 16, MaxDim = 4096;
  if (MatrixSize == 0 || MatrixSize % 64 || MatrixSize > MaxDim || Depth == 0 ||
      Depth % 8 || Depth > MaxDim)
    return fail(createStringError(
        inconvertibleErrorCode(),
        "--size must be a multiple of 64 and --depth a multiple of 8, both "
        "at most %u (got --size=%u --depth=%u)",
        MaxDim, unsigned(MatrixSize), unsigned(Depth)));
  if (NumVariants == 0 || NumVariants > MaxVariants)
    return fail(createStringError(inconvertibleErrorCode(),
                                  "--variants=%u: expected 1 to %u",
                                  unsigned(NumVariants), MaxVariants));
  if (Jobs > MaxBatchThreads)
    return fail(createStringError(inconvertibleErrorCode(),
                                  "--jobs=%u: at most %u threads",
                                  unsigned(Jobs), MaxBatchThreads));
  CompileOptions ArchCheck;
  ArchCheck.Arch = Arch;
  if (Error E = ArchCheck.validate())
    return fail(std::move(E));
  const unsigned Threads =
      Jobs ? unsigned(Jobs)
           : std::max(1u,
                      unsigned(hardware_concurrency().compute_thread_count()));
  const unsigned N = NumVariants;

  // The PTX compiler of stage 5.
  auto Compiler = createPTXCompiler(StringRef(BackendName));
  if (!Compiler)
    return fail(Compiler.takeError());
  std::unique_ptr<ContentCache> Cache;
  if (!NoCache) {
    std::string Dir = CacheDir.empty() ? getDefaultCacheDirectory() : CacheDir;
    auto C = ContentCache::open(Dir);
    if (!C)
      return fail(C.takeError());
    Cache = std::move(*C);
  }

  // 1. annotate.
  auto T0 = Clock::now();
  auto Buf = MemoryBuffer::getFile(Source);
  if (!Buf)
    return fail(
        createStringError(Buf.getError(), "cannot read '%s'", Source.c_str()));
  std::string Cuda = (*Buf)->getBuffer().str();
  outs() << "== 1. annotate: " << Source << "\n";
  if (StringRef(Cuda).contains("/* PTX_INJECT")) {
    SourceMgr SM;
    unsigned Id = SM.AddNewSourceBuffer(std::move(*Buf), SMLoc());
    std::string Out;
    raw_string_ostream OS(Out);
    auto Sites =
        annotate::annotateSource(SM, Id, annotate::TypeTable::getDefault(), OS);
    if (!Sites)
      return fail(Sites.takeError());
    Cuda = std::move(OS.str());
    outs() << "   " << *Sites << " comment-form sites rewritten in "
           << ms(secondsSince(T0)) << "\n";
  } else {
    outs() << "   no comment-form sites: the source uses PTX_INJECT(...)\n";
  }

  // 2. CUDA -> PTX.
  outs() << "== 2. CUDA -> PTX, once\n";
  auto Ptx = getKernelPtx(Cuda, Cache.get());
  if (!Ptx)
    return fail(Ptx.takeError());
  if (NoPrune) {
    outs() << "   not pruned (--no-prune)\n";
  } else {
    T0 = Clock::now();
    PruneStats Pruned;
    auto Template = prunePTX(*Ptx, PruneOptions(), &Pruned, Source.getValue());
    if (!Template)
      return fail(Template.takeError());
    outs() << "   pruned " << Pruned.Variables << " unreferenced variables and "
           << Pruned.Functions << " functions in " << ms(secondsSince(T0))
           << ": " << Ptx->size() << " -> " << Template->size() << " bytes\n";
    *Ptx = std::move(*Template);
  }

  // The GPU, if there is one: the cubins are built for its architecture
  // (the PTX, for --arch, runs on newer ones). Loaded after NVRTC has run:
  // NVRTC opens libcuda.so.1 itself and would find a fake one.
  std::unique_ptr<runtime::Context> Gpu;
  std::string NoGpu;
  {
    auto Driver = runtime::CudaDriver::get();
    Expected<std::unique_ptr<runtime::Context>> Ctx =
        Driver
            ? runtime::Context::create(*Driver, 0)
            : Expected<std::unique_ptr<runtime::Context>>(Driver.takeError());
    if (Ctx) {
      Gpu = std::move(*Ctx);
      if (!Arch.getNumOccurrences())
        Arch = Gpu->getDeviceInfo().getArch();
      outs() << "== GPU: " << Gpu->getDeviceInfo().Name << " ("
             << Gpu->getDeviceInfo().getArch() << "); cubins for " << Arch
             << "\n";
    } else {
      NoGpu = toString(Ctx.takeError());
      outs() << "== GPU: none (" << NoGpu << "); cubins for " << Arch << "\n";
    }
  }

  // 3. The inject sites.
  T0 = Clock::now();
  auto Kernel = InjectModule::create(*Ptx, Source.getValue());
  if (!Kernel)
    return fail(Kernel.takeError());
  outs() << "== 3. inject sites: ";
  for (const Inject &I : (*Kernel)->injects())
    outs() << I.Name << " x " << I.NumSites << ", ";
  outs() << "found in " << ms(secondsSince(T0)) << "\n";

  // 4. The variants.
  std::vector<BoundProgram> Mmas, Epis;
  for (auto &S : Semirings) {
    auto Mma =
        loadProgram(**Kernel, "mma", SemiringDir + "/" + S[1] + ".stack");
    auto Epi =
        loadProgram(**Kernel, "epilogue", SemiringDir + "/" + S[2] + ".stack");
    if (!Mma || !Epi)
      return fail(joinErrors(Mma.takeError(), Epi.takeError()));
    Mmas.push_back(std::move(*Mma));
    Epis.push_back(std::move(*Epi));
  }
  const StackPtxOptions StackOpts = getStackOptions();
  const StackInfo &Info = getDefaultStackInfo();
  StackRng VocabRng(Seed);
  // Words a mutation may insert: f32 instructions, constants and the three
  // registers (input(0..2): a, b, acc).
  const std::vector<uint64_t> Vocabulary =
      randomF32Program(VocabRng, 256, Info, 3);
  std::vector<Variant> Variants(N);
  std::vector<std::string> Errors(Threads);
  T0 = Clock::now();
  parallelFor(Threads, N, [&](unsigned T, size_t Begin, size_t End) {
    StackPtxContext Ctx(Info, StackOpts);
    std::vector<std::string> EpiStubs;
    for (const BoundProgram &E : Epis) {
      auto Stub = E.Binding->compile(Ctx, E.Text.getProgram());
      EpiStubs.push_back(Stub ? Stub->str() : "");
      if (!Stub)
        Errors[T] = toString(Stub.takeError());
    }
    const Inject *Mma = (*Kernel)->lookupInject("mma");
    const Inject *Epi = (*Kernel)->lookupInject("epilogue");
    std::vector<StringRef> Stubs((*Kernel)->getNumInjects(), "");
    // One render buffer per thread: every variant's PTX is written into the
    // same pages (a fresh string per variant costs a page fault per 4 KB).
    std::string Rendered;
    for (size_t I = Begin; I < End && Errors[T].empty(); ++I) {
      Variant &V = Variants[I];
      // Variant I depends on the seed and I only, not on the threads.
      StackRng Rng(Seed * 0x9E3779B97F4A7C15ULL + I);
      V.Base = I < 4 ? I : Rng.below(4);
      V.Words = Mmas[V.Base].Text.Main;
      if (I >= 4)
        mutateProgram(Rng, V.Words, Vocabulary);
      auto Stub = Mmas[V.Base].Binding->compile(Ctx, Program{V.Words, {}});
      if (!Stub) {
        Errors[T] = toString(Stub.takeError());
        break;
      }
      V.MmaStub = Stub->str();
      Stubs[Mma->Index] = V.MmaStub;
      Stubs[Epi->Index] = EpiStubs[V.Base];
      // Checked here, once; step 5 renders it again, unchecked.
      if (Error E = (*Kernel)->render(Stubs, Rendered))
        Errors[T] = toString(std::move(E));
    }
  });
  double VariantSeconds = secondsSince(T0);
  for (const std::string &E : Errors)
    if (!E.empty())
      return fail(createStringError(inconvertibleErrorCode(), E.c_str()));
  // The epilogue stubs of the semirings, for step 5's renders.
  std::vector<std::string> EpiStubText;
  {
    StackPtxContext Ctx(Info, StackOpts);
    for (const BoundProgram &E : Epis) {
      auto Stub = E.Binding->compile(Ctx, E.Text.getProgram());
      if (!Stub)
        return fail(Stub.takeError());
      EpiStubText.push_back(Stub->str());
    }
  }
  outs() << "== 4. " << N << " variants (the 4 semirings, then mutations): "
         << "Stack PTX compile + render on " << Threads << " threads in "
         << ms(VariantSeconds) << ", "
         << format("%.1f", VariantSeconds * 1e6 * Threads / N)
         << " us per variant per thread\n";

  // 5. PTX -> cubin: each variant rendered into its worker's reused buffer
  // right before it is compiled.
  RenderedModules Modules;
  Modules.Size = N;
  const Inject *MmaInject = (*Kernel)->lookupInject("mma");
  const Inject *EpiInject = (*Kernel)->lookupInject("epilogue");
  Modules.Render = [&](size_t I, std::string &Out) {
    std::vector<StringRef> Stubs((*Kernel)->getNumInjects(), "");
    Stubs[MmaInject->Index] = Variants[I].MmaStub;
    Stubs[EpiInject->Index] = EpiStubText[Variants[I].Base];
    RenderOptions Unchecked;
    Unchecked.CheckStubs = false;
    return (*Kernel)->render(Stubs, Out, Unchecked);
  };
  Modules.Name = [](size_t I) { return "variant" + std::to_string(I); };
  CompileOptions COpts;
  COpts.Arch = Arch;
  if (Error E = COpts.validate())
    return fail(std::move(E));
  BatchOptions BOpts;
  BOpts.Threads = Threads;
  BOpts.Cache = Cache.get();
  outs() << "== 5. PTX -> cubin\n";
  BatchResult Batch = compileRenderedBatch(**Compiler, Modules, COpts, BOpts);
  BatchReportContext Report;
  Report.Tool = "cubins";
  Report.Backend = (*Compiler)->getIdentity();
  Report.Arch = Arch;
  Report.CacheDir = Cache ? Cache->getDirectory().str() : "";
  std::string Text;
  raw_string_ostream OS(Text);
  printBatchSummary(OS, Batch, Report);
  for (StringRef Line : split(StringRef(OS.str()).rtrim(), '\n'))
    outs() << "   " << Line << "\n";
  for (const ModuleResult &R : Batch.Modules)
    if (!R.Ok)
      return fail(createStringError(inconvertibleErrorCode(), R.Error.c_str()));

  const BatchSummary &S = Batch.Summary;
  double Total = VariantSeconds + S.WallSeconds;
  outs() << "== summary\n"
         << format("   variants: %u in %.3f s: %.1f variants/s (Stack PTX + "
                   "render %.1f%%, PTX -> cubin %.1f%%)\n",
                   N, Total, N / Total, 100 * VariantSeconds / Total,
                   100 * S.WallSeconds / Total)
         << format("   deduplication: %zu unique of %u (%.1f%% duplicates); "
                   "cache hits: %zu of %zu unique\n",
                   S.Unique, N, 100.0 * S.Duplicates / N, S.CacheHits,
                   S.Unique);

  // 6. On the GPU.
  if (!Gpu) {
    outs() << "== 6. GPU check: skipped, no usable GPU (" << NoGpu << ")\n";
    return 0;
  }
  outs() << "== 6. GPU check: each distinct cubin run on " << MatrixSize
         << " x " << MatrixSize << " x " << Depth
         << " random matrices, against the interpreter\n";
  std::vector<float> A(size_t(MatrixSize) * Depth), B(A.size());
  StackRng Data(Seed);
  for (float &F : A)
    F = float(Data.below(1u << 24)) / float(1u << 23) - 1.0f;
  for (float &F : B)
    F = float(Data.below(1u << 24)) / float(1u << 23) - 1.0f;
  double Load = 0, Run = 0, Cpu = 0;
  unsigned Checked = 0, Failed = 0;
  T0 = Clock::now();
  for (unsigned I = 0; I < N; ++I) {
    if (Batch.Modules[I].Source == ModuleResult::Duplicate)
      continue;
    const Variant &V = Variants[I];
    auto Bad = runAndCheck(*Gpu, Batch.Modules[I].Result.Cubin, Mmas[V.Base], V,
                           Epis[V.Base], A, B, Threads, Load, Run, Cpu);
    if (!Bad)
      return fail(Bad.takeError());
    ++Checked;
    if (*Bad) {
      ++Failed;
      outs() << "   MISMATCH variant " << I << " (" << Semirings[V.Base][0]
             << (I < 4 ? "" : ", mutated") << "): " << *Bad
             << " elements differ\n";
    }
  }
  double CheckSeconds = secondsSince(T0);
  outs() << format("   checked %u distinct variants (%u failed) in %.3f s: "
                   "%.1f variants/s; ",
                   Checked, Failed, CheckSeconds, Checked / CheckSeconds)
         << "module load " << ms(Load / Checked) << ", run "
         << ms(Run / Checked) << ", CPU reference " << ms(Cpu / Checked)
         << " per variant\n";
  outs() << (Failed ? "FAILED\n" : "PASSED\n");
  return Failed ? 1 : 0;
}
