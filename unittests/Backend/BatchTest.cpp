//===- BatchTest.cpp - Tests of batch compilation -------------------------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "mmptx/Backend/Batch.h"
#include "BatchTestUtil.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"

using namespace llvm;
using namespace mmptx;

namespace {

TEST(BatchTest, DeduplicatesCachesAndKeepsErrorsPerModule) {
  MMPTX_COMPILER_OR_SKIP(C, createDefaultPTXCompiler());
  batchtest::TinyKernels K = batchtest::makeTinyKernels();
  const std::string &Good = K.Good, &Other = K.Other, &Bad = K.Bad;

  std::vector<BatchModule> Mods(5);
  Mods[0] = {"a", Good, nullptr};
  Mods[1] = {"b", Bad, nullptr};
  Mods[2] = {"c", Good, nullptr};
  Mods[3] = {"d", Other, nullptr};
  Mods[4] = {"e", Bad, nullptr};

  SmallString<128> Dir;
  std::unique_ptr<ContentCache> Cache =
      batchtest::openTempCache("mmptx-batch-test", Dir);
  ASSERT_TRUE(Cache);

  BatchOptions BO = batchtest::cachedBatchOptions(2, Cache.get());
  size_t Calls = 0;
  BO.OnProgress = [&](size_t Done, size_t Total) {
    ++Calls;
    EXPECT_EQ(Total, 3u);
    EXPECT_LE(Done, Total);
  };
  BatchResult R = compileBatch(**C, Mods, {}, BO);
  EXPECT_EQ(Calls, 3u);
  const BatchSummary &S = R.Summary;
  EXPECT_EQ(S.Modules, 5u);
  EXPECT_EQ(S.Unique, 3u);
  EXPECT_EQ(S.Duplicates, 2u);
  EXPECT_EQ(S.Compiled, 2u);
  EXPECT_EQ(S.Failed, 2u);
  EXPECT_EQ(S.Threads, 2u);
  EXPECT_TRUE(R.Modules[0].Ok);
  EXPECT_FALSE(R.Modules[1].Ok);
  EXPECT_NE(R.Modules[1].Error.find("b:"), std::string::npos);
  EXPECT_EQ(R.Modules[2].Source, ModuleResult::Duplicate);
  EXPECT_EQ(R.Modules[2].DuplicateOf, 0u);
  EXPECT_EQ(R.Modules[2].Result.Cubin, R.Modules[0].Result.Cubin);
  EXPECT_TRUE(R.Modules[3].Ok);
  EXPECT_EQ(R.Modules[4].Error, "e: error: same PTX as 'b', which failed");

  // Again: the good ones come from the cache; failures are not cached.
  BO.OnProgress = nullptr;
  BatchResult R2 = compileBatch(**C, Mods, {}, BO);
  EXPECT_EQ(R2.Summary.CacheHits, 2u);
  EXPECT_EQ(R2.Summary.Compiled, 0u);
  EXPECT_EQ(R2.Summary.Failed, 2u);
  EXPECT_EQ(R2.Modules[0].Source, ModuleResult::Cached);
  EXPECT_EQ(R2.Modules[0].Result.Cubin, R.Modules[0].Result.Cubin);
  EXPECT_EQ(R2.Modules[0].Result.Backend, (*C)->getIdentity());

  // Another architecture is another key.
  CompileOptions O90;
  O90.Arch = "sm_90";
  BatchResult R3 = compileBatch(**C, makeArrayRef(Mods).take_front(1), O90, BO);
  EXPECT_EQ(R3.Summary.Compiled, 1u);
  sys::fs::remove_directories(Dir);
}

TEST(BatchTest, CacheKeyCoversBackendOptionsAndPtx) {
  MMPTX_COMPILER_OR_SKIP(C, createDefaultPTXCompiler());
  CompileOptions O;
  std::string K = getCubinCacheKey(**C, "ptx", O);
  EXPECT_NE(K, getCubinCacheKey(**C, "ptx ", O));
  O.OptLevel = 2;
  EXPECT_NE(K, getCubinCacheKey(**C, "ptx", O));
  for (BackendKind Kind : getAllBackends()) {
    if (Kind == (*C)->getKind())
      continue;
    if (auto Other = createPTXCompiler(Kind))
      EXPECT_NE(K, getCubinCacheKey(**Other, "ptx", CompileOptions()));
    else
      consumeError(Other.takeError());
  }
}

// Run under ThreadSanitizer by utils/tsan.sh: the pool, the deduplication
// and the cache, with the ptxas backend (a process per module, so no
// uninstrumented library code runs on the pool's threads).
TEST(BatchTest, ConcurrentBatchSharesCompilerAndCache) {
  MMPTX_COMPILER_OR_SKIP(C, createPtxasBackend());
  std::string Tiny = batchtest::readTinyKernel();
  std::vector<std::string> Texts;
  for (int I = 0; I < 6; ++I)
    Texts.push_back("// " + std::to_string(I % 3) + "\n" + Tiny);
  std::vector<BatchModule> Mods;
  for (size_t I = 0; I < Texts.size(); ++I)
    Mods.push_back({"m" + std::to_string(I), Texts[I], nullptr});
  SmallString<128> Dir;
  std::unique_ptr<ContentCache> Cache =
      batchtest::openTempCache("mmptx-batch-tsan", Dir);
  ASSERT_TRUE(Cache);
  BatchOptions BO = batchtest::cachedBatchOptions(3, Cache.get());
  BatchResult R = compileBatch(**C, Mods, {}, BO);
  EXPECT_EQ(R.Summary.Unique, 3u);
  EXPECT_EQ(R.Summary.Failed, 0u);
  BatchResult R2 = compileBatch(**C, Mods, {}, BO);
  EXPECT_EQ(R2.Summary.CacheHits, 3u);
  sys::fs::remove_directories(Dir);
}
} // namespace

namespace {

TEST(BatchTest, CancelKeepsFinishedResultsAndMarksTheRest) {
  MMPTX_COMPILER_OR_SKIP(C, createDefaultPTXCompiler());
  std::string Good = batchtest::readTinyKernel();
  std::vector<std::string> Texts;
  for (int I = 0; I < 4; ++I)
    Texts.push_back("// variant " + std::to_string(I) + "\n" + Good);
  std::vector<BatchModule> Mods;
  for (int I = 0; I < 4; ++I)
    Mods.push_back({"m" + std::to_string(I), Texts[I], nullptr});
  BatchOptions B;
  B.Threads = 1;
  // Two modules are compiled, then a cancel (as Ctrl-C would) stops the rest.
  size_t Asked = 0;
  B.ShouldCancel = [&] { return ++Asked > 2; };
  size_t LastDone = 0, LastTotal = 0;
  B.OnProgress = [&](size_t Done, size_t Total) {
    LastDone = Done;
    LastTotal = Total;
  };
  BatchResult R = compileBatch(**C, Mods, CompileOptions(), B);
  ASSERT_EQ(R.Modules.size(), 4u);
  EXPECT_TRUE(R.Modules[0].Ok);
  EXPECT_TRUE(R.Modules[1].Ok);
  EXPECT_FALSE(R.Modules[0].Result.Cubin.empty());
  for (int I : {2, 3}) {
    EXPECT_FALSE(R.Modules[I].Ok);
    EXPECT_TRUE(R.Modules[I].Cancelled);
    EXPECT_NE(R.Modules[I].Error.find("not compiled: the batch was cancelled"),
              std::string::npos)
        << R.Modules[I].Error;
    EXPECT_EQ(R.Modules[I].Result.Backend, (*C)->getIdentity());
  }
  EXPECT_EQ(R.Summary.Cancelled, 2u);
  EXPECT_EQ(R.Summary.Failed, 2u);
  EXPECT_EQ(R.Summary.Compiled, 2u);
  // Cancelled modules count as done: a progress bar ends full.
  EXPECT_EQ(LastDone, 4u);
  EXPECT_EQ(LastTotal, 4u);
}

TEST(BatchTest, FailedResultsNameTheirBackend) {
  MMPTX_COMPILER_OR_SKIP(C, createDefaultPTXCompiler());
  std::string Bad = ".version 8.0\n.target sm_80\n.address_size 64\nbogus;\n";
  BatchModule M{"bad", Bad, nullptr};
  BatchResult R = compileBatch(**C, M, CompileOptions());
  ASSERT_EQ(R.Modules.size(), 1u);
  EXPECT_FALSE(R.Modules[0].Ok);
  EXPECT_EQ(R.Modules[0].Result.Backend, (*C)->getIdentity());
}

#ifdef LLVM_ON_UNIX
TEST(BatchTest, ModuleTimeoutStopsAHungPtxas) {
  // A ptxas that answers --version and then never finishes a compile.
  SmallString<128> Dir, Fake;
  ASSERT_FALSE(batchtest::writeFakePtxas(
      "mmptx-timeout",
      "#!/bin/sh\n"
      "case \"$1\" in --version) echo 'Cuda compilation tools, release "
      "13.0, V13.0.88'; exit 0;; esac\n"
      "exec sleep 1000\n",
      Dir, Fake));
  Expected<std::unique_ptr<PTXCompiler>> C = createPtxasBackend(Fake);
  ASSERT_TRUE(bool(C)) << toString(C.takeError());
  std::string Good = batchtest::readTinyKernel();
  std::string Other = "// other\n" + Good;
  // Two modules on two worker threads: the limit must hold off the main
  // thread too (a SIGALRM-based one would not).
  BatchModule Mods[] = {{"hung", Good, nullptr}, {"hung2", Other, nullptr}};
  BatchOptions B;
  B.ModuleTimeout = 1;
  B.Threads = 2;
  BatchResult R = compileBatch(**C, Mods, CompileOptions(), B);
  ASSERT_EQ(R.Modules.size(), 2u);
  for (const ModuleResult &M : R.Modules) {
    EXPECT_FALSE(M.Ok);
    EXPECT_TRUE(M.TimedOut);
    EXPECT_NE(M.Error.find("timed out after 1 s"), std::string::npos)
        << M.Error;
  }
  EXPECT_EQ(R.Summary.TimedOut, 2u);
  sys::fs::remove_directories(Dir);
}
#endif

} // namespace
