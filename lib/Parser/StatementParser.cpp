//===- StatementParser.cpp - On-demand statement parsing ------------------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Recursive-descent parsers for the statement forms of the PTX ISA:
/// instructions, variable declarations and function headers. Directives the
/// IR does not model (`.loc`, `.pragma`, `.section` data, ...) only need to
/// lex cleanly; unknown opcodes are kept as they are.
///
//===----------------------------------------------------------------------===//

#include "mmptx/Parser/StatementParser.h"
#include "mmptx/Parser/Lexer.h"
#include "mmptx/Parser/Parser.h"
#include "mmptx/Support/Compiler.h"
#include "mmptx/Support/Diagnostic.h"

#include "llvm/ADT/Optional.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/SwapByteOrder.h"

#include <cstring>

using namespace llvm;
using namespace mmptx;
using namespace mmptx::ptx;

// Both are called for every qualifier of every declaration: switch on the
// length, then compare the name as one integer with each candidate.

/// \returns the \p N bytes at \p S as one little-endian integer, so that a
/// short name is compared with each candidate in one instruction.
template <size_t N> static inline uint64_t pack(const char *S) {
  static_assert(N <= 8, "does not fit");
  // One load; the byte loop is not always merged into one.
  uint64_t V = 0;
  std::memcpy(&V, S, N);
  if (sys::IsBigEndianHost)
    V = sys::getSwappedBytes(V);
  return V;
}
template <size_t N> static constexpr uint64_t lit(const char (&S)[N]) {
  uint64_t V = 0;
  for (size_t I = 0; I + 1 < N; ++I)
    V |= uint64_t(static_cast<unsigned char>(S[I])) << (8 * I);
  return V;
}

MMPTX_HOT bool mmptx::isPTXType(StringRef Name) {
  const char *S = Name.data();
  switch (Name.size()) {
  case 3: {
    uint64_t V = pack<3>(S);
    return V == lit(".b8") || V == lit(".u8") || V == lit(".s8");
  }
  case 4: {
    uint64_t V = pack<4>(S);
    return V == lit(".b16") || V == lit(".b32") || V == lit(".b64") ||
           V == lit(".u16") || V == lit(".u32") || V == lit(".u64") ||
           V == lit(".s16") || V == lit(".s32") || V == lit(".s64") ||
           V == lit(".f16") || V == lit(".f32") || V == lit(".f64");
  }
  case 5: {
    uint64_t V = pack<5>(S);
    return V == lit(".b128") || V == lit(".bf16") || V == lit(".pred") ||
           V == lit(".tf32") || V == lit(".e4m3") || V == lit(".e5m2") ||
           V == lit(".e2m1");
  }
  case 6:
    return pack<6>(S) == lit(".f16x2");
  case 7: {
    uint64_t V = pack<7>(S);
    return V == lit(".bf16x2") || V == lit(".e4m3x2") || V == lit(".e5m2x2") ||
           V == lit(".e2m1x2") || V == lit(".e2m3x2") || V == lit(".e3m2x2") ||
           V == lit(".texref");
  }
  case 8: {
    uint64_t V = pack<8>(S);
    return V == lit(".ue8m0x2") || V == lit(".surfref");
  }
  case 11:
    return Name == ".samplerref";
  }
  return false;
}

bool mmptx::isStateSpace(StringRef Name) {
  const char *S = Name.data();
  switch (Name.size()) {
  case 4: {
    uint64_t V = pack<4>(S);
    return V == lit(".reg") || V == lit(".tex");
  }
  case 5: {
    uint64_t V = pack<5>(S);
    return V == lit(".sreg") || V == lit(".surf");
  }
  case 6: {
    uint64_t V = pack<6>(S);
    return V == lit(".const") || V == lit(".local") || V == lit(".param");
  }
  case 7: {
    uint64_t V = pack<7>(S);
    return V == lit(".global") || V == lit(".shared");
  }
  case 8:
    return pack<8>(S) == lit(".sampler");
  }
  return false;
}

static bool isLinkageDirective(StringRef Name) {
  return Name == ".visible" || Name == ".extern" || Name == ".weak" ||
         Name == ".common";
}

namespace {

/// Token cursor over one statement, with located errors.
class StmtParser {
public:
  StmtParser(const Module &M, const Statement &S) : M(M), Lex(M.getText(S)) {
    Lex.next(Tok);
  }

  Error error(const Token &T, const Twine &Msg) {
    if (T.is(Token::Error))
      return DiagnosticError::get(M.getSourceMgr(), T.getLoc(),
                                  Lex.getErrorMessage());
    return DiagnosticError::get(M.getSourceMgr(), T.getLoc(), Msg);
  }
  Error error(const Twine &Msg) { return error(Tok, Msg); }
  /// Error for "expected X" that names what was found instead.
  Error expected(const Twine &What) {
    if (Tok.is(Token::Eof))
      return error(Tok, "expected " + What + " at end of statement");
    return error(Tok, "expected " + What + ", found '" + Tok.Text + "'");
  }

  void consume() {
    LastEnd = Tok.Text.end();
    Lex.next(Tok);
  }
  bool consumeIf(char C) {
    if (!Tok.isPunct(C))
      return false;
    consume();
    return true;
  }
  Error expect(char C) {
    if (consumeIf(C))
      return Error::success();
    return expected(Twine("'") + Twine(C) + "'");
  }

  Error parseInstruction(Instruction &I);
  Error parseOperand(SmallVectorImpl<Operand> &Ops, unsigned Depth);
  /// name ::= (register | identifier) ('.' component)*: `%tid.x`,
  /// `input.x`, `%r1.b0`. Inline: it is most operands.
  LLVM_ATTRIBUTE_ALWAYS_INLINE void parseName() {
    consume();
    while (Tok.is(Token::Directive) && !Tok.SpaceBefore)
      consume();
  }
  /// One operand of a constant expression, with its prefix operators.
  Error parseAtom();
  /// Consumes the current token, and the balanced group it opens if any.
  Error skipGroup();
  /// Checks that the current Integer token fits in 64 bits. Up to 18 bytes
  /// always do (`0x` and 16 digits), so only longer ones are parsed.
  Error checkInteger() {
    if (LLVM_LIKELY(Tok.Text.size() <= 18))
      return Error::success();
    return checkLongInteger();
  }
  Error checkLongInteger();
  Error parseOperandList(SmallVectorImpl<Operand> &Ops, char Close,
                         Operand::Kind K, unsigned Depth);
  Error parseDeclaration(Declaration &D, bool InParams);
  Error parseDeclaredName(Declaration &D, bool InParams);
  Error parseInitializer(StringRef &Out);
  Error parseParamList(SmallVectorImpl<Declaration> &Out);
  Error parseSignature(FunctionSignature &F);
  Error checkTokens();
  Error parseDirective();

  Token Tok;
  /// The end of the last consumed token.
  const char *LastEnd = nullptr;

private:
  /// For its SourceMgr, built only for an error (see Module(Text, Name)).
  const Module &M;
  Lexer Lex;
};

} // namespace

/// instruction ::= ('@' '!'? pred)? opcode ('.' modifier)* operands? ';'
Error StmtParser::parseInstruction(Instruction &I) {
  I.clear();
  if (consumeIf('@')) {
    if (consumeIf('!'))
      I.GuardNegated = true;
    if (!Tok.is(Token::Register) && !Tok.is(Token::Identifier))
      return expected("predicate register after '@'");
    I.Guard = Tok.Text;
    consume();
  }
  if (!Tok.is(Token::Identifier))
    return expected("instruction opcode");
  const char *OpBegin = Tok.Text.data();
  const char *OpEnd = Tok.Text.end();
  I.Mnemonic = Tok.Text;
  consume();
  while (Tok.is(Token::Directive) && !Tok.SpaceBefore) {
    I.Modifiers.push_back(Tok.Text.drop_front());
    OpEnd = Tok.Text.end();
    consume();
  }
  I.Opcode = StringRef(OpBegin, OpEnd - OpBegin);
  if (consumeIf(';'))
    return Tok.is(Token::Eof) ? Error::success()
                              : expected("end of statement after ';'");
  while (true) {
    if (Error E = parseOperand(I.Operands, 0))
      return E;
    if (consumeIf(','))
      continue;
    if (consumeIf(';'))
      break;
    return expected("',' or ';' after operand");
  }
  if (!Tok.is(Token::Eof))
    return expected("end of statement after ';'");
  return Error::success();
}

Error StmtParser::parseOperandList(SmallVectorImpl<Operand> &Ops, char Close,
                                   Operand::Kind K, unsigned Depth) {
  const char *B = Tok.Text.data();
  size_t Slot = Ops.size();
  Ops.push_back(Operand{K, 0, {}});
  consume(); // '{' or '('
  uint32_t N = 0;
  if (!Tok.isPunct(Close)) {
    while (true) {
      if (Error E = parseOperand(Ops, Depth + 1))
        return E;
      ++N;
      if (consumeIf(','))
        continue;
      break;
    }
  }
  if (!Tok.isPunct(Close))
    return expected(Twine("',' or '") + Twine(Close) + "'");
  Ops[Slot].NumElements = N;
  Ops[Slot].Text = StringRef(B, Tok.Text.end() - B);
  consume();
  return Error::success();
}

/// \returns true if \p T is an operator of a PTX constant expression that
/// can follow an operand: `+ - * / % & | ^ < > = ! ? :`.
static bool isBinaryOperator(const Token &T) {
  if (!T.is(Token::Punct))
    return false;
  switch (T.Text[0]) {
  case '+':
  case '-':
  case '*':
  case '/':
  case '%':
  case '&':
  case '|':
  case '^':
  case '<':
  case '>':
  case '=':
  case '!':
  case '?':
  case ':':
    return true;
  }
  return false;
}

Error StmtParser::checkLongInteger() {
  StringRef Digits = Tok.Text;
  uint64_t V;
  if (Digits.drop_back(Digits.back() == 'U').getAsInteger(0, V))
    return error("integer literal does not fit in 64 bits");
  return Error::success();
}

Error StmtParser::skipGroup() {
  // A balanced (...), [...] or {...}: constant expressions, texture
  // coordinates, `generic(sym)`. Open brackets are kept two bits each.
  uint64_t Open = 0;
  unsigned Nest = 0;
  do {
    if (Tok.is(Token::Eof) || Tok.isPunct(';'))
      return expected(Open % 4 == 1 ? "')'" : Open % 4 == 2 ? "']'" : "'}'");
    if (Tok.is(Token::Error))
      return error(Tok, "");
    if (Tok.is(Token::Integer))
      if (Error E = checkInteger())
        return E;
    if (Tok.is(Token::Punct)) {
      char C = Tok.Text[0];
      unsigned Id = C == '(' || C == ')' ? 1 : C == '[' || C == ']' ? 2 : 3;
      if (C == '(' || C == '[' || C == '{') {
        if (Nest == 32)
          return error("operands nested too deeply");
        Open = Open << 2 | Id;
        ++Nest;
      } else if (C == ')' || C == ']' || C == '}') {
        if (!Nest || Open % 4 != Id)
          return error(Twine("unmatched '") + Twine(C) + "'");
        Open >>= 2;
        --Nest;
      }
    }
    consume();
  } while (Nest);
  return Error::success();
}

Error StmtParser::parseAtom() {
  // Prefix operators, then one primary; no structure is kept.
  while (Tok.isPunct('-') || Tok.isPunct('!') || Tok.isPunct('~') ||
         Tok.isPunct('+'))
    consume();
  if (Tok.is(Token::Register) || Tok.is(Token::Identifier)) {
    bool Ident = Tok.is(Token::Identifier);
    parseName();
    if (Ident && Tok.isPunct('(') && !Tok.SpaceBefore)
      return skipGroup();
    return Error::success();
  }
  if (Tok.is(Token::Integer)) {
    if (Error E = checkInteger())
      return E;
    consume();
    return Error::success();
  }
  if (Tok.is(Token::Float)) {
    consume();
    return Error::success();
  }
  if (Tok.isPunct('(') || Tok.isPunct('[') || Tok.isPunct('{'))
    return skipGroup();
  if (Tok.isPunct('%'))
    return error("expected register name after '%'");
  return expected("operand");
}

/// operand ::= primary ('|' name)? (operator atom)*
/// primary ::= vector | list | address | '!' name | '-'? (name | number)
///           | name '(' ... ')'
/// A primary with operators after it is an Opaque constant expression, but
/// for `sym+8` and `sym-8`, which stay Symbols.
Error StmtParser::parseOperand(SmallVectorImpl<Operand> &Ops, unsigned Depth) {
  if (Depth > 8)
    return error("operands nested too deeply");
  const char *B = Tok.Text.data();
  size_t Slot = Ops.size();
  Operand::Kind K;
  // Most operands are a register or a number; test those first.
  bool Neg = consumeIf('-');
  if (Tok.is(Token::Register)) {
    parseName();
    K = Operand::Kind::Register;
  } else if (Tok.is(Token::Integer) || Tok.is(Token::Float)) {
    if (Tok.is(Token::Integer))
      if (Error E = checkInteger())
        return E;
    consume();
    K = Operand::Kind::Immediate;
  } else if (Neg) {
    // `-(3)`: a constant expression.
    if (Error E = parseAtom())
      return E;
    K = Operand::Kind::Opaque;
  } else if (Tok.is(Token::Identifier)) {
    parseName();
    if (Tok.isPunct('(') && !Tok.SpaceBefore)
      if (Error E = skipGroup())
        return E;
    K = Operand::Kind::Symbol;
  } else if (Tok.isPunct('{')) {
    if (Error E = parseOperandList(Ops, '}', Operand::Kind::Vector, Depth))
      return E;
    K = Operand::Kind::Vector;
  } else if (Tok.isPunct('(')) {
    if (Error E = parseOperandList(Ops, ')', Operand::Kind::List, Depth))
      return E;
    K = Operand::Kind::List;
  } else if (Tok.isPunct('[')) {
    // Addresses: `[%rd1+8]`, `[sym]`, `[%rd1+-8]`, and texture and tensor
    // forms `[tex, {..}]`, `[%rd1, {%r2, %r3}]`.
    consume();
    if (Tok.isPunct(']'))
      return expected("address");
    while (!Tok.isPunct(']')) {
      // Names, `+` and short numbers inline; groups, long numbers and
      // errors in skipGroup().
      if (Tok.is(Token::Register) || Tok.is(Token::Identifier) ||
          Tok.isPunct('+') ||
          (Tok.is(Token::Integer) && Tok.Text.size() <= 18)) {
        consume();
        continue;
      }
      if (Tok.is(Token::Eof) || Tok.isPunct(';') || Tok.isPunct('}') ||
          Tok.isPunct(')'))
        return expected("']'");
      if (Error E = skipGroup())
        return E;
    }
    consume();
    K = Operand::Kind::Address;
  } else if (consumeIf('!')) {
    if (Tok.is(Token::Register) || Tok.is(Token::Identifier)) {
      parseName();
      K = Operand::Kind::Predicate;
    } else {
      // `!0`
      if (Error E = parseAtom())
        return E;
      K = Operand::Kind::Opaque;
    }
  } else {
    // `~0`, or an error.
    if (Error E = parseAtom())
      return E;
    K = Operand::Kind::Opaque;
  }
  // Predicate-pair destinations: `%r1|%p1`, `r0|p`, `{%f1, %f2}|%p`.
  if (Tok.isPunct('|') &&
      (K == Operand::Kind::Register || K == Operand::Kind::Symbol ||
       K == Operand::Kind::Vector)) {
    Token::Kind Next = Lex.peek().K;
    if (Next == Token::Register || Next == Token::Identifier) {
      consume();
      parseName();
    }
  }
  // Constant-expression operators after the primary.
  if (isBinaryOperator(Tok)) {
    // `sym+8`, `sym-8` stay Symbols.
    bool Offset =
        K == Operand::Kind::Symbol && (Tok.isPunct('+') || Tok.isPunct('-'));
    unsigned Atoms = 0;
    while (isBinaryOperator(Tok)) {
      consume();
      // Two-byte operators: `<<`, `>=`, `&&`, `||`, `==`, `!=`.
      while (isBinaryOperator(Tok) && !Tok.SpaceBefore && !Tok.isPunct('-') &&
             !Tok.isPunct('!'))
        consume();
      const char *IntEnd = Tok.is(Token::Integer) ? Tok.Text.end() : nullptr;
      if (Error E = parseAtom())
        return E;
      Offset &= ++Atoms == 1 && LastEnd == IntEnd;
    }
    if (!Offset)
      K = Operand::Kind::Opaque;
  }
  StringRef Text(B, LastEnd - B);
  if (K == Operand::Kind::Vector || K == Operand::Kind::List) {
    Ops[Slot].Text = Text;
    return Error::success();
  }
  // An expression over a vector or list keeps no elements.
  Ops.resize(Slot);
  Ops.push_back(Operand{K, 0, Text});
  return Error::success();
}

/// initializer ::= '{' initializer (',' initializer)* '}' | expression
Error StmtParser::parseInitializer(StringRef &Out) {
  const char *B = Tok.Text.data();
  const char *E = B;
  unsigned Nest = 0;
  bool Any = false;
  while (true) {
    if (Tok.is(Token::Eof))
      return expected("';' after initializer");
    if (Tok.is(Token::Error))
      return error(Tok, "");
    if (Nest == 0 && (Tok.isPunct(';') || Tok.isPunct(',')))
      break;
    if (Tok.isPunct('{') || Tok.isPunct('('))
      ++Nest;
    else if (Tok.isPunct('}') || Tok.isPunct(')')) {
      if (Nest == 0)
        return error("unmatched '" + Tok.Text + "' in initializer");
      --Nest;
    }
    if (Tok.is(Token::Integer))
      if (Error Err = checkInteger())
        return Err;
    Any = true;
    E = Tok.Text.end();
    consume();
  }
  if (!Any)
    return expected("initializer after '='");
  Out = StringRef(B, E - B);
  return Error::success();
}

/// name ::= (register | identifier) ('<' integer '>')? ('[' integer? ']')*
///          ('=' initializer)?
Error StmtParser::parseDeclaredName(Declaration &D, bool InParams) {
  if (!Tok.is(Token::Register) && !Tok.is(Token::Identifier))
    return expected("name in declaration");
  DeclaredName N;
  N.Name = Tok.Text;
  consume();
  if (Tok.isPunct('<')) {
    Token Open = Tok;
    if (D.StateSpace != ".reg")
      return error(Open, "'<N>' ranges are only allowed in .reg declarations");
    consume();
    if (!Tok.is(Token::Integer))
      return expected("register count");
    uint64_t Count;
    if (Tok.Text.rtrim('U').getAsInteger(0, Count) || Count == 0 ||
        Count > (uint64_t(1) << 31))
      return error("register count must be between 1 and 2^31");
    N.RangeCount = Count;
    consume();
    if (Error E = expect('>'))
      return E;
  }
  while (Tok.isPunct('[')) {
    consume();
    uint64_t Dim = 0;
    if (Tok.is(Token::Integer)) {
      if (Tok.Text.rtrim('U').getAsInteger(0, Dim))
        return error("array dimension out of range");
      consume();
    }
    if (Error E = expect(']'))
      return E;
    N.Dims.push_back(Dim);
  }
  if (!InParams && consumeIf('=')) {
    if (Error E = parseInitializer(N.Initializer))
      return E;
  }
  D.Names.push_back(std::move(N));
  return Error::success();
}

/// declaration ::= linkage* state-space qualifier* name (',' name)* ';'
Error StmtParser::parseDeclaration(Declaration &D, bool InParams) {
  while (Tok.is(Token::Directive) && isLinkageDirective(Tok.Text)) {
    D.Linkage.push_back(Tok.Text);
    consume();
  }
  if (!Tok.is(Token::Directive) || !isStateSpace(Tok.Text))
    return expected("state space such as '.reg' or '.global'");
  D.StateSpace = Tok.Text;
  consume();
  while (Tok.is(Token::Directive)) {
    StringRef Q = Tok.Text;
    if (Q == ".align") {
      consume();
      if (!Tok.is(Token::Integer) ||
          Tok.Text.rtrim('U').getAsInteger(0, D.Alignment) ||
          D.Alignment == 0 || (D.Alignment & (D.Alignment - 1)))
        return expected("power-of-two alignment after '.align'");
      D.Qualifiers.push_back(Q);
      consume();
      continue;
    }
    if (Q == ".attribute") {
      D.Qualifiers.push_back(Q);
      consume();
      if (!Tok.isPunct('('))
        return expected("'(' after '.attribute'");
      while (!Tok.isPunct(')')) {
        if (Tok.is(Token::Eof) || Tok.is(Token::Error))
          return expected("')'");
        consume();
      }
      consume();
      continue;
    }
    D.Qualifiers.push_back(Q);
    if (isPTXType(Q)) {
      if (!D.Type.empty())
        return error("more than one type in declaration");
      D.Type = Q;
    } else if (Q != ".v2" && Q != ".v4" && Q != ".v8" &&
               // `.param .u64 .ptr .global .align 16 p`
               (D.StateSpace == ".reg" || (Q != ".ptr" && !isStateSpace(Q)))) {
      return error("unknown PTX type '" + Q + "'");
    }
    consume();
  }
  if (D.StateSpace == ".reg" && D.Type.empty())
    return expected("type in register declaration");
  if (Error E = parseDeclaredName(D, InParams))
    return E;
  while (!InParams && consumeIf(',')) {
    if (Error E = parseDeclaredName(D, InParams))
      return E;
  }
  return Error::success();
}

/// params ::= '(' (declaration (',' declaration)*)? ')'
Error StmtParser::parseParamList(SmallVectorImpl<Declaration> &Out) {
  if (Error E = expect('('))
    return E;
  if (consumeIf(')'))
    return Error::success();
  while (true) {
    Declaration D;
    if (Error E = parseDeclaration(D, /*InParams=*/true))
      return E;
    Out.push_back(std::move(D));
    if (consumeIf(','))
      continue;
    return expect(')');
  }
}

/// header ::= linkage* ('.entry' | '.func') params? name params?
///            (directive args)* ';'?
Error StmtParser::parseSignature(FunctionSignature &F) {
  while (Tok.is(Token::Directive) && isLinkageDirective(Tok.Text)) {
    F.Linkage.push_back(Tok.Text);
    consume();
  }
  if (Tok.is(Token::Directive) && Tok.Text == ".entry")
    F.IsEntry = true;
  else if (!Tok.is(Token::Directive) || Tok.Text != ".func")
    return expected("'.entry' or '.func'");
  consume();
  if (!F.IsEntry && Tok.isPunct('(')) {
    if (Error E = parseParamList(F.Returns))
      return E;
  }
  if (!Tok.is(Token::Identifier))
    return expected("function name");
  F.Name = Tok.Text;
  consume();
  if (Tok.isPunct('(')) {
    if (Error E = parseParamList(F.Params))
      return E;
  }
  while (Tok.is(Token::Directive)) {
    StringRef Name = Tok.Text;
    consume();
    const char *B = Tok.Text.data();
    const char *E = B;
    while (!Tok.is(Token::Directive) && !Tok.is(Token::Eof) &&
           !Tok.isPunct(';')) {
      if (Tok.is(Token::Error))
        return error(Tok, "");
      E = Tok.Text.end();
      consume();
    }
    F.Attributes.push_back({Name, StringRef(B, E > B ? E - B : 0)});
    // `.entry k .pragma "nounroll"; {`: the `;` ends the pragma only.
    if (Name == ".pragma" && Tok.isPunct(';'))
      consume();
  }
  if (consumeIf(';'))
    F.IsPrototype = true;
  if (!Tok.is(Token::Eof))
    return expected("end of function header");
  return Error::success();
}

Error StmtParser::checkTokens() {
  while (!Tok.is(Token::Eof)) {
    if (Tok.is(Token::Error))
      return error(Tok, "");
    if (Tok.is(Token::Integer))
      if (Error E = checkInteger())
        return E;
    consume();
  }
  return Error::success();
}

/// Directives: declarations are parsed in full, the module header checked,
/// everything else only lexed.
Error StmtParser::parseDirective() {
  StringRef Word = Tok.Text;
  if (Word == "#") {
    // `# 1 "k.cu" 2` or `#line 1 "k.cu"`: a C preprocessor line marker.
    consume();
    if (Tok.is(Token::Identifier) && Tok.Text == "line" && !Tok.SpaceBefore)
      consume();
    if (!Tok.is(Token::Integer))
      return expected("line number after '#'");
    consume();
    if (Tok.is(Token::String))
      consume();
    while (Tok.is(Token::Integer))
      consume();
    if (!Tok.is(Token::Eof))
      return expected("end of line marker");
    return Error::success();
  }
  if (isStateSpace(Word) || isLinkageDirective(Word)) {
    Declaration D;
    if (Error E = parseDeclaration(D, /*InParams=*/false))
      return E;
    if (!consumeIf(';'))
      return expected("';' after declaration");
    return checkTokens();
  }
  if (Word == ".version") {
    consume();
    // major.minor: no exponent, digits on both sides of the dot.
    StringRef V = Tok.Text;
    size_t Dot = V.find('.');
    if (!Tok.is(Token::Float) || Dot == 0 || Dot + 1 >= V.size() ||
        !llvm::all_of(V.substr(0, Dot), isDigit) ||
        !llvm::all_of(V.substr(Dot + 1), isDigit))
      return expected("version number such as '9.0'");
    consume();
  } else if (Word == ".address_size") {
    consume();
    if (!Tok.is(Token::Integer) || (Tok.Text != "32" && Tok.Text != "64"))
      return expected("address size 32 or 64");
    consume();
  } else if (Word == ".target") {
    consume();
    while (true) {
      if (!Tok.is(Token::Identifier))
        return expected("target name");
      consume();
      if (!consumeIf(','))
        break;
    }
  }
  return checkTokens();
}

Error mmptx::parseInstruction(const Module &M, const Statement &S,
                              Instruction &Out) {
  StmtParser P(M, S);
  return P.parseInstruction(Out);
}

Error mmptx::parseDeclaration(const Module &M, const Statement &S,
                              Declaration &Out) {
  StmtParser P(M, S);
  if (Error E = P.parseDeclaration(Out, /*InParams=*/false))
    return E;
  if (!P.consumeIf(';'))
    return P.expected("';' after declaration");
  return P.checkTokens();
}

Error mmptx::parseFunctionSignature(const Module &M, const Statement &S,
                                    FunctionSignature &Out) {
  StmtParser P(M, S);
  return P.parseSignature(Out);
}

Error mmptx::verifyStatement(const Module &M, const Statement &S) {
  switch (S.Kind) {
  case StmtKind::Comment:
  case StmtKind::ScopeBegin:
  case StmtKind::ScopeEnd:
  case StmtKind::Empty:
    // Nothing to lex: the structural pass has checked them.
    return Error::success();
  default:
    break;
  }
  StmtParser P(M, S);
  switch (S.Kind) {
  case StmtKind::Instruction: {
    Instruction I;
    return P.parseInstruction(I);
  }
  case StmtKind::FunctionHeader: {
    FunctionSignature F;
    return P.parseSignature(F);
  }
  case StmtKind::Directive:
    return P.parseDirective();
  case StmtKind::Label:
    if (!P.Tok.is(Token::Identifier))
      return P.expected("label name");
    P.consume();
    if (Error E = P.expect(':'))
      return E;
    return P.checkTokens();
  case StmtKind::Comment:
  case StmtKind::ScopeBegin:
  case StmtKind::ScopeEnd:
  case StmtKind::Empty:
    return Error::success();
  }
  return Error::success();
}

Error mmptx::verifyModule(const Module &M) { return verifyModule(M, nullptr); }

Error mmptx::verifyModule(const Module &M,
                          function_ref<bool(StringRef, StmtKind)> Skip) {
  // One Instruction reused across statements keeps the full parse
  // allocation-free for ordinary instructions; built at the first
  // instruction that \p Skip leaves to the parse.
  Optional<Instruction> I;
  StringRef Buffer = M.getBuffer();
  for (const Statement &S : M.statements()) {
    // Comments, scopes and empty statements are never parsed, skipped or
    // not: \p Skip is not asked about them.
    if (S.Kind == StmtKind::Comment || S.Kind == StmtKind::ScopeBegin ||
        S.Kind == StmtKind::ScopeEnd || S.Kind == StmtKind::Empty)
      continue;
    if (Skip &&
        Skip(StringRef(Buffer.data() + S.Begin, S.End - S.Begin), S.Kind))
      continue;
    switch (S.Kind) {
    case StmtKind::Instruction:
      if (!I)
        I.emplace();
      if (Error E = parseInstruction(M, S, *I))
        return E;
      break;
    case StmtKind::Directive:
    case StmtKind::FunctionHeader:
    case StmtKind::Label:
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
