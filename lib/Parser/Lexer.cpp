//===- Lexer.cpp - PTX tokens ---------------------------------------------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "mmptx/Parser/Lexer.h"

#include "llvm/ADT/StringExtras.h"

#include <cstdio>
#include <cstring>

using namespace llvm;
using namespace mmptx;

using namespace mmptx::detail;

const LexCharTable mmptx::detail::LexerChars;

static inline bool is(char C, uint8_t Mask) { return LexerChars.is(C, Mask); }
static inline bool isIdentStart(char C) { return is(C, LC_IdentStart); }
static inline bool isIdentChar(char C) { return is(C, LC_IdentChar); }

const char *Lexer::subQualifiers(const char *Q) const {
  // `::` and at least one name byte: `.L2::128B`, `.cta_group::1`.
  while (End - Q >= 3 && Q[0] == ':' && Q[1] == ':' && isIdentChar(Q[2])) {
    Q += 3;
    while (Q < End && isIdentChar(*Q))
      ++Q;
  }
  return Q;
}

Token Lexer::lexNumber(const char *B, bool Space) {
  // 0f/0d: IEEE bit patterns with exactly 8 / 16 hex digits.
  if (*Cur == '0' && Cur + 1 < End &&
      (Cur[1] == 'f' || Cur[1] == 'F' || Cur[1] == 'd' || Cur[1] == 'D')) {
    size_t Want = (Cur[1] == 'f' || Cur[1] == 'F') ? 8 : 16;
    Cur += 2;
    const char *H = Cur;
    while (Cur < End && isHexDigit(*Cur))
      ++Cur;
    if (size_t(Cur - H) != Want || (Cur < End && isIdentChar(*Cur))) {
      while (Cur < End && isIdentChar(*Cur))
        ++Cur;
      return error(B,
                   Want == 8 ? "'0f' float literal needs 8 hex digits"
                             : "'0d' float literal needs 16 hex digits",
                   Space);
    }
    return make(Token::Float, B, Space);
  }
  if (*Cur == '0' && Cur + 1 < End &&
      (Cur[1] == 'x' || Cur[1] == 'X' || Cur[1] == 'b' || Cur[1] == 'B')) {
    bool Hex = Cur[1] == 'x' || Cur[1] == 'X';
    Cur += 2;
    const char *D = Cur;
    while (Cur < End && (Hex ? isHexDigit(*Cur) : (*Cur == '0' || *Cur == '1')))
      ++Cur;
    if (Cur == D)
      return error(B, "expected digits in integer literal", Space);
  } else {
    // Decimal: `1`, `1.5`, `1.`, `.5` (\p B at the '.'), `1e3`, `1.e-3`.
    bool IsFloat = *Cur == '.';
    while (Cur < End && isDigit(*Cur))
      ++Cur;
    if (!IsFloat && Cur < End && *Cur == '.') {
      IsFloat = true;
      ++Cur;
    }
    if (IsFloat && *B == '.')
      ++Cur;
    while (IsFloat && Cur < End && isDigit(*Cur))
      ++Cur;
    if (Cur < End && (*Cur == 'e' || *Cur == 'E')) {
      const char *E = Cur + 1;
      if (E < End && (*E == '+' || *E == '-'))
        ++E;
      if (E < End && isDigit(*E)) {
        IsFloat = true;
        Cur = E;
        while (Cur < End && isDigit(*Cur))
          ++Cur;
      }
    }
    if (IsFloat) {
      if (Cur < End && isIdentChar(*Cur)) {
        while (Cur < End && isIdentChar(*Cur))
          ++Cur;
        return error(B, "invalid floating-point literal", Space);
      }
      return make(Token::Float, B, Space);
    }
  }
  if (Cur < End && *Cur == 'U')
    ++Cur;
  if (Cur < End && isIdentChar(*Cur)) {
    while (Cur < End && isIdentChar(*Cur))
      ++Cur;
    return error(B, "invalid integer literal", Space);
  }
  return make(Token::Integer, B, Space);
}

Token Lexer::nextSlow(bool Space) {
  // Skip blanks and comments.
  while (Cur < End) {
    char C = *Cur;
    if (is(C, LC_Blank)) {
      ++Cur;
      Space = true;
      continue;
    }
    if (C != '/' || Cur + 1 == End)
      break;
    if (Cur[1] == '/') {
      const void *NL = std::memchr(Cur, '\n', End - Cur);
      Cur = NL ? static_cast<const char *>(NL) : End;
      Space = true;
      continue;
    }
    if (Cur[1] == '*') {
      const char *B = Cur;
      Cur += 2;
      while (Cur + 1 < End && !(Cur[0] == '*' && Cur[1] == '/'))
        ++Cur;
      if (Cur + 1 >= End) {
        Cur = End;
        return error(B, "unterminated block comment", true);
      }
      Cur += 2;
      Space = true;
      continue;
    }
    break;
  }
  const char *B = Cur;
  if (Cur == End)
    return make(Token::Eof, B, Space);
  char C = *Cur;
  if (isIdentStart(C)) {
    ++Cur;
    while (Cur < End && isIdentChar(*Cur))
      ++Cur;
    return make(Token::Identifier, B, Space);
  }
  if (C == '.' || C == '%') {
    ++Cur;
    if (Cur == End || !isIdentStart(*Cur)) {
      if (C == '%') // `a % b` in a constant expression
        return make(Token::Punct, B, Space);
      if (Cur == End || !isDigit(*Cur))
        return error(B, "expected name after '.'", Space);
      // Right after a name, `.2d` and `.32x32b` are modifiers; elsewhere
      // `.5` is a number.
      if (Space || !PrevEnd || !isIdentChar(B[-1])) {
        Cur = B;
        return lexNumber(B, Space);
      }
    }
    ++Cur;
    while (Cur < End && isIdentChar(*Cur))
      ++Cur;
    if (C == '.')
      Cur = subQualifiers(Cur);
    return make(C == '.' ? Token::Directive : Token::Register, B, Space);
  }
  // '/' that starts no comment: division in a constant expression.
  if (is(C, LC_Punct) || C == '/') {
    ++Cur;
    return make(Token::Punct, B, Space);
  }
  if (is(C, LC_Digit))
    return lexNumber(B, Space);
  if (C == '"') {
    ++Cur;
    while (Cur < End && *Cur != '"' && *Cur != '\n') {
      if (*Cur == '\\' && Cur + 1 < End)
        ++Cur;
      ++Cur;
    }
    if (Cur >= End || *Cur != '"')
      return error(B, "unterminated string", Space);
    ++Cur;
    return make(Token::String, B, Space);
  }
  return badChar(B, Space);
}

Token Lexer::badChar(const char *B, bool Space) {
  unsigned char C = *B;
  if (C >= 0x20 && C < 0x7f)
    std::snprintf(ErrBuf, sizeof(ErrBuf), "unexpected character '%c'", C);
  else
    std::snprintf(ErrBuf, sizeof(ErrBuf), "invalid byte 0x%02x in PTX text", C);
  Cur = B + 1;
  Token T = make(Token::Error, B, Space);
  ErrorMsg = nullptr;
  return T;
}
