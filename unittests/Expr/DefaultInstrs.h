//===- DefaultInstrs.h - The default instruction set in tests ---*- C++ -*-===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The default instruction set and its instructions by name, for the unit
/// tests of the layers that build on it.
///
//===----------------------------------------------------------------------===//

#ifndef MMPTX_UNITTESTS_EXPR_DEFAULTINSTRS_H
#define MMPTX_UNITTESTS_EXPR_DEFAULTINSTRS_H

#include "mmptx/Stack/StackInfo.h"

#include "gtest/gtest.h"

#include <cstdint>

namespace mmptx {
namespace test {

inline const stack::StackInfo &info() { return stack::getDefaultStackInfo(); }

/// \returns the number of instruction \p Name of info(); a test failure
/// when there is none.
inline uint32_t instr(const char *Name) {
  int I = info().findInstr(Name);
  EXPECT_GE(I, 0) << Name;
  return uint32_t(I);
}

} // namespace test
} // namespace mmptx

#endif // MMPTX_UNITTESTS_EXPR_DEFAULTINSTRS_H
