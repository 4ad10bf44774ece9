//===- PtxEmitter.h - Shared PTX text writing of expression stubs -*- C++ -*-=//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The pieces both expression compilers write their stubs with: per stack
/// register naming, the `mov` that copies a value, literal materialisation
/// per type and the declaration line (PtxStackTables), and the fast text
/// writers over a growable buffer written through a raw cursor (TextBuf).
/// Each front end keeps its own emission order over these: Stack PTX emits
/// depth first from the requests, AST PTX in node order.
///
//===----------------------------------------------------------------------===//

#ifndef MMPTX_EXPR_PTXEMITTER_H
#define MMPTX_EXPR_PTXEMITTER_H

#include "mmptx/Expr/Literal.h"
#include "mmptx/Stack/StackInfo.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace mmptx {
namespace expr {

/// A growable text buffer written through a raw cursor: a writer asks for
/// room once per line (ensure), writes through the returned pointer, and
/// commits with setEnd. Keeping the cursor in a local lets the compiler
/// keep it in a register (a char store may alias any member).
class TextBuf {
public:
  void clear() { len = 0; }
  size_t size() const { return len; }
  const char *data() const { return buf.get(); }
  char *begin() { return buf.get(); }
  char *end() { return buf.get() + len; }
  /// \returns \p p, or where it moved to, with room for \p n characters
  /// after it. \p p must lie within the buffer.
  char *ensure(char *p, size_t n) {
    if (__builtin_expect(size_t(buf.get() + cap - p) < n, 0))
      return growAt(p, n);
    return p;
  }
  /// Makes \p p, a cursor into the buffer, its end.
  void setEnd(char *p) { len = size_t(p - buf.get()); }

private:
  char *growAt(char *p, size_t n);
  std::unique_ptr<char[]> buf;
  size_t len = 0, cap = 0;
};

/// A fixed-size piece of text, copied whole (16 bytes) and then cut to
/// len; len is LongPiece when the text does not fit.
struct TextPiece {
  static constexpr uint8_t LongPiece = 0xff;
  char text[16];
  uint8_t len;
};
TextPiece makeTextPiece(llvm::StringRef s);

/// Writes \p v in decimal. \returns the end.
inline char *writeUInt(char *p, uint32_t v) {
  // Register numbers are mostly below 100.
  if (v < 10) {
    *p = char('0' + v);
    return p + 1;
  }
  if (v < 100) {
    p[0] = char('0' + v / 10);
    p[1] = char('0' + v % 10);
    return p + 2;
  }
  char tmp[10];
  char *t = tmp + sizeof(tmp);
  do {
    *--t = char('0' + v % 10);
    v /= 10;
  } while (v);
  size_t n = size_t(tmp + sizeof(tmp) - t);
  std::memcpy(p, t, n);
  return p + n;
}

/// Writes \p v as eight hex digits, upper or lower case: the nibbles are
/// spread to one per byte, most significant first, and turned into digits
/// together.
template <bool Upper> inline char *writeHex8(char *p, uint32_t v) {
  uint64_t x = v;
  x = ((x << 16) | x) & 0x0000FFFF0000FFFFull;
  x = ((x << 8) | x) & 0x00FF00FF00FF00FFull;
  x = ((x << 4) | x) & 0x0F0F0F0F0F0F0F0Full;
  x = __builtin_bswap64(x);
  uint64_t letters = ((x + 0x0606060606060606ull) >> 4) & 0x0101010101010101ull;
  x += 0x3030303030303030ull + letters * (Upper ? 7 : 39);
  std::memcpy(p, &x, 8);
  return p + 8;
}

/// Writes the literal of kind \p kind with payload \p bits (see
/// LiteralKind), hex digits in upper or lower case.
template <bool Upper>
inline char *writePtxLiteral(char *p, LiteralKind kind, uint32_t bits) {
  switch (kind) {
  case LiteralKind::F32:
    std::memcpy(p, "0f", 2);
    return writeHex8<Upper>(p + 2, bits);
  case LiteralKind::U32:
    std::memcpy(p, "0x", 2);
    p = writeHex8<Upper>(p + 2, bits);
    *p = 'U';
    return p + 1;
  case LiteralKind::F64: {
    // 32-bit payloads on an f64 stack are f32 values, widened exactly.
    float f;
    std::memcpy(&f, &bits, 4);
    double d = f;
    uint64_t dbits;
    std::memcpy(&dbits, &d, 8);
    std::memcpy(p, "0d", 2);
    p = writeHex8<Upper>(p + 2, uint32_t(dbits >> 32));
    return writeHex8<Upper>(p, uint32_t(dbits));
  }
  case LiteralKind::Hex:
    std::memcpy(p, "0x", 2);
    return writeHex8<Upper>(p + 2, bits);
  }
  return p;
}

/// Copies a register name: short ones, the usual, without a call.
inline char *writeName(char *p, llvm::StringRef name) {
  const char *s = name.data();
  size_t n = name.size();
  if (n > 16) {
    std::memcpy(p, s, n);
    return p + n;
  }
  // Two copies that overlap cover every length in a range.
  if (n >= 8) {
    uint64_t a, b;
    std::memcpy(&a, s, 8);
    std::memcpy(&b, s + n - 8, 8);
    std::memcpy(p, &a, 8);
    std::memcpy(p + n - 8, &b, 8);
  } else if (n >= 4) {
    uint32_t a, b;
    std::memcpy(&a, s, 4);
    std::memcpy(&b, s + n - 4, 4);
    std::memcpy(p, &a, 4);
    std::memcpy(p + n - 4, &b, 4);
  } else if (n) {
    p[0] = s[0];
    p[n / 2] = s[n / 2];
    p[n - 1] = s[n - 1];
  }
  return p + n;
}

/// How a stub names, copies and declares the values of each stack: the
/// per-stack text both emitters are built from.
class PtxStackTables {
public:
  /// \p indent starts every line; \p regPrefix(stack) is the prefix of the
  /// stub's registers of that stack (`%_s0_`), numbered after it.
  PtxStackTables(const stack::StackInfo &info, llvm::StringRef indent,
                 llvm::function_ref<std::string(unsigned)> regPrefix);

  /// `mov.f32`, or `cvt.u8.u8` for 8-bit stacks: PTX has no 8-bit `mov`.
  const std::string &getMovOp(unsigned s) const { return movOps[s]; }
  /// The indent, the mov op and a space: a copy's line up to its operands.
  const std::string &getMovLine(unsigned s) const { return movLines[s]; }
  const TextPiece &getMovPiece(unsigned s) const { return movPieces[s]; }
  /// The longest mov line.
  size_t getMaxMovLine() const { return maxMovLine; }
  const std::string &getRegPrefix(unsigned s) const { return regPrefixes[s]; }
  const TextPiece &getRegPiece(unsigned s) const { return regPieces[s]; }
  /// Whether every register prefix fits a piece (writeShortReg applies).
  bool allRegPrefixesFit() const { return prefixesFit; }
  /// `<indent>.reg .f32 %_s0_<`: a declaration up to its count.
  const std::string &getDeclHead(unsigned s) const { return declHeads[s]; }
  LiteralKind getLiteralKind(unsigned s) const { return litKinds[s]; }
  /// Whether a literal of stack \p s may be an instruction operand; one
  /// that may not is copied into a register first.
  bool isInlineLiteral(unsigned s) const { return inlineLits[s]; }
  const uint8_t *getInlineLiterals() const { return inlineLits.data(); }
  const LiteralKind *getLiteralKinds() const { return litKinds.data(); }
  const TextPiece *getRegPieces() const { return regPieces.data(); }

  /// Writes register \p reg of stack \p s.
  char *writeReg(char *p, unsigned s, uint32_t reg) const {
    const TextPiece &pc = regPieces[s];
    if (__builtin_expect(pc.len != TextPiece::LongPiece, 1)) {
      std::memcpy(p, pc.text, 16);
      return writeUInt(p + pc.len, reg);
    }
    const std::string &rp = regPrefixes[s];
    std::memcpy(p, rp.data(), rp.size());
    return writeUInt(p + rp.size(), reg);
  }
  /// writeReg where allRegPrefixesFit().
  char *writeShortReg(char *p, unsigned s, uint32_t reg) const {
    const TextPiece &pc = regPieces[s];
    std::memcpy(p, pc.text, 16);
    return writeUInt(p + pc.len, reg);
  }
  /// Writes the mov line of stack \p s.
  char *writeMovLine(char *p, unsigned s) const {
    const TextPiece &pc = movPieces[s];
    if (__builtin_expect(pc.len != TextPiece::LongPiece, 1)) {
      std::memcpy(p, pc.text, 16);
      return p + pc.len;
    }
    const std::string &m = movLines[s];
    std::memcpy(p, m.data(), m.size());
    return p + m.size();
  }

private:
  std::vector<std::string> movOps, movLines, regPrefixes, declHeads;
  std::vector<TextPiece> movPieces, regPieces;
  std::vector<LiteralKind> litKinds;
  std::vector<uint8_t> inlineLits;
  size_t maxMovLine = 0;
  bool prefixesFit = true;
};

} // namespace expr
} // namespace mmptx

#endif // MMPTX_EXPR_PTXEMITTER_H
