//===- BatchTestUtil.h - What the batch tests share -------------*- C++ -*-===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef MMPTX_UNITTESTS_BACKEND_BATCHTESTUTIL_H
#define MMPTX_UNITTESTS_BACKEND_BATCHTESTUTIL_H

#include "mmptx/Backend/PTXCompiler.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"
#include "gtest/gtest.h"

#include <memory>
#include <string>

namespace mmptx {
namespace batchtest {

/// The corpus's smallest kernel, as text; empty (and a failed expectation)
/// where it cannot be read.
inline std::string readTinyKernel() {
  auto Buf = llvm::MemoryBuffer::getFile(std::string(MMPTX_CORPUS_DIR) +
                                         "/ptx_inject_simple_kernel.ptx");
  EXPECT_TRUE(bool(Buf));
  return Buf ? (*Buf)->getBuffer().str() : "";
}

/// The tiny kernel and two variants of it.
struct TinyKernels {
  std::string Good;
  /// Same program, another comment: different text, compiled separately.
  std::string Other;
  /// An opcode misspelt ('mov.f33'): fails to compile.
  std::string Bad;
};

inline TinyKernels makeTinyKernels() {
  TinyKernels K;
  K.Good = readTinyKernel();
  K.Other = "// variant\n" + K.Good;
  K.Bad = K.Good;
  K.Bad.replace(K.Bad.find("mov.f32 %_x0"), 7, "mov.f33");
  return K;
}

} // namespace batchtest
} // namespace mmptx

/// Declares VAR, an Expected<std::unique_ptr<PTXCompiler>> from CREATE, and
/// skips the test with the reason where that fails.
#define MMPTX_COMPILER_OR_SKIP(VAR, CREATE)                                    \
  llvm::Expected<std::unique_ptr<mmptx::PTXCompiler>> VAR = CREATE;            \
  if (!VAR) {                                                                  \
    std::string Why = llvm::toString(VAR.takeError());                         \
    GTEST_SKIP() << Why;                                                       \
  }

#endif // MMPTX_UNITTESTS_BACKEND_BATCHTESTUTIL_H
