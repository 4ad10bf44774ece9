//===- LastErrorTest.cpp - Runs the C test of the error convention --------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "gtest/gtest.h"

#include <cstddef>

extern "C" int mmptx_last_error_c_test(char *Failure, size_t FailureSize);

TEST(CAPILastErrorTest, CTestPasses) {
  char Failure[512] = "";
  EXPECT_EQ(mmptx_last_error_c_test(Failure, sizeof(Failure)), 0) << Failure;
}
