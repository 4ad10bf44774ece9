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

#include "ByteScan.h"
#include "mmptx/IR/Instruction.h"
#include "mmptx/Inject/InjectChecks.h"
#include "mmptx/Parser/Lexer.h"
#include "mmptx/Parser/Parser.h"
#include "mmptx/Parser/StatementParser.h"
#include "mmptx/Support/Compiler.h"

#include "llvm/ADT/Optional.h"

#include <cstdint>
#include <cstring>

using namespace llvm;
using namespace mmptx;
using namespace mmptx::ptx;

namespace {
/// Byte classes of the scanner, one table lookup per byte.
enum ScanClass : uint8_t {
  SC_Blank = 1 << 0,      ///< ' ' '\t'
  SC_IdentStart = 1 << 1, ///< [A-Za-z_$]
  SC_IdentChar = 1 << 2,  ///< [A-Za-z0-9_$]
  SC_Digit = 1 << 3,      ///< [0-9]
  SC_Hex = 1 << 4,        ///< [0-9A-Fa-f]
  SC_Punct = 1 << 5,      ///< the lexer's one-byte punctuation
};
struct ScanTable {
  uint8_t Cls[256] = {};
  constexpr ScanTable() {
    // Derived from the lexer's own table (mmptx/Parser/Lexer.h): both
    // agree on every byte.
    mmptx::detail::LexCharTable Lex;
    for (unsigned C = 0; C != 256; ++C) {
      if (Lex.Cls[C] & mmptx::detail::LC_HBlank)
        Cls[C] |= SC_Blank;
      if (Lex.Cls[C] & mmptx::detail::LC_IdentStart)
        Cls[C] |= SC_IdentStart;
      if (Lex.Cls[C] & mmptx::detail::LC_IdentChar)
        Cls[C] |= SC_IdentChar;
      if (Lex.Cls[C] & mmptx::detail::LC_Punct)
        Cls[C] |= SC_Punct;
    }
    for (unsigned C = '0'; C <= '9'; ++C)
      Cls[C] |= SC_Digit | SC_Hex;
    for (unsigned C = 'a'; C <= 'f'; ++C)
      Cls[C] |= SC_Hex;
    for (unsigned C = 'A'; C <= 'F'; ++C)
      Cls[C] |= SC_Hex;
  }
  bool is(char C, uint8_t Mask) const {
    return Cls[static_cast<unsigned char>(C)] & Mask;
  }
};
} // namespace

static constexpr ScanTable ScanChars;

namespace {
inline bool is(char C, uint8_t Mask) { return ScanChars.is(C, Mask); }

/// Whether \p Word is the literal \p Lit: a compare of known size, which
/// the compiler does inline (StringRef's == calls memcmp).
template <size_t N> inline bool isWord(StringRef Word, const char (&Lit)[N]) {
  return Word.size() == N - 1 && std::memcmp(Word.data(), Lit, N - 1) == 0;
}

/// A cursor over one statement's text that accepts a subset of what the
/// statement parser accepts. Every method returns false for "cannot tell";
/// it never rejects anything on its own. Instructions, declarations and
/// labels are scanned only when their last byte is their terminator (`;`,
/// `:`), which is in no byte class and which nothing steps over: the loops
/// need no bounds checks.
class StatementScanner {
public:
  explicit StatementScanner(StringRef Text)
      : P(Text.data()), E(Text.data() + Text.size()) {}

  bool instruction() {
    if (P == E || E[-1] != ';')
      return false;
    return instructionBody();
  }
  bool directive();
  bool header();
  bool label() {
    if (P == E || E[-1] != ':')
      return false;
    return name() && P + 1 == E;
  }

private:
  enum ListStep { Bad, More, Closed };
  /// After a list element and its blanks: steps over \p Close (\returns
  /// Closed) or ',' (\returns More); \returns Bad at anything else.
  ListStep listStep(char Close) {
    if (P == E || (*P != Close && *P != ','))
      return Bad;
    return *P++ == Close ? Closed : More;
  }
  /// After an operand: blanks, then the ';' that ends the text (Closed) or
  /// ',' and blanks (More); \returns Bad at anything else.
  ListStep nextOperand() {
    blanks();
    ListStep Step = listStep(';');
    if (Step == Closed && P != E)
      return Bad;
    if (Step == More)
      blanks();
    return Step;
  }
  /// name(), checking the end of the text at each step (no sentinel).
  bool boundedName() {
    if (P == E || !is(*P, SC_IdentStart))
      return false;
    ++P;
    while (P < E && is(*P, SC_IdentChar))
      ++P;
    return true;
  }
  void blanks() {
    while (is(*P, SC_Blank))
      ++P;
  }
  /// Steps over the bytes of class \p Mask, four a step: a byte is read
  /// only after one of the class, so never past the terminator.
  void skip(uint8_t Mask) {
    P = inject::skipByteRun(P, [Mask](char C) { return is(C, Mask); });
  }
  /// [A-Za-z_$][A-Za-z0-9_$]*
  bool name() {
    if (!is(*P, SC_IdentStart))
      return false;
    ++P;
    skip(SC_IdentChar);
    return true;
  }
  /// `.name` parts right after a name, each one Directive token (with its
  /// `::sub` qualifiers) that the parser takes as part of the name.
  void components() {
    while (P[0] == '.' && is(P[1], SC_IdentStart)) {
      P += 2;
      skip(SC_IdentChar);
      while (P[0] == ':' && P[1] == ':' && is(P[2], SC_IdentChar)) {
        P += 3;
        skip(SC_IdentChar);
      }
    }
  }
  /// `%name.comp...`
  bool reg() {
    if (*P != '%')
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
    if (!is(*P, SC_Digit))
      return false;
    if (P[0] == '0') {
      char K = P[1];
      if (K == 'f' || K == 'F' || K == 'd' || K == 'D') {
        if (!Floats)
          return false;
        size_t Want = K == 'f' || K == 'F' ? 8 : 16;
        P += 2;
        const char *H = P;
        skip(SC_Hex);
        return size_t(P - H) == Want && !followsToken();
      }
      if (K == 'x' || K == 'X') {
        P += 2;
        const char *H = P;
        skip(SC_Hex);
        return P > H && P - B <= 18 && !followsToken();
      }
    }
    skip(SC_Digit);
    return P - B <= 18 && !followsToken();
  }
  /// Whether the byte after a number would continue it or start a token
  /// without a blank (`1.5`, `12U`, `1e3`, `0x1G`).
  bool followsToken() const { return is(*P, SC_IdentChar) || *P == '.'; }
  bool instructionBody();
  /// An operand of an instruction: a register (with `!` or `-` before
  /// it), a number, a name, an address or (\p Top) a vector.
  bool operand(bool Top);
  /// `[%rd1]`, `[%rd1+8]`, `[sym+-8]`, `[sym]`
  bool address();
  bool vector();
  bool declaration(StringRef Space);
  /// Directives that are only lexed; with bounds checks.
  bool tokens();

  const char *P;
  const char *E;
};
} // namespace

MMPTX_HOT bool StatementScanner::operand(bool Top) {
  switch (*P) {
  case '%':
    return reg();
  case '-':
    ++P;
    return *P == '%' ? reg() : number(/*Floats=*/true);
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
  if (is(*P, SC_Digit))
    return number(/*Floats=*/true);
  if (!name())
    return false;
  components();
  return true;
}

MMPTX_HOT bool StatementScanner::address() {
  ++P; // '['
  blanks();
  if (*P == '%') {
    if (!reg())
      return false;
  } else if (!name()) {
    return false;
  } else {
    components();
  }
  blanks();
  if (*P == '+' || *P == '-') {
    if (P[0] == '+' && P[1] == '-')
      ++P;
    ++P;
    blanks();
    if (!number(/*Floats=*/false))
      return false;
    blanks();
  }
  if (*P != ']')
    return false;
  ++P;
  return true;
}

MMPTX_HOT bool StatementScanner::vector() {
  ++P; // '{'
  while (true) {
    blanks();
    if (!operand(/*Top=*/false))
      return false;
    blanks();
    ListStep Step = listStep('}');
    if (Step != More)
      return Step == Closed;
  }
}

/// `[@[!]%p ]opcode[.mod]... [operand[, operand]...];`
MMPTX_HOT bool StatementScanner::instructionBody() {
  if (*P == '@') {
    ++P;
    if (*P == '!')
      ++P;
    // One token: `@%p1.x` is an error.
    if (*P != '%')
      return false;
    ++P;
    if (!name() || !is(*P, SC_Blank))
      return false;
    blanks();
  }
  if (!name())
    return false;
  components();
  if (*P == ';')
    return P + 1 == E;
  if (!is(*P, SC_Blank))
    return false;
  blanks();
  while (true) {
    // Most operands are registers: no call for them.
    if (*P == '%' ? !reg() : !operand(/*Top=*/true))
      return false;
    // `, ` between operands, `;` at the end: one compare each.
    if (*P == ',') {
      ++P;
      if (*P == ' ')
        ++P;
      blanks();
      continue;
    }
    ListStep Step = nextOperand();
    if (Step != More)
      return Step == Closed;
  }
}

/// `.space [.align N] [.vN] .type name[<N>][[N]]...[, name...];` with no
/// initializer; \p Space is the state space, already consumed, and the
/// last byte is `;`.
MMPTX_HOT bool StatementScanner::declaration(StringRef Space) {
  bool IsReg = Space.size() == 4; // the one space of that length
  bool HasType = false;
  while (true) {
    if (!is(*P, SC_Blank))
      return false;
    blanks();
    if (*P != '.')
      break;
    const char *B = P;
    ++P;
    if (!name())
      return false;
    StringRef Q(B, P - B);
    if (Q.size() == 6 && std::memcmp(B, ".align", 6) == 0) {
      if (!is(*P, SC_Blank))
        return false;
      blanks();
      // 1 to 9 digits, no leading zero, a power of two.
      const char *D = P;
      skip(SC_Digit);
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
    if (Q.size() != 3 || B[1] != 'v' ||
        (B[2] != '2' && B[2] != '4' && B[2] != '8'))
      return false;
  }
  if (!HasType)
    return false;
  while (true) {
    // The name: one Register or Identifier token.
    if (*P == '%')
      ++P;
    if (!name())
      return false;
    if (*P == '<') {
      if (!IsReg)
        return false;
      ++P;
      const char *D = P;
      skip(SC_Digit);
      // 1 to 999,999,999 registers: within 1..2^31.
      if (P == D || P - D > 9 || *D == '0' || *P != '>')
        return false;
      ++P;
    }
    while (*P == '[') {
      ++P;
      const char *D = P;
      skip(SC_Digit);
      // Decimal (a leading zero would be octal), at most 18 digits.
      if ((P - D > 1 && *D == '0') || P - D > 18 || *P != ']')
        return false;
      ++P;
    }
    ListStep Step = nextOperand();
    if (Step != More)
      return Step == Closed;
  }
}

MMPTX_HOT bool StatementScanner::tokens() {
  while (true) {
    while (P < E && is(*P, SC_Blank))
      ++P;
    if (P == E)
      return true;
    char C = *P;
    if (C == '.') {
      ++P;
      if (!boundedName())
        return false;
      while (E - P >= 3 && P[0] == ':' && P[1] == ':' &&
             is(P[2], SC_IdentChar)) {
        P += 3;
        while (P < E && is(*P, SC_IdentChar))
          ++P;
      }
    } else if (C == '%') {
      ++P;
      if (!boundedName())
        return false;
    } else if (is(C, SC_Digit)) {
      // Decimal, at most 18 digits, not followed by a name byte or a dot.
      const char *B = P;
      while (P < E && is(*P, SC_Digit))
        ++P;
      if (P - B > 18 || (P < E && (is(*P, SC_IdentChar) || *P == '.')))
        return false;
    } else if (C == '"') {
      ++P;
      while (P < E && *P != '"' && *P != '\\' && *P != '\n')
        ++P;
      if (P == E || *P != '"')
        return false;
      ++P;
    } else if (is(C, SC_Punct)) {
      ++P;
    } else if (!boundedName()) {
      return false;
    }
  }
}

/// What the statement parser does with a directive, by its first word.
enum class DirectiveWord {
  Declaration,
  Version,
  Target,
  AddressSize,
  Other,
  Parsed
};

MMPTX_HOT static DirectiveWord classify(StringRef Word) {
  // Switch on the length: one compare per candidate, no memcmp calls.
  auto Is = [&](const auto &Lit) { return isWord(Word, Lit); };
  switch (Word.size()) {
  case 4:
    if (Is(".reg"))
      return DirectiveWord::Declaration;
    break;
  case 6:
    if (Is(".local") || Is(".param") || Is(".const"))
      return DirectiveWord::Declaration;
    break;
  case 7:
    if (Is(".shared") || Is(".global"))
      return DirectiveWord::Declaration;
    if (Is(".target"))
      return DirectiveWord::Target;
    break;
  case 8:
    if (Is(".version"))
      return DirectiveWord::Version;
    break;
  case 13:
    if (Is(".address_size"))
      return DirectiveWord::AddressSize;
    break;
  }
  if (isStateSpace(Word) || isWord(Word, ".visible") ||
      isWord(Word, ".extern") || isWord(Word, ".weak") ||
      isWord(Word, ".common"))
    return DirectiveWord::Parsed;
  return DirectiveWord::Other;
}

MMPTX_HOT bool StatementScanner::directive() {
  const char *B = P;
  if (E - P < 2 || P[0] != '.' || !is(P[1], SC_IdentStart))
    return false;
  P += 2;
  while (P < E && is(*P, SC_IdentChar))
    ++P;
  StringRef Word(B, P - B);
  if (P < E && *P == ':')
    return false;
  auto Digits = [&]() {
    const char *D = P;
    while (P < E && is(*P, SC_Digit))
      ++P;
    return P - D;
  };
  auto Blanks = [&]() {
    const char *D = P;
    while (P < E && is(*P, SC_Blank))
      ++P;
    return P != D;
  };
  switch (classify(Word)) {
  case DirectiveWord::Declaration:
    return E[-1] == ';' && declaration(Word);
  case DirectiveWord::Version: {
    // `.version 9.0`: digits on both sides of the dot, nothing after.
    if (!Blanks())
      return false;
    ptrdiff_t Major = Digits();
    if (Major == 0 || Major > 9 || P == E || *P != '.')
      return false;
    ++P;
    ptrdiff_t Minor = Digits();
    return Minor != 0 && Minor <= 9 && P == E;
  }
  case DirectiveWord::Target:
    // `.target sm_80` or `.target sm_90a, texmode_independent`.
    if (!Blanks())
      return false;
    while (true) {
      if (P == E || !is(*P, SC_IdentStart))
        return false;
      while (P < E && is(*P, SC_IdentChar))
        ++P;
      Blanks();
      if (P == E)
        return true;
      if (*P != ',')
        return false;
      ++P;
      Blanks();
    }
  case DirectiveWord::AddressSize:
    if (!Blanks() || E - P != 2)
      return false;
    return (P[0] == '3' && P[1] == '2') || (P[0] == '6' && P[1] == '4');
  case DirectiveWord::Other:
    P = B;
    return tokens();
  case DirectiveWord::Parsed:
    return false;
  }
  return false;
}

/// `[.visible|.weak] (.entry|.func) [(ret)] name[(params)]` and
/// performance directives with integer arguments (`.maxntid 256, 1, 1`);
/// each parameter `.param [.align N] .type name[[N]]`. The header spans
/// lines; bounds are checked.
MMPTX_HOT bool StatementScanner::header() {
  auto Blanks = [&]() {
    const char *B = P;
    while (P < E && (is(*P, SC_Blank) || *P == '\n' || *P == '\r'))
      ++P;
    return P != B;
  };
  auto Word = [&]() -> StringRef {
    const char *B = P;
    if (E - P < 2 || P[0] != '.' || !is(P[1], SC_IdentStart))
      return StringRef();
    P += 2;
    while (P < E && is(*P, SC_IdentChar))
      ++P;
    if (P < E && *P == ':')
      return StringRef();
    return StringRef(B, P - B);
  };
  auto Number = [&](uint64_t &V) {
    const char *D = P;
    V = 0;
    while (P < E && is(*P, SC_Digit))
      V = V * 10 + (*P++ - '0');
    return P != D && P - D <= 9 && *D != '0' &&
           !(P < E && (is(*P, SC_IdentChar) || *P == '.'));
  };
  auto Params = [&]() {
    ++P; // '('
    Blanks();
    if (P < E && *P == ')') {
      ++P;
      return true;
    }
    while (true) {
      if (!isWord(Word(), ".param") || !Blanks())
        return false;
      StringRef Q = Word();
      if (isWord(Q, ".align")) {
        uint64_t A;
        if (!Blanks() || !Number(A) || (A & (A - 1)) || !Blanks())
          return false;
        Q = Word();
      }
      if (!isPTXType(Q) || !Blanks() || !boundedName())
        return false;
      if (P < E && *P == '[') {
        ++P;
        uint64_t N;
        if (!Number(N) || P == E || *P != ']')
          return false;
        ++P;
      }
      Blanks();
      ListStep Step = listStep(')');
      if (Step != More)
        return Step == Closed;
      Blanks();
    }
  };
  StringRef W = Word();
  if (isWord(W, ".visible") || isWord(W, ".weak")) {
    if (!Blanks())
      return false;
    W = Word();
  }
  bool IsFunc = isWord(W, ".func");
  if (!IsFunc && !isWord(W, ".entry"))
    return false;
  Blanks();
  if (IsFunc && P < E && *P == '(') {
    if (!Params())
      return false;
    Blanks();
  }
  if (!boundedName())
    return false;
  Blanks();
  if (P < E && *P == '(') {
    if (!Params())
      return false;
    Blanks();
  }
  // `.maxntid 256, 1, 1`, `.minnctapersm 1`: integers and commas.
  while (P < E) {
    StringRef D = Word();
    if (D.empty() || isWord(D, ".pragma") || !Blanks())
      return false;
    while (true) {
      uint64_t V;
      if (!Number(V))
        return false;
      Blanks();
      if (P == E || *P != ',')
        break;
      ++P;
      Blanks();
    }
  }
  return true;
}

/// isPlainStatement(); verifyOperands() skips the statements it accepts.
static inline bool isPlain(StringRef Text, StmtKind Kind) {
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
    return S.header();
  }
  return false;
}

bool mmptx::isPlainStatement(StringRef Text, StmtKind Kind) {
  return isPlain(Text, Kind);
}

MMPTX_HOT Error mmptx::verifyOperands(const Module &M) {
  // verifyModule(M, isPlain), with the scan in the loop: no call per
  // statement that the scanner accepts.
  Optional<Instruction> I;
  StringRef Buffer = M.getBuffer();
  for (const Statement &S : M.statements()) {
    StatementScanner Scan(StringRef(Buffer.data() + S.Begin, S.End - S.Begin));
    switch (S.Kind) {
    case StmtKind::Instruction:
      if (Scan.instruction())
        continue;
      if (!I)
        I.emplace();
      if (Error E = parseInstruction(M, S, *I))
        return E;
      continue;
    case StmtKind::Directive:
      if (Scan.directive())
        continue;
      break;
    case StmtKind::Label:
      if (Scan.label())
        continue;
      break;
    case StmtKind::FunctionHeader:
      if (Scan.header())
        continue;
      break;
    case StmtKind::Comment:
    case StmtKind::ScopeBegin:
    case StmtKind::ScopeEnd:
    case StmtKind::Empty:
      continue;
    }
    if (Error E = verifyStatement(M, S))
      return E;
  }
  return Error::success();
}
