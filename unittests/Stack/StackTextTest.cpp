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
  const StackInfo &info = getDefaultStackInfo();
  llvm::Expected<StackProgram> p = parseStackProgram(
      ".registers { x : F32 in; z : F32 out; }\n"
      ".routine sq { dup(F32) mul.ftz.f32 }\n"
      ".program { x call sq 2u -1 meta(3) store(U32, 2) load(2) }\n"
      ".requests { z }\n",
      info);
  ASSERT_TRUE(bool(p)) << llvm::toString(p.takeError());
  ASSERT_EQ(p->registers.size(), 2u);
  EXPECT_EQ(p->registers[1].kind, RegKind::Out);
  ASSERT_EQ(p->routines.size(), 1u);
  EXPECT_EQ(p->routines[0][0], encodeMeta(0, MetaOp::Dup));
  std::vector<uint64_t> expected = {
      encodeInput(0),         encodeRoutine(0),      encodeConstant(1, 2),
      encodeConstant(3, ~0u), encodeMetaConstant(3), encodeStore(1, 2),
      encodeLoad(2)};
  EXPECT_EQ(p->main, expected);
  EXPECT_EQ(p->requests, std::vector<uint32_t>{1});
}

TEST(StackTextTest, LocatedError) {
  llvm::Expected<StackProgram> p = parseStackProgram(
      ".program {\n  1.0 frob\n}\n", getDefaultStackInfo(), "t.stack");
  ASSERT_FALSE(bool(p));
  EXPECT_EQ(llvm::toString(p.takeError()),
            "t.stack:2:7: error: unknown instruction or register 'frob'\n"
            "  1.0 frob\n"
            "      ^");
}

// Predeclared registers are declared by their first use, word or request.
TEST(StackTextTest, PredeclaredRegisters) {
  const StackInfo &info = getDefaultStackInfo();
  std::vector<RegisterDecl> pre = {{"a", 0, RegKind::In, {}, {}},
                                   {"c", 0, RegKind::Mod, {}, {}},
                                   {"z", 1, RegKind::Out, {}, {}}};
  llvm::Expected<StackProgram> p =
      parseStackProgram(".registers { b : F32 in; }\n"
                        ".program { b c a input(1) fma.rn.f32 }\n"
                        ".requests { z, c }\n",
                        info, "t.stack", pre);
  ASSERT_TRUE(bool(p)) << llvm::toString(p.takeError());
  ASSERT_EQ(p->registers.size(), 4u);
  EXPECT_EQ(p->registers[1].name, "c");
  EXPECT_EQ(p->registers[1].kind, RegKind::Mod);
  EXPECT_EQ(p->registers[2].name, "a");
  EXPECT_EQ(p->registers[3].name, "z");
  EXPECT_EQ(p->registers[3].stackIdx, 1u);
  EXPECT_TRUE(p->registers[0].firstRead.isValid());
  EXPECT_FALSE(p->registers[3].firstRead.isValid());
  // `input(1)` reads `c` after its first read by name.
  EXPECT_EQ(p->registers[1].firstRead, p->registers[1].loc);
  std::vector<uint64_t> expected = {
      encodeInput(0), encodeInput(1), encodeInput(2), encodeInput(1),
      encodePtx(uint32_t(info.findInstr("fma.rn.f32")))};
  EXPECT_EQ(p->main, expected);
  EXPECT_EQ(p->requests, (std::vector<uint32_t>{3, 1}));

  // Without predeclared registers the same text is an error, as before.
  llvm::Expected<StackProgram> q =
      parseStackProgram(".program { a }\n", info, "t.stack");
  ASSERT_FALSE(bool(q));
  llvm::consumeError(q.takeError());

  llvm::Expected<StackProgram> late = parseStackProgram(
      ".program { a }\n.registers { a : F32 in; }\n", info, "t.stack", pre);
  ASSERT_FALSE(bool(late));
  EXPECT_EQ(llvm::toString(late.takeError()),
            "t.stack:2:14: error: register 'a' is declared after its first "
            "use\n"
            ".registers { a : F32 in; }\n"
            "             ^");
}

// Property: words -> text -> words is the identity for arbitrary words.
TEST(StackTextTest, RandomWordsRoundTrip) {
  const StackInfo &info = getDefaultStackInfo();
  StackRng rng(3);
  for (unsigned iter = 0; iter != 1000; ++iter) {
    StackProgram prog;
    prog.registers = makeRandomTestRegisters(info);
    prog.routineNames = {"a", "b"};
    prog.routines = {randomWords(rng, rng.below(10), info, 28, 2),
                     randomWords(rng, rng.below(10), info, 28, 2)};
    prog.main = randomWords(rng, rng.below(100), info, 28, 2);
    prog.requests = {14, 15, 16};
    std::string text;
    llvm::raw_string_ostream os(text);
    printStackProgram(os, prog, info);
    os.flush();
    llvm::Expected<StackProgram> back = parseStackProgram(text, info);
    ASSERT_TRUE(bool(back)) << llvm::toString(back.takeError()) << "\n" << text;
    EXPECT_EQ(back->main, prog.main) << text;
    EXPECT_EQ(back->routines, prog.routines) << text;
    EXPECT_EQ(back->requests, prog.requests);
  }
}

} // namespace
