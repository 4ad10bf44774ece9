//===- StatementParserTest.cpp - Tests for on-demand parsing --------------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "mmptx/Parser/StatementParser.h"
#include "mmptx/Parser/Parser.h"

#include "gtest/gtest.h"

using namespace mmptx;
using namespace mmptx::ptx;

namespace {
/// Parses `.version 9.0` and, from line 2, \p Src structurally; the
/// statements of \p Src start at index 1.
std::unique_ptr<Module> structure(llvm::StringRef Src) {
  auto M = parsePTXString((".version 9.0\n" + Src).str(), "s.ptx",
                          /*Verify=*/false);
  EXPECT_TRUE(bool(M));
  if (!M) {
    llvm::consumeError(M.takeError());
    return nullptr;
  }
  return std::move(*M);
}
} // namespace

TEST(StatementParserTest, Instruction) {
  auto M = structure("@!%p1 mma.sync.aligned.m16n8k8.f32 {%f1, %f2}, [%rd1+8], "
                     "-%f3, 0f3F800000, $L1;");
  ASSERT_TRUE(M);
  Instruction I;
  ASSERT_FALSE(bool(parseInstruction(*M, M->getStatement(1), I)));
  EXPECT_EQ(I.Guard, "%p1");
  EXPECT_TRUE(I.GuardNegated);
  EXPECT_EQ(I.Mnemonic, "mma");
  EXPECT_EQ(I.Opcode, "mma.sync.aligned.m16n8k8.f32");
  ASSERT_EQ(I.Modifiers.size(), 4u);
  EXPECT_EQ(I.Modifiers[3], "f32");
  ASSERT_EQ(I.Operands.size(), 7u);
  EXPECT_EQ(I.Operands[0].K, Operand::Kind::Vector);
  EXPECT_EQ(I.Operands[0].NumElements, 2u);
  EXPECT_EQ(I.Operands[0].Text, "{%f1, %f2}");
  EXPECT_EQ(I.Operands[3].K, Operand::Kind::Address);
  EXPECT_EQ(I.Operands[3].Text, "[%rd1+8]");
  EXPECT_EQ(I.Operands[4].Text, "-%f3");
  EXPECT_EQ(I.Operands[5].K, Operand::Kind::Immediate);
  EXPECT_EQ(I.Operands[6].K, Operand::Kind::Symbol);
}

TEST(StatementParserTest, CallWithLists) {
  auto M = structure("call.uni (retval0), _Z2sqf, (param0, param1);");
  ASSERT_TRUE(M);
  Instruction I;
  ASSERT_FALSE(bool(parseInstruction(*M, M->getStatement(1), I)));
  ASSERT_EQ(I.Operands.size(), 6u);
  EXPECT_EQ(I.Operands[0].K, Operand::Kind::List);
  EXPECT_EQ(I.Operands[2].Text, "_Z2sqf");
  EXPECT_EQ(I.Operands[3].NumElements, 2u);
}

TEST(StatementParserTest, SetpPairAndVectorComponent) {
  auto M = structure("shfl.sync.down.b32 %r10|%p1, %tid.x, 1, 31, -1;");
  ASSERT_TRUE(M);
  Instruction I;
  ASSERT_FALSE(bool(parseInstruction(*M, M->getStatement(1), I)));
  EXPECT_EQ(I.Operands[0].Text, "%r10|%p1");
  EXPECT_EQ(I.Operands[1].Text, "%tid.x");
  EXPECT_EQ(I.Operands[4].Text, "-1");
}

TEST(StatementParserTest, RegisterDeclaration) {
  auto M = structure(".reg .v4 .f32 %f<5>, %g;");
  ASSERT_TRUE(M);
  Declaration D;
  ASSERT_FALSE(bool(parseDeclaration(*M, M->getStatement(1), D)));
  EXPECT_EQ(D.StateSpace, ".reg");
  EXPECT_EQ(D.Type, ".f32");
  ASSERT_EQ(D.Names.size(), 2u);
  EXPECT_EQ(D.Names[0].RangeCount, 5);
  EXPECT_EQ(D.Names[1].RangeCount, -1);
}

TEST(StatementParserTest, UnknownRegisterType) {
  auto M = structure(".reg .f33 %f;");
  ASSERT_TRUE(M);
  Declaration D;
  llvm::Error E = parseDeclaration(*M, M->getStatement(1), D);
  ASSERT_TRUE(bool(E));
  EXPECT_EQ(llvm::toString(std::move(E)),
            "s.ptx:2:6: error: unknown PTX type '.f33'\n"
            ".reg .f33 %f;\n"
            "     ^");
}

TEST(StatementParserTest, FunctionSignature) {
  auto M = structure(".visible .func (.param .b32 r) f(.param .b32 a, "
                     ".param .align 8 .b8 s[16]) .noreturn {}");
  ASSERT_TRUE(M);
  FunctionSignature F;
  ASSERT_FALSE(bool(parseFunctionSignature(*M, M->getStatement(1), F)));
  EXPECT_EQ(F.Name, "f");
  EXPECT_FALSE(F.IsEntry);
  ASSERT_EQ(F.Returns.size(), 1u);
  ASSERT_EQ(F.Params.size(), 2u);
  EXPECT_EQ(F.Params[1].Alignment, 8u);
  EXPECT_EQ(F.Params[1].Names[0].Dims[0], 16u);
  ASSERT_EQ(F.Attributes.size(), 1u);
  EXPECT_EQ(F.Attributes[0].first, ".noreturn");
}

TEST(StatementParserTest, MissingComma) {
  auto M = structure("add.f32 %f1 %f2;");
  ASSERT_TRUE(M);
  Instruction I;
  llvm::Error E = parseInstruction(*M, M->getStatement(1), I);
  ASSERT_TRUE(bool(E));
  EXPECT_EQ(llvm::toString(std::move(E)),
            "s.ptx:2:13: error: expected ',' or ';' after operand, found "
            "'%f2'\n"
            "add.f32 %f1 %f2;\n"
            "            ^");
}

TEST(StatementParserTest, PTXTypesAndStateSpaces) {
  for (const char *T :
       {".b8",     ".b16",        ".b32",    ".b64",    ".b128",    ".u8",
        ".u16",    ".u32",        ".u64",    ".s8",     ".s16",     ".s32",
        ".s64",    ".f16",        ".f16x2",  ".bf16",   ".bf16x2",  ".f32",
        ".f64",    ".pred",       ".tf32",   ".e4m3",   ".e5m2",    ".e4m3x2",
        ".e5m2x2", ".e2m1x2",     ".e2m3x2", ".e3m2x2", ".ue8m0x2", ".e2m1",
        ".texref", ".samplerref", ".surfref"})
    EXPECT_TRUE(isPTXType(T)) << T;
  for (const char *T :
       {"", ".", ".f", ".f33", "f32", ".F32", ".f32x", ".b1", ".b12", ".f16x4",
        ".reg", ".samplerre", ".samplerrefs", ".u64 ", ".e4m3x"})
    EXPECT_FALSE(isPTXType(T)) << T;
  // A name is compared as a whole, not as a prefix of the buffer.
  EXPECT_FALSE(isPTXType(llvm::StringRef(".f32", 3)));

  for (const char *S : {".reg", ".sreg", ".const", ".global", ".local",
                        ".param", ".shared", ".tex", ".sampler", ".surf"})
    EXPECT_TRUE(isStateSpace(S)) << S;
  for (const char *S : {"", ".re", ".regs", "reg", ".Reg", ".global_",
                        ".samplers", ".f32", ".texref"})
    EXPECT_FALSE(isStateSpace(S)) << S;
}

TEST(StatementParserTest, RangeOutsideRegPointsAtAngle) {
  auto M = structure(".local .f32 %f<2>;");
  ASSERT_TRUE(M);
  Declaration D;
  llvm::Error E = parseDeclaration(*M, M->getStatement(1), D);
  ASSERT_TRUE(bool(E));
  EXPECT_EQ(llvm::toString(std::move(E)),
            "s.ptx:2:15: error: '<N>' ranges are only allowed in .reg "
            "declarations\n"
            ".local .f32 %f<2>;\n"
            "              ^");
}

TEST(StatementParserTest, ManyOperandsAndReuse) {
  // More operands than the inline capacity, then a short instruction with
  // the same Instruction object: nothing of the first may remain.
  auto M = structure("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
                     "{%f1, %f2, %f3, %f4}, {%r1, %r2, %r3, %r4}, {%r5, %r6}, "
                     "{%f5, %f6, %f7, %f8};\n"
                     "ret;");
  ASSERT_TRUE(M);
  Instruction I;
  ASSERT_FALSE(bool(parseInstruction(*M, M->getStatement(1), I)));
  EXPECT_EQ(I.Modifiers.size(), 9u);
  ASSERT_EQ(I.Operands.size(), 18u);
  EXPECT_EQ(I.Operands[0].NumElements, 4u);
  EXPECT_EQ(I.Operands[17].Text, "%f8");
  ASSERT_FALSE(bool(parseInstruction(*M, M->getStatement(2), I)));
  EXPECT_EQ(I.Opcode, "ret");
  EXPECT_TRUE(I.Modifiers.empty());
  EXPECT_TRUE(I.Operands.empty());
  EXPECT_TRUE(I.Guard.empty());
}

TEST(StatementParserTest, TokensAfterNewlinesAndComments) {
  // Operands split over lines and comments (the lexer's slow path).
  auto M = structure("add.f32\n\t%f1, /* a */ %f2,\r\n// b\n  0f3F800000;");
  ASSERT_TRUE(M);
  Instruction I;
  ASSERT_FALSE(bool(parseInstruction(*M, M->getStatement(1), I)));
  EXPECT_EQ(I.Opcode, "add.f32");
  ASSERT_EQ(I.Operands.size(), 3u);
  EXPECT_EQ(I.Operands[1].Text, "%f2");
  EXPECT_EQ(I.Operands[2].Text, "0f3F800000");
}

TEST(StatementParserTest, VerifySkipsCommentsAndBraces) {
  auto M = structure("// % not a register\n{\n;\n}\n/* # */");
  ASSERT_TRUE(M);
  for (const Statement &S : M->statements())
    EXPECT_FALSE(bool(verifyStatement(*M, S)));
  EXPECT_FALSE(bool(verifyModule(*M)));
}

TEST(StatementParserTest, NamesBadByteInOperand) {
  auto M = structure("mov.u32 %r1, \x01;");
  ASSERT_TRUE(M);
  llvm::Error E = verifyModule(*M);
  ASSERT_TRUE(bool(E));
  EXPECT_NE(llvm::toString(std::move(E))
                .find("s.ptx:2:14: error: invalid byte 0x01 in PTX text"),
            std::string::npos);
}

//===----------------------------------------------------------------------===//
// Statement forms of real-world PTX (PTX ISA 9.x, sm_80 to sm_100a): one
// test per class, with lines that ptxas accepts.
//===----------------------------------------------------------------------===//

namespace {
/// Parses the one instruction \p Src into \p I; \returns the error text, or
/// "" on success.
std::string parseOne(llvm::StringRef Src, Instruction &I) {
  auto M = structure(Src);
  if (!M)
    return "structure failed";
  if (M->statements().size() != 2)
    return "not one statement";
  return llvm::toString(parseInstruction(*M, M->getStatement(1), I));
}
/// verifyModule() over \p Src; \returns the error text, or "".
std::string verify(llvm::StringRef Src) {
  auto M = structure(Src);
  if (!M)
    return "structure failed";
  return llvm::toString(verifyModule(*M));
}
} // namespace

TEST(StatementParserTest, SubQualifiers) {
  Instruction I;
  ASSERT_EQ(parseOne("ld.global.L2::128B.f32 %f1, [%rd1];", I), "");
  ASSERT_EQ(I.Modifiers.size(), 3u);
  EXPECT_EQ(I.Modifiers[1], "L2::128B");
  EXPECT_EQ(I.Opcode, "ld.global.L2::128B.f32");
  ASSERT_EQ(parseOne("fence.proxy.async.shared::cta;", I), "");
  EXPECT_EQ(I.Modifiers.back(), "shared::cta");
  EXPECT_TRUE(I.Operands.empty());
  ASSERT_EQ(
      parseOne("mbarrier.try_wait.parity.shared::cta.b64 %p1, [%r1], %r2;", I),
      "");
  EXPECT_EQ(I.Operands.size(), 3u);
  ASSERT_EQ(parseOne("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::"
                     "complete_tx::bytes [%r1], [%rd1, {%r2, %r3}], [%r4];",
                     I),
            "");
  EXPECT_EQ(I.Modifiers[6], "mbarrier::complete_tx::bytes");
  ASSERT_EQ(I.Operands.size(), 3u);
  EXPECT_EQ(I.Operands[1].K, Operand::Kind::Address);
  EXPECT_EQ(I.Operands[1].Text, "[%rd1, {%r2, %r3}]");
  ASSERT_EQ(
      parseOne("createpolicy.fractional.L2::evict_last.b64 policy, 1.0;", I),
      "");
  EXPECT_EQ(I.Operands[0].K, Operand::Kind::Symbol);
  EXPECT_EQ(I.Operands[1].K, Operand::Kind::Immediate);
  ASSERT_EQ(
      parseOne("cp.async.ca.shared.global.L2::128B [%r24], [%rd5], 16;", I),
      "");
  ASSERT_EQ(parseOne("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 "
                     "[%r1], 32;",
                     I),
            "");
  EXPECT_EQ(I.Modifiers[1], "cta_group::1");
  ASSERT_EQ(parseOne("tcgen05.wait::ld.sync.aligned;", I), "");
  EXPECT_EQ(I.Modifiers[0], "wait::ld");
}

TEST(StatementParserTest, ModifiersStartingWithADigit) {
  Instruction I;
  ASSERT_EQ(parseOne("tex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f5, "
                     "%f6}];",
                     I),
            "");
  EXPECT_EQ(I.Modifiers[0], "2d");
  ASSERT_EQ(I.Operands.size(), 6u);
  EXPECT_EQ(I.Operands[5].Text, "[%rd1, {%f5, %f6}]");
  ASSERT_EQ(
      parseOne("suld.b.2d.v2.b32.trap {%r1, %r2}, [%rd1, {%r3, %r4}];", I), "");
  EXPECT_EQ(I.Opcode, "suld.b.2d.v2.b32.trap");
  ASSERT_EQ(
      parseOne("tcgen05.ld.sync.aligned.32x32b.x2.b32 {%r5, %r6}, [%r3];", I),
      "");
  EXPECT_EQ(I.Modifiers[3], "32x32b");
}

TEST(StatementParserTest, PlainNamesAndPredicatePairs) {
  Instruction I;
  ASSERT_EQ(parseOne("shfl.sync.down.b32 r0|p, %r1, 1, 31, -1;", I), "");
  EXPECT_EQ(I.Operands[0].K, Operand::Kind::Symbol);
  EXPECT_EQ(I.Operands[0].Text, "r0|p");
  ASSERT_EQ(parseOne("elect.sync %r16|%p1, -1;", I), "");
  EXPECT_EQ(I.Operands[0].K, Operand::Kind::Register);
  EXPECT_EQ(I.Operands[0].Text, "%r16|%p1");
  ASSERT_EQ(parseOne("tex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}|%p3, [%rd1, {%f5, "
                     "%f6}];",
                     I),
            "");
  EXPECT_EQ(I.Operands[0].K, Operand::Kind::Vector);
  EXPECT_EQ(I.Operands[0].NumElements, 4u);
  EXPECT_EQ(I.Operands[0].Text, "{%f1, %f2, %f3, %f4}|%p3");
  ASSERT_EQ(parseOne("@!p bra $L__BB0_2;", I), "");
  EXPECT_EQ(I.Guard, "p");
}

TEST(StatementParserTest, ComponentsAndRegisterOffsets) {
  Instruction I;
  ASSERT_EQ(parseOne("mov.u32 temp1, input.x;", I), "");
  EXPECT_EQ(I.Operands[1].K, Operand::Kind::Symbol);
  EXPECT_EQ(I.Operands[1].Text, "input.x");
  ASSERT_EQ(parseOne("st.b16 [out_addr], x16_0.x;", I), "");
  EXPECT_EQ(I.Operands[1].Text, "x16_0.x");
  ASSERT_EQ(parseOne("add.s32 %r8, %r7, %r+1;", I), "");
  EXPECT_EQ(I.Operands[2].K, Operand::Kind::Opaque);
  EXPECT_EQ(I.Operands[2].Text, "%r+1");
  ASSERT_EQ(parseOne("vadd.s32.u32.s32 %r1, %r2.b0, %r3.h1;", I), "");
  EXPECT_EQ(I.Operands[1].Text, "%r2.b0");
  ASSERT_EQ(parseOne("ld.global.u32 %r1, [%rd1+-8];", I), "");
  EXPECT_EQ(I.Operands[1].Text, "[%rd1+-8]");
  ASSERT_EQ(parseOne("ld.global.u32 %r2, [table+8];", I), "");
  ASSERT_EQ(parseOne("mov.u64 %rd1, table+8;", I), "");
  EXPECT_EQ(I.Operands[1].K, Operand::Kind::Symbol);
  EXPECT_EQ(I.Operands[1].Text, "table+8");
}

TEST(StatementParserTest, NamesThatLookLikeLiterals) {
  Instruction I;
  ASSERT_EQ(parseOne("ld.param.f32 %fx, [coord_x];", I), "");
  EXPECT_EQ(I.Operands[0].K, Operand::Kind::Register);
  EXPECT_EQ(I.Operands[0].Text, "%fx");
  EXPECT_EQ(I.Operands[1].Text, "[coord_x]");
  ASSERT_EQ(parseOne("mov.f32 %f0f3F800000, %d0d;", I), "");
  EXPECT_EQ(I.Operands[0].Text, "%f0f3F800000");
}

TEST(StatementParserTest, ImmediateForms) {
  Instruction I;
  for (llvm::StringRef Imm : {"42",
                              "-1",
                              "0x1F",
                              "0X1f",
                              "017",
                              "0b101",
                              "0B11",
                              "42U",
                              "0x1FU",
                              "18446744073709551615",
                              "0xFFFFFFFFFFFFFFFF",
                              "01777777777777777777777",
                              "0x0000000000000000001",
                              "1.5",
                              "-1.5",
                              "1.",
                              ".5",
                              "1e3",
                              "1.e3",
                              "1.5E+3",
                              "0f3F800000",
                              "0F3F800000",
                              "0d3FF0000000000000",
                              "0D3FF0000000000000"}) {
    ASSERT_EQ(parseOne(("mov.b64 %rd1, " + Imm + ";").str(), I), "")
        << Imm.str();
    ASSERT_EQ(I.Operands.size(), 2u) << Imm.str();
    EXPECT_EQ(I.Operands[1].K, Operand::Kind::Immediate) << Imm.str();
    EXPECT_EQ(I.Operands[1].Text, Imm);
  }
  // Constant expressions are kept whole.
  for (llvm::StringRef Expr :
       {"(1 << 4) | 3", "~0", "10 % 3", "10/3", "1 ? 2 : 3", "-(3)", "!0",
        "3 >= 1", "3&&1", "2*(3+4)"}) {
    ASSERT_EQ(parseOne(("mov.u32 %r1, " + Expr + ";").str(), I), "")
        << Expr.str();
    ASSERT_EQ(I.Operands.size(), 2u) << Expr.str();
    EXPECT_EQ(I.Operands[1].K, Operand::Kind::Opaque) << Expr.str();
    EXPECT_EQ(I.Operands[1].Text, Expr);
  }
}

TEST(StatementParserTest, IntegerTooLargeForSixtyFourBits) {
  Instruction I;
  for (llvm::StringRef Imm :
       {"18446744073709551616", "0x10000000000000000",
        "0b1"
        "0000000000000000000000000000000000000000"
        "000000000000000000000000",
        "02000000000000000000000", "99999999999999999999U"}) {
    EXPECT_EQ(parseOne(("mov.u64 %rd1, " + Imm + ";").str(), I),
              "s.ptx:2:15: error: integer literal does not fit in 64 bits\n"
              "mov.u64 %rd1, " +
                  Imm.str() +
                  ";\n"
                  "              ^")
        << Imm.str();
  }
  EXPECT_NE(verify(".global .u64 g = 18446744073709551616;")
                .find("s.ptx:2:18: error: integer literal does not fit"),
            std::string::npos);
  EXPECT_NE(verify("ld.global.u32 %r1, [%rd1+18446744073709551616];")
                .find("s.ptx:2:26: error: integer literal does not fit"),
            std::string::npos);
}

TEST(StatementParserTest, TextureSurfaceAndTensorOperands) {
  Instruction I;
  for (llvm::StringRef Src :
       {"tex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [tex_ref, {%f5, %f6}];",
        "tex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [tex_ref, smp, {%f5, %f6}];",
        "tex.grad.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f5, %f6}], "
        "{%f7, %f8}, {%f9, %f10};",
        "tld4.r.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f5, %f6}];",
        "txq.width.b32 %r14, [%rd1];",
        "sust.b.2d.v4.b32.trap [%rd1, {%r1, %r2}], {%r3, %r4, %r5, %r6};",
        "sured.b.add.2d.u32.trap [%rd1, {%r1, %r2}], %r3;",
        "cp.reduce.async.bulk.tensor.2d.global.shared::cta.add.tile."
        "bulk_group [%rd1, {%r1, %r2}], [%r3];"})
    EXPECT_EQ(parseOne(Src, I), "") << Src.str();
}

TEST(StatementParserTest, WgmmaAndTcgen05OperandLists) {
  Instruction I;
  ASSERT_EQ(parseOne("wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16 "
                     "{%f1, %f2, %f3, %f4}, %rd1, %rd2, p, 1, 1, 0, 1;",
                     I),
            "");
  ASSERT_EQ(I.Operands.size(), 12u);
  EXPECT_EQ(I.Operands[7].Text, "p");
  ASSERT_EQ(parseOne("tcgen05.mma.cta_group::1.kind::f16 [%r3], %rd2, %rd3, "
                     "%r4, p;",
                     I),
            "");
  EXPECT_EQ(I.Modifiers[2], "kind::f16");
  ASSERT_EQ(parseOne("tcgen05.commit.cta_group::1.mbarrier::arrive::one."
                     "shared::cluster.b64 [%r2];",
                     I),
            "");
  ASSERT_EQ(parseOne("tcgen05.st.sync.aligned.32x32b.x2.b32 [%r3], {%r5, "
                     "%r6};",
                     I),
            "");
}

TEST(StatementParserTest, CallsAndTargets) {
  Instruction I;
  ASSERT_EQ(parseOne("call (retval0), %rd8, (param0), prototype_0;", I), "");
  EXPECT_EQ(I.Operands[0].K, Operand::Kind::List);
  EXPECT_EQ(I.Operands[5].Text, "prototype_0");
  ASSERT_EQ(parseOne("call.uni alias_target, (param0);", I), "");
  EXPECT_EQ(verify("prototype_0 : .callprototype (.param .b32 _) _ (.param "
                   ".b32 _);\n"
                   "ts: .branchtargets $L__BB0_3, $L__BB0_4;\n"
                   "Ftgt: .calltargets indirect;\n"),
            "");
}

TEST(StatementParserTest, ModuleDirectives) {
  EXPECT_EQ(verify(".target sm_90a\n.address_size 64\n"
                   ".alias alias_name, alias_target;\n"
                   ".pragma \"nounroll\";\n"
                   ".loc 1 12 5, function_name $L__info_string0, inlined_at "
                   "1 10 3\n"
                   ".file 1 \"/tmp/g.cu\", 1700000000, 1234\n"
                   ".weak .global .align 4 .u32 w;\n"
                   ".common .global .align 8 .u64 c;\n"
                   ".global .attribute(.managed) .align 4 .u32 m;\n"
                   ".global .align 8 .u64 n[2][2] = {{1, 2}, {3, 0x4}};\n"
                   ".global .align 8 .u64 p = generic(table);\n"
                   ".global .align 8 .u64 q = table+8;\n"
                   ".global .u8 b[3] = {0xff(t), 0xff00(generic(t)+4), "
                   "mask(0xff, t)};\n"
                   ".global .align 4 .f32 f[4] = {0f3F800000, 1.5, .5, 1.};\n"
                   ".global .texref t;\n.global .surfref s;\n"
                   ".section .debug_str\n{\n$L__info_string0:\n"
                   ".b8 95,90,0\n.b8 1,\n2\n}\n"),
            "");
}

TEST(StatementParserTest, ClusterAndAbiHeaderDirectives) {
  auto M =
      structure(".visible .entry k(.param .u64 .ptr .global .align 16 a)"
                " .maxntid 128, 1, 1 .explicitcluster "
                ".reqnctapercluster 2, 1, 1\n{\nret;\n}\n"
                ".entry c .maxclusterrank 8\n{\nret;\n}\n"
                ".func abi .abi_preserve 8 .abi_preserve_control 4\n"
                "{\nret;\n}\n"
                ".entry p .pragma \"nounroll\"; .maxntid 32\n{\nret;\n}\n");
  ASSERT_TRUE(M);
  ASSERT_EQ(M->functions().size(), 4u);
  FunctionSignature F;
  ASSERT_FALSE(bool(parseFunctionSignature(
      *M, M->getStatement(M->functions()[0].Header), F)));
  ASSERT_EQ(F.Attributes.size(), 3u);
  EXPECT_EQ(F.Attributes[1].first, ".explicitcluster");
  EXPECT_EQ(F.Attributes[2].second, "2, 1, 1");
  ASSERT_EQ(F.Params.size(), 1u);
  EXPECT_EQ(F.Params[0].Qualifiers[1], ".ptr");
  for (const Function &Fn : M->functions())
    EXPECT_NE(Fn.BodyBegin, Statement::NoIndex);
  FunctionSignature P;
  ASSERT_FALSE(bool(parseFunctionSignature(
      *M, M->getStatement(M->functions()[3].Header), P)));
  EXPECT_FALSE(P.IsPrototype);
  ASSERT_EQ(P.Attributes.size(), 2u);
  EXPECT_EQ(P.Attributes[0].first, ".pragma");
  EXPECT_EQ(P.Attributes[1].first, ".maxntid");
  EXPECT_EQ(llvm::toString(verifyModule(*M)), "");
}

TEST(StatementParserTest, MultiLineDeclaration) {
  auto M = structure(".global .align 4 .u32 a,\n\tb;\n.reg .b32 %r1,\n%r2;\n");
  ASSERT_TRUE(M);
  ASSERT_EQ(M->statements().size(), 3u);
  Declaration D;
  ASSERT_FALSE(bool(parseDeclaration(*M, M->getStatement(2), D)));
  ASSERT_EQ(D.Names.size(), 2u);
  EXPECT_EQ(D.Names[1].Name, "%r2");
}

TEST(StatementParserTest, UnknownTypeInAnyStateSpace) {
  // `.reg .f33` and `.global .f33` are the same mistake.
  EXPECT_EQ(verify(".global .f33 g;"),
            "s.ptx:2:9: error: unknown PTX type '.f33'\n"
            ".global .f33 g;\n"
            "        ^");
  EXPECT_EQ(verify(".shared .align 4 .u33 s;"),
            "s.ptx:2:18: error: unknown PTX type '.u33'\n"
            ".shared .align 4 .u33 s;\n"
            "                 ^");
  EXPECT_EQ(verify(".const .b8 c[2] = {1, 2};\n.param .u64 .ptr .global p;"),
            "");
}
