//===- PassRegistryTest.cpp - Tests for the pass registry -----------------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "mmptx/Transforms/Passes.h"

#include "gtest/gtest.h"

using namespace mmptx;

namespace {

// Every pass describes itself with the one description Passes.def gives its
// flag, which mmptx-opt --help and the generated pass reference also print.
TEST(PassRegistryTest, PassesDescribeThemselvesFromTheRegistry) {
  unsigned Created = 0;
  for (const PassInfo &Info : getRegisteredPasses()) {
    EXPECT_FALSE(Info.Description.empty()) << Info.Argument.str();
    EXPECT_EQ(lookupPass(Info.Argument), &Info);
    if (!Info.Factory)
      continue;
    std::unique_ptr<Pass> P = Info.Factory();
    ASSERT_TRUE(P);
    EXPECT_EQ(P->getArgument(), Info.Argument);
    EXPECT_EQ(P->getDescription(), Info.Description);
    ++Created;
  }
  EXPECT_GE(Created, 2u);
}

TEST(PassRegistryTest, ValuePassesDescribeThemselvesFromTheRegistry) {
  const PassInfo *Inject = lookupPass("inject");
  ASSERT_TRUE(Inject);
  ASSERT_TRUE(Inject->ValuesFactory);
  llvm::Expected<std::unique_ptr<Pass>> P =
      Inject->ValuesFactory({std::string("f=stub.ptx")});
  ASSERT_TRUE(bool(P)) << llvm::toString(P.takeError());
  EXPECT_EQ((*P)->getDescription(), Inject->Description);
}

TEST(PassRegistryTest, UnknownPass) {
  EXPECT_EQ(lookupPass("no-such-pass"), nullptr);
  EXPECT_EQ(lookupPass(""), nullptr);
}

} // namespace
