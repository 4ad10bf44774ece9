//===- AstCAPITest.cpp - The AST PTX C API --------------------------------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "mmptx-c/AstPtx.h"

#include "gtest/gtest.h"

#include <cstring>
#include <string>

extern "C" int mmptxAstCApiTest(char *msg, size_t msgSize);

namespace {

TEST(AstCAPI, FromC99) {
  char msg[256] = "";
  EXPECT_EQ(mmptxAstCApiTest(msg, sizeof msg), 0) << msg;
}

TEST(AstCAPI, CheckedInputs) {
  mmptx_ast_context_t *ctx = nullptr;
  EXPECT_EQ(mmptx_ast_context_create(nullptr, nullptr, nullptr),
            MMPTX_AST_ERROR_INVALID_VALUE);
  mmptx_ast_options_t o = mmptx_ast_default_options();
  uint32_t badMap[] = {100000};
  o.instr_map = badMap;
  o.num_instr_map = 1;
  EXPECT_EQ(mmptx_ast_context_create(nullptr, &o, &ctx),
            MMPTX_AST_ERROR_PTX_INSTRUCTION_IDX_OUT_OF_BOUNDS);
  EXPECT_EQ(ctx, nullptr);
  // Huge limits are accepted: memory follows the program.
  o = mmptx_ast_default_options();
  o.max_stack_depth = UINT32_MAX;
  o.max_routine_depth = UINT32_MAX;
  o.max_words = UINT32_MAX;
  o.max_args = UINT32_MAX;
  o.max_executed_words = UINT64_MAX;
  ASSERT_EQ(mmptx_ast_context_create(nullptr, &o, &ctx), MMPTX_AST_SUCCESS);
  size_t n = 0;
  uint64_t w[] = {mmptx_ast_encode_input(0), mmptx_ast_encode_return()};
  mmptx_ast_variable_t in[] = {{"x", 0}};
  mmptx_ast_output_t out[] = {{{"z", 0}, w, 2}};
  EXPECT_EQ(
      mmptx_ast_compile(ctx, in, 1, out, 1, nullptr, 0, nullptr, 0, nullptr),
      MMPTX_AST_ERROR_INVALID_VALUE);
  EXPECT_EQ(
      mmptx_ast_compile(ctx, nullptr, 1, out, 1, nullptr, 0, nullptr, 0, &n),
      MMPTX_AST_ERROR_INVALID_VALUE);
  mmptx_ast_variable_t badName[] = {{"1x", 0}};
  EXPECT_EQ(
      mmptx_ast_compile(ctx, badName, 1, out, 1, nullptr, 0, nullptr, 0, &n),
      MMPTX_AST_ERROR_INVALID_VALUE);
  mmptx_ast_variable_t reserved[] = {{"ast0", 0}};
  EXPECT_EQ(
      mmptx_ast_compile(ctx, reserved, 1, out, 1, nullptr, 0, nullptr, 0, &n),
      MMPTX_AST_ERROR_INVALID_VALUE);
  mmptx_ast_variable_t badStack[] = {{"x", 999}};
  EXPECT_EQ(
      mmptx_ast_compile(ctx, badStack, 1, out, 1, nullptr, 0, nullptr, 0, &n),
      MMPTX_AST_ERROR_STACK_IDX_OUT_OF_BOUNDS);
  mmptx_ast_output_t twice[] = {{{"z", 0}, w, 2}, {{"z", 0}, w, 2}};
  EXPECT_EQ(mmptx_ast_compile(ctx, in, 1, twice, 2, nullptr, 0, nullptr, 0, &n),
            MMPTX_AST_ERROR_INVALID_VALUE);
  EXPECT_NE(std::string(mmptx_ast_last_error(ctx)).find("written twice"),
            std::string::npos);
  mmptx_ast_context_destroy(ctx);
  EXPECT_STREQ(mmptx_ast_result_to_string(MMPTX_AST_ERROR_STACK_UNDERFLOW),
               "MMPTX_AST_ERROR_STACK_UNDERFLOW");
  EXPECT_STREQ(mmptx_ast_result_to_string(MMPTX_AST_RESULT_NUM),
               "MMPTX_AST_ERROR_INVALID_RESULT_ENUM");
  EXPECT_STREQ(mmptx_ast_result_to_string(MMPTX_AST_SUCCESS),
               "MMPTX_AST_SUCCESS");
}

} // namespace
