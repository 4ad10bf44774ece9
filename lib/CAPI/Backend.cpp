//===- Backend.cpp - C API of the PTX -> cubin backend --------------------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Implements mmptx-c/Backend.h over mmptx/Backend/Batch.h.
///
//===----------------------------------------------------------------------===//

#include "LastError.h"

#include "mmptx-c/Backend.h"
#include "mmptx/Backend/Batch.h"

#include <cstring>
#include <new>

using namespace llvm;
using namespace mmptx;

struct mmptx_compiler {
  std::unique_ptr<PTXCompiler> Compiler;
  std::unique_ptr<ContentCache> Cache;
  std::string Identity;
};

struct mmptx_batch {
  BatchResult Result;
};

using capi::fail;

static mmptx_backend_result_t ok() {
  return capi::succeed(MMPTX_BACKEND_SUCCESS);
}

const char *mmptx_backend_result_to_string(mmptx_backend_result_t Result) {
  switch (Result) {
#define CASE(X)                                                                \
  case X:                                                                      \
    return #X;
    CASE(MMPTX_BACKEND_SUCCESS)
    CASE(MMPTX_BACKEND_ERROR_INVALID_ARGUMENT)
    CASE(MMPTX_BACKEND_ERROR_UNAVAILABLE)
    CASE(MMPTX_BACKEND_ERROR_COMPILATION)
    CASE(MMPTX_BACKEND_ERROR_OUT_OF_RANGE)
    CASE(MMPTX_BACKEND_ERROR_CACHE)
#undef CASE
  case MMPTX_BACKEND_RESULT_NUM:
    break;
  }
  return "unknown result";
}

const char *mmptx_backend_last_error(void) { return mmptx_last_error(); }

mmptx_backend_result_t
mmptx_compile_options_init(mmptx_compile_options_t *Options) {
  if (!Options)
    return fail(MMPTX_BACKEND_ERROR_INVALID_ARGUMENT, "options is NULL");
  std::memset(Options, 0, sizeof(*Options));
  Options->arch = "sm_80";
  Options->opt_level = 3;
  Options->deduplicate = 1;
  return ok();
}

mmptx_backend_result_t mmptx_compiler_create(mmptx_backend_kind_t Kind,
                                             const char *CacheDir,
                                             mmptx_compiler_t **Out) {
  if (!Out)
    return fail(MMPTX_BACKEND_ERROR_INVALID_ARGUMENT, "out is NULL");
  *Out = nullptr;
  if (Kind < MMPTX_BACKEND_NVPTXCOMPILER || Kind > MMPTX_BACKEND_DEFAULT)
    return fail(MMPTX_BACKEND_ERROR_INVALID_ARGUMENT,
                "unknown backend kind " + Twine(int(Kind)));
  static const BackendKind Kinds[] = {
      BackendKind::NvPTXCompiler, BackendKind::NvJitLink, BackendKind::Ptxas};
  Expected<std::unique_ptr<PTXCompiler>> C =
      Kind == MMPTX_BACKEND_DEFAULT ? createDefaultPTXCompiler()
                                    : createPTXCompiler(Kinds[Kind]);
  if (!C)
    return fail(MMPTX_BACKEND_ERROR_UNAVAILABLE, toString(C.takeError()));
  std::unique_ptr<mmptx_compiler> H(new (std::nothrow) mmptx_compiler);
  if (!H)
    return fail(MMPTX_BACKEND_ERROR_INVALID_ARGUMENT, "out of memory");
  H->Compiler = std::move(*C);
  H->Identity = H->Compiler->getIdentity();
  if (CacheDir) {
    Expected<std::unique_ptr<ContentCache>> Cache =
        ContentCache::open(CacheDir);
    if (!Cache)
      return fail(MMPTX_BACKEND_ERROR_CACHE, toString(Cache.takeError()));
    H->Cache = std::move(*Cache);
  }
  *Out = H.release();
  return ok();
}

mmptx_backend_result_t mmptx_compiler_destroy(mmptx_compiler_t *Compiler) {
  // Like free(NULL) and mmptx_inject_destroy(NULL): nothing to do.
  delete Compiler;
  return ok();
}

mmptx_backend_result_t mmptx_compiler_identity(const mmptx_compiler_t *Compiler,
                                               const char **Identity) {
  if (!Compiler || !Identity)
    return fail(MMPTX_BACKEND_ERROR_INVALID_ARGUMENT,
                "compiler or identity is NULL");
  *Identity = Compiler->Identity.c_str();
  return ok();
}

mmptx_backend_result_t
mmptx_compile_batch(mmptx_compiler_t *Compiler, const char *const *Ptx,
                    const size_t *Sizes, size_t N,
                    const mmptx_compile_options_t *Options, unsigned Threads,
                    mmptx_batch_t **Out) {
  if (!Out)
    return fail(MMPTX_BACKEND_ERROR_INVALID_ARGUMENT, "out is NULL");
  *Out = nullptr;
  if (!Compiler || !Options || (N && !Ptx))
    return fail(MMPTX_BACKEND_ERROR_INVALID_ARGUMENT,
                "compiler, options or ptx is NULL");
  if (!Options->arch)
    return fail(MMPTX_BACKEND_ERROR_INVALID_ARGUMENT, "options->arch is NULL");
  if (Options->num_extra_options && !Options->extra_options)
    return fail(MMPTX_BACKEND_ERROR_INVALID_ARGUMENT,
                "options->extra_options is NULL");
  CompileOptions Opts;
  Opts.Arch = Options->arch;
  Opts.OptLevel = Options->opt_level;
  Opts.LineInfo = Options->line_info != 0;
  Opts.MaxRegCount = Options->max_reg_count;
  if (Options->fast_compile) {
    Optional<FastCompileLevel> L = parseFastCompileName(Options->fast_compile);
    if (!L)
      return fail(MMPTX_BACKEND_ERROR_INVALID_ARGUMENT,
                  "options->fast_compile: '" + Twine(Options->fast_compile) +
                      "' is not 0, min, mid or max");
    Opts.FastCompile = *L;
  }
  for (size_t I = 0; I < Options->num_extra_options; ++I) {
    if (!Options->extra_options[I])
      return fail(MMPTX_BACKEND_ERROR_INVALID_ARGUMENT,
                  "options->extra_options[" + Twine(I) + "] is NULL");
    Opts.ExtraOptions.push_back(Options->extra_options[I]);
  }
  if (Error E = Opts.validate())
    return fail(MMPTX_BACKEND_ERROR_INVALID_ARGUMENT, toString(std::move(E)));

  std::vector<BatchModule> Modules(N);
  for (size_t I = 0; I < N; ++I) {
    if (!Ptx[I])
      return fail(MMPTX_BACKEND_ERROR_INVALID_ARGUMENT,
                  "ptx[" + Twine(I) + "] is NULL");
    Modules[I].Name = "module " + std::to_string(I);
    Modules[I].Ptx = Sizes ? StringRef(Ptx[I], Sizes[I]) : StringRef(Ptx[I]);
  }
  BatchOptions Bopts;
  Bopts.Threads = Threads;
  Bopts.Cache = Compiler->Cache.get();
  Bopts.Deduplicate = Options->deduplicate != 0;
  std::unique_ptr<mmptx_batch> B(new (std::nothrow) mmptx_batch);
  if (!B)
    return fail(MMPTX_BACKEND_ERROR_INVALID_ARGUMENT, "out of memory");
  B->Result = compileBatch(*Compiler->Compiler, Modules, Opts, Bopts);
  *Out = B.release();
  return ok();
}

mmptx_backend_result_t mmptx_batch_destroy(mmptx_batch_t *Batch) {
  // Like free(NULL) and mmptx_inject_destroy(NULL): nothing to do.
  delete Batch;
  return ok();
}

mmptx_backend_result_t mmptx_batch_size(const mmptx_batch_t *Batch, size_t *N) {
  if (!Batch || !N)
    return fail(MMPTX_BACKEND_ERROR_INVALID_ARGUMENT, "batch or n is NULL");
  *N = Batch->Result.Modules.size();
  return ok();
}

/// Checks the batch, the index and the output pointers of an accessor.
static mmptx_backend_result_t checkModule(const mmptx_batch_t *Batch,
                                          size_t Index, bool OutputsOk) {
  if (!Batch || !OutputsOk)
    return fail(MMPTX_BACKEND_ERROR_INVALID_ARGUMENT,
                "batch or an output pointer is NULL");
  if (Index >= Batch->Result.Modules.size())
    return fail(MMPTX_BACKEND_ERROR_OUT_OF_RANGE,
                "module index " + Twine(Index) + " out of range (batch of " +
                    Twine(Batch->Result.Modules.size()) + ")");
  return MMPTX_BACKEND_SUCCESS;
}

mmptx_backend_result_t mmptx_batch_cubin(const mmptx_batch_t *Batch,
                                         size_t Index, const void **Data,
                                         size_t *Size) {
  if (mmptx_backend_result_t R = checkModule(Batch, Index, Data && Size))
    return R;
  const ModuleResult &M = Batch->Result.Modules[Index];
  if (!M.Ok) {
    *Data = nullptr;
    *Size = 0;
    return fail(MMPTX_BACKEND_ERROR_COMPILATION, M.Error);
  }
  *Data = M.Result.Cubin.data();
  *Size = M.Result.Cubin.size();
  return ok();
}

mmptx_backend_result_t mmptx_batch_error(const mmptx_batch_t *Batch,
                                         size_t Index, const char **Message) {
  if (mmptx_backend_result_t R = checkModule(Batch, Index, Message))
    return R;
  *Message = Batch->Result.Modules[Index].Error.c_str();
  return ok();
}

mmptx_backend_result_t mmptx_batch_info_log(const mmptx_batch_t *Batch,
                                            size_t Index, const char **Log) {
  if (mmptx_backend_result_t R = checkModule(Batch, Index, Log))
    return R;
  *Log = Batch->Result.Modules[Index].Result.InfoLog.c_str();
  return ok();
}

mmptx_backend_result_t mmptx_batch_summary(const mmptx_batch_t *Batch,
                                           mmptx_batch_summary_t *Summary) {
  if (!Batch || !Summary)
    return fail(MMPTX_BACKEND_ERROR_INVALID_ARGUMENT,
                "batch or summary is NULL");
  const BatchSummary &S = Batch->Result.Summary;
  Summary->modules = S.Modules;
  Summary->unique = S.Unique;
  Summary->compiled = S.Compiled;
  Summary->cache_hits = S.CacheHits;
  Summary->duplicates = S.Duplicates;
  Summary->failed = S.Failed;
  Summary->threads = S.Threads;
  Summary->wall_seconds = S.WallSeconds;
  Summary->busy_seconds = S.BusySeconds;
  return ok();
}
