/*===- mmptx-inject-capi.c - Drive the PTX Inject C API -------------*- C
-*-===*\
|*                                                                            *|
|* Part of the mmptx project, under the Apache License v2.0 with LLVM         *|
|* Exceptions.                                                                *|
|*                                                                            *|
|*===----------------------------------------------------------------------===*|
|*                                                                            *|
|* Test-only driver: feeds a PTX file and stub files through the C API the   *|
|* way `mmptx-opt FILE --inject NAME=STUB ...` feeds them through the C++     *|
|* one, so that lit can require both interfaces to give the same verdict.    *|
|*                                                                            *|
|*   mmptx-inject-capi FILE.ptx [NAME=STUB]...                                *|
|*                                                                            *|
|* Prints the rendered PTX; on failure prints "<RESULT>: <message>" to       *|
|* stderr and exits 1. Without stubs it only creates the handle.              *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#include "mmptx-c/PtxInject.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Reads FILE whole; one trailing newline is dropped when \p dropNewline. */
static char *readFile(const char *path, size_t *size, int dropNewline) {
  FILE *f = fopen(path, "rb");
  char *data;
  long n;
  if (!f)
    return NULL;
  if (fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0 ||
      fseek(f, 0, SEEK_SET) != 0) {
    fclose(f);
    return NULL;
  }
  data = (char *)malloc((size_t)n + 1);
  if (!data || fread(data, 1, (size_t)n, f) != (size_t)n) {
    free(data);
    fclose(f);
    return NULL;
  }
  fclose(f);
  if (dropNewline && n > 0 && data[n - 1] == '\n') {
    --n;
    if (n > 0 && data[n - 1] == '\r')
      --n;
  }
  data[n] = '\0';
  *size = (size_t)n;
  return data;
}

static int report(mmptx_result_t r) {
  fprintf(stderr, "%s: %s\n", mmptx_result_to_string(r),
          mmptx_inject_last_error());
  return 1;
}

int main(int argc, char **argv) {
  mmptx_inject_t *h = NULL;
  mmptx_result_t r;
  size_t size = 0, numInjects = 0, i, written = 0;
  const char **stubs;
  char **owned;
  char *ptx, *out;
  int status = 0;
  if (argc < 2) {
    fprintf(stderr, "usage: mmptx-inject-capi FILE.ptx [NAME=STUB]...\n");
    return 2;
  }
  ptx = readFile(argv[1], &size, 0);
  if (!ptx) {
    fprintf(stderr, "cannot read '%s'\n", argv[1]);
    return 2;
  }
  r = mmptx_inject_create(&h, ptx, size, argv[1], NULL, 0, NULL, 0);
  free(ptx);
  if (r != MMPTX_SUCCESS)
    return report(r);
  if (argc == 2) {
    mmptx_inject_destroy(h);
    return 0;
  }
  mmptx_inject_num_injects(h, &numInjects);
  stubs = (const char **)calloc(numInjects + 1, sizeof(char *));
  owned = (char **)calloc((size_t)argc, sizeof(char *));
  for (i = 2; i < (size_t)argc && !status; ++i) {
    char *eq = strchr(argv[i], '=');
    size_t index, stubSize;
    if (!eq) {
      fprintf(stderr, "expected NAME=STUB, got '%s'\n", argv[i]);
      status = 2;
      break;
    }
    *eq = '\0';
    r = mmptx_inject_inject_info_by_name(h, argv[i], &index, NULL, NULL);
    if (r != MMPTX_SUCCESS) {
      fprintf(stderr, "%s: no inject named '%s'\n", mmptx_result_to_string(r),
              argv[i]);
      status = 1;
      break;
    }
    owned[i] = readFile(eq + 1, &stubSize, 1);
    if (!owned[i]) {
      fprintf(stderr, "cannot read '%s'\n", eq + 1);
      status = 2;
      break;
    }
    stubs[index] = owned[i];
  }
  if (!status) {
    r = mmptx_inject_render(h, stubs, numInjects, NULL, 0, &written);
    if (r == MMPTX_SUCCESS) {
      out = (char *)malloc(written + 1);
      r = mmptx_inject_render(h, stubs, numInjects, out, written + 1, NULL);
      if (r == MMPTX_SUCCESS)
        fwrite(out, 1, written, stdout);
      free(out);
    }
    if (r != MMPTX_SUCCESS)
      status = report(r);
  }
  for (i = 0; i < (size_t)argc; ++i)
    free(owned[i]);
  free(owned);
  free((void *)stubs);
  mmptx_inject_destroy(h);
  return status;
}
