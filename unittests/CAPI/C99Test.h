//===- C99Test.h - Runs a C99 test of a C API -------------------*- C++ -*-===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef MMPTX_UNITTESTS_CAPI_C99TEST_H
#define MMPTX_UNITTESTS_CAPI_C99TEST_H

#include "gtest/gtest.h"

#include <cstddef>

/// Declares C99 test function \p Fn (CAPICheck.h: 0 on success, else the
/// failed check's number with a message) and runs it as \p Suite.FromC99.
#define MMPTX_C99_TEST(Suite, Fn)                                              \
  extern "C" int Fn(char *Msg, size_t MsgSize);                                \
  TEST(Suite, FromC99) {                                                       \
    char Msg[512] = "";                                                        \
    EXPECT_EQ(Fn(Msg, sizeof Msg), 0) << Msg;                                  \
  }

#endif // MMPTX_UNITTESTS_CAPI_C99TEST_H
