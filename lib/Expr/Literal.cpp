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

LiteralKind expr::getLiteralKind(StringRef prefix) {
  if (prefix == "f32")
    return LiteralKind::F32;
  if (prefix == "f64")
    return LiteralKind::F64;
  if (prefix == "u32")
    return LiteralKind::U32;
  return LiteralKind::Hex;
}

unsigned expr::getTypeWidth(StringRef prefix) {
  if (prefix == "pred")
    return 1;
  unsigned w = 32;
  StringRef digits = prefix.drop_while([](char c) { return !isDigit(c); });
  if (!digits.take_while(isDigit).getAsInteger(10, w) &&
      (w == 8 || w == 16 || w == 32 || w == 64))
    return w;
  return 32;
}

static uint32_t floatBits(float f) {
  uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}

Expected<uint32_t> expr::parseLiteral(StringRef text, StringRef prefix) {
  auto fail = [&](const Twine &why) -> Error {
    return makeError("literal '" + text + "' " + why);
  };
  if (text.empty())
    return makeError("empty literal");
  bool isFloatStack = prefix == "f32" || prefix == "f64";
  if (prefix == "pred") {
    if (text == "true" || text == "1")
      return 1;
    if (text == "false" || text == "0")
      return 0;
    return fail("is not a predicate (true, false, 1 or 0)");
  }
  if (isFloatStack) {
    if (text.size() == 10 && text.startswith_insensitive("0f")) {
      uint64_t v;
      if (text.drop_front(2).getAsInteger(16, v))
        return fail("is not a hex float");
      return uint32_t(v); // an f32 on both float stacks
    }
    SmallString<32> s(text);
    char *end = nullptr;
    errno = 0;
    double d = std::strtod(s.c_str(), &end);
    if (end != s.c_str() + s.size())
      return fail("is not a number");
    bool spelledInf = text.contains_insensitive("inf");
    if (std::isinf(d) && !spelledInf)
      return fail("is out of range for f32, the payload of a constant");
    float f = float(d);
    if (std::isfinite(d) && !std::isfinite(f))
      return fail("is out of range for f32, the payload of a constant");
    if (d != 0 && f == 0)
      return fail("underflows to 0 in f32, the payload of a constant");
    if (prefix == "f64" && std::isfinite(d) && double(f) != d) {
      char nearest[32];
      snprintf(nearest, sizeof(nearest), "%.9g", double(f));
      return fail("is not exact in f32, the payload of an f64 constant; the "
                  "nearest is " +
                  Twine(nearest));
    }
    return floatBits(f);
  }
  // Integer and bit types, and 16-bit float bit patterns (b16).
  unsigned w = getTypeWidth(prefix);
  bool isSigned = prefix.startswith("s");
  bool isBits = prefix.startswith("b");
  StringRef t = text;
  if (t.endswith("u") || t.endswith("U"))
    t = t.drop_back();
  bool neg = t.consume_front("-");
  if (!neg)
    t.consume_front("+");
  // A hex literal spells the bits of a signed type, a decimal its value.
  if (!neg && t.startswith_insensitive("0x"))
    isSigned = false;
  uint64_t v;
  if (t.empty() || t.getAsInteger(0, v))
    return fail("is not an integer (a ." + prefix + " literal)");
  if (neg && !isSigned && !isBits)
    return fail("is negative; ." + prefix + " is unsigned");
  unsigned payloadW = std::min(w, 32u);
  // Zero-extended 32-bit payloads hold s64 and b64 values only when
  // non-negative.
  if (w == 64 && neg)
    return fail("is negative; a constant carries 32 bits, zero-extended to "
                "." +
                prefix);
  uint64_t maxU = payloadW == 64 ? ~0ULL : (1ULL << payloadW) - 1;
  uint64_t maxS = (1ULL << (payloadW - 1)) - 1;
  if (neg) {
    if (v > maxS + 1)
      return fail("is out of range for ." + prefix);
    return uint32_t((0 - v) & maxU);
  }
  if (isSigned && w != 64 && v > maxS)
    return fail("is out of range for ." + prefix);
  if (v > maxU)
    return fail(w == 64 ? "does not fit in 32 bits, the payload of a "
                          "constant"
                        : Twine("is out of range for .") + prefix);
  return uint32_t(v);
}

uint64_t expr::literalValue(uint32_t bits, StringRef prefix) {
  if (prefix == "f64") {
    float f;
    std::memcpy(&f, &bits, 4);
    double d = f;
    uint64_t v;
    std::memcpy(&v, &d, 8);
    return v;
  }
  unsigned w = getTypeWidth(prefix);
  if (w == 1)
    return bits != 0;
  return w >= 32 ? uint64_t(bits) : uint64_t(bits) & ((1ULL << w) - 1);
}

bool expr::parseValue(StringRef text, StringRef prefix, uint64_t &out) {
  if (prefix == "f32" || prefix == "f64") {
    SmallString<32> s(text);
    char *end = nullptr;
    double d = std::strtod(s.c_str(), &end);
    if (s.empty() || end != s.c_str() + s.size())
      return false;
    if (prefix == "f32")
      out = floatBits(float(d));
    else
      std::memcpy(&out, &d, 8);
    return true;
  }
  if (prefix == "pred" && (text == "true" || text == "false")) {
    out = text == "true";
    return true;
  }
  bool neg = text.startswith("-");
  uint64_t v;
  if ((neg ? text.drop_front() : text).getAsInteger(0, v))
    return false;
  out = neg ? 0 - v : v;
  unsigned w = getTypeWidth(prefix);
  if (w == 1)
    out = out != 0;
  else if (w < 64)
    out &= (1ULL << w) - 1;
  return true;
}

void expr::printValue(raw_ostream &os, uint64_t v, StringRef prefix) {
  if (prefix == "f32") {
    uint32_t b = uint32_t(v);
    float f;
    std::memcpy(&f, &b, 4);
    os << format("%.9g", double(f)) << " (0f"
       << format_hex_no_prefix(b, 8, /*Upper=*/true) << ")";
  } else if (prefix == "f64") {
    double d;
    std::memcpy(&d, &v, 8);
    os << format("%.17g", d);
  } else if (prefix == "pred") {
    os << (v ? "true" : "false");
  } else if (prefix.startswith("s")) {
    unsigned w = getTypeWidth(prefix);
    int64_t s = w == 64 ? int64_t(v) : int64_t(v << (64 - w)) >> (64 - w);
    os << s;
  } else {
    os << v << " (" << format_hex(v, 10) << ")";
  }
}

void expr::printF32Literal(raw_ostream &os, uint32_t bits) {
  float f;
  std::memcpy(&f, &bits, 4);
  if (std::isfinite(f)) {
    char buf[48];
    for (int prec : {6, 9}) {
      snprintf(buf, sizeof(buf), "%.*g", prec, double(f));
      if (floatBits(std::strtof(buf, nullptr)) != bits)
        continue;
      StringRef s(buf);
      os << s;
      if (s.find_first_of(".e") == StringRef::npos)
        os << ".0";
      return;
    }
  }
  os << "0f" << format_hex_no_prefix(bits, 8, /*Upper=*/true);
}
