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

namespace mmptx {

struct Token {
  enum Kind : uint8_t {
    Eof,
    Error,      ///< Text is the offending bytes; see Lexer::getErrorMessage
    Identifier, ///< `add`, `$L__BB0_1`, `_`
    Directive,  ///< `.f32`, `.reg`, `.x`
    Register,   ///< `%r1`, `%tid` (a following `.x` is a Directive token)
    Integer,    ///< `42`, `0x1F`, `0b101`, `017`, with optional `U`
    Float,      ///< `1.5`, `1e-3`, `0f3F800000`, `0d3FF0000000000000`
    String,     ///< `"..."` including the quotes
    Punct,      ///< one of `,;:{}[]()<>+-!@|=*`
  };
  Kind K = Eof;
  llvm::StringRef Text;
  /// True when blanks or comments separate this token from the previous one.
  bool SpaceBefore = false;

  bool is(Kind Other) const { return K == Other; }
  bool isPunct(char C) const {
    return K == Punct && Text.size() == 1 && Text[0] == C;
  }
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
  Token next();
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
  Token lexNumber(const char *B, bool Space);
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
