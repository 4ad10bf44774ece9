/*===- BackendCAPICTest.c - C99 test of mmptx-c/Backend.h -----------------===*\
|*                                                                            *|
|* Part of the mmptx project, under the Apache License v2.0 with LLVM         *|
|* Exceptions.                                                                *|
|*                                                                            *|
|* Compiled as C99: the header is valid C and a C caller can compile a batch *|
|* and read each module's cubin or error.                                     *|
\*===----------------------------------------------------------------------===*/

#include "mmptx-c/Backend.h"

#include <stdio.h>
#include <string.h>

/* Returns 0 on success, 1 if no backend is available (a skip), 2 on a
 * failure described in failure. */
int mmptx_backend_c_test(const char *ptx, char *failure, size_t failure_size) {
  mmptx_compiler_t *compiler = NULL;
  mmptx_compile_options_t options;
  mmptx_batch_t *batch = NULL;
  mmptx_batch_summary_t summary;
  const char *modules[2];
  const void *cubin = NULL;
  const char *message = NULL;
  size_t size = 0, n = 0;
  int rc = 0;

  if (mmptx_compiler_create(MMPTX_BACKEND_DEFAULT, NULL, &compiler) !=
      MMPTX_BACKEND_SUCCESS)
    return 1;
  modules[0] = ptx;
  modules[1] = ".version 9.0\n.target sm_80\n.address_size 64\nnot ptx\n";
  if (mmptx_compile_options_init(&options) != MMPTX_BACKEND_SUCCESS ||
      mmptx_compile_batch(compiler, modules, NULL, 2, &options, 2, &batch) !=
          MMPTX_BACKEND_SUCCESS ||
      mmptx_batch_size(batch, &n) != MMPTX_BACKEND_SUCCESS || n != 2) {
    snprintf(failure, failure_size, "batch: %s", mmptx_backend_last_error());
    rc = 2;
  } else if (mmptx_batch_cubin(batch, 0, &cubin, &size) !=
                 MMPTX_BACKEND_SUCCESS ||
             size < 4 || memcmp(cubin, "\177ELF", 4) != 0) {
    snprintf(failure, failure_size, "module 0: %s", mmptx_backend_last_error());
    rc = 2;
  } else if (mmptx_batch_cubin(batch, 1, &cubin, &size) !=
                 MMPTX_BACKEND_ERROR_COMPILATION ||
             mmptx_batch_error(batch, 1, &message) != MMPTX_BACKEND_SUCCESS ||
             strstr(message, "module 1:") == NULL) {
    snprintf(failure, failure_size, "module 1 did not fail as expected");
    rc = 2;
  } else if (mmptx_batch_summary(batch, &summary) != MMPTX_BACKEND_SUCCESS ||
             summary.modules != 2 || summary.failed != 1) {
    snprintf(failure, failure_size, "summary");
    rc = 2;
  }
  if (batch)
    mmptx_batch_destroy(batch);
  mmptx_compiler_destroy(compiler);
  return rc;
}
