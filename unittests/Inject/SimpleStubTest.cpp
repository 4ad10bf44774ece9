//===- SimpleStubTest.cpp - The fast stub check agrees with the full one --===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Render accepts a stub that isSimpleStub() accepts without parsing it. That
// is only sound if the full check (checkStub) accepts every such stub with
// no warning: checked here on the Stack PTX compiler's stubs and on many
// byte-level mutations of them and of hand-written stubs.
//
//===----------------------------------------------------------------------===//

#include "MutateText.h"
#include "mmptx/Inject/InjectChecks.h"
#include "mmptx/Inject/InjectModule.h"
#include "mmptx/Stack/StackCompiler.h"
#include "mmptx/Stack/StackRandom.h"

#include "llvm/Support/MemoryBuffer.h"

#include "gtest/gtest.h"

#include <random>

using namespace llvm;
using namespace mmptx;

namespace {

class SimpleStubTest : public ::testing::Test {
protected:
  void SetUp() override {
    auto Buf =
        MemoryBuffer::getFile(MMPTX_CORPUS_DIR "/ptx_inject_simple_kernel.ptx");
    ASSERT_TRUE(bool(Buf));
    auto M = InjectModule::create((*Buf)->getBuffer(), "simple");
    ASSERT_TRUE(bool(M)) << toString(M.takeError());
    Module = std::move(*M);
    Inj = Module->lookupInject("func");
    ASSERT_NE(Inj, nullptr);
  }

  /// \returns "" if the full check accepts \p Stub with no warning, else
  /// its message.
  std::string fullCheck(StringRef Stub) {
    std::string Warning;
    Error E =
        checkStub(Stub, "stub", *Module, *Inj, [&](const SMDiagnostic &D) {
          Warning = "warning: " + D.getMessage().str();
        });
    if (E)
      return toString(std::move(E));
    return Warning;
  }

  std::unique_ptr<InjectModule> Module;
  const Inject *Inj = nullptr;
  /// The register of `func`'s in variable v_y.
  const SmallVector<StringRef, 1> InRegs = {"%_x2"};
};

TEST_F(SimpleStubTest, Examples) {
  EXPECT_TRUE(isSimpleStub(""));
  EXPECT_TRUE(isSimpleStub("\tadd.f32 %_x0, %_x0, %_x2;"));
  EXPECT_TRUE(isSimpleStub("{\n.reg .f32 %_a<3>;\nmul.rn.f32 %_a0, %_x2, "
                           "0f3F800000;\nmov.f32 %_x0, %_a0;\n}\n"));
  EXPECT_TRUE(isSimpleStub("@!%p1 add.s32 %r1, %r2, -17;"));
  // Not simple: the full check decides.
  EXPECT_FALSE(isSimpleStub("}"));
  EXPECT_FALSE(isSimpleStub("{"));
  EXPECT_FALSE(isSimpleStub("// PTX_INJECT_END"));
  EXPECT_FALSE(isSimpleStub(".reg .f33 %f;"));
  EXPECT_FALSE(isSimpleStub("add.f32 %f1, %f2, 0f3F80000;"));
  EXPECT_FALSE(isSimpleStub("add.s32 %r1, %r2, 1234567890123456789012;"));
  EXPECT_FALSE(isSimpleStub("ld.global.f32 %f1, [%rd1];"));
  EXPECT_FALSE(isSimpleStub("add.f32 %f1, %f2, %f3; add.f32 %f1, %f2, %f3;"));
  EXPECT_FALSE(isSimpleStub("mov.f32 %_x2, %_x0;", InRegs));
  EXPECT_TRUE(isSimpleStub("mov.f32 %_x0, %_x2;", InRegs));
}

TEST_F(SimpleStubTest, AgreesWithTheFullCheck) {
  // Seeds: the Stack PTX compiler's stubs of random programs over func's
  // variables, and hand-written ones.
  const stack::StackInfo &Info = stack::getDefaultStackInfo();
  stack::StackPtxContext Ctx(Info);
  const stack::Register Regs[] = {{"_x0", 0, stack::RegKind::Mod},
                                  {"_x2", 0, stack::RegKind::In},
                                  {"_x1", 0, stack::RegKind::Out}};
  const uint32_t Requests[] = {0, 2};
  std::vector<std::string> Seeds = {
      "\tadd.f32 %_x0, %_x0, %_x2;",
      "{\n\t.reg .pred %p<2>;\n\tsetp.lt.f32 %p1, %_x0, 0f00000000;\n"
      "\t@%p1 mov.f32 %_x1, %_x2;\n}",
      ".reg .b32 %r<4>;\nadd.s32 %r1, %r2, 7;\n"};
  stack::StackRng Rng(11);
  unsigned SimpleSeeds = 0, CompilerSeeds = 0;
  for (unsigned I = 0; I != 300; ++I) {
    std::vector<uint64_t> Words = stack::randomF32Program(Rng, 24, Info, 2);
    auto Stub = Ctx.compile({Words, {}}, Regs, Requests);
    ASSERT_TRUE(bool(Stub)) << toString(Stub.takeError());
    ++CompilerSeeds;
    if (isSimpleStub(*Stub, InRegs))
      ++SimpleSeeds;
    Seeds.push_back(Stub->str());
  }
  // The compiler's stubs are the case the fast path is for.
  EXPECT_EQ(SimpleSeeds, CompilerSeeds);

  const char Alphabet[] = " \t\n\r{}%;,.@!<>-_$[]/0123456789abcdfx";
  std::mt19937_64 Gen(5);
  unsigned Checked = 0, Simple = 0;
  for (const std::string &Seed : Seeds) {
    for (unsigned K = 0; K != 40; ++K) {
      std::string S =
          mutatetest::mutateText(Seed, Gen, Alphabet, /*LongDigits=*/false);
      ++Checked;
      if (!isSimpleStub(S, InRegs))
        continue;
      ++Simple;
      EXPECT_EQ(fullCheck(S), "") << "accepted without parsing:\n" << S;
    }
  }
  // Both verdicts occur: the test exercises the fast path.
  EXPECT_GT(Simple, Checked / 20);
  EXPECT_LT(Simple, Checked);
}

} // namespace
