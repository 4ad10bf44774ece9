/*===- PtxInjectCTest.c - C99 test of mmptx-c/PtxInject.h -----------------===*\
|*                                                                            *|
|* Part of the mmptx project, under the Apache License v2.0 with LLVM         *|
|* Exceptions.                                                                *|
|*                                                                            *|
|* Compiled as C99: calls every function of the C API and provokes every      *|
|* result code a caller can cause. INTERNAL, OUT_OF_MEMORY and RESERVED_5     *|
|* cannot be provoked and are only checked through mmptx_result_to_string.   *|
\*===----------------------------------------------------------------------===*/

#include "mmptx-c/PtxInject.h"

#include "CAPITestModules.h"

#include <stdio.h>
#include <string.h>

static char *g_failure;
static size_t g_failure_size;
static int g_failures;

#define CHECK(cond)                                                            \
  do {                                                                         \
    if (!(cond)) {                                                             \
      if (!g_failures)                                                         \
        snprintf(g_failure, g_failure_size, "%s:%d: CHECK(%s) failed",         \
                 __FILE__, __LINE__, #cond);                                   \
      ++g_failures;                                                            \
    }                                                                          \
  } while (0)

#define CHECK_RESULT(expr, expected)                                           \
  do {                                                                         \
    mmptx_result_t r_ = (expr);                                                \
    if (r_ != (expected)) {                                                    \
      if (!g_failures)                                                         \
        snprintf(g_failure, g_failure_size, "%s:%d: %s returned %s, not %s",   \
                 __FILE__, __LINE__, #expr, mmptx_result_to_string(r_),        \
                 #expected);                                                   \
      ++g_failures;                                                            \
    }                                                                          \
  } while (0)

static const char kPtx[] = "A\n"
                           "\t// PTX_INJECT_START f\n"
                           "\t// _x0 m f32 F32 acc\n"
                           "\t// _x1 i f32 DOG v\n"
                           "\t// PTX_INJECT_END\n"
                           "B\n"
                           "\t// PTX_INJECT_START g\n"
                           "\t// PTX_INJECT_END\n"
                           "C\n"
                           "\t// PTX_INJECT_START f\n"
                           "\t// _x0 m f32 F32 acc\n"
                           "\t// _x1 i f32 DOG v\n"
                           "\t// PTX_INJECT_END\n";

/* kPtx and the other fragments are not whole modules: they are created as
   trusted input, which only scans for markers. */
static mmptx_result_t create_fragment(mmptx_inject_t **out, const char *ptx,
                                      size_t size, const char *name,
                                      const mmptx_inject_type_t *types,
                                      size_t num_types, char *msg,
                                      size_t msg_size) {
  mmptx_inject_options_t o;
  memset(&o, 0, sizeof(o));
  o.buffer_name = name;
  o.extra_types = types;
  o.num_extra_types = num_types;
  o.trusted = 1;
  return mmptx_inject_create_with_options(out, ptx, size, &o, msg, msg_size);
}

static void test_result_to_string(void) {
  CHECK(strcmp(mmptx_result_to_string(MMPTX_SUCCESS), "MMPTX_SUCCESS") == 0);
  CHECK(strcmp(mmptx_result_to_string(MMPTX_ERROR_UNKNOWN_TYPE),
               "MMPTX_ERROR_UNKNOWN_TYPE") == 0);
  CHECK(strcmp(mmptx_result_to_string(MMPTX_ERROR_INTERNAL),
               "MMPTX_ERROR_INTERNAL") == 0);
  CHECK(strcmp(mmptx_result_to_string(MMPTX_ERROR_OUT_OF_MEMORY),
               "MMPTX_ERROR_OUT_OF_MEMORY") == 0);
  CHECK(strcmp(mmptx_result_to_string(MMPTX_ERROR_RESERVED_5),
               "MMPTX_ERROR_RESERVED_5") == 0);
  CHECK(strcmp(mmptx_result_to_string(MMPTX_RESULT_NUM_CODES),
               "MMPTX_ERROR_INVALID_RESULT") == 0);
  CHECK(strcmp(mmptx_result_to_string((mmptx_result_t)99),
               "MMPTX_ERROR_INVALID_RESULT") == 0);
  {
    int i;
    for (i = 0; i < MMPTX_RESULT_NUM_CODES; ++i)
      CHECK(strncmp(mmptx_result_to_string((mmptx_result_t)i), "MMPTX_", 6) ==
            0);
  }
}

static void test_create_errors(const mmptx_inject_type_t *dog) {
  mmptx_inject_t *h = (mmptx_inject_t *)&h; /* must be reset to NULL */
  char msg[256];
  CHECK_RESULT(
      mmptx_inject_create(NULL, kPtx, sizeof(kPtx) - 1, NULL, NULL, 0, NULL, 0),
      MMPTX_ERROR_INVALID_INPUT);
  CHECK_RESULT(
      mmptx_inject_create(&h, NULL, 5, NULL, NULL, 0, msg, sizeof(msg)),
      MMPTX_ERROR_INVALID_INPUT);
  CHECK(h == NULL);
  CHECK(strcmp(msg, "ptx is NULL") == 0);
  CHECK_RESULT(
      create_fragment(&h, kPtx, sizeof(kPtx) - 1, NULL, NULL, 1, NULL, 0),
      MMPTX_ERROR_INVALID_INPUT);
  {
    mmptx_inject_type_t bad = {NULL, "f32", "f32"};
    CHECK_RESULT(
        create_fragment(&h, kPtx, sizeof(kPtx) - 1, NULL, &bad, 1, NULL, 0),
        MMPTX_ERROR_INVALID_INPUT);
  }
  /* DOG is not built in. */
  h = (mmptx_inject_t *)&h;
  CHECK_RESULT(create_fragment(&h, kPtx, sizeof(kPtx) - 1, "k.ptx", NULL, 0,
                               msg, sizeof(msg)),
               MMPTX_ERROR_UNKNOWN_TYPE);
  CHECK(h == NULL);
  CHECK(strncmp(msg, "k.ptx:4:15: error: unknown inject type 'DOG'", 44) == 0);
  /* Truncated message: always NUL-terminated. */
  CHECK_RESULT(
      create_fragment(&h, kPtx, sizeof(kPtx) - 1, "k.ptx", NULL, 0, msg, 6),
      MMPTX_ERROR_UNKNOWN_TYPE);
  CHECK(strcmp(msg, "k.ptx") == 0);
  {
    static const char bad[] = "// PTX_INJECT_END\n";
    CHECK_RESULT(create_fragment(&h, bad, sizeof(bad) - 1, NULL, NULL, 0, msg,
                                 sizeof(msg)),
                 MMPTX_ERROR_FORMATTING);
    CHECK(strstr(msg, "<ptx>:1:4: error:") == msg);
  }
  {
    static const char bad[] = "// PTX_INJECT_START f\n// _x0 i f32 F32 a\n"
                              "// PTX_INJECT_END\n"
                              "// PTX_INJECT_START f\n// _x0 m f32 F32 a\n"
                              "// PTX_INJECT_END\n";
    CHECK_RESULT(create_fragment(&h, bad, sizeof(bad) - 1, NULL, dog, 1, msg,
                                 sizeof(msg)),
                 MMPTX_ERROR_INCONSISTENT_INJECTION);
    CHECK(strstr(msg, "note: first site of inject 'f' is here") != NULL);
  }
}

static void test_queries(mmptx_inject_t *h) {
  size_t n = 0, idx = 99, nvars = 99, nsites = 99;
  const char *name = NULL, *reg = NULL, *regtype = NULL, *type = NULL;
  mmptx_arg_kind_t kind = MMPTX_ARG_OUT;

  CHECK_RESULT(mmptx_inject_num_injects(NULL, &n), MMPTX_ERROR_INVALID_INPUT);
  CHECK_RESULT(mmptx_inject_num_injects(h, NULL), MMPTX_ERROR_INVALID_INPUT);
  CHECK_RESULT(mmptx_inject_num_injects(h, &n), MMPTX_SUCCESS);
  CHECK(n == 2);

  CHECK_RESULT(mmptx_inject_inject_info_by_name(NULL, "f", &idx, NULL, NULL),
               MMPTX_ERROR_INVALID_INPUT);
  CHECK_RESULT(mmptx_inject_inject_info_by_name(h, NULL, &idx, NULL, NULL),
               MMPTX_ERROR_INVALID_INPUT);
  CHECK_RESULT(mmptx_inject_inject_info_by_name(h, "nope", &idx, NULL, NULL),
               MMPTX_ERROR_INJECTION_NAME_NOT_FOUND);
  CHECK_RESULT(mmptx_inject_inject_info_by_name(h, "g", NULL, NULL, NULL),
               MMPTX_SUCCESS);
  CHECK_RESULT(mmptx_inject_inject_info_by_name(h, "f", &idx, &nvars, &nsites),
               MMPTX_SUCCESS);
  CHECK(idx == 0 && nvars == 2 && nsites == 2);

  CHECK_RESULT(mmptx_inject_inject_info_by_index(NULL, 0, &name, NULL, NULL),
               MMPTX_ERROR_INVALID_INPUT);
  CHECK_RESULT(mmptx_inject_inject_info_by_index(h, 2, &name, NULL, NULL),
               MMPTX_ERROR_OUT_OF_BOUNDS_IDX);
  CHECK_RESULT(mmptx_inject_inject_info_by_index(h, 1, &name, &nvars, &nsites),
               MMPTX_SUCCESS);
  CHECK(name && strcmp(name, "g") == 0 && nvars == 0 && nsites == 1);
  CHECK_RESULT(mmptx_inject_inject_info_by_index(h, 1, NULL, NULL, NULL),
               MMPTX_SUCCESS);

  CHECK_RESULT(mmptx_inject_variable_info_by_name(NULL, 0, "v", &idx, &reg,
                                                  &kind, &regtype, &type),
               MMPTX_ERROR_INVALID_INPUT);
  CHECK_RESULT(mmptx_inject_variable_info_by_name(h, 0, NULL, &idx, &reg, &kind,
                                                  &regtype, &type),
               MMPTX_ERROR_INVALID_INPUT);
  CHECK_RESULT(mmptx_inject_variable_info_by_name(h, 7, "v", &idx, &reg, &kind,
                                                  &regtype, &type),
               MMPTX_ERROR_OUT_OF_BOUNDS_IDX);
  CHECK_RESULT(mmptx_inject_variable_info_by_name(h, 0, "w", &idx, &reg, &kind,
                                                  &regtype, &type),
               MMPTX_ERROR_INJECTION_ARG_NAME_NOT_FOUND);
  CHECK_RESULT(mmptx_inject_variable_info_by_name(h, 0, "v", &idx, &reg, &kind,
                                                  &regtype, &type),
               MMPTX_SUCCESS);
  CHECK(idx == 1 && strcmp(reg, "_x1") == 0 && kind == MMPTX_ARG_IN &&
        strcmp(regtype, "f32") == 0 && strcmp(type, "DOG") == 0);
  CHECK_RESULT(mmptx_inject_variable_info_by_name(h, 0, "acc", NULL, NULL, NULL,
                                                  NULL, NULL),
               MMPTX_SUCCESS);

  CHECK_RESULT(mmptx_inject_variable_info_by_index(NULL, 0, 0, &name, &reg,
                                                   &kind, &regtype, &type),
               MMPTX_ERROR_INVALID_INPUT);
  CHECK_RESULT(mmptx_inject_variable_info_by_index(h, 2, 0, &name, &reg, &kind,
                                                   &regtype, &type),
               MMPTX_ERROR_OUT_OF_BOUNDS_IDX);
  CHECK_RESULT(mmptx_inject_variable_info_by_index(h, 0, 2, &name, &reg, &kind,
                                                   &regtype, &type),
               MMPTX_ERROR_OUT_OF_BOUNDS_IDX);
  CHECK_RESULT(mmptx_inject_variable_info_by_index(h, 1, 0, &name, &reg, &kind,
                                                   &regtype, &type),
               MMPTX_ERROR_OUT_OF_BOUNDS_IDX);
  CHECK_RESULT(mmptx_inject_variable_info_by_index(h, 0, 0, &name, &reg, &kind,
                                                   &regtype, &type),
               MMPTX_SUCCESS);
  CHECK(strcmp(name, "acc") == 0 && strcmp(reg, "_x0") == 0 &&
        kind == MMPTX_ARG_MOD && strcmp(regtype, "f32") == 0 &&
        strcmp(type, "F32") == 0);
  CHECK_RESULT(mmptx_inject_variable_info_by_index(h, 0, 1, NULL, NULL, NULL,
                                                   NULL, NULL),
               MMPTX_SUCCESS);
}

static void test_render(mmptx_inject_t *h) {
  const char *stubs[2] = {"\t// F", "\t// G"};
  const char *oneStub[1] = {"\t// F"};
  const char *nullStub[2] = {"\t// F", NULL};
  static const char expected[] = "A\n\t// F\nB\n\t// G\nC\n\t// F\n";
  char buf[64];
  size_t size = 0, written = 0;

  CHECK_RESULT(mmptx_inject_render(NULL, stubs, 2, NULL, 0, &size),
               MMPTX_ERROR_INVALID_INPUT);
  /* The count is checked before the array is read: a one-element array
     with a wrong count is never overrun. */
  CHECK_RESULT(mmptx_inject_render(h, oneStub, 5, NULL, 0, &size),
               MMPTX_ERROR_WRONG_NUM_STUBS);
  CHECK_RESULT(mmptx_inject_render(h, oneStub, 1, NULL, 0, &size),
               MMPTX_ERROR_WRONG_NUM_STUBS);
  CHECK_RESULT(mmptx_inject_render(h, NULL, 2, NULL, 0, &size),
               MMPTX_ERROR_INVALID_INPUT);
  CHECK_RESULT(mmptx_inject_render(h, nullStub, 2, NULL, 0, &size),
               MMPTX_ERROR_INVALID_INPUT);
  CHECK_RESULT(mmptx_inject_render(h, stubs, 2, NULL, 0, NULL),
               MMPTX_ERROR_INVALID_INPUT);

  /* Size query: excludes the NUL. */
  CHECK_RESULT(mmptx_inject_render(h, stubs, 2, NULL, 0, &size), MMPTX_SUCCESS);
  CHECK(size == sizeof(expected) - 1);
  /* The buffer needs size + 1 bytes for the NUL. */
  CHECK_RESULT(mmptx_inject_render(h, stubs, 2, buf, size, &written),
               MMPTX_ERROR_INSUFFICIENT_BUFFER);
  CHECK(written == size);
  memset(buf, 'z', sizeof(buf));
  CHECK_RESULT(mmptx_inject_render(h, stubs, 2, buf, size + 1, &written),
               MMPTX_SUCCESS);
  CHECK(written == size);
  CHECK(strcmp(buf, expected) == 0);
  CHECK_RESULT(mmptx_inject_render(h, stubs, 2, buf, sizeof(buf), NULL),
               MMPTX_SUCCESS);
  CHECK(strcmp(buf, expected) == 0);
}

static void test_no_injects(void) {
  static const char ptx[] = ".version 9.0\n";
  mmptx_inject_t *h = NULL;
  size_t n = 9, size = 0;
  char buf[32];
  CHECK_RESULT(
      mmptx_inject_create(&h, ptx, sizeof(ptx) - 1, NULL, NULL, 0, NULL, 0),
      MMPTX_SUCCESS);
  CHECK_RESULT(mmptx_inject_num_injects(h, &n), MMPTX_SUCCESS);
  CHECK(n == 0);
  /* NULL stubs are fine with no injects. */
  CHECK_RESULT(mmptx_inject_render(h, NULL, 0, NULL, 0, &size), MMPTX_SUCCESS);
  CHECK(size == sizeof(ptx) - 1);
  CHECK_RESULT(mmptx_inject_render(h, NULL, 0, buf, sizeof(buf), NULL),
               MMPTX_SUCCESS);
  CHECK(strcmp(buf, ptx) == 0);
  CHECK_RESULT(mmptx_inject_destroy(h), MMPTX_SUCCESS);
  /* Empty input is no PTX module; as trusted input it has no injects. */
  CHECK_RESULT(mmptx_inject_create(&h, NULL, 0, NULL, NULL, 0, NULL, 0),
               MMPTX_ERROR_INVALID_PTX);
  CHECK_RESULT(create_fragment(&h, NULL, 0, NULL, NULL, 0, NULL, 0),
               MMPTX_SUCCESS);
  CHECK_RESULT(mmptx_inject_destroy(h), MMPTX_SUCCESS);
}

/* create checks what mmptx-opt checks; render checks the stubs. */
static void test_checks(void) {
  mmptx_inject_t *h = NULL;
  char msg[256];
  const char *good[1] = {"\tadd.f32 %_x0, %_x0, 0f3F800000;"};
  const char *bad[1] = {"}\n.entry evil() { ret; }\n{"};
  size_t size = 0;
  CHECK_RESULT(mmptx_inject_create(&h, kPtx, sizeof(kPtx) - 1, "k.ptx", NULL, 0,
                                   msg, sizeof(msg)),
               MMPTX_ERROR_INVALID_PTX);
  CHECK(strstr(msg, "k.ptx:") == msg &&
        strstr(msg, "error: expected ';' at end of instruction") != NULL);
  CHECK(strcmp(msg, mmptx_inject_last_error()) == 0);
  {
    /* Operand-level errors, as mmptx-opt reports them. */
    static const char f33[] = ".version 9.0\n.target sm_80\n"
                              ".address_size 64\n.entry k()\n{\n"
                              ".reg .f33 %a;\nret;\n}\n";
    static const char big[] =
        ".version 9.0\n.target sm_80\n.address_size 64\n.entry k()\n{\n"
        ".reg .b32 %a;\nmov.b32 %a, 123456789012345678901234567890123456789;"
        "\nret;\n}\n";
    CHECK_RESULT(mmptx_inject_create(&h, f33, sizeof(f33) - 1, "f.ptx", NULL, 0,
                                     msg, sizeof(msg)),
                 MMPTX_ERROR_INVALID_PTX);
    CHECK(strstr(msg, "f.ptx:6:6: error: unknown PTX type '.f33'") == msg);
    CHECK_RESULT(mmptx_inject_create(&h, big, sizeof(big) - 1, "b.ptx", NULL, 0,
                                     msg, sizeof(msg)),
                 MMPTX_ERROR_INVALID_PTX);
    CHECK(strstr(msg, "b.ptx:7:13: error: integer literal does not fit in "
                      "64 bits") == msg);
  }
  {
    /* A site at module scope. */
    static const char outside[] = ".version 9.0\n"
                                  "// PTX_INJECT_START f\n"
                                  "// PTX_INJECT_END\n";
    CHECK_RESULT(mmptx_inject_create(&h, outside, sizeof(outside) - 1, NULL,
                                     NULL, 0, msg, sizeof(msg)),
                 MMPTX_ERROR_INVALID_SITE);
    CHECK(strstr(msg, "is outside any function") != NULL);
  }
  {
    /* A legacy site whose register is not declared. */
    static const char undeclared[] = ".version 9.0\n.entry k()\n{\n"
                                     "// PTX_INJECT_START f\n"
                                     "// %f9 mod f32 acc\n"
                                     "// PTX_INJECT_END\n}\n";
    CHECK_RESULT(mmptx_inject_create(&h, undeclared, sizeof(undeclared) - 1,
                                     NULL, NULL, 0, msg, sizeof(msg)),
                 MMPTX_ERROR_INVALID_SITE);
    CHECK(strstr(msg, "register '%f9' of variable 'acc' is not declared") !=
          NULL);
  }
  CHECK_RESULT(mmptx_inject_create(&h, kModule, sizeof(kModule) - 1, "m.ptx",
                                   NULL, 0, msg, sizeof(msg)),
               MMPTX_SUCCESS);
  CHECK(mmptx_inject_last_error()[0] == '\0');
  CHECK_RESULT(mmptx_inject_render(h, good, 1, NULL, 0, &size), MMPTX_SUCCESS);
  CHECK_RESULT(mmptx_inject_render(h, bad, 1, NULL, 0, &size),
               MMPTX_ERROR_INVALID_STUB);
  CHECK(strcmp(mmptx_inject_last_error(),
               "<stub of inject 'f'>:1:1: error: unmatched '}'\n"
               "}\n^") == 0);
  /* Trusted stubs are not checked. */
  CHECK_RESULT(mmptx_inject_render_unchecked(h, bad, 1, NULL, 0, &size),
               MMPTX_SUCCESS);
  CHECK_RESULT(mmptx_inject_destroy(h), MMPTX_SUCCESS);
}

int mmptx_capi_c_test(char *failure, size_t failure_size) {
  mmptx_inject_type_t dog = {"DOG", "f32", "f32"};
  mmptx_inject_t *h = NULL;
  char msg[256];
  g_failure = failure;
  g_failure_size = failure_size;
  g_failures = 0;

  test_result_to_string();
  test_create_errors(&dog);
  CHECK_RESULT(create_fragment(&h, kPtx, sizeof(kPtx) - 1, "k.ptx", &dog, 1,
                               msg, sizeof(msg)),
               MMPTX_SUCCESS);
  CHECK(h != NULL);
  CHECK(msg[0] == '\0');
  if (h) {
    test_queries(h);
    test_render(h);
  }
  CHECK_RESULT(mmptx_inject_destroy(h), MMPTX_SUCCESS);
  CHECK_RESULT(mmptx_inject_destroy(NULL), MMPTX_SUCCESS);
  test_no_injects();
  test_checks();
  return g_failures;
}
