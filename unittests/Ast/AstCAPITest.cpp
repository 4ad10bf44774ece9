//===- AstCAPITest.cpp - The AST PTX C API --------------------------------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "mmptx-c/AstPtx.h"

#include "../CAPI/C99Test.h"

#include "gtest/gtest.h"

#include <cstring>
#include <string>
#include <utility>

MMPTX_C99_TEST(AstCAPI, mmptxAstCApiTest)

namespace {

TEST(AstCAPI, CheckedInputs) {
  mmptx_ast_context_t *Ctx = nullptr;
  EXPECT_EQ(mmptx_ast_context_create(nullptr, nullptr, nullptr),
            MMPTX_AST_ERROR_INVALID_VALUE);
  mmptx_ast_options_t O = mmptx_ast_default_options();
  uint32_t BadMap[] = {100000};
  O.instr_map = BadMap;
  O.num_instr_map = 1;
  EXPECT_EQ(mmptx_ast_context_create(nullptr, &O, &Ctx),
            MMPTX_AST_ERROR_PTX_INSTRUCTION_IDX_OUT_OF_BOUNDS);
  EXPECT_EQ(Ctx, nullptr);
  // Huge limits are accepted: memory follows the program.
  O = mmptx_ast_default_options();
  O.max_stack_depth = UINT32_MAX;
  O.max_routine_depth = UINT32_MAX;
  O.max_words = UINT32_MAX;
  O.max_args = UINT32_MAX;
  O.max_executed_words = UINT64_MAX;
  ASSERT_EQ(mmptx_ast_context_create(nullptr, &O, &Ctx), MMPTX_AST_SUCCESS);
  size_t N = 0;
  uint64_t W[] = {mmptx_ast_encode_input(0), mmptx_ast_encode_return()};
  mmptx_ast_variable_t In[] = {{"x", 0}};
  mmptx_ast_output_t Out[] = {{{"z", 0}, W, 2}};
  EXPECT_EQ(
      mmptx_ast_compile(Ctx, In, 1, Out, 1, nullptr, 0, nullptr, 0, nullptr),
      MMPTX_AST_ERROR_INVALID_VALUE);
  EXPECT_EQ(
      mmptx_ast_compile(Ctx, nullptr, 1, Out, 1, nullptr, 0, nullptr, 0, &N),
      MMPTX_AST_ERROR_INVALID_VALUE);
  // A bad name, a reserved one, a bad stack.
  const std::pair<mmptx_ast_variable_t, mmptx_ast_result_t> BadVars[] = {
      {{"1x", 0}, MMPTX_AST_ERROR_INVALID_VALUE},
      {{"ast0", 0}, MMPTX_AST_ERROR_INVALID_VALUE},
      {{"x", 999}, MMPTX_AST_ERROR_STACK_IDX_OUT_OF_BOUNDS}};
  for (const auto &[Var, Result] : BadVars)
    EXPECT_EQ(
        mmptx_ast_compile(Ctx, &Var, 1, Out, 1, nullptr, 0, nullptr, 0, &N),
        Result)
        << Var.name;
  mmptx_ast_output_t Twice[] = {{{"z", 0}, W, 2}, {{"z", 0}, W, 2}};
  EXPECT_EQ(mmptx_ast_compile(Ctx, In, 1, Twice, 2, nullptr, 0, nullptr, 0, &N),
            MMPTX_AST_ERROR_INVALID_VALUE);
  EXPECT_NE(std::string(mmptx_ast_last_error(Ctx)).find("written twice"),
            std::string::npos);
  mmptx_ast_context_destroy(Ctx);
  EXPECT_STREQ(mmptx_ast_result_to_string(MMPTX_AST_ERROR_STACK_UNDERFLOW),
               "MMPTX_AST_ERROR_STACK_UNDERFLOW");
  EXPECT_STREQ(mmptx_ast_result_to_string(MMPTX_AST_RESULT_NUM),
               "MMPTX_AST_ERROR_INVALID_RESULT_ENUM");
  EXPECT_STREQ(mmptx_ast_result_to_string(MMPTX_AST_SUCCESS),
               "MMPTX_AST_SUCCESS");
}

} // namespace
