//===- BatchTestUtil.h - What the batch tests share -------------*- C++ -*-===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef MMPTX_UNITTESTS_BACKEND_BATCHTESTUTIL_H
#define MMPTX_UNITTESTS_BACKEND_BATCHTESTUTIL_H

#include "mmptx/Backend/Batch.h"
#include "mmptx/Backend/PTXCompiler.h"
#include "mmptx/Cache/ContentCache.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"

#include <memory>
#include <string>
#include <system_error>

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

/// Writes \p Script as an executable `ptxas` in a fresh temporary directory
/// named after \p Prefix: the directory into \p Dir, the program's path
/// into \p Program. \returns the first error.
inline std::error_code writeFakePtxas(llvm::StringRef Prefix,
                                      llvm::StringRef Script,
                                      llvm::SmallVectorImpl<char> &Dir,
                                      llvm::SmallVectorImpl<char> &Program) {
  if (std::error_code EC = llvm::sys::fs::createUniqueDirectory(Prefix, Dir))
    return EC;
  Program.assign(Dir.begin(), Dir.end());
  llvm::sys::path::append(Program, "ptxas");
  {
    std::error_code EC;
    llvm::raw_fd_ostream OS(llvm::StringRef(Program.data(), Program.size()),
                            EC);
    if (EC)
      return EC;
    OS << Script;
  }
  return llvm::sys::fs::setPermissions(Program, llvm::sys::fs::perms(0755));
}

/// A content cache in a fresh temporary directory named after \p Prefix
/// (written into \p Dir); null where either cannot be made.
inline std::unique_ptr<ContentCache>
openTempCache(llvm::StringRef Prefix, llvm::SmallVectorImpl<char> &Dir) {
  if (llvm::sys::fs::createUniqueDirectory(Prefix, Dir))
    return nullptr;
  auto Cache = ContentCache::open(llvm::StringRef(Dir.data(), Dir.size()));
  if (!Cache) {
    llvm::consumeError(Cache.takeError());
    return nullptr;
  }
  return std::move(*Cache);
}

/// BatchOptions for \p Threads workers that share \p Cache.
inline BatchOptions cachedBatchOptions(unsigned Threads, ContentCache *Cache) {
  BatchOptions BO;
  BO.Threads = Threads;
  BO.Cache = Cache;
  return BO;
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
