//===- AnnotateTest.cpp - Comment-form rewriter tests ---------------------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "mmptx/Annotate/Annotate.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

using namespace llvm;
using namespace mmptx::annotate;

namespace {

/// Rewrites \p Src; \returns the output, or "error: <message>". Most tests
/// look at the asm alone, so `#line` directives are off unless asked for.
std::string rewrite(StringRef Src, unsigned *NumSites = nullptr,
                    bool LineDirectives = false,
                    StringRef Name = "TestBuffer") {
  SourceMgr Sm;
  unsigned Id =
      Sm.AddNewSourceBuffer(MemoryBuffer::getMemBufferCopy(Src, Name), SMLoc());
  TypeTable Types = TypeTable::getDefault();
  std::string Out;
  raw_string_ostream Os(Out);
  AnnotateOptions Opts;
  Opts.LineDirectives = LineDirectives;
  Expected<unsigned> N = annotateSource(Sm, Id, Types, Os, Opts);
  if (!N)
    return "error: " + toString(N.takeError());
  if (NumSites)
    *NumSites = *N;
  return Os.str();
}

/// Whether \p Text contains \p Part; a failure shows both.
::testing::AssertionResult contains(StringRef Text, StringRef Part) {
  if (Text.contains(Part))
    return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "'" << Part.str() << "' is not in:\n"
                                       << Text.str();
}

TEST(AnnotateTest, TextWithoutSitesIsCopied) {
  StringRef Src = "int a;\r\n/* other comment */\n// /* PTX_INJECT f\nlast";
  unsigned N = 99;
  EXPECT_EQ(rewrite(Src, &N), Src);
  EXPECT_EQ(N, 0u);
}

TEST(AnnotateTest, HeadersInCommentsAndLiteralsAreText) {
  // Rewriting the inner header would let the outer comment swallow code.
  StringRef Nested = "/* disabled for now:\n"
                     "/* PTX_INJECT h\n"
                     "   in f32 x\n"
                     "*/\n"
                     "y = 1.0f;\n"
                     "/* store */\n";
  unsigned N = 99;
  EXPECT_EQ(rewrite(Nested, &N), Nested);
  EXPECT_EQ(N, 0u);
  for (StringRef Src : {
           StringRef("// x \\\n/* PTX_INJECT f */\n"),
           StringRef("// x \\\r\n/* PTX_INJECT f */\r\n"),
           StringRef("s = \"\\\"/* PTX_INJECT f */\";\n"),
           StringRef("s = \"\\\n/* PTX_INJECT f */\";\n"),
           StringRef("s = R\"(\n/* PTX_INJECT f\nin f32 x\n*/)\";\n"),
           StringRef("s = LR\"-(\n)\"\n/* PTX_INJECT f */)-\";\n"),
           StringRef("c = '\"'; /* a */ s = \"/* PTX_INJECT f */\";\n"),
       })
    EXPECT_EQ(rewrite(Src), Src);
}

TEST(AnnotateTest, SitesAfterTrickyTokensAreFound) {
  for (StringRef Before :
       {"/* a /* b */", "s = \"*/\";", "c = '\\'';", "n = 1'0'0;",
        "s = R\"x()\")x\";", "s = \"a\\\nb\";", "f(R\"\" /* x */);"}) {
    unsigned N = 0;
    std::string Out =
        rewrite((Before + "\n/* PTX_INJECT f\nin f32 x\n*/\n").str(), &N);
    EXPECT_EQ(N, 1u) << Before.str() << "\n" << Out;
  }
}

TEST(AnnotateTest, PrintsTheHeaderAsmExactly) {
  unsigned N = 0;
  EXPECT_EQ(rewrite("  /* PTX_INJECT f\n"
                    "     out f32 z\n"
                    "     in  f32 x\n"
                    "     mod f32 y\n"
                    "  */\n",
                    &N),
            "  asm volatile(\n"
            "      \"{\\n\\t\"\n"
            "      \".reg .f32 %%_x0;\\n\\t\"\n"
            "      \".reg .f32 %%_x1;\\n\\t\"\n"
            "      \".reg .f32 %%_x2;\\n\\t\"\n"
            "      \"mov.f32 %%_x1, %2;\\n\\t\"\n"
            "      \"mov.f32 %%_x2, %1;\\n\\t\"\n"
            "      \"// MMPTX_INJECT_BEGIN f 3\\n\\t\"\n"
            "      \"// MMPTX_INJECT_ARG 0 out f32 F32 z\\n\\t\"\n"
            "      \"// MMPTX_INJECT_ARG 1 in f32 F32 x\\n\\t\"\n"
            "      \"// MMPTX_INJECT_ARG 2 mod f32 F32 y\\n\\t\"\n"
            "      \"// MMPTX_INJECT_END f\\n\\t\"\n"
            "      \"mov.f32 %0, %%_x0;\\n\\t\"\n"
            "      \"mov.f32 %1, %%_x2;\\n\\t\"\n"
            "      \"}\"\n"
            "      : \"=f\"(z), \"+f\"(y)\n"
            "      : \"f\"(x));\n");
  EXPECT_EQ(N, 1u);
}

TEST(AnnotateTest, LineDirectivesMapBackToTheSource) {
  // The asm counts from the header's line, its operand lists are the last
  // two lines of the site, and what follows the site keeps its line.
  EXPECT_EQ(rewrite("a;\n"
                    "  /* PTX_INJECT f\n"
                    "     in f32 x\n"
                    "\n"
                    "  */ b;\n"
                    "c;\n",
                    nullptr, /*LineDirectives=*/true, "dir\\k \"1\".cu"),
            "a;\n"
            "#line 2 \"dir\\\\k \\\"1\\\".cu\"\n"
            "  asm volatile(\n"
            "      \"{\\n\\t\"\n"
            "      \".reg .f32 %%_x0;\\n\\t\"\n"
            "      \"mov.f32 %%_x0, %0;\\n\\t\"\n"
            "      \"// MMPTX_INJECT_BEGIN f 1\\n\\t\"\n"
            "      \"// MMPTX_INJECT_ARG 0 in f32 F32 x\\n\\t\"\n"
            "      \"// MMPTX_INJECT_END f\\n\\t\"\n"
            "      \"}\"\n"
            "#line 4 \"dir\\\\k \\\"1\\\".cu\"\n"
            "      :\n"
            "      : \"f\"(x)); b;\n"
            "#line 6 \"dir\\\\k \\\"1\\\".cu\"\n"
            "c;\n");
  // CRLF stays CRLF; nothing follows a site at the end of the buffer.
  std::string Out = rewrite("/* PTX_INJECT f\r\nin f32 x\r\n*/\r\n", nullptr,
                            /*LineDirectives=*/true);
  EXPECT_EQ(StringRef(Out).take_front(25), "#line 1 \"TestBuffer\"\r\nasm");
  EXPECT_TRUE(contains(Out, "\"}\"\r\n#line 2 \"TestBuffer\"\r\n    :"));
  EXPECT_TRUE(StringRef(Out).endswith("\"f\"(x));\r\n")) << Out;
  // The directive after a site waits for the end of what the text after
  // `*/` opens: it would change a raw string, and be lost in a comment.
  Out =
      rewrite("/* PTX_INJECT f\nin f32 x\n*/ s = R\"(\n#x\n)\"; /* a\nb */ \\\n"
              "c;\nd;\n",
              nullptr, /*LineDirectives=*/true);
  EXPECT_TRUE(
      StringRef(Out).endswith("\"f\"(x)); s = R\"(\n#x\n)\"; /* a\nb */ "
                              "\\\nc;\n#line 8 \"TestBuffer\"\nd;\n"))
      << Out;
  // A buffer without sites gets no directives.
  EXPECT_EQ(rewrite("/* other */\n", nullptr, true), "/* other */\n");
}

TEST(AnnotateTest, OutOnlySiteHasNoInputs) {
  std::string Out = rewrite("/* PTX_INJECT o\nout u32 r */");
  EXPECT_TRUE(contains(Out, "    : \"=r\"(r)\n    :);"));
  // No terminator after `*/`, none after the asm.
  EXPECT_EQ(StringRef(Out).back(), ';');
}

TEST(AnnotateTest, WideBindings) {
  std::string Out = rewrite("/* PTX_INJECT w\n"
                            "in f16x2 a\n"
                            "mod bf16 b\n"
                            "out u64 c\n"
                            "*/\n");
  EXPECT_TRUE(
      contains(Out, "\"+h\"(*reinterpret_cast<unsigned short *>(&(b)))"));
  EXPECT_TRUE(contains(Out, "\"=l\"(c)"));
  EXPECT_TRUE(
      contains(Out, "\"r\"(*reinterpret_cast<const unsigned int *>(&(a)))"));
  EXPECT_TRUE(contains(Out, "MMPTX_INJECT_ARG 0 in b32 F16X2 a"));
  EXPECT_TRUE(contains(Out, "MMPTX_INJECT_ARG 1 mod b16 BF16 b"));
}

TEST(AnnotateTest, ExpressionsKeepInnerBlanksAndLoseComments) {
  // The operand is the expression as written; its marker name has no
  // blanks.
  std::string Out = rewrite("/* PTX_INJECT e\n"
                            "  in f32 c(i, j)   // trailing comment\n"
                            "  in f32 x[ 0 ]\t\n"
                            "*/ after();\n");
  EXPECT_TRUE(contains(Out, "MMPTX_INJECT_ARG 0 in f32 F32 c(i,j)\\n"));
  EXPECT_TRUE(contains(Out, "MMPTX_INJECT_ARG 1 in f32 F32 x[0]\\n"));
  EXPECT_TRUE(contains(Out, ": \"f\"(c(i, j)), \"f\"(x[ 0 ])); after();\n"));
}

TEST(AnnotateTest, VariableNamesDropBlanksThatSeparateNothing) {
  EXPECT_EQ(getVariableName("x[ 0 ]"), "x[0]");
  EXPECT_EQ(getVariableName(" p[i + 1]\t"), "p[i+1]");
  EXPECT_EQ(getVariableName("c(i,\tj)"), "c(i,j)");
  EXPECT_EQ(getVariableName("a < -b"), "a<-b");
  EXPECT_EQ(getVariableName("s . x"), "s.x");
  EXPECT_EQ(getVariableName("v"), "v");
  // Blanks that keep two tokens apart stay.
  EXPECT_EQ(getVariableName("(unsigned  int)x"), "(unsigned int)x");
  EXPECT_EQ(getVariableName("a - -b"), "a- -b");
  EXPECT_EQ(getVariableName("a / *p"), "a/ *p");
  EXPECT_EQ(getVariableName("x ? . 5 : y"), "x?. 5:y");
}

TEST(AnnotateTest, NamesAndLabelsAreEscaped) {
  std::string Out = rewrite("/* PTX_INJECT a%b\nin f32 s[\"%\"[0]]\n*/\n");
  EXPECT_TRUE(contains(Out, "\"// MMPTX_INJECT_BEGIN a%%b 1\\n\\t\""));
  EXPECT_TRUE(contains(Out, "F32 s[\\\"%%\\\"[0]]\\n\\t\""));
}

TEST(AnnotateTest, CrlfIsKept) {
  std::string Out = rewrite("x;\r\n  /* PTX_INJECT c\r\n  in f32 x\r\n  */\r\n"
                            "y;\r\n");
  for (size_t Pos = Out.find('\n'); Pos != std::string::npos;
       Pos = Out.find('\n', Pos + 1))
    EXPECT_EQ(Out[Pos - 1], '\r') << Out;
  EXPECT_TRUE(contains(Out, "\"f\"(x));\r\ny;\r\n"));
}

TEST(AnnotateTest, EveryBrokenSiteIsReported) {
  std::string Out = rewrite("/* PTX_INJECT a\nin f33 x\n*/\n"
                            "/* PTX_INJECT b\nin f32 x\n*/\n"
                            "/* PTX_INJECT c\nbad f32 x\n*/\n");
  EXPECT_TRUE(
      contains(Out, "TestBuffer:2:4: error: unknown inject type 'f33'"));
  EXPECT_TRUE(contains(Out,
                       "TestBuffer:8:1: error: unknown inject variable kind "
                       "'bad'"));
}

TEST(AnnotateTest, NestedCommentIsAnError) {
  // The site ends at the inner `*/`; rewriting it would paste the comment
  // into the asm operand, `"f"(x /* the input)`.
  EXPECT_EQ(rewrite("/* PTX_INJECT f\n in f32 x /* the input */\n*/\n"),
            "error: TestBuffer:2:11: error: '/*' inside a PTX_INJECT block: "
            "the block ends at the first '*/'\n"
            " in f32 x /* the input */\n"
            "          ^");
}

TEST(AnnotateTest, SitesOfOneNameMustAgree) {
  unsigned N = 0;
  std::string Out = rewrite("/* PTX_INJECT f\nmod f32 a\nin f16 b\n*/\n"
                            "/* PTX_INJECT g\nin f32 b\n*/\n"
                            "/* PTX_INJECT f\nmod F32 a\nin F16 b\n*/\n",
                            &N);
  EXPECT_EQ(N, 3u) << Out;
  EXPECT_EQ(rewrite("/* PTX_INJECT f\nmod f32 a\n*/\n"
                    "/* PTX_INJECT f\nout f32 a\n*/\n"),
            "error: TestBuffer:5:1: error: inconsistent inject site 'f': "
            "variable 'a' (argument 0) has kind 'out' here, but 'mod' at the "
            "first site\n"
            "out f32 a\n"
            "^\n"
            "TestBuffer:1:1: note: first site of inject 'f' is here\n"
            "/* PTX_INJECT f\n"
            "^");
}

TEST(AnnotateTest, MissingCloseIsLocatedAtTheHeader) {
  EXPECT_EQ(rewrite("\n   /* PTX_INJECT open\n in f32 x\n"),
            "error: TestBuffer:2:4: error: missing '*/' closing inject site "
            "'open'\n"
            "   /* PTX_INJECT open\n"
            "   ^");
}

} // namespace
