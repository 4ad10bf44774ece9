//===- Batch.h - Many modules to cubin, in parallel, cached -----*- C++ -*-===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Compiles N PTX modules with one PTXCompiler on a thread pool in this
/// process. Modules with identical PTX are compiled once (variants that
/// differ only in dead code render the same); each unique module is looked
/// up in the PTX -> cubin cache first. One module's failure does not stop
/// the others: each result carries its own error.
///
//===----------------------------------------------------------------------===//

#ifndef MMPTX_BACKEND_BATCH_H
#define MMPTX_BACKEND_BATCH_H

#include "mmptx/Backend/PTXCompiler.h"
#include "mmptx/Cache/ContentCache.h"

#include "llvm/Support/raw_ostream.h"

#include <functional>

namespace mmptx {

/// The PTX -> cubin cache key: the PTX, every option, the backend's name and
/// exact version (the architecture is one of the options).
std::string getCubinCacheKey(const PTXCompiler &Compiler, llvm::StringRef Ptx,
                             const CompileOptions &Opts);

/// compile() through \p Cache (may be null). A failure is not cached.
/// \p FromCache, if given, says whether the result came from the cache.
llvm::Expected<CompileResult>
compileCached(PTXCompiler &Compiler, ContentCache *Cache, llvm::StringRef Ptx,
              const CompileOptions &Opts, llvm::StringRef Name = "<ptx>",
              const StubLineMap *Map = nullptr, bool *FromCache = nullptr);

struct BatchModule {
  std::string Name;
  llvm::StringRef Ptx; ///< Must outlive compileBatch().
  const StubLineMap *Map = nullptr;
};

/// The most worker threads a batch starts: more only exhausts the process.
constexpr unsigned MaxBatchThreads = 1024;

struct BatchOptions {
  /// Worker threads; 0: one per hardware thread; at most MaxBatchThreads.
  unsigned Threads = 0;
  ContentCache *Cache = nullptr;
  bool Deduplicate = true;
  /// Called (serialised) after each unique module: (done, total unique).
  std::function<void(size_t, size_t)> OnProgress;
  /// Asked (from the worker threads, so it must be thread-safe) before each
  /// unique module starts; once it says true, the modules not yet started
  /// are not compiled: each is a failure with ModuleResult::Cancelled set,
  /// and the results of those already done are kept.
  std::function<bool()> ShouldCancel;
  /// A module whose compile takes longer (seconds; 0: no limit) fails as
  /// timed out. ptxas is killed; an in-process compile cannot be stopped, so
  /// it is left to finish on a thread of its own (with its own copy of the
  /// PTX and its own compiler), its result dropped, while the batch goes on.
  double ModuleTimeout = 0;
};

struct ModuleResult {
  enum SourceKind { Compiled, Cached, Duplicate };
  bool Ok = false;
  SourceKind Source = Compiled;
  CompileResult Result;
  std::string Error;      ///< When !Ok: the formatted error.
  size_t DuplicateOf = 0; ///< When Source == Duplicate: the first module.
  bool Cancelled = false; ///< Not compiled: BatchOptions::ShouldCancel.
  bool TimedOut = false;  ///< Failed: BatchOptions::ModuleTimeout.
  double Seconds = 0;     ///< Time of its compile or cache lookup.
};

/// `compiled`, `cached` or `duplicate`: how a module's cubin came, as
/// reports name it.
llvm::StringRef getModuleSourceName(ModuleResult::SourceKind Source);

struct BatchSummary {
  size_t Modules = 0, Unique = 0, Compiled = 0, CacheHits = 0, Duplicates = 0,
         Failed = 0;
  /// Of the failed: not started (cancelled) and timed out.
  size_t Cancelled = 0, TimedOut = 0;
  unsigned Threads = 1;
  double WallSeconds = 0;
  /// Sum of the per-module times (compile or lookup).
  double BusySeconds = 0;
};

struct BatchResult {
  std::vector<ModuleResult> Modules; ///< In input order.
  BatchSummary Summary;
};

BatchResult compileBatch(PTXCompiler &Compiler,
                         llvm::ArrayRef<BatchModule> Modules,
                         const CompileOptions &Opts,
                         const BatchOptions &BOpts = {});

/// Modules whose PTX is rendered on demand (variants of one template).
struct RenderedModules {
  size_t Size = 0;
  /// Writes the PTX of module \p Index into \p Out, replacing what is
  /// there (InjectModule::render does). Called from several threads at
  /// once, possibly more than once per module; it must give the same text
  /// each time.
  std::function<llvm::Error(size_t Index, std::string &Out)> Render;
  /// The name of module \p Index in errors; `module N` when not set.
  std::function<std::string(size_t Index)> Name;
};

/// compileBatch() of modules rendered into buffers that each worker thread
/// reuses, not held one string per module: each module is rendered once to
/// find duplicates (a hash, then a byte compare) and each unique one again
/// right before its compile. Results, summary and options as compileBatch()
/// gives them; a module that fails to render fails with the renderer's
/// error.
BatchResult compileRenderedBatch(PTXCompiler &Compiler,
                                 const RenderedModules &Modules,
                                 const CompileOptions &Opts,
                                 const BatchOptions &BOpts = {});

/// What a batch report says besides the results.
struct BatchReportContext {
  std::string Tool = "mmptx-compile";
  std::string Backend; ///< PTXCompiler::getIdentity()
  std::string Arch;
  std::string CacheDir; ///< Empty: no cache.
  /// Where each module's cubin was written (empty: none).
  llvm::ArrayRef<std::string> Outputs;
};

/// Three lines: counts (modules, unique, duplicates, compiled, from cache,
/// failed), the backend, architecture, threads and cache, and the times.
void printBatchSummary(llvm::raw_ostream &OS, const BatchResult &R,
                       const BatchReportContext &Ctx);
/// One JSON object: the context, one entry per module (input, output,
/// status compiled|cached|duplicate|failed, seconds, cubin size or error)
/// and the summary.
void printBatchJSON(llvm::raw_ostream &OS, const BatchResult &R,
                    llvm::ArrayRef<BatchModule> Modules,
                    const BatchReportContext &Ctx);

} // namespace mmptx

#endif // MMPTX_BACKEND_BATCH_H
