//===- AstTextTest.cpp - S-expression text form of AST PTX ----------------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "mmptx/Ast/AstText.h"
#include "mmptx/Ast/AstRandom.h"
#include "mmptx/Expr/Literal.h"
#include "mmptx/Stack/StackInfo.h"

#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

using namespace mmptx;
using namespace mmptx::ast;

namespace {

const stack::StackInfo &info() { return stack::getDefaultStackInfo(); }

std::string print(const AstModule &M) {
  std::string S;
  llvm::raw_string_ostream Os(S);
  llvm::Error E = printAstModule(Os, M, info());
  EXPECT_FALSE(bool(E));
  llvm::consumeError(std::move(E));
  return Os.str();
}

TEST(AstText, ParsesToReferenceWords) {
  auto M = parseAstModule("(in x F32) (in y F32) (out z F32)\n"
                          "(define (mul a b) (mul.ftz.f32 a b))\n"
                          "(= z (add.ftz.f32 (mul x y) 1.0))",
                          info());
  ASSERT_TRUE(bool(M)) << llvm::toString(M.takeError());
  ASSERT_EQ(M->Routines.size(), 1u);
  uint32_t Mul = uint32_t(info().findInstr("mul.ftz.f32"));
  uint32_t Add = uint32_t(info().findInstr("add.ftz.f32"));
  EXPECT_EQ(M->Routines[0].Body.Words,
            (std::vector<uint64_t>{encodeRoutineArg(0), encodeRoutineArg(1),
                                   encodePtx(Mul, 2), encodeReturn()}));
  EXPECT_EQ(M->Outputs[0].Expr.Words,
            (std::vector<uint64_t>{encodeInput(0), encodeInput(1),
                                   encodeRoutine(0, 2), encodeConstant(1.0f),
                                   encodePtx(Add, 2), encodeReturn()}));
}

TEST(AstText, ErrorsAreLocated) {
  auto M = parseAstModule("(in x F32) (out z F32)\n(= z (neg.f32 q))", info(),
                          "p.ast");
  ASSERT_FALSE(bool(M));
  EXPECT_NE(llvm::toString(M.takeError())
                .find("p.ast:2:15: error: unknown "
                      "variable 'q'"),
            std::string::npos);
}

// Printing is canonical: parse(print(m)) has the same words, for random
// programs of every stack type.
TEST(AstText, RandomRoundTrip) {
  for (uint64_t Seed = 1; Seed != 100; ++Seed) {
    AstModule M = makeRandomAstModule(info(), Seed, 40);
    std::string Text = print(M);
    auto Back = parseAstModule(Text, info());
    ASSERT_TRUE(bool(Back)) << Text << llvm::toString(Back.takeError());
    ASSERT_EQ(Back->Outputs.size(), M.Outputs.size());
    for (size_t I = 0; I != M.Outputs.size(); ++I)
      EXPECT_EQ(Back->Outputs[I].Expr.Words, M.Outputs[I].Expr.Words) << Text;
    EXPECT_EQ(print(*Back), Text);
  }
}

// A program over some stacks declares variables on those stacks only, and
// its leaves read only them; inner nodes may still use any stack.
TEST(AstText, RandomOnChosenStacks) {
  uint16_t F16 = uint16_t(info().findStack("F16"));
  uint16_t U64 = uint16_t(info().findStack("U64"));
  for (uint64_t Seed = 1; Seed != 40; ++Seed) {
    AstModule M = makeRandomAstModule(info(), Seed, 24, 80, {F16, U64});
    ASSERT_EQ(M.Vars.size(), 4u);
    EXPECT_EQ(M.Vars[0].StackIdx, F16);
    EXPECT_EQ(M.Vars[1].StackIdx, U64);
    EXPECT_EQ(M.Vars[2].Kind, InjectArgKind::Out);
    ASSERT_EQ(M.Outputs.size(), 2u);
    EXPECT_EQ(M.Outputs[0].Var, 2u);
    EXPECT_EQ(M.Outputs[1].Var, 3u);
    std::string Text = print(M);
    auto Back = parseAstModule(Text, info());
    EXPECT_TRUE(bool(Back)) << Text << llvm::toString(Back.takeError());
  }
}

TEST(AstText, PrintRejectsNonTrees) {
  AstModule M;
  M.Vars.push_back({"z", 0, InjectArgKind::Out, {}, {}});
  AstOutputDecl O;
  O.Var = 0;
  O.Expr.Words = {encodeConstant(1.0f), encodeConstant(2.0f), encodeReturn()};
  M.Outputs.push_back(O);
  std::string S;
  llvm::raw_string_ostream Os(S);
  llvm::Error E = printAstModule(Os, M, info());
  ASSERT_TRUE(bool(E));
  EXPECT_NE(llvm::toString(std::move(E)).find("RETURN with 2 values"),
            std::string::npos);
}

TEST(AstText, Literals) {
  auto Bits = [](const char *T, const char *P) {
    llvm::Expected<uint32_t> B = expr::parseLiteral(T, P);
    if (!B) {
      llvm::consumeError(B.takeError());
      return uint64_t(1) << 40;
    }
    return uint64_t(*B);
  };
  const uint64_t Bad = uint64_t(1) << 40;
  EXPECT_EQ(Bits("1.0", "f32"), 0x3f800000u);
  EXPECT_EQ(Bits("0f3f800000", "f32"), 0x3f800000u);
  EXPECT_EQ(Bits("1e999", "f32"), Bad);
  EXPECT_EQ(Bits("1e39", "f32"), Bad);
  EXPECT_EQ(Bits("1e-50", "f32"), Bad);
  EXPECT_EQ(Bits("0.1", "f64"), Bad); // not exact in an f32 payload
  EXPECT_EQ(Bits("-2147483648", "s32"), 0x80000000u);
  EXPECT_EQ(Bits("2147483648", "s32"), Bad);
  EXPECT_EQ(Bits("4294967295", "u32"), 0xffffffffu);
  EXPECT_EQ(Bits("-1", "u32"), Bad);
  EXPECT_EQ(Bits("65535", "b16"), 0xffffu);
  EXPECT_EQ(Bits("65536", "b16"), Bad);
  EXPECT_EQ(Bits("-1", "b16"), 0xffffu);
  EXPECT_EQ(Bits("256", "u8"), Bad);
  EXPECT_EQ(Bits("true", "pred"), 1u);
  EXPECT_EQ(Bits("2", "pred"), Bad);
  EXPECT_EQ(Bits("4294967296", "u64"), Bad);
  EXPECT_EQ(Bits("-1", "s64"), Bad);
}

} // namespace
