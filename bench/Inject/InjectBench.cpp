//===- InjectBench.cpp - PTX Inject create and render ---------------------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The hot path of PTX Inject on bench/corpus: create (scan + check + build
/// the template) and render (one stub per inject), with memcpy of the same
/// number of bytes as the ceiling for render; a synthetic many-site,
/// many-name case that shows creation stays linear; the memory a handle
/// keeps per input byte; and (--cold-report) a first create in fresh
/// processes. Run: build/bin/mmptx-bench-inject.
///
//===----------------------------------------------------------------------===//

#include "mmptx/Inject/InjectModule.h"
#include "mmptx/Parser/Parser.h"

#include "llvm/Support/MemoryBuffer.h"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <map>

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace mmptx;

static const char *const Files[] = {"anchor_gemm_kernel.ptx",
                                    "anchor_gemm_many_kernels.ptx",
                                    "ptx_inject_simple_kernel.ptx"};

static const std::string &corpus(int64_t Which) {
  static std::string Texts[3];
  if (Texts[Which].empty()) {
    std::string Path = std::string(MMPTX_CORPUS_DIR) + "/" + Files[Which];
    auto Buf = llvm::MemoryBuffer::getFile(Path);
    if (!Buf) {
      fprintf(stderr, "cannot read %s\n", Path.c_str());
      exit(1);
    }
    Texts[Which] = (*Buf)->getBuffer().str();
  }
  return Texts[Which];
}

/// PTX with \p NumSites sites over \p NumNames injects of two f32
/// variables, each in its normalised scope like the device header's output.
static const std::string &synthetic(int64_t NumSites, int64_t NumNames) {
  static std::map<std::pair<int64_t, int64_t>, std::string> Cache;
  std::string &S = Cache[{NumSites, NumNames}];
  if (!S.empty())
    return S;
  S = ".version 9.0\n.target sm_80\n.address_size 64\n\n"
      ".visible .entry k()\n{\n\t.reg .f32 %f<3>;\n";
  for (int64_t I = 0; I < NumSites; ++I) {
    std::string N = std::to_string(I % NumNames);
    S += "\t// begin inline asm\n\t{\n\t.reg .f32 %_x0;\n\t.reg .f32 %_x1;\n"
         "\tmov.f32 %_x0, %f1;\n\tmov.f32 %_x1, %f2;\n"
         "\t// PTX_INJECT_START site_" +
         N +
         "\n"
         "\t// _x0 m f32 F32 acc\n\t// _x1 i f32 F32 v\n"
         "\t// PTX_INJECT_END\n\tmov.f32 %f1, %_x0;\n\t}\n"
         "\t// end inline asm\n";
  }
  S += "\tret;\n}\n";
  return S;
}

/// \p Trusted skips the structural parse and the site checks.
static std::unique_ptr<InjectModule> createOrDie(const std::string &Text,
                                                 bool Trusted = false) {
  InjectOptions Opts;
  Opts.Trusted = Trusted;
  auto M = InjectModule::create(Text, "bench", Opts);
  if (!M) {
    llvm::errs() << toString(M.takeError()) << '\n';
    exit(1);
  }
  return std::move(*M);
}

/// Stubs shaped like Stack PTX output for the gemm injects.
static std::vector<llvm::StringRef> stubsFor(const InjectModule &M) {
  std::vector<llvm::StringRef> Stubs;
  for (const Inject &Inj : M.injects()) {
    if (Inj.Name == "mma")
      Stubs.push_back("\t{\n\t.reg .f32 %_a0;\n\tfma.rn.f32 %_a0, %_x1, %_x2, "
                      "%_x0;\n\tmov.f32 %_x0, %_a0;\n\t}");
    else if (Inj.Name == "epilogue")
      Stubs.push_back("\tadd.ftz.f32 %_x0, %_x1, %_x2;");
    else
      Stubs.push_back("\tmul.ftz.f32 %_x0, %_x0, 0f3F800000;");
  }
  return Stubs;
}

/// Args: the corpus file, and 1 for the default checked create or 0 for
/// trusted input (markers only).
static void BM_Create(benchmark::State &St) {
  const std::string &Text = corpus(St.range(0));
  size_t Memory = 0, Sites = 0;
  for (auto _ : St) {
    auto M = createOrDie(Text, /*trusted=*/!St.range(1));
    Memory = M->getMemoryUsage();
    Sites = M->sites().size();
    benchmark::DoNotOptimize(M.get());
  }
  St.SetBytesProcessed(St.iterations() * Text.size());
  St.counters["sites"] = Sites;
  St.counters["handle_bytes"] = Memory;
  St.counters["handle_per_input_byte"] = double(Memory) / Text.size();
  St.SetLabel(std::string(Files[St.range(0)]) +
              (St.range(1) ? " checked" : " trusted"));
}
BENCHMARK(BM_Create)
    ->ArgsProduct({{0, 1, 2}, {1, 0}})
    ->Unit(benchmark::kMicrosecond);

static void BM_CreateFromModule(benchmark::State &St) {
  const std::string &Text = corpus(St.range(0));
  auto Pm = parsePTXString(Text, "bench", /*Verify=*/false);
  if (!Pm) {
    llvm::consumeError(Pm.takeError());
    St.SkipWithError("parse failed");
    return;
  }
  for (auto _ : St) {
    auto M = InjectModule::create(**Pm);
    if (!M) {
      llvm::consumeError(M.takeError());
      St.SkipWithError("create failed");
      return;
    }
    benchmark::DoNotOptimize(M->get());
  }
  St.SetBytesProcessed(St.iterations() * Text.size());
  St.SetLabel(Files[St.range(0)]);
}
BENCHMARK(BM_CreateFromModule)->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);

/// Args: the corpus file, and 1 to check the stubs (the default) or 0 for
/// trusted stubs.
static void BM_RenderBuffer(benchmark::State &St) {
  auto M = createOrDie(corpus(St.range(0)));
  std::vector<llvm::StringRef> Stubs = stubsFor(*M);
  size_t Size = llvm::cantFail(M->renderedSize(Stubs));
  std::vector<char> Buf(Size);
  RenderOptions Opts;
  Opts.CheckStubs = St.range(1);
  for (auto _ : St) {
    auto N = M->render(Stubs, Buf.data(), Buf.size(), Opts);
    if (!N) {
      llvm::consumeError(N.takeError());
      St.SkipWithError("render failed");
      return;
    }
    benchmark::DoNotOptimize(Buf.data());
    benchmark::ClobberMemory();
  }
  St.SetBytesProcessed(St.iterations() * Size);
  St.SetLabel(std::string(Files[St.range(0)]) +
              (St.range(1) ? " checked" : " unchecked"));
}
BENCHMARK(BM_RenderBuffer)
    ->ArgsProduct({{0, 1, 2}, {1, 0}})
    ->Unit(benchmark::kMicrosecond);

static void BM_RenderString(benchmark::State &St) {
  auto M = createOrDie(corpus(St.range(0)));
  std::vector<llvm::StringRef> Stubs = stubsFor(*M);
  size_t Size = llvm::cantFail(M->renderedSize(Stubs));
  for (auto _ : St) {
    std::string Out;
    if (llvm::Error E = M->render(Stubs, Out)) {
      llvm::consumeError(std::move(E));
      St.SkipWithError("render failed");
      return;
    }
    benchmark::DoNotOptimize(Out.data());
  }
  St.SetBytesProcessed(St.iterations() * Size);
  St.SetLabel(Files[St.range(0)]);
}
BENCHMARK(BM_RenderString)->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);

/// The ceiling for render: one memcpy of the rendered size.
static void BM_Memcpy(benchmark::State &St) {
  auto M = createOrDie(corpus(St.range(0)));
  size_t Size = llvm::cantFail(M->renderedSize(stubsFor(*M)));
  std::vector<char> Src(Size, 'x'), Dst(Size);
  for (auto _ : St) {
    memcpy(Dst.data(), Src.data(), Size);
    benchmark::DoNotOptimize(Dst.data());
    benchmark::ClobberMemory();
  }
  St.SetBytesProcessed(St.iterations() * Size);
  St.SetLabel(Files[St.range(0)]);
}
BENCHMARK(BM_Memcpy)->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);

/// Sites/names: 10k/1k and 100k/10k (both ten sites a name), and 100k sites
/// with 1k and 100k names, against 10k sites with 10k names: the cost is
/// linear in sites and names, a first site costing more than a copy.
static void BM_CreateSynthetic(benchmark::State &St) {
  const std::string &Text = synthetic(St.range(0), St.range(1));
  size_t Memory = 0;
  // The marker scanner's scaling; the checks add a constant per site.
  for (auto _ : St) {
    auto M = createOrDie(Text, /*trusted=*/true);
    Memory = M->getMemoryUsage();
    benchmark::DoNotOptimize(M.get());
  }
  St.SetBytesProcessed(St.iterations() * Text.size());
  // Seconds per site, printed with an SI prefix (e.g. 75n = 75 ns).
  St.counters["time_per_site"] = benchmark::Counter(
      double(St.range(0)), benchmark::Counter::kIsIterationInvariantRate |
                               benchmark::Counter::kInvert);
  St.counters["handle_bytes"] = Memory;
  St.counters["handle_per_input_byte"] = double(Memory) / Text.size();
}
BENCHMARK(BM_CreateSynthetic)
    ->Args({10000, 1000})
    ->Args({100000, 10000})
    ->Args({100000, 1000})
    ->Args({10000, 10000})
    ->Args({100000, 100000})
    ->Unit(benchmark::kMicrosecond);

static void BM_RenderSynthetic(benchmark::State &St) {
  auto M = createOrDie(synthetic(St.range(0), St.range(1)));
  std::vector<llvm::StringRef> Stubs(M->getNumInjects(),
                                     "\tadd.ftz.f32 %_x0, %_x0, %_x1;");
  size_t Size = llvm::cantFail(M->renderedSize(Stubs));
  std::vector<char> Buf(Size);
  RenderOptions Unchecked;
  Unchecked.CheckStubs = false;
  for (auto _ : St) {
    llvm::cantFail(M->render(Stubs, Buf.data(), Buf.size(), Unchecked));
    benchmark::DoNotOptimize(Buf.data());
    benchmark::ClobberMemory();
  }
  St.SetBytesProcessed(St.iterations() * Size);
}
BENCHMARK(BM_RenderSynthetic)
    ->Args({100000, 10000})
    ->Unit(benchmark::kMicrosecond);

/// Args: the template (0: anchor_gemm_kernel.ptx, 1: the CuTe GEMM of
/// test/RealWorld, 141 KB, 144 sites), and where each of 256 variants is
/// rendered: 0 into a fresh string per variant, all kept until the batch is
/// done (as a batch of strings holds them), 1 into one reused buffer (as
/// compileRenderedBatch's workers and the CuTe demo do). Counters: page
/// faults and CPU time per variant.
static void BM_RenderVariants(benchmark::State &St) {
  static std::string CuteText;
  if (St.range(0) == 1 && CuteText.empty()) {
    auto Buf = llvm::MemoryBuffer::getFile(MMPTX_CORPUS_DIR
                                           "/../../test/RealWorld/Inputs/"
                                           "cute_gemm.sm_80.lineinfo.ptx");
    if (!Buf) {
      St.SkipWithError("cannot read the CuTe GEMM");
      return;
    }
    CuteText = (*Buf)->getBuffer().str();
  }
  const std::string &Text = St.range(0) == 1 ? CuteText : corpus(0);
  std::unique_ptr<InjectModule> M = createOrDie(Text, /*Trusted=*/true);
  std::vector<llvm::StringRef> Stubs = stubsFor(*M);
  // Variants differ in their mma stub, as mutated programs do.
  std::vector<std::string> MmaStubs;
  for (int K = 0; K != 8; ++K)
    MmaStubs.push_back("\t{\n\t.reg .f32 %_a0;\n\tfma.rn.f32 %_a0, %_x1, "
                       "%_x2, %_x0;\n\tadd.ftz.f32 %_x0, %_a0, 0f3F8000" +
                       std::to_string(10 + K) + ";\n\t}");
  const Inject *Mma = M->lookupInject("mma");
  constexpr int Variants = 256;
  RenderOptions Unchecked;
  Unchecked.CheckStubs = false;
  bool Reuse = St.range(1);
  long Faults = 0;
  std::string Buffer;
  for (auto _ : St) {
    struct rusage Before, After;
    getrusage(RUSAGE_SELF, &Before);
    std::vector<std::string> Kept;
    for (int V = 0; V != Variants; ++V) {
      if (Mma)
        Stubs[Mma->Index] = MmaStubs[V % MmaStubs.size()];
      std::string &Out = Reuse ? Buffer : (Kept.emplace_back(), Kept.back());
      if (llvm::Error E = M->render(Stubs, Out, Unchecked)) {
        St.SkipWithError(toString(std::move(E)).c_str());
        return;
      }
      benchmark::DoNotOptimize(Out.data());
    }
    getrusage(RUSAGE_SELF, &After);
    Faults += After.ru_minflt - Before.ru_minflt;
  }
  St.counters["faults_per_variant"] =
      double(Faults) / (double(St.iterations()) * Variants);
  St.counters["variants"] = benchmark::Counter(
      double(St.iterations()) * Variants, benchmark::Counter::kIsRate);
  St.SetBytesProcessed(St.iterations() * Variants * int64_t(Text.size()));
  St.SetLabel(std::string(St.range(0) ? "cute_gemm" : "anchor_gemm") +
              (Reuse ? ", reused buffer" : ", fresh string per variant"));
}
BENCHMARK(BM_RenderVariants)
    ->Args({0, 0})
    ->Args({0, 1})
    ->Args({1, 0})
    ->Args({1, 1})
    ->Unit(benchmark::kMillisecond);

/// \returns \p File as given if it names a path (has a '/'), else the
/// corpus file of that name.
static std::string inputPath(llvm::StringRef File) {
  if (File.contains('/'))
    return File.str();
  return (llvm::Twine(MMPTX_CORPUS_DIR) + "/" + File).str();
}

/// Reports that \p File (see inputPath()) cannot be read; \returns 1.
static int cannotRead(llvm::StringRef File, std::error_code EC) {
  fprintf(stderr, "mmptx-bench-inject: cannot read '%s': %s\n",
          inputPath(File).c_str(), EC.message().c_str());
  return 1;
}

/// `--cold=checked|trusted [FILE]`: times the first create of this process
/// on corpus file FILE (anchor_gemm_kernel.ptx by default; page faults and
/// cold caches included, as a program that makes one handle sees them) and
/// prints it with the page faults it took and the handle's bytes. The text
/// is read into memory first, as a caller holds it. Each run is one sample;
/// --cold-report takes several.
static int coldCreate(llvm::StringRef Mode, const char *File) {
  auto Buf = llvm::MemoryBuffer::getFile(inputPath(File), /*IsText=*/false,
                                         /*RequiresNullTerminator=*/false,
                                         /*IsVolatile=*/true);
  if (Mode != "checked" && Mode != "trusted") {
    fprintf(stderr,
            "usage: mmptx-bench-inject --cold=checked|trusted [FILE]\n");
    return 1;
  }
  if (!Buf)
    return cannotRead(File, Buf.getError());
  InjectOptions Opts;
  Opts.Trusted = Mode == "trusted";
  struct rusage Before, After;
  getrusage(RUSAGE_SELF, &Before);
  auto Start = std::chrono::steady_clock::now();
  auto M = InjectModule::create((*Buf)->getBuffer(), "gemm", Opts);
  auto End = std::chrono::steady_clock::now();
  getrusage(RUSAGE_SELF, &After);
  if (!M) {
    llvm::errs() << toString(M.takeError()) << '\n';
    return 1;
  }
  printf("cold %s create: %.1f us, %ld page faults, handle %zu bytes "
         "(%.2f x input)\n",
         Mode.str().c_str(),
         std::chrono::duration<double, std::micro>(End - Start).count(),
         After.ru_minflt - Before.ru_minflt + After.ru_majflt -
             Before.ru_majflt,
         (*M)->getMemoryUsage(),
         double((*M)->getMemoryUsage()) / (*Buf)->getBufferSize());
  return 0;
}

/// `--cold-report [RUNS]`: runs --cold in RUNS fresh processes (fork and
/// exec of this program; 11 by default) per corpus file and mode and
/// prints the medians.
static int coldReport(int Runs) {
  printf("%-30s %-8s %12s %12s %14s\n", "file", "mode", "create us",
         "page faults", "handle bytes");
  for (const char *File : Files)
    for (const char *Mode : {"checked", "trusted"}) {
      std::vector<double> Times, Faults;
      size_t Bytes = 0;
      for (int R = 0; R < Runs; ++R) {
        int Fds[2];
        if (pipe(Fds) != 0)
          return 1;
        std::string Arg = std::string("--cold=") + Mode;
        pid_t Pid = fork();
        if (Pid == 0) {
          dup2(Fds[1], 1);
          close(Fds[0]);
          execl("/proc/self/exe", "mmptx-bench-inject", Arg.c_str(), File,
                static_cast<char *>(nullptr));
          _exit(127);
        }
        close(Fds[1]);
        char Out[512] = {};
        size_t N = 0;
        ssize_t K;
        while (N + 1 < sizeof(Out) &&
               (K = read(Fds[0], Out + N, sizeof(Out) - 1 - N)) > 0)
          N += K;
        close(Fds[0]);
        int Status = 0;
        waitpid(Pid, &Status, 0);
        double Us = 0;
        long Pf = 0;
        const char *P = strchr(Out, ':');
        if (!P || sscanf(P, ": %lf us, %ld page faults, handle %zu bytes", &Us,
                         &Pf, &Bytes) != 3) {
          fprintf(stderr, "cold run failed: %s\n", Out);
          return 1;
        }
        Times.push_back(Us);
        Faults.push_back(double(Pf));
      }
      auto Median = [](std::vector<double> V) {
        std::sort(V.begin(), V.end());
        return V[V.size() / 2];
      };
      printf("%-30s %-8s %12.1f %12.0f %14zu\n", File, Mode, Median(Times),
             Median(Faults), Bytes);
    }
  return 0;
}

/// `--calls=checked|trusted FILE N`: N creates of corpus file FILE in one
/// process, for instruction counts per create (valgrind --tool=callgrind
/// --toggle-collect='mmptx::InjectModule::create*': divide by N).
static int repeatCreate(llvm::StringRef Mode, const char *File, int N) {
  auto Buf = llvm::MemoryBuffer::getFile(inputPath(File));
  if ((Mode != "checked" && Mode != "trusted") || N < 1) {
    fprintf(stderr,
            "usage: mmptx-bench-inject --calls=checked|trusted FILE N\n");
    return 1;
  }
  if (!Buf)
    return cannotRead(File, Buf.getError());
  InjectOptions Opts;
  Opts.Trusted = Mode == "trusted";
  for (int I = 0; I < N; ++I) {
    auto M = InjectModule::create((*Buf)->getBuffer(), "bench", Opts);
    if (!M) {
      llvm::errs() << toString(M.takeError()) << '\n';
      return 1;
    }
    benchmark::DoNotOptimize(M->get());
  }
  return 0;
}

int main(int argc, char **argv) {
  if (argc == 4 && llvm::StringRef(argv[1]).startswith("--calls="))
    return repeatCreate(llvm::StringRef(argv[1]).drop_front(strlen("--calls=")),
                        argv[2], atoi(argv[3]));
  if ((argc == 2 || argc == 3) &&
      llvm::StringRef(argv[1]).startswith("--cold="))
    return coldCreate(llvm::StringRef(argv[1]).drop_front(strlen("--cold=")),
                      argc == 3 ? argv[2] : "anchor_gemm_kernel.ptx");
  if ((argc == 2 || argc == 3) && llvm::StringRef(argv[1]) == "--cold-report")
    return coldReport(argc == 3 ? std::max(1, atoi(argv[2])) : 11);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv))
    return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
