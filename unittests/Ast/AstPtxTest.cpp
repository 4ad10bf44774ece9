//===- AstPtxTest.cpp - AST PTX compiler and interpreter ------------------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "mmptx/Ast/AstPtx.h"
#include "mmptx/Ast/AstInterpreter.h"
#include "mmptx/Ast/AstRandom.h"
#include "mmptx/Stack/StackInfo.h"

#include "../Expr/DefaultInstrs.h"

#include "gtest/gtest.h"

#include <cstring>

using namespace mmptx;
using namespace mmptx::test;
using namespace mmptx::ast;

namespace {

float asF32(uint64_t V) {
  uint32_t B = uint32_t(V);
  float F;
  std::memcpy(&F, &B, 4);
  return F;
}

/// The reference's catalogue numbering: 1 add.ftz, 2 sub.ftz, 3 mul.ftz,
/// 4 fma.rn.ftz.
AstPtxOptions referenceOptions(const std::vector<uint32_t> &Map) {
  AstPtxOptions O;
  O.InstrMap = Map;
  return O;
}

const AstVar Xy[] = {{"x", 0}, {"y", 0}};

struct Compiled {
  AstResult Result;
  std::string Text;
};

Compiled compile(AstPtxContext &Ctx, llvm::ArrayRef<uint64_t> Words,
                 llvm::ArrayRef<llvm::ArrayRef<uint64_t>> Routines = {},
                 llvm::ArrayRef<AstVar> Inputs = Xy, uint16_t OutStack = 0) {
  AstOutput Out{{"z", OutStack}, Words};
  llvm::Expected<llvm::StringRef> T =
      Ctx.compile(AstProgram{Out, Routines}, Inputs);
  if (!T) {
    std::string Msg;
    AstResult R = takeAstResult(T.takeError(), &Msg);
    return {R, Msg};
  }
  return {AstResult::Success, T->str()};
}

// The reference's own words (its catalogue numbering) give its exact text.
TEST(AstPtx, ReferenceWordsExactText) {
  std::vector<uint32_t> Map = getReferenceAstInstrMap(info());
  ASSERT_EQ(Map.size(), 18u);
  AstPtxContext Ctx(info(), referenceOptions(Map));
  const uint64_t MulRoutine[] = {encodeRoutineArg(0), encodeRoutineArg(1),
                                 encodePtx(3, 2), encodeReturn()};
  const uint64_t SubRoutine[] = {encodeRoutineArg(1), encodeRoutineArg(0),
                                 encodePtx(2, 2), encodeReturn()};
  llvm::ArrayRef<uint64_t> Routines[] = {MulRoutine, SubRoutine};
  const uint64_t Prog1[] = {encodeInput(0),      encodeInput(1),
                            encodeRoutine(0, 2), encodeConstant(1.0f),
                            encodePtx(1, 2),     encodeReturn()};
  Compiled C = compile(Ctx, Prog1, Routines);
  ASSERT_EQ(C.Result, AstResult::Success) << C.Text;
  EXPECT_EQ(C.Text, "{\n.reg .f32 %ast<2>;\nmul.ftz.f32 %ast0, %x, %y;\n"
                    "add.ftz.f32 %ast1, %ast0, 0f3f800000;\nmov.f32 %z, "
                    "%ast1;\n}");
  const uint64_t Prog2[] = {encodeInput(0),       encodeInput(1),
                            encodeConstant(2.0f), encodePtx(4, 3),
                            encodeInput(1),       encodeRoutine(1, 2),
                            encodeReturn()};
  C = compile(Ctx, Prog2, Routines);
  ASSERT_EQ(C.Result, AstResult::Success) << C.Text;
  EXPECT_EQ(C.Text, "{\n.reg .f32 %ast<2>;\n"
                    "fma.rn.ftz.f32 %ast0, %x, %y, 0f40000000;\n"
                    "sub.ftz.f32 %ast1, %y, %ast0;\nmov.f32 %z, %ast1;\n}");
  const uint64_t Prog3[] = {encodeConstant(2.0f), encodeReturn()};
  C = compile(Ctx, Prog3);
  EXPECT_EQ(C.Text, "{\nmov.f32 %z, 0f40000000;\n}");

  // Interpreter: 5*3+1 = 16 and 3 - fma(5, 3, 2) = -14.
  AstOutput Out{{"z", 0}, Prog1};
  auto V = interpretAstPtx(Ctx, AstProgram{Out, Routines}, Xy,
                           {expr::f32Bits(5), expr::f32Bits(3)});
  ASSERT_TRUE(bool(V));
  EXPECT_EQ(asF32((*V)[0]), 16.0f);
  Out.Words = Prog2;
  V = interpretAstPtx(Ctx, AstProgram{Out, Routines}, Xy,
                      {expr::f32Bits(5), expr::f32Bits(3)});
  ASSERT_TRUE(bool(V));
  EXPECT_EQ(asF32((*V)[0]), -14.0f);
}

// The reference's error cases, and every other result code, from words.
TEST(AstPtx, EveryError) {
  std::vector<uint32_t> Map = getReferenceAstInstrMap(info());
  AstPtxContext Ref(info(), referenceOptions(Map));
  AstPtxContext Ctx(info());
  uint32_t Add = instr("add.ftz.f32");
  auto Result = [&](AstPtxContext &C, std::vector<uint64_t> W,
                    std::vector<std::vector<uint64_t>> R = {},
                    uint16_t OutStack = 0) {
    std::vector<llvm::ArrayRef<uint64_t>> Refs(R.begin(), R.end());
    return compile(C, W, Refs, Xy, OutStack).Result;
  };
  // Two values at RETURN; aux 1 on add; a routine returning two values.
  EXPECT_EQ(Result(Ref, {encodeInput(0), encodeInput(1), encodeReturn()}),
            AstResult::InvalidValue);
  EXPECT_EQ(Result(Ref, {encodeInput(0), encodeInput(1), encodePtx(1, 1),
                         encodeReturn()}),
            AstResult::InvalidValue);
  EXPECT_EQ(
      Result(Ref, {encodeInput(0), encodeRoutine(0, 1), encodeReturn()},
             {{encodeRoutineArg(0), encodeRoutineArg(0), encodeReturn()}}),
      AstResult::InvalidValue);
  EXPECT_EQ(Result(Ctx, {encodeInput(0)}),
            AstResult::BadInstructionMaybeForgotReturn);
  EXPECT_EQ(Result(Ctx, {makeAstWord(AstWordType::None, 0, 0)}),
            AstResult::BadInstructionMaybeForgotReturn);
  EXPECT_EQ(Result(Ctx, {makeAstWord(AstWordType::Register, 0, 0)}),
            AstResult::BadInstructionMaybeForgotReturn);
  EXPECT_EQ(Result(Ctx, {encodeInput(2), encodeReturn()}),
            AstResult::InputIdxOutOfBounds);
  EXPECT_EQ(Result(Ref, {encodeInput(0), encodePtx(18, 1), encodeReturn()}),
            AstResult::PtxInstructionIdxOutOfBounds);
  EXPECT_EQ(Result(Ctx, {encodeInput(0), encodePtx(100000, 1), encodeReturn()}),
            AstResult::PtxInstructionIdxOutOfBounds);
  // x + y: two values on the stack, four words executed.
  const std::vector<uint64_t> AddXY = {encodeInput(0), encodeInput(1),
                                       encodePtx(Add, 2), encodeReturn()};
  AstPtxContext Shallow(info());
  Shallow.getOptions().MaxStackDepth = 1;
  EXPECT_EQ(Result(Shallow, AddXY), AstResult::StackOverflow);
  EXPECT_EQ(Result(Ctx, {encodeInput(0), encodePtx(Add, 2), encodeReturn()}),
            AstResult::StackUnderflow);
  EXPECT_EQ(Result(Ctx, {encodeInput(0), encodePtx(Add, 5), encodeReturn()}),
            AstResult::TooManyArgs);
  EXPECT_EQ(Result(Ctx, {encodeInput(0), encodeRoutine(0, 5), encodeReturn()},
                   {{encodeRoutineArg(0), encodeReturn()}}),
            AstResult::TooManyArgs);
  EXPECT_EQ(Result(Ctx, {encodeInput(0), encodePtx(instr("unpack.f16x2"), 1),
                         encodeReturn()}),
            AstResult::UnsupportedInstruction);
  EXPECT_EQ(Result(Ctx, {encodeRoutine(3, 0), encodeReturn()}),
            AstResult::RoutineIdxOutOfBounds);
  EXPECT_EQ(Result(Ctx, {encodeRoutineArg(0), encodeReturn()}),
            AstResult::RoutineArgIdxOutOfBounds);
  EXPECT_EQ(Result(Ctx, {encodeInput(0), encodeRoutine(0, 1), encodeReturn()},
                   {{encodeRoutineArg(1), encodeReturn()}}),
            AstResult::RoutineArgIdxOutOfBounds);
  EXPECT_EQ(Result(Ctx, {encodeRoutine(0, 0), encodeReturn()},
                   {{encodeRoutine(0, 0), encodeReturn()}}),
            AstResult::RoutineDepthExceeded);
  // A U32 operand of an f32 add; an f32 value for a U32 output.
  EXPECT_EQ(Result(Ctx, {encodeInput(0), encodeConstantBits(1, 2),
                         encodePtx(Add, 2), encodeReturn()}),
            AstResult::TypeMismatch);
  EXPECT_EQ(Result(Ctx, {encodeInput(0), encodeReturn()}, {}, 1),
            AstResult::TypeMismatch);
  EXPECT_EQ(Result(Ctx, {encodeSpecial(1000), encodeReturn()}, {}, 1),
            AstResult::SpecialRegisterIdxOutOfBounds);
  EXPECT_EQ(Result(Ctx, {encodeConstantBits(999, 0), encodeReturn()}),
            AstResult::StackIdxOutOfBounds);
  AstPtxContext Limited(info());
  Limited.getOptions().MaxExecutedWords = 2;
  EXPECT_EQ(Result(Limited, AddXY), AstResult::LimitExceeded);
  // Every code has a name.
  for (uint32_t R = 0; R != NumAstResults; ++R)
    EXPECT_EQ(std::string(getAstResultName(R)).find("AST_PTX_"), 0u);
  EXPECT_STREQ(getAstResultName(NumAstResults),
               "AST_PTX_ERROR_INVALID_RESULT_ENUM");
}

// Limits may be raised as far as wanted; memory follows the program.
// A word of 0 operands naming an instruction that the fast path does not
// take (several results, vector operands) gets the general checks, never an
// operand-less node.
TEST(AstPtx, ZeroOperandWordOfASlowInstruction) {
  const expr::InstrSet &Info = info();
  int Mma = -1;
  for (uint32_t I = 0; I != Info.NumInstrs && Mma < 0; ++I)
    if (llvm::StringRef(Info.InstrPtx[I]).startswith("mma.sync"))
      Mma = int(I);
  ASSERT_GE(Mma, 0);
  const uint64_t Words[] = {makeAstWord(AstWordType::Ptx, 0, uint32_t(Mma)),
                            encodeReturn()};
  const AstVar Z = {"z", 0};
  AstOutput Out = {Z, Words};
  AstPtxContext Ctx(Info);
  llvm::Expected<llvm::StringRef> Stub = Ctx.compile(AstProgram{Out, {}}, {});
  ASSERT_FALSE(bool(Stub));
  EXPECT_EQ(takeAstResult(Stub.takeError()), AstResult::UnsupportedInstruction);
}

TEST(AstPtx, RaisedLimits) {
  AstPtxOptions O;
  O.MaxStackDepth = UINT32_MAX;
  O.MaxRoutineDepth = UINT32_MAX;
  O.MaxWords = UINT32_MAX;
  O.MaxArgs = UINT32_MAX;
  O.MaxExecutedWords = UINT64_MAX;
  AstPtxContext Ctx(info(), O);
  // 1000 values on the stack at once, then 999 adds.
  std::vector<uint64_t> W(1000, encodeInput(0));
  for (int I = 0; I != 999; ++I)
    W.push_back(encodePtx(instr("add.f32"), 2));
  W.push_back(encodeReturn());
  Compiled C = compile(Ctx, W);
  EXPECT_EQ(C.Result, AstResult::Success) << C.Text;
  // Without sharing, every add is its own node.
  Ctx.getOptions().ShareSubexpressions = false;
  C = compile(Ctx, W);
  EXPECT_NE(C.Text.find("%ast<999>"), std::string::npos);
}

// Equal sub-expressions are computed once; arguments a routine never reads
// are not computed.
TEST(AstPtx, SharingAndDeadCode) {
  AstPtxContext Ctx(info());
  uint32_t Mul = instr("mul.f32"), Add = instr("add.f32"),
           Sin = instr("sin.approx.f32");
  const uint64_t W[] = {encodeInput(0),    encodeInput(1), encodePtx(Mul, 2),
                        encodeInput(0),    encodeInput(1), encodePtx(Mul, 2),
                        encodePtx(Add, 2), encodeReturn()};
  Compiled C = compile(Ctx, W);
  EXPECT_EQ(C.Text, "{\n.reg .f32 %ast<2>;\nmul.f32 %ast0, %x, %y;\n"
                    "add.f32 %ast1, %ast0, %ast0;\nmov.f32 %z, %ast1;\n}");
  const uint64_t First[] = {encodeRoutineArg(0), encodeReturn()};
  llvm::ArrayRef<uint64_t> Routines[] = {First};
  const uint64_t W2[] = {encodeInput(0), encodeInput(1), encodePtx(Sin, 1),
                         encodeRoutine(0, 2), encodeReturn()};
  C = compile(Ctx, W2, Routines);
  EXPECT_EQ(C.Text, "{\nmov.f32 %z, %x;\n}");
}

// Several outputs share their nodes; each is a `mov` in output order.
TEST(AstPtx, SeveralOutputs) {
  AstPtxContext Ctx(info());
  uint32_t Neg = instr("neg.f32"), Cvt = instr("cvt.rzi.u32.f32");
  const uint64_t A[] = {encodeInput(0), encodePtx(Neg, 1), encodeReturn()};
  const uint64_t B[] = {encodeInput(0), encodePtx(Neg, 1), encodePtx(Cvt, 1),
                        encodeReturn()};
  AstOutput Outs[] = {{{"p", 0}, A}, {{"q", 1}, B}};
  auto T = Ctx.compile(AstProgram{Outs, {}}, Xy);
  ASSERT_TRUE(bool(T));
  EXPECT_EQ(*T, "{\n.reg .f32 %ast<1>;\n.reg .u32 %ast_s1_<1>;\n"
                "neg.f32 %ast0, %x;\ncvt.rzi.u32.f32 %ast_s1_0, %ast0;\n"
                "mov.f32 %p, %ast0;\nmov.u32 %q, %ast_s1_0;\n}");
  EXPECT_EQ(Ctx.getNumEmittedInstrs(), 2u);
}

// Literals that are no operands (f16) go through a register; special
// registers are read with mov.
TEST(AstPtx, MaterialisedLeaves) {
  AstPtxContext Ctx(info());
  int F16 = info().findStack("F16"), U32 = info().findStack("U32");
  ASSERT_GE(F16, 0);
  const uint64_t H[] = {encodeConstantBits(uint16_t(F16), 0x3c00),
                        encodeConstantBits(uint16_t(F16), 0x3c00),
                        encodePtx(instr("add.f16"), 2), encodeReturn()};
  AstOutput O1{{"h", uint16_t(F16)}, H};
  auto T = Ctx.compile(AstProgram{O1, {}}, {});
  ASSERT_TRUE(bool(T)) << llvm::toString(T.takeError());
  EXPECT_NE(T->str().find("mov.b16 %ast_s5_0, 0x00003c00;\n"
                          "add.f16 %ast_s5_1, %ast_s5_0, %ast_s5_0;"),
            std::string::npos)
      << T->str();
  int Tid = info().findSpecial("tid");
  const uint64_t S[] = {encodeSpecial(uint32_t(Tid), 2), encodeReturn()};
  AstOutput O2{{"t", uint16_t(U32)}, S};
  T = Ctx.compile(AstProgram{O2, {}}, {});
  ASSERT_TRUE(bool(T));
  EXPECT_EQ(*T, "{\n.reg .u32 %ast_s1_<1>;\nmov.u32 %ast_s1_0, %tid.z;\n"
                "mov.u32 %t, %ast_s1_0;\n}");
}

TEST(AstPtx, ReservedNames) {
  EXPECT_TRUE(isReservedAstName("ast0"));
  EXPECT_TRUE(isReservedAstName("ast12"));
  EXPECT_TRUE(isReservedAstName("ast_s4_0"));
  EXPECT_FALSE(isReservedAstName("ast"));
  EXPECT_FALSE(isReservedAstName("astro"));
  EXPECT_FALSE(isReservedAstName("x"));
}

// Random well-typed trees of every stack compile; f32 trees interpret.
TEST(AstPtx, RandomTreesCompile) {
  AstPtxContext Ctx(info());
  for (uint64_t Seed = 1; Seed != 200; ++Seed) {
    AstModule M = makeRandomAstModule(info(), Seed, 64);
    auto T = Ctx.compile(M.getProgram(), M.getInputs());
    ASSERT_TRUE(bool(T)) << "seed " << Seed << ": "
                         << llvm::toString(T.takeError());
  }
}

} // namespace
