//===- LexerTest.cpp - Tests for the PTX lexer ----------------------------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "mmptx/Parser/Lexer.h"

#include "gtest/gtest.h"

#include <vector>

using namespace mmptx;

static std::vector<Token> lexAll(llvm::StringRef S) {
  Lexer L(S);
  std::vector<Token> Out;
  while (true) {
    Token T = L.next();
    Out.push_back(T);
    if (T.is(Token::Eof) || T.is(Token::Error))
      break;
  }
  return Out;
}

TEST(LexerTest, SplitsOpcodeModifiers) {
  auto T = lexAll("add.rn.f32 %f1, %f2, 0f3F800000;");
  ASSERT_EQ(T.size(), 10u);
  EXPECT_EQ(T[0].K, Token::Identifier);
  EXPECT_EQ(T[0].Text, "add");
  EXPECT_EQ(T[1].K, Token::Directive);
  EXPECT_EQ(T[1].Text, ".rn");
  EXPECT_FALSE(T[1].SpaceBefore);
  EXPECT_EQ(T[3].K, Token::Register);
  EXPECT_TRUE(T[3].SpaceBefore);
  EXPECT_EQ(T[7].K, Token::Float);
  EXPECT_TRUE(T[8].isPunct(';'));
}

TEST(LexerTest, Numbers) {
  auto T = lexAll("42 0x1FU 0b101 017 1.5 1e-3 0d3FF0000000000000");
  std::vector<Token::Kind> Kinds = {
      Token::Integer, Token::Integer, Token::Integer, Token::Integer,
      Token::Float,   Token::Float,   Token::Float,   Token::Eof};
  ASSERT_EQ(T.size(), Kinds.size());
  for (size_t I = 0; I < Kinds.size(); ++I)
    EXPECT_EQ(T[I].K, Kinds[I]) << "token " << I;
}

TEST(LexerTest, BadFloatLiteral) {
  Lexer L("0f3F80");
  Token T = L.next();
  EXPECT_EQ(T.K, Token::Error);
  EXPECT_EQ(L.getErrorMessage(), "'0f' float literal needs 8 hex digits");
}

TEST(LexerTest, SkipsComments) {
  auto T = lexAll("a /* x */ b // y\n c");
  ASSERT_EQ(T.size(), 4u);
  EXPECT_EQ(T[1].Text, "b");
  EXPECT_TRUE(T[2].SpaceBefore);
}

TEST(LexerTest, UnterminatedString) {
  Lexer L("\"abc\n");
  EXPECT_EQ(L.next().K, Token::Error);
  EXPECT_EQ(L.getErrorMessage(), "unterminated string");
}

TEST(LexerTest, NeverReadsPastEnd) {
  // The lexer is given a prefix of a longer buffer; it must stop there.
  const char Buf[] = "%r1.x0f3F800000";
  Lexer L(llvm::StringRef(Buf, 3));
  Token T = L.next();
  EXPECT_EQ(T.Text, "%r1");
  EXPECT_EQ(L.next().K, Token::Eof);
}

/// Lexes \p S with the by-reference next(Token &) and checks it agrees with
/// next() token for token, including the slow paths.
static void expectSameTokens(llvm::StringRef S) {
  Lexer A(S), B(S);
  for (unsigned I = 0; I < 1000; ++I) {
    Token TA = A.next();
    Token TB;
    B.next(TB);
    EXPECT_EQ(TA.K, TB.K) << S.str() << " token " << I;
    EXPECT_EQ(TA.Text.data(), TB.Text.data()) << S.str() << " token " << I;
    EXPECT_EQ(TA.Text.size(), TB.Text.size()) << S.str() << " token " << I;
    EXPECT_EQ(TA.SpaceBefore, TB.SpaceBefore) << S.str() << " token " << I;
    if (TA.is(Token::Error)) {
      EXPECT_EQ(A.getErrorMessage(), B.getErrorMessage());
    }
    if (TA.is(Token::Eof) || TA.is(Token::Error))
      return;
  }
  ADD_FAILURE() << "no end of input";
}

TEST(LexerTest, NextIntoTokenMatchesNext) {
  for (const char *S :
       {"add.rn.f32 %f1, %f2, 0f3F800000;", "  \t@!%p1 bra $L__BB0_1;",
        "ld.global.v4.f32 {%f1,%f2}, [%rd1+-8]; // done\n",
        "a /* c */ b\r\n\f\vc", "\"str\\\"ing\" 1.5e-3 0x1FU 017",
        "mov.u32 %r1, #;", "x \x01", ".5", "%", ".", "/", "a/", "/* open",
        "0f3F80", "\"open", "", "   "})
    expectSameTokens(S);
}

TEST(LexerTest, NamesUnexpectedBytes) {
  Lexer L("mov #1");
  EXPECT_EQ(L.next().Text, "mov");
  Token T = L.next();
  EXPECT_EQ(T.K, Token::Error);
  EXPECT_EQ(T.Text, "#");
  EXPECT_EQ(L.getErrorMessage(), "unexpected character '#'");
  // The lexer goes on after the bad byte.
  EXPECT_EQ(L.next().K, Token::Integer);

  Lexer L2(llvm::StringRef("a \x01\xff", 4));
  L2.next();
  EXPECT_EQ(L2.next().K, Token::Error);
  EXPECT_EQ(L2.getErrorMessage(), "invalid byte 0x01 in PTX text");
  EXPECT_EQ(L2.next().K, Token::Error);
  EXPECT_EQ(L2.getErrorMessage(), "invalid byte 0xff in PTX text");
}

TEST(LexerTest, ErrorMessageSurvivesCopy) {
  // The message of a named byte lives in the lexer; a copy keeps its own.
  Lexer L("#");
  L.next();
  Lexer Copy = L;
  EXPECT_EQ(Copy.getErrorMessage(), "unexpected character '#'");
}

TEST(LexerTest, SpaceBeforeAfterNewlinesAndComments) {
  auto T = lexAll("a\nb/*x*/c//y\n.d%e");
  ASSERT_EQ(T.size(), 6u);
  EXPECT_TRUE(T[0].SpaceBefore); // the first token
  EXPECT_TRUE(T[1].SpaceBefore); // b after a newline
  EXPECT_TRUE(T[2].SpaceBefore); // c after a block comment
  EXPECT_TRUE(T[3].SpaceBefore); // .d after a line comment
  EXPECT_EQ(T[3].K, Token::Directive);
  EXPECT_FALSE(T[4].SpaceBefore); // %e right after .d
  EXPECT_EQ(T[4].K, Token::Register);
}

TEST(LexerTest, PrefixesNeverReadPastEnd) {
  // Every prefix of a statement lexes within its bounds.
  std::string S = "@!%p1 ld.global.nc.v2.f32 {%f1, %f2}, [%rd1+0x10]; "
                  "// c\n/* d */ \"s\" 0f3F800000 0d3FF0000000000000 1.5e+3";
  for (size_t N = 0; N <= S.size(); ++N) {
    std::string Prefix = S.substr(0, N);
    Lexer L(Prefix);
    for (unsigned I = 0; I < 100; ++I) {
      Token T = L.next();
      ASSERT_GE(T.Text.data(), Prefix.data());
      ASSERT_LE(T.Text.end(), Prefix.data() + Prefix.size());
      if (T.is(Token::Eof) || T.is(Token::Error))
        break;
    }
  }
}

TEST(LexerTest, SubQualifiedDirectives) {
  auto T = lexAll("cp.async.bulk.shared::cluster.mbarrier::complete_tx::bytes "
                  ".L2::128B .cta_group::1 .a:: .b::c:");
  std::vector<std::string> Texts;
  for (const Token &Tk : T)
    Texts.push_back(Tk.Text.str());
  std::vector<std::string> Want = {"cp",
                                   ".async",
                                   ".bulk",
                                   ".shared::cluster",
                                   ".mbarrier::complete_tx::bytes",
                                   ".L2::128B",
                                   ".cta_group::1",
                                   ".a",
                                   ":",
                                   ":",
                                   ".b::c",
                                   ":",
                                   ""};
  EXPECT_EQ(Texts, Want);
  EXPECT_EQ(T[4].K, Token::Directive);
}

TEST(LexerTest, DotDigitIsAModifierAfterANameElseANumber) {
  auto T = lexAll("tex.2d tcgen05.ld.32x32b {.5, 1., .5e2} x .5");
  std::vector<std::pair<Token::Kind, std::string>> Got;
  for (const Token &Tk : T)
    Got.push_back({Tk.K, Tk.Text.str()});
  std::vector<std::pair<Token::Kind, std::string>> Want = {
      {Token::Identifier, "tex"},
      {Token::Directive, ".2d"},
      {Token::Identifier, "tcgen05"},
      {Token::Directive, ".ld"},
      {Token::Directive, ".32x32b"},
      {Token::Punct, "{"},
      {Token::Float, ".5"},
      {Token::Punct, ","},
      {Token::Float, "1."},
      {Token::Punct, ","},
      {Token::Float, ".5e2"},
      {Token::Punct, "}"},
      {Token::Identifier, "x"},
      {Token::Float, ".5"},
      {Token::Eof, ""}};
  EXPECT_EQ(Got, Want);
}

TEST(LexerTest, ExpressionOperators) {
  // `%` and `/` are operators where they start no register or comment.
  auto T = lexAll("10 % 3 / 2 ~ ^ & ? %r1 // c");
  std::vector<std::string> Texts;
  for (const Token &Tk : T)
    Texts.push_back(Tk.Text.str());
  std::vector<std::string> Want = {"10", "%", "3", "/",   "2", "~",
                                   "^",  "&", "?", "%r1", ""};
  EXPECT_EQ(Texts, Want);
  EXPECT_EQ(T[1].K, Token::Punct);
  EXPECT_EQ(T[3].K, Token::Punct);
  EXPECT_EQ(T[9].K, Token::Register);
}
