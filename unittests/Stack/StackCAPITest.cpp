//===- StackCAPITest.cpp - Runs the C99 Stack PTX API test ----------------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "gtest/gtest.h"

#include <cstddef>

extern "C" int mmptxStackCApiTest(char *msg, size_t msgSize);

namespace {

TEST(StackCAPITest, FromC99) {
  char msg[256] = "";
  EXPECT_EQ(mmptxStackCApiTest(msg, sizeof msg), 0) << msg;
}

} // namespace
