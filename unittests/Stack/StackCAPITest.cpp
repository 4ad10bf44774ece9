//===- StackCAPITest.cpp - Runs the C99 Stack PTX API test ----------------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "mmptx-c/StackPtx.h"

#include "../CAPI/C99Test.h"

#include "gtest/gtest.h"

#include <cstddef>
#include <cstring>
#include <vector>

MMPTX_C99_TEST(StackCAPITest, mmptxStackCApiTest)

namespace {

// mmptx_stack_compile checks registers once and reuses the check while a
// call passes equal ones: a name changed in place, a kind or a stack is
// noticed, and registers that failed are checked again.
TEST(StackCAPITest, RegisterChecksFollowTheRegisters) {
  mmptx_stack_context_t *Ctx = nullptr;
  ASSERT_EQ(mmptx_stack_context_create(nullptr, nullptr, &Ctx),
            MMPTX_STACK_SUCCESS);
  char X[] = "x", Z[] = "z";
  mmptx_stack_register_t Regs[] = {{X, 0, MMPTX_STACK_REG_IN},
                                   {Z, 0, MMPTX_STACK_REG_OUT}};
  const uint64_t Words[] = {0x0000000000000003ULL}; // input(0)
  const uint32_t Requests[] = {1};
  std::vector<char> Buf(4096);
  size_t N = 0;
  auto Compile = [&] {
    return mmptx_stack_compile(Ctx, Words, 1, nullptr, 0, Regs, 2, Requests, 1,
                               Buf.data(), Buf.size(), &N);
  };
  ASSERT_EQ(Compile(), MMPTX_STACK_SUCCESS) << mmptx_last_error();
  EXPECT_NE(std::strstr(Buf.data(), "%z"), nullptr) << Buf.data();
  // The same storage, another name: the stub uses it.
  Z[0] = 'w';
  ASSERT_EQ(Compile(), MMPTX_STACK_SUCCESS) << mmptx_last_error();
  EXPECT_NE(std::strstr(Buf.data(), "%w"), nullptr) << Buf.data();
  // The same storage, a name that is no PTX identifier.
  Z[0] = '1';
  EXPECT_EQ(Compile(), MMPTX_STACK_ERROR_INVALID_REGISTER);
  EXPECT_EQ(Compile(), MMPTX_STACK_ERROR_INVALID_REGISTER);
  Z[0] = 'x'; // now a duplicate of register 0
  EXPECT_EQ(Compile(), MMPTX_STACK_ERROR_INVALID_REGISTER);
  EXPECT_NE(std::strstr(mmptx_last_error(), "used twice"), nullptr);
  Z[0] = 'z';
  ASSERT_EQ(Compile(), MMPTX_STACK_SUCCESS) << mmptx_last_error();
  EXPECT_STREQ(mmptx_last_error(), "");
  // A kind that makes the request invalid, then a stack out of range.
  Regs[1].kind = MMPTX_STACK_REG_IN;
  EXPECT_EQ(Compile(), MMPTX_STACK_ERROR_INVALID_REQUEST);
  Regs[1].kind = MMPTX_STACK_REG_OUT;
  Regs[1].stack_idx = 999;
  EXPECT_EQ(Compile(), MMPTX_STACK_ERROR_INVALID_REGISTER);
  Regs[1].stack_idx = 0;
  EXPECT_EQ(Compile(), MMPTX_STACK_SUCCESS) << mmptx_last_error();
  mmptx_stack_context_destroy(Ctx);
}

} // namespace
