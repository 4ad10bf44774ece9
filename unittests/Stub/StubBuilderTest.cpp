//===- StubBuilderTest.cpp - The stub of an inject ------------------------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "mmptx/Stub/StubBuilder.h"
#include "mmptx/Stack/StackRandom.h"

#include "llvm/Support/SourceMgr.h"

#include "gtest/gtest.h"

#include <fstream>
#include <sstream>

using namespace llvm;
using namespace mmptx;
using namespace mmptx::stub;

namespace {
/// Expects \p E to hold a value; \returns whether it does.
template <typename T> bool succeeded(Expected<T> &E) {
  if (E)
    return true;
  ADD_FAILURE() << toString(E.takeError());
  return false;
}
/// Expects \p E to hold an error; \returns its message.
template <typename T> std::string failed(Expected<T> E) {
  if (E) {
    ADD_FAILURE() << "expected an error";
    return "";
  }
  return toString(E.takeError());
}

/// One inject `f` (normalised form): acc (mod f32), x (in f32), y (out u32).
const char *const ModuleText = R"(.version 9.0
.target sm_86
.address_size 64
.visible .entry k()
{
	.reg .f32 %f<3>;
	.reg .b32 %r<2>;
	{
	.reg .f32 %_x0;
	.reg .f32 %_x1;
	.reg .u32 %_x2;
	mov.f32 %_x0, %f1;
	mov.f32 %_x1, %f2;
	// PTX_INJECT_START f
	// _x0 m f32 F32 acc
	// _x1 i f32 F32 x
	// _x2 o u32 U32 y
	// PTX_INJECT_END
	mov.f32 %f1, %_x0;
	mov.u32 %r1, %_x2;
	}
	ret;
}
)";

class StubBuilderTest : public ::testing::Test {
protected:
  void SetUp() override {
    auto M = InjectModule::create(ModuleText);
    ASSERT_TRUE(succeeded(M));
    Module = std::move(*M);
    Inj = Module->lookupInject("f");
    ASSERT_NE(Inj, nullptr);
  }
  /// Builds \p P's stub and expects each of \p Parts in it.
  void expectStubHas(const Program &P,
                     std::initializer_list<const char *> Parts) {
    auto Stub = buildStub(*Module, *Inj, P);
    ASSERT_TRUE(succeeded(Stub));
    for (const char *Part : Parts)
      EXPECT_NE(Stub->find(Part), std::string::npos) << Part << "\n" << *Stub;
  }
  std::unique_ptr<InjectModule> Module;
  const Inject *Inj = nullptr;
};

TEST_F(StubBuilderTest, TargetOfTheTemplate) {
  EXPECT_EQ(getPtxTargetSm(Module->getTemplate()), 86u);
  EXPECT_EQ(getPtxTargetSm(".version 9.0\n// .target sm_70\n.target sm_90a, "
                           "debug\n"),
            90u);
  EXPECT_EQ(getPtxTargetSm(".version 9.0\n.entry k() { ret; }\n"), 0u);
}

TEST_F(StubBuilderTest, StackProgramTypedAgainstTheVariables) {
  // acc is written; y, out and unwritten, gets zero.
  expectStubHas({ProgramKind::Stack, ".program { acc x add.f32 }", "p.stack"},
                {"add.f32", "%_x0", "mov.u32 %_x2, 0"});
}

TEST_F(StubBuilderTest, AstProgramTypedAgainstTheVariables) {
  expectStubHas({ProgramKind::Ast, "(= acc (mul.f32 acc x))", "p.ast"},
                {"mul.f32", "mov.u32 %_x2, 0"});
}

TEST_F(StubBuilderTest, ErrorsAreLocatedInTheProgram) {
  // A variable of another type.
  Program Wrong{ProgramKind::Stack,
                ".registers { y : F32 out; }\n.program { x }", "w.stack"};
  std::string Msg = failed(buildStub(*Module, *Inj, Wrong));
  EXPECT_NE(Msg.find("w.stack:1:"), std::string::npos) << Msg;
  // No such variable, in AST PTX.
  Program NoVar{ProgramKind::Ast, "(= acc (add.f32 acc z))", "n.ast"};
  Msg = failed(buildStub(*Module, *Inj, NoVar));
  EXPECT_NE(Msg.find("n.ast:1:"), std::string::npos) << Msg;
  // Reading an out variable.
  Program ReadOut{ProgramKind::Ast, "(= acc (cvt.rn.f32.u32 y))", "r.ast"};
  EXPECT_NE(failed(buildStub(*Module, *Inj, ReadOut)), "");
}

TEST_F(StubBuilderTest, OptionsAreChecked) {
  StubOptions O;
  O.Stack.StackSize = 0;
  Program P{ProgramKind::Stack, ".program { acc }", "p.stack"};
  EXPECT_EQ(failed(buildStub(*Module, *Inj, P, O)),
            "stackSize must be at least 1");
}

TEST_F(StubBuilderTest, TargetComesFromTheModuleUnlessGiven) {
  // tanh.approx.f32 needs sm_75: the module's sm_86 has it, sm_70 not.
  Program P{ProgramKind::Ast, "(= acc (tanh.approx.f32 x))", "t.ast"};
  {
    auto R = buildStub(*Module, *Inj, P);
    ASSERT_TRUE(succeeded(R));
  }
  StubOptions O;
  O.TargetSm = 70;
  EXPECT_NE(failed(buildStub(*Module, *Inj, P, O)), "");
}

// A binding types a program once; mutations of its words compile against
// it with the same stub a fresh build gives.
TEST_F(StubBuilderTest, BindingCompilesMutations) {
  const stack::StackInfo &Info = stack::getDefaultStackInfo();
  SourceMgr Sm;
  unsigned Id =
      Sm.AddNewSourceBuffer(MemoryBuffer::getMemBufferCopy(
                                ".registers { acc : F32 mod; x : F32 in; }\n"
                                ".program { acc x mul.f32 }",
                                "b.stack"),
                            SMLoc());
  auto Prog = stack::parseStackProgram(Sm, Id, Info);
  ASSERT_TRUE(succeeded(Prog));
  auto B = StackBinding::create(*Module, *Inj, *Prog, Sm, Id, Info);
  ASSERT_TRUE(succeeded(B));
  ASSERT_EQ(B->getRegisters().size(), 2u);
  EXPECT_EQ(B->getRegisters()[0].Name, "_x0");
  EXPECT_EQ(B->getRegisters()[1].Name, "_x1");
  ASSERT_EQ(B->getZeroedRegisters().size(), 1u);
  EXPECT_EQ(B->getZeroedRegisters()[0].Name, "_x2");

  stack::StackPtxContext Ctx(Info);
  auto Own = B->compile(Ctx, Prog->getProgram());
  ASSERT_TRUE(succeeded(Own));
  Program Same{ProgramKind::Stack,
               ".registers { acc : F32 mod; x : F32 in; }\n"
               ".program { acc x mul.f32 }",
               "b.stack"};
  auto Built = buildStub(*Module, *Inj, Same);
  ASSERT_TRUE(succeeded(Built));
  EXPECT_EQ(Own->str(), *Built);

  // Any word sequence compiles against the binding.
  stack::StackRng Rng(7);
  for (unsigned I = 0; I != 200; ++I) {
    std::vector<uint64_t> Words = stack::randomF32Program(Rng, 16, Info, 2);
    auto Stub = B->compile(Ctx, stack::Program{Words, {}});
    ASSERT_TRUE(succeeded(Stub));
    EXPECT_TRUE(Stub->contains("%_x2")) << Stub->str();
  }
}
} // namespace
