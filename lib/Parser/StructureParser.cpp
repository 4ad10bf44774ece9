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
/// 1. Classify every byte into a bit mask of stops (StopIndex, below) and
///    reject NUL bytes in the same pass, so later scans can treat the buffer
///    as text.
/// 2. Skip blanks; classify the next statement by its first byte:
///    `//` / `/*` comment, `{`, `}`, `;`, `.` directive, `@` or identifier
///    (label if followed by `:`, else instruction).
/// 3. Find the statement's extent by walking a bit mask of the bytes that
///    can stop any scan (`;` `/` `"` `{` `}` `:` `(` `)` `=` `\n` and the
///    `J` of `PTX_INJECT`), classified 64 bytes at a time (StopIndex; AVX2
///    nibble lookups, SSE2 compares, a byte-class table elsewhere). Each
///    scan tests only the stop bytes, so its cost is per interesting byte,
///    not per byte: instructions end at `;` (the first `:` after a bare
///    identifier makes a label instead); directives end at `;` or at the
///    end of the line (`.version`, `.loc`, section bytes) unless a
///    parenthesis or initializer is open; function headers end before `{`
///    or at `;`. Comments and strings inside a statement are skipped whole.
///    Line comments end at the first newline stop; their `J` stops are
///    checked for `PTX_INJECT`.
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
#include "mmptx/Support/Compiler.h"
#include "mmptx/Support/Diagnostic.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/SwapByteOrder.h"

#include <cstddef>
#include <cstring>
#include <memory>

#if defined(__SSE2__)
#include <emmintrin.h>
// AVX2 halves the cost of StopIndex's classification (three-operand
// compares, 32 bytes at a time); chosen at run time, so the build still
// targets baseline x86-64. -DMMPTX_NO_AVX2 forces the SSE2 path (for
// testing it on AVX2 machines).
#if (defined(__GNUC__) || defined(__clang__)) && !defined(MMPTX_NO_AVX2)
#include <immintrin.h>
#define MMPTX_STOP_AVX2 1
#endif
#endif

// LLVM_ATTRIBUTE_ALWAYS_INLINE includes `inline`, which a lambda cannot
// take.
#if defined(__GNUC__) || defined(__clang__)
#define MMPTX_LAMBDA_INLINE __attribute__((always_inline))
#else
#define MMPTX_LAMBDA_INLINE
#endif

using namespace llvm;
using namespace mmptx;
using namespace mmptx::ptx;

namespace {

enum CharClass : uint8_t {
  CC_Blank = 1 << 0,      // ' ' '\t' '\r' '\f' '\v' '\n'
  CC_Ident = 1 << 1,      // [A-Za-z0-9_$%.]
  CC_IdentStart = 1 << 2, // [A-Za-z_$%]
  CC_InstrStop = 1 << 3,  // ; / " { } :
  CC_DirStop = 1 << 4,    // ; / " { } ( ) = \n
  CC_Word = 1 << 5,       // [A-Za-z0-9_$%]: CC_Ident without '.'
  CC_Stop = 1 << 6,       // CC_InstrStop | CC_DirStop | 'J' (StopIndex)
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
  SK_Blank,
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
    for (unsigned C = 0; C < 256; ++C)
      if (Cls[C] & CC_Blank)
        Start[C] = SK_Blank;
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

// stopBitsAVX2() and stopBitsBaseline() fill Out[0, N) with the stop masks
// of the N 64-byte blocks at B: a bit per byte that may be CC_Stop.
// \returns true if a block contains a NUL byte: the pass that classifies
// every byte is also the NUL check, where a memchr would read the buffer
// once more.
#if defined(MMPTX_STOP_AVX2)
/// The exact CC_Stop bits of the 32 bytes at \p Q, from two nibble
/// lookups (four instructions where stopMask16()'s compares take eleven);
/// also folds the bytes into \p Min.
__attribute__((target("avx2"))) inline uint64_t
stopMask32(const char *Q, __m256i &Min, __m256i LoTable, __m256i HiTable) {
  __m256i V = _mm256_loadu_si256(reinterpret_cast<const __m256i *>(Q));
  Min = _mm256_min_epu8(Min, V);
  // A byte of 0x80 or above looks up 0: no stop.
  __m256i Lo = _mm256_shuffle_epi8(LoTable, V);
  __m256i Hi =
      _mm256_shuffle_epi8(HiTable, _mm256_and_si256(_mm256_srli_epi16(V, 4),
                                                    _mm256_set1_epi8(0x0F)));
  // Saturating 0x7F + class: the top bit is set exactly for the stops.
  __m256i Hit =
      _mm256_adds_epu8(_mm256_and_si256(Lo, Hi), _mm256_set1_epi8(0x7F));
  return uint32_t(_mm256_movemask_epi8(Hit));
}

__attribute__((target("avx2"))) inline uint64_t
stopMask64(const char *Q, __m256i &Min, __m256i LoTable, __m256i HiTable) {
  return stopMask32(Q, Min, LoTable, HiTable) |
         stopMask32(Q + 32, Min, LoTable, HiTable) << 32;
}

// Out of line: it cannot be inlined into code for baseline x86-64.
__attribute__((target("avx2"), noinline)) MMPTX_HOT bool
stopBitsAVX2(const char *B, uint64_t *Out, size_t N) {
  // Each high nibble of a stop has a bit, set in the entries of its low
  // nibbles: 1 for 0x0A '\n' and 0x4A 'J'; 2 for 0x22 '"', 0x28 '(',
  // 0x29 ')' and 0x2F '/'; 4 for 0x3A ':', 0x3B ';' and 0x3D '='; 8 for
  // 0x7B '{' and 0x7D '}'.
  const __m256i LoTable = _mm256_broadcastsi128_si256(_mm_setr_epi8(
      0, 0, 2, 0, 0, 0, 0, 0, 2, 2, 1 | 4, 4 | 8, 0, 4 | 8, 0, 2));
  const __m256i HiTable = _mm256_broadcastsi128_si256(
      _mm_setr_epi8(1, 0, 2, 4, 1, 0, 0, 8, 0, 0, 0, 0, 0, 0, 0, 0));
  __m256i Min = _mm256_set1_epi8(-1);
  // Two blocks an iteration halve the loop's overhead.
  for (; N >= 2; N -= 2, B += 128, Out += 2) {
    Out[0] = stopMask64(B, Min, LoTable, HiTable);
    Out[1] = stopMask64(B + 64, Min, LoTable, HiTable);
  }
  if (N)
    Out[0] = stopMask64(B, Min, LoTable, HiTable);
  return !_mm256_testz_si256(_mm256_cmpeq_epi8(Min, _mm256_setzero_si256()),
                             _mm256_set1_epi8(-1));
}
#endif

bool stopBitsBaseline(const char *B, uint64_t *Out, size_t N) {
#if defined(__SSE2__)
  __m128i Min = _mm_set1_epi8(-1);
  for (size_t I = 0; I < N; ++I, B += 64) {
    uint64_t Bits = 0;
    for (unsigned J = 0; J < 64; J += 16) {
      Min = _mm_min_epu8(
          Min, _mm_loadu_si128(reinterpret_cast<const __m128i *>(B + J)));
      Bits |= uint64_t(stopMask16(B + J)) << J;
    }
    Out[I] = Bits;
  }
  return _mm_movemask_epi8(_mm_cmpeq_epi8(Min, _mm_setzero_si128())) != 0;
#else
  bool Nul = false;
  for (size_t I = 0; I < N; ++I, B += 64) {
    uint64_t Bits = 0;
    for (unsigned J = 0; J < 64; ++J) {
      Bits |= uint64_t(is(B[J], CC_Stop)) << J;
      Nul |= B[J] == 0;
    }
    Out[I] = Bits;
  }
  return Nul;
#endif
}

/// \returns the index of the lowest set bit of \p M, which is not 0. Every
/// stop found costs one: GCC's __builtin_ctzll also clears the output
/// register first and widens its int result, two more instructions.
inline size_t lowestBit(uint64_t M) {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
  // tzcnt where BMI1 is supported, bsf elsewhere: equal for M != 0.
  uint64_t R;
  __asm__("rep bsfq %1, %0" : "=r"(R) : "rm"(M) : "cc");
  return R;
#else
  return countTrailingZeros(M, ZB_Undefined);
#endif
}

/// A bit mask of the bytes of a buffer that may be CC_Stop, built in one
/// pass before the statements are split. Scans walk its set bits, so they
/// pay per candidate stop rather than per byte, and need no call to find
/// one (a call in a scan loop makes GCC move its state to callee-saved
/// registers and the stack around every statement).
class StopIndex {
public:
  /// Classifies [\p Begin, \p End); \returns true if it contains a NUL.
  bool build(const char *Begin, const char *End) {
    this->Begin = Begin;
    this->End = End;
    size_t Size = End - Begin;
    size_t NumWords = (Size + 63) / 64;
    // Two more words: 0 for a scan from End, then a stop past End, so that
    // a scan ends with no count of words. A small text's words live in the
    // index itself: no allocation.
    if (NumWords + 2 <= InlineWords) {
      Bits = Inline;
    } else {
      Owned.reset(new uint64_t[NumWords + 2]);
      Bits = Owned.get();
    }
    size_t Full = Size / 64;
    bool Nul;
#if defined(MMPTX_STOP_AVX2)
    if (__builtin_cpu_supports("avx2"))
      Nul = stopBitsAVX2(Begin, Bits, Full);
    else
#endif
      Nul = stopBitsBaseline(Begin, Bits, Full);
    // The last block: classify a copy padded with blanks, so that no load
    // goes past End and no bit is set past it.
    if (size_t Tail = Size % 64) {
      alignas(16) char Buf[64];
      std::memset(Buf, ' ', sizeof(Buf));
      std::memcpy(Buf, Begin + Full * 64, Tail);
      Nul |= stopBitsBaseline(Buf, Bits + Full, 1);
    }
    Bits[NumWords] = 0;
    Bits[NumWords + 1] = 1;
    return Nul;
  }

  const uint64_t *bits() const { return Bits; }

  /// \returns the first byte of [\p Q, End] that may be CC_Stop (a
  /// superset: callers check the byte's class), or End.
  LLVM_ATTRIBUTE_ALWAYS_INLINE const char *next(const char *Q) const {
    return find(Q, Begin, End, Bits, [](const char *) { return true; });
  }
  /// \returns the first byte of [\p Q, End) that may be CC_Stop and
  /// satisfies \p IsStop (called with a pointer to it), or End; from copies of
  /// the members that the caller keeps in registers.
  template <typename Pred>
  LLVM_ATTRIBUTE_ALWAYS_INLINE static const char *
  find(const char *Q, const char *Begin, const char *End, const uint64_t *Bits,
       Pred IsStop) {
    while (true) {
      // Shifting the word down to Q (the shift count is taken mod 64) leaves
      // the distance to the stop, with no word base to add.
      size_t Off = Q - Begin;
      size_t W = Off / 64;
      if (uint64_t M = Bits[W] >> (Off % 64)) {
        Q += lowestBit(M);
      } else {
        do
          M = Bits[++W];
        while (!M);
        // Bits past End are clear but for the last word's, so only this
        // path can reach End. (Integers: the stop may lie past End.)
        uintptr_t Stop =
            reinterpret_cast<uintptr_t>(Begin) + W * 64 + lowestBit(M);
        if (LLVM_UNLIKELY(Stop >= reinterpret_cast<uintptr_t>(End)))
          return End;
        Q = reinterpret_cast<const char *>(Stop);
      }
      if (IsStop(Q))
        return Q;
      ++Q;
    }
  }

private:
  const char *Begin = nullptr;
  const char *End = nullptr;
  uint64_t *Bits = nullptr;
  std::unique_ptr<uint64_t[]> Owned;
  /// Texts up to 4 KiB.
  static constexpr size_t InlineWords = 66;
  uint64_t Inline[InlineWords];
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

/// \returns just past the last byte of [\p B, \p E) that is not CC_Blank,
/// or \p B.
inline const char *lastSignificant(const char *B, const char *E) {
  while (E > B && is(E[-1], CC_Blank))
    --E;
  return E;
}

/// \returns true if the bytes after a '#' at \p Q make it a line marker:
/// blanks and a digit, or `line` and a blank.
inline bool isLineMarker(const char *Q, const char *End) {
  if (End - Q >= 5 && std::memcmp(Q, "line", 4) == 0 &&
      (Q[4] == ' ' || Q[4] == '\t'))
    return true;
  while (Q < End && (*Q == ' ' || *Q == '\t'))
    ++Q;
  return Q < End && isDigit(*Q);
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
MMPTX_HOT bool containsMarker(const char *B, const char *E) {
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

/// \returns true if the \p N - 1 bytes at \p S are \p Word, for a Word of
/// 8 to 16 bytes: two overlapping 8-byte compares, where GCC would call
/// memcmp.
template <size_t N>
inline bool equals8To16(const char *S, const char (&Word)[N]) {
  static_assert(N - 1 >= 8 && N - 1 <= 16, "two 8-byte loads");
  uint64_t A, B, X, Y;
  std::memcpy(&A, S, 8);
  std::memcpy(&B, S + N - 1 - 8, 8);
  std::memcpy(&X, Word, 8);
  std::memcpy(&Y, Word + N - 1 - 8, 8);
  return ((A ^ X) | (B ^ Y)) == 0;
}

/// \returns true if [\p S, \p E) is \p Word followed only by blanks.
template <size_t N>
inline bool isWordThenBlanks(const char *S, const char *E,
                             const char (&Word)[N]) {
  if (size_t(E - S) < N - 1 || !equals8To16(S, Word))
    return false;
  for (S += N - 1; S < E; ++S)
    if (!is(*S, CC_Blank))
      return false;
  return true;
}

static_assert(sizeof(Statement) == 16 && offsetof(Statement, End) == 4 &&
                  offsetof(Statement, Kind) == 8 &&
                  offsetof(Statement, Flags) == 9 &&
                  offsetof(Statement, Depth) == 10 &&
                  offsetof(Statement, Link) == 12,
              "writeStatement() writes the fields as two words");

/// Writes \p S from its two words: \p Lo is Begin and End, \p Hi is Kind,
/// Flags, Depth and Link, in the order of the fields. Two 8-byte stores,
/// where field by field takes six.
inline void writeStatement(Statement &S, uint64_t Lo, uint64_t Hi) {
  if (sys::IsLittleEndianHost) {
    std::memcpy(reinterpret_cast<char *>(&S), &Lo, 8);
    std::memcpy(reinterpret_cast<char *>(&S) + 8, &Hi, 8);
  } else {
    S.Begin = uint32_t(Lo);
    S.End = uint32_t(Lo >> 32);
    S.Kind = StmtKind(uint8_t(Hi));
    S.Flags = uint8_t(Hi >> 8);
    S.Depth = uint16_t(Hi >> 16);
    S.Link = uint32_t(Hi >> 32);
  }
}

class StructureParser {
public:
  explicit StructureParser(Module &M)
      : M(M), Stmts(M.getStatementsForBuild()), Start(M.getBuffer().begin()),
        P(Start), End(M.getBuffer().end()) {}

  Error run();

private:
  // The SourceMgr only when there is an error (see Module(Text, Name)).
  MMPTX_COLD Error error(const char *Loc, const Twine &Msg) {
    return DiagnosticError::get(M.getSourceMgr(), SMLoc::getFromPointer(Loc),
                                Msg);
  }
  MMPTX_COLD Error errorWithNote(const char *Loc, const Twine &Msg,
                                 const char *NoteLoc, const Twine &Note) {
    return DiagnosticError::getWithNote(M.getSourceMgr(),
                                        SMLoc::getFromPointer(Loc), Msg,
                                        SMLoc::getFromPointer(NoteLoc), Note);
  }
  MMPTX_COLD Error unexpectedChar(const char *Loc);

  void add(const char *B, const char *E, StmtKind K, uint8_t Flags = 0) {
    // Not a temporary to copy: that would load 16 bytes right after narrow
    // stores (a store-forwarding stall per statement).
    writeStatement(Stmts.emplace_back(),
                   uint32_t(B - Start) | uint64_t(E - Start) << 32,
                   uint64_t(K) | Flags << 8 | OpenScopes.size() << 16 |
                       uint64_t(Statement::NoIndex) << 32);
  }

  /// Skips a `//` comment starting at \p Q; \returns its end (before the
  /// newline and any carriage return).
  const char *skipLineComment(const char *Q) const;
  /// \returns the first byte of [\p Q, End) in class \p Mask, a subset of
  /// CC_Stop, or End.
  LLVM_ATTRIBUTE_ALWAYS_INLINE const char *findStop(const char *Q,
                                                    uint8_t Mask) {
    return findStop(Stops, Q, Mask);
  }
  LLVM_ATTRIBUTE_ALWAYS_INLINE const char *
  findStop(StopIndex &Index, const char *Q, uint8_t Mask) const {
    while (true) {
      Q = Index.next(Q);
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
  using SkipFn = const char *(StructureParser::*)(const char *) const;
  /// Moves \p Q past what \p Skip (skipString(), skipBlockComment())
  /// skips, or reports an unterminated \p What.
  Error skipOrFail(const char *&Q, SkipFn Skip, const char *What) const {
    const char *E = (this->*Skip)(Q);
    if (!E)
      return DiagnosticError::get(M.getSourceMgr(), SMLoc::getFromPointer(Q),
                                  Twine("unterminated ") + What);
    Q = E;
    return Error::success();
  }
  Error skipStringOrFail(const char *&Q) const {
    return skipOrFail(Q, &StructureParser::skipString, "string");
  }
  Error skipBlockCommentOrFail(const char *&Q) const {
    return skipOrFail(Q, &StructureParser::skipBlockComment, "block comment");
  }

  Error scanComment();
  Error scanInstructionOrLabel();
  Error scanDirective();
  /// Records the module-scope directive [\p B, \p E), the last statement:
  /// a header directive, or a `.section` that makes \p Pending wait for its
  /// body.
  void noteModuleDirective(const char *B, const char *E, uint32_t &Pending);
  /// \returns true if the `;` at \p Semi ends a `.pragma` inside a function
  /// header that goes on after it; \p From is where the pragma may start.
  bool pragmaContinuesHeader(const char *From, const char *Semi) const;
  /// \p KWEnd is just past the `.entry`/`.func` keyword.
  Error scanFunctionHeader(const char *B, const char *KWEnd, bool IsEntry);
  /// \p HasBody: the header ends at a `{`, not at a prototype's `;`.
  Error finishFunction(uint32_t HeaderIdx, const char *B, const char *KWEnd,
                       bool IsEntry, bool HasBody);

  Module &M;
  std::vector<Statement> &Stmts;
  const char *Start, *P, *End;
  StopIndex Stops;
  /// The open `{`s: a kernel body and the inline asm blocks in it.
  SmallVector<uint32_t, 8> OpenScopes;
  /// A header (function or .section) still waiting for its `{`.
  uint32_t PendingHeader = Statement::NoIndex;
  bool InInlineAsm = false;
};

MMPTX_HOT const char *StructureParser::skipLineComment(const char *Q) const {
  const void *NL = std::memchr(Q, '\n', End - Q);
  const char *E = NL ? static_cast<const char *>(NL) : End;
  if (E > Q && E[-1] == '\r')
    --E;
  return E;
}

MMPTX_HOT const char *StructureParser::skipBlockComment(const char *Q) const {
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

MMPTX_HOT const char *StructureParser::skipString(const char *Q) const {
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

MMPTX_HOT Error StructureParser::scanComment() {
  // Line comments take the main loop's fast path; only `/*` and a stray
  // '/' come here.
  const char *B = P;
  if (P + 1 == End || P[1] != '*')
    return unexpectedChar(B);
  const char *E = skipBlockComment(P);
  if (!E)
    return error(B, "unterminated block comment");
  // Inject markers are confirmed later by the inject-site layer.
  uint8_t Flags = containsMarker(B, E) ? SF_KeywordComment : 0;
  if (InInlineAsm)
    Flags |= SF_InInlineAsm;
  add(B, E, StmtKind::Comment, Flags);
  P = E;
  return Error::success();
}

/// \returns true if [\p B, \p Colon) is an identifier followed by spaces
/// or tabs, which makes the ':' at \p Colon end a label. Identifiers have
/// no dots: in `ld.global.L2::128B` the ':' starts a sub-qualifier.
MMPTX_HOT static bool isLabelBefore(const char *B, const char *Colon) {
  const char *Q = B;
  while (Q < Colon && is(*Q, CC_Word))
    ++Q;
  if (Q == B)
    return false;
  while (Q < Colon && (*Q == ' ' || *Q == '\t'))
    ++Q;
  return Q == Colon;
}

MMPTX_HOT Error StructureParser::scanInstructionOrLabel() {
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
        add(B, Q + 1, StmtKind::Instruction, InInlineAsm ? SF_InInlineAsm : 0);
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
    case '"':
      if (Error E = skipStringOrFail(Q))
        return E;
      break;
    case '/':
      if (Q + 1 < End && Q[1] == '/') {
        Q = skipLineComment(Q);
      } else if (Q + 1 < End && Q[1] == '*') {
        if (Error E = skipBlockCommentOrFail(Q))
          return E;
      } else {
        ++Q;
      }
      break;
    }
  }
}

/// \returns true if \p Word is a linkage directive that may precede a
/// function header or variable declaration.
MMPTX_HOT static bool isLinkage(StringRef Word) {
  return Word == ".visible" || Word == ".extern" || Word == ".weak" ||
         Word == ".common";
}

/// \returns true if the directive at \p B (its '.') up to \p E declares
/// variables, which may span lines up to their `;`: `.reg .b32 %r1,` and
/// `%r2;` on the next line. Other directives without a `;` (`.loc`,
/// `.version`, section data) end at the end of their line.
MMPTX_HOT static bool isDeclarationAt(const char *B, const char *E) {
  auto Word = [&]() {
    const char *W = B + 1;
    while (W < E && is(*W, CC_Word))
      ++W;
    return StringRef(B, W - B);
  };
  // The byte after the '.' rules out most words before they are scanned.
  switch (E - B > 1 ? B[1] : 0) {
  case 'r':
  case 'l':
  case 's':
  case 'g':
  case 'p':
  case 't': {
    StringRef W = Word();
    return W == ".reg" || W == ".local" || W == ".shared" || W == ".global" ||
           W == ".param" || W == ".tex" || W == ".sreg" || W == ".surf" ||
           W == ".sampler";
  }
  case 'c': {
    StringRef W = Word();
    return W == ".const" || W == ".common";
  }
  case 'v':
  case 'e':
  case 'w':
    return isLinkage(Word());
  }
  return false;
}

MMPTX_HOT Error StructureParser::scanDirective() {
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
  // parenthesis or initializer brace is open and it declares nothing.
  bool NeedSemi = isDeclarationAt(B, End);
  unsigned Parens = 0, Braces = 0;
  bool SeenEq = false;
  const char *LastSig = B + 1;
  Q = B + 1;
  while (true) {
    const char *Stop = findStop(Q, CC_DirStop);
    // The last non-blank byte before the stop is significant.
    if (const char *X = lastSignificant(Q, Stop); X > Q)
      LastSig = X;
    Q = Stop;
    if (Q == End) {
      if (Parens || Braces)
        return error(LastSig, Parens ? "expected ')' in directive"
                                     : "expected '}' in initializer");
      break;
    }
    char C = *Q;
    if (C == '\n') {
      // `.b8 1,` goes on to the next line.
      if (!Parens && !Braces && !NeedSemi && LastSig[-1] != ',')
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
        // A trailing comment is its own statement, unless the directive
        // goes on after it (`.b8 1, // c`).
        if (!Parens && !Braces && !NeedSemi && LastSig[-1] != ',')
          break;
        Q = skipLineComment(Q);
        continue;
      }
      if (Q + 1 < End && Q[1] == '*') {
        if (Error E = skipBlockCommentOrFail(Q))
          return E;
        continue;
      }
      LastSig = ++Q;
      continue;
    }
    if (C == '"') {
      if (Error E = skipStringOrFail(Q))
        return E;
      LastSig = Q;
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
  if (OpenScopes.empty())
    noteModuleDirective(B, LastSig, PendingHeader);
  return Error::success();
}

MMPTX_HOT void StructureParser::noteModuleDirective(const char *B,
                                                    const char *E,
                                                    uint32_t &Pending) {
  // The first word is \p Lit (of \p N bytes): a compare of known size and
  // the byte after it, with no scan of the word.
  auto Is = [&](const char *Lit, size_t N) {
    return size_t(E - B) >= N && std::memcmp(B, Lit, N) == 0 &&
           (size_t(E - B) == N || is(B[N], CC_Blank));
  };
  if (Is(".version", 8) || Is(".target", 7) || Is(".address_size", 13))
    M.getHeaderForBuild().push_back(Stmts.size() - 1);
  else if (Is(".section", 8)) {
    Pending = Stmts.size() - 1;
  }
}

/// \returns true if the directive at \p Q is one that may follow the name
/// of a function: a performance-tuning directive or `.pragma`.
MMPTX_HOT static bool isFunctionDirectiveAt(const char *Q, const char *End) {
  const char *W = Q + 1;
  while (W < End && is(*W, CC_Word))
    ++W;
  StringRef Word(Q, W - Q);
  return Word == ".pragma" || Word == ".maxntid" || Word == ".reqntid" ||
         Word == ".minnctapersm" || Word == ".maxnctapersm" ||
         Word == ".maxnreg" || Word == ".noreturn" ||
         Word == ".explicitcluster" || Word == ".reqnctapercluster" ||
         Word == ".maxclusterrank" || Word == ".blocksareclusters" ||
         Word == ".abi_preserve" || Word == ".abi_preserve_control";
}

MMPTX_HOT bool StructureParser::pragmaContinuesHeader(const char *From,
                                                      const char *Semi) const {
  // `.entry k .pragma "nounroll"; {`: the `;` ends a pragma of the header
  // when the header goes on after it. Only headers that end in `;` pay.
  if (StringRef(From, Semi - From).find(".pragma") == StringRef::npos)
    return false;
  const char *Q = Semi + 1;
  while (true) {
    Q = skipBlanks(Q, End);
    if (Q + 1 < End && Q[0] == '/' && Q[1] == '/') {
      Q = skipLineComment(Q);
      continue;
    }
    if (Q + 1 < End && Q[0] == '/' && Q[1] == '*') {
      const char *E = skipBlockComment(Q);
      if (!E)
        return false;
      Q = E;
      continue;
    }
    break;
  }
  return Q < End && (*Q == '{' || (*Q == '.' && isFunctionDirectiveAt(Q, End)));
}

MMPTX_HOT Error StructureParser::scanFunctionHeader(const char *B,
                                                    const char *KWEnd,
                                                    bool IsEntry) {
  // Up to the body's `{` or through a prototype's `;`, skipping parameter
  // lists, comments and strings. Trailing comments become their own
  // statements.
  unsigned Parens = 0;
  const char *Q = B;
  const char *LastSig = B + 1;
  // Where the text that a `;` may end as a `.pragma` begins.
  const char *PragmaFrom = KWEnd;
  bool HasBody = false;
  while (true) {
    // Only stops matter; the last non-blank byte before one is significant.
    const char *Stop = Stops.next(Q);
    if (const char *X = lastSignificant(Q, Stop); X > Q)
      LastSig = X;
    Q = Stop;
    if (Q == End)
      return error(LastSig, Parens ? "expected ')' in parameter list"
                                   : "expected '{' or ';' after function "
                                     "header");
    char C = *Q;
    if (C == '"') {
      if (Error E = skipStringOrFail(Q))
        return E;
      LastSig = Q;
      continue;
    }
    if (C == '/' && Q + 1 < End && Q[1] == '/') {
      Q = skipLineComment(Q);
      continue;
    }
    if (C == '/' && Q + 1 < End && Q[1] == '*') {
      if (Error E = skipBlockCommentOrFail(Q))
        return E;
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
      HasBody = true;
      break;
    } else if (C == '}') {
      return error(Q, "expected '{' or ';' after function header");
    } else if (C == ';' && !Parens) {
      LastSig = Q + 1;
      if (!pragmaContinuesHeader(PragmaFrom, Q))
        break;
      PragmaFrom = Q + 1;
    }
    if (!is(C, CC_Blank))
      LastSig = Q + 1;
    ++Q;
  }
  add(B, LastSig, StmtKind::FunctionHeader);
  P = LastSig;
  return finishFunction(Stmts.size() - 1, B, KWEnd, IsEntry, HasBody);
}

MMPTX_HOT Error StructureParser::finishFunction(uint32_t HeaderIdx,
                                                const char *B,
                                                const char *KWEnd, bool IsEntry,
                                                bool HasBody) {
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
    F.Name = Rest.take_front(1 + Rest.drop_front()
                                     .take_while([](char C) {
                                       return is(C, CC_Ident) && C != '.' &&
                                              C != '%';
                                     })
                                     .size());
  if (F.Name.empty()) {
    if (Rest.empty())
      return error(Text.end(), "expected function name");
    if (!isPrint(Rest[0]))
      return error(Rest.data(), "expected function name");
    return error(Rest.data(),
                 "expected function name, found '" + Rest.take_front() + "'");
  }
  if (!OpenScopes.empty())
    return error(B, "function header inside a scope");
  if (HasBody)
    PendingHeader = HeaderIdx;
  M.getFunctionsForBuild().push_back(F);
  return Error::success();
}

MMPTX_HOT Error StructureParser::run() {
  size_t Size = End - Start;
  if (Size >= Statement::NoIndex)
    return error(Start, "input larger than 4 GiB is not supported");
  if (Stops.build(Start, End))
    return error(static_cast<const char *>(std::memchr(Start, 0, Size)),
                 "invalid NUL byte in PTX text");
  // nvcc PTX averages ~20 bytes per statement.
  Stmts.reserve(Size / 16 + 16);

  // The loop keeps its state in locals and a batch of statements on the
  // stack: nothing it stores can alias them, so they stay in registers (the
  // statement stores are char stores, which GCC assumes may alias any
  // memory, members included), and its scans make no calls. The common
  // shapes of nvcc output (line comments, `opcode operands;`, `.reg ...;`,
  // braces) are handled here; anything else starts over in a scan*()
  // function, which sees the state in the members.
  const char *const BufBegin = Start, *const BufEnd = End;
  const char *Cur = P;
  const uint64_t *const StopBits = Stops.bits();
  auto FindStop = [&](const char *Q, auto IsStop) MMPTX_LAMBDA_INLINE {
    return StopIndex::find(Q, BufBegin, BufEnd, StopBits, IsStop);
  };
  // Cur < GapEnd if three bytes are left: a newline, a tab and a statement.
  const char *const GapEnd = Size >= 3 ? BufEnd - 2 : BufBegin;
  uint32_t Pending = Statement::NoIndex;
  // The upper word of a statement with no link at the current depth: Kind
  // 0, SF_InInlineAsm inside a begin/end inline asm region, the depth, and
  // Statement::NoIndex.
  uint64_t Hi = uint64_t(Statement::NoIndex) << 32;
  constexpr uint64_t AsmBit = uint64_t(SF_InInlineAsm) << 8;
  constexpr unsigned BatchSize = 256;
  Statement Batch[BatchSize];
  Statement *Out = Batch;
  uint32_t Flushed = Stmts.size(); // index of Batch[0]
  auto Flush = [&]() MMPTX_LAMBDA_INLINE {
    if (Out != Batch)
      Stmts.insert(Stmts.end(), Batch, Out);
    Out = Batch;
    Flushed = Stmts.size();
  };
  auto Emit = [&](const char *B, const char *E,
                  uint64_t Upper) MMPTX_LAMBDA_INLINE {
    writeStatement(*Out, uint32_t(B - BufBegin) | uint64_t(E - BufBegin) << 32,
                   Upper);
    if (LLVM_UNLIKELY(++Out == Batch + BatchSize))
      Flush();
  };
  auto StmtAt = [&](uint32_t I) -> Statement & {
    return I >= Flushed ? Batch[I - Flushed] : Stmts[I];
  };
  auto Generic = [&](Error (StructureParser::*Scan)()) MMPTX_LAMBDA_INLINE {
    Flush();
    P = Cur;
    PendingHeader = Pending;
    InInlineAsm = Hi & AsmBit;
    Error E = (this->*Scan)();
    Cur = P;
    Pending = PendingHeader;
    Hi = (Hi & ~AsmBit) | (InInlineAsm ? AsmBit : 0);
    Flushed = Stmts.size();
    return E;
  };

  while (true) {
    // Most gaps are a newline and a tab; other blanks are SK_Blank.
    if (LLVM_LIKELY(Cur < GapEnd) &&
        support::endian::read16le(Cur) == ('\n' | '\t' << 8))
      Cur += 2;
    else if (Cur == BufEnd)
      break;
    const char *B = Cur;
    switch (Table.Start[static_cast<unsigned char>(*B)]) {
    case SK_Blank:
      Cur = skipBlanks(Cur, BufEnd);
      break;
    case SK_Slash: {
      if (LLVM_UNLIKELY(BufEnd - B < 2 || B[1] != '/')) {
        if (Error E = Generic(&StructureParser::scanComment))
          return E;
        break;
      }
      // A line comment: 'J' and '\n' are both stops, so one walk finds its
      // end and its markers (confirmed later by the inject-site layer).
      uint64_t Flags = 0;
      const char *S = FindStop(B + 2, [&](const char *Q) MMPTX_LAMBDA_INLINE {
        if (*Q == '\n')
          return true;
        if (*Q == 'J' && isMarkerAt(Q, B, BufEnd))
          Flags = SF_KeywordComment;
        return false;
      });
      if (S[-1] == '\r')
        --S;
      Cur = S;
      // Only short line comments can be inline-asm brackets; the first
      // non-blank byte tells which one it may be.
      size_t Len = S - B;
      if (Len <= 32 && Len >= 16) {
        // Most are `// word`: their byte after one blank rules them out.
        const char *W = B + 2 + (B[2] == ' ');
        if (*W == 'b' || *W == 'e' || is(*W, CC_Blank)) {
          while (W < S && is(*W, CC_Blank))
            ++W;
          if (W < S && *W == 'b' &&
              isWordThenBlanks(W, S, "begin inline asm")) {
            Emit(B, S,
                 (Hi & ~AsmBit) | (Flags | SF_BeginInlineAsm) << 8 |
                     uint64_t(StmtKind::Comment));
            Hi |= AsmBit;
            break;
          }
          if (W < S && *W == 'e' && isWordThenBlanks(W, S, "end inline asm")) {
            Emit(B, S,
                 (Hi & ~AsmBit) | (Flags | SF_EndInlineAsm) << 8 |
                     uint64_t(StmtKind::Comment));
            Hi &= ~AsmBit;
            break;
          }
        }
      }
      Emit(B, S, Hi | Flags << 8 | uint64_t(StmtKind::Comment));
      break;
    }
    case SK_Instruction: {
      Pending = Statement::NoIndex;
      // `opcode operands;` or `name:`; anything else (strings, comments,
      // vector braces, a `:` that is no label's) is scanned in full.
      const char *S = FindStop(B, [](const char *Q) MMPTX_LAMBDA_INLINE {
        return is(*Q, CC_InstrStop);
      });
      if (LLVM_LIKELY(S != BufEnd && *S == ';')) {
        Emit(B, S + 1, Hi | uint64_t(StmtKind::Instruction));
        Cur = S + 1;
        break;
      }
      if (S != BufEnd && *S == ':' && *B != '@' && isLabelBefore(B, S)) {
        Emit(B, S + 1, Hi | uint64_t(StmtKind::Label));
        Cur = S + 1;
        break;
      }
      if (Error E = Generic(&StructureParser::scanInstructionOrLabel))
        return E;
      break;
    }
    case SK_Directive: {
      Pending = Statement::NoIndex;
      // The byte after the '.' rules out function headers and linkage
      // words (see scanDirective()), and `.version` is neither; `.reg .f32
      // %r;` or a line such as `.loc 1 2 3` then ends at its first stop.
      char C1 = BufEnd - B >= 2 ? B[1] : 0;
      const char *S = BufEnd;
      if ((C1 != 'e' && C1 != 'f' && C1 != 'v' && C1 != 'w' && C1 != 'c') ||
          (C1 == 'v' && BufEnd - B > 8 && std::memcmp(B, ".version", 8) == 0 &&
           !is(B[8], CC_Word))) {
        S = FindStop(B + 1, [](const char *Q) MMPTX_LAMBDA_INLINE {
          return is(*Q, CC_DirStop);
        });
      }
      // A line ends the directive unless it declares variables or ends in
      // `,` (`.b8 1,` with more data on the next line).
      const char *LastSig = nullptr;
      if (S != BufEnd && *S == ';')
        LastSig = S + 1;
      else if (S != BufEnd && *S == '\n' && !isDeclarationAt(B, S))
        LastSig = lastSignificant(B + 1, S);
      if (!LastSig || LastSig[-1] == ',') {
        if (Error E = Generic(&StructureParser::scanDirective))
          return E;
        break;
      }
      Emit(B, LastSig, Hi | uint64_t(StmtKind::Directive));
      Cur = LastSig;
      if ((Hi & 0xffff0000) == 0) {
        Flush();
        noteModuleDirective(B, LastSig, Pending);
      }
      break;
    }
    case SK_ScopeBegin: {
      if ((Hi & 0xffff0000) == 0xffff0000)
        return error(B, "scopes nested too deeply");
      uint32_t Idx = Flushed + (Out - Batch);
      Emit(B, B + 1, Hi | uint64_t(StmtKind::ScopeBegin));
      if (Pending != Statement::NoIndex) {
        StmtAt(Pending).Link = Idx;
        auto &Fns = M.getFunctionsForBuild();
        if (!Fns.empty() && Fns.back().Header == Pending)
          Fns.back().BodyBegin = Idx;
        Pending = Statement::NoIndex;
      }
      OpenScopes.push_back(Idx);
      Hi += 1 << 16;
      ++Cur;
      break;
    }
    // Anything but a comment or a body's `{` ends the wait for a body.
    case SK_ScopeEnd: {
      Pending = Statement::NoIndex;
      if ((Hi & 0xffff0000) == 0)
        return error(B, "unmatched '}'");
      uint32_t Open = OpenScopes.back();
      OpenScopes.pop_back();
      Hi -= 1 << 16;
      uint32_t Idx = Flushed + (Out - Batch);
      Emit(B, B + 1,
           (Hi & 0xffffffff) | uint64_t(Open) << 32 |
               uint64_t(StmtKind::ScopeEnd));
      StmtAt(Open).Link = Idx;
      if ((Hi & 0xffff0000) == 0) {
        auto &Fns = M.getFunctionsForBuild();
        if (!Fns.empty() && Fns.back().BodyBegin == Open)
          Fns.back().BodyEnd = Idx;
      }
      ++Cur;
      break;
    }
    case SK_Empty:
      Pending = Statement::NoIndex;
      Emit(B, B + 1, (Hi & ~AsmBit) | uint64_t(StmtKind::Empty));
      ++Cur;
      break;
    case SK_Invalid: {
      // `# 1 "k.cu"` and `#line 1 "k.cu"`, from a C preprocessor run over
      // PTX: a directive up to the end of its line.
      if (*B != '#' || !isLineMarker(B + 1, BufEnd))
        return unexpectedChar(B);
      Pending = Statement::NoIndex;
      const char *NL =
          static_cast<const char *>(std::memchr(B, '\n', BufEnd - B));
      const char *E = lastSignificant(B + 1, NL ? NL : BufEnd);
      Emit(B, E, Hi | uint64_t(StmtKind::Directive));
      Cur = E;
      break;
    }
    default:
      LLVM_BUILTIN_UNREACHABLE;
    }
  }
  Flush();

  if (!OpenScopes.empty()) {
    const char *Open = Start + Stmts[OpenScopes.back()].Begin;
    return errorWithNote(End,
                         "unterminated scope: expected '}' at end of input",
                         Open, "scope opened here");
  }
  // At the end, not the start: in a --split-input-file chunk that is the
  // chunk's own last line.
  // A module starts with `.version` (after comments and line markers); one
  // of comments and blanks only is as empty as an empty file.
  const Statement *First = nullptr;
  for (const Statement &S : Stmts)
    if (S.Kind != StmtKind::Comment && S.Kind != StmtKind::Empty &&
        Start[S.Begin] != '#') {
      First = &S;
      break;
    }
  if (!First)
    return error(End, "empty PTX module: expected a '.version' directive");
  StringRef FirstText(Start + First->Begin, First->size());
  if (FirstText.startswith(".version") &&
      (FirstText.size() == 8 || is(FirstText[8], CC_Blank)))
    return Error::success();
  return error(Start + First->Begin,
               "expected a '.version' directive before the first statement");
}

} // namespace

MMPTX_HOT Error mmptx::parseStructure(Module &M) {
  assert(M.statements().empty() && M.functions().empty() &&
         M.headerDirectives().empty() && "the module is parsed already");
  StructureParser P(M);
  return P.run();
}

Expected<std::unique_ptr<Module>> mmptx::parseStructure(const SourceMgr &SM,
                                                        unsigned BufferID) {
  auto M = std::make_unique<Module>(SM, BufferID);
  if (Error E = parseStructure(*M))
    return E;
  return M;
}

Expected<std::unique_ptr<Module>>
mmptx::parseStructure(const SourceMgr &SM, unsigned BufferID,
                      std::vector<Statement> &&Storage) {
  auto M = std::make_unique<Module>(SM, BufferID);
  Storage.clear();
  M->getStatementsForBuild().swap(Storage);
  if (Error E = parseStructure(*M))
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
