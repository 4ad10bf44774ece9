//===- ContractionTest.cpp - ptxas's mul + add contraction ----------------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "mmptx/Expr/Contraction.h"
#include "mmptx/Expr/Evaluate.h"

#include "DefaultInstrs.h"

#include "gtest/gtest.h"

#include <vector>

using namespace mmptx;
using namespace mmptx::expr;
using test::info;
using test::instr;

namespace {

constexpr uint32_t None = ContractionNode::None;

/// A graph under construction: inputs, literals and instructions.
struct Graph {
  std::vector<ContractionNode> Nodes;
  std::vector<std::vector<uint32_t>> OpStore;
  Graph() { OpStore.reserve(64); }
  uint32_t input() {
    Nodes.emplace_back();
    return uint32_t(Nodes.size() - 1);
  }
  uint32_t literal() {
    Nodes.emplace_back();
    Nodes.back().IsLiteral = true;
    return uint32_t(Nodes.size() - 1);
  }
  uint32_t op(const char *Name, std::vector<uint32_t> Ops) {
    OpStore.push_back(std::move(Ops));
    ContractionNode N;
    N.Instr = instr(Name);
    N.Ops = OpStore.back();
    Nodes.push_back(N);
    return uint32_t(Nodes.size() - 1);
  }
  std::vector<Contraction> plan(std::vector<uint32_t> Outputs) {
    std::vector<uint8_t> Live(Nodes.size(), 1);
    return planContractions(info(), Nodes, Live, Outputs);
  }
};

TEST(Contraction, SingleUseProductIsFused) {
  Graph G;
  uint32_t A = G.input(), B = G.input(), C = G.input();
  uint32_t M = G.op("mul.f32", {A, B});
  uint32_t S = G.op("sub.f32", {C, M});
  std::vector<Contraction> P = G.plan({S});
  EXPECT_EQ(P[S].Mul, M);
  EXPECT_EQ(P[S].Pos, 1);
  EXPECT_FALSE(P[S].Negated);
}

TEST(Contraction, ProductReadByTwoAddsIsFusedIntoBoth) {
  Graph G;
  uint32_t A = G.input(), B = G.input();
  uint32_t M = G.op("mul.f64", {A, B});
  uint32_t S1 = G.op("add.f64", {M, A});
  uint32_t S2 = G.op("sub.f64", {M, B});
  std::vector<Contraction> P = G.plan({S1, S2});
  EXPECT_EQ(P[S1].Mul, M);
  EXPECT_EQ(P[S2].Mul, M);
  EXPECT_EQ(P[S2].Pos, 0);
}

TEST(Contraction, OtherUsesKeepTheProductRounded) {
  Graph G;
  uint32_t A = G.input(), B = G.input();
  uint32_t M = G.op("mul.f32", {A, B});
  uint32_t S = G.op("add.f32", {M, A});
  // Read as an output too.
  EXPECT_EQ(G.plan({S, M})[S].Mul, None);
  // Read by another instruction.
  uint32_t Q = G.op("mul.f32", {M, B});
  EXPECT_EQ(G.plan({S, Q})[S].Mul, None);
}

TEST(Contraction, BothOperandsOfOneAddKeepIt) {
  Graph G;
  uint32_t A = G.input();
  uint32_t M = G.op("mul.f32", {A, A});
  uint32_t S = G.op("sub.f32", {M, M});
  EXPECT_EQ(G.plan({S})[S].Mul, None);
}

TEST(Contraction, FtzMustMatch) {
  Graph G;
  uint32_t A = G.input();
  uint32_t M = G.op("mul.ftz.f32", {A, A});
  uint32_t S = G.op("add.f32", {M, A});
  uint32_t M2 = G.op("mul.ftz.f32", {A, A});
  uint32_t S2 = G.op("add.ftz.f32", {M2, A});
  std::vector<Contraction> P = G.plan({S, S2});
  EXPECT_EQ(P[S].Mul, None);
  EXPECT_EQ(P[S2].Mul, M2);
}

TEST(Contraction, RoundingModifierStopsIt) {
  Graph G;
  uint32_t A = G.input();
  uint32_t M = G.op("mul.f32", {A, A});
  uint32_t F = G.op("fma.rn.f32", {A, A, M});
  EXPECT_EQ(G.plan({F})[F].Mul, None);
}

TEST(Contraction, MovesAndNegsAreLookedThrough) {
  Graph G;
  uint32_t A = G.input();
  uint32_t M = G.op("mul.f32", {A, A});
  uint32_t U = G.op("bits.f32.u32", {M});
  uint32_t F = G.op("bits.u32.f32", {U});
  uint32_t N = G.op("neg.f32", {F});
  uint32_t S = G.op("add.f32", {A, N});
  std::vector<Contraction> P = G.plan({S});
  EXPECT_EQ(P[S].Mul, M);
  EXPECT_EQ(P[S].Pos, 1);
  EXPECT_TRUE(P[S].Negated);
}

TEST(Contraction, FirstOfTwoProductsIsFused) {
  Graph G;
  uint32_t A = G.input(), B = G.input();
  uint32_t M1 = G.op("mul.f16x2", {A, B});
  uint32_t M2 = G.op("mul.f16x2", {B, B});
  uint32_t S = G.op("add.f16x2", {M1, M2});
  EXPECT_EQ(G.plan({S})[S].Mul, M1);
}

TEST(Contraction, LiteralF32ProductIsFolded) {
  Graph G;
  uint32_t A = G.input(), K1 = G.literal(), K2 = G.literal();
  uint32_t M = G.op("mul.f32", {K1, K2});
  uint32_t S = G.op("add.f32", {M, A});
  uint32_t H = G.op("mul.f16", {K1, K2});
  uint32_t T = G.op("add.f16", {H, A});
  std::vector<Contraction> P = G.plan({S, T});
  EXPECT_EQ(P[S].Mul, None); // ptxas folds it: the product rounds
  EXPECT_EQ(P[T].Mul, H);    // f16 products of literals are not folded
}

TEST(Contraction, OnlyWithinABasicBlock) {
  Graph G;
  uint32_t A = G.input(), B = G.input();
  uint32_t M = G.op("mul.f32", {A, A});
  uint32_t D = G.op("div.rn.f32", {B, B}); // ptxas branches here
  uint32_t S = G.op("add.f32", {M, D});
  uint32_t M2 = G.op("mul.f32", {B, B});
  uint32_t R = G.op("rem.s32", {A, B});
  uint32_t S2 = G.op("add.f32", {M2, A});
  for (uint32_t I = 0; I != G.Nodes.size(); ++I)
    G.Nodes[I].Position = I; // written in node order
  std::vector<Contraction> P = G.plan({S, S2, R});
  EXPECT_EQ(P[S].Mul, None);
  EXPECT_EQ(P[S2].Mul, None); // rem.s32 branches too
  // A product by a literal is moved to its users.
  uint32_t K = G.literal();
  uint32_t M3 = G.op("mul.f32", {A, K});
  uint32_t D3 = G.op("div.rn.f32", {A, B});
  uint32_t S3 = G.op("add.f32", {M3, D3});
  for (uint32_t I = 0; I != G.Nodes.size(); ++I)
    G.Nodes[I].Position = I;
  EXPECT_EQ(G.plan({S, S2, R, S3})[S3].Mul, M3);
  // Written with the div first, the pair is in one block.
  G.Nodes[D].Position = 0;
  G.Nodes[M].Position = 1;
  EXPECT_EQ(G.plan({S, S2, R})[S].Mul, M);
}

TEST(Contraction, EvaluateRoundsOnce) {
  // (1 + 2^-12)^2 - 1 = 2^-11 + 2^-24 exactly; rounded twice it is 2^-11.
  uint64_t X = f32Bits(1.000244140625f), One = f32Bits(1.0f);
  uint64_t MulArgs[2] = {X, X};
  uint64_t R = 0;
  ASSERT_FALSE(errorToBool(
      evaluateContracted(info(), instr("sub.f32"), MulArgs, false, 0, One, R)));
  EXPECT_EQ(R, 0x3a000400u);
  // 1 - x*x, the product second.
  ASSERT_FALSE(errorToBool(
      evaluateContracted(info(), instr("sub.f32"), MulArgs, false, 1, One, R)));
  EXPECT_EQ(R, 0xba000400u);
  // Not an add: an error.
  EXPECT_TRUE(errorToBool(
      evaluateContracted(info(), instr("mul.f32"), MulArgs, false, 0, One, R)));
}

} // namespace
