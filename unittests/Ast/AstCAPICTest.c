/*===- AstCAPICTest.c - The AST PTX C API, used from C99 -----------------===*\
|*                                                                            *|
|* Part of the mmptx project, under the Apache License v2.0 with LLVM         *|
|* Exceptions.                                                                *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
/* Compiled as C99; run from AstCAPITest.cpp. Returns 0 on success, else the
 * number of the failed check with a message in msg. The program is the
 * reference's documented example in its own catalogue numbering. */

#include "mmptx-c/AstPtx.h"

#define CHECK_CLEANUP() mmptx_ast_context_destroy(ctx)
#define CHECK_DETAIL() mmptx_ast_last_error(ctx)
#include "../CAPI/CAPICheck.h"

int mmptxAstCApiTest(char *msg, size_t msg_size) {
  static const char expected[] = "{\n.reg .f32 %ast<2>;\n"
                                 "mul.ftz.f32 %ast0, %x, %y;\n"
                                 "add.ftz.f32 %ast1, %ast0, 0f3f800000;\n"
                                 "mov.f32 %z, %ast1;\n}";
  mmptx_ast_context_t *ctx = NULL;
  mmptx_ast_options_t opts = mmptx_ast_default_options();
  uint64_t prog[6], mul[4], bad[3];
  mmptx_ast_routine_t routines[1];
  mmptx_ast_variable_t inputs[2];
  mmptx_ast_output_t outputs[1];
  uint64_t values[2], result[1];
  float f;
  char buf[256], small[8];
  size_t written = 0, len = 0;
  const char *text = NULL;

  opts.instr_map = mmptx_ast_reference_instr_map(&opts.num_instr_map);
  CHECK(1, opts.num_instr_map == 18);
  CHECK(2, mmptx_ast_context_create(NULL, &opts, &ctx) == MMPTX_AST_SUCCESS);

  mul[0] = mmptx_ast_encode_routine_arg(0);
  mul[1] = mmptx_ast_encode_routine_arg(1);
  mul[2] = mmptx_ast_encode_ptx(3, 2); /* mul.ftz.f32 */
  mul[3] = mmptx_ast_encode_return();
  routines[0].words = mul;
  routines[0].num_words = 4;
  prog[0] = mmptx_ast_encode_input(0);
  prog[1] = mmptx_ast_encode_input(1);
  prog[2] = mmptx_ast_encode_routine(0, 2);
  prog[3] = mmptx_ast_encode_constant_f32(1.0f);
  prog[4] = mmptx_ast_encode_ptx(1, 2); /* add.ftz.f32 */
  prog[5] = mmptx_ast_encode_return();
  inputs[0].name = "x";
  inputs[0].stack_idx = 0;
  inputs[1].name = "y";
  inputs[1].stack_idx = 0;
  outputs[0].var.name = "z";
  outputs[0].var.stack_idx = 0;
  outputs[0].words = prog;
  outputs[0].num_words = 6;

  CHECK(3, mmptx_ast_compile(ctx, inputs, 2, outputs, 1, routines, 1, buf,
                             sizeof buf, &written) == MMPTX_AST_SUCCESS);
  CHECK(4, written == strlen(expected) && strcmp(buf, expected) == 0);
  /* A short buffer: the size, and the text without a second compile. */
  CHECK(5, mmptx_ast_compile(ctx, inputs, 2, outputs, 1, routines, 1, small,
                             sizeof small,
                             &written) == MMPTX_AST_ERROR_INSUFFICIENT_BUFFER);
  CHECK(6, written == strlen(expected));
  CHECK(7, mmptx_ast_last_output(ctx, &text, &len) == MMPTX_AST_SUCCESS &&
               len == written && strcmp(text, expected) == 0);
  /* size == length is too small: the NUL needs room. */
  CHECK(8, mmptx_ast_compile(ctx, inputs, 2, outputs, 1, routines, 1, buf,
                             strlen(expected),
                             &written) == MMPTX_AST_ERROR_INSUFFICIENT_BUFFER);

  /* The interpreter: 5 * 3 + 1. */
  f = 5.0f;
  memcpy(&values[0], &f, 4);
  values[0] &= 0xffffffffu;
  f = 3.0f;
  values[1] = 0;
  memcpy(&values[1], &f, 4);
  CHECK(9, mmptx_ast_interpret(ctx, inputs, 2, values, outputs, 1, routines, 1,
                               result) == MMPTX_AST_SUCCESS);
  memcpy(&f, &result[0], 4);
  CHECK(10, f == 16.0f);

  /* Two values at RETURN. */
  bad[0] = mmptx_ast_encode_input(0);
  bad[1] = mmptx_ast_encode_input(1);
  bad[2] = mmptx_ast_encode_return();
  outputs[0].words = bad;
  outputs[0].num_words = 3;
  CHECK(11, mmptx_ast_compile(ctx, inputs, 2, outputs, 1, routines, 1, buf,
                              sizeof buf,
                              &written) == MMPTX_AST_ERROR_INVALID_VALUE);
  CHECK(12, strstr(mmptx_ast_last_error(ctx), "word 2") != NULL);
  CHECK(13, strcmp(mmptx_ast_result_to_string(MMPTX_AST_ERROR_INVALID_VALUE),
                   "MMPTX_AST_ERROR_INVALID_VALUE") == 0);
  mmptx_ast_context_destroy(ctx);
  return 0;
}
