//===- WireCAPITest.cpp - The wire-format C API ---------------------------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "gtest/gtest.h"

#include <cstddef>

extern "C" int mmptxWireCApiTest(char *Msg, size_t MsgSize);

namespace {

TEST(WireCAPI, FromC99) {
  char Msg[512] = "";
  EXPECT_EQ(mmptxWireCApiTest(Msg, sizeof Msg), 0) << Msg;
}

} // namespace
