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
  std::unique_ptr<PTXCompiler> compiler;
  std::unique_ptr<ContentCache> cache;
  std::string identity;
};

struct mmptx_batch {
  BatchResult result;
};

using capi::fail;

static mmptx_backend_result_t ok() {
  return capi::succeed(MMPTX_BACKEND_SUCCESS);
}

const char *mmptx_backend_result_to_string(mmptx_backend_result_t result) {
  switch (result) {
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
mmptx_compile_options_init(mmptx_compile_options_t *options) {
  if (!options)
    return fail(MMPTX_BACKEND_ERROR_INVALID_ARGUMENT, "options is NULL");
  std::memset(options, 0, sizeof(*options));
  options->arch = "sm_80";
  options->opt_level = 3;
  options->deduplicate = 1;
  return ok();
}

mmptx_backend_result_t mmptx_compiler_create(mmptx_backend_kind_t kind,
                                             const char *cache_dir,
                                             mmptx_compiler_t **out) {
  if (!out)
    return fail(MMPTX_BACKEND_ERROR_INVALID_ARGUMENT, "out is NULL");
  *out = nullptr;
  if (kind < MMPTX_BACKEND_NVPTXCOMPILER || kind > MMPTX_BACKEND_DEFAULT)
    return fail(MMPTX_BACKEND_ERROR_INVALID_ARGUMENT,
                "unknown backend kind " + Twine(int(kind)));
  static const BackendKind kinds[] = {
      BackendKind::NvPTXCompiler, BackendKind::NvJitLink, BackendKind::Ptxas};
  Expected<std::unique_ptr<PTXCompiler>> c =
      kind == MMPTX_BACKEND_DEFAULT ? createDefaultPTXCompiler()
                                    : createPTXCompiler(kinds[kind]);
  if (!c)
    return fail(MMPTX_BACKEND_ERROR_UNAVAILABLE, toString(c.takeError()));
  std::unique_ptr<mmptx_compiler> h(new (std::nothrow) mmptx_compiler);
  if (!h)
    return fail(MMPTX_BACKEND_ERROR_INVALID_ARGUMENT, "out of memory");
  h->compiler = std::move(*c);
  h->identity = h->compiler->getIdentity();
  if (cache_dir) {
    Expected<std::unique_ptr<ContentCache>> cache =
        ContentCache::open(cache_dir);
    if (!cache)
      return fail(MMPTX_BACKEND_ERROR_CACHE, toString(cache.takeError()));
    h->cache = std::move(*cache);
  }
  *out = h.release();
  return ok();
}

mmptx_backend_result_t mmptx_compiler_destroy(mmptx_compiler_t *compiler) {
  if (!compiler)
    return fail(MMPTX_BACKEND_ERROR_INVALID_ARGUMENT, "compiler is NULL");
  delete compiler;
  return ok();
}

mmptx_backend_result_t mmptx_compiler_identity(const mmptx_compiler_t *compiler,
                                               const char **identity) {
  if (!compiler || !identity)
    return fail(MMPTX_BACKEND_ERROR_INVALID_ARGUMENT,
                "compiler or identity is NULL");
  *identity = compiler->identity.c_str();
  return ok();
}

mmptx_backend_result_t
mmptx_compile_batch(mmptx_compiler_t *compiler, const char *const *ptx,
                    const size_t *sizes, size_t n,
                    const mmptx_compile_options_t *options, unsigned threads,
                    mmptx_batch_t **out) {
  if (!out)
    return fail(MMPTX_BACKEND_ERROR_INVALID_ARGUMENT, "out is NULL");
  *out = nullptr;
  if (!compiler || !options || (n && !ptx))
    return fail(MMPTX_BACKEND_ERROR_INVALID_ARGUMENT,
                "compiler, options or ptx is NULL");
  if (!options->arch)
    return fail(MMPTX_BACKEND_ERROR_INVALID_ARGUMENT, "options->arch is NULL");
  if (options->num_extra_options && !options->extra_options)
    return fail(MMPTX_BACKEND_ERROR_INVALID_ARGUMENT,
                "options->extra_options is NULL");
  CompileOptions opts;
  opts.Arch = options->arch;
  opts.OptLevel = options->opt_level;
  opts.LineInfo = options->line_info != 0;
  opts.MaxRegCount = options->max_reg_count;
  for (size_t i = 0; i < options->num_extra_options; ++i) {
    if (!options->extra_options[i])
      return fail(MMPTX_BACKEND_ERROR_INVALID_ARGUMENT,
                  "options->extra_options[" + Twine(i) + "] is NULL");
    opts.ExtraOptions.push_back(options->extra_options[i]);
  }
  if (Error e = opts.validate())
    return fail(MMPTX_BACKEND_ERROR_INVALID_ARGUMENT, toString(std::move(e)));

  std::vector<BatchModule> modules(n);
  for (size_t i = 0; i < n; ++i) {
    if (!ptx[i])
      return fail(MMPTX_BACKEND_ERROR_INVALID_ARGUMENT,
                  "ptx[" + Twine(i) + "] is NULL");
    modules[i].Name = "module " + std::to_string(i);
    modules[i].Ptx = sizes ? StringRef(ptx[i], sizes[i]) : StringRef(ptx[i]);
  }
  BatchOptions bopts;
  bopts.Threads = threads;
  bopts.Cache = compiler->cache.get();
  bopts.Deduplicate = options->deduplicate != 0;
  std::unique_ptr<mmptx_batch> b(new (std::nothrow) mmptx_batch);
  if (!b)
    return fail(MMPTX_BACKEND_ERROR_INVALID_ARGUMENT, "out of memory");
  b->result = compileBatch(*compiler->compiler, modules, opts, bopts);
  *out = b.release();
  return ok();
}

mmptx_backend_result_t mmptx_batch_destroy(mmptx_batch_t *batch) {
  if (!batch)
    return fail(MMPTX_BACKEND_ERROR_INVALID_ARGUMENT, "batch is NULL");
  delete batch;
  return ok();
}

mmptx_backend_result_t mmptx_batch_size(const mmptx_batch_t *batch, size_t *n) {
  if (!batch || !n)
    return fail(MMPTX_BACKEND_ERROR_INVALID_ARGUMENT, "batch or n is NULL");
  *n = batch->result.Modules.size();
  return ok();
}

/// Checks the batch, the index and the output pointers of an accessor.
static mmptx_backend_result_t checkModule(const mmptx_batch_t *batch,
                                          size_t index, bool outputsOk) {
  if (!batch || !outputsOk)
    return fail(MMPTX_BACKEND_ERROR_INVALID_ARGUMENT,
                "batch or an output pointer is NULL");
  if (index >= batch->result.Modules.size())
    return fail(MMPTX_BACKEND_ERROR_OUT_OF_RANGE,
                "module index " + Twine(index) + " out of range (batch of " +
                    Twine(batch->result.Modules.size()) + ")");
  return MMPTX_BACKEND_SUCCESS;
}

mmptx_backend_result_t mmptx_batch_cubin(const mmptx_batch_t *batch,
                                         size_t index, const void **data,
                                         size_t *size) {
  if (mmptx_backend_result_t r = checkModule(batch, index, data && size))
    return r;
  const ModuleResult &m = batch->result.Modules[index];
  if (!m.Ok) {
    *data = nullptr;
    *size = 0;
    return fail(MMPTX_BACKEND_ERROR_COMPILATION, m.Error);
  }
  *data = m.Result.Cubin.data();
  *size = m.Result.Cubin.size();
  return ok();
}

mmptx_backend_result_t mmptx_batch_error(const mmptx_batch_t *batch,
                                         size_t index, const char **message) {
  if (mmptx_backend_result_t r = checkModule(batch, index, message))
    return r;
  *message = batch->result.Modules[index].Error.c_str();
  return ok();
}

mmptx_backend_result_t mmptx_batch_info_log(const mmptx_batch_t *batch,
                                            size_t index, const char **log) {
  if (mmptx_backend_result_t r = checkModule(batch, index, log))
    return r;
  *log = batch->result.Modules[index].Result.InfoLog.c_str();
  return ok();
}

mmptx_backend_result_t mmptx_batch_summary(const mmptx_batch_t *batch,
                                           mmptx_batch_summary_t *summary) {
  if (!batch || !summary)
    return fail(MMPTX_BACKEND_ERROR_INVALID_ARGUMENT,
                "batch or summary is NULL");
  const BatchSummary &s = batch->result.Summary;
  summary->modules = s.Modules;
  summary->unique = s.Unique;
  summary->compiled = s.Compiled;
  summary->cache_hits = s.CacheHits;
  summary->duplicates = s.Duplicates;
  summary->failed = s.Failed;
  summary->threads = s.Threads;
  summary->wall_seconds = s.WallSeconds;
  summary->busy_seconds = s.BusySeconds;
  return ok();
}
