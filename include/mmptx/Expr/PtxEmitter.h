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

#include "mmptx/Expr/InstrSet.h"
#include "mmptx/Expr/Literal.h"

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
  void clear() { Len = 0; }
  size_t size() const { return Len; }
  const char *data() const { return Buf.get(); }
  char *begin() { return Buf.get(); }
  char *end() { return Buf.get() + Len; }
  /// \returns \p P, or where it moved to, with room for \p N characters
  /// after it. \p P must lie within the buffer.
  char *ensure(char *P, size_t N) {
    if (__builtin_expect(size_t(Buf.get() + Cap - P) < N, 0))
      return growAt(P, N);
    return P;
  }
  /// Makes \p P, a cursor into the buffer, its end.
  void setEnd(char *P) { Len = size_t(P - Buf.get()); }

private:
  char *growAt(char *P, size_t N);
  std::unique_ptr<char[]> Buf;
  size_t Len = 0, Cap = 0;
};

/// A fixed-size piece of text, copied whole (16 bytes) and then cut to
/// len; len is LongPiece when the text does not fit.
struct TextPiece {
  static constexpr uint8_t LongPiece = 0xff;
  char Text[16];
  uint8_t Len;
};
TextPiece makeTextPiece(llvm::StringRef S);

/// Writes \p V in decimal. \returns the end.
inline char *writeUInt(char *P, uint32_t V) {
  // Register numbers are mostly below 100.
  if (V < 10) {
    *P = char('0' + V);
    return P + 1;
  }
  if (V < 100) {
    P[0] = char('0' + V / 10);
    P[1] = char('0' + V % 10);
    return P + 2;
  }
  char Tmp[10];
  char *T = Tmp + sizeof(Tmp);
  do {
    *--T = char('0' + V % 10);
    V /= 10;
  } while (V);
  size_t N = size_t(Tmp + sizeof(Tmp) - T);
  std::memcpy(P, T, N);
  return P + N;
}

/// Writes \p V as eight hex digits, upper or lower case: the nibbles are
/// spread to one per byte, most significant first, and turned into digits
/// together.
template <bool Upper> inline char *writeHex8(char *P, uint32_t V) {
  uint64_t X = V;
  X = ((X << 16) | X) & 0x0000FFFF0000FFFFull;
  X = ((X << 8) | X) & 0x00FF00FF00FF00FFull;
  X = ((X << 4) | X) & 0x0F0F0F0F0F0F0F0Full;
  X = __builtin_bswap64(X);
  uint64_t Letters = ((X + 0x0606060606060606ull) >> 4) & 0x0101010101010101ull;
  X += 0x3030303030303030ull + Letters * (Upper ? 7 : 39);
  std::memcpy(P, &X, 8);
  return P + 8;
}

/// Writes the literal of kind \p Kind with payload \p Bits (see
/// LiteralKind), hex digits in upper or lower case.
template <bool Upper>
inline char *writePtxLiteral(char *P, LiteralKind Kind, uint32_t Bits) {
  switch (Kind) {
  case LiteralKind::F32:
    std::memcpy(P, "0f", 2);
    return writeHex8<Upper>(P + 2, Bits);
  case LiteralKind::U32:
    std::memcpy(P, "0x", 2);
    P = writeHex8<Upper>(P + 2, Bits);
    *P = 'U';
    return P + 1;
  case LiteralKind::F64: {
    // 32-bit payloads on an f64 stack are f32 values, widened exactly.
    float F;
    std::memcpy(&F, &Bits, 4);
    double D = F;
    uint64_t Dbits;
    std::memcpy(&Dbits, &D, 8);
    std::memcpy(P, "0d", 2);
    P = writeHex8<Upper>(P + 2, uint32_t(Dbits >> 32));
    return writeHex8<Upper>(P, uint32_t(Dbits));
  }
  case LiteralKind::Hex:
    std::memcpy(P, "0x", 2);
    return writeHex8<Upper>(P + 2, Bits);
  }
  return P;
}

/// Copies a register name: short ones, the usual, without a call.
inline char *writeName(char *P, llvm::StringRef Name) {
  const char *S = Name.data();
  size_t N = Name.size();
  if (N > 16) {
    std::memcpy(P, S, N);
    return P + N;
  }
  // Two copies that overlap cover every length in a range.
  if (N >= 8) {
    uint64_t A, B;
    std::memcpy(&A, S, 8);
    std::memcpy(&B, S + N - 8, 8);
    std::memcpy(P, &A, 8);
    std::memcpy(P + N - 8, &B, 8);
  } else if (N >= 4) {
    uint32_t A, B;
    std::memcpy(&A, S, 4);
    std::memcpy(&B, S + N - 4, 4);
    std::memcpy(P, &A, 4);
    std::memcpy(P + N - 4, &B, 4);
  } else if (N) {
    P[0] = S[0];
    P[N / 2] = S[N / 2];
    P[N - 1] = S[N - 1];
  }
  return P + N;
}

/// How a stub names, copies and declares the values of each stack: the
/// per-stack text both emitters are built from.
class PtxStackTables {
public:
  /// \p Indent starts every line; \p RegPrefix(stack) is the prefix of the
  /// stub's registers of that stack (`%_s0_`), numbered after it.
  PtxStackTables(const InstrSet &Info, llvm::StringRef Indent,
                 llvm::function_ref<std::string(unsigned)> RegPrefix);

  /// `mov.f32`, or `cvt.u8.u8` for 8-bit stacks: PTX has no 8-bit `mov`.
  const std::string &getMovOp(unsigned S) const { return MovOps[S]; }
  /// The indent, the mov op and a space: a copy's line up to its operands.
  const std::string &getMovLine(unsigned S) const { return MovLines[S]; }
  const TextPiece &getMovPiece(unsigned S) const { return MovPieces[S]; }
  /// The longest mov line.
  size_t getMaxMovLine() const { return MaxMovLine; }
  const std::string &getRegPrefix(unsigned S) const { return RegPrefixes[S]; }
  const TextPiece &getRegPiece(unsigned S) const { return RegPieces[S]; }
  /// Whether every register prefix fits a piece (writeShortReg applies).
  bool allRegPrefixesFit() const { return PrefixesFit; }
  /// `<indent>.reg .f32 %_s0_<`: a declaration up to its count.
  const std::string &getDeclHead(unsigned S) const { return DeclHeads[S]; }
  LiteralKind getLiteralKind(unsigned S) const { return LitKinds[S]; }
  /// Whether a literal of stack \p S may be an instruction operand; one
  /// that may not is copied into a register first.
  bool isInlineLiteral(unsigned S) const { return InlineLits[S]; }
  const uint8_t *getInlineLiterals() const { return InlineLits.data(); }
  const LiteralKind *getLiteralKinds() const { return LitKinds.data(); }
  const TextPiece *getRegPieces() const { return RegPieces.data(); }

  /// Writes register \p Reg of stack \p S.
  char *writeReg(char *P, unsigned S, uint32_t Reg) const {
    const TextPiece &Pc = RegPieces[S];
    if (__builtin_expect(Pc.Len != TextPiece::LongPiece, 1)) {
      std::memcpy(P, Pc.Text, 16);
      return writeUInt(P + Pc.Len, Reg);
    }
    const std::string &Rp = RegPrefixes[S];
    std::memcpy(P, Rp.data(), Rp.size());
    return writeUInt(P + Rp.size(), Reg);
  }
  /// writeReg where allRegPrefixesFit().
  char *writeShortReg(char *P, unsigned S, uint32_t Reg) const {
    const TextPiece &Pc = RegPieces[S];
    std::memcpy(P, Pc.Text, 16);
    return writeUInt(P + Pc.Len, Reg);
  }
  /// Writes the mov line of stack \p S.
  char *writeMovLine(char *P, unsigned S) const {
    const TextPiece &Pc = MovPieces[S];
    if (__builtin_expect(Pc.Len != TextPiece::LongPiece, 1)) {
      std::memcpy(P, Pc.Text, 16);
      return P + Pc.Len;
    }
    const std::string &M = MovLines[S];
    std::memcpy(P, M.data(), M.size());
    return P + M.size();
  }

private:
  std::vector<std::string> MovOps, MovLines, RegPrefixes, DeclHeads;
  std::vector<TextPiece> MovPieces, RegPieces;
  std::vector<LiteralKind> LitKinds;
  std::vector<uint8_t> InlineLits;
  size_t MaxMovLine = 0;
  bool PrefixesFit = true;
};

/// \returns the line of a test kernel that declares register %\p Name of
/// PTX type \p Prefix (`f32`).
std::string ptxRegisterDecl(llvm::StringRef Prefix, llvm::StringRef Name);
/// \returns the line of a test kernel that sets register %\p Name of PTX
/// type \p Prefix to zero (with `cvt` for the 8-bit types, which `mov`
/// cannot write).
std::string ptxZeroRegister(llvm::StringRef Prefix, llvm::StringRef Name);

} // namespace expr
} // namespace mmptx

#endif // MMPTX_EXPR_PTXEMITTER_H
