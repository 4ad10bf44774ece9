//===- NvrtcCacheTest.cpp - Tests of the CUDA -> PTX cache key ------------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The cache's record of the included files: a hit reads only the files
/// whose identity changed, and the key it gives is the one a full scan
/// gives. No NVRTC is needed: every compile here is a hit on an entry the
/// test stores under the full scan's key.
///
//===----------------------------------------------------------------------===//

#include "mmptx/Cache/ContentCache.h"
#include "mmptx/Frontend/Nvrtc.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"

#include <chrono>
#include <fcntl.h>
#include <sys/stat.h>
#include <thread>

using namespace llvm;
using namespace mmptx;

namespace {

class NvrtcCacheTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(sys::fs::createUniqueDirectory("mmptx-nvrtc-test", Dir));
    ASSERT_FALSE(sys::fs::create_directory(path("inc")));
    Expected<std::unique_ptr<ContentCache>> C = ContentCache::open(path("c"));
    ASSERT_TRUE(bool(C)) << toString(C.takeError());
    Cache = std::move(*C);
    Opts.IncludeDirs = {path("inc")};
    Opts.UseToolkitIncludes = false;
    Name = path("k.cu");
  }
  void TearDown() override { sys::fs::remove_directories(Dir); }

  std::string path(StringRef Rel) {
    SmallString<256> P(Dir);
    sys::path::append(P, Rel);
    return std::string(P);
  }
  void write(StringRef Rel, StringRef Text) {
    std::error_code EC;
    raw_fd_ostream OS(path(Rel), EC);
    ASSERT_FALSE(EC);
    OS << Text;
  }
  /// Stores \p Ptx under the key a full scan gives now.
  void storeUnderFullKey(StringRef Ptx) {
    std::string Why;
    std::string Key = getPtxCacheKey(Source, Name, Opts, &Why);
    ASSERT_EQ(Why, "");
    ASSERT_FALSE(bool(Cache->store(Key, {Ptx, ""})));
  }
  /// Files written within the last second are not trusted to be unchanged.
  static void waitUntilTrusted() {
    std::this_thread::sleep_for(std::chrono::milliseconds(2100));
  }

  SmallString<128> Dir;
  std::unique_ptr<ContentCache> Cache;
  CudaCompileOptions Opts;
  std::string Name;
  std::string Source = "#include \"a.h\"\n__global__ void k() {}\n";
};

TEST_F(NvrtcCacheTest, HitReadsOnlyChangedFiles) {
  write("a.h", "#include <b.h>\n#define A B\n");
  write("inc/b.h", "#define B 1\n");
  waitUntilTrusted();
  storeUnderFullKey("first");

  Expected<CudaCompileResult> R = compileCudaToPtx(Source, Name, Opts, &*Cache);
  ASSERT_TRUE(bool(R)) << toString(R.takeError());
  EXPECT_TRUE(R->FromCache);
  EXPECT_EQ(R->Ptx, "first");
  EXPECT_EQ(R->NumKeyFiles, 2u);
  EXPECT_EQ(R->NumKeyFilesRead, 2u);

  R = compileCudaToPtx(Source, Name, Opts, &*Cache);
  ASSERT_TRUE(bool(R)) << toString(R.takeError());
  EXPECT_TRUE(R->FromCache);
  EXPECT_EQ(R->NumKeyFiles, 2u);
  EXPECT_EQ(R->NumKeyFilesRead, 0u);

  // The same size and modification time: only the status-change time
  // differs.
  struct stat Before;
  ASSERT_EQ(::stat(path("inc/b.h").c_str(), &Before), 0);
  write("inc/b.h", "#define B 2\n");
  struct timespec Times[2] = {Before.st_atim, Before.st_mtim};
  ASSERT_EQ(::utimensat(AT_FDCWD, path("inc/b.h").c_str(), Times, 0), 0);
  waitUntilTrusted();
  storeUnderFullKey("second");
  R = compileCudaToPtx(Source, Name, Opts, &*Cache);
  ASSERT_TRUE(bool(R)) << toString(R.takeError());
  EXPECT_TRUE(R->FromCache);
  EXPECT_EQ(R->Ptx, "second");
  EXPECT_EQ(R->NumKeyFilesRead, 1u);

  // A header that a changed one now includes: found without reading the
  // others again.
  write("inc/c.h", "#define C 1\n");
  write("inc/b.h", "#include <c.h>\n");
  waitUntilTrusted();
  storeUnderFullKey("third");
  R = compileCudaToPtx(Source, Name, Opts, &*Cache);
  ASSERT_TRUE(bool(R)) << toString(R.takeError());
  EXPECT_EQ(R->Ptx, "third");
  EXPECT_EQ(R->NumKeyFiles, 3u);
  EXPECT_EQ(R->NumKeyFilesRead, 2u);
  R = compileCudaToPtx(Source, Name, Opts, &*Cache);
  ASSERT_TRUE(bool(R)) << toString(R.takeError());
  EXPECT_EQ(R->Ptx, "third");
  EXPECT_EQ(R->NumKeyFilesRead, 0u);
}

TEST_F(NvrtcCacheTest, RecentFilesAreReadEveryTime) {
  write("a.h", "#define A 1\n");
  storeUnderFullKey("ptx");
  for (int I = 0; I != 2; ++I) {
    Expected<CudaCompileResult> R =
        compileCudaToPtx(Source, Name, Opts, &*Cache);
    ASSERT_TRUE(bool(R)) << toString(R.takeError());
    EXPECT_TRUE(R->FromCache);
    EXPECT_EQ(R->NumKeyFiles, 1u);
    EXPECT_EQ(R->NumKeyFilesRead, 1u);
  }
}

} // namespace
