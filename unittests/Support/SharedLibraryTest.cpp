//===- SharedLibraryTest.cpp - Tests of the run-time library loader -------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "mmptx/Support/SharedLibrary.h"

#include "gtest/gtest.h"

#include <dlfcn.h>

using namespace mmptx;

namespace {

TEST(SharedLibraryTest, LoadedLibraryVersion) {
  // libc: neither its file name (libc.so.6) nor a CUDA build string gives
  // the exact version, so the file itself stands for it.
  std::string V =
      getLoadedLibraryVersion(9, 8, reinterpret_cast<const void *>(&::dladdr));
  EXPECT_EQ(V.rfind("9.8 (/", 0), 0u) << V;
  EXPECT_NE(V.find(" bytes, modified "), std::string::npos) << V;
  EXPECT_EQ(getLoadedLibraryVersion(9, 8, nullptr),
            "9.8 (unknown library file)");
}

} // namespace
