//===- PackedModuleTest.cpp - Tests of packed injects ---------------------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "mmptx/Backend/PackedModule.h"
#include "mmptx/Backend/PTXCompiler.h"

#include "gtest/gtest.h"

using namespace llvm;
using namespace mmptx;

namespace {

size_t count(StringRef Text, StringRef What) {
  size_t N = 0;
  for (size_t At = Text.find(What); At != StringRef::npos;
       At = Text.find(What, At + 1))
    ++N;
  return N;
}

TEST(PackedModuleTest, KernelsTimesSites) {
  std::vector<std::string> Stubs;
  for (int I = 0; I < 5; ++I)
    Stubs.push_back("\t{\n\tadd.f32 %y, %x0, 0f3F800000;\n\t}");
  std::vector<StringRef> Refs(Stubs.begin(), Stubs.end());
  PackedModuleSpec Spec;
  Spec.SitesPerKernel = 2;
  Spec.NumInputs = 3;
  Spec.KernelPrefix = "k";
  Expected<std::string> M = buildPackedModule(Refs, Spec);
  ASSERT_TRUE(bool(M)) << toString(M.takeError());
  EXPECT_EQ(count(*M, ".entry k_"), 3u);
  EXPECT_EQ(count(*M, "brx.idx"), 3u);
  // Identical stubs of a kernel share one block: 2 + 2 + 1 sites, 3
  // blocks, the jump tables naming the first site's block twice.
  EXPECT_EQ(count(*M, "add.f32 %y"), 3u);
  EXPECT_EQ(count(*M, ".branchtargets $k_s0, $k_s0;"), 2u);
  EXPECT_EQ(count(*M, "ld.global.f32 %x"), 9u);
  EXPECT_NE(M->find(".reg .f32 %x<3>;"), std::string::npos);
  // The last kernel holds one site, for program 4.
  EXPECT_NE(M->find("add.u32 %rk5, %rk4, 4;"), std::string::npos);

  // It assembles, with whichever backend this build has.
  auto C = createDefaultPTXCompiler();
  if (!C) {
    consumeError(C.takeError());
    return;
  }
  Expected<CompileResult> R = (*C)->compile(*M, {}, "packed.ptx");
  EXPECT_TRUE(bool(R)) << toString(R.takeError());
}

TEST(PackedModuleTest, StubLineMap) {
  std::vector<StringRef> Stubs = {"\tmov.f32 %y, %x0;\n",
                                  "\tmov.f32 %y, %x1;\n\tabs.f32 %y, %y;"};
  PackedModuleSpec Spec;
  Spec.SitesPerKernel = 1;
  StubLineMap Map;
  Expected<std::string> M = buildPackedModule(Stubs, Spec, &Map, {"a.stub"});
  ASSERT_TRUE(bool(M)) << toString(M.takeError());
  ASSERT_EQ(Map.size(), 2u);
  SmallVector<StringRef, 0> Lines;
  StringRef(*M).split(Lines, '\n');
  for (size_t I = 0; I != 2; ++I) {
    SmallVector<StringRef, 2> StubLines;
    Stubs[I].rtrim('\n').split(StubLines, '\n');
    ASSERT_EQ(Map[I].NumLines, StubLines.size());
    for (size_t J = 0; J != StubLines.size(); ++J)
      EXPECT_EQ(Lines[Map[I].FirstLine - 1 + J], StubLines[J]);
  }
  EXPECT_EQ(Map[0].Stub, "a.stub");
  EXPECT_EQ(Map[1].Stub, "stub 1");
  EXPECT_EQ(Map[1].Site, "program 1 (mmptx_packed_1, site 0)");
  EXPECT_EQ(Map[1].StubFirstLine, 1u);
}

TEST(PackedModuleTest, NoDedupKeepsEveryBlock) {
  std::vector<StringRef> Stubs(5, "\t{\n\tadd.f32 %y, %x0, 0f3F800000;\n\t}");
  PackedModuleSpec Spec;
  Spec.SitesPerKernel = 2;
  Spec.Deduplicate = false;
  Expected<std::string> M = buildPackedModule(Stubs, Spec);
  ASSERT_TRUE(bool(M)) << toString(M.takeError());
  EXPECT_EQ(count(*M, "add.f32 %y"), 5u);
  EXPECT_EQ(count(*M, ".branchtargets $mmptx_packed_s0, $mmptx_packed_s1;"),
            2u);
}

TEST(PackedModuleTest, SlowOpsShared) {
  std::vector<StringRef> Stubs = {
      "\tdiv.rn.f32 %y, %x0, %x1;", "\tdiv.rn.f32 %y, %x1, 0f40000000;",
      "\tsqrt.rn.f32 %y, %x0;", "\t@%p div.rn.f32 %y, %x0, %x1;",
      "\tdiv.rn.f32 %y, %x1, 2.5;"};
  Expected<std::string> M = buildPackedModule(Stubs);
  ASSERT_TRUE(bool(M)) << toString(M.takeError());
  EXPECT_EQ(count(*M, ".func (.reg .f32 d) mmptx_packed_div_rn_f32(.reg .f32 "
                      "a, .reg .f32 b)"),
            1u);
  EXPECT_EQ(count(*M, "call (%y), mmptx_packed_div_rn_f32, (%x0, %x1);"), 1u);
  EXPECT_EQ(count(*M, "call (%y), mmptx_packed_div_rn_f32, (%x1, 0f40000000);"),
            1u);
  // Used once: inline; guarded: inline.
  EXPECT_EQ(count(*M, "sqrt_rn"), 0u);
  EXPECT_EQ(count(*M, "@%p div.rn.f32 %y, %x0, %x1;"), 1u);
  // A decimal literal is an f64 that only the instruction converts.
  EXPECT_EQ(count(*M, "div.rn.f32 %y, %x1, 2.5;"), 1u);
  PackedModuleSpec Spec;
  Spec.ShareSlowOps = false;
  M = buildPackedModule(Stubs, Spec);
  ASSERT_TRUE(bool(M)) << toString(M.takeError());
  EXPECT_EQ(count(*M, "call"), 0u);
}

TEST(PackedModuleTest, StubsChecked) {
  PackedModuleSpec Spec;
  std::vector<StringRef> Stray = {"\tmov.f32 %y, %x0;",
                                  "\tmov.f32 %y, %x1;\n}"};
  Expected<std::string> M = buildPackedModule(Stray, Spec, nullptr, {"a", "b"});
  ASSERT_FALSE(bool(M));
  std::string Msg = toString(M.takeError());
  EXPECT_EQ(Msg.find("b:2:1: error:"), 0u) << Msg;
  std::vector<StringRef> Writes = {"\tadd.u32 %rk4, %rk4, 1;"};
  M = buildPackedModule(Writes, Spec);
  ASSERT_FALSE(bool(M));
  Msg = toString(M.takeError());
  EXPECT_NE(Msg.find("stub 0:1:10: error: the stub of packed program 0 "
                     "(mmptx_packed_0, site 0) writes '%rk4', a register of "
                     "the packed module: a stub may not write it"),
            std::string::npos)
      << Msg;
  // Its own register of that name is fine.
  std::vector<StringRef> Own = {
      "\t{\n\t.reg .b32 %rk<5>;\n\tmov.b32 %rk4, 1;\n\tmov.f32 %y, %x0;\n\t}"};
  EXPECT_TRUE(bool(buildPackedModule(Own, Spec)));
}

TEST(PackedModuleTest, BadSpecs) {
  StringRef Stub = "{ mov.f32 %y, %x0; }";
  PackedModuleSpec Spec;
  Spec.SitesPerKernel = 0;
  EXPECT_EQ(toString(buildPackedModule(Stub, Spec).takeError()),
            "packed module: sites per kernel must be at least 1");
  Spec = {};
  Spec.NumInputs = 0;
  EXPECT_EQ(toString(buildPackedModule(Stub, Spec).takeError()),
            "packed module: at least one input is needed");
  Spec.NumInputs = 4000000000u;
  EXPECT_EQ(toString(buildPackedModule(Stub, Spec).takeError()),
            "packed module: 4000000000 inputs, but at most 4096");
  Spec = {};
  Spec.KernelPrefix = "1x";
  EXPECT_EQ(toString(buildPackedModule(Stub, Spec).takeError()),
            "packed module: '1x' is not a PTX identifier");
  Spec = {};
  Spec.Arch = "compute_80";
  EXPECT_EQ(toString(buildPackedModule(Stub, Spec).takeError()),
            "packed module: unknown architecture 'compute_80'");
}

} // namespace
