//===- Batch.cpp - Many modules to cubin, in parallel, cached -------------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "mmptx/Backend/Batch.h"
#include "BatchTally.h"
#include "mmptx/Support/Diagnostic.h"
#include "mmptx/Support/EnumNames.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"

#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <mutex>
#include <thread>

using namespace llvm;
using namespace mmptx;
using namespace mmptx::detail;

double
mmptx::detail::secondsSince(std::chrono::steady_clock::time_point Start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - Start)
      .count();
}

void mmptx::detail::tallyModule(BatchResult &Out, size_t I,
                                function_ref<std::string(size_t)> NameOf,
                                bool Rendered) {
  ModuleResult &R = Out.Modules[I];
  BatchSummary &S = Out.Summary;
  if (Rendered && R.Source == ModuleResult::Duplicate) {
    const ModuleResult &First = Out.Modules[R.DuplicateOf];
    R.Ok = First.Ok;
    R.Result = First.Result;
    R.Cancelled = First.Cancelled;
    R.TimedOut = First.TimedOut;
    if (!First.Ok)
      R.Error = NameOf(I) + ": error: same PTX as '" + NameOf(R.DuplicateOf) +
                "', which " +
                (First.Cancelled ? "was not compiled (cancelled)" : "failed");
    ++S.Duplicates;
  } else if (Rendered) {
    S.BusySeconds += R.Seconds;
    if (R.Source == ModuleResult::Cached)
      ++S.CacheHits;
    else if (R.Ok)
      ++S.Compiled;
  }
  if (!R.Ok)
    ++S.Failed;
  S.Cancelled += R.Cancelled;
  S.TimedOut += R.TimedOut;
}

std::string mmptx::getCubinCacheKey(const PTXCompiler &Compiler, StringRef Ptx,
                                    const CompileOptions &Opts) {
  return CacheKey("ptx->cubin v1")
      .add(Compiler.getIdentity())
      .add(Opts.getKeyText())
      .add(Ptx)
      .final();
}

Expected<CompileResult>
mmptx::compileCached(PTXCompiler &Compiler, ContentCache *Cache, StringRef Ptx,
                     const CompileOptions &Opts, StringRef Name,
                     const StubLineMap *Map, bool *FromCache) {
  if (FromCache)
    *FromCache = false;
  std::string Key;
  if (Cache) {
    Key = getCubinCacheKey(Compiler, Ptx, Opts);
    if (Optional<std::vector<std::string>> Fields = Cache->lookup(Key)) {
      if (Fields->size() == 3) {
        if (FromCache)
          *FromCache = true;
        CompileResult R;
        R.Cubin = std::move((*Fields)[0]);
        R.InfoLog = std::move((*Fields)[1]);
        R.Backend = std::move((*Fields)[2]);
        return R;
      }
    }
  }
  Expected<CompileResult> R = Compiler.compile(Ptx, Opts, Name, Map);
  if (R && Cache) {
    // A cache that cannot be written costs speed, not correctness.
    consumeError(Cache->store(Key, {R->Cubin, R->InfoLog, R->Backend}));
  }
  return R;
}

namespace {
/// What a compile left to run on its own thread hands back.
struct DetachedCompile {
  std::mutex Mutex;
  std::condition_variable Cv;
  bool Done = false;
  bool Ok = false;
  CompileResult Result;
  std::string Error;
};
} // namespace

/// compileCached() with a limit of \p Timeout seconds; \p TimedOut says
/// whether it was reached.
static Expected<CompileResult>
compileWithTimeout(PTXCompiler &Compiler, ContentCache *Cache, StringRef Ptx,
                   const CompileOptions &Opts, StringRef Name,
                   const StubLineMap *Map, bool &FromCache, double Timeout,
                   bool &TimedOut) {
  TimedOut = false;
  if (Compiler.getKind() == BackendKind::Ptxas) {
    // The process can be killed: ExecuteAndWait's limit does it.
    CompileOptions Limited = Opts;
    Limited.TimeoutSeconds = unsigned(std::max(1.0, std::ceil(Timeout)));
    Expected<CompileResult> R =
        compileCached(Compiler, Cache, Ptx, Limited, Name, Map, &FromCache);
    if (!R) {
      std::string Msg = toString(R.takeError());
      TimedOut = StringRef(Msg).contains("(timed out after ");
      return makeError(Msg);
    }
    return R;
  }
  FromCache = false;
  std::string Key;
  if (Cache) {
    Key = getCubinCacheKey(Compiler, Ptx, Opts);
    if (Optional<std::vector<std::string>> Fields = Cache->lookup(Key))
      if (Fields->size() == 3) {
        FromCache = true;
        CompileResult R;
        R.Cubin = std::move((*Fields)[0]);
        R.InfoLog = std::move((*Fields)[1]);
        R.Backend = std::move((*Fields)[2]);
        return R;
      }
  }
  // The thread owns everything it uses (its own compiler of the same kind
  // included): it may outlive this batch and its caller.
  auto State = std::make_shared<DetachedCompile>();
  std::thread([State, Kind = Compiler.getKind(), PtxCopy = Ptx.str(), Opts,
               NameCopy = Name.str(), MapCopy = Map ? *Map : StubLineMap(),
               HasMap = Map != nullptr] {
    Expected<std::unique_ptr<PTXCompiler>> C = createPTXCompiler(Kind);
    Expected<CompileResult> R =
        C ? (*C)->compile(PtxCopy, Opts, NameCopy, HasMap ? &MapCopy : nullptr)
          : Expected<CompileResult>(C.takeError());
    std::lock_guard<std::mutex> Lock(State->Mutex);
    if (R) {
      State->Ok = true;
      State->Result = std::move(*R);
    } else {
      State->Error = toString(R.takeError());
    }
    State->Done = true;
    State->Cv.notify_all();
  }).detach();

  std::unique_lock<std::mutex> Lock(State->Mutex);
  if (!State->Cv.wait_for(Lock, std::chrono::duration<double>(Timeout),
                          [&] { return State->Done; })) {
    TimedOut = true;
    return makeError(Name + ": error: " + Compiler.getIdentity() +
                     " timed out after " + formatv("{0}", Timeout) +
                     " s (an in-process compile cannot be stopped: it ends "
                     "in the background and its result is dropped)");
  }
  if (!State->Ok)
    return makeError(State->Error);
  if (Cache)
    consumeError(Cache->store(Key, {State->Result.Cubin, State->Result.InfoLog,
                                    State->Result.Backend}));
  return std::move(State->Result);
}

BatchResult mmptx::compileBatch(PTXCompiler &Compiler,
                                ArrayRef<BatchModule> Modules,
                                const CompileOptions &Opts,
                                const BatchOptions &BOpts) {
  auto Start = std::chrono::steady_clock::now();
  BatchResult Out;
  Out.Modules.resize(Modules.size());
  BatchSummary &S = Out.Summary;
  S.Modules = Modules.size();

  // First occurrence of each distinct PTX text; the map compares the texts
  // themselves, so a duplicate is never a mere hash match.
  std::vector<size_t> Unique;
  StringMap<size_t> Seen;
  for (size_t I = 0; I < Modules.size(); ++I) {
    if (BOpts.Deduplicate) {
      auto Ins = Seen.try_emplace(Modules[I].Ptx, I);
      if (!Ins.second) {
        Out.Modules[I].Source = ModuleResult::Duplicate;
        Out.Modules[I].DuplicateOf = Ins.first->second;
        continue;
      }
    }
    Unique.push_back(I);
  }
  S.Unique = Unique.size();

  unsigned Threads = BOpts.Threads
                         ? BOpts.Threads
                         : hardware_concurrency().compute_thread_count();
  Threads = std::min(Threads, MaxBatchThreads);
  Threads = std::max(1u, std::min<unsigned>(Threads, Unique.size()));
  S.Threads = Threads;

  std::mutex ProgressMutex;
  size_t Done = 0;
  std::atomic<bool> Cancelled{false};
  auto CompileOne = [&](size_t I) {
    auto T = std::chrono::steady_clock::now();
    ModuleResult &R = Out.Modules[I];
    if (BOpts.ShouldCancel && (Cancelled || BOpts.ShouldCancel())) {
      Cancelled = true;
      R.Cancelled = true;
      R.Error = Modules[I].Name +
                ": error: not compiled: the batch was cancelled before it "
                "started";
      R.Result.Backend = Compiler.getIdentity();
      if (BOpts.OnProgress) {
        std::lock_guard<std::mutex> Lock(ProgressMutex);
        BOpts.OnProgress(++Done, Unique.size());
      }
      return;
    }
    bool FromCache = false;
    bool TimedOut = false;
    Expected<CompileResult> C =
        BOpts.ModuleTimeout > 0
            ? compileWithTimeout(Compiler, BOpts.Cache, Modules[I].Ptx, Opts,
                                 Modules[I].Name, Modules[I].Map, FromCache,
                                 BOpts.ModuleTimeout, TimedOut)
            : compileCached(Compiler, BOpts.Cache, Modules[I].Ptx, Opts,
                            Modules[I].Name, Modules[I].Map, &FromCache);
    R.TimedOut = TimedOut;
    if (C) {
      R.Ok = true;
      R.Result = std::move(*C);
    } else {
      R.Error = toString(C.takeError());
      // Which backend refused it matters as much as what it said.
      R.Result.Backend = Compiler.getIdentity();
    }
    R.Source = FromCache ? ModuleResult::Cached : ModuleResult::Compiled;
    R.Seconds = secondsSince(T);
    if (BOpts.OnProgress) {
      std::lock_guard<std::mutex> Lock(ProgressMutex);
      BOpts.OnProgress(++Done, Unique.size());
    }
  };

  if (Threads == 1) {
    for (size_t I : Unique)
      CompileOne(I);
  } else {
    ThreadPool Pool(hardware_concurrency(Threads));
    for (size_t I : Unique)
      Pool.async([&CompileOne, I] { CompileOne(I); });
    Pool.wait();
  }

  for (size_t I = 0; I < Modules.size(); ++I)
    tallyModule(Out, I, [&](size_t J) { return Modules[J].Name; });
  S.WallSeconds = secondsSince(Start);
  return Out;
}

//===----------------------------------------------------------------------===//
// Reports
//===----------------------------------------------------------------------===//

static const EnumName<ModuleResult::SourceKind> ModuleSourceNames[] = {
    {ModuleResult::Compiled, "compiled"},
    {ModuleResult::Cached, "cached"},
    {ModuleResult::Duplicate, "duplicate"}};

StringRef mmptx::getModuleSourceName(ModuleResult::SourceKind Source) {
  return getEnumName(ModuleSourceNames, Source);
}

static StringRef getStatusName(const ModuleResult &M) {
  return M.Ok ? getModuleSourceName(M.Source) : "failed";
}

static double getRate(const BatchSummary &S) {
  return S.WallSeconds > 0 ? double(S.Modules) / S.WallSeconds : 0;
}

void mmptx::printBatchSummary(raw_ostream &OS, const BatchResult &R,
                              const BatchReportContext &Ctx) {
  const BatchSummary &S = R.Summary;
  OS << Ctx.Tool << ": " << S.Modules << " modules, " << S.Unique << " unique ("
     << S.Duplicates << " duplicates), " << S.Compiled << " compiled, "
     << S.CacheHits << " from cache, " << S.Failed << " failed";
  if (S.TimedOut)
    OS << " (" << S.TimedOut << " timed out)";
  if (S.Cancelled)
    OS << " (" << S.Cancelled << " cancelled)";
  OS << "\n";
  OS << "backend " << Ctx.Backend << ", " << Ctx.Arch << ", " << S.Threads
     << (S.Threads == 1 ? " thread" : " threads");
  if (!Ctx.CacheDir.empty())
    OS << ", cache " << Ctx.CacheDir;
  OS << "\ntime " << format("%.3f", S.WallSeconds) << " s wall, "
     << format("%.3f", S.BusySeconds) << " s busy, "
     << format("%.1f", getRate(S)) << " modules/s\n";
}

void mmptx::printBatchJSON(raw_ostream &OS, const BatchResult &R,
                           ArrayRef<BatchModule> Modules,
                           const BatchReportContext &Ctx) {
  const BatchSummary &S = R.Summary;
  json::OStream J(OS, 2);
  J.object([&] {
    J.attribute("backend", Ctx.Backend);
    J.attribute("arch", Ctx.Arch);
    J.attribute("threads", int64_t(S.Threads));
    J.attribute("cache", Ctx.CacheDir.empty() ? json::Value(nullptr)
                                              : json::Value(Ctx.CacheDir));
    J.attributeArray("modules", [&] {
      for (size_t I = 0; I < R.Modules.size(); ++I) {
        const ModuleResult &M = R.Modules[I];
        J.object([&] {
          J.attribute("input", Modules[I].Name);
          bool HasOutput = M.Ok && I < Ctx.Outputs.size();
          J.attribute("output", HasOutput ? json::Value(Ctx.Outputs[I])
                                          : json::Value(nullptr));
          J.attribute("status", getStatusName(M));
          if (M.Source == ModuleResult::Duplicate)
            J.attribute("duplicate_of", Modules[M.DuplicateOf].Name);
          J.attribute("seconds", M.Seconds);
          if (M.Ok)
            J.attribute("cubin_bytes", int64_t(M.Result.Cubin.size()));
          else
            J.attribute("error", M.Error);
          if (!M.Result.Backend.empty())
            J.attribute("backend", M.Result.Backend);
        });
      }
    });
    J.attributeObject("summary", [&] {
      J.attribute("modules", int64_t(S.Modules));
      J.attribute("unique", int64_t(S.Unique));
      J.attribute("compiled", int64_t(S.Compiled));
      J.attribute("cache_hits", int64_t(S.CacheHits));
      J.attribute("duplicates", int64_t(S.Duplicates));
      J.attribute("failed", int64_t(S.Failed));
      if (S.TimedOut)
        J.attribute("timed_out", int64_t(S.TimedOut));
      if (S.Cancelled)
        J.attribute("cancelled", int64_t(S.Cancelled));
      J.attribute("wall_seconds", S.WallSeconds);
      J.attribute("busy_seconds", S.BusySeconds);
      J.attribute("modules_per_second", getRate(S));
    });
  });
  OS << '\n';
}
