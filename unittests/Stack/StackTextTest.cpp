//===- StackTextTest.cpp - Text form of Stack PTX programs ----------------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "mmptx/Stack/StackText.h"
#include "mmptx/Stack/StackRandom.h"

#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

using namespace mmptx;
using namespace mmptx::stack;

namespace {

TEST(StackTextTest, ParsesSections) {
  const StackInfo &Info = getDefaultStackInfo();
  llvm::Expected<StackProgram> P = parseStackProgram(
      ".registers { x : F32 in; z : F32 out; }\n"
      ".routine sq { dup(F32) mul.ftz.f32 }\n"
      ".program { x call sq 2u -1 meta(3) store(U32, 2) load(2) }\n"
      ".requests { z }\n",
      Info);
  ASSERT_TRUE(bool(P)) << llvm::toString(P.takeError());
  ASSERT_EQ(P->Registers.size(), 2u);
  EXPECT_EQ(P->Registers[1].Kind, RegKind::Out);
  ASSERT_EQ(P->Routines.size(), 1u);
  EXPECT_EQ(P->Routines[0][0], encodeMeta(0, MetaOp::Dup));
  std::vector<uint64_t> Want = {encodeInput(0),        encodeRoutine(0),
                                encodeConstant(1, 2),  encodeConstant(2, ~0u),
                                encodeMetaConstant(3), encodeStore(1, 2),
                                encodeLoad(2)};
  EXPECT_EQ(P->Main, Want);
  EXPECT_EQ(P->Requests, std::vector<uint32_t>{1});
}

TEST(StackTextTest, LocatedError) {
  llvm::Expected<StackProgram> P = parseStackProgram(
      ".program {\n  1.0 frob\n}\n", getDefaultStackInfo(), "t.stack");
  ASSERT_FALSE(bool(P));
  EXPECT_EQ(llvm::toString(P.takeError()),
            "t.stack:2:7: error: unknown instruction or register 'frob'\n"
            "  1.0 frob\n"
            "      ^");
}

// Predeclared registers are declared by their first use, word or request.
TEST(StackTextTest, PredeclaredRegisters) {
  const StackInfo &Info = getDefaultStackInfo();
  std::vector<RegisterDecl> Pre = {{"a", 0, RegKind::In, {}, {}},
                                   {"c", 0, RegKind::Mod, {}, {}},
                                   {"z", 1, RegKind::Out, {}, {}}};
  llvm::Expected<StackProgram> P =
      parseStackProgram(".registers { b : F32 in; }\n"
                        ".program { b c a input(1) fma.rn.f32 }\n"
                        ".requests { z, c }\n",
                        Info, "t.stack", Pre);
  ASSERT_TRUE(bool(P)) << llvm::toString(P.takeError());
  ASSERT_EQ(P->Registers.size(), 4u);
  EXPECT_EQ(P->Registers[1].Name, "c");
  EXPECT_EQ(P->Registers[1].Kind, RegKind::Mod);
  EXPECT_EQ(P->Registers[2].Name, "a");
  EXPECT_EQ(P->Registers[3].Name, "z");
  EXPECT_EQ(P->Registers[3].StackIdx, 1u);
  EXPECT_TRUE(P->Registers[0].FirstRead.isValid());
  EXPECT_FALSE(P->Registers[3].FirstRead.isValid());
  // `input(1)` reads `c` after its first read by name.
  EXPECT_EQ(P->Registers[1].FirstRead, P->Registers[1].Loc);
  std::vector<uint64_t> Want = {
      encodeInput(0), encodeInput(1), encodeInput(2), encodeInput(1),
      encodePtx(uint32_t(Info.findInstr("fma.rn.f32")))};
  EXPECT_EQ(P->Main, Want);
  EXPECT_EQ(P->Requests, (std::vector<uint32_t>{3, 1}));

  // Without predeclared registers the same text is an error, as before.
  llvm::Expected<StackProgram> Q =
      parseStackProgram(".program { a }\n", Info, "t.stack");
  ASSERT_FALSE(bool(Q));
  llvm::consumeError(Q.takeError());

  llvm::Expected<StackProgram> Late = parseStackProgram(
      ".program { a }\n.registers { a : F32 in; }\n", Info, "t.stack", Pre);
  ASSERT_FALSE(bool(Late));
  EXPECT_EQ(llvm::toString(Late.takeError()),
            "t.stack:2:14: error: register 'a' is declared after its first "
            "use\n"
            ".registers { a : F32 in; }\n"
            "             ^");
}

// Property: words -> text -> words is the identity for arbitrary words.
TEST(StackTextTest, RandomWordsRoundTrip) {
  const StackInfo &Info = getDefaultStackInfo();
  StackRng Rng(3);
  for (unsigned Iter = 0; Iter != 1000; ++Iter) {
    StackProgram Prog;
    Prog.Registers = makeRandomTestRegisters(Info);
    Prog.RoutineNames = {"a", "b"};
    Prog.Routines = {randomWords(Rng, Rng.below(10), Info, 28, 2),
                     randomWords(Rng, Rng.below(10), Info, 28, 2)};
    Prog.Main = randomWords(Rng, Rng.below(100), Info, 28, 2);
    Prog.Requests = {14, 15, 16};
    std::string Text;
    llvm::raw_string_ostream Os(Text);
    printStackProgram(Os, Prog, Info);
    Os.flush();
    llvm::Expected<StackProgram> Back = parseStackProgram(Text, Info);
    ASSERT_TRUE(bool(Back)) << llvm::toString(Back.takeError()) << "\n" << Text;
    EXPECT_EQ(Back->Main, Prog.Main) << Text;
    EXPECT_EQ(Back->Routines, Prog.Routines) << Text;
    EXPECT_EQ(Back->Requests, Prog.Requests);
  }
}

} // namespace
