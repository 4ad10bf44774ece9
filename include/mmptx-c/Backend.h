/*===- Backend.h - C API of the PTX -> cubin backend --------------*- C -*-===*\
|*                                                                            *|
|* Part of the mmptx project, under the Apache License v2.0 with LLVM         *|
|* Exceptions.                                                                *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
/*
 * C99 interface to mmptx/Backend (PTXCompiler, compileBatch, ContentCache).
 * Link with MMPTXBackendCAPI.
 *
 *   mmptx_compiler_t *c;
 *   if (mmptx_compiler_create(MMPTX_BACKEND_DEFAULT, "/tmp/cache", &c))
 *     fprintf(stderr, "%s\n", mmptx_backend_last_error());
 *   mmptx_compile_options_t opts;
 *   mmptx_compile_options_init(&opts);               sm_80, -O3
 *   mmptx_batch_t *b;
 *   mmptx_compile_batch(c, ptx, sizes, n, &opts, 0, &b);   0: all cores
 *   for (i = 0; i < n; ++i)
 *     if (mmptx_batch_cubin(b, i, &data, &size) == MMPTX_BACKEND_SUCCESS)
 *       ... else mmptx_batch_error(b, i, &message);
 *   mmptx_batch_destroy(b);
 *   mmptx_compiler_destroy(c);
 *
 * Every input is checked: NULL pointers (with non-zero counts), unknown
 * backends, bad options and out-of-range indices give an error code, never
 * undefined behaviour. Errors follow mmptx-c/Error.h: every call records its
 * message for the calling thread (mmptx_last_error(), "" on success). A
 * compiler may be used by several threads at once; a batch's results are
 * read-only.
 */

#ifndef MMPTX_C_BACKEND_H
#define MMPTX_C_BACKEND_H

#include "mmptx-c/Error.h"

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum mmptx_backend_result {
  MMPTX_BACKEND_SUCCESS = 0,
  MMPTX_BACKEND_ERROR_INVALID_ARGUMENT = 1, /* NULL pointer, bad option */
  MMPTX_BACKEND_ERROR_UNAVAILABLE = 2,      /* backend not in this build */
  MMPTX_BACKEND_ERROR_COMPILATION = 3,      /* the compiler rejected it */
  MMPTX_BACKEND_ERROR_OUT_OF_RANGE = 4,     /* module index */
  MMPTX_BACKEND_ERROR_CACHE = 5,            /* cache directory unusable */
  MMPTX_BACKEND_RESULT_NUM = 6
} mmptx_backend_result_t;

typedef enum mmptx_backend_kind {
  MMPTX_BACKEND_NVPTXCOMPILER = 0,
  MMPTX_BACKEND_NVJITLINK = 1,
  MMPTX_BACKEND_PTXAS = 2,
  MMPTX_BACKEND_DEFAULT = 3 /* the first available of the three */
} mmptx_backend_kind_t;

typedef struct mmptx_compiler mmptx_compiler_t;
typedef struct mmptx_batch mmptx_batch_t;

typedef struct mmptx_compile_options {
  const char *arch;                 /* "sm_80", "sm_90a", ... */
  unsigned opt_level;               /* 0..3 */
  int line_info;                    /* non-zero: -lineinfo */
  unsigned max_reg_count;           /* 0: no limit */
  const char *const *extra_options; /* passed as they are */
  size_t num_extra_options;
  int deduplicate; /* non-zero: identical PTX compiled once */
  /* NULL (or "0"), "min", "mid" or "max": -Ofast-compile=<level>, code
     quality traded for compile time (CUDA 12.8 or newer; replaces -O) */
  const char *fast_compile;
} mmptx_compile_options_t;

typedef struct mmptx_batch_summary {
  size_t modules, unique, compiled, cache_hits, duplicates, failed;
  unsigned threads;
  double wall_seconds, busy_seconds;
} mmptx_batch_summary_t;

/* A static string naming \p result; "unknown result" if out of range. */
const char *mmptx_backend_result_to_string(mmptx_backend_result_t result);
/* mmptx_last_error(): the message of the calling thread's last call. */
const char *mmptx_backend_last_error(void);

/* Defaults: sm_80, -O3, no line info, no register limit, deduplicate. */
mmptx_backend_result_t
mmptx_compile_options_init(mmptx_compile_options_t *options);

/* \p cache_dir: a PTX -> cubin cache directory, or NULL for none. */
mmptx_backend_result_t mmptx_compiler_create(mmptx_backend_kind_t kind,
                                             const char *cache_dir,
                                             mmptx_compiler_t **out);
/* NULL is accepted and does nothing, as for every mmptx destroy function. */
mmptx_backend_result_t mmptx_compiler_destroy(mmptx_compiler_t *compiler);
/* "<backend> <version>", e.g. "ptxas 13.0.88"; owned by the compiler. */
mmptx_backend_result_t mmptx_compiler_identity(const mmptx_compiler_t *compiler,
                                               const char **identity);

/* Compiles \p n modules (ptx[i] of sizes[i] bytes; sizes may be NULL for
 * NUL-terminated texts) on \p threads threads (0: one per core). A module
 * that fails does not stop the others: the call succeeds and the batch
 * holds each module's result. */
mmptx_backend_result_t
mmptx_compile_batch(mmptx_compiler_t *compiler, const char *const *ptx,
                    const size_t *sizes, size_t n,
                    const mmptx_compile_options_t *options, unsigned threads,
                    mmptx_batch_t **out);
/* NULL is accepted and does nothing. */
mmptx_backend_result_t mmptx_batch_destroy(mmptx_batch_t *batch);
mmptx_backend_result_t mmptx_batch_size(const mmptx_batch_t *batch, size_t *n);
/* The cubin of module \p index (owned by the batch), or
 * MMPTX_BACKEND_ERROR_COMPILATION if that module failed. */
mmptx_backend_result_t mmptx_batch_cubin(const mmptx_batch_t *batch,
                                         size_t index, const void **data,
                                         size_t *size);
/* The compiler's message for module \p index ("" if it succeeded). */
mmptx_backend_result_t mmptx_batch_error(const mmptx_batch_t *batch,
                                         size_t index, const char **message);
/* The compiler's info log for module \p index ("" if none). */
mmptx_backend_result_t mmptx_batch_info_log(const mmptx_batch_t *batch,
                                            size_t index, const char **log);
mmptx_backend_result_t mmptx_batch_summary(const mmptx_batch_t *batch,
                                           mmptx_batch_summary_t *summary);

#ifdef __cplusplus
}
#endif

#endif /* MMPTX_C_BACKEND_H */
