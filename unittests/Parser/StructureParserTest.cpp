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
      StmtKind::Directive,      StmtKind::Directive,   StmtKind::Directive,
      StmtKind::FunctionHeader, StmtKind::ScopeBegin,  StmtKind::Directive,
      StmtKind::Label,          StmtKind::Instruction, StmtKind::Comment,
      StmtKind::ScopeBegin,     StmtKind::Instruction, StmtKind::ScopeEnd,
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
  EXPECT_NE(Msg.find("t.ptx:5:1: error: unterminated scope"), std::string::npos)
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

namespace {
/// Parses \p Src structurally, after a `.version` line unless it starts
/// with one: then the statements of \p Src start at index 1.
std::unique_ptr<Module> structureOf(llvm::StringRef Src) {
  std::string Text =
      Src.startswith(".version") ? Src.str() : ".version 9.0\n" + Src.str();
  auto M = parsePTXString(Text, "t.ptx", /*Verify=*/false);
  EXPECT_TRUE(bool(M)) << Src.str();
  if (!M) {
    llvm::consumeError(M.takeError());
    return nullptr;
  }
  return std::move(*M);
}
std::string errorOf(llvm::StringRef Src, bool Verify = false) {
  auto M = parsePTXString(Src, "t.ptx", Verify);
  if (M)
    return "";
  return llvm::toString(M.takeError());
}
} // namespace

TEST(StructureParserTest, InjectMarkerAtEveryOffset) {
  // The marker is found whatever its position relative to the 16-byte
  // blocks of the scan, in line and block comments; a marker broken by the
  // end of the line, or cut short, is not.
  for (unsigned Pad = 0; Pad < 40; ++Pad) {
    std::string Fill(Pad, 'x');
    for (const char *Tail : {"", " tail", "\r"}) {
      std::string Src = "// " + Fill + "PTX_INJECT_START f" + Tail + "\nret;";
      auto M = structureOf(Src);
      ASSERT_TRUE(M);
      EXPECT_TRUE(M->getStatement(1).Flags & SF_KeywordComment) << Src;
      EXPECT_EQ(M->getStatement(2).Kind, StmtKind::Instruction);

      std::string Block = "/* " + Fill + "MMPTX_INJECT */" + Tail + "\nret;";
      auto B = structureOf(Block);
      ASSERT_TRUE(B);
      EXPECT_TRUE(B->getStatement(1).Flags & SF_KeywordComment) << Block;
    }
    for (const char *Near : {"PTX_INJEC", "PTX_INJE\nCT", "PTX_IN JECT",
                             "ptx_inject", "JPTX_INJEC", "PTX_JNJECT"}) {
      std::string Src = "// " + Fill + Near + "\nret;";
      auto M = structureOf(Src);
      ASSERT_TRUE(M);
      EXPECT_FALSE(M->getStatement(1).Flags & SF_KeywordComment) << Src;
    }
  }
  // At the very end of the input, without a newline.
  auto M = structureOf("ret;\n// PTX_INJECT_END");
  ASSERT_TRUE(M);
  EXPECT_TRUE(M->getStatement(2).Flags & SF_KeywordComment);
  EXPECT_EQ(M->getText(M->getStatement(2)), "// PTX_INJECT_END");
}

TEST(StructureParserTest, InlineAsmBrackets) {
  auto M = structureOf("//begin inline asm\t\r\n"
                       "{ mov.u32 %r1, 1; }\n"
                       "//   end inline asm   \n"
                       "// begin inline asm x\n"
                       "ret;");
  ASSERT_TRUE(M);
  EXPECT_EQ(M->getStatement(1).Flags, SF_BeginInlineAsm);
  EXPECT_EQ(M->getText(M->getStatement(1)), "//begin inline asm\t");
  EXPECT_EQ(M->getStatement(3).Flags, SF_InInlineAsm);
  EXPECT_EQ(M->getStatement(5).Flags, SF_EndInlineAsm);
  EXPECT_EQ(M->getStatement(6).Flags, 0);
  EXPECT_EQ(M->getStatement(7).Flags, 0);
}

TEST(StructureParserTest, LabelsAndColons) {
  // Names have no dots: the ':' of a sub-qualifier ends no label.
  auto M = structureOf("$L1 :\tld.global.L2::128B.f32 %f1, [%rd1];\n"
                       "a.b:\n@%p1 bra $L1;\nfoo bar: baz;\n"
                       "prototype_0 : .callprototype ()_ (.param .b32 _);");
  ASSERT_TRUE(M);
  std::vector<std::pair<StmtKind, std::string>> Got;
  for (const Statement &S : M->statements().drop_front())
    Got.push_back({S.Kind, M->getText(S).str()});
  std::vector<std::pair<StmtKind, std::string>> Want = {
      {StmtKind::Label, "$L1 :"},
      {StmtKind::Instruction, "ld.global.L2::128B.f32 %f1, [%rd1];"},
      {StmtKind::Instruction, "a.b:\n@%p1 bra $L1;"},
      {StmtKind::Instruction, "foo bar: baz;"},
      {StmtKind::Label, "prototype_0 :"},
      {StmtKind::Directive, ".callprototype ()_ (.param .b32 _);"}};
  EXPECT_EQ(Got, Want);
}

TEST(StructureParserTest, DirectiveExtents) {
  auto M = structureOf(".version 9.0   \t\n"
                       ".loc 1 2 3 // where\n"
                       ".pragma \"a;b\";\n"
                       ".global .b8 s[4] = {1, /* } */ 2,\n 3, 4};\n"
                       ".file 1 \"k.cu\", 1, 2");
  ASSERT_TRUE(M);
  std::vector<std::string> Texts;
  for (const Statement &S : M->statements())
    Texts.push_back(M->getText(S).str());
  std::vector<std::string> Want = {".version 9.0",
                                   ".loc 1 2 3",
                                   "// where",
                                   ".pragma \"a;b\";",
                                   ".global .b8 s[4] = {1, /* } */ 2,\n 3, 4};",
                                   ".file 1 \"k.cu\", 1, 2"};
  EXPECT_EQ(Texts, Want);
}

TEST(StructureParserTest, LongAndShortInstructions) {
  // Instruction extents on both sides of the 16-byte scan.
  for (unsigned Len = 0; Len < 48; ++Len) {
    std::string Src = "mov.u32 %r1, a" + std::string(Len, 'b') + ";";
    auto M = structureOf(Src + "\n" + Src);
    ASSERT_TRUE(M);
    ASSERT_EQ(M->size(), 3u);
    EXPECT_EQ(M->getText(M->getStatement(2)), Src);
  }
}

TEST(StructureParserTest, FunctionNames) {
  auto M = structureOf(".func (.param .b32 r) f(.param .b32 a) { ret; }\n"
                       ".visible\n.entry\tk_2$x() { ret; }\n"
                       ".func g(.param .b32 e_entry);");
  ASSERT_TRUE(M);
  ASSERT_EQ(M->functions().size(), 3u);
  EXPECT_EQ(M->functions()[0].Name, "f");
  EXPECT_FALSE(M->functions()[0].IsEntry);
  EXPECT_EQ(M->functions()[1].Name, "k_2$x");
  EXPECT_TRUE(M->functions()[1].IsEntry);
  EXPECT_EQ(M->functions()[2].Name, "g");
  EXPECT_FALSE(M->functions()[2].IsEntry);
  EXPECT_FALSE(M->functions()[2].isDefinition());

  EXPECT_EQ(errorOf(".entry (.param .u64 p) {}"),
            "t.ptx:1:8: error: expected function name, found '('\n"
            ".entry (.param .u64 p) {}\n"
            "       ^");
  EXPECT_EQ(errorOf(".func (.param .b32 r // )\n) {}").substr(0, 40),
            "t.ptx:2:2: error: expected function name");
}

TEST(StructureParserTest, EmptyModuleIsReportedAtItsEnd) {
  EXPECT_EQ(errorOf(""), "t.ptx:1:1: error: empty PTX module: expected a "
                         "'.version' directive\n\n^");
  EXPECT_EQ(errorOf("\n\n").substr(0, 11), "t.ptx:3:1: ");
}

TEST(StructureParserTest, ModuleWithoutVersion) {
  // Comments and blanks only are as empty as an empty file.
  EXPECT_EQ(errorOf("// only a comment\n"),
            "t.ptx:2:1: error: empty PTX module: expected a '.version' "
            "directive\n\n^");
  EXPECT_NE(errorOf("\r\r\r").find(
                "error: empty PTX module: expected a '.version' directive"),
            std::string::npos);
  EXPECT_EQ(errorOf("/* a */ ;\n// b\n"),
            "t.ptx:3:1: error: empty PTX module: expected a '.version' "
            "directive\n\n^");
  // Anything else must come after it.
  EXPECT_EQ(errorOf("// c\n.target sm_80\n.version 9.0\n"),
            "t.ptx:2:1: error: expected a '.version' directive before the "
            "first statement\n.target sm_80\n^");
  EXPECT_EQ(errorOf(".versions 9.0\n").substr(0, 35),
            "t.ptx:1:1: error: expected a '.vers");
  EXPECT_EQ(errorOf("// c\n.version 9.0\n"), "");
  // C preprocessor output starts with line markers.
  EXPECT_EQ(errorOf("# 1 \"k.ptx\"\n#line 1 \"k.ptx\"\n.version 9.0\n", true),
            "");
  EXPECT_EQ(errorOf("# 1 \"k.ptx\"\n").substr(0, 62),
            "t.ptx:2:1: error: empty PTX module: expected a '.version' dire");
}

TEST(StructureParserTest, RealWorldStatementExtents) {
  auto M = structureOf(
      "cp.async.ca.shared.global.L2::128B [%r24], [%rd5], 16;\n"
      "$L1:\n"
      ".reg .b32 %r1,\n\t%r2; // two lines\n"
      ".b8 1,\n2\n"
      ".b8 3, // more\n4 // last\n"
      ".loc 1 2 3, function_name $L__info_string0, inlined_at 1 4 5\n"
      "x: .branchtargets $L1, $L2;\n");
  ASSERT_TRUE(M);
  std::vector<std::pair<StmtKind, std::string>> Got;
  for (const Statement &S : M->statements().drop_front())
    Got.push_back({S.Kind, M->getText(S).str()});
  std::vector<std::pair<StmtKind, std::string>> Want = {
      {StmtKind::Instruction,
       "cp.async.ca.shared.global.L2::128B [%r24], [%rd5], 16;"},
      {StmtKind::Label, "$L1:"},
      {StmtKind::Directive, ".reg .b32 %r1,\n\t%r2;"},
      {StmtKind::Comment, "// two lines"},
      {StmtKind::Directive, ".b8 1,\n2"},
      {StmtKind::Directive, ".b8 3, // more\n4"},
      {StmtKind::Comment, "// last"},
      {StmtKind::Directive,
       ".loc 1 2 3, function_name $L__info_string0, inlined_at 1 4 5"},
      {StmtKind::Label, "x:"},
      {StmtKind::Directive, ".branchtargets $L1, $L2;"}};
  EXPECT_EQ(Got, Want);
}

TEST(StructureParserTest, PragmaInFunctionHeader) {
  // `;` ends a `.pragma` of a header that goes on; a prototype still ends
  // at its `;`.
  auto M =
      structureOf(".entry p .pragma \"nounroll\"; .maxntid 32\n{\nret;\n}\n"
                  ".entry q .pragma \"a;b\";\n// c\n{\nret;\n}\n"
                  ".func r .pragma \"nounroll\";\n.global .u32 g;\n");
  ASSERT_TRUE(M);
  ASSERT_EQ(M->functions().size(), 3u);
  EXPECT_EQ(M->getText(M->getStatement(M->functions()[0].Header)),
            ".entry p .pragma \"nounroll\"; .maxntid 32");
  EXPECT_TRUE(M->functions()[0].isDefinition());
  EXPECT_TRUE(M->functions()[1].isDefinition());
  EXPECT_FALSE(M->functions()[2].isDefinition());
  EXPECT_EQ(M->getText(M->getStatement(M->functions()[2].Header)),
            ".func r .pragma \"nounroll\";");
}

TEST(StructureParserTest, EveryPrefixFailsCleanly) {
  // Cutting a module anywhere gives a module or a located error.
  std::string Src = std::string(Kernel) +
                    ".global .b8 s[2] = {1, 2};\n.file 1 \"a.cu\"\n/* c */\n";
  for (size_t N = 0; N <= Src.size(); ++N) {
    auto M = parsePTXString(Src.substr(0, N), "p.ptx");
    if (M)
      continue;
    std::string Msg = llvm::toString(M.takeError());
    EXPECT_EQ(Msg.rfind("p.ptx:", 0), 0u) << N << ": " << Msg;
  }
}
