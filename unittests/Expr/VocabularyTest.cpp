//===- VocabularyTest.cpp - Named subsets of an instruction set -----------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "mmptx/Expr/Vocabulary.h"
#include "mmptx-c/StackPtx.h"
#include "mmptx/Stack/StackRandom.h"

#include "gtest/gtest.h"

#include <set>

using namespace llvm;
using namespace mmptx;
using namespace mmptx::expr;
using namespace mmptx::stack;

namespace {

TEST(VocabularyTest, Names) {
  EXPECT_EQ(getVocabularyName(Vocabulary::FastCompile), "fast-compile");
  Expected<Vocabulary> V = parseVocabularyName("fast-compile");
  ASSERT_TRUE(bool(V));
  EXPECT_EQ(*V, Vocabulary::FastCompile);
  Expected<Vocabulary> Bad = parseVocabularyName("fast");
  ASSERT_FALSE(bool(Bad));
  EXPECT_EQ(toString(Bad.takeError()),
            "unknown vocabulary 'fast' (expected all or fast-compile)");
}

TEST(VocabularyTest, FastCompileMembers) {
  for (const char *In :
       {"add.ftz.f32", "fma.rn.ftz.f32", "div.approx.ftz.f32",
        "sqrt.approx.ftz.f32", "rcp.approx.ftz.f32", "setp.lt.ftz.f32",
        "tanh.approx.f32", "copysign.f32", "selp.f32", "add.f64", "mul.lo.u32",
        "cvt.rn.f32.u32", "add.f16"})
    EXPECT_TRUE(isInVocabulary(In, Vocabulary::FastCompile)) << In;
  for (const char *Out :
       {"div.rn.f32", "div.rn.ftz.f32", "sqrt.rn.f32", "rcp.rn.f32",
        "div.rn.f64", "sqrt.rn.f64", "rcp.rn.f64", "div.u32", "rem.s32",
        "add.f32", "fma.rn.f32", "div.approx.f32", "sin.approx.f32",
        "setp.lt.f32", "max.f32"})
    EXPECT_FALSE(isInVocabulary(Out, Vocabulary::FastCompile)) << Out;
  EXPECT_TRUE(isInVocabulary("div.rn.f32", Vocabulary::All));
}

TEST(VocabularyTest, RandomProgramsStayInside) {
  const StackInfo &Info = getDefaultStackInfo();
  std::vector<uint32_t> Fast =
      getVocabularyInstrs(Info, Vocabulary::FastCompile);
  ASSERT_FALSE(Fast.empty());
  EXPECT_LT(Fast.size(), size_t(Info.NumInstrs));
  std::set<uint32_t> Allowed(Fast.begin(), Fast.end());
  StackRng Rng(7);
  unsigned Ptx = 0;
  for (int P = 0; P != 50; ++P) {
    for (uint64_t W :
         randomF32Program(Rng, 32, Info, 2, Vocabulary::FastCompile)) {
      if (getWordType(W) != WordType::Ptx)
        continue;
      ++Ptx;
      EXPECT_TRUE(Allowed.count(getWordPayload(W)))
          << Info.InstrPtx[getWordPayload(W)];
    }
    // Mutation-style words: PTX words are in the vocabulary or out of the
    // instruction set's range.
    for (uint64_t W :
         randomWords(Rng, 64, Info, 3, 3, Vocabulary::FastCompile)) {
      if (getWordType(W) != WordType::Ptx)
        continue;
      EXPECT_TRUE(Allowed.count(getWordPayload(W)) ||
                  getWordPayload(W) >= Info.NumInstrs);
    }
  }
  EXPECT_GT(Ptx, 100u);
}

TEST(VocabularyTest, CApi) {
  size_t Count = 0;
  ASSERT_EQ(mmptx_stack_vocabulary(nullptr, "fast-compile", nullptr, 0, &Count),
            MMPTX_STACK_SUCCESS);
  std::vector<uint32_t> Fast =
      getVocabularyInstrs(getDefaultStackInfo(), Vocabulary::FastCompile);
  ASSERT_EQ(Count, Fast.size());
  std::vector<uint32_t> Got(Count);
  ASSERT_EQ(mmptx_stack_vocabulary(mmptx_stack_default_tables(), "fast-compile",
                                   Got.data(), Got.size(), &Count),
            MMPTX_STACK_SUCCESS);
  EXPECT_EQ(Got, Fast);
  ASSERT_EQ(mmptx_stack_vocabulary(nullptr, "all", nullptr, 0, &Count),
            MMPTX_STACK_SUCCESS);
  EXPECT_EQ(Count, size_t(getDefaultStackInfo().NumInstrs));
  EXPECT_EQ(mmptx_stack_vocabulary(nullptr, "slow", nullptr, 0, &Count),
            MMPTX_STACK_ERROR_INVALID_ARGUMENT);
  EXPECT_STREQ(mmptx_last_error(),
               "unknown vocabulary 'slow' (expected all or fast-compile)");
  EXPECT_EQ(mmptx_stack_vocabulary(nullptr, "all", nullptr, 4, &Count),
            MMPTX_STACK_ERROR_INVALID_ARGUMENT);
}

} // namespace
