//===- Literal.cpp - Typed literals of expression programs ----------------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "mmptx/Expr/Literal.h"

#include "mmptx/Support/Diagnostic.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>

using namespace llvm;
using namespace mmptx;
using namespace mmptx::expr;

LiteralKind expr::getLiteralKind(StringRef Prefix) {
  if (Prefix == "f32")
    return LiteralKind::F32;
  if (Prefix == "f64")
    return LiteralKind::F64;
  if (Prefix == "u32")
    return LiteralKind::U32;
  return LiteralKind::Hex;
}

unsigned expr::getTypeWidth(StringRef Prefix) {
  if (Prefix == "pred")
    return 1;
  unsigned W = 32;
  StringRef Digits = Prefix.drop_while([](char C) { return !isDigit(C); });
  if (!Digits.take_while(isDigit).getAsInteger(10, W) &&
      (W == 8 || W == 16 || W == 32 || W == 64))
    return W;
  return 32;
}

static uint32_t floatBits(float F) {
  uint32_t B;
  std::memcpy(&B, &F, 4);
  return B;
}

Expected<uint32_t> expr::parseLiteral(StringRef Text, StringRef Prefix) {
  auto Fail = [&](const Twine &Why) -> Error {
    return makeError("literal '" + Text + "' " + Why);
  };
  if (Text.empty())
    return makeError("empty literal");
  bool IsFloatStack = Prefix == "f32" || Prefix == "f64";
  if (Prefix == "pred") {
    if (Text == "true" || Text == "1")
      return 1;
    if (Text == "false" || Text == "0")
      return 0;
    return Fail("is not a predicate (true, false, 1 or 0)");
  }
  if (IsFloatStack) {
    if (Text.size() == 10 && Text.startswith_insensitive("0f")) {
      uint64_t V;
      if (Text.drop_front(2).getAsInteger(16, V))
        return Fail("is not a hex float");
      return uint32_t(V); // an f32 on both float stacks
    }
    SmallString<32> S(Text);
    char *End = nullptr;
    errno = 0;
    double D = std::strtod(S.c_str(), &End);
    if (End != S.c_str() + S.size())
      return Fail("is not a number");
    bool SpelledInf = Text.contains_insensitive("inf");
    if (std::isinf(D) && !SpelledInf)
      return Fail("is out of range for f32, the payload of a constant");
    float F = float(D);
    if (std::isfinite(D) && !std::isfinite(F))
      return Fail("is out of range for f32, the payload of a constant");
    if (D != 0 && F == 0)
      return Fail("underflows to 0 in f32, the payload of a constant");
    if (Prefix == "f64" && std::isfinite(D) && double(F) != D) {
      char Nearest[32];
      snprintf(Nearest, sizeof(Nearest), "%.9g", double(F));
      return Fail("is not exact in f32, the payload of an f64 constant; the "
                  "nearest is " +
                  Twine(Nearest));
    }
    return floatBits(F);
  }
  // Integer and bit types, and 16-bit float bit patterns (b16).
  unsigned W = getTypeWidth(Prefix);
  bool IsSigned = Prefix.startswith("s");
  bool IsBits = Prefix.startswith("b");
  StringRef T = Text;
  if (T.endswith("u") || T.endswith("U"))
    T = T.drop_back();
  bool Neg = T.consume_front("-");
  if (!Neg)
    T.consume_front("+");
  // A hex literal spells the bits of a signed type, a decimal its value.
  if (!Neg && T.startswith_insensitive("0x"))
    IsSigned = false;
  uint64_t V;
  if (T.empty() || T.getAsInteger(0, V))
    return Fail("is not an integer (a ." + Prefix + " literal)");
  if (Neg && !IsSigned && !IsBits)
    return Fail("is negative; ." + Prefix + " is unsigned");
  unsigned PayloadW = std::min(W, 32u);
  // Zero-extended 32-bit payloads hold s64 and b64 values only when
  // non-negative.
  if (W == 64 && Neg)
    return Fail("is negative; a constant carries 32 bits, zero-extended to "
                "." +
                Prefix);
  uint64_t MaxU = PayloadW == 64 ? ~0ULL : (1ULL << PayloadW) - 1;
  uint64_t MaxS = (1ULL << (PayloadW - 1)) - 1;
  if (Neg) {
    if (V > MaxS + 1)
      return Fail("is out of range for ." + Prefix);
    return uint32_t((0 - V) & MaxU);
  }
  if (IsSigned && W != 64 && V > MaxS)
    return Fail("is out of range for ." + Prefix);
  if (V > MaxU)
    return Fail(W == 64 ? "does not fit in 32 bits, the payload of a "
                          "constant"
                        : Twine("is out of range for .") + Prefix);
  return uint32_t(V);
}

uint64_t expr::literalValue(uint32_t Bits, StringRef Prefix) {
  if (Prefix == "f64") {
    float F;
    std::memcpy(&F, &Bits, 4);
    double D = F;
    uint64_t V;
    std::memcpy(&V, &D, 8);
    return V;
  }
  unsigned W = getTypeWidth(Prefix);
  if (W == 1)
    return Bits != 0;
  return W >= 32 ? uint64_t(Bits) : uint64_t(Bits) & ((1ULL << W) - 1);
}

bool expr::parseValue(StringRef Text, StringRef Prefix, uint64_t &Out) {
  if (Prefix == "f32" || Prefix == "f64") {
    SmallString<32> S(Text);
    char *End = nullptr;
    double D = std::strtod(S.c_str(), &End);
    if (S.empty() || End != S.c_str() + S.size())
      return false;
    if (Prefix == "f32")
      Out = floatBits(float(D));
    else
      std::memcpy(&Out, &D, 8);
    return true;
  }
  if (Prefix == "pred" && (Text == "true" || Text == "false")) {
    Out = Text == "true";
    return true;
  }
  bool Neg = Text.startswith("-");
  uint64_t V;
  if ((Neg ? Text.drop_front() : Text).getAsInteger(0, V))
    return false;
  Out = Neg ? 0 - V : V;
  unsigned W = getTypeWidth(Prefix);
  if (W == 1)
    Out = Out != 0;
  else if (W < 64)
    Out &= (1ULL << W) - 1;
  return true;
}

void expr::printValue(raw_ostream &Os, uint64_t V, StringRef Prefix) {
  if (Prefix == "f32") {
    uint32_t B = uint32_t(V);
    float F;
    std::memcpy(&F, &B, 4);
    Os << format("%.9g", double(F)) << " (0f"
       << format_hex_no_prefix(B, 8, /*Upper=*/true) << ")";
  } else if (Prefix == "f64") {
    double D;
    std::memcpy(&D, &V, 8);
    Os << format("%.17g", D);
  } else if (Prefix == "pred") {
    Os << (V ? "true" : "false");
  } else if (Prefix.startswith("s")) {
    unsigned W = getTypeWidth(Prefix);
    int64_t S = W == 64 ? int64_t(V) : int64_t(V << (64 - W)) >> (64 - W);
    Os << S;
  } else {
    Os << V << " (" << format_hex(V, 10) << ")";
  }
}

void expr::printF32Literal(raw_ostream &Os, uint32_t Bits) {
  float F;
  std::memcpy(&F, &Bits, 4);
  if (std::isfinite(F)) {
    char Buf[48];
    for (int Prec : {6, 9}) {
      snprintf(Buf, sizeof(Buf), "%.*g", Prec, double(F));
      if (floatBits(std::strtof(Buf, nullptr)) != Bits)
        continue;
      StringRef S(Buf);
      Os << S;
      if (S.find_first_of(".e") == StringRef::npos)
        Os << ".0";
      return;
    }
  }
  Os << "0f" << format_hex_no_prefix(Bits, 8, /*Upper=*/true);
}
