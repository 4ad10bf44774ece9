//===- StatementParserTest.cpp - Tests for on-demand parsing --------------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "mmptx/Parser/Parser.h"
#include "mmptx/Parser/StatementParser.h"

#include "gtest/gtest.h"

using namespace mmptx;
using namespace mmptx::ptx;

namespace {
/// Parses \p Src structurally and returns the module.
std::unique_ptr<Module> structure(llvm::StringRef Src) {
  auto M = parsePTXString(Src, "s.ptx", /*Verify=*/false);
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
  ASSERT_FALSE(bool(parseInstruction(*M, M->getStatement(0), I)));
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
  ASSERT_FALSE(bool(parseInstruction(*M, M->getStatement(0), I)));
  ASSERT_EQ(I.Operands.size(), 6u);
  EXPECT_EQ(I.Operands[0].K, Operand::Kind::List);
  EXPECT_EQ(I.Operands[2].Text, "_Z2sqf");
  EXPECT_EQ(I.Operands[3].NumElements, 2u);
}

TEST(StatementParserTest, SetpPairAndVectorComponent) {
  auto M = structure("shfl.sync.down.b32 %r10|%p1, %tid.x, 1, 31, -1;");
  ASSERT_TRUE(M);
  Instruction I;
  ASSERT_FALSE(bool(parseInstruction(*M, M->getStatement(0), I)));
  EXPECT_EQ(I.Operands[0].Text, "%r10|%p1");
  EXPECT_EQ(I.Operands[1].Text, "%tid.x");
  EXPECT_EQ(I.Operands[4].Text, "-1");
}

TEST(StatementParserTest, RegisterDeclaration) {
  auto M = structure(".reg .v4 .f32 %f<5>, %g;");
  ASSERT_TRUE(M);
  Declaration D;
  ASSERT_FALSE(bool(parseDeclaration(*M, M->getStatement(0), D)));
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
  llvm::Error E = parseDeclaration(*M, M->getStatement(0), D);
  ASSERT_TRUE(bool(E));
  EXPECT_EQ(llvm::toString(std::move(E)),
            "s.ptx:1:6: error: unknown PTX type '.f33'\n"
            ".reg .f33 %f;\n"
            "     ^");
}

TEST(StatementParserTest, FunctionSignature) {
  auto M = structure(".visible .func (.param .b32 r) f(.param .b32 a, "
                     ".param .align 8 .b8 s[16]) .noreturn {}");
  ASSERT_TRUE(M);
  FunctionSignature F;
  ASSERT_FALSE(bool(parseFunctionSignature(*M, M->getStatement(0), F)));
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
  llvm::Error E = parseInstruction(*M, M->getStatement(0), I);
  ASSERT_TRUE(bool(E));
  EXPECT_EQ(llvm::toString(std::move(E)),
            "s.ptx:1:13: error: expected ',' or ';' after operand, found "
            "'%f2'\n"
            "add.f32 %f1 %f2;\n"
            "            ^");
}

TEST(StatementParserTest, PTXTypesAndStateSpaces) {
  for (const char *T :
       {".b8", ".b16", ".b32", ".b64", ".b128", ".u8", ".u16", ".u32", ".u64",
        ".s8", ".s16", ".s32", ".s64", ".f16", ".f16x2", ".bf16", ".bf16x2",
        ".f32", ".f64", ".pred", ".tf32", ".e4m3", ".e5m2", ".e4m3x2",
        ".e5m2x2", ".e2m1x2", ".e2m3x2", ".e3m2x2", ".ue8m0x2", ".e2m1",
        ".texref", ".samplerref", ".surfref"})
    EXPECT_TRUE(isPTXType(T)) << T;
  for (const char *T : {"", ".", ".f", ".f33", "f32", ".F32", ".f32x", ".b1",
                        ".b12", ".f16x4", ".reg", ".samplerre", ".samplerrefs",
                        ".u64 ", ".e4m3x"})
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
  llvm::Error E = parseDeclaration(*M, M->getStatement(0), D);
  ASSERT_TRUE(bool(E));
  EXPECT_EQ(llvm::toString(std::move(E)),
            "s.ptx:1:15: error: '<N>' ranges are only allowed in .reg "
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
  ASSERT_FALSE(bool(parseInstruction(*M, M->getStatement(0), I)));
  EXPECT_EQ(I.Modifiers.size(), 9u);
  ASSERT_EQ(I.Operands.size(), 18u);
  EXPECT_EQ(I.Operands[0].NumElements, 4u);
  EXPECT_EQ(I.Operands[17].Text, "%f8");
  ASSERT_FALSE(bool(parseInstruction(*M, M->getStatement(1), I)));
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
  ASSERT_FALSE(bool(parseInstruction(*M, M->getStatement(0), I)));
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
                .find("s.ptx:1:14: error: invalid byte 0x01 in PTX text"),
            std::string::npos);
}
