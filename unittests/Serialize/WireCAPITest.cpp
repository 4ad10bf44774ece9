//===- WireCAPITest.cpp - The wire-format C API ---------------------------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "../CAPI/C99Test.h"

MMPTX_C99_TEST(WireCAPI, mmptxWireCApiTest)
