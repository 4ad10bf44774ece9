//===- StackCAPITest.cpp - Runs the C99 Stack PTX API test ----------------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "gtest/gtest.h"

#include <cstddef>

extern "C" int mmptxStackCApiTest(char *Msg, size_t MsgSize);

namespace {

TEST(StackCAPITest, FromC99) {
  char Msg[256] = "";
  EXPECT_EQ(mmptxStackCApiTest(Msg, sizeof Msg), 0) << Msg;
}

} // namespace
