/*===- LastErrorCTest.c - The error convention of every C API -------------===*\
|*                                                                            *|
|* Part of the mmptx project, under the Apache License v2.0 with LLVM         *|
|* Exceptions.                                                                *|
|*                                                                            *|
|* Compiled as C99: every C API (PtxInject, StackPtx, AstPtx, Backend)        *|
|* records each call's message for the calling thread (mmptx-c/Error.h): the *|
|* code and message of each error a caller can cause, "" after a success,    *|
|* the per-API and per-context accessors, and two threads failing at once.   *|
\*===----------------------------------------------------------------------===*/

#include "mmptx-c/AstPtx.h"
#include "mmptx-c/Backend.h"
#include "mmptx-c/Error.h"
#include "mmptx-c/PtxInject.h"
#include "mmptx-c/StackPtx.h"

#include "CAPITestModules.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

static char *g_failure;
static size_t g_failure_size;
static int g_failures;

/* The first failure is kept; threads only write when g_failures is 0. */
static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;

#define CHECK(cond)                                                            \
  do {                                                                         \
    if (!(cond)) {                                                             \
      pthread_mutex_lock(&g_lock);                                             \
      if (!g_failures)                                                         \
        snprintf(g_failure, g_failure_size,                                    \
                 "%s:%d: CHECK(%s) failed; last error '%s'", __FILE__,         \
                 __LINE__, #cond, mmptx_last_error());                         \
      ++g_failures;                                                            \
      pthread_mutex_unlock(&g_lock);                                           \
    }                                                                          \
  } while (0)

/* Checks that \p expr returns \p code and leaves exactly \p msg. */
#define CHECK_ERROR(expr, code, msg)                                           \
  do {                                                                         \
    CHECK((expr) == (code));                                                   \
    CHECK(strcmp(mmptx_last_error(), (msg)) == 0);                             \
  } while (0)

static void test_inject(void) {
  mmptx_inject_t *h = NULL;
  size_t n = 0;
  const char *name = NULL;
  CHECK_ERROR(mmptx_inject_create(NULL, kModule, sizeof(kModule) - 1, NULL,
                                  NULL, 0, NULL, 0),
              MMPTX_ERROR_INVALID_INPUT, "out is NULL");
  CHECK_ERROR(mmptx_inject_create(&h, kModule, sizeof(kModule) - 1, "m.ptx",
                                  NULL, 0, NULL, 0),
              MMPTX_SUCCESS, "");
  CHECK_ERROR(mmptx_inject_num_injects(NULL, &n), MMPTX_ERROR_INVALID_INPUT,
              "handle or num_injects is NULL");
  /* The per-API name is the same message. */
  CHECK(mmptx_inject_last_error() == mmptx_last_error());
  CHECK_ERROR(mmptx_inject_inject_info_by_name(h, "g", NULL, NULL, NULL),
              MMPTX_ERROR_INJECTION_NAME_NOT_FOUND, "no inject named 'g'");
  CHECK_ERROR(mmptx_inject_inject_info_by_index(h, 3, &name, NULL, NULL),
              MMPTX_ERROR_OUT_OF_BOUNDS_IDX,
              "inject index 3 is out of range (1 injects)");
  CHECK_ERROR(mmptx_inject_variable_info_by_name(h, 0, "x", NULL, NULL, NULL,
                                                 NULL, NULL),
              MMPTX_ERROR_INJECTION_ARG_NAME_NOT_FOUND,
              "inject 'f' has no variable named 'x'");
  CHECK_ERROR(mmptx_inject_variable_info_by_index(h, 0, 1, NULL, NULL, NULL,
                                                  NULL, NULL),
              MMPTX_ERROR_OUT_OF_BOUNDS_IDX,
              "variable index 1 is out of range (inject 'f' has 1)");
  CHECK_ERROR(mmptx_inject_render(h, NULL, 2, NULL, 0, &n),
              MMPTX_ERROR_WRONG_NUM_STUBS,
              "expected 1 stub (one per inject), got 2");
  /* A success clears the message. */
  CHECK_ERROR(mmptx_inject_num_injects(h, &n), MMPTX_SUCCESS, "");
  CHECK(n == 1);
  {
    const char *stubs[1] = {"\tadd.f32 %_x0, %_x0, %_x0;"};
    char small[8];
    size_t size = 0;
    CHECK(mmptx_inject_render(h, stubs, 1, NULL, 0, &size) == MMPTX_SUCCESS);
    CHECK(mmptx_inject_render(h, stubs, 1, small, sizeof(small), NULL) ==
          MMPTX_ERROR_INSUFFICIENT_BUFFER);
    CHECK(strstr(mmptx_last_error(),
                 "output buffer of 8 bytes is too small: the rendered PTX "
                 "and its NUL need ") == mmptx_last_error());
  }
  CHECK_ERROR(mmptx_inject_destroy(h), MMPTX_SUCCESS, "");
}

static void test_stack(void) {
  mmptx_stack_context_t *ctx = NULL, *other = NULL;
  mmptx_stack_options_t o;
  mmptx_stack_tables_t bad = *mmptx_stack_default_tables();
  size_t written = 0;
  char small[4];
  uint64_t words[1];
  mmptx_stack_register_t reg = {"x", 0, MMPTX_STACK_REG_OUT};
  uint32_t req = 0;
  mmptx_stack_options_init(&o);
  o.stack_size = 1u << 21;
  CHECK_ERROR(mmptx_stack_context_create(NULL, &o, &ctx),
              MMPTX_STACK_ERROR_INVALID_ARGUMENT,
              "options.stack_size = 2097152 is too large (at most 1048576)");
  CHECK(ctx == NULL);
  bad.stack_names = NULL;
  CHECK_ERROR(mmptx_stack_context_create(&bad, NULL, &ctx),
              MMPTX_STACK_ERROR_INVALID_TABLES,
              "invalid tables: stack tables are missing");
  CHECK_ERROR(mmptx_stack_context_create(NULL, NULL, NULL),
              MMPTX_STACK_ERROR_INVALID_ARGUMENT, "context is NULL");
  CHECK_ERROR(mmptx_stack_context_create(NULL, NULL, &ctx), MMPTX_STACK_SUCCESS,
              "");
  CHECK_ERROR(mmptx_stack_context_create(NULL, NULL, &other),
              MMPTX_STACK_SUCCESS, "");
  {
    const char *text = NULL;
    size_t length = 0;
    CHECK_ERROR(mmptx_stack_last_output(ctx, &text, &length),
                MMPTX_STACK_ERROR_INVALID_ARGUMENT,
                "the last compile made no output");
    CHECK_ERROR(mmptx_stack_last_output(ctx, NULL, &length),
                MMPTX_STACK_ERROR_INVALID_ARGUMENT,
                "context, text or length is NULL");
  }
  CHECK_ERROR(mmptx_stack_compile(ctx, NULL, 0, NULL, 0, NULL, 0, NULL, 0, NULL,
                                  0, NULL),
              MMPTX_STACK_ERROR_INVALID_ARGUMENT, "written is NULL");
  /* Out of range request: the thread's and the context's message. */
  req = 1;
  CHECK_ERROR(mmptx_stack_compile(ctx, NULL, 0, NULL, 0, &reg, 1, &req, 1, NULL,
                                  0, &written),
              MMPTX_STACK_ERROR_INVALID_REQUEST,
              "request 0 names register 1 of 1");
  CHECK(strcmp(mmptx_stack_last_error(ctx), mmptx_last_error()) == 0);
  /* A later success on another context clears the thread's message but
     not ctx's. */
  req = 0;
  words[0] = mmptx_stack_encode_constant(0, 0);
  CHECK_ERROR(mmptx_stack_compile(other, words, 1, NULL, 0, &reg, 1, &req, 1,
                                  small, sizeof(small), &written),
              MMPTX_STACK_ERROR_INSUFFICIENT_BUFFER,
              mmptx_stack_last_error(other));
  CHECK(strstr(mmptx_last_error(),
               "output buffer of 4 bytes is too small: "
               "the stub and its NUL need ") == mmptx_last_error());
  CHECK_ERROR(mmptx_stack_get_stats(other, NULL),
              MMPTX_STACK_ERROR_INVALID_ARGUMENT, "context or stats is NULL");
  {
    mmptx_stack_stats_t stats;
    CHECK_ERROR(mmptx_stack_get_stats(other, &stats), MMPTX_STACK_SUCCESS, "");
  }
  CHECK(strcmp(mmptx_stack_last_error(ctx),
               "request 0 names register 1 of 1") == 0);
  mmptx_stack_context_destroy(ctx);
  mmptx_stack_context_destroy(other);
}

static void test_ast(void) {
  mmptx_ast_context_t *ctx = NULL;
  mmptx_ast_options_t o = mmptx_ast_default_options();
  uint32_t map[1] = {100000};
  const char *text = NULL;
  size_t length = 0;
  mmptx_stack_tables_t bad = *mmptx_stack_default_tables();
  CHECK_ERROR(mmptx_ast_context_create(NULL, NULL, NULL),
              MMPTX_AST_ERROR_INVALID_VALUE, "context is NULL");
  bad.stack_names = NULL;
  CHECK_ERROR(mmptx_ast_context_create(&bad, NULL, &ctx),
              MMPTX_AST_ERROR_INVALID_VALUE,
              "invalid tables: stack tables are missing");
  o.instr_map = NULL;
  o.num_instr_map = 1;
  CHECK_ERROR(mmptx_ast_context_create(NULL, &o, &ctx),
              MMPTX_AST_ERROR_INVALID_VALUE,
              "instr_map is NULL with a non-zero count");
  o.instr_map = map;
  o.num_instr_map = 1;
  CHECK(mmptx_ast_context_create(NULL, &o, &ctx) ==
        MMPTX_AST_ERROR_PTX_INSTRUCTION_IDX_OUT_OF_BOUNDS);
  CHECK(strstr(mmptx_last_error(), "instr_map[0] is 100000, out of range") ==
        mmptx_last_error());
  CHECK_ERROR(mmptx_ast_context_create(NULL, NULL, &ctx), MMPTX_AST_SUCCESS,
              "");
  CHECK_ERROR(mmptx_ast_last_output(ctx, &text, &length),
              MMPTX_AST_ERROR_INVALID_VALUE, "the last compile made no output");
  CHECK_ERROR(mmptx_ast_compile(ctx, NULL, 0, NULL, 0, NULL, 0, NULL, 0, NULL),
              MMPTX_AST_ERROR_INVALID_VALUE, "written is NULL");
  CHECK(strcmp(mmptx_ast_last_error(ctx), "written is NULL") == 0);
  {
    uint64_t result = 0;
    mmptx_ast_variable_t in = {"x", 0};
    CHECK_ERROR(
        mmptx_ast_interpret(ctx, &in, 1, NULL, NULL, 0, NULL, 0, &result),
        MMPTX_AST_ERROR_INVALID_VALUE,
        "NULL values or results with a non-zero count");
  }
  mmptx_ast_context_destroy(ctx);
}

static void test_backend(void) {
  mmptx_compiler_t *c = NULL;
  CHECK_ERROR(mmptx_compile_options_init(NULL),
              MMPTX_BACKEND_ERROR_INVALID_ARGUMENT, "options is NULL");
  CHECK(mmptx_backend_last_error() == mmptx_last_error());
  CHECK_ERROR(mmptx_compiler_create((mmptx_backend_kind_t)7, NULL, &c),
              MMPTX_BACKEND_ERROR_INVALID_ARGUMENT, "unknown backend kind 7");
  CHECK_ERROR(mmptx_batch_size(NULL, NULL),
              MMPTX_BACKEND_ERROR_INVALID_ARGUMENT, "batch or n is NULL");
  {
    mmptx_compile_options_t o;
    CHECK_ERROR(mmptx_compile_options_init(&o), MMPTX_BACKEND_SUCCESS, "");
  }
}

/* Each thread makes its own errors, many times, while the other makes its
   own: it must read back exactly its own message every time. */
enum { kRounds = 2000 };

static void *inject_thread(void *arg) {
  mmptx_inject_t *h = (mmptx_inject_t *)arg;
  char name[32];
  char expected[64];
  int i;
  for (i = 0; i < kRounds; ++i) {
    snprintf(name, sizeof(name), "inject%d", i);
    snprintf(expected, sizeof(expected), "no inject named '%s'", name);
    CHECK(mmptx_inject_inject_info_by_name(h, name, NULL, NULL, NULL) ==
          MMPTX_ERROR_INJECTION_NAME_NOT_FOUND);
    CHECK(strcmp(mmptx_last_error(), expected) == 0);
  }
  return NULL;
}

static void *stack_thread(void *arg) {
  mmptx_stack_context_t *ctx = NULL;
  mmptx_stack_register_t reg = {"x", 0, MMPTX_STACK_REG_OUT};
  char expected[64];
  size_t written;
  uint32_t req;
  int i;
  (void)arg;
  CHECK(mmptx_stack_context_create(NULL, NULL, &ctx) == MMPTX_STACK_SUCCESS);
  for (i = 0; i < kRounds; ++i) {
    req = (uint32_t)i + 1;
    snprintf(expected, sizeof(expected), "request 0 names register %d of 1",
             i + 1);
    CHECK(mmptx_stack_compile(ctx, NULL, 0, NULL, 0, &reg, 1, &req, 1, NULL, 0,
                              &written) == MMPTX_STACK_ERROR_INVALID_REQUEST);
    CHECK(strcmp(mmptx_last_error(), expected) == 0);
  }
  mmptx_stack_context_destroy(ctx);
  return NULL;
}

static void test_two_threads(void) {
  mmptx_inject_t *h = NULL;
  pthread_t a, b;
  CHECK(mmptx_inject_create(&h, kModule, sizeof(kModule) - 1, NULL, NULL, 0,
                            NULL, 0) == MMPTX_SUCCESS);
  /* This thread's message is its own too. */
  CHECK(mmptx_compile_options_init(NULL) ==
        MMPTX_BACKEND_ERROR_INVALID_ARGUMENT);
  CHECK(pthread_create(&a, NULL, inject_thread, h) == 0);
  CHECK(pthread_create(&b, NULL, stack_thread, NULL) == 0);
  CHECK(pthread_join(a, NULL) == 0);
  CHECK(pthread_join(b, NULL) == 0);
  CHECK(strcmp(mmptx_last_error(), "options is NULL") == 0);
  mmptx_inject_destroy(h);
}

int mmptx_last_error_c_test(char *failure, size_t failure_size) {
  g_failure = failure;
  g_failure_size = failure_size;
  g_failures = 0;
  test_inject();
  test_stack();
  test_ast();
  test_backend();
  test_two_threads();
  return g_failures;
}
