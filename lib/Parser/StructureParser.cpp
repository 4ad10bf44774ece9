//===- StructureParser.cpp - Fast structural pass over PTX ----------------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// One forward pass over the bytes that splits PTX into statements.
///
/// 1. Reject NUL bytes up front (one memchr), so later scans can treat the
///    buffer as text.
/// 2. Skip blanks; classify the next statement by its first byte:
///    `//` / `/*` comment, `{`, `}`, `;`, `.` directive, `@` or identifier
///    (label if followed by `:`, else instruction).
/// 3. Find the statement's extent by walking a bit mask of the bytes that
///    can stop any scan (`;` `/` `"` `{` `}` `:` `(` `)` `=` `\n` and the
///    `J` of `PTX_INJECT`), classified 64 bytes at a time (StopIndex; SSE2
///    compares, a byte-class table elsewhere). Each scan tests only the stop
///    bytes, so its cost is per interesting byte, not per byte: instructions
///    end at `;` (the first `:` after a bare identifier makes a label
///    instead); directives end at `;` or at the end of the line (`.version`,
///    `.loc`, section bytes) unless a parenthesis or initializer is open;
///    function headers end before `{` or at `;`. Comments and strings inside
///    a statement are skipped whole. Line comments end at the first newline
///    stop; their `J` stops are checked for `PTX_INJECT`.
/// 4. Keep a stack of open scopes to link `{` with `}` and to link each
///    `.entry`/`.func`/`.section` header with the body that follows it.
///
/// The pass is memory-bound only if nothing per statement is slow: no
/// StringRef::find/trim (out of line, with tables built per call), no
/// comparisons a first byte can rule out, and statements written field by
/// field into the vector (copying a freshly built temporary stalls store
/// forwarding).
///
/// Every loop advances by at least one byte and checks the end of the buffer,
/// so no input can make it hang or read out of bounds.
///
//===----------------------------------------------------------------------===//

#include "mmptx/Parser/Parser.h"
#include "mmptx/Support/Diagnostic.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

using namespace llvm;
using namespace mmptx;
using namespace mmptx::ptx;

namespace {

enum CharClass : uint8_t {
  CC_Blank = 1 << 0,     // ' ' '\t' '\r' '\f' '\v' '\n'
  CC_Ident = 1 << 1,     // [A-Za-z0-9_$%.]
  CC_IdentStart = 1 << 2, // [A-Za-z_$%]
  CC_InstrStop = 1 << 3, // ; / " { } :
  CC_DirStop = 1 << 4,   // ; / " { } ( ) = \n
  CC_Word = 1 << 5,      // [A-Za-z0-9_$%]: CC_Ident without '.'
  CC_Stop = 1 << 6,      // CC_InstrStop | CC_DirStop | 'J' (StopIndex)
};

/// What a statement's first byte makes it; one table lookup and one switch
/// instead of a chain of compares.
enum StartKind : uint8_t {
  SK_Invalid,
  SK_Slash,
  SK_ScopeBegin,
  SK_ScopeEnd,
  SK_Empty,
  SK_Directive,
  SK_Instruction, // '@' or CC_IdentStart
};

struct CharTable {
  uint8_t Cls[256] = {};
  uint8_t Start[256] = {};
  constexpr CharTable() {
    for (unsigned C : {' ', '\t', '\r', '\f', '\v', '\n'})
      Cls[C] |= CC_Blank;
    for (unsigned C = 'a'; C <= 'z'; ++C)
      Cls[C] |= CC_Ident | CC_IdentStart;
    for (unsigned C = 'A'; C <= 'Z'; ++C)
      Cls[C] |= CC_Ident | CC_IdentStart;
    for (unsigned C = '0'; C <= '9'; ++C)
      Cls[C] |= CC_Ident;
    for (unsigned C : {'_', '$', '%'})
      Cls[C] |= CC_Ident | CC_IdentStart;
    for (unsigned C = 0; C < 256; ++C)
      if (Cls[C] & CC_Ident)
        Cls[C] |= CC_Word;
    Cls[unsigned('.')] |= CC_Ident;
    for (unsigned C : {';', '/', '"', '{', '}'})
      Cls[C] |= CC_InstrStop | CC_DirStop;
    Cls[unsigned(':')] |= CC_InstrStop;
    for (unsigned C : {'(', ')', '=', '\n'})
      Cls[C] |= CC_DirStop;
    for (unsigned C = 0; C < 256; ++C)
      if (Cls[C] & (CC_InstrStop | CC_DirStop))
        Cls[C] |= CC_Stop;
    Cls[unsigned('J')] |= CC_Stop;
    for (unsigned C = 0; C < 256; ++C)
      if (Cls[C] & CC_IdentStart)
        Start[C] = SK_Instruction;
    Start[unsigned('@')] = SK_Instruction;
    Start[unsigned('/')] = SK_Slash;
    Start[unsigned('{')] = SK_ScopeBegin;
    Start[unsigned('}')] = SK_ScopeEnd;
    Start[unsigned(';')] = SK_Empty;
    Start[unsigned('.')] = SK_Directive;
  }
};
constexpr CharTable Table;

inline bool is(char C, uint8_t Mask) {
  return Table.Cls[static_cast<unsigned char>(C)] & Mask;
}

#if defined(__SSE2__)
/// \returns a bit mask of the 16 bytes at \p Q that may be CC_Stop.
inline unsigned stopMask16(const char *Q) {
  __m128i V = _mm_loadu_si128(reinterpret_cast<const __m128i *>(Q));
  // Clearing bits 6 and 0 folds eight stops onto three values, for six
  // compares in all: '\n' 'J' -> 0x0A, ':' ';' '{' -> 0x3A, '=' '}' -> 0x3C.
  // It also lets through '\v' 'K' 'z' '<' '|', which are rare and which
  // the scans reject by class.
  __m128i E = _mm_and_si128(V, _mm_set1_epi8(char(0xBE)));
  __m128i Parens = _mm_and_si128(V, _mm_set1_epi8(char(0xFE)));
  __m128i Hit = _mm_or_si128(_mm_cmpeq_epi8(E, _mm_set1_epi8(0x0A)),
                             _mm_cmpeq_epi8(E, _mm_set1_epi8(0x3A)));
  Hit = _mm_or_si128(Hit, _mm_cmpeq_epi8(E, _mm_set1_epi8(0x3C)));
  Hit = _mm_or_si128(Hit, _mm_cmpeq_epi8(Parens, _mm_set1_epi8('(')));
  Hit = _mm_or_si128(Hit, _mm_cmpeq_epi8(V, _mm_set1_epi8('/')));
  Hit = _mm_or_si128(Hit, _mm_cmpeq_epi8(V, _mm_set1_epi8('"')));
  return unsigned(_mm_movemask_epi8(Hit));
}
#endif

/// A bit mask of the bytes of a buffer that may be CC_Stop, 64 bytes at a
/// time from wherever a scan asks. Scans walk its set bits, so they pay per
/// candidate stop rather than per byte, and the bytes of one block are
/// classified once for all the statements in it.
class StopIndex {
public:
  StopIndex(const char *Begin, const char *End) : End(End) { classify(Begin); }

  /// \returns the first byte of [\p Q, End) that may be CC_Stop (a
  /// superset: callers check the byte's class), or End.
  const char *next(const char *Q) {
    // Also true for a Q before Base, after a backward jump.
    if (LLVM_UNLIKELY(size_t(Q - Base) >= 64)) {
      if (Q >= End)
        return End;
      classify(Q);
    }
    uint64_t M = Bits & (~uint64_t(0) << (Q - Base));
    while (!M) {
      if (End - Base <= 64)
        return End;
      classify(Base + 64);
      M = Bits;
    }
    return Base + countTrailingZeros(M, ZB_Undefined);
  }

private:
  /// \returns the CC_Stop mask of the 64 bytes at \p B.
  static uint64_t stopBits(const char *B) {
#if defined(__SSE2__)
    return uint64_t(stopMask16(B)) | uint64_t(stopMask16(B + 16)) << 16 |
           uint64_t(stopMask16(B + 32)) << 32 |
           uint64_t(stopMask16(B + 48)) << 48;
#else
    uint64_t Bits = 0;
    for (unsigned I = 0; I < 64; ++I)
      Bits |= uint64_t(is(B[I], CC_Stop)) << I;
    return Bits;
#endif
  }

  /// Classifies [\p B, \p B + 64); bytes past End are not stops.
  void classify(const char *B) {
    Base = B;
    Bits = LLVM_LIKELY(End - B >= 64) ? stopBits(B) : tailBits(B);
  }
  /// The last block: classifies a copy padded with blanks, so that no load
  /// goes past End.
  LLVM_ATTRIBUTE_NOINLINE uint64_t tailBits(const char *B) const {
    alignas(16) char Buf[64];
    std::memset(Buf, ' ', sizeof(Buf));
    std::memcpy(Buf, B, End - B);
    return stopBits(Buf);
  }

  const char *Base;
  uint64_t Bits;
  const char *End;
};

/// \returns the first byte of [\p Q, \p End) that is not CC_Blank, or \p End.
/// Most gaps are a newline and an indent: one 16-byte block, no per-byte
/// branches.
inline const char *skipBlanks(const char *Q, const char *End) {
  // nvcc's gaps are a newline and at most one tab: test those bytes first.
  for (unsigned I = 0; I < 3; ++I, ++Q)
    if (Q == End || !is(*Q, CC_Blank))
      return Q;
#if defined(__SSE2__)
  while (End - Q >= 16) {
    __m128i V = _mm_loadu_si128(reinterpret_cast<const __m128i *>(Q));
    // '\t'..'\r' map to -128..-124, below everything else once shifted.
    __m128i Ctl = _mm_cmplt_epi8(_mm_add_epi8(V, _mm_set1_epi8(0x80 - '\t')),
                                 _mm_set1_epi8(-128 + 5));
    __m128i Blank = _mm_or_si128(Ctl, _mm_cmpeq_epi8(V, _mm_set1_epi8(' ')));
    if (unsigned NonBlank = ~unsigned(_mm_movemask_epi8(Blank)) & 0xffff)
      return Q + __builtin_ctz(NonBlank);
    Q += 16;
  }
#endif
  while (Q < End && is(*Q, CC_Blank))
    ++Q;
  return Q;
}

/// The text every inject marker contains; `MMPTX_INJECT` contains it too.
constexpr char MarkerText[] = "PTX_INJECT";
constexpr size_t MarkerLen = sizeof(MarkerText) - 1;
/// Offset of the 'J' in MarkerText: the rarest byte, so the one searched for.
constexpr size_t MarkerJ = 6;

/// \returns true if the 'J' at \p J, inside [\p B, \p End), is the 'J' of
/// MarkerText.
inline bool isMarkerAt(const char *J, const char *B, const char *End) {
  return size_t(J - B) >= MarkerJ && size_t(End - J) >= MarkerLen - MarkerJ &&
         std::memcmp(J - MarkerJ, MarkerText, MarkerLen) == 0;
}

/// \returns true if [\p B, \p E) contains MarkerText.
bool containsMarker(const char *B, const char *E) {
  for (const char *S = B; S < E;) {
    const void *J = std::memchr(S, 'J', E - S);
    if (!J)
      return false;
    S = static_cast<const char *>(J);
    if (isMarkerAt(S, B, E))
      return true;
    ++S;
  }
  return false;
}

/// \returns true if [\p S, \p E) is \p Word followed only by blanks. The
/// comparison has a constant size, so it is inlined.
template <size_t N>
inline bool isWordThenBlanks(const char *S, const char *E,
                             const char (&Word)[N]) {
  if (size_t(E - S) < N - 1 || std::memcmp(S, Word, N - 1) != 0)
    return false;
  for (S += N - 1; S < E; ++S)
    if (!is(*S, CC_Blank))
      return false;
  return true;
}

class StructureParser {
public:
  StructureParser(const SourceMgr &SM, Module &M)
      : SM(SM), M(M), Stmts(M.getStatementsForBuild()),
        Start(M.getBuffer().begin()), P(Start), End(M.getBuffer().end()),
        Stops(Start, End) {}

  Error run();

private:
  Error error(const char *Loc, const Twine &Msg) {
    return DiagnosticError::get(SM, SMLoc::getFromPointer(Loc), Msg);
  }
  Error errorWithNote(const char *Loc, const Twine &Msg, const char *NoteLoc,
                      const Twine &Note) {
    return DiagnosticError::getWithNote(SM, SMLoc::getFromPointer(Loc), Msg,
                                        SMLoc::getFromPointer(NoteLoc), Note);
  }
  Error unexpectedChar(const char *Loc);

  void add(const char *B, const char *E, StmtKind K, uint8_t Flags = 0) {
    // Field by field into the vector: building a temporary and copying it
    // would load 12 bytes right after narrow stores (a store-forwarding
    // stall per statement).
    Stmts.emplace_back();
    Statement &S = Stmts.back();
    S.Begin = uint32_t(B - Start);
    S.End = uint32_t(E - Start);
    S.Kind = K;
    S.Flags = Flags;
    S.Depth = uint16_t(OpenScopes.size());
    S.Link = Statement::NoIndex;
  }

  /// Skips a `//` comment starting at \p Q; \returns its end (before the
  /// newline and any carriage return).
  const char *skipLineComment(const char *Q) const;
  /// skipLineComment() that also sets \p Marker if the comment contains
  /// MarkerText, in the same pass.
  const char *scanLineComment(const char *Q, bool &Marker);
  /// \returns the first byte of [\p Q, End) in class \p Mask, a subset of
  /// CC_Stop, or End.
  const char *findStop(const char *Q, uint8_t Mask) {
    while (true) {
      Q = Stops.next(Q);
      if (Q == End || is(*Q, Mask))
        return Q;
      ++Q;
    }
  }
  /// Skips a `/*` comment; \returns past `*/`, or nullptr if unterminated.
  const char *skipBlockComment(const char *Q) const;
  /// Skips a string literal starting at the quote; \returns past the closing
  /// quote, or nullptr if the line or buffer ends first.
  const char *skipString(const char *Q) const;

  Error scanComment();
  Error scanInstructionOrLabel();
  Error scanDirective();
  /// \p KWEnd is just past the `.entry`/`.func` keyword.
  Error scanFunctionHeader(const char *B, const char *KWEnd, bool IsEntry);
  Error finishFunction(uint32_t HeaderIdx, const char *B, const char *KWEnd,
                       bool IsEntry);

  const SourceMgr &SM;
  Module &M;
  std::vector<Statement> &Stmts;
  const char *Start, *P, *End;
  StopIndex Stops;
  std::vector<uint32_t> OpenScopes;
  /// A header (function or .section) still waiting for its `{`.
  uint32_t PendingHeader = Statement::NoIndex;
  bool InInlineAsm = false;
};

const char *StructureParser::skipLineComment(const char *Q) const {
  const void *NL = std::memchr(Q, '\n', End - Q);
  const char *E = NL ? static_cast<const char *>(NL) : End;
  if (E > Q && E[-1] == '\r')
    --E;
  return E;
}

const char *StructureParser::scanLineComment(const char *Q, bool &Marker) {
  // 'J' and '\n' are both stops: one walk finds the end and the markers.
  const char *S = Q + 2;
  while (true) {
    S = Stops.next(S);
    if (S == End || *S == '\n')
      break;
    if (*S == 'J' && isMarkerAt(S, Q, End))
      Marker = true;
    ++S;
  }
  if (S[-1] == '\r')
    --S;
  return S;
}

const char *StructureParser::skipBlockComment(const char *Q) const {
  for (const char *S = Q + 2; S + 1 < End;) {
    const void *Star = std::memchr(S, '*', End - S - 1);
    if (!Star)
      return nullptr;
    S = static_cast<const char *>(Star);
    if (S[1] == '/')
      return S + 2;
    ++S;
  }
  return nullptr;
}

const char *StructureParser::skipString(const char *Q) const {
  for (const char *S = Q + 1; S < End; ++S) {
    if (*S == '"')
      return S + 1;
    if (*S == '\\' && S + 1 < End && S[1] != '\n')
      ++S;
    else if (*S == '\n')
      return nullptr;
  }
  return nullptr;
}

Error StructureParser::unexpectedChar(const char *Loc) {
  unsigned char C = *Loc;
  if (C >= 0x20 && C < 0x7f)
    return error(Loc, Twine("unexpected character '") + Twine(char(C)) + "'");
  char Hex[3] = {hexdigit(C >> 4, /*LowerCase=*/true),
                 hexdigit(C & 15, /*LowerCase=*/true), 0};
  return error(Loc, Twine("invalid byte 0x") + Hex + " in PTX text");
}

Error StructureParser::scanComment() {
  const char *B = P;
  const char *E;
  uint8_t Flags = 0;
  bool Marker = false;
  if (P + 1 < End && P[1] == '/') {
    E = scanLineComment(P, Marker);
    // Only short line comments can be inline-asm brackets; the first
    // non-blank byte tells which one it may be.
    size_t Len = E - B;
    if (Len <= 32 && Len >= 16) {
      const char *S = B + 2;
      while (S < E && is(*S, CC_Blank))
        ++S;
      if (S < E && *S == 'b' && isWordThenBlanks(S, E, "begin inline asm")) {
        Flags |= SF_BeginInlineAsm;
        InInlineAsm = true;
      } else if (S < E && *S == 'e' &&
                 isWordThenBlanks(S, E, "end inline asm")) {
        Flags |= SF_EndInlineAsm;
        InInlineAsm = false;
      }
    }
  } else if (P + 1 < End && P[1] == '*') {
    E = skipBlockComment(P);
    if (!E)
      return error(B, "unterminated block comment");
    Marker = containsMarker(B, E);
  } else {
    return unexpectedChar(B);
  }
  // Inject markers are confirmed later by the inject-site layer.
  Flags |= Marker ? SF_MaybeInjectMarker : 0;
  if (InInlineAsm && !(Flags & SF_BeginInlineAsm))
    Flags |= SF_InInlineAsm;
  add(B, E, StmtKind::Comment, Flags);
  P = E;
  return Error::success();
}

/// \returns true if [\p B, \p Colon) is an identifier followed by spaces
/// or tabs, which makes the ':' at \p Colon end a label.
static bool isLabelBefore(const char *B, const char *Colon) {
  const char *Q = B;
  while (Q < Colon && is(*Q, CC_Ident))
    ++Q;
  if (Q == B)
    return false;
  while (Q < Colon && (*Q == ' ' || *Q == '\t'))
    ++Q;
  return Q == Colon;
}

Error StructureParser::scanInstructionOrLabel() {
  const char *B = P;
  const char *Q = P;
  // `name:` is a label; only the first ':' can end one.
  bool MaybeLabel = *Q != '@';
  // Instruction: up to the first `;` outside comments and strings. Braces
  // are vector operands; a `}` that closes nothing means a missing `;`.
  unsigned Braces = 0;
  while (true) {
    Q = findStop(Q, CC_InstrStop);
    if (Q == End) {
      // Point just past the last non-blank byte, where `;` was expected.
      const char *LastSig = End;
      while (LastSig > B && is(LastSig[-1], CC_Blank))
        --LastSig;
      return error(LastSig, "expected ';' at end of instruction");
    }
    switch (*Q) {
    case ':':
      if (MaybeLabel && isLabelBefore(B, Q)) {
        add(B, Q + 1, StmtKind::Label, InInlineAsm ? SF_InInlineAsm : 0);
        P = Q + 1;
        return Error::success();
      }
      MaybeLabel = false;
      ++Q;
      break;
    case ';':
      if (Braces == 0) {
        add(B, Q + 1, StmtKind::Instruction,
            InInlineAsm ? SF_InInlineAsm : 0);
        P = Q + 1;
        return Error::success();
      }
      return error(Q, "expected '}' before ';'");
    case '{':
      ++Braces;
      ++Q;
      break;
    case '}':
      if (Braces == 0)
        return error(Q, "expected ';' before '}'");
      --Braces;
      ++Q;
      break;
    case '"': {
      const char *E = skipString(Q);
      if (!E)
        return error(Q, "unterminated string");
      Q = E;
      break;
    }
    case '/':
      if (Q + 1 < End && Q[1] == '/') {
        Q = skipLineComment(Q);
      } else if (Q + 1 < End && Q[1] == '*') {
        const char *E = skipBlockComment(Q);
        if (!E)
          return error(Q, "unterminated block comment");
        Q = E;
      } else {
        ++Q;
      }
      break;
    }
  }
}

/// \returns true if \p Word is a linkage directive that may precede a
/// function header or variable declaration.
static bool isLinkage(StringRef Word) {
  return Word == ".visible" || Word == ".extern" || Word == ".weak" ||
         Word == ".common";
}

Error StructureParser::scanDirective() {
  const char *B = P;
  // Look past linkage words to see whether this is a function header.
  const char *Q = P;
  while (true) {
    // Only .entry/.extern, .func, .visible, .weak and .common matter here;
    // the byte after the '.' rules out the others (.reg, .loc...) before
    // the word is scanned.
    char C1 = Q + 1 < End ? Q[1] : 0;
    if (C1 != 'e' && C1 != 'f' && C1 != 'v' && C1 != 'w' && C1 != 'c')
      break;
    const char *W = Q;
    ++Q; // the '.'
    while (Q < End && is(*Q, CC_Word))
      ++Q;
    StringRef Word(W, Q - W);
    if (Word == ".entry" || Word == ".func")
      return scanFunctionHeader(B, Q, Word == ".entry");
    if (!isLinkage(Word))
      break;
    while (Q < End && (*Q == ' ' || *Q == '\t' || *Q == '\r' || *Q == '\n'))
      ++Q;
    if (Q == End || *Q != '.')
      break;
  }

  // A general directive: ends at `;`, or at the end of the line when no
  // parenthesis or initializer brace is open.
  unsigned Parens = 0, Braces = 0;
  bool SeenEq = false;
  const char *LastSig = B + 1;
  Q = B + 1;
  while (true) {
    const char *Stop = findStop(Q, CC_DirStop);
    // The last non-blank byte before the stop is significant.
    for (const char *X = Stop; X > Q; --X) {
      if (!is(X[-1], CC_Blank)) {
        LastSig = X;
        break;
      }
    }
    Q = Stop;
    if (Q == End) {
      if (Parens || Braces)
        return error(LastSig, Parens ? "expected ')' in directive"
                                     : "expected '}' in initializer");
      break;
    }
    char C = *Q;
    if (C == '\n') {
      if (!Parens && !Braces)
        break;
      ++Q;
      continue;
    }
    if (C == ';') {
      if (Parens)
        return error(Q, "expected ')' before ';'");
      if (Braces)
        return error(Q, "expected '}' before ';'");
      LastSig = Q + 1;
      break;
    }
    if (C == '/') {
      if (Q + 1 < End && Q[1] == '/') {
        if (!Parens && !Braces)
          break; // a trailing comment is its own statement
        Q = skipLineComment(Q);
        continue;
      }
      if (Q + 1 < End && Q[1] == '*') {
        const char *E = skipBlockComment(Q);
        if (!E)
          return error(Q, "unterminated block comment");
        Q = E;
        continue;
      }
      LastSig = ++Q;
      continue;
    }
    if (C == '"') {
      const char *E = skipString(Q);
      if (!E)
        return error(Q, "unterminated string");
      LastSig = Q = E;
      continue;
    }
    switch (C) {
    case '(':
      ++Parens;
      break;
    case ')':
      if (!Parens)
        return error(Q, "unmatched ')'");
      --Parens;
      break;
    case '=':
      SeenEq = true;
      break;
    case '{':
      // `.section name {` opens a body; `= {` opens an initializer.
      if (!SeenEq && !Parens && !Braces)
        goto Done;
      ++Braces;
      break;
    case '}':
      if (!Braces)
        goto Done;
      --Braces;
      break;
    }
    LastSig = ++Q;
  }
Done:
  add(B, LastSig, StmtKind::Directive, InInlineAsm ? SF_InInlineAsm : 0);
  P = LastSig;
  if (OpenScopes.empty()) {
    StringRef Word = StringRef(B, LastSig - B);
    Word = Word.take_until([](char C) { return is(C, CC_Blank); });
    if (Word == ".version" || Word == ".target" || Word == ".address_size")
      M.getHeaderForBuild().push_back(Stmts.size() - 1);
    else if (Word == ".section")
      PendingHeader = Stmts.size() - 1;
  }
  return Error::success();
}

Error StructureParser::scanFunctionHeader(const char *B, const char *KWEnd,
                                          bool IsEntry) {
  // Up to the body's `{` or through a prototype's `;`, skipping parameter
  // lists, comments and strings. Trailing comments become their own
  // statements.
  unsigned Parens = 0;
  const char *Q = B;
  const char *LastSig = B + 1;
  while (true) {
    if (Q == End)
      return error(LastSig, Parens ? "expected ')' in parameter list"
                                   : "expected '{' or ';' after function "
                                     "header");
    char C = *Q;
    if (C == '/' && Q + 1 < End && Q[1] == '/') {
      Q = skipLineComment(Q);
      continue;
    }
    if (C == '/' && Q + 1 < End && Q[1] == '*') {
      const char *E = skipBlockComment(Q);
      if (!E)
        return error(Q, "unterminated block comment");
      Q = E;
      continue;
    }
    if (C == '(') {
      ++Parens;
    } else if (C == ')') {
      if (!Parens)
        return error(Q, "unmatched ')'");
      --Parens;
    } else if ((C == '{' || C == '}') && Parens) {
      return error(Q, "expected ')' in parameter list");
    } else if (C == '{' && !Parens) {
      break;
    } else if (C == '}') {
      return error(Q, "expected '{' or ';' after function header");
    } else if (C == ';' && !Parens) {
      LastSig = Q + 1;
      break;
    }
    if (!is(C, CC_Blank))
      LastSig = Q + 1;
    ++Q;
  }
  add(B, LastSig, StmtKind::FunctionHeader);
  P = LastSig;
  return finishFunction(Stmts.size() - 1, B, KWEnd, IsEntry);
}

Error StructureParser::finishFunction(uint32_t HeaderIdx, const char *B,
                                      const char *KWEnd, bool IsEntry) {
  const Statement &S = Stmts[HeaderIdx];
  StringRef Text(Start + S.Begin, S.size());
  Function F;
  F.Header = HeaderIdx;
  F.IsEntry = IsEntry;
  // Name: the identifier after the keyword and, for a .func, after its
  // return-parameter list.
  StringRef Rest = Text.drop_front(KWEnd - B).ltrim();
  if (!IsEntry && Rest.startswith("(")) {
    unsigned Depth = 0;
    size_t I = 0;
    for (; I < Rest.size(); ++I) {
      // Parentheses in comments do not count.
      if (Rest.substr(I).startswith("//")) {
        size_t NL = Rest.find('\n', I);
        I = NL == StringRef::npos ? Rest.size() - 1 : NL;
        continue;
      }
      if (Rest.substr(I).startswith("/*")) {
        size_t Close = Rest.find("*/", I + 2);
        I = Close == StringRef::npos ? Rest.size() - 1 : Close + 1;
        continue;
      }
      if (Rest[I] == '(')
        ++Depth;
      else if (Rest[I] == ')' && --Depth == 0)
        break;
    }
    // An unclosed list (its ')' hidden in a comment) leaves no name.
    Rest = Rest.drop_front(std::min(I + 1, Rest.size())).ltrim();
  }
  // PTX identifiers: [A-Za-z_$%][A-Za-z0-9_$]*, as the signature parser
  // reads them.
  if (!Rest.empty() && is(Rest[0], CC_IdentStart))
    F.Name = Rest.take_front(
        1 + Rest.drop_front().take_while([](char C) {
              return is(C, CC_Ident) && C != '.' && C != '%';
            }).size());
  if (F.Name.empty()) {
    if (Rest.empty())
      return error(Text.end(), "expected function name");
    if (!isPrint(Rest[0]))
      return error(Rest.data(), "expected function name");
    return error(Rest.data(), "expected function name, found '" +
                                  Rest.take_front() + "'");
  }
  if (!OpenScopes.empty())
    return error(B, "function header inside a scope");
  if (!Text.endswith(";"))
    PendingHeader = HeaderIdx;
  M.getFunctionsForBuild().push_back(F);
  return Error::success();
}

Error StructureParser::run() {
  size_t Size = End - Start;
  if (Size >= Statement::NoIndex)
    return error(Start, "input larger than 4 GiB is not supported");
  if (const void *Nul = std::memchr(Start, 0, Size))
    return error(static_cast<const char *>(Nul), "invalid NUL byte in PTX text");
  // nvcc PTX averages ~20 bytes per statement.
  Stmts.reserve(Size / 16 + 16);

  while (true) {
    P = skipBlanks(P, End);
    if (P == End)
      break;
    switch (Table.Start[static_cast<unsigned char>(*P)]) {
    case SK_Slash:
      if (Error E = scanComment())
        return E;
      break;
    case SK_ScopeBegin: {
      if (OpenScopes.size() >= 0xffff)
        return error(P, "scopes nested too deeply");
      add(P, P + 1, StmtKind::ScopeBegin, InInlineAsm ? SF_InInlineAsm : 0);
      uint32_t Idx = Stmts.size() - 1;
      if (PendingHeader != Statement::NoIndex) {
        Stmts[PendingHeader].Link = Idx;
        auto &Fns = M.getFunctionsForBuild();
        if (!Fns.empty() && Fns.back().Header == PendingHeader)
          Fns.back().BodyBegin = Idx;
        PendingHeader = Statement::NoIndex;
      }
      OpenScopes.push_back(Idx);
      ++P;
      break;
    }
    // Anything but a comment or a body's `{` ends the wait for a body.
    case SK_ScopeEnd: {
      PendingHeader = Statement::NoIndex;
      if (OpenScopes.empty())
        return error(P, "unmatched '}'");
      uint32_t Open = OpenScopes.back();
      OpenScopes.pop_back();
      add(P, P + 1, StmtKind::ScopeEnd, InInlineAsm ? SF_InInlineAsm : 0);
      uint32_t Idx = Stmts.size() - 1;
      Stmts[Open].Link = Idx;
      Stmts[Idx].Link = Open;
      if (OpenScopes.empty()) {
        auto &Fns = M.getFunctionsForBuild();
        if (!Fns.empty() && Fns.back().BodyBegin == Open)
          Fns.back().BodyEnd = Idx;
      }
      ++P;
      break;
    }
    case SK_Empty:
      PendingHeader = Statement::NoIndex;
      add(P, P + 1, StmtKind::Empty);
      ++P;
      break;
    case SK_Directive:
      PendingHeader = Statement::NoIndex;
      if (Error E = scanDirective())
        return E;
      break;
    case SK_Instruction:
      PendingHeader = Statement::NoIndex;
      if (Error E = scanInstructionOrLabel())
        return E;
      break;
    default:
      return unexpectedChar(P);
    }
  }

  if (!OpenScopes.empty()) {
    const char *Open = Start + Stmts[OpenScopes.back()].Begin;
    return errorWithNote(End, "unterminated scope: expected '}' at end of input",
                         Open, "scope opened here");
  }
  // At the end, not the start: in a --split-input-file chunk that is the
  // chunk's own last line.
  if (Stmts.empty())
    return error(End, "empty PTX module: expected a '.version' directive");
  return Error::success();
}

} // namespace

Expected<std::unique_ptr<Module>>
mmptx::parseStructure(const SourceMgr &SM, unsigned BufferID) {
  auto M = std::make_unique<Module>(SM, BufferID);
  StructureParser P(SM, *M);
  if (Error E = P.run())
    return E;
  return M;
}

Expected<std::unique_ptr<Module>> mmptx::parsePTX(const SourceMgr &SM,
                                                  unsigned BufferID) {
  auto M = parseStructure(SM, BufferID);
  if (!M)
    return M.takeError();
  if (Error E = verifyModule(**M))
    return E;
  return M;
}

Expected<std::unique_ptr<Module>>
mmptx::parsePTXString(StringRef Text, StringRef Name, bool Verify) {
  auto SM = std::make_unique<SourceMgr>();
  unsigned ID = SM->AddNewSourceBuffer(
      MemoryBuffer::getMemBufferCopy(Text, Name), SMLoc());
  auto M = Verify ? parsePTX(*SM, ID) : parseStructure(*SM, ID);
  if (!M) {
    // The diagnostic is already formatted; the SourceMgr can go.
    return M.takeError();
  }
  (*M)->adoptSourceMgr(std::move(SM));
  return M;
}
