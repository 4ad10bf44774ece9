//===- Evaluate.cpp - CPU evaluation of instructions ----------------------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Each instruction's opcode text (`op.mod...type`) is decoded into an
/// operation on host values.
///
//===----------------------------------------------------------------------===//

#include "mmptx/Expr/Evaluate.h"

#include "mmptx/Support/Diagnostic.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"

#include <cmath>
#include <cstring>

using namespace llvm;
using namespace mmptx;
using namespace mmptx::expr;
using stack::ArgTypeInfo;
using stack::PtxInstrDesc;
using stack::StackInfo;

uint64_t expr::f32Bits(float f) {
  uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}
float expr::bitsF32(uint64_t v) {
  uint32_t b = uint32_t(v);
  float f;
  std::memcpy(&f, &b, 4);
  return f;
}
uint64_t expr::f64Bits(double d) {
  uint64_t b;
  std::memcpy(&b, &d, 8);
  return b;
}
static double bitsF64(uint64_t v) {
  double d;
  std::memcpy(&d, &v, 8);
  return d;
}

// f16 / bf16 conversions, round to nearest even.
static float halfToFloat(uint16_t h) {
  uint32_t sign = uint32_t(h & 0x8000) << 16;
  uint32_t exp = (h >> 10) & 0x1f, man = h & 0x3ff;
  if (exp == 0) {
    float f = std::ldexp(float(man), -24);
    return sign ? -f : f;
  }
  if (exp == 31)
    return bitsF32(sign | 0x7f800000u | (man << 13));
  return bitsF32(sign | ((exp + 112) << 23) | (man << 13));
}
static uint16_t floatToHalf(float f) {
  uint32_t b = uint32_t(f32Bits(f));
  uint16_t sign = uint16_t((b >> 16) & 0x8000);
  if (std::isnan(f))
    return sign | 0x7e00;
  float a = std::fabs(f);
  if (a >= 65520.0f)
    return sign | 0x7c00;
  if (a < 6.103515625e-05f) { // subnormal half: multiples of 2^-24
    float q = std::nearbyint(a * 16777216.0f);
    return sign | uint16_t(q);
  }
  uint32_t ab = b & 0x7fffffff;
  uint32_t exp = (ab >> 23) - 112, man = ab & 0x7fffff;
  uint32_t h = (exp << 10) | (man >> 13);
  uint32_t rest = man & 0x1fff;
  if (rest > 0x1000 || (rest == 0x1000 && (h & 1)))
    ++h;
  return sign | uint16_t(h);
}
static float bf16ToFloat(uint16_t h) { return bitsF32(uint32_t(h) << 16); }
static uint16_t floatToBf16(float f) {
  uint32_t b = uint32_t(f32Bits(f));
  if (std::isnan(f))
    return uint16_t((b >> 16) | 0x40);
  b += 0x7fff + ((b >> 16) & 1);
  return uint16_t(b >> 16);
}

static float ftz(float f) {
  return std::fpclassify(f) == FP_SUBNORMAL ? std::copysign(0.0f, f) : f;
}

namespace {

enum class Ty {
  None,
  F16,
  BF16,
  F16X2,
  BF16X2,
  F32,
  F64,
  TF32,
  U8,
  U16,
  U32,
  U64,
  S8,
  S16,
  S32,
  S64,
  B16,
  B32,
  B64,
  Pred
};

Ty parseTy(StringRef s) {
  return StringSwitch<Ty>(s)
      .Case("f16", Ty::F16)
      .Case("bf16", Ty::BF16)
      .Case("f16x2", Ty::F16X2)
      .Case("bf16x2", Ty::BF16X2)
      .Case("f32", Ty::F32)
      .Case("f64", Ty::F64)
      .Case("tf32", Ty::TF32)
      .Case("u8", Ty::U8)
      .Case("u16", Ty::U16)
      .Case("u32", Ty::U32)
      .Case("u64", Ty::U64)
      .Case("s8", Ty::S8)
      .Case("s16", Ty::S16)
      .Case("s32", Ty::S32)
      .Case("s64", Ty::S64)
      .Case("b16", Ty::B16)
      .Case("b32", Ty::B32)
      .Case("b64", Ty::B64)
      .Case("pred", Ty::Pred)
      .Default(Ty::None);
}

} // namespace

unsigned expr::getValueWidth(StringRef prefix) {
  Ty t = parseTy(prefix);
  switch (t) {
  case Ty::Pred:
    return 1;
  case Ty::U8:
  case Ty::S8:
    return 8;
  case Ty::F16:
  case Ty::BF16:
  case Ty::U16:
  case Ty::S16:
  case Ty::B16:
    return 16;
  case Ty::F64:
  case Ty::U64:
  case Ty::S64:
  case Ty::B64:
    return 64;
  default:
    return 32;
  }
}

uint64_t expr::maskToWidth(uint64_t v, unsigned w) {
  if (w == 1)
    return v != 0;
  return w == 64 ? v : v & ((1ULL << w) - 1);
}

namespace {

/// Floating-point lane helpers for the f16/bf16/f32 families.
struct FloatLane {
  Ty ty;
  float get(uint64_t v, unsigned lane) const {
    uint16_t h = uint16_t(v >> (16 * lane));
    switch (ty) {
    case Ty::F16:
    case Ty::F16X2:
      return halfToFloat(h);
    case Ty::BF16:
    case Ty::BF16X2:
      return bf16ToFloat(h);
    default:
      return bitsF32(v);
    }
  }
  uint64_t put(float f, unsigned lane) const {
    switch (ty) {
    case Ty::F16:
    case Ty::F16X2:
      return uint64_t(floatToHalf(f)) << (16 * lane);
    case Ty::BF16:
    case Ty::BF16X2:
      return uint64_t(floatToBf16(f)) << (16 * lane);
    default:
      return f32Bits(f);
    }
  }
  unsigned lanes() const { return ty == Ty::F16X2 || ty == Ty::BF16X2 ? 2 : 1; }
};

} // namespace

static bool cmp(StringRef op, double a, double b) {
  if (std::isnan(a) || std::isnan(b))
    return op.endswith("u") || op == "nan";
  return StringSwitch<bool>(op)
      .Cases("eq", "equ", a == b)
      .Cases("ne", "neu", a != b)
      .Cases("lt", "ltu", a < b)
      .Cases("le", "leu", a <= b)
      .Cases("gt", "gtu", a > b)
      .Cases("ge", "geu", a >= b)
      .Case("num", true)
      .Default(false);
}

static bool cmpInt(StringRef op, int64_t a, int64_t b) {
  return StringSwitch<bool>(op)
      .Case("eq", a == b)
      .Case("ne", a != b)
      .Case("lt", a < b)
      .Case("le", a <= b)
      .Case("gt", a > b)
      .Case("ge", a >= b)
      .Case("lo", a < b)
      .Case("ls", a <= b)
      .Case("hi", a > b)
      .Case("hs", a >= b)
      .Default(false);
}

Error expr::evaluateInstr(const StackInfo &info, uint32_t instr,
                          ArrayRef<uint64_t> a,
                          MutableArrayRef<uint64_t> results) {
  const PtxInstrDesc &d = info.instrs[instr];
  StringRef ptx = info.instrPtx[instr];
  SmallVector<StringRef, 8> parts;
  ptx.split(parts, '.');
  StringRef op = parts[0];
  bool isFtz = is_contained(parts, "ftz");
  unsigned numArgs = a.size();
  // Flattened result elements and their stacks.
  SmallVector<uint16_t, 4> retStacks;
  for (unsigned r = 0; r != d.numRets; ++r) {
    const ArgTypeInfo &t = info.argTypes[d.rets[r]];
    retStacks.append(t.numVecElems ? t.numVecElems : 1, t.stackIdx);
  }
  unsigned numRets = retStacks.size();
  SmallVector<uint64_t, 4> res(numRets, 0);
  auto unsupported = [&] {
    return makeError("the interpreter does not support '" + ptx + "'");
  };
  auto retWidth = [&](unsigned e) {
    return getValueWidth(info.literalPrefixes[retStacks[e]]);
  };

  if (op == "mma")
    return makeError("the interpreter does not support warp-wide '" + ptx +
                     "'");

  Ty ty = parseTy(parts.back());
  if (op == "mov" && (numArgs != 1 || numRets != 1 || parts.back() == "b32" ||
                      parts.back() == "b64")) {
    // Bit moves, packing and unpacking: operand elements are concatenated,
    // element 0 in the low bits, and split over the results.
    unsigned argW = numArgs > 1 ? 32 / numArgs : 32;
    if (parts.back() == "b64")
      argW = numArgs > 1 ? 64 / numArgs : 64;
    uint64_t bits = 0;
    for (unsigned i = 0; i != numArgs; ++i)
      bits |= maskToWidth(a[i], argW) << (argW * i);
    unsigned total = numArgs * argW;
    unsigned resW = numRets > 1 ? total / numRets : total;
    for (unsigned e = 0; e != numRets; ++e)
      res[e] = maskToWidth(bits >> (resW * e), std::min(resW, retWidth(e)));
  } else if (op == "cvt") {
    if (parts.size() < 3)
      return unsupported();
    Ty dst = parseTy(parts[parts.size() - 2]), src = ty;
    StringRef rnd = parts.size() >= 4 ? parts[1] : "";
    double x;
    bool srcFloat = true;
    switch (src) {
    case Ty::F32:
      x = ftz(bitsF32(a[0]));
      if (!isFtz)
        x = bitsF32(a[0]);
      break;
    case Ty::F64:
      x = bitsF64(a[0]);
      break;
    case Ty::F16:
      x = halfToFloat(uint16_t(a[0]));
      break;
    case Ty::BF16:
      x = bf16ToFloat(uint16_t(a[0]));
      break;
    case Ty::U8:
      x = double(uint8_t(a[0]));
      srcFloat = false;
      break;
    case Ty::U16:
      x = double(uint16_t(a[0]));
      srcFloat = false;
      break;
    case Ty::U32:
      x = double(uint32_t(a[0]));
      srcFloat = false;
      break;
    case Ty::U64:
      x = double(a[0]);
      srcFloat = false;
      break;
    case Ty::S32:
      x = double(int32_t(a[0]));
      srcFloat = false;
      break;
    case Ty::S64:
      x = double(int64_t(a[0]));
      srcFloat = false;
      break;
    default:
      return unsupported();
    }
    auto roundInt = [&](double v) {
      if (rnd == "rzi" || rnd == "rz")
        return std::trunc(v);
      if (rnd == "rmi" || rnd == "rm")
        return std::floor(v);
      if (rnd == "rpi" || rnd == "rp")
        return std::ceil(v);
      return std::nearbyint(v);
    };
    switch (dst) {
    case Ty::F32: {
      float f;
      if (src == Ty::U32 && !srcFloat)
        f = float(uint32_t(a[0]));
      else if (src == Ty::S32)
        f = float(int32_t(a[0]));
      else if (src == Ty::U64)
        f = float(a[0]);
      else
        f = float(x);
      res[0] = f32Bits(isFtz ? ftz(f) : f);
      break;
    }
    case Ty::F64:
      res[0] = f64Bits(x);
      break;
    case Ty::F16:
      res[0] = floatToHalf(float(x));
      break;
    case Ty::BF16:
      res[0] = floatToBf16(float(x));
      break;
    case Ty::TF32: {
      uint32_t b = uint32_t(a[0]);
      if (std::isfinite(bitsF32(b)))
        b = (b + 0x1000u) & 0xffffe000u; // round to nearest, ties away
      res[0] = b;
      break;
    }
    case Ty::U8:
    case Ty::U16:
    case Ty::U32:
    case Ty::U64: {
      if (!srcFloat) {
        res[0] = maskToWidth(a[0], getValueWidth(parts[parts.size() - 2]));
        break;
      }
      double v = roundInt(x);
      double hi = std::ldexp(1.0, getValueWidth(parts[parts.size() - 2])) - 1;
      v = std::isnan(v) ? 0 : std::min(std::max(v, 0.0), hi);
      res[0] = uint64_t(v);
      break;
    }
    case Ty::S32:
    case Ty::S64: {
      if (!srcFloat) {
        res[0] = maskToWidth(a[0], getValueWidth(parts[parts.size() - 2]));
        break;
      }
      double v = roundInt(x);
      double lim = dst == Ty::S32 ? 2147483648.0 : 9223372036854775808.0;
      v = std::isnan(v) ? 0 : std::min(std::max(v, -lim), lim - 1);
      res[0] = maskToWidth(uint64_t(int64_t(v)), dst == Ty::S32 ? 32 : 64);
      break;
    }
    default:
      return unsupported();
    }
  } else if (op == "setp") {
    if (parts.size() < 3)
      return unsupported();
    StringRef c = parts[1];
    bool r;
    if (ty == Ty::F32 || ty == Ty::F64) {
      double x = ty == Ty::F32
                     ? double(isFtz ? ftz(bitsF32(a[0])) : bitsF32(a[0]))
                     : bitsF64(a[0]);
      double y = ty == Ty::F32
                     ? double(isFtz ? ftz(bitsF32(a[1])) : bitsF32(a[1]))
                     : bitsF64(a[1]);
      r = cmp(c, x, y);
    } else if (ty == Ty::S32) {
      r = cmpInt(c, int32_t(a[0]), int32_t(a[1]));
    } else if (ty == Ty::U32 || ty == Ty::B32) {
      r = cmpInt(c, int64_t(uint32_t(a[0])), int64_t(uint32_t(a[1])));
    } else {
      return unsupported();
    }
    if (parts.size() >= 4 && numArgs == 3) {
      StringRef b = parts[2];
      bool p = a[2] != 0;
      auto comb = [&](bool v) {
        return b == "and" ? v && p : b == "or" ? v || p : v != p;
      };
      res[0] = comb(r);
      if (numRets > 1)
        res[1] = comb(!r);
    } else {
      res[0] = r;
      if (numRets > 1)
        res[1] = !r;
    }
  } else if (op == "selp") {
    res[0] = a[2] ? a[0] : a[1];
  } else if (ty == Ty::Pred) {
    bool x = a[0] != 0, y = numArgs > 1 && a[1] != 0;
    if (op == "and")
      res[0] = x && y;
    else if (op == "or")
      res[0] = x || y;
    else if (op == "xor")
      res[0] = x != y;
    else if (op == "not")
      res[0] = !x;
    else if (op == "mov")
      res[0] = x;
    else
      return unsupported();
  } else if (ty == Ty::F64) {
    double x = bitsF64(a[0]), y = numArgs > 1 ? bitsF64(a[1]) : 0,
           z = numArgs > 2 ? bitsF64(a[2]) : 0, r;
    if (op == "add")
      r = x + y;
    else if (op == "sub")
      r = x - y;
    else if (op == "mul")
      r = x * y;
    else if (op == "fma" || op == "mad")
      r = std::fma(x, y, z);
    else if (op == "div")
      r = x / y;
    else if (op == "abs")
      r = std::fabs(x);
    else if (op == "neg")
      r = -x;
    else if (op == "min")
      r = std::fmin(x, y);
    else if (op == "max")
      r = std::fmax(x, y);
    else if (op == "sqrt")
      r = std::sqrt(x);
    else if (op == "rcp")
      r = 1.0 / x;
    else if (op == "mov")
      r = x;
    else
      return unsupported();
    res[0] = f64Bits(r);
  } else if (ty == Ty::F32 || ty == Ty::F16 || ty == Ty::BF16 ||
             ty == Ty::F16X2 || ty == Ty::BF16X2) {
    FloatLane fl{ty};
    bool halfTy = ty != Ty::F32;
    for (unsigned lane = 0; lane != fl.lanes(); ++lane) {
      auto arg = [&](unsigned i) {
        float v = i < numArgs ? fl.get(a[i], lane) : 0.0f;
        return isFtz ? ftz(v) : v;
      };
      float x = arg(0), y = arg(1), z = arg(2), r;
      if (op == "add")
        r = halfTy ? float(double(x) + y) : x + y;
      else if (op == "sub")
        r = halfTy ? float(double(x) - y) : x - y;
      else if (op == "mul")
        r = halfTy ? float(double(x) * y) : x * y;
      else if (op == "fma" || op == "mad")
        r = halfTy ? float(std::fma(double(x), double(y), double(z)))
                   : std::fma(x, y, z);
      else if (op == "div")
        r = x / y;
      else if (op == "abs")
        r = std::fabs(x);
      else if (op == "neg")
        r = -x;
      else if (op == "min")
        r = std::fmin(x, y);
      else if (op == "max")
        r = std::fmax(x, y);
      else if (op == "rcp")
        r = 1.0f / x;
      else if (op == "sqrt")
        r = std::sqrt(x);
      else if (op == "rsqrt")
        r = 1.0f / std::sqrt(x);
      else if (op == "sin")
        r = std::sin(x);
      else if (op == "cos")
        r = std::cos(x);
      else if (op == "lg2")
        r = std::log2(x);
      else if (op == "ex2")
        r = std::exp2(x);
      else if (op == "tanh")
        r = std::tanh(x);
      else if (op == "copysign")
        r = std::copysign(y, x);
      else if (op == "mov")
        r = x;
      else
        return unsupported();
      if (isFtz)
        r = ftz(r);
      res[0] |= fl.put(r, lane);
    }
  } else if (ty == Ty::U32 || ty == Ty::S32 || ty == Ty::B32) {
    uint32_t x = uint32_t(a[0]), y = numArgs > 1 ? uint32_t(a[1]) : 0,
             z = numArgs > 2 ? uint32_t(a[2]) : 0, r;
    bool sgn = ty == Ty::S32;
    int32_t sx = int32_t(x), sy = int32_t(y);
    bool lo = is_contained(parts, "lo"), hi = is_contained(parts, "hi");
    if (op == "add")
      r = x + y;
    else if (op == "sub")
      r = x - y;
    else if (op == "mul" || op == "mad") {
      if (hi)
        r = sgn ? uint32_t((int64_t(sx) * int64_t(sy)) >> 32)
                : uint32_t((uint64_t(x) * uint64_t(y)) >> 32);
      else
        r = x * y;
      (void)lo;
      if (op == "mad")
        r += z;
    } else if (op == "div") {
      if (y == 0)
        r = sgn ? uint32_t(-1) : 0xffffffffu;
      else if (sgn)
        r = (sx == INT32_MIN && sy == -1) ? x : uint32_t(sx / sy);
      else
        r = x / y;
    } else if (op == "rem") {
      if (y == 0)
        r = x;
      else if (sgn)
        r = (sx == INT32_MIN && sy == -1) ? 0 : uint32_t(sx % sy);
      else
        r = x % y;
    } else if (op == "min")
      r = sgn ? uint32_t(std::min(sx, sy)) : std::min(x, y);
    else if (op == "max")
      r = sgn ? uint32_t(std::max(sx, sy)) : std::max(x, y);
    else if (op == "abs")
      r = sx < 0 ? 0u - x : x;
    else if (op == "neg")
      r = 0u - x;
    else if (op == "and")
      r = x & y;
    else if (op == "or")
      r = x | y;
    else if (op == "xor")
      r = x ^ y;
    else if (op == "not")
      r = ~x;
    else if (op == "shl")
      r = y >= 32 ? 0 : x << y;
    else if (op == "shr")
      r = sgn ? uint32_t(sx >> std::min(y, 31u)) : (y >= 32 ? 0 : x >> y);
    else if (op == "mov")
      r = x;
    else
      return unsupported();
    res[0] = r;
  } else if (ty == Ty::U64 || ty == Ty::S64 || ty == Ty::B64) {
    uint64_t x = a[0], y = numArgs > 1 ? a[1] : 0, r;
    if (op == "add")
      r = x + y;
    else if (op == "sub")
      r = x - y;
    else if (op == "mov")
      r = x;
    else if (op == "and")
      r = x & y;
    else if (op == "or")
      r = x | y;
    else if (op == "xor")
      r = x ^ y;
    else
      return unsupported();
    res[0] = r;
  } else {
    return unsupported();
  }
  for (unsigned e = 0; e != numRets && e != results.size(); ++e)
    results[e] = maskToWidth(res[e], retWidth(e));
  return Error::success();
}
