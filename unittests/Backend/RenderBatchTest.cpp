//===- RenderBatchTest.cpp - Tests of batches of rendered modules ---------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "BatchTestUtil.h"
#include "mmptx/Backend/Batch.h"

#include "llvm/Support/MemoryBuffer.h"
#include "gtest/gtest.h"

#include <atomic>

using namespace llvm;
using namespace mmptx;
using namespace mmptx::batchtest;

namespace {

TEST(RenderBatchTest, SameResultsAsCompileBatch) {
  MMPTX_COMPILER_OR_SKIP(C, createDefaultPTXCompiler());
  TinyKernels K = makeTinyKernels();
  const std::string *Texts[] = {&K.Good,  &K.Bad, &K.Good,
                                &K.Other, &K.Bad, &K.Other};
  const char *Names[] = {"a", "b", "c", "d", "e", "f"};
  std::vector<BatchModule> Mods;
  for (size_t I = 0; I != 6; ++I)
    Mods.push_back({Names[I], *Texts[I], nullptr});

  std::atomic<unsigned> Renders{0};
  RenderedModules R;
  R.Size = 6;
  R.Render = [&](size_t I, std::string &Out) {
    ++Renders;
    // The buffer is the worker's: whatever the last module left in it is
    // replaced.
    Out.assign(*Texts[I]);
    return Error::success();
  };
  R.Name = [&](size_t I) { return std::string(Names[I]); };
  BatchOptions BO;
  BO.Threads = 2;
  BatchResult Want = compileBatch(**C, Mods, {}, BO);
  BatchResult Got = compileRenderedBatch(**C, R, {}, BO);
  ASSERT_EQ(Got.Modules.size(), Want.Modules.size());
  for (size_t I = 0; I != 6; ++I) {
    SCOPED_TRACE(Names[I]);
    EXPECT_EQ(Got.Modules[I].Ok, Want.Modules[I].Ok);
    EXPECT_EQ(Got.Modules[I].Source, Want.Modules[I].Source);
    EXPECT_EQ(Got.Modules[I].DuplicateOf, Want.Modules[I].DuplicateOf);
    EXPECT_EQ(Got.Modules[I].Error, Want.Modules[I].Error);
    EXPECT_EQ(Got.Modules[I].Result.Cubin, Want.Modules[I].Result.Cubin);
  }
  const BatchSummary &S = Got.Summary;
  EXPECT_EQ(S.Modules, 6u);
  EXPECT_EQ(S.Unique, 3u);
  EXPECT_EQ(S.Duplicates, 3u);
  EXPECT_EQ(S.Failed, Want.Summary.Failed);
  EXPECT_EQ(S.Compiled, Want.Summary.Compiled);
  // Once each to hash, twice per duplicate to confirm it, once per unique
  // module to compile.
  EXPECT_EQ(Renders, 6u + 2 * 3u + 3u);
}

TEST(RenderBatchTest, HashMatchIsConfirmedByBytesAndRenderErrorsFail) {
  MMPTX_COMPILER_OR_SKIP(C, createDefaultPTXCompiler());
  TinyKernels K = makeTinyKernels();
  // Module 1 renders like module 0 the first time only: the byte compare
  // keeps it apart. Module 2 does not render.
  std::atomic<unsigned> Module1Renders{0};
  RenderedModules R;
  R.Size = 3;
  R.Render = [&](size_t I, std::string &Out) -> Error {
    if (I == 2)
      return createStringError(inconvertibleErrorCode(), "no stub for 'mma'");
    Out = I == 1 && Module1Renders++ ? K.Other : K.Good;
    return Error::success();
  };
  BatchResult Got = compileRenderedBatch(**C, R, {}, BatchOptions());
  EXPECT_TRUE(Got.Modules[0].Ok);
  EXPECT_TRUE(Got.Modules[1].Ok);
  EXPECT_NE(Got.Modules[1].Source, ModuleResult::Duplicate);
  EXPECT_FALSE(Got.Modules[2].Ok);
  EXPECT_EQ(Got.Modules[2].Error, "module 2: error: no stub for 'mma'");
  EXPECT_EQ(Got.Summary.Unique, 2u);
  EXPECT_EQ(Got.Summary.Duplicates, 0u);
  EXPECT_EQ(Got.Summary.Failed, 1u);
}

} // namespace
