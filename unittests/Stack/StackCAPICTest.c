/*===- StackCAPICTest.c - The Stack PTX C API, used from C99 -------------===*\
|*                                                                            *|
|* Part of the mmptx project, under the Apache License v2.0 with LLVM         *|
|* Exceptions.                                                                *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
/* Compiled as C99; run from StackCAPITest.cpp. Returns 0 on success, else
 * the number of the failed check with a message in msg. */

#include "mmptx-c/StackPtx.h"
#include "mmptx-c/StackTables.h"

#define CHECK_DETAIL() mmptx_last_error()
#define CHECK_CLEANUP() mmptx_stack_context_destroy(ctx)
#include "../CAPI/CAPICheck.h"

int mmptxStackCApiTest(char *msg, size_t msg_size) {
  mmptx_stack_context_t *ctx = NULL;
  static const char expected[] = "\t{\n\t.reg .f32 %_s0_<2>;\n"
                                 "\tmul.ftz.f32 %_s0_0, %y, %x;\n"
                                 "\tadd.ftz.f32 %_s0_1, 0f3F800000, %_s0_0;\n"
                                 "\tmov.f32 %z, %_s0_1;\n\t}";
  uint64_t words[6];
  mmptx_stack_register_t regs[3];
  uint32_t requests[1] = {2};
  uint32_t bad_requests[1] = {3};
  char buf[512];
  char small[8];
  size_t written = 0;
  const char *text = NULL;
  size_t len = 0;
  mmptx_stack_options_t opts;
  mmptx_stack_stats_t stats;
  mmptx_stack_tables_t broken;
  uint64_t aggr[1];
  mmptx_stack_register_t u32_reg[1];
  uint32_t u32_request[1] = {0};

  words[0] = mmptx_stack_encode_input(0);
  words[1] = mmptx_stack_encode_input(1);
  words[2] = mmptx_stack_encode_ptx_mul_ftz_f32();
  words[3] = mmptx_stack_encode_constant_f32(1.0f);
  words[4] = mmptx_stack_encode_ptx_add_ftz_f32();
  words[5] = mmptx_stack_encode_return();
  regs[0].name = "x";
  regs[0].stack_idx = MMPTX_STACK_TYPE_F32;
  regs[0].kind = MMPTX_STACK_REG_IN;
  regs[1].name = "y";
  regs[1].stack_idx = MMPTX_STACK_TYPE_F32;
  regs[1].kind = MMPTX_STACK_REG_IN;
  regs[2].name = "z";
  regs[2].stack_idx = MMPTX_STACK_TYPE_F32;
  regs[2].kind = MMPTX_STACK_REG_OUT;

  CHECK(1, mmptx_stack_context_create(&mmptx_stack_tables, NULL, &ctx) ==
               MMPTX_STACK_SUCCESS);
  CHECK(2,
        mmptx_stack_compile(ctx, words, 6, NULL, 0, regs, 3, requests, 1, buf,
                            sizeof buf, &written) == MMPTX_STACK_SUCCESS);
  CHECK(3, written == strlen(expected) && strcmp(buf, expected) == 0);

  /* Too small: exact size, and the text without a second compile. */
  CHECK(4, mmptx_stack_compile(ctx, words, 6, NULL, 0, regs, 3, requests, 1,
                               small, sizeof small, &written) ==
               MMPTX_STACK_ERROR_INSUFFICIENT_BUFFER);
  CHECK(5, written == strlen(expected));
  CHECK(6, mmptx_stack_last_output(ctx, &text, &len) == MMPTX_STACK_SUCCESS);
  CHECK(7, len == written && strcmp(text, expected) == 0);
  CHECK(8, mmptx_stack_compile(ctx, words, 6, NULL, 0, regs, 3, requests, 1,
                               NULL, 0, &written) ==
                   MMPTX_STACK_ERROR_INSUFFICIENT_BUFFER &&
               written == strlen(expected));

  /* Checked inputs. */
  CHECK(9, mmptx_stack_compile(ctx, words, 6, NULL, 0, regs, 3, bad_requests, 1,
                               buf, sizeof buf,
                               &written) == MMPTX_STACK_ERROR_INVALID_REQUEST);
  CHECK(10, strstr(mmptx_stack_last_error(ctx), "request 0") != NULL);
  regs[1].name = NULL;
  CHECK(11, mmptx_stack_compile(ctx, words, 6, NULL, 0, regs, 3, requests, 1,
                                buf, sizeof buf, &written) ==
                MMPTX_STACK_ERROR_INVALID_REGISTER);
  regs[1].name = "bad name";
  CHECK(12, mmptx_stack_compile(ctx, words, 6, NULL, 0, regs, 3, requests, 1,
                                buf, sizeof buf, &written) ==
                MMPTX_STACK_ERROR_INVALID_REGISTER);
  regs[1].name = "_s0_1"; /* spelled like a temporary of the stub */
  CHECK(12, mmptx_stack_compile(ctx, words, 6, NULL, 0, regs, 3, requests, 1,
                                buf, sizeof buf, &written) ==
                MMPTX_STACK_ERROR_INVALID_REGISTER);
  CHECK(12, strstr(mmptx_stack_last_error(ctx), "reserved") != NULL);
  regs[1].name = "y";
  regs[1].stack_idx = 999;
  CHECK(13, mmptx_stack_compile(ctx, words, 6, NULL, 0, regs, 3, requests, 1,
                                buf, sizeof buf, &written) ==
                MMPTX_STACK_ERROR_INVALID_REGISTER);
  regs[1].stack_idx = MMPTX_STACK_TYPE_F32;
  CHECK(14, mmptx_stack_compile(ctx, NULL, 6, NULL, 0, regs, 3, requests, 1,
                                buf, sizeof buf, &written) ==
                MMPTX_STACK_ERROR_INVALID_ARGUMENT);
  CHECK(15, mmptx_stack_compile(ctx, words, 6, NULL, 0, regs, 3, requests, 1,
                                buf, sizeof buf,
                                NULL) == MMPTX_STACK_ERROR_INVALID_ARGUMENT);

  /* Invalid words: no-ops, or errors in strict mode. */
  words[1] = mmptx_stack_encode_load(1000);
  CHECK(16,
        mmptx_stack_compile(ctx, words, 6, NULL, 0, regs, 3, requests, 1, buf,
                            sizeof buf, &written) == MMPTX_STACK_SUCCESS);
  CHECK(17, mmptx_stack_get_stats(ctx, &stats) == MMPTX_STACK_SUCCESS &&
                stats.ignored_words == 1);
  mmptx_stack_context_destroy(ctx);
  ctx = NULL;
  mmptx_stack_options_init(&opts);
  opts.strict = 1;
  CHECK(18,
        mmptx_stack_context_create(NULL, &opts, &ctx) == MMPTX_STACK_SUCCESS);
  CHECK(19, mmptx_stack_compile(ctx, words, 6, NULL, 0, regs, 3, requests, 1,
                                buf, sizeof buf,
                                &written) == MMPTX_STACK_ERROR_INVALID_WORD);
  CHECK(20, strcmp(mmptx_stack_last_error(ctx),
                   "word 1 of the main program: load slot 1000 out of range "
                   "(32 slots)") == 0);
  mmptx_stack_context_destroy(ctx);
  ctx = NULL;

  /* target_sm: %aggr_smem_size needs sm_90, so for sm_80 it is a no-op (the
   * request is zeroed) or in strict mode an error. */
  aggr[0] = mmptx_stack_encode_special_aggr_smem_size();
  u32_reg[0].name = "z";
  u32_reg[0].stack_idx = MMPTX_STACK_TYPE_U32;
  u32_reg[0].kind = MMPTX_STACK_REG_OUT;
  mmptx_stack_options_init(&opts);
  CHECK(26, opts.target_sm == 0);
  CHECK(27,
        mmptx_stack_context_create(NULL, &opts, &ctx) == MMPTX_STACK_SUCCESS);
  CHECK(28,
        mmptx_stack_compile(ctx, aggr, 1, NULL, 0, u32_reg, 1, u32_request, 1,
                            buf, sizeof buf, &written) == MMPTX_STACK_SUCCESS &&
            strstr(buf, "%aggr_smem_size") != NULL);
  mmptx_stack_context_destroy(ctx);
  ctx = NULL;
  opts.target_sm = 80;
  CHECK(29, mmptx_stack_context_create(&mmptx_stack_tables, &opts, &ctx) ==
                MMPTX_STACK_SUCCESS);
  CHECK(30,
        mmptx_stack_compile(ctx, aggr, 1, NULL, 0, u32_reg, 1, u32_request, 1,
                            buf, sizeof buf, &written) == MMPTX_STACK_SUCCESS &&
            strcmp(buf, "\t{\n\tmov.u32 %z, 0x00000000U;\n\t}") == 0);
  CHECK(31, mmptx_stack_get_stats(ctx, &stats) == MMPTX_STACK_SUCCESS &&
                stats.ignored_words == 1);
  mmptx_stack_context_destroy(ctx);
  ctx = NULL;
  opts.strict = 1;
  CHECK(32,
        mmptx_stack_context_create(NULL, &opts, &ctx) == MMPTX_STACK_SUCCESS);
  CHECK(33, mmptx_stack_compile(ctx, aggr, 1, NULL, 0, u32_reg, 1, u32_request,
                                1, buf, sizeof buf,
                                &written) == MMPTX_STACK_ERROR_INVALID_WORD);
  CHECK(34, strcmp(mmptx_stack_last_error(ctx),
                   "word 0 of the main program: special register "
                   "'%aggr_smem_size' needs sm_90, the target is sm_80") == 0);
  mmptx_stack_context_destroy(ctx);
  ctx = NULL;
  /* Tables without the min_sm arrays (NULL) restrict nothing. */
  broken = mmptx_stack_tables;
  broken.instr_min_sm = NULL;
  broken.special_min_sm = NULL;
  CHECK(35, mmptx_stack_context_create(&broken, &opts, &ctx) ==
                MMPTX_STACK_SUCCESS);
  CHECK(36,
        mmptx_stack_compile(ctx, aggr, 1, NULL, 0, u32_reg, 1, u32_request, 1,
                            buf, sizeof buf, &written) == MMPTX_STACK_SUCCESS &&
            strstr(buf, "%aggr_smem_size") != NULL);
  mmptx_stack_context_destroy(ctx);
  ctx = NULL;

  /* Broken tables are refused. */
  broken = mmptx_stack_tables;
  broken.num_arg_types = 1;
  CHECK(21, mmptx_stack_context_create(&broken, NULL, &ctx) ==
                    MMPTX_STACK_ERROR_INVALID_TABLES &&
                ctx == NULL);
  CHECK(22, mmptx_stack_context_create(NULL, NULL, NULL) ==
                MMPTX_STACK_ERROR_INVALID_ARGUMENT);
  CHECK(23, strcmp(mmptx_stack_result_to_string(MMPTX_STACK_SUCCESS),
                   "MMPTX_STACK_SUCCESS") == 0);
  CHECK(24, strcmp(mmptx_stack_result_to_string((mmptx_stack_result_t)99),
                   "MMPTX_STACK_ERROR_INVALID_RESULT_ENUM") == 0);
  CHECK(25, mmptx_stack_default_tables()->num_instrs ==
                mmptx_stack_tables.num_instrs);

  /* Every size option is bounded: an oversize request is refused before
   * anything is allocated for it. */
  mmptx_stack_options_init(&opts);
  opts.max_frame_depth = UINT32_MAX;
  CHECK(40, mmptx_stack_context_create(NULL, &opts, &ctx) ==
                    MMPTX_STACK_ERROR_INVALID_ARGUMENT &&
                ctx == NULL);
  mmptx_stack_options_init(&opts);
  opts.stack_size = UINT32_MAX;
  CHECK(41, mmptx_stack_context_create(NULL, &opts, &ctx) ==
                    MMPTX_STACK_ERROR_INVALID_ARGUMENT &&
                ctx == NULL);
  mmptx_stack_options_init(&opts);
  opts.store_size = UINT32_MAX;
  CHECK(42, mmptx_stack_context_create(NULL, &opts, &ctx) ==
                    MMPTX_STACK_ERROR_INVALID_ARGUMENT &&
                ctx == NULL);
  mmptx_stack_options_init(&opts);
  opts.max_nodes = UINT32_MAX;
  CHECK(43, mmptx_stack_context_create(NULL, &opts, &ctx) ==
                    MMPTX_STACK_ERROR_INVALID_ARGUMENT &&
                ctx == NULL);
  mmptx_stack_options_init(&opts);
  opts.execution_limit = UINT64_MAX;
  CHECK(44, mmptx_stack_context_create(NULL, &opts, &ctx) ==
                    MMPTX_STACK_ERROR_INVALID_ARGUMENT &&
                ctx == NULL);
  /* The largest values are accepted. */
  mmptx_stack_options_init(&opts);
  opts.max_frame_depth = MMPTX_STACK_MAX_FRAME_DEPTH;
  opts.store_size = MMPTX_STACK_MAX_STORE_SIZE;
  opts.execution_limit = MMPTX_STACK_MAX_EXECUTION_LIMIT;
  CHECK(45,
        mmptx_stack_context_create(NULL, &opts, &ctx) == MMPTX_STACK_SUCCESS);
  CHECK(46,
        mmptx_stack_compile(ctx, words, 6, NULL, 0, regs, 3, requests, 1, buf,
                            sizeof buf, &written) == MMPTX_STACK_SUCCESS);

  /* Two registers of one name, and a request of an IN register. */
  regs[1].name = "x";
  CHECK(47, mmptx_stack_compile(ctx, words, 6, NULL, 0, regs, 3, requests, 1,
                                buf, sizeof buf, &written) ==
                MMPTX_STACK_ERROR_INVALID_REGISTER);
  CHECK(48, strcmp(mmptx_stack_last_error(ctx),
                   "register name 'x' is used twice") == 0);
  regs[1].name = "y";
  requests[0] = 1;
  CHECK(49, mmptx_stack_compile(ctx, words, 6, NULL, 0, regs, 3, requests, 1,
                                buf, sizeof buf,
                                &written) == MMPTX_STACK_ERROR_INVALID_REQUEST);
  CHECK(50, strstr(mmptx_stack_last_error(ctx), "an in register") != NULL);
  requests[0] = 2;
  mmptx_stack_context_destroy(ctx);
  return 0;
}
