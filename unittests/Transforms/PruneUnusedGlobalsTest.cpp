//===- PruneUnusedGlobalsTest.cpp - The prune API -------------------------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "mmptx/Transforms/PruneUnusedGlobals.h"
#include "mmptx/IR/Module.h"
#include "mmptx/Parser/Parser.h"

#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

using namespace llvm;
using namespace mmptx;

namespace {

const char *const Kernel = ".version 9.0\n"
                           ".target sm_80\n"
                           ".address_size 64\n"
                           ".global .align 4 .u32 dead;\n"
                           ".global .align 4 .u32 used;\n"
                           ".visible .global .align 4 .u32 exported;\n"
                           ".func helper()\n"
                           "{\n"
                           "\tret;\n"
                           "}\n"
                           ".visible .entry k()\n"
                           "{\n"
                           "\t.reg .b32 %r<2>;\n"
                           "\tld.global.u32 %r1, [used];\n"
                           "\tret;\n"
                           "}\n";

TEST(PruneUnusedGlobals, RemovesWhatNothingReferences) {
  PruneStats Stats;
  auto Out = prunePTX(Kernel, {}, &Stats);
  ASSERT_TRUE(bool(Out)) << toString(Out.takeError());
  EXPECT_FALSE(StringRef(*Out).contains("dead"));
  EXPECT_FALSE(StringRef(*Out).contains("helper"));
  EXPECT_TRUE(StringRef(*Out).contains(".global .align 4 .u32 used;"));
  EXPECT_TRUE(StringRef(*Out).contains("exported"));
  EXPECT_EQ(Stats.Variables, 1u);
  EXPECT_EQ(Stats.Functions, 1u);
  EXPECT_EQ(Stats.Bytes, strlen(Kernel) - Out->size());
}

TEST(PruneUnusedGlobals, OptionsChangeTheRoots) {
  PruneOptions Opts;
  Opts.EntriesOnly = true;
  Opts.Keep = {"helper"};
  PruneStats Stats;
  auto Out = prunePTX(Kernel, Opts, &Stats);
  ASSERT_TRUE(bool(Out)) << toString(Out.takeError());
  EXPECT_FALSE(StringRef(*Out).contains("exported"));
  EXPECT_TRUE(StringRef(*Out).contains(".func helper()"));
  EXPECT_EQ(Stats.Variables, 2u);
  EXPECT_EQ(Stats.Functions, 0u);
}

TEST(PruneUnusedGlobals, NothingToRemoveIsTheInput) {
  auto Once = prunePTX(Kernel);
  ASSERT_TRUE(bool(Once));
  PruneStats Stats;
  auto Twice = prunePTX(*Once, {}, &Stats);
  ASSERT_TRUE(bool(Twice));
  EXPECT_EQ(*Twice, *Once);
  EXPECT_EQ(Stats.Bytes, 0u);
}

TEST(PruneUnusedGlobals, WarnsAboutUnknownKeepNames) {
  auto M = parsePTXString(Kernel, "k.ptx");
  ASSERT_TRUE(bool(M));
  PruneOptions Opts;
  Opts.Keep = {"nowhere"};
  std::vector<std::string> Warnings;
  auto S = pruneUnusedGlobals(**M, Opts, [&](const SMDiagnostic &D) {
    Warnings.push_back(D.getMessage().str());
  });
  ASSERT_TRUE(bool(S));
  ASSERT_EQ(Warnings.size(), 1u);
  EXPECT_NE(Warnings[0].find("keep=nowhere"), std::string::npos);
}

TEST(PruneUnusedGlobals, ParsesOptions) {
  auto Opts = parsePruneOptions({"", "entries-only,keep=a", "keep=b"});
  ASSERT_TRUE(bool(Opts));
  EXPECT_TRUE(Opts->EntriesOnly);
  EXPECT_EQ(Opts->Keep, (std::vector<std::string>{"a", "b"}));
  auto Bad = parsePruneOptions({"entries"});
  ASSERT_FALSE(bool(Bad));
  EXPECT_NE(toString(Bad.takeError()).find("unknown option 'entries'"),
            std::string::npos);
}

} // namespace
