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
  std::vector<Token::Kind> Kinds = {Token::Integer, Token::Integer,
                                    Token::Integer, Token::Integer,
                                    Token::Float,   Token::Float,
                                    Token::Float,   Token::Eof};
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
