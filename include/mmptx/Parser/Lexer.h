//===- Lexer.h - PTX tokens -------------------------------------*- C++ -*-===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Tokens of one statement's text, for the on-demand operand parser. Tokens
/// are StringRefs into the source buffer; comments and blanks are skipped.
///
//===----------------------------------------------------------------------===//

#ifndef MMPTX_PARSER_LEXER_H
#define MMPTX_PARSER_LEXER_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/SMLoc.h"

#include <cstdint>

namespace mmptx {

namespace detail {
/// Byte classes of the lexer, one table lookup per byte.
enum LexCharClass : uint8_t {
  LC_Blank = 1 << 0,      ///< ' ' '\t' '\n' '\r' '\f' '\v'
  LC_IdentStart = 1 << 1, ///< [A-Za-z_$]
  LC_IdentChar = 1 << 2,  ///< [A-Za-z0-9_$]
  LC_Digit = 1 << 3,      ///< [0-9]
  LC_Punct = 1 << 4,      ///< , ; : { } [ ] ( ) < > + - ! @ | = * ~ ^ & ?
  LC_HBlank = 1 << 5,     ///< ' ' '\t'
};
struct LexCharTable {
  uint8_t Cls[256] = {};
  constexpr LexCharTable() {
    for (unsigned C : {' ', '\t', '\n', '\r', '\f', '\v'})
      Cls[C] |= LC_Blank;
    for (unsigned C : {' ', '\t'})
      Cls[C] |= LC_HBlank;
    for (unsigned C = 'a'; C <= 'z'; ++C)
      Cls[C] |= LC_IdentStart | LC_IdentChar;
    for (unsigned C = 'A'; C <= 'Z'; ++C)
      Cls[C] |= LC_IdentStart | LC_IdentChar;
    for (unsigned C : {'_', '$'})
      Cls[C] |= LC_IdentStart | LC_IdentChar;
    for (unsigned C = '0'; C <= '9'; ++C)
      Cls[C] |= LC_Digit | LC_IdentChar;
    for (unsigned C : {',', ';', ':', '{', '}', '[', ']', '(', ')', '<', '>',
                       '+', '-', '!', '@', '|', '=', '*', '~', '^', '&', '?'})
      Cls[C] |= LC_Punct;
  }
  bool is(char C, uint8_t Mask) const {
    return Cls[static_cast<unsigned char>(C)] & Mask;
  }
};
/// Defined in Lexer.cpp; constant-initialised.
extern const LexCharTable LexerChars;
} // namespace detail

struct Token {
  enum Kind : uint8_t {
    Eof,
    Error,      ///< Text is the offending bytes; see Lexer::getErrorMessage
    Identifier, ///< `add`, `$L__BB0_1`, `_`
    /// `.f32`, `.reg`, `.x`, `.2d` (right after a name), and sub-qualified
    /// `.L2::128B`, `.shared::cta`, `.mbarrier::complete_tx::bytes`
    Directive,
    Register, ///< `%r1`, `%tid` (a following `.x` is a Directive token)
    Integer,  ///< `42`, `0x1F`, `0b101`, `017`, with optional `U`
    /// `1.5`, `1.`, `.5`, `1e-3`, `0f3F800000`, `0d3FF0000000000000`
    Float,
    String, ///< `"..."` including the quotes
    /// one of `,;:{}[]()<>+-!@|=*~^&?`, and `/` `%` where they start no
    /// comment or register (constant expressions)
    Punct,
  };
  Kind K = Eof;
  llvm::StringRef Text;
  /// True when blanks or comments separate this token from the previous one.
  bool SpaceBefore = false;

  bool is(Kind Other) const { return K == Other; }
  /// Punct tokens are always one byte long.
  bool isPunct(char C) const { return K == Punct && Text.data()[0] == C; }
  llvm::SMLoc getLoc() const {
    return llvm::SMLoc::getFromPointer(Text.data());
  }
};

/// Lexes [Begin, End) of a buffer. Never reads outside that range.
class Lexer {
public:
  explicit Lexer(llvm::StringRef Text)
      : Cur(Text.data()), End(Text.data() + Text.size()) {}

  /// \returns the next token; Eof at the end, Error on a malformed token.
  /// Inline for the common tokens (names, directives, registers,
  /// punctuation after spaces or tabs); the rest is in nextSlow().
  Token next() {
    Token T;
    next(T);
    return T;
  }
  /// next() into \p Out, field by field: parsers that keep their current
  /// token in memory avoid copying the whole struct (a wide load of narrow
  /// stores, which stalls store forwarding).
  void next(Token &Out) {
    const detail::LexCharTable &T = detail::LexerChars;
    const char *P = Cur;
    while (P < End && T.is(*P, detail::LC_HBlank))
      ++P;
    // The first token of a statement counts as spaced.
    bool Space = P != Cur || !PrevEnd;
    if (P == End)
      return finish(Out, Token::Eof, P, P, Space);
    char C = *P;
    uint8_t Cls = T.Cls[static_cast<unsigned char>(C)];
    const char *Q = P + 1;
    if (Cls & detail::LC_Punct)
      return finish(Out, Token::Punct, P, Q, Space);
    Token::Kind K = Token::Identifier;
    if (C == '.' || C == '%') {
      if (Q == End || !T.is(*Q, detail::LC_IdentStart))
        return slow(Out, P, Space);
      K = C == '.' ? Token::Directive : Token::Register;
      ++Q;
    } else if (!(Cls & detail::LC_IdentStart)) {
      return slow(Out, P, Space);
    }
    while (Q < End && T.is(*Q, detail::LC_IdentChar))
      ++Q;
    // `.shared::cta`: one compare per name, the rest out of line.
    if (K == Token::Directive && Q < End && *Q == ':')
      Q = subQualifiers(Q);
    finish(Out, K, P, Q, Space);
  }
  /// \returns the next token without consuming it.
  Token peek() {
    const char *Save = Cur;
    const char *SavePrev = PrevEnd;
    Token T = next();
    Cur = Save;
    PrevEnd = SavePrev;
    return T;
  }
  /// For an Error token: what is wrong with it.
  llvm::StringRef getErrorMessage() const {
    return ErrorMsg ? llvm::StringRef(ErrorMsg) : llvm::StringRef(ErrBuf);
  }
  /// Current position (just past the last token).
  const char *getPos() const { return Cur; }

private:
  /// Ends token [\p B, \p E) of next(): the cursor is updated from locals
  /// before \p Out is written, so no store to \p Out forces a reload.
  void finish(Token &Out, Token::Kind K, const char *B, const char *E,
              bool Space) {
    Cur = E;
    PrevEnd = E;
    Out.K = K;
    Out.Text = llvm::StringRef(B, E - B);
    Out.SpaceBefore = Space;
  }
  /// next() for everything but the common tokens, from \p P.
  void slow(Token &Out, const char *P, bool Space) {
    Cur = P;
    Token S = nextSlow(Space);
    Out.K = S.K;
    Out.Text = S.Text;
    Out.SpaceBefore = S.SpaceBefore;
  }
  Token make(Token::Kind K, const char *B, bool Space) {
    Token T;
    T.K = K;
    T.Text = llvm::StringRef(B, Cur - B);
    T.SpaceBefore = Space;
    PrevEnd = Cur;
    return T;
  }
  Token error(const char *B, const char *Msg, bool Space) {
    ErrorMsg = Msg;
    return make(Token::Error, B, Space);
  }
  /// next() for everything but the common tokens; \p Space says whether
  /// blanks were skipped already.
  Token nextSlow(bool Space);
  Token lexNumber(const char *B, bool Space);
  /// \returns the end of the `::name` sub-qualifiers at \p Q, which ends a
  /// directive name (\p Q itself if there are none).
  const char *subQualifiers(const char *Q) const;
  /// An Error token for the unexpected byte at \p B, naming it.
  Token badChar(const char *B, bool Space);

  const char *Cur;
  const char *End;
  const char *PrevEnd = nullptr;
  /// Static message of the last error, or nullptr when it is in ErrBuf.
  const char *ErrorMsg = "";
  char ErrBuf[40] = {};
};

} // namespace mmptx

#endif // MMPTX_PARSER_LEXER_H
