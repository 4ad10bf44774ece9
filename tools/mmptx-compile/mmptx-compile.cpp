//===- mmptx-compile.cpp - PTX to cubin, in parallel, cached --------------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `mmptx-compile a.ptx b.ptx --arch sm_80 -j N -o outdir/
/// [--backend=nvptxcompiler|nvjitlink|ptxas] [--cache-dir=dir]
/// [--format=json]`: a thin driver over compileBatch() (mmptx/Backend/
/// Batch.h). Writes outdir/<stem>.cubin per input, then a summary. A .cu
/// input is first compiled to PTX by NVRTC in process (mmptx/Frontend/
/// Nvrtc.h), through the same cache, and pruned of the module-scope
/// variables and functions that nothing refers to unless --no-prune.
///
//===----------------------------------------------------------------------===//

#include "mmptx/Backend/Batch.h"
#include "mmptx/Backend/PackedModule.h"
#include "mmptx/Frontend/Nvrtc.h"
#include "mmptx/Support/Diagnostic.h"
#include "mmptx/Support/ToolInit.h"
#include "mmptx/Support/ToolOutput.h"
#include "mmptx/Transforms/PruneUnusedGlobals.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace mmptx;

static cl::OptionCategory Category("mmptx-compile Options");

static cl::list<std::string> Inputs(cl::Positional, cl::ZeroOrMore,
                                    cl::desc("<input .ptx (or .cu) files>"),
                                    cl::cat(Category));
static cl::opt<std::string> OutDir("o",
                                   cl::desc("Output directory (created "
                                            "if missing); writes "
                                            "<stem>.cubin per input. A name "
                                            "ending in .cubin, an existing "
                                            "file that is not a directory "
                                            "(/dev/null) or '-' (standard "
                                            "output) is the output file of "
                                            "a single input"),
                                   cl::value_desc("dir"), cl::init("."),
                                   cl::cat(Category));
static cl::opt<std::string> Arch("arch",
                                 cl::desc("GPU architecture (default: "
                                          "sm_80)"),
                                 cl::value_desc("sm_N"), cl::init("sm_80"),
                                 cl::cat(Category));
static cl::opt<unsigned> Jobs("j",
                              cl::desc("Threads, at most 1024 (0: one per "
                                       "core)"),
                              cl::value_desc("N"), cl::init(0), cl::Prefix,
                              cl::cat(Category));
static cl::opt<std::string>
    BackendName("backend",
                cl::desc("nvptxcompiler, nvjitlink or ptxas (default: the "
                         "first available in that order)"),
                cl::value_desc("name"), cl::cat(Category));
static cl::opt<std::string>
    CacheDir("cache-dir",
             cl::desc("PTX -> cubin cache directory (default: "
                      "$MMPTX_CACHE_DIR; none if unset)"),
             cl::value_desc("dir"), cl::cat(Category));
static cl::opt<unsigned> CacheSizeMB("cache-size-mb",
                                     cl::desc("Cache size limit in MiB "
                                              "(least recently used entries "
                                              "go first; 0: no limit)"),
                                     cl::init(1024), cl::cat(Category));
static cl::opt<bool> NoCache("no-cache", cl::desc("Do not use a cache"),
                             cl::cat(Category));
static cl::opt<double> ModuleTimeout(
    "module-timeout",
    cl::desc("Seconds a module may take before it fails as timed out "
             "(ptxas is stopped; an in-process compile is abandoned); 0: no "
             "limit"),
    cl::value_desc("seconds"), cl::init(0), cl::cat(Category));
static cl::opt<bool> NoDedup("no-dedup",
                             cl::desc("Compile identical inputs separately "
                                      "(with --pack: give identical stubs "
                                      "a code block each)"),
                             cl::cat(Category));
static cl::opt<unsigned> OptLevel("O", cl::desc("Optimization level (0-3)"),
                                  cl::value_desc("N"), cl::init(3), cl::Prefix,
                                  cl::cat(Category));
static cl::opt<std::string> FastCompile(
    "Ofast-compile",
    cl::desc("Trade code quality for compile time: min, mid or max (0: off); "
             "replaces -O, every backend of CUDA 12.8 or newer"),
    cl::value_desc("level"), cl::cat(Category));
static cl::opt<bool> LineInfo("lineinfo", cl::desc("Generate line info"),
                              cl::cat(Category));
static cl::opt<unsigned> MaxRegCount("maxrregcount",
                                     cl::desc("Register limit per thread"),
                                     cl::value_desc("N"), cl::init(0),
                                     cl::cat(Category));
static cl::list<std::string>
    ExtraOptions("X", cl::desc("Pass an option to the backend as it is"),
                 cl::value_desc("option"), cl::cat(Category));
static cl::opt<bool> Verbose("v",
                             cl::desc("Print each module's info log "
                                      "(registers, spills)"),
                             cl::cat(Category));
enum class Format { Text, Json };
static cl::opt<Format> OutputFormat(
    "format", cl::desc("Summary format"),
    cl::values(clEnumValN(Format::Text, "text", "a few lines (default)"),
               clEnumValN(Format::Json, "json", "one JSON object")),
    cl::init(Format::Text), cl::cat(Category));
static cl::opt<bool> ListBackends("list-backends",
                                  cl::desc("Print the available backends and "
                                           "their versions, then exit"),
                                  cl::cat(Category));

static cl::opt<bool>
    Pack("pack",
         cl::desc("Inputs are PTX stubs (reading %x0.. and writing %y, "
                  "f32): pack them into one module of kernels x sites, "
                  "written as <dir>/packed.ptx and compiled to "
                  "<dir>/packed.cubin"),
         cl::cat(Category));
static cl::opt<unsigned> SitesPerKernel("sites-per-kernel",
                                        cl::desc("With --pack: sites per "
                                                 "kernel"),
                                        cl::init(128), cl::cat(Category));
static cl::opt<bool>
    NoShareSlowOps("no-share-slow-ops",
                   cl::desc("With --pack: keep IEEE div/sqrt/rcp and non-ftz "
                            "approximations inline at every site instead of "
                            "one shared function per operation"),
                   cl::cat(Category));
static cl::opt<unsigned> PackInputs("pack-inputs",
                                    cl::desc("With --pack: f32 inputs per "
                                             "element (%x0..), at most 4096"),
                                    cl::init(2), cl::cat(Category));

static cl::list<std::string> IncludeDirs("I",
                                         cl::desc("For .cu inputs: include "
                                                  "directory"),
                                         cl::value_desc("dir"), cl::Prefix,
                                         cl::cat(Category));
static cl::list<std::string> Defines("D",
                                     cl::desc("For .cu inputs: define a macro"),
                                     cl::value_desc("name[=value]"), cl::Prefix,
                                     cl::cat(Category));
static cl::list<std::string>
    NvrtcOptions("Xnvrtc",
                 cl::desc("For .cu inputs: pass an option to NVRTC (-G, "
                          "-lineinfo, -std=c++17, ...)"),
                 cl::value_desc("option"), cl::cat(Category));

static cl::opt<bool>
    NoPrune("no-prune",
            cl::desc("For .cu inputs: keep the module-scope variables and "
                     "functions that nothing refers to (by default they are "
                     "removed before PTX -> cubin; .visible and .extern ones "
                     "always stay). Needed to read a static with "
                     "cuModuleGetGlobal"),
            cl::cat(Category));

static CudaCompileOptions getCudaOptions(StringRef Arch) {
  CudaCompileOptions O;
  O.Arch = Arch.str();
  O.IncludeDirs = IncludeDirs;
  O.Defines = Defines;
  O.ExtraOptions = NvrtcOptions;
  // --lineinfo asks for a line table: for a .cu input, NVRTC must make one.
  if (LineInfo && !is_contained(O.ExtraOptions, "-lineinfo") &&
      !is_contained(O.ExtraOptions, "--generate-line-info"))
    O.ExtraOptions.push_back("-lineinfo");
  return O;
}

static const char *const ToolName = "mmptx-compile";

static int fail(Error E) {
  reportError(std::move(E), ToolName);
  return 1;
}

/// A cache that could not be written costs speed only, but the user should
/// know that it does not work.
static void warnAboutCache(const ContentCache *Cache) {
  if (!Cache)
    return;
  std::string Msg = Cache->getStoreFailureMessage();
  if (!Msg.empty())
    WithColor::warning(errs(), ToolName) << Msg << '\n';
}

/// The one place this tool writes an output file (all or nothing).
static Error writeOutput(StringRef Path, StringRef Bytes) {
  return writeToolOutput(Path, [&](raw_ostream &OS) {
    OS << Bytes;
    return Error::success();
  });
}

/// Prints to stdout through ToolOutput: a write error (a closed stdout, a
/// full disk) is one line and exit status 1, not an abort at exit.
static int printToStdout(function_ref<void(raw_ostream &)> Print) {
  if (Error E = printToolOutput(Print))
    return fail(std::move(E));
  return 0;
}

static int listBackends() {
  return printToStdout([](raw_ostream &OS) {
    for (BackendKind K : getAllBackends()) {
      Expected<std::unique_ptr<PTXCompiler>> C = createPTXCompiler(K);
      if (C)
        OS << (*C)->getName() << ' ' << (*C)->getVersion() << '\n';
      else
        OS << getBackendName(K) << " unavailable: " << toString(C.takeError())
           << '\n';
    }
  });
}

/// `[#####.....] done/total` on stderr, redrawn in place.
static void drawProgress(size_t Done, size_t Total) {
  const unsigned Width = 30;
  unsigned Filled = Total ? unsigned(Done * Width / Total) : Width;
  errs() << "\r[" << std::string(Filled, '#')
         << std::string(Width - Filled, '.') << "] " << Done << '/' << Total;
  if (Done == Total)
    errs() << '\n';
}

int main(int argc, char **argv) {
  ToolInit Init(
      argc, argv,
      "mmptx-compile: PTX to cubin, in parallel, cached and deduplicated\n",
      &Category);

  if (ListBackends)
    return listBackends();
  if (Inputs.empty())
    return fail(makeError("no input files (see --help)"));
  if (OutDir.empty())
    return fail(makeError("-o: expected a directory or a .cubin file, got an "
                          "empty name"));
  if (!(ModuleTimeout >= 0) || ModuleTimeout > 1e9)
    return fail(makeError(
        "--module-timeout=" + formatv("{0}", ModuleTimeout.getValue()) +
        ": expected seconds, 0 or more"));
  if (Jobs > MaxBatchThreads)
    return fail(makeError("-j " + Twine(Jobs) + ": at most " +
                          Twine(MaxBatchThreads) + " threads"));

  CompileOptions Opts;
  Opts.Arch = Arch;
  Opts.OptLevel = OptLevel;
  if (FastCompile.getNumOccurrences()) {
    Optional<FastCompileLevel> L = parseFastCompileName(FastCompile);
    if (!L)
      return fail(makeError("-Ofast-compile=" + FastCompile +
                            ": expected min, mid, max or 0"));
    // Each level implies its own -O (ptxas refuses any other).
    if (*L != FastCompileLevel::None && OptLevel.getNumOccurrences())
      return fail(makeError("-O" + Twine(OptLevel) +
                            " and -Ofast-compile=" + FastCompile +
                            " conflict: a fast-compile level sets the "
                            "optimization level itself"));
    Opts.FastCompile = *L;
  }
  Opts.LineInfo = LineInfo;
  Opts.MaxRegCount = MaxRegCount;
  Opts.Verbose = Verbose;
  Opts.ExtraOptions = ExtraOptions;
  if (Error E = Opts.validate())
    return fail(std::move(E));

  Expected<std::unique_ptr<PTXCompiler>> C = createPTXCompiler(BackendName);
  if (!C)
    return fail(C.takeError());
  std::unique_ptr<PTXCompiler> Compiler = std::move(*C);

  std::unique_ptr<ContentCache> Cache;
  // No cache unless asked for: by --cache-dir, or by a non-empty
  // $MMPTX_CACHE_DIR, which getDefaultCacheDirectory() honours first.
  std::string CachePath = CacheDir;
  Optional<std::string> Env = sys::Process::GetEnv("MMPTX_CACHE_DIR");
  if (CachePath.empty() && Env && !Env->empty())
    CachePath = getDefaultCacheDirectory();
  if (!NoCache && !CachePath.empty()) {
    // A cache costs speed only: one that cannot be created is a warning and
    // a run without it, as one that cannot be written is.
    Expected<std::unique_ptr<ContentCache>> C =
        ContentCache::open(CachePath, uint64_t(CacheSizeMB) << 20);
    if (C)
      Cache = std::move(*C);
    else
      WithColor::warning(errs(), ToolName)
          << toString(C.takeError()) << "; compiling without a cache\n";
  }

  // Read every input before compiling any: a missing file is reported now.
  std::vector<std::unique_ptr<MemoryBuffer>> Buffers;
  std::vector<BatchModule> Modules;
  std::vector<std::string> Outputs;
  StringMap<std::string> Stems;
  std::vector<std::unique_ptr<std::string>> CudaPtx;
  // .cu inputs that NVRTC failed on: their place among the inputs and the
  // error. Like a module that fails, they do not stop the others.
  std::vector<std::pair<size_t, std::string>> CudaFailures;
  StringSet<> Seen;
  unsigned NumCuda = 0, NumCudaCached = 0;
  auto CudaStart = std::chrono::steady_clock::now();
  // `-o k.cubin`, `-o -` (standard output) and `-o F` for an F that exists
  // and is no directory (/dev/null) name the output of a single input;
  // otherwise -o is a directory.
  bool ToStdout = OutDir == "-";
  bool OutIsFile = ToStdout || StringRef(OutDir).endswith(".cubin") ||
                   (sys::fs::exists(OutDir) && !sys::fs::is_directory(OutDir));
  if (OutIsFile && Pack)
    return fail(
        makeError("-o '" + OutDir +
                  "' names one file, but --pack writes two (packed.ptx and "
                  "packed.cubin); give a directory"));
  if (OutIsFile && Inputs.size() != 1)
    return fail(makeError("-o '" + OutDir + "' names one " +
                          (ToStdout ? "output" : "cubin") + ", but there are " +
                          Twine(Inputs.size()) + " inputs; give a directory"));
  StringRef Dir = OutIsFile && !ToStdout ? sys::path::parent_path(OutDir)
                  : ToStdout             ? StringRef()
                                         : StringRef(OutDir);
  // No output may be an input: refused before anything is compiled.
  {
    std::vector<std::string> Written;
    for (const std::string &In : Inputs) {
      SmallString<256> Out(OutIsFile ? StringRef(OutDir) : StringRef());
      if (!OutIsFile)
        sys::path::append(Out, OutDir, sys::path::stem(In) + ".cubin");
      Written.push_back(std::string(Out));
    }
    if (Pack) {
      SmallString<256> Path(OutDir);
      sys::path::append(Path, "packed.ptx");
      Written.assign({std::string(Path)});
      sys::path::replace_extension(Path, "cubin");
      Written.push_back(std::string(Path));
    }
    for (const std::string &Out : Written) {
      sys::fs::UniqueID OutID;
      if (Out == "-" || sys::fs::getUniqueID(Out, OutID))
        continue;
      sys::fs::file_status St;
      if (!sys::fs::status(Out, St) &&
          St.type() != sys::fs::file_type::regular_file)
        continue; // A device (/dev/null): written in place, never lost.
      for (const std::string &In : Inputs) {
        sys::fs::UniqueID InID;
        if (!sys::fs::getUniqueID(In, InID) && InID == OutID)
          return fail(makeError("output '" + Out + "' is the input '" + In +
                                "': it would be overwritten; give another "
                                "-o"));
      }
    }
  }
  for (const std::string &In : Inputs) {
    ErrorOr<std::unique_ptr<MemoryBuffer>> B = MemoryBuffer::getFile(In);
    if (!B)
      return fail(
          makeError("cannot read '" + In + "': " + B.getError().message()));
    if (!Seen.insert(In).second && !Pack)
      return fail(makeError("input '" + In + "' is given twice"));
    SmallString<256> Out(OutIsFile ? StringRef(OutDir) : StringRef());
    if (!OutIsFile)
      sys::path::append(Out, OutDir, sys::path::stem(In) + ".cubin");
    auto Ins = Stems.try_emplace(Out, In);
    if (!Ins.second && !Pack)
      return fail(makeError("'" + In + "' and '" + Ins.first->second +
                            "' would both be written to '" + Out +
                            "': give them different names"));
    BatchModule M;
    M.Name = In;
    M.Ptx = (*B)->getBuffer();
    if (sys::path::extension(In) == ".cu") {
      // CUDA -> PTX through NVRTC in process, through the same cache.
      Expected<CudaCompileResult> R =
          compileCudaToPtx(M.Ptx, In, getCudaOptions(Opts.Arch), Cache.get());
      if (!R) {
        std::string Msg = toString(R.takeError());
        WithColor::error(errs(), ToolName) << Msg << '\n';
        CudaFailures.push_back({Modules.size() + CudaFailures.size(), Msg});
        ++NumCuda;
        continue;
      }
      errs() << R->Log;
      if (!R->CacheNote.empty())
        WithColor::note(errs(), ToolName) << R->CacheNote << '\n';
      ++NumCuda;
      NumCudaCached += R->FromCache;
      if (!NoPrune) {
        // The PTX is compiled once here: its unreferenced statics cost
        // the PTX compiler more than the kernel itself.
        Expected<std::string> Pruned = prunePTX(R->Ptx, PruneOptions(),
                                                /*Stats=*/nullptr, In);
        if (!Pruned) {
          std::string Msg = toString(Pruned.takeError());
          WithColor::error(errs(), ToolName) << Msg << '\n';
          CudaFailures.push_back({Modules.size() + CudaFailures.size(), Msg});
          continue;
        }
        R->Ptx = std::move(*Pruned);
      }
      CudaPtx.push_back(std::make_unique<std::string>(std::move(R->Ptx)));
      M.Ptx = *CudaPtx.back();
    }
    Modules.push_back(std::move(M));
    Outputs.push_back(std::string(Out));
    Buffers.push_back(std::move(*B));
  }

  if (!Dir.empty())
    if (std::error_code EC = sys::fs::create_directories(Dir))
      return fail(makeError("cannot create '" + Dir + "': " + EC.message()));

  // Packed injects: the stubs become one module, compiled as the only input.
  std::string PackedPtx;
  StubLineMap PackedMap;
  if (Pack) {
    if (!CudaFailures.empty())
      return 1;
    std::vector<StringRef> Stubs;
    std::vector<std::string> Names;
    for (const BatchModule &M : Modules) {
      Stubs.push_back(M.Ptx);
      Names.push_back(M.Name);
    }
    PackedModuleSpec Spec;
    Spec.NumInputs = PackInputs;
    Spec.SitesPerKernel = SitesPerKernel;
    Spec.Arch = Opts.Arch;
    Spec.Deduplicate = !NoDedup;
    Spec.ShareSlowOps = !NoShareSlowOps;
    Expected<std::string> Ptx =
        buildPackedModule(Stubs, Spec, &PackedMap, Names);
    if (!Ptx)
      return fail(Ptx.takeError());
    PackedPtx = std::move(*Ptx);
    SmallString<256> Path(OutDir);
    sys::path::append(Path, "packed.ptx");
    if (Error E = writeOutput(Path, PackedPtx))
      return fail(std::move(E));
    Modules.assign(1, BatchModule{std::string(Path), PackedPtx, &PackedMap});
    sys::path::replace_extension(Path, "cubin");
    Outputs.assign(1, std::string(Path));
  }

  double CudaSeconds = std::chrono::duration<double>(
                           std::chrono::steady_clock::now() - CudaStart)
                           .count();

  BatchOptions BOpts;
  BOpts.Threads = Jobs;
  BOpts.Cache = Cache.get();
  BOpts.Deduplicate = !NoDedup;
  BOpts.ModuleTimeout = ModuleTimeout;
  // A progress bar only for a person watching.
  if (Modules.size() > 1 && sys::Process::StandardErrIsDisplayed())
    BOpts.OnProgress = drawProgress;
  BatchResult R = compileBatch(*Compiler, Modules, Opts, BOpts);

  bool Failed = false;
  for (size_t I = 0; I < Modules.size(); ++I) {
    const ModuleResult &M = R.Modules[I];
    if (!M.Ok) {
      // Each module's error is its own; the others still get written.
      printFormattedDiagnostics(M.Error, errs());
      Failed = true;
      continue;
    }
    if (Verbose && !M.Result.InfoLog.empty() &&
        M.Source != ModuleResult::Duplicate)
      errs() << Modules[I].Name << ":\n" << M.Result.InfoLog;
    if (Error E = writeOutput(Outputs[I], M.Result.Cubin)) {
      // Reported as this module's failure, in the summary too: counted
      // once, as failed, no longer as compiled or from the cache.
      std::string Msg = toString(std::move(E));
      WithColor::error(errs(), ToolName) << Msg << '\n';
      if (M.Source == ModuleResult::Compiled)
        --R.Summary.Compiled;
      else if (M.Source == ModuleResult::Cached)
        --R.Summary.CacheHits;
      R.Modules[I].Ok = false;
      R.Modules[I].Error = Msg;
      ++R.Summary.Failed;
      Failed = true;
    }
  }
  // The .cu inputs NVRTC failed on take their places in the report.
  if (!CudaFailures.empty()) {
    std::vector<ModuleResult> AllResults;
    std::vector<BatchModule> AllModules;
    std::vector<std::string> AllOutputs;
    std::vector<size_t> NewIndex;
    for (size_t I = 0, F = 0, Old = 0; I != Inputs.size(); ++I) {
      if (F < CudaFailures.size() && CudaFailures[F].first == I) {
        AllResults.emplace_back();
        AllResults.back().Error = CudaFailures[F++].second;
        AllModules.push_back({Inputs[I], "", nullptr});
        AllOutputs.emplace_back();
        continue;
      }
      NewIndex.push_back(I);
      AllResults.push_back(std::move(R.Modules[Old]));
      AllModules.push_back(std::move(Modules[Old]));
      AllOutputs.push_back(std::move(Outputs[Old++]));
    }
    for (ModuleResult &M : AllResults)
      if (M.Source == ModuleResult::Duplicate)
        M.DuplicateOf = NewIndex[M.DuplicateOf];
    R.Modules = std::move(AllResults);
    Modules = std::move(AllModules);
    Outputs = std::move(AllOutputs);
    R.Summary.Modules += CudaFailures.size();
    R.Summary.Failed += CudaFailures.size();
    Failed = true;
  }
  warnAboutCache(Cache.get());

  BatchReportContext Ctx;
  Ctx.Tool = ToolName;
  Ctx.Backend = Compiler->getIdentity();
  Ctx.Arch = Opts.Arch;
  Ctx.CacheDir = Cache ? Cache->getDirectory().str() : "";
  Ctx.Outputs = Outputs;
  // With the cubin on standard output, the summary goes to standard error.
  auto PrintSummary = [&](function_ref<void(raw_ostream &)> Print) {
    if (!ToStdout)
      return printToStdout(Print);
    Print(errs());
    return 0;
  };
  int Status = PrintSummary([&](raw_ostream &OS) {
    if (OutputFormat == Format::Json) {
      printBatchJSON(OS, R, Modules, Ctx);
      return;
    }
    printBatchSummary(OS, R, Ctx);
    if (NumCuda)
      OS << getNvrtcIdentity() << ": " << NumCuda << " CUDA sources, "
         << NumCudaCached << " from cache, " << format("%.3f", CudaSeconds)
         << " s\n";
  });
  return Failed || Status ? 1 : 0;
}
