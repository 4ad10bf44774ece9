//===- AstPtxTest.cpp - AST PTX compiler and interpreter ------------------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "mmptx/Ast/AstPtx.h"
#include "mmptx/Ast/AstInterpreter.h"
#include "mmptx/Ast/AstRandom.h"

#include "gtest/gtest.h"

#include <cstring>

using namespace mmptx;
using namespace mmptx::ast;

namespace {

const stack::StackInfo &info() { return stack::getDefaultStackInfo(); }

uint32_t instr(const char *name) {
  int i = info().findInstr(name);
  EXPECT_GE(i, 0) << name;
  return uint32_t(i);
}

float asF32(uint64_t v) {
  uint32_t b = uint32_t(v);
  float f;
  std::memcpy(&f, &b, 4);
  return f;
}

/// The reference's catalogue numbering: 1 add.ftz, 2 sub.ftz, 3 mul.ftz,
/// 4 fma.rn.ftz.
AstPtxOptions referenceOptions(const std::vector<uint32_t> &map) {
  AstPtxOptions o;
  o.instrMap = map;
  return o;
}

const AstVar xy[] = {{"x", 0}, {"y", 0}};

struct Compiled {
  AstResult result;
  std::string text;
};

Compiled compile(AstPtxContext &ctx, llvm::ArrayRef<uint64_t> words,
                 llvm::ArrayRef<llvm::ArrayRef<uint64_t>> routines = {},
                 llvm::ArrayRef<AstVar> inputs = xy, uint16_t outStack = 0) {
  AstOutput out{{"z", outStack}, words};
  llvm::Expected<llvm::StringRef> t =
      ctx.compile(AstProgram{out, routines}, inputs);
  if (!t) {
    std::string msg;
    AstResult r = takeAstResult(t.takeError(), &msg);
    return {r, msg};
  }
  return {AstResult::Success, t->str()};
}

// The reference's own words (its catalogue numbering) give its exact text.
TEST(AstPtx, ReferenceWordsExactText) {
  std::vector<uint32_t> map = getReferenceAstInstrMap(info());
  ASSERT_EQ(map.size(), 18u);
  AstPtxContext ctx(info(), referenceOptions(map));
  const uint64_t mulRoutine[] = {encodeRoutineArg(0), encodeRoutineArg(1),
                                 encodePtx(3, 2), encodeReturn()};
  const uint64_t subRoutine[] = {encodeRoutineArg(1), encodeRoutineArg(0),
                                 encodePtx(2, 2), encodeReturn()};
  llvm::ArrayRef<uint64_t> routines[] = {mulRoutine, subRoutine};
  const uint64_t prog1[] = {encodeInput(0),      encodeInput(1),
                            encodeRoutine(0, 2), encodeConstant(1.0f),
                            encodePtx(1, 2),     encodeReturn()};
  Compiled c = compile(ctx, prog1, routines);
  ASSERT_EQ(c.result, AstResult::Success) << c.text;
  EXPECT_EQ(c.text, "{\n.reg .f32 %ast<2>;\nmul.ftz.f32 %ast0, %x, %y;\n"
                    "add.ftz.f32 %ast1, %ast0, 0f3f800000;\nmov.f32 %z, "
                    "%ast1;\n}");
  const uint64_t prog2[] = {encodeInput(0),       encodeInput(1),
                            encodeConstant(2.0f), encodePtx(4, 3),
                            encodeInput(1),       encodeRoutine(1, 2),
                            encodeReturn()};
  c = compile(ctx, prog2, routines);
  ASSERT_EQ(c.result, AstResult::Success) << c.text;
  EXPECT_EQ(c.text, "{\n.reg .f32 %ast<2>;\n"
                    "fma.rn.ftz.f32 %ast0, %x, %y, 0f40000000;\n"
                    "sub.ftz.f32 %ast1, %y, %ast0;\nmov.f32 %z, %ast1;\n}");
  const uint64_t prog3[] = {encodeConstant(2.0f), encodeReturn()};
  c = compile(ctx, prog3);
  EXPECT_EQ(c.text, "{\nmov.f32 %z, 0f40000000;\n}");

  // Interpreter: 5*3+1 = 16 and 3 - fma(5, 3, 2) = -14.
  AstOutput out{{"z", 0}, prog1};
  auto v = interpretAstPtx(ctx, AstProgram{out, routines}, xy,
                           {stack::f32Bits(5), stack::f32Bits(3)});
  ASSERT_TRUE(bool(v));
  EXPECT_EQ(asF32((*v)[0]), 16.0f);
  out.words = prog2;
  v = interpretAstPtx(ctx, AstProgram{out, routines}, xy,
                      {stack::f32Bits(5), stack::f32Bits(3)});
  ASSERT_TRUE(bool(v));
  EXPECT_EQ(asF32((*v)[0]), -14.0f);
}

// The reference's error cases, and every other result code, from words.
TEST(AstPtx, EveryError) {
  std::vector<uint32_t> map = getReferenceAstInstrMap(info());
  AstPtxContext ref(info(), referenceOptions(map));
  AstPtxContext ctx(info());
  uint32_t add = instr("add.ftz.f32");
  auto result = [&](AstPtxContext &c, std::vector<uint64_t> w,
                    std::vector<std::vector<uint64_t>> r = {},
                    uint16_t outStack = 0) {
    std::vector<llvm::ArrayRef<uint64_t>> refs(r.begin(), r.end());
    return compile(c, w, refs, xy, outStack).result;
  };
  // Two values at RETURN; aux 1 on add; a routine returning two values.
  EXPECT_EQ(result(ref, {encodeInput(0), encodeInput(1), encodeReturn()}),
            AstResult::InvalidValue);
  EXPECT_EQ(result(ref, {encodeInput(0), encodeInput(1), encodePtx(1, 1),
                         encodeReturn()}),
            AstResult::InvalidValue);
  EXPECT_EQ(
      result(ref, {encodeInput(0), encodeRoutine(0, 1), encodeReturn()},
             {{encodeRoutineArg(0), encodeRoutineArg(0), encodeReturn()}}),
      AstResult::InvalidValue);
  EXPECT_EQ(result(ctx, {encodeInput(0)}),
            AstResult::BadInstructionMaybeForgotReturn);
  EXPECT_EQ(result(ctx, {makeAstWord(AstWordType::None, 0, 0)}),
            AstResult::BadInstructionMaybeForgotReturn);
  EXPECT_EQ(result(ctx, {makeAstWord(AstWordType::Register, 0, 0)}),
            AstResult::BadInstructionMaybeForgotReturn);
  EXPECT_EQ(result(ctx, {encodeInput(2), encodeReturn()}),
            AstResult::InputIdxOutOfBounds);
  EXPECT_EQ(result(ref, {encodeInput(0), encodePtx(18, 1), encodeReturn()}),
            AstResult::PtxInstructionIdxOutOfBounds);
  EXPECT_EQ(result(ctx, {encodeInput(0), encodePtx(100000, 1), encodeReturn()}),
            AstResult::PtxInstructionIdxOutOfBounds);
  AstPtxContext shallow(info());
  shallow.getOptions().maxStackDepth = 1;
  EXPECT_EQ(result(shallow, {encodeInput(0), encodeInput(1), encodePtx(add, 2),
                             encodeReturn()}),
            AstResult::StackOverflow);
  EXPECT_EQ(result(ctx, {encodeInput(0), encodePtx(add, 2), encodeReturn()}),
            AstResult::StackUnderflow);
  EXPECT_EQ(result(ctx, {encodeInput(0), encodePtx(add, 5), encodeReturn()}),
            AstResult::TooManyArgs);
  EXPECT_EQ(result(ctx, {encodeInput(0), encodeRoutine(0, 5), encodeReturn()},
                   {{encodeRoutineArg(0), encodeReturn()}}),
            AstResult::TooManyArgs);
  EXPECT_EQ(result(ctx, {encodeInput(0), encodePtx(instr("unpack.f16x2"), 1),
                         encodeReturn()}),
            AstResult::UnsupportedInstruction);
  EXPECT_EQ(result(ctx, {encodeRoutine(3, 0), encodeReturn()}),
            AstResult::RoutineIdxOutOfBounds);
  EXPECT_EQ(result(ctx, {encodeRoutineArg(0), encodeReturn()}),
            AstResult::RoutineArgIdxOutOfBounds);
  EXPECT_EQ(result(ctx, {encodeInput(0), encodeRoutine(0, 1), encodeReturn()},
                   {{encodeRoutineArg(1), encodeReturn()}}),
            AstResult::RoutineArgIdxOutOfBounds);
  EXPECT_EQ(result(ctx, {encodeRoutine(0, 0), encodeReturn()},
                   {{encodeRoutine(0, 0), encodeReturn()}}),
            AstResult::RoutineDepthExceeded);
  // A U32 operand of an f32 add; an f32 value for a U32 output.
  EXPECT_EQ(result(ctx, {encodeInput(0), encodeConstantBits(1, 2),
                         encodePtx(add, 2), encodeReturn()}),
            AstResult::TypeMismatch);
  EXPECT_EQ(result(ctx, {encodeInput(0), encodeReturn()}, {}, 1),
            AstResult::TypeMismatch);
  EXPECT_EQ(result(ctx, {encodeSpecial(1000), encodeReturn()}, {}, 1),
            AstResult::SpecialRegisterIdxOutOfBounds);
  EXPECT_EQ(result(ctx, {encodeConstantBits(999, 0), encodeReturn()}),
            AstResult::StackIdxOutOfBounds);
  AstPtxContext limited(info());
  limited.getOptions().maxExecutedWords = 2;
  EXPECT_EQ(result(limited, {encodeInput(0), encodeInput(1), encodePtx(add, 2),
                             encodeReturn()}),
            AstResult::LimitExceeded);
  // Every code has a name.
  for (uint32_t r = 0; r != NumAstResults; ++r)
    EXPECT_EQ(std::string(getAstResultName(r)).find("AST_PTX_"), 0u);
  EXPECT_STREQ(getAstResultName(NumAstResults),
               "AST_PTX_ERROR_INVALID_RESULT_ENUM");
}

// Limits may be raised as far as wanted; memory follows the program.
TEST(AstPtx, RaisedLimits) {
  AstPtxOptions o;
  o.maxStackDepth = UINT32_MAX;
  o.maxRoutineDepth = UINT32_MAX;
  o.maxWords = UINT32_MAX;
  o.maxArgs = UINT32_MAX;
  o.maxExecutedWords = UINT64_MAX;
  AstPtxContext ctx(info(), o);
  // 1000 values on the stack at once, then 999 adds.
  std::vector<uint64_t> w(1000, encodeInput(0));
  for (int i = 0; i != 999; ++i)
    w.push_back(encodePtx(instr("add.f32"), 2));
  w.push_back(encodeReturn());
  Compiled c = compile(ctx, w);
  EXPECT_EQ(c.result, AstResult::Success) << c.text;
  // Without sharing, every add is its own node.
  ctx.getOptions().shareSubexpressions = false;
  c = compile(ctx, w);
  EXPECT_NE(c.text.find("%ast<999>"), std::string::npos);
}

// Equal sub-expressions are computed once; arguments a routine never reads
// are not computed.
TEST(AstPtx, SharingAndDeadCode) {
  AstPtxContext ctx(info());
  uint32_t mul = instr("mul.f32"), add = instr("add.f32"),
           sin = instr("sin.approx.f32");
  const uint64_t w[] = {encodeInput(0),    encodeInput(1), encodePtx(mul, 2),
                        encodeInput(0),    encodeInput(1), encodePtx(mul, 2),
                        encodePtx(add, 2), encodeReturn()};
  Compiled c = compile(ctx, w);
  EXPECT_EQ(c.text, "{\n.reg .f32 %ast<2>;\nmul.f32 %ast0, %x, %y;\n"
                    "add.f32 %ast1, %ast0, %ast0;\nmov.f32 %z, %ast1;\n}");
  const uint64_t first[] = {encodeRoutineArg(0), encodeReturn()};
  llvm::ArrayRef<uint64_t> routines[] = {first};
  const uint64_t w2[] = {encodeInput(0), encodeInput(1), encodePtx(sin, 1),
                         encodeRoutine(0, 2), encodeReturn()};
  c = compile(ctx, w2, routines);
  EXPECT_EQ(c.text, "{\nmov.f32 %z, %x;\n}");
}

// Several outputs share their nodes; each is a `mov` in output order.
TEST(AstPtx, SeveralOutputs) {
  AstPtxContext ctx(info());
  uint32_t neg = instr("neg.f32"), cvt = instr("cvt.rzi.u32.f32");
  const uint64_t a[] = {encodeInput(0), encodePtx(neg, 1), encodeReturn()};
  const uint64_t b[] = {encodeInput(0), encodePtx(neg, 1), encodePtx(cvt, 1),
                        encodeReturn()};
  AstOutput outs[] = {{{"p", 0}, a}, {{"q", 1}, b}};
  auto t = ctx.compile(AstProgram{outs, {}}, xy);
  ASSERT_TRUE(bool(t));
  EXPECT_EQ(*t, "{\n.reg .f32 %ast<1>;\n.reg .u32 %ast_s1_<1>;\n"
                "neg.f32 %ast0, %x;\ncvt.rzi.u32.f32 %ast_s1_0, %ast0;\n"
                "mov.f32 %p, %ast0;\nmov.u32 %q, %ast_s1_0;\n}");
  EXPECT_EQ(ctx.getNumEmittedInstrs(), 2u);
}

// Literals that are no operands (f16) go through a register; special
// registers are read with mov.
TEST(AstPtx, MaterialisedLeaves) {
  AstPtxContext ctx(info());
  int f16 = info().findStack("F16"), u32 = info().findStack("U32");
  ASSERT_GE(f16, 0);
  const uint64_t h[] = {encodeConstantBits(uint16_t(f16), 0x3c00),
                        encodeConstantBits(uint16_t(f16), 0x3c00),
                        encodePtx(instr("add.f16"), 2), encodeReturn()};
  AstOutput o1{{"h", uint16_t(f16)}, h};
  auto t = ctx.compile(AstProgram{o1, {}}, {});
  ASSERT_TRUE(bool(t)) << llvm::toString(t.takeError());
  EXPECT_NE(t->str().find("mov.b16 %ast_s6_0, 0x00003c00;\n"
                          "add.f16 %ast_s6_1, %ast_s6_0, %ast_s6_0;"),
            std::string::npos)
      << t->str();
  int tid = info().findSpecial("tid");
  const uint64_t s[] = {encodeSpecial(uint32_t(tid), 2), encodeReturn()};
  AstOutput o2{{"t", uint16_t(u32)}, s};
  t = ctx.compile(AstProgram{o2, {}}, {});
  ASSERT_TRUE(bool(t));
  EXPECT_EQ(*t, "{\n.reg .u32 %ast_s1_<1>;\nmov.u32 %ast_s1_0, %tid.z;\n"
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
  AstPtxContext ctx(info());
  for (uint64_t seed = 1; seed != 200; ++seed) {
    AstModule m = makeRandomAstModule(info(), seed, 64);
    auto t = ctx.compile(m.getProgram(), m.getInputs());
    ASSERT_TRUE(bool(t)) << "seed " << seed << ": "
                         << llvm::toString(t.takeError());
  }
}

} // namespace
