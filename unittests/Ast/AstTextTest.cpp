//===- AstTextTest.cpp - S-expression text form of AST PTX ----------------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "mmptx/Ast/AstText.h"
#include "mmptx/Ast/AstRandom.h"
#include "mmptx/Expr/Literal.h"

#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

using namespace mmptx;
using namespace mmptx::ast;

namespace {

const stack::StackInfo &info() { return stack::getDefaultStackInfo(); }

std::string print(const AstModule &m) {
  std::string s;
  llvm::raw_string_ostream os(s);
  llvm::Error e = printAstModule(os, m, info());
  EXPECT_FALSE(bool(e));
  llvm::consumeError(std::move(e));
  return os.str();
}

TEST(AstText, ParsesToReferenceWords) {
  auto m = parseAstModule("(in x F32) (in y F32) (out z F32)\n"
                          "(define (mul a b) (mul.ftz.f32 a b))\n"
                          "(= z (add.ftz.f32 (mul x y) 1.0))",
                          info());
  ASSERT_TRUE(bool(m)) << llvm::toString(m.takeError());
  ASSERT_EQ(m->routines.size(), 1u);
  uint32_t mul = uint32_t(info().findInstr("mul.ftz.f32"));
  uint32_t add = uint32_t(info().findInstr("add.ftz.f32"));
  EXPECT_EQ(m->routines[0].body.words,
            (std::vector<uint64_t>{encodeRoutineArg(0), encodeRoutineArg(1),
                                   encodePtx(mul, 2), encodeReturn()}));
  EXPECT_EQ(m->outputs[0].expr.words,
            (std::vector<uint64_t>{encodeInput(0), encodeInput(1),
                                   encodeRoutine(0, 2), encodeConstant(1.0f),
                                   encodePtx(add, 2), encodeReturn()}));
}

TEST(AstText, ErrorsAreLocated) {
  auto m = parseAstModule("(in x F32) (out z F32)\n(= z (neg.f32 q))", info(),
                          "p.ast");
  ASSERT_FALSE(bool(m));
  EXPECT_NE(llvm::toString(m.takeError())
                .find("p.ast:2:15: error: unknown "
                      "variable 'q'"),
            std::string::npos);
}

// Printing is canonical: parse(print(m)) has the same words, for random
// programs of every stack type.
TEST(AstText, RandomRoundTrip) {
  for (uint64_t seed = 1; seed != 100; ++seed) {
    AstModule m = makeRandomAstModule(info(), seed, 40);
    std::string text = print(m);
    auto back = parseAstModule(text, info());
    ASSERT_TRUE(bool(back)) << text << llvm::toString(back.takeError());
    ASSERT_EQ(back->outputs.size(), m.outputs.size());
    for (size_t i = 0; i != m.outputs.size(); ++i)
      EXPECT_EQ(back->outputs[i].expr.words, m.outputs[i].expr.words) << text;
    EXPECT_EQ(print(*back), text);
  }
}

// A program over some stacks declares variables on those stacks only, and
// its leaves read only them; inner nodes may still use any stack.
TEST(AstText, RandomOnChosenStacks) {
  uint16_t f16 = uint16_t(info().findStack("F16"));
  uint16_t u64 = uint16_t(info().findStack("U64"));
  for (uint64_t seed = 1; seed != 40; ++seed) {
    AstModule m = makeRandomAstModule(info(), seed, 24, 80, {f16, u64});
    ASSERT_EQ(m.vars.size(), 4u);
    EXPECT_EQ(m.vars[0].stackIdx, f16);
    EXPECT_EQ(m.vars[1].stackIdx, u64);
    EXPECT_EQ(m.vars[2].kind, stack::RegKind::Out);
    ASSERT_EQ(m.outputs.size(), 2u);
    EXPECT_EQ(m.outputs[0].var, 2u);
    EXPECT_EQ(m.outputs[1].var, 3u);
    std::string text = print(m);
    auto back = parseAstModule(text, info());
    EXPECT_TRUE(bool(back)) << text << llvm::toString(back.takeError());
  }
}

TEST(AstText, PrintRejectsNonTrees) {
  AstModule m;
  m.vars.push_back({"z", 0, stack::RegKind::Out, {}, {}});
  AstOutputDecl o;
  o.var = 0;
  o.expr.words = {encodeConstant(1.0f), encodeConstant(2.0f), encodeReturn()};
  m.outputs.push_back(o);
  std::string s;
  llvm::raw_string_ostream os(s);
  llvm::Error e = printAstModule(os, m, info());
  ASSERT_TRUE(bool(e));
  EXPECT_NE(llvm::toString(std::move(e)).find("RETURN with 2 values"),
            std::string::npos);
}

TEST(AstText, Literals) {
  auto bits = [](const char *t, const char *p) {
    llvm::Expected<uint32_t> b = expr::parseLiteral(t, p);
    if (!b) {
      llvm::consumeError(b.takeError());
      return uint64_t(1) << 40;
    }
    return uint64_t(*b);
  };
  const uint64_t bad = uint64_t(1) << 40;
  EXPECT_EQ(bits("1.0", "f32"), 0x3f800000u);
  EXPECT_EQ(bits("0f3f800000", "f32"), 0x3f800000u);
  EXPECT_EQ(bits("1e999", "f32"), bad);
  EXPECT_EQ(bits("1e39", "f32"), bad);
  EXPECT_EQ(bits("1e-50", "f32"), bad);
  EXPECT_EQ(bits("0.1", "f64"), bad); // not exact in an f32 payload
  EXPECT_EQ(bits("-2147483648", "s32"), 0x80000000u);
  EXPECT_EQ(bits("2147483648", "s32"), bad);
  EXPECT_EQ(bits("4294967295", "u32"), 0xffffffffu);
  EXPECT_EQ(bits("-1", "u32"), bad);
  EXPECT_EQ(bits("65535", "b16"), 0xffffu);
  EXPECT_EQ(bits("65536", "b16"), bad);
  EXPECT_EQ(bits("-1", "b16"), 0xffffu);
  EXPECT_EQ(bits("256", "u8"), bad);
  EXPECT_EQ(bits("true", "pred"), 1u);
  EXPECT_EQ(bits("2", "pred"), bad);
  EXPECT_EQ(bits("4294967296", "u64"), bad);
  EXPECT_EQ(bits("-1", "s64"), bad);
}

} // namespace
