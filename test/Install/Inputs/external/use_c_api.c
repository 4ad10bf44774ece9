/* The C API of the installed package: a Stack PTX stub spliced into PTX,
 * and an AST PTX stub. */
#include "mmptx-c/AstPtx.h"
#include "mmptx-c/PtxInject.h"
#include "mmptx-c/StackPtx.h"
#include "mmptx-c/StackTables.h"

#include <stdio.h>
#include <stdlib.h>

#include "module_ptx.h"

int main(void) {
  mmptx_inject_t *inject = NULL;
  mmptx_stack_context_t *ctx = NULL;
  mmptx_stack_register_t regs[2] = {
      {"_x0", MMPTX_STACK_TYPE_F32, MMPTX_STACK_REG_MOD},
      {"_x1", MMPTX_STACK_TYPE_F32, MMPTX_STACK_REG_IN}};
  uint32_t requests[1] = {0};
  uint64_t words[3];
  char stub[512];
  const char *stubs[1];
  size_t written = 0, num = 0;
  char *out;

  words[0] = mmptx_stack_encode_input(1);
  words[1] = mmptx_stack_encode_input(0);
  words[2] = mmptx_stack_encode_ptx_add_f32();
  if (mmptx_inject_create(&inject, ModulePtx, sizeof ModulePtx - 1, "k.ptx",
                          NULL, 0, NULL, 0) != MMPTX_SUCCESS ||
      mmptx_inject_num_injects(inject, &num) != MMPTX_SUCCESS ||
      mmptx_stack_context_create(NULL, NULL, &ctx) != MMPTX_STACK_SUCCESS ||
      mmptx_stack_compile(ctx, words, 3, NULL, 0, regs, 2, requests, 1, stub,
                          sizeof stub, &written) != MMPTX_STACK_SUCCESS) {
    fprintf(stderr, "error: %s\n", mmptx_last_error());
    return 1;
  }
  stubs[0] = stub;
  /* A NULL buffer asks for the exact size. */
  mmptx_inject_render(inject, stubs, 1, NULL, 0, &written);
  out = (char *)malloc(written + 1);
  if (mmptx_inject_render(inject, stubs, 1, out, written + 1, &written) !=
      MMPTX_SUCCESS)
    return 1;
  printf("c api: %u inject(s)\n%s", (unsigned)num, out);
  free(out);
  {
    /* acc + v as one AST PTX expression. */
    mmptx_ast_context_t *actx = NULL;
    mmptx_ast_variable_t inputs[2] = {{"_x0", MMPTX_STACK_TYPE_F32},
                                      {"_x1", MMPTX_STACK_TYPE_F32}};
    mmptx_ast_output_t output;
    uint64_t expr[4];
    expr[0] = mmptx_ast_encode_input(0);
    expr[1] = mmptx_ast_encode_input(1);
    expr[2] = mmptx_ast_encode_ptx(MMPTX_PTX_INSTR_ADD_F32, 2);
    expr[3] = mmptx_ast_encode_return();
    output.var = inputs[0];
    output.words = expr;
    output.num_words = 4;
    if (mmptx_ast_context_create(NULL, NULL, &actx) != MMPTX_AST_SUCCESS ||
        mmptx_ast_compile(actx, inputs, 2, &output, 1, NULL, 0, stub,
                          sizeof stub, &written) != MMPTX_AST_SUCCESS)
      return 1;
    printf("ast:\n%s\n", stub);
    mmptx_ast_context_destroy(actx);
  }
  /* Every C API leaves the thread's message of its last call. */
  if (mmptx_inject_inject_info_by_name(inject, "g", NULL, NULL, NULL) ==
      MMPTX_ERROR_INJECTION_NAME_NOT_FOUND)
    printf("error: %s\n", mmptx_last_error());
  mmptx_stack_context_destroy(ctx);
  mmptx_inject_destroy(inject);
  return 0;
}
