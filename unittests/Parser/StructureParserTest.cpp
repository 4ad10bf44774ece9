//===- StructureParserTest.cpp - Tests for the structural pass ------------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "mmptx/Parser/Parser.h"
#include "mmptx/Printer/Printer.h"

#include "gtest/gtest.h"

using namespace mmptx;
using namespace mmptx::ptx;

static const char *Kernel = ".version 9.0\n"
                            ".target sm_80\n"
                            ".address_size 64\n"
                            "\n"
                            ".visible .entry k(\n"
                            "\t.param .u64 p\n"
                            ")\n"
                            "{\n"
                            "\t.reg .f32 %f<3>;\n"
                            "$L1:\n"
                            "\t@!%p1 bra $L1; // loop\n"
                            "\t{\n"
                            "\tret;\n"
                            "\t}\n"
                            "}\n";

TEST(StructureParserTest, ClassifiesStatements) {
  auto M = parsePTXString(Kernel, "k.ptx");
  ASSERT_TRUE(bool(M)) << llvm::toString(M.takeError());
  std::vector<StmtKind> Kinds;
  for (const Statement &S : (*M)->statements())
    Kinds.push_back(S.Kind);
  std::vector<StmtKind> Want = {
      StmtKind::Directive,  StmtKind::Directive,   StmtKind::Directive,
      StmtKind::FunctionHeader, StmtKind::ScopeBegin, StmtKind::Directive,
      StmtKind::Label,      StmtKind::Instruction, StmtKind::Comment,
      StmtKind::ScopeBegin, StmtKind::Instruction, StmtKind::ScopeEnd,
      StmtKind::ScopeEnd};
  EXPECT_EQ(Kinds, Want);
  EXPECT_EQ((*M)->headerDirectives().size(), 3u);
}

TEST(StructureParserTest, LinksFunctionBodies) {
  auto M = parsePTXString(Kernel, "k.ptx");
  ASSERT_TRUE(bool(M)) << llvm::toString(M.takeError());
  ASSERT_EQ((*M)->functions().size(), 1u);
  const Function &F = (*M)->functions()[0];
  EXPECT_EQ(F.Name, "k");
  EXPECT_TRUE(F.IsEntry);
  EXPECT_EQ(F.BodyBegin, 4u);
  EXPECT_EQ(F.BodyEnd, 12u);
  EXPECT_EQ((*M)->getStatement(9).Link, 11u);
  EXPECT_EQ((*M)->getStatement(10).Depth, 2u);
}

TEST(StructureParserTest, RoundTripsCRLFAndNoFinalNewline) {
  std::string Src = ".version 9.0\r\n// c\r\n.target sm_80\r\n\t ret;";
  auto M = parsePTXString(Src, "crlf.ptx", /*Verify=*/false);
  ASSERT_TRUE(bool(M)) << llvm::toString(M.takeError());
  EXPECT_EQ(printModuleToString(**M), Src);
  EXPECT_EQ((*M)->getText((*M)->getStatement(1)), "// c");
}

TEST(StructureParserTest, ReportsUnterminatedScope) {
  auto M = parsePTXString(".version 9.0\n.entry k()\n{\nret;\n", "t.ptx");
  ASSERT_FALSE(bool(M));
  std::string Msg = llvm::toString(M.takeError());
  EXPECT_NE(Msg.find("t.ptx:5:1: error: unterminated scope"),
            std::string::npos)
      << Msg;
  EXPECT_NE(Msg.find("t.ptx:3:1: note: scope opened here"), std::string::npos)
      << Msg;
}

TEST(StructureParserTest, ReportsNulByte) {
  std::string Src(".version 9.0\n\0ret;", 18);
  auto M = parsePTXString(Src, "nul.ptx");
  ASSERT_FALSE(bool(M));
  EXPECT_NE(llvm::toString(M.takeError())
                .find("nul.ptx:2:1: error: invalid NUL byte"),
            std::string::npos);
}

TEST(StructureParserTest, InitializerBracesAreNotScopes) {
  auto M = parsePTXString(
      ".version 9.0\n.global .b32 a[2] = {1, 2};\n.section .x\n{\n.b8 1\n}\n",
      "i.ptx");
  ASSERT_TRUE(bool(M)) << llvm::toString(M.takeError());
  EXPECT_EQ((*M)->getStatement(1).Kind, StmtKind::Directive);
  EXPECT_EQ((*M)->getStatement(2).Link, 3u);
}
