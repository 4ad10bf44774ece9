//===- StatementScan.cpp - The operand check of checked creates -----------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A checked create verifies every statement's operands as mmptx-opt does
/// (verifyModule()). Nearly every statement of compiled PTX has one of a few
/// shapes (`op.mod %r1, [%rd2+8], 0f3F800000;`, `.reg .f32 %f<5>;`,
/// `.loc 1 2 3`, `$L__BB0_1:`), which a scanner over the bytes accepts
/// without lexing; anything else (comments inside a statement, constant
/// expressions, function headers, ...) goes to the statement parser. The
/// scanner only accepts text that the parser accepts, so the verdict and the
/// first error are those of verifyModule(); a unit test holds it to that on
/// mutated statements.
///
//===----------------------------------------------------------------------===//

#include "mmptx/Inject/InjectChecks.h"
#include "mmptx/IR/Instruction.h"
#include "mmptx/Parser/Lexer.h"
#include "mmptx/Parser/StatementParser.h"

using namespace llvm;
using namespace mmptx;
using namespace mmptx::ptx;

namespace {
using mmptx::detail::LexerChars;
namespace LC = mmptx::detail;

inline bool isIdentStart(char C) {
  return LexerChars.is(C, LC::LC_IdentStart);
}
inline bool isIdentChar(char C) {
  return LexerChars.is(C, LC::LC_IdentChar);
}
inline bool isDigitChar(char C) { return C >= '0' && C <= '9'; }
inline bool isHexChar(char C) {
  return isDigitChar(C) || (C >= 'a' && C <= 'f') || (C >= 'A' && C <= 'F');
}

/// A cursor over one statement's text that accepts a subset of what the
/// statement parser accepts. Every method returns false for "cannot tell";
/// it never rejects anything on its own.
class StatementScanner {
public:
  explicit StatementScanner(StringRef Text)
      : P(Text.data()), E(Text.data() + Text.size()) {}

  bool instruction();
  bool directive();
  bool label() {
    if (!name())
      return false;
    return P + 1 == E && *P == ':';
  }

private:
  void blanks() {
    while (P < E && (*P == ' ' || *P == '\t'))
      ++P;
  }
  /// [A-Za-z_$][A-Za-z0-9_$]*
  bool name() {
    if (P == E || !isIdentStart(*P))
      return false;
    ++P;
    while (P < E && isIdentChar(*P))
      ++P;
    return true;
  }
  /// `.name` parts right after a name, each one Directive token (with its
  /// `::sub` qualifiers) that the parser takes as part of the name.
  void components() {
    while (E - P >= 2 && P[0] == '.' && isIdentStart(P[1])) {
      P += 2;
      while (P < E && isIdentChar(*P))
        ++P;
      subQualifiers();
    }
  }
  void subQualifiers() {
    while (E - P >= 3 && P[0] == ':' && P[1] == ':' && isIdentChar(P[2])) {
      P += 3;
      while (P < E && isIdentChar(*P))
        ++P;
    }
  }
  /// `%name.comp...`
  bool reg() {
    if (P == E || *P != '%')
      return false;
    ++P;
    if (!name())
      return false;
    components();
    return true;
  }
  /// A decimal or hex integer of at most 18 bytes (always fits in 64 bits)
  /// or, with \p Floats, a `0f`/`0d` bit pattern; not followed by a name
  /// byte or a dot (which would make another token of it).
  bool number(bool Floats) {
    const char *B = P;
    if (P == E || !isDigitChar(*P))
      return false;
    if (E - P >= 2 && P[0] == '0') {
      char K = P[1];
      if (K == 'f' || K == 'F' || K == 'd' || K == 'D') {
        if (!Floats)
          return false;
        size_t Want = K == 'f' || K == 'F' ? 8 : 16;
        P += 2;
        const char *H = P;
        while (P < E && isHexChar(*P))
          ++P;
        return size_t(P - H) == Want && !followsToken();
      }
      if (K == 'x' || K == 'X') {
        P += 2;
        const char *H = P;
        while (P < E && isHexChar(*P))
          ++P;
        return P > H && P - B <= 18 && !followsToken();
      }
    }
    while (P < E && isDigitChar(*P))
      ++P;
    return P - B <= 18 && !followsToken();
  }
  /// Whether a byte right after a number would continue it or start a
  /// token without a blank (`1.5`, `12U`, `1e3`, `0x1G`).
  bool followsToken() const { return P < E && (isIdentChar(*P) || *P == '.'); }
  /// An operand of an instruction: a register (with `!` or `-` before
  /// it), a number, a name, an address or (\p Top) a vector.
  bool operand(bool Top);
  /// `[%rd1]`, `[%rd1+8]`, `[sym+-8]`, `[sym]`
  bool address();
  bool vector();
  bool declaration(StringRef Space);
  bool tokens();

  const char *P;
  const char *E;
};
} // namespace

bool StatementScanner::operand(bool Top) {
  if (P == E)
    return false;
  switch (*P) {
  case '%':
    return reg();
  case '-':
    ++P;
    return P < E && (*P == '%' ? reg() : number(/*Floats=*/true));
  case '!':
    ++P;
    return reg();
  case '[':
    return Top && address();
  case '{':
    return Top && vector();
  default:
    break;
  }
  if (isDigitChar(*P))
    return number(/*Floats=*/true);
  if (!name())
    return false;
  components();
  return true;
}

bool StatementScanner::address() {
  ++P; // '['
  blanks();
  if (P == E)
    return false;
  if (*P == '%') {
    if (!reg())
      return false;
  } else if (!name()) {
    return false;
  } else {
    components();
  }
  blanks();
  if (P < E && (*P == '+' || *P == '-')) {
    if (*P == '+' && E - P >= 2 && P[1] == '-')
      ++P;
    ++P;
    blanks();
    if (!number(/*Floats=*/false))
      return false;
    blanks();
  }
  if (P == E || *P != ']')
    return false;
  ++P;
  return true;
}

bool StatementScanner::vector() {
  ++P; // '{'
  while (true) {
    blanks();
    if (!operand(/*Top=*/false))
      return false;
    blanks();
    if (P == E)
      return false;
    if (*P == '}') {
      ++P;
      return true;
    }
    if (*P != ',')
      return false;
    ++P;
  }
}

/// `[@[!]%p ]opcode[.mod]... [operand[, operand]...];`
bool StatementScanner::instruction() {
  if (P < E && *P == '@') {
    ++P;
    if (P < E && *P == '!')
      ++P;
    // One token: `@%p1.x` is an error.
    if (P == E || *P != '%')
      return false;
    ++P;
    if (!name() || P == E || (*P != ' ' && *P != '\t'))
      return false;
    blanks();
  }
  if (!name())
    return false;
  components();
  if (P < E && *P == ';')
    return P + 1 == E;
  if (P == E || (*P != ' ' && *P != '\t'))
    return false;
  blanks();
  while (true) {
    if (!operand(/*Top=*/true))
      return false;
    blanks();
    if (P == E)
      return false;
    if (*P == ';')
      return P + 1 == E;
    if (*P != ',')
      return false;
    ++P;
    blanks();
  }
}

/// `.space [.align N] [.vN] .type name[<N>][[N]]...[, name...];` with no
/// initializer; \p Space is the state space, already consumed.
bool StatementScanner::declaration(StringRef Space) {
  bool IsReg = Space == ".reg";
  bool HasType = false;
  while (true) {
    if (P == E || (*P != ' ' && *P != '\t'))
      return false;
    blanks();
    if (P == E || *P != '.')
      break;
    const char *B = P;
    ++P;
    if (!name())
      return false;
    StringRef Q(B, P - B);
    if (Q == ".align") {
      if (P == E || (*P != ' ' && *P != '\t'))
        return false;
      blanks();
      // 1 to 9 digits, no leading zero, a power of two.
      const char *D = P;
      while (P < E && isDigitChar(*P))
        ++P;
      if (P == D || P - D > 9 || *D == '0' || followsToken())
        return false;
      uint64_t A = 0;
      for (const char *C = D; C != P; ++C)
        A = A * 10 + (*C - '0');
      if (A & (A - 1))
        return false;
      continue;
    }
    if (isPTXType(Q)) {
      if (HasType)
        return false;
      HasType = true;
      continue;
    }
    if (Q != ".v2" && Q != ".v4" && Q != ".v8")
      return false;
  }
  if (!HasType)
    return false;
  while (true) {
    // The name: one Register or Identifier token.
    if (P < E && *P == '%')
      ++P;
    if (!name())
      return false;
    if (P < E && *P == '<') {
      if (!IsReg)
        return false;
      ++P;
      const char *D = P;
      while (P < E && isDigitChar(*P))
        ++P;
      // 1 to 999,999,999 registers: within 1..2^31.
      if (P == D || P - D > 9 || *D == '0' || P == E || *P != '>')
        return false;
      ++P;
    }
    while (P < E && *P == '[') {
      ++P;
      const char *D = P;
      while (P < E && isDigitChar(*P))
        ++P;
      // Decimal (a leading zero would be octal), at most 18 digits.
      if ((P - D > 1 && *D == '0') || P - D > 18 || P == E || *P != ']')
        return false;
      ++P;
    }
    blanks();
    if (P == E)
      return false;
    if (*P == ';')
      return P + 1 == E;
    if (*P != ',')
      return false;
    ++P;
    blanks();
  }
}

/// The tokens of a directive that is only lexed (`.loc 1 2 3`,
/// `.maxntid 256, 1, 1`, `.file 1 "k.cu"`).
bool StatementScanner::tokens() {
  while (true) {
    blanks();
    if (P == E)
      return true;
    char C = *P;
    if (C == '.') {
      ++P;
      if (!name())
        return false;
      subQualifiers();
    } else if (C == '%') {
      ++P;
      if (!name())
        return false;
    } else if (isDigitChar(C)) {
      if (!number(/*Floats=*/false))
        return false;
    } else if (C == '"') {
      ++P;
      while (P < E && *P != '"' && *P != '\\' && *P != '\n')
        ++P;
      if (P == E || *P != '"')
        return false;
      ++P;
    } else if (LexerChars.is(C, LC::LC_Punct)) {
      ++P;
    } else if (!name()) {
      return false;
    }
  }
}

bool StatementScanner::directive() {
  const char *B = P;
  if (P == E || *P != '.')
    return false;
  ++P;
  if (!name())
    return false;
  StringRef Word(B, P - B);
  if (P < E && *P == ':')
    return false;
  if (Word == ".reg" || Word == ".shared" || Word == ".local" ||
      Word == ".param" || Word == ".global" || Word == ".const")
    return declaration(Word);
  if (isStateSpace(Word) || Word == ".visible" || Word == ".extern" ||
      Word == ".weak" || Word == ".common" || Word == ".version" ||
      Word == ".address_size" || Word == ".target")
    return false;
  P = B;
  return tokens();
}

bool mmptx::isPlainStatement(StringRef Text, StmtKind Kind) {
  StatementScanner S(Text);
  switch (Kind) {
  case StmtKind::Instruction:
    return S.instruction();
  case StmtKind::Directive:
    return S.directive();
  case StmtKind::Label:
    return S.label();
  case StmtKind::Comment:
  case StmtKind::ScopeBegin:
  case StmtKind::ScopeEnd:
  case StmtKind::Empty:
    return true;
  case StmtKind::FunctionHeader:
    return false;
  }
  return false;
}

Error mmptx::verifyOperands(const Module &M) {
  Instruction I;
  StringRef Buffer = M.getBuffer();
  for (const Statement &S : M.statements()) {
    switch (S.Kind) {
    case StmtKind::Instruction:
      if (isPlainStatement(Buffer.substr(S.Begin, S.End - S.Begin), S.Kind))
        break;
      if (Error E = parseInstruction(M, S, I))
        return E;
      break;
    case StmtKind::Directive:
    case StmtKind::FunctionHeader:
    case StmtKind::Label:
      if (isPlainStatement(Buffer.substr(S.Begin, S.End - S.Begin), S.Kind))
        break;
      if (Error E = verifyStatement(M, S))
        return E;
      break;
    case StmtKind::Comment:
    case StmtKind::ScopeBegin:
    case StmtKind::ScopeEnd:
    case StmtKind::Empty:
      break;
    }
  }
  return Error::success();
}
