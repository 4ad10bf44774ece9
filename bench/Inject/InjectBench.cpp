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
                                    "anchor_gemm_many_kernels.ptx"};

static const std::string &corpus(int64_t which) {
  static std::string texts[2];
  if (texts[which].empty()) {
    std::string path = std::string(MMPTX_CORPUS_DIR) + "/" + Files[which];
    auto buf = llvm::MemoryBuffer::getFile(path);
    if (!buf) {
      fprintf(stderr, "cannot read %s\n", path.c_str());
      exit(1);
    }
    texts[which] = (*buf)->getBuffer().str();
  }
  return texts[which];
}

/// PTX with \p numSites sites over \p numNames injects of two f32
/// variables, each in its normalised scope like the device header's output.
static const std::string &synthetic(int64_t numSites, int64_t numNames) {
  static std::map<std::pair<int64_t, int64_t>, std::string> cache;
  std::string &s = cache[{numSites, numNames}];
  if (!s.empty())
    return s;
  s = ".version 9.0\n.target sm_80\n.address_size 64\n\n"
      ".visible .entry k()\n{\n\t.reg .f32 %f<3>;\n";
  for (int64_t i = 0; i < numSites; ++i) {
    std::string n = std::to_string(i % numNames);
    s += "\t// begin inline asm\n\t{\n\t.reg .f32 %_x0;\n\t.reg .f32 %_x1;\n"
         "\tmov.f32 %_x0, %f1;\n\tmov.f32 %_x1, %f2;\n"
         "\t// PTX_INJECT_START site_" +
         n +
         "\n"
         "\t// _x0 m f32 F32 acc\n\t// _x1 i f32 F32 v\n"
         "\t// PTX_INJECT_END\n\tmov.f32 %f1, %_x0;\n\t}\n"
         "\t// end inline asm\n";
  }
  s += "\tret;\n}\n";
  return s;
}

/// \p trusted skips the structural parse and the site checks.
static std::unique_ptr<InjectModule> createOrDie(const std::string &text,
                                                 bool trusted = false) {
  InjectOptions opts;
  opts.trusted = trusted;
  auto m = InjectModule::create(text, "bench", opts);
  if (!m) {
    llvm::errs() << toString(m.takeError()) << '\n';
    exit(1);
  }
  return std::move(*m);
}

/// Stubs shaped like Stack PTX output for the gemm injects.
static std::vector<llvm::StringRef> stubsFor(const InjectModule &m) {
  std::vector<llvm::StringRef> stubs;
  for (const Inject &inj : m.injects()) {
    if (inj.name == "mma")
      stubs.push_back("\t{\n\t.reg .f32 %_a0;\n\tfma.rn.f32 %_a0, %_x1, %_x2, "
                      "%_x0;\n\tmov.f32 %_x0, %_a0;\n\t}");
    else if (inj.name == "epilogue")
      stubs.push_back("\tadd.ftz.f32 %_x0, %_x1, %_x2;");
    else
      stubs.push_back("\tmul.ftz.f32 %_x0, %_x0, 0f3F800000;");
  }
  return stubs;
}

/// Args: the corpus file, and 1 for the default checked create or 0 for
/// trusted input (markers only).
static void BM_Create(benchmark::State &st) {
  const std::string &text = corpus(st.range(0));
  size_t memory = 0, sites = 0;
  for (auto _ : st) {
    auto m = createOrDie(text, /*trusted=*/!st.range(1));
    memory = m->getMemoryUsage();
    sites = m->sites().size();
    benchmark::DoNotOptimize(m.get());
  }
  st.SetBytesProcessed(st.iterations() * text.size());
  st.counters["sites"] = sites;
  st.counters["handle_bytes"] = memory;
  st.counters["handle_per_input_byte"] = double(memory) / text.size();
  st.SetLabel(std::string(Files[st.range(0)]) +
              (st.range(1) ? " checked" : " trusted"));
}
BENCHMARK(BM_Create)
    ->Args({0, 1})
    ->Args({1, 1})
    ->Args({0, 0})
    ->Args({1, 0})
    ->Unit(benchmark::kMicrosecond);

static void BM_CreateFromModule(benchmark::State &st) {
  const std::string &text = corpus(st.range(0));
  auto pm = parsePTXString(text, "bench", /*Verify=*/false);
  if (!pm) {
    llvm::consumeError(pm.takeError());
    st.SkipWithError("parse failed");
    return;
  }
  for (auto _ : st) {
    auto m = InjectModule::create(**pm);
    if (!m) {
      llvm::consumeError(m.takeError());
      st.SkipWithError("create failed");
      return;
    }
    benchmark::DoNotOptimize(m->get());
  }
  st.SetBytesProcessed(st.iterations() * text.size());
  st.SetLabel(Files[st.range(0)]);
}
BENCHMARK(BM_CreateFromModule)->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);

/// Args: the corpus file, and 1 to check the stubs (the default) or 0 for
/// trusted stubs.
static void BM_RenderBuffer(benchmark::State &st) {
  auto m = createOrDie(corpus(st.range(0)));
  std::vector<llvm::StringRef> stubs = stubsFor(*m);
  size_t size = llvm::cantFail(m->renderedSize(stubs));
  std::vector<char> buf(size);
  RenderOptions opts;
  opts.checkStubs = st.range(1);
  for (auto _ : st) {
    auto n = m->render(stubs, buf.data(), buf.size(), opts);
    if (!n) {
      llvm::consumeError(n.takeError());
      st.SkipWithError("render failed");
      return;
    }
    benchmark::DoNotOptimize(buf.data());
    benchmark::ClobberMemory();
  }
  st.SetBytesProcessed(st.iterations() * size);
  st.SetLabel(std::string(Files[st.range(0)]) +
              (st.range(1) ? " checked" : " unchecked"));
}
BENCHMARK(BM_RenderBuffer)
    ->Args({0, 1})
    ->Args({1, 1})
    ->Args({0, 0})
    ->Args({1, 0})
    ->Unit(benchmark::kMicrosecond);

static void BM_RenderString(benchmark::State &st) {
  auto m = createOrDie(corpus(st.range(0)));
  std::vector<llvm::StringRef> stubs = stubsFor(*m);
  size_t size = llvm::cantFail(m->renderedSize(stubs));
  for (auto _ : st) {
    std::string out;
    if (llvm::Error e = m->render(stubs, out)) {
      llvm::consumeError(std::move(e));
      st.SkipWithError("render failed");
      return;
    }
    benchmark::DoNotOptimize(out.data());
  }
  st.SetBytesProcessed(st.iterations() * size);
  st.SetLabel(Files[st.range(0)]);
}
BENCHMARK(BM_RenderString)->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);

/// The ceiling for render: one memcpy of the rendered size.
static void BM_Memcpy(benchmark::State &st) {
  auto m = createOrDie(corpus(st.range(0)));
  size_t size = llvm::cantFail(m->renderedSize(stubsFor(*m)));
  std::vector<char> src(size, 'x'), dst(size);
  for (auto _ : st) {
    memcpy(dst.data(), src.data(), size);
    benchmark::DoNotOptimize(dst.data());
    benchmark::ClobberMemory();
  }
  st.SetBytesProcessed(st.iterations() * size);
  st.SetLabel(Files[st.range(0)]);
}
BENCHMARK(BM_Memcpy)->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);

/// Sites/names: 10k/1k and 100k/10k (both ten sites a name), and 100k sites
/// with 1k and 100k names, against 10k sites with 10k names: the cost is
/// linear in sites and names, a first site costing more than a copy.
static void BM_CreateSynthetic(benchmark::State &st) {
  const std::string &text = synthetic(st.range(0), st.range(1));
  size_t memory = 0;
  // The marker scanner's scaling; the checks add a constant per site.
  for (auto _ : st) {
    auto m = createOrDie(text, /*trusted=*/true);
    memory = m->getMemoryUsage();
    benchmark::DoNotOptimize(m.get());
  }
  st.SetBytesProcessed(st.iterations() * text.size());
  // Seconds per site, printed with an SI prefix (e.g. 75n = 75 ns).
  st.counters["time_per_site"] = benchmark::Counter(
      double(st.range(0)), benchmark::Counter::kIsIterationInvariantRate |
                               benchmark::Counter::kInvert);
  st.counters["handle_bytes"] = memory;
  st.counters["handle_per_input_byte"] = double(memory) / text.size();
}
BENCHMARK(BM_CreateSynthetic)
    ->Args({10000, 1000})
    ->Args({100000, 10000})
    ->Args({100000, 1000})
    ->Args({10000, 10000})
    ->Args({100000, 100000})
    ->Unit(benchmark::kMicrosecond);

static void BM_RenderSynthetic(benchmark::State &st) {
  auto m = createOrDie(synthetic(st.range(0), st.range(1)));
  std::vector<llvm::StringRef> stubs(m->getNumInjects(),
                                     "\tadd.ftz.f32 %_x0, %_x0, %_x1;");
  size_t size = llvm::cantFail(m->renderedSize(stubs));
  std::vector<char> buf(size);
  RenderOptions unchecked;
  unchecked.checkStubs = false;
  for (auto _ : st) {
    llvm::cantFail(m->render(stubs, buf.data(), buf.size(), unchecked));
    benchmark::DoNotOptimize(buf.data());
    benchmark::ClobberMemory();
  }
  st.SetBytesProcessed(st.iterations() * size);
}
BENCHMARK(BM_RenderSynthetic)
    ->Args({100000, 10000})
    ->Unit(benchmark::kMicrosecond);

/// `--cold=checked|trusted [FILE]`: times the first create of this process
/// on corpus file FILE (anchor_gemm_kernel.ptx by default; page faults and
/// cold caches included, as a program that makes one handle sees them) and
/// prints it with the page faults it took and the handle's bytes. The text
/// is read into memory first, as a caller holds it. Each run is one sample;
/// --cold-report takes several.
static int coldCreate(llvm::StringRef mode, const char *file) {
  auto buf = llvm::MemoryBuffer::getFile(
      std::string(MMPTX_CORPUS_DIR) + "/" + file, /*IsText=*/false,
      /*RequiresNullTerminator=*/false, /*IsVolatile=*/true);
  if (!buf || (mode != "checked" && mode != "trusted")) {
    fprintf(stderr,
            "usage: mmptx-bench-inject --cold=checked|trusted [FILE]\n");
    return 1;
  }
  InjectOptions opts;
  opts.trusted = mode == "trusted";
  struct rusage before, after;
  getrusage(RUSAGE_SELF, &before);
  auto start = std::chrono::steady_clock::now();
  auto m = InjectModule::create((*buf)->getBuffer(), "gemm", opts);
  auto end = std::chrono::steady_clock::now();
  getrusage(RUSAGE_SELF, &after);
  if (!m) {
    llvm::errs() << toString(m.takeError()) << '\n';
    return 1;
  }
  printf("cold %s create: %.1f us, %ld page faults, handle %zu bytes "
         "(%.2f x input)\n",
         mode.str().c_str(),
         std::chrono::duration<double, std::micro>(end - start).count(),
         after.ru_minflt - before.ru_minflt + after.ru_majflt -
             before.ru_majflt,
         (*m)->getMemoryUsage(),
         double((*m)->getMemoryUsage()) / (*buf)->getBufferSize());
  return 0;
}

/// `--cold-report [RUNS]`: runs --cold in RUNS fresh processes (fork and
/// exec of this program; 11 by default) per corpus file and mode and
/// prints the medians.
static int coldReport(int runs) {
  printf("%-30s %-8s %12s %12s %14s\n", "file", "mode", "create us",
         "page faults", "handle bytes");
  for (const char *file : Files)
    for (const char *mode : {"checked", "trusted"}) {
      std::vector<double> times, faults;
      size_t bytes = 0;
      for (int r = 0; r < runs; ++r) {
        int fds[2];
        if (pipe(fds) != 0)
          return 1;
        std::string arg = std::string("--cold=") + mode;
        pid_t pid = fork();
        if (pid == 0) {
          dup2(fds[1], 1);
          close(fds[0]);
          execl("/proc/self/exe", "mmptx-bench-inject", arg.c_str(), file,
                static_cast<char *>(nullptr));
          _exit(127);
        }
        close(fds[1]);
        char out[512] = {};
        size_t n = 0;
        ssize_t k;
        while (n + 1 < sizeof(out) &&
               (k = read(fds[0], out + n, sizeof(out) - 1 - n)) > 0)
          n += k;
        close(fds[0]);
        int status = 0;
        waitpid(pid, &status, 0);
        double us = 0;
        long pf = 0;
        const char *p = strchr(out, ':');
        if (!p || sscanf(p, ": %lf us, %ld page faults, handle %zu bytes", &us,
                         &pf, &bytes) != 3) {
          fprintf(stderr, "cold run failed: %s\n", out);
          return 1;
        }
        times.push_back(us);
        faults.push_back(double(pf));
      }
      auto median = [](std::vector<double> v) {
        std::sort(v.begin(), v.end());
        return v[v.size() / 2];
      };
      printf("%-30s %-8s %12.1f %12.0f %14zu\n", file, mode, median(times),
             median(faults), bytes);
    }
  return 0;
}

int main(int argc, char **argv) {
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
