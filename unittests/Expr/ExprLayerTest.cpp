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

#include "gtest/gtest.h"

#include <string>

using namespace mmptx;
using namespace mmptx::expr;

namespace {

const stack::StackInfo &info() { return stack::getDefaultStackInfo(); }

int instr(const char *name) {
  int i = info().findInstr(name);
  EXPECT_GE(i, 0) << name;
  return i;
}

TEST(InstrTraits, ScalarAndTarget) {
  int fma = instr("fma.rn.ftz.f32");
  InstrSetTraits all(info(), 0);
  const InstrTraits &t = all.getInstr(uint32_t(fma));
  EXPECT_TRUE(t.isUsable());
  EXPECT_EQ(t.numArgElems, 3u);
  EXPECT_EQ(t.numRetElems, 1u);
  EXPECT_FALSE(t.hasVectorArgs);
  uint16_t f32 = uint16_t(info().findStack("F32"));
  for (unsigned e = 0; e != 3; ++e)
    EXPECT_EQ(all.getArgElemStacks(uint32_t(fma))[e], f32);
  EXPECT_EQ(all.getRetElemStacks(uint32_t(fma))[0], f32);
  // An instruction whose minimum sm exceeds the target is well formed but
  // too new, and the traits say which sm it needs.
  for (uint32_t i = 0; i != info().numInstrs; ++i) {
    if (!info().instrMinSm || info().instrMinSm[i] <= 50)
      continue;
    InstrSetTraits old(info(), 50);
    EXPECT_TRUE(old.getInstr(i).wellFormed);
    EXPECT_TRUE(old.getInstr(i).tooNew);
    EXPECT_EQ(old.instrTooNewFor(i), info().instrMinSm[i]);
    EXPECT_FALSE(all.getInstr(i).tooNew);
    return;
  }
}

TEST(InstrTraits, VectorOperandsAreFlattened) {
  for (uint32_t i = 0; i != info().numInstrs; ++i) {
    InstrSetTraits all(info(), 0);
    const InstrTraits &t = all.getInstr(i);
    if (!t.hasVectorArgs)
      continue;
    EXPECT_GT(t.numArgElems, info().instrs[i].numArgs) << info().instrNames[i];
    return;
  }
  FAIL() << "no instruction with vector operands";
}

TEST(PtxEmitter, Writers) {
  char buf[64];
  EXPECT_EQ(std::string(buf, writeUInt(buf, 0)), "0");
  EXPECT_EQ(std::string(buf, writeUInt(buf, 99)), "99");
  EXPECT_EQ(std::string(buf, writeUInt(buf, 4294967295u)), "4294967295");
  EXPECT_EQ(std::string(buf, writeHex8<true>(buf, 0x3f80abcdu)), "3F80ABCD");
  EXPECT_EQ(std::string(buf, writeHex8<false>(buf, 0x3f80abcdu)), "3f80abcd");
  EXPECT_EQ(std::string(
                buf, writePtxLiteral<true>(buf, LiteralKind::F32, 0x3f800000u)),
            "0f3F800000");
  EXPECT_EQ(std::string(buf, writePtxLiteral<false>(buf, LiteralKind::F64,
                                                    0x3f800000u)),
            "0d3ff0000000000000");
  EXPECT_EQ(std::string(buf, writePtxLiteral<true>(buf, LiteralKind::U32, 10)),
            "0x0000000AU");
  for (const char *name : {"", "a", "abc", "abcdefg", "abcdefghijklmnop",
                           "a_name_longer_than_sixteen"})
    EXPECT_EQ(std::string(buf, writeName(buf, name)), name);
}

TEST(PtxEmitter, StackTables) {
  PtxStackTables t(info(), "\t", [](unsigned s) {
    return s == 0 ? std::string("%a_prefix_longer_than_16_")
                  : "%r" + std::to_string(s);
  });
  unsigned f32 = unsigned(info().findStack("F32"));
  EXPECT_EQ(t.getMovOp(f32), "mov.f32");
  EXPECT_EQ(t.getMovLine(f32), "\tmov.f32 ");
  EXPECT_FALSE(t.allRegPrefixesFit());
  char buf[64];
  EXPECT_EQ(std::string(buf, t.writeReg(buf, 0, 12)),
            "%a_prefix_longer_than_16_12");
  EXPECT_EQ(std::string(buf, t.writeReg(buf, 1, 3)), "%r13");
  EXPECT_EQ(std::string(buf, t.writeMovLine(buf, f32)), "\tmov.f32 ");
  int u8 = info().findStack("U8");
  if (u8 >= 0) {
    EXPECT_EQ(t.getMovOp(unsigned(u8)), "cvt.u8.u8");
  }
  EXPECT_EQ(t.getDeclHead(1),
            "\t.reg ." + std::string(info().literalPrefixes[1]) + " %r1<");
}

TEST(PtxEmitter, TextBufGrows) {
  TextBuf b;
  char *p = b.ensure(b.begin(), 4);
  std::memcpy(p, "abcd", 4);
  p = b.ensure(p + 4, 100000);
  std::memset(p, 'x', 100000);
  b.setEnd(p + 100000);
  EXPECT_EQ(b.size(), 100004u);
  EXPECT_EQ(std::string(b.data(), 4), "abcd");
}

TEST(InjectTyping, StacksOfTypes) {
  SiteVar f32{"x", "_x0", "F32", InjectArgKind::In, "f32"};
  EXPECT_EQ(findStackOf(info(), f32), info().findStack("F32"));
  // A user type in f32 registers lives on the one stack of f32 values.
  SiteVar dog{"d", "_x1", "DOG", InjectArgKind::In, "f32"};
  EXPECT_EQ(findStackOf(info(), dog), info().findStack("F32"));
  // Without a register type, only the stack of the type's name.
  SiteVar bare{"d", "_x1", "DOG", InjectArgKind::In, ""};
  EXPECT_EQ(findStackOf(info(), bare), -1);
  SiteVar none{"q", "_x2", "QQ", InjectArgKind::Out, "q99"};
  EXPECT_EQ(findStackOf(info(), none), -1);
  EXPECT_EQ(describeMissingStack(info(), none),
            "variable 'q' has inject type 'QQ' in a .q99 register, which no "
            "stack of the instruction set holds");
}

TEST(InjectTyping, Uses) {
  SiteVar vars[] = {{"x", "_x0", "F32", InjectArgKind::In, "f32"},
                    {"z", "_x1", "F32", InjectArgKind::Mod, "f32"}};
  EXPECT_EQ(findSiteVar(vars, "_x1"), &vars[1]);
  EXPECT_EQ(findSiteVar(vars, "x"), &vars[0]);
  EXPECT_EQ(findSiteVar(vars, "y"), nullptr);
  unsigned f32 = unsigned(info().findStack("F32"));
  unsigned u32 = unsigned(info().findStack("U32"));
  EXPECT_EQ(checkSiteVarUse(info(), "i", vars[0], f32, InjectArgKind::In), "");
  EXPECT_EQ(checkSiteVarUse(info(), "i", vars[0], u32, InjectArgKind::In),
            "variable 'x' of inject 'i' is F32, not U32");
  EXPECT_EQ(checkSiteVarUse(info(), "i", vars[0], f32, InjectArgKind::Out),
            "variable 'x' of inject 'i' is 'in', not 'out'");
  // A mod variable may be stated as any kind.
  for (InjectArgKind k :
       {InjectArgKind::In, InjectArgKind::Out, InjectArgKind::Mod})
    EXPECT_EQ(checkSiteVarUse(info(), "i", vars[1], f32, k), "");
}

enum class Kind : uint8_t { Leaf, Instr };
struct Node {
  Kind kind;
  uint16_t stack;
  uint32_t payload, aux, numOps;
};
using Dag = ExprDag<Node, Kind::Instr>;

TEST(ExprDag, SharesEqualSubexpressions) {
  Dag d;
  d.clear();
  uint32_t x = d.addLeaf(Kind::Leaf, 0, 1, 0);
  EXPECT_EQ(d.addLeaf(Kind::Leaf, 0, 1, 0), x);
  uint32_t y = d.addLeaf(Kind::Leaf, 0, 2, 0);
  uint32_t ops[] = {x, y};
  uint32_t a = d.addInstr(7, 0, ops, 2, true);
  EXPECT_EQ(d.addInstr(7, 0, ops, 2, true), a);
  // Unshared, an equal instruction is a node of its own.
  EXPECT_NE(d.addInstr(7, 0, ops, 2, false), a);
  uint32_t swapped[] = {y, x};
  EXPECT_NE(d.addInstr(7, 0, swapped, 2, true), a);
  EXPECT_EQ(d.size(), 5u);
  EXPECT_EQ(d.getOperands().size(), 6u);
  // Many nodes grow the table; every one is still found.
  for (uint32_t i = 0; i != 1000; ++i)
    d.addLeaf(Kind::Leaf, 1, i, 0);
  for (uint32_t i = 0; i != 1000; ++i)
    EXPECT_EQ(d.addLeaf(Kind::Leaf, 1, i, 0), 5 + i);
  // A new DAG finds nothing of the old one.
  d.clear();
  EXPECT_EQ(d.size(), 0u);
  EXPECT_EQ(d.addLeaf(Kind::Leaf, 0, 1, 0), 0u);
}

TEST(ExprDag, MarkLive) {
  Dag d;
  d.clear();
  uint32_t x = d.addLeaf(Kind::Leaf, 0, 1, 0);
  uint32_t y = d.addLeaf(Kind::Leaf, 0, 2, 0);
  uint32_t one[] = {x};
  uint32_t dead = d.addInstr(1, 0, one, 1, true);
  uint32_t two[] = {x, y};
  uint32_t root = d.addInstr(2, 0, two, 2, true);
  std::vector<uint32_t> mark(d.size());
  uint32_t roots[] = {root};
  d.markLive(roots, mark.data(), 0, 1);
  EXPECT_EQ(mark[x], 1u);
  EXPECT_EQ(mark[y], 1u);
  EXPECT_EQ(mark[dead], 0u);
  EXPECT_EQ(mark[root], 1u);
}

TEST(Evaluate, OneHome) {
  uint64_t r[1];
  int add = instr("add.f32");
  ASSERT_FALSE(bool(
      evaluateInstr(info(), uint32_t(add), {f32Bits(1.5f), f32Bits(2.0f)}, r)));
  EXPECT_EQ(bitsF32(r[0]), 3.5f);
  EXPECT_EQ(getValueWidth("f16x2"), 32u);
  EXPECT_EQ(getValueWidth("pred"), 1u);
  EXPECT_EQ(maskToWidth(0x1ff, 8), 0xffu);
}

} // namespace
