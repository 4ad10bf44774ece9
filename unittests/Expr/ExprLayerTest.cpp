//===- ExprLayerTest.cpp - The shared expression layer --------------------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "mmptx/Expr/Evaluate.h"
#include "mmptx/Expr/ExprDag.h"
#include "mmptx/Expr/InjectTyping.h"
#include "mmptx/Expr/InstrTraits.h"
#include "mmptx/Expr/PtxEmitter.h"
#include "mmptx/Stack/DefaultStackSet.h"

#include "DefaultInstrs.h"

#include "gtest/gtest.h"

#include <string>

using namespace mmptx;
using namespace mmptx::test;
using namespace mmptx::expr;

namespace {

TEST(InstrTraits, ScalarAndTarget) {
  int Fma = instr("fma.rn.ftz.f32");
  InstrSetTraits All(info(), 0);
  const InstrTraits &T = All.getInstr(uint32_t(Fma));
  EXPECT_TRUE(T.isUsable());
  EXPECT_EQ(T.NumArgElems, 3u);
  EXPECT_EQ(T.NumRetElems, 1u);
  EXPECT_FALSE(T.HasVectorArgs);
  uint16_t F32 = uint16_t(info().findStack("F32"));
  for (unsigned E = 0; E != 3; ++E)
    EXPECT_EQ(All.getArgElemStacks(uint32_t(Fma))[E], F32);
  EXPECT_EQ(All.getRetElemStacks(uint32_t(Fma))[0], F32);
  // An instruction whose minimum sm exceeds the target is well formed but
  // too new, and the traits say which sm it needs.
  for (uint32_t I = 0; I != info().NumInstrs; ++I) {
    if (!info().InstrMinSm || info().InstrMinSm[I] <= 50)
      continue;
    InstrSetTraits Old(info(), 50);
    EXPECT_TRUE(Old.getInstr(I).WellFormed);
    EXPECT_TRUE(Old.getInstr(I).TooNew);
    EXPECT_EQ(Old.instrTooNewFor(I), info().InstrMinSm[I]);
    EXPECT_FALSE(All.getInstr(I).TooNew);
    return;
  }
}

TEST(InstrTraits, VectorOperandsAreFlattened) {
  for (uint32_t I = 0; I != info().NumInstrs; ++I) {
    InstrSetTraits All(info(), 0);
    const InstrTraits &T = All.getInstr(I);
    if (!T.HasVectorArgs)
      continue;
    EXPECT_GT(T.NumArgElems, info().Instrs[I].NumArgs) << info().InstrNames[I];
    return;
  }
  FAIL() << "no instruction with vector operands";
}

TEST(PtxEmitter, Writers) {
  char Buf[64];
  EXPECT_EQ(std::string(Buf, writeUInt(Buf, 0)), "0");
  EXPECT_EQ(std::string(Buf, writeUInt(Buf, 99)), "99");
  EXPECT_EQ(std::string(Buf, writeUInt(Buf, 4294967295u)), "4294967295");
  EXPECT_EQ(std::string(Buf, writeHex8<true>(Buf, 0x3f80abcdu)), "3F80ABCD");
  EXPECT_EQ(std::string(Buf, writeHex8<false>(Buf, 0x3f80abcdu)), "3f80abcd");
  EXPECT_EQ(std::string(
                Buf, writePtxLiteral<true>(Buf, LiteralKind::F32, 0x3f800000u)),
            "0f3F800000");
  EXPECT_EQ(std::string(Buf, writePtxLiteral<false>(Buf, LiteralKind::F64,
                                                    0x3f800000u)),
            "0d3ff0000000000000");
  EXPECT_EQ(std::string(Buf, writePtxLiteral<true>(Buf, LiteralKind::U32, 10)),
            "0x0000000AU");
  for (const char *Name : {"", "a", "abc", "abcdefg", "abcdefghijklmnop",
                           "a_name_longer_than_sixteen"})
    EXPECT_EQ(std::string(Buf, writeName(Buf, Name)), Name);
}

TEST(PtxEmitter, StackTables) {
  PtxStackTables T(info(), "\t", [](unsigned S) {
    return S == 0 ? std::string("%a_prefix_longer_than_16_")
                  : "%r" + std::to_string(S);
  });
  unsigned F32 = unsigned(info().findStack("F32"));
  EXPECT_EQ(T.getMovOp(F32), "mov.f32");
  EXPECT_EQ(T.getMovLine(F32), "\tmov.f32 ");
  EXPECT_FALSE(T.allRegPrefixesFit());
  char Buf[64];
  EXPECT_EQ(std::string(Buf, T.writeReg(Buf, 0, 12)),
            "%a_prefix_longer_than_16_12");
  EXPECT_EQ(std::string(Buf, T.writeReg(Buf, 1, 3)), "%r13");
  EXPECT_EQ(std::string(Buf, T.writeMovLine(Buf, F32)), "\tmov.f32 ");
  int U8 = info().findStack("U8");
  if (U8 >= 0) {
    EXPECT_EQ(T.getMovOp(unsigned(U8)), "cvt.u8.u8");
  }
  EXPECT_EQ(T.getDeclHead(1),
            "\t.reg ." + std::string(info().LiteralPrefixes[1]) + " %r1<");
}

TEST(PtxEmitter, TextBufGrows) {
  TextBuf B;
  char *P = B.ensure(B.begin(), 4);
  std::memcpy(P, "abcd", 4);
  P = B.ensure(P + 4, 100000);
  std::memset(P, 'x', 100000);
  B.setEnd(P + 100000);
  EXPECT_EQ(B.size(), 100004u);
  EXPECT_EQ(std::string(B.data(), 4), "abcd");
}

TEST(InjectTyping, StacksOfTypes) {
  SiteVar F32{"x", "_x0", "F32", InjectArgKind::In, "f32"};
  EXPECT_EQ(findStackOf(info(), F32), info().findStack("F32"));
  // A user type in f32 registers lives on the one stack of f32 values.
  SiteVar Dog{"d", "_x1", "DOG", InjectArgKind::In, "f32"};
  EXPECT_EQ(findStackOf(info(), Dog), info().findStack("F32"));
  // Without a register type, only the stack of the type's name.
  SiteVar Bare{"d", "_x1", "DOG", InjectArgKind::In, ""};
  EXPECT_EQ(findStackOf(info(), Bare), -1);
  SiteVar None{"q", "_x2", "QQ", InjectArgKind::Out, "q99"};
  EXPECT_EQ(findStackOf(info(), None), -1);
  EXPECT_EQ(describeMissingStack(info(), None),
            "variable 'q' has inject type 'QQ' in a .q99 register, which no "
            "stack of the instruction set holds");
}

TEST(InjectTyping, Uses) {
  SiteVar Vars[] = {{"x", "_x0", "F32", InjectArgKind::In, "f32"},
                    {"z", "_x1", "F32", InjectArgKind::Mod, "f32"}};
  EXPECT_EQ(findSiteVar(Vars, "_x1"), &Vars[1]);
  EXPECT_EQ(findSiteVar(Vars, "x"), &Vars[0]);
  EXPECT_EQ(findSiteVar(Vars, "y"), nullptr);
  unsigned F32 = unsigned(info().findStack("F32"));
  unsigned U32 = unsigned(info().findStack("U32"));
  EXPECT_EQ(checkSiteVarUse(info(), "i", Vars[0], F32, InjectArgKind::In), "");
  EXPECT_EQ(checkSiteVarUse(info(), "i", Vars[0], U32, InjectArgKind::In),
            "variable 'x' of inject 'i' is F32, not U32");
  EXPECT_EQ(checkSiteVarUse(info(), "i", Vars[0], F32, InjectArgKind::Out),
            "variable 'x' of inject 'i' is 'in', not 'out'");
  // A mod variable may be stated as any kind.
  for (InjectArgKind K :
       {InjectArgKind::In, InjectArgKind::Out, InjectArgKind::Mod})
    EXPECT_EQ(checkSiteVarUse(info(), "i", Vars[1], F32, K), "");
}

enum class NodeKind : uint8_t { Leaf, Instr };
struct Node {
  NodeKind Kind;
  uint16_t Stack;
  uint32_t Payload, Aux, NumOps;
};
using Dag = ExprDag<Node, NodeKind::Instr>;

TEST(ExprDag, SharesEqualSubexpressions) {
  Dag D;
  D.clear();
  uint32_t X = D.addLeaf(NodeKind::Leaf, 0, 1, 0);
  EXPECT_EQ(D.addLeaf(NodeKind::Leaf, 0, 1, 0), X);
  uint32_t Y = D.addLeaf(NodeKind::Leaf, 0, 2, 0);
  uint32_t Ops[] = {X, Y};
  uint32_t A = D.addInstr(7, 0, Ops, 2, true);
  EXPECT_EQ(D.addInstr(7, 0, Ops, 2, true), A);
  // Unshared, an equal instruction is a node of its own.
  EXPECT_NE(D.addInstr(7, 0, Ops, 2, false), A);
  uint32_t Swapped[] = {Y, X};
  EXPECT_NE(D.addInstr(7, 0, Swapped, 2, true), A);
  EXPECT_EQ(D.size(), 5u);
  EXPECT_EQ(D.getOperands().size(), 6u);
  // Many nodes grow the table; every one is still found.
  for (uint32_t I = 0; I != 1000; ++I)
    D.addLeaf(NodeKind::Leaf, 1, I, 0);
  for (uint32_t I = 0; I != 1000; ++I)
    EXPECT_EQ(D.addLeaf(NodeKind::Leaf, 1, I, 0), 5 + I);
  // A new DAG finds nothing of the old one.
  D.clear();
  EXPECT_EQ(D.size(), 0u);
  EXPECT_EQ(D.addLeaf(NodeKind::Leaf, 0, 1, 0), 0u);
}

TEST(ExprDag, PresizedAddsMatchChecked) {
  // reserve() makes room, and Presized adds skip every check; the DAG is
  // the one checked adds build. Operands come from an array with 4 values
  // of slack, as the adds may read that far.
  Dag D;
  D.clear();
  D.reserve(8);
  uint32_t X = D.addLeaf<true>(NodeKind::Leaf, 0, 1, 0);
  uint32_t Y = D.addLeaf<true>(NodeKind::Leaf, 0, 2, 0);
  EXPECT_EQ(D.addLeaf<true>(NodeKind::Leaf, 0, 1, 0), X);
  uint32_t Xyx[] = {X, Y, X, 0, 0, 0, 0};
  uint32_t Xxx[] = {X, X, X, 0, 0, 0, 0};
  uint32_t A = D.addInstr<true, true>(4, 0, Xyx, 3);
  // Same first and last operands, another middle one: not equal.
  uint32_t B = D.addInstr<true, true>(4, 0, Xxx, 3);
  EXPECT_NE(A, B);
  uint32_t Again = D.addInstr<true, true>(4, 0, Xyx, 3);
  EXPECT_EQ(Again, A);
  Again = D.addInstr<true, true>(4, 0, Xxx, 3);
  EXPECT_EQ(Again, B);
  uint32_t Unshared = D.addInstr<false, true>(4, 0, Xyx, 3);
  EXPECT_NE(Unshared, A);
  EXPECT_EQ(D.size(), 5u);
  ASSERT_EQ(D.getOperands().size(), 9u);
  EXPECT_EQ(D.getOperands()[3], X);
  EXPECT_EQ(D.getOperands()[4], X);
  EXPECT_EQ(D.getOperands()[7], Y);
}

TEST(ExprDag, MarkLive) {
  Dag D;
  D.clear();
  uint32_t X = D.addLeaf(NodeKind::Leaf, 0, 1, 0);
  uint32_t Y = D.addLeaf(NodeKind::Leaf, 0, 2, 0);
  uint32_t One[] = {X};
  uint32_t Dead = D.addInstr(1, 0, One, 1, true);
  uint32_t Two[] = {X, Y};
  uint32_t Root = D.addInstr(2, 0, Two, 2, true);
  std::vector<uint32_t> Mark(D.size());
  uint32_t Roots[] = {Root};
  D.markLive(Roots, Mark.data(), 0, 1);
  EXPECT_EQ(Mark[X], 1u);
  EXPECT_EQ(Mark[Y], 1u);
  EXPECT_EQ(Mark[Dead], 0u);
  EXPECT_EQ(Mark[Root], 1u);
}

TEST(Evaluate, OneHome) {
  uint64_t R[1];
  int Add = instr("add.f32");
  ASSERT_FALSE(bool(
      evaluateInstr(info(), uint32_t(Add), {f32Bits(1.5f), f32Bits(2.0f)}, R)));
  EXPECT_EQ(bitsF32(R[0]), 3.5f);
  EXPECT_EQ(getValueWidth("f16x2"), 32u);
  EXPECT_EQ(getValueWidth("pred"), 1u);
  EXPECT_EQ(maskToWidth(0x1ff, 8), 0xffu);
}

} // namespace
