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

uint64_t expr::f32Bits(float F) {
  uint32_t B;
  std::memcpy(&B, &F, 4);
  return B;
}
float expr::bitsF32(uint64_t V) {
  uint32_t B = uint32_t(V);
  float F;
  std::memcpy(&F, &B, 4);
  return F;
}
uint64_t expr::f64Bits(double D) {
  uint64_t B;
  std::memcpy(&B, &D, 8);
  return B;
}
static double bitsF64(uint64_t V) {
  double D;
  std::memcpy(&D, &V, 8);
  return D;
}

// The NaNs the GPU's arithmetic produces (measured on sm_90): f32 and the
// 16-bit formats return one canonical NaN whatever the operands' NaNs were;
// f64 operations return their NaN operand quieted (sign and payload kept)
// and a new NaN (0/0, inf-inf, sqrt(-1)) is the negative default NaN.
static constexpr uint32_t CanonicalNaN32 = 0x7fffffffu;
static constexpr uint16_t CanonicalNaN16 = 0x7fff;
static constexpr uint64_t DefaultNaN64 = 0xfff8000000000000ull;
static constexpr uint64_t QuietBit64 = 0x0008000000000000ull;

// f16 / bf16 conversions, round to nearest even.
static float halfToFloat(uint16_t H) {
  uint32_t Sign = uint32_t(H & 0x8000) << 16;
  uint32_t Exp = (H >> 10) & 0x1f, Man = H & 0x3ff;
  if (Exp == 0) {
    float F = std::ldexp(float(Man), -24);
    return Sign ? -F : F;
  }
  if (Exp == 31)
    return bitsF32(Sign | 0x7f800000u | (Man << 13));
  return bitsF32(Sign | ((Exp + 112) << 23) | (Man << 13));
}
static uint16_t floatToHalf(float F) {
  uint32_t B = uint32_t(f32Bits(F));
  uint16_t Sign = uint16_t((B >> 16) & 0x8000);
  if (std::isnan(F))
    return CanonicalNaN16;
  float A = std::fabs(F);
  if (A >= 65520.0f)
    return Sign | 0x7c00;
  if (A < 6.103515625e-05f) { // subnormal half: multiples of 2^-24
    float Q = std::nearbyint(A * 16777216.0f);
    return Sign | uint16_t(Q);
  }
  uint32_t Ab = B & 0x7fffffff;
  uint32_t Exp = (Ab >> 23) - 112, Man = Ab & 0x7fffff;
  uint32_t H = (Exp << 10) | (Man >> 13);
  uint32_t Rest = Man & 0x1fff;
  if (Rest > 0x1000 || (Rest == 0x1000 && (H & 1)))
    ++H;
  return Sign | uint16_t(H);
}
static float bf16ToFloat(uint16_t H) { return bitsF32(uint32_t(H) << 16); }
static uint16_t floatToBf16(float F) {
  uint32_t B = uint32_t(f32Bits(F));
  if (std::isnan(F))
    return CanonicalNaN16;
  B += 0x7fff + ((B >> 16) & 1);
  return uint16_t(B >> 16);
}

/// Rounds \p D once, to nearest even, to a 16-bit binary format with
/// \p ManBits stored significand bits whose smallest normal exponent is
/// \p MinExp (f16: 10, -14; bf16: 7, -126). NaNs are left to \p OnNaN.
static uint16_t roundToHalfFormat(double D, unsigned ManBits, int MinExp,
                                  uint16_t (*OnNaN)(float)) {
  if (std::isnan(D))
    return OnNaN(float(D));
  uint16_t Sign = std::signbit(D) ? 0x8000 : 0;
  uint32_t InfBits = ((1u << (15 - ManBits)) - 1) << ManBits;
  double A = std::fabs(D);
  if (std::isinf(A))
    return Sign | uint16_t(InfBits);
  if (A == 0)
    return Sign;
  int E;
  std::frexp(A, &E);
  int Lead = E - 1; // A is in [2^Lead, 2^(Lead+1))
  int UlpExp = std::max(Lead, MinExp) - int(ManBits);
  // Scaling by a power of two is exact; nearbyint rounds ties to even.
  double Q = std::nearbyint(std::ldexp(A, -UlpExp));
  uint64_t Bits;
  if (Lead < MinExp) // subnormal; Q may reach the smallest normal
    Bits = uint64_t(Q);
  else
    Bits = (uint64_t(Lead - MinExp + 1) << ManBits) +
           (uint64_t(Q) - (1ull << ManBits));
  if (Bits >= InfBits)
    Bits = InfBits;
  return Sign | uint16_t(Bits);
}
static uint16_t doubleToHalf(double D) {
  return roundToHalfFormat(D, 10, -14, floatToHalf);
}
static uint16_t doubleToBf16(double D) {
  return roundToHalfFormat(D, 7, -126, floatToBf16);
}

/// X * Y + Z rounded to double with round-to-odd, for X * Y exact in double
/// (operands of at most 26 significant bits, as the half types have). A
/// value rounded to odd with at least two more bits than the target rounds
/// to the target exactly as the exact value would, so the half types round
/// their sums, products and fmas once.
static double fmaRoundToOdd(double X, double Y, double Z) {
  double P = X * Y;
  double S = P + Z;
  if (!std::isfinite(S))
    return S;
  // Two-sum: S + Err == P + Z exactly.
  double Pb = S - Z;
  double Zb = S - Pb;
  double Err = (P - Pb) + (Z - Zb);
  if (Err == 0)
    return S;
  uint64_t B = f64Bits(S);
  if ((Err < 0) != (S < 0))
    --B; // S was rounded away from zero: step back toward zero
  return bitsF64(B | 1);
}

/// An integer rounded to double with round-to-odd (see fmaRoundToOdd), so a
/// conversion to a half type rounds once.
static double intToDoubleRoundToOdd(uint64_t Mag, bool Neg) {
  unsigned Bits = 64 - unsigned(__builtin_clzll(Mag | 1));
  double D;
  if (Bits <= 53) {
    D = double(Mag);
  } else {
    unsigned Shift = Bits - 53;
    uint64_t Hi = Mag >> Shift;
    if (Mag & ((1ull << Shift) - 1))
      Hi |= 1;
    D = std::ldexp(double(Hi), int(Shift));
  }
  return Neg ? -D : D;
}

/// PTX min/max: a NaN operand gives the other operand, and -0 is below +0
/// whatever the operand order. Both NaN is left to the caller.
template <typename T> static T ptxMinMax(T X, T Y, bool IsMax) {
  if (std::isnan(X))
    return Y;
  if (std::isnan(Y))
    return X;
  if (X == Y) // equal, or zeros of either sign
    return std::signbit(X) == IsMax ? Y : X;
  return (X < Y) != IsMax ? X : Y;
}

/// The bits of f64 result \p R of \p Op on \p Args: a NaN is the first NaN
/// operand quieted (abs and neg do not change it), or the default NaN.
/// min/max return their operand as it is.
static uint64_t f64Result(StringRef Op, double R, ArrayRef<uint64_t> Args) {
  if (!std::isnan(R) || Op == "mov" || Op == "min" || Op == "max")
    return f64Bits(R);
  for (uint64_t A : Args)
    if (std::isnan(bitsF64(A)))
      return A | QuietBit64;
  return DefaultNaN64;
}

static float ftz(float F) {
  return std::fpclassify(F) == FP_SUBNORMAL ? std::copysign(0.0f, F) : F;
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

Ty parseTy(StringRef S) {
  return StringSwitch<Ty>(S)
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

unsigned expr::getValueWidth(StringRef Prefix) {
  Ty T = parseTy(Prefix);
  switch (T) {
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

uint64_t expr::maskToWidth(uint64_t V, unsigned W) {
  if (W == 1)
    return V != 0;
  return W == 64 ? V : V & ((1ULL << W) - 1);
}

/// \returns \p X and, or or xor (\p Op) \p Y.
template <typename T> static T bitwise(StringRef Op, T X, T Y) {
  return Op == "and" ? X & Y : Op == "or" ? X | Y : X ^ Y;
}

/// \returns integer word \p W of type \p T (u8 to u64, s32, s64) as a
/// double, rounded to nearest above 53 bits; None for other types.
static Optional<double> intAsDouble(Ty T, uint64_t W) {
  switch (T) {
  case Ty::U8:
    return double(uint8_t(W));
  case Ty::U16:
    return double(uint16_t(W));
  case Ty::U32:
    return double(uint32_t(W));
  case Ty::U64:
    return double(W);
  case Ty::S32:
    return double(int32_t(W));
  case Ty::S64:
    return double(int64_t(W));
  default:
    return None;
  }
}

/// The arithmetic every float type has, in \p T; false for another op.
template <typename T>
static bool evalFloatCommon(StringRef Op, T X, T Y, T Z, T &R) {
  if (Op == "add")
    R = X + Y;
  else if (Op == "sub")
    R = X - Y;
  else if (Op == "mul")
    R = X * Y;
  else if (Op == "fma" || Op == "mad")
    R = std::fma(X, Y, Z);
  else if (Op == "div")
    R = X / Y;
  else if (Op == "abs")
    R = std::fabs(X);
  else if (Op == "neg")
    R = -X;
  else if (Op == "min" || Op == "max")
    R = ptxMinMax(X, Y, Op == "max");
  else if (Op == "sqrt")
    R = std::sqrt(X);
  else if (Op == "rcp")
    R = T(1) / X;
  else if (Op == "mov")
    R = X;
  else
    return false;
  return true;
}

/// The angle of sin.approx and cos.approx as the GPU takes it: ptxas
/// multiplies by 1/(2 pi) rounding toward zero (`FMUL.RZ` by 0x3e22f983)
/// and the special-function unit keeps the fraction of those turns. From
/// 2^23 turns on the fraction is 0: cos.approx of 1e10 is 1, not
/// cos(1e10) = 0.888. The fraction keeps the angle's sign (sin.approx of
/// -0 is -0, of -1e-30 about -1e-30).
static double approxAngle(double X) {
  const float InvTwoPi = 0.15915493667125701904f;
  double P = double(float(X)) * double(InvTwoPi); // exact: 48 bits
  float T = float(P);
  if (std::fabs(double(T)) > std::fabs(P))
    T = std::nextafter(T, 0.0f);
  double Fraction = double(T) - std::trunc(double(T)); // exact
  if (Fraction == 0)
    Fraction = std::copysign(0.0, double(T));
  return 2 * M_PI * Fraction;
}

/// The approximate functions, in \p T; false for another op.
template <typename T>
static bool evalFloatApprox(StringRef Op, T X, T Y, T &R) {
  if (Op == "rsqrt")
    R = T(1) / std::sqrt(X);
  else if (Op == "sin")
    R = T(std::sin(approxAngle(double(X))));
  else if (Op == "cos")
    R = T(std::cos(approxAngle(double(X))));
  else if (Op == "lg2")
    R = std::log2(X);
  else if (Op == "ex2")
    R = std::exp2(X);
  else if (Op == "tanh")
    R = std::tanh(X);
  else if (Op == "copysign")
    R = std::copysign(Y, X);
  else
    return false;
  return true;
}

/// Whether min/max gives the canonical NaN: both operands NaN, or either
/// with `.NaN`.
static bool minMaxGivesNaN(StringRef Op, bool IsNaNMod, bool XNaN, bool YNaN) {
  if (Op != "min" && Op != "max")
    return false;
  return IsNaNMod ? XNaN || YNaN : XNaN && YNaN;
}

static bool cmp(StringRef Op, double A, double B) {
  if (std::isnan(A) || std::isnan(B))
    return Op.endswith("u") || Op == "nan";
  return StringSwitch<bool>(Op)
      .Cases("eq", "equ", A == B)
      .Cases("ne", "neu", A != B)
      .Cases("lt", "ltu", A < B)
      .Cases("le", "leu", A <= B)
      .Cases("gt", "gtu", A > B)
      .Cases("ge", "geu", A >= B)
      .Case("num", true)
      .Default(false);
}

static bool cmpInt(StringRef Op, int64_t A, int64_t B) {
  return StringSwitch<bool>(Op)
      .Case("eq", A == B)
      .Case("ne", A != B)
      .Case("lt", A < B)
      .Case("le", A <= B)
      .Case("gt", A > B)
      .Case("ge", A >= B)
      .Case("lo", A < B)
      .Case("ls", A <= B)
      .Case("hi", A > B)
      .Case("hs", A >= B)
      .Default(false);
}

Error expr::evaluateInstr(const InstrSet &Info, uint32_t Instr,
                          ArrayRef<uint64_t> Args,
                          MutableArrayRef<uint64_t> Results) {
  const PtxInstrDesc &D = Info.Instrs[Instr];
  StringRef Ptx = Info.InstrPtx[Instr];
  SmallVector<StringRef, 8> Parts;
  Ptx.split(Parts, '.');
  StringRef Op = Parts[0];
  bool IsFtz = is_contained(Parts, "ftz");
  bool IsNaNMod = is_contained(Parts, "NaN");
  unsigned NumArgs = Args.size();
  // Flattened result elements and their stacks.
  SmallVector<uint16_t, 4> RetStacks;
  for (unsigned R = 0; R != D.NumRets; ++R) {
    const ArgTypeInfo &T = Info.ArgTypes[D.Rets[R]];
    RetStacks.append(T.NumVecElems ? T.NumVecElems : 1, T.StackIdx);
  }
  unsigned NumRets = RetStacks.size();
  SmallVector<uint64_t, 4> Res(NumRets, 0);
  auto Unsupported = [&] {
    return makeError("the interpreter does not support '" + Ptx + "'");
  };
  auto RetWidth = [&](unsigned E) {
    return getValueWidth(Info.LiteralPrefixes[RetStacks[E]]);
  };

  if (Op == "mma")
    return makeError("the interpreter does not support warp-wide '" + Ptx +
                     "'");

  Ty InstrTy = parseTy(Parts.back());
  if (Op == "mov" && (NumArgs != 1 || NumRets != 1 || Parts.back() == "b32" ||
                      Parts.back() == "b64")) {
    // Bit moves, packing and unpacking: operand elements are concatenated,
    // element 0 in the low bits, and split over the results.
    unsigned ArgW = NumArgs > 1 ? 32 / NumArgs : 32;
    if (Parts.back() == "b64")
      ArgW = NumArgs > 1 ? 64 / NumArgs : 64;
    uint64_t Bits = 0;
    for (unsigned I = 0; I != NumArgs; ++I)
      Bits |= maskToWidth(Args[I], ArgW) << (ArgW * I);
    unsigned Total = NumArgs * ArgW;
    unsigned ResW = NumRets > 1 ? Total / NumRets : Total;
    for (unsigned E = 0; E != NumRets; ++E)
      Res[E] = maskToWidth(Bits >> (ResW * E), std::min(ResW, RetWidth(E)));
  } else if (Op == "cvt") {
    if (Parts.size() < 3)
      return Unsupported();
    Ty Dst = parseTy(Parts[Parts.size() - 2]), Src = InstrTy;
    StringRef Rnd = Parts.size() >= 4 ? Parts[1] : "";
    double X;
    bool SrcFloat = true;
    switch (Src) {
    case Ty::F32:
      X = ftz(bitsF32(Args[0]));
      if (!IsFtz)
        X = bitsF32(Args[0]);
      break;
    case Ty::F64:
      X = bitsF64(Args[0]);
      break;
    case Ty::F16:
      X = halfToFloat(uint16_t(Args[0]));
      break;
    case Ty::BF16:
      X = bf16ToFloat(uint16_t(Args[0]));
      break;
    default: {
      Optional<double> Int = intAsDouble(Src, Args[0]);
      if (!Int)
        return Unsupported();
      X = *Int;
      SrcFloat = false;
      break;
    }
    }
    // A 64-bit integer rounds to the narrower float types once.
    double XNarrow = X;
    if (Src == Ty::U64)
      XNarrow = intToDoubleRoundToOdd(Args[0], false);
    else if (Src == Ty::S64)
      XNarrow = intToDoubleRoundToOdd(
          int64_t(Args[0]) < 0 ? 0 - Args[0] : Args[0], int64_t(Args[0]) < 0);
    auto RoundInt = [&](double V) {
      if (Rnd == "rzi" || Rnd == "rz")
        return std::trunc(V);
      if (Rnd == "rmi" || Rnd == "rm")
        return std::floor(V);
      if (Rnd == "rpi" || Rnd == "rp")
        return std::ceil(V);
      return std::nearbyint(V);
    };
    switch (Dst) {
    case Ty::F32: {
      if (Src == Ty::BF16) { // a widening: the bits move, NaNs included
        float F = bitsF32(uint64_t(uint16_t(Args[0])) << 16);
        Res[0] = IsFtz ? f32Bits(ftz(F)) : f32Bits(F);
        break;
      }
      float F;
      if (Src == Ty::U32 && !SrcFloat)
        F = float(uint32_t(Args[0]));
      else if (Src == Ty::S32)
        F = float(int32_t(Args[0]));
      else
        F = float(XNarrow);
      Res[0] = f32Bits(IsFtz ? ftz(F) : F);
      if (std::isnan(F)) {
        // f64 -> f32 keeps the sign and the payload's high bits, quieted;
        // f16 -> f32 gives the canonical NaN.
        Res[0] = CanonicalNaN32;
        if (Src == Ty::F64)
          Res[0] = uint32_t(Args[0] >> 32 & 0x80000000u) | 0x7fc00000u |
                   uint32_t(Args[0] >> 29 & 0x7fffffu);
      }
      break;
    }
    case Ty::F64:
      Res[0] = f64Bits(X);
      if (Src == Ty::F32 && std::isnan(X)) // sign and payload kept, quieted
        Res[0] = uint64_t(Args[0] & 0x80000000u) << 32 | 0x7ff8000000000000ull |
                 uint64_t(Args[0] & 0x7fffffu) << 29;
      break;
    case Ty::F16:
      Res[0] = doubleToHalf(XNarrow);
      break;
    case Ty::BF16:
      Res[0] = doubleToBf16(XNarrow);
      break;
    case Ty::TF32: {
      uint32_t B = uint32_t(Args[0]);
      if (std::isfinite(bitsF32(B)))
        B = (B + 0x1000u) & 0xffffe000u; // round to nearest, ties away
      Res[0] = B;
      break;
    }
    case Ty::U8:
    case Ty::U16:
    case Ty::U32:
    case Ty::U64:
    case Ty::S32:
    case Ty::S64: {
      unsigned Width = getValueWidth(Parts[Parts.size() - 2]);
      if (!SrcFloat) {
        Res[0] = maskToWidth(Args[0], Width);
        break;
      }
      // A float saturates to the destination's range; NaN gives 0.
      double V = RoundInt(X);
      if (Dst == Ty::S32 || Dst == Ty::S64) {
        double Lim = Dst == Ty::S32 ? 2147483648.0 : 9223372036854775808.0;
        V = std::isnan(V) ? 0 : std::min(std::max(V, -Lim), Lim - 1);
        Res[0] = maskToWidth(uint64_t(int64_t(V)), Dst == Ty::S32 ? 32 : 64);
      } else {
        double Hi = std::ldexp(1.0, Width) - 1;
        V = std::isnan(V) ? 0 : std::min(std::max(V, 0.0), Hi);
        Res[0] = uint64_t(V);
      }
      break;
    }
    default:
      return Unsupported();
    }
  } else if (Op == "setp") {
    if (Parts.size() < 3)
      return Unsupported();
    StringRef C = Parts[1];
    bool R;
    if (InstrTy == Ty::F32 || InstrTy == Ty::F64) {
      double X = InstrTy == Ty::F32
                     ? double(IsFtz ? ftz(bitsF32(Args[0])) : bitsF32(Args[0]))
                     : bitsF64(Args[0]);
      double Y = InstrTy == Ty::F32
                     ? double(IsFtz ? ftz(bitsF32(Args[1])) : bitsF32(Args[1]))
                     : bitsF64(Args[1]);
      R = cmp(C, X, Y);
    } else if (InstrTy == Ty::S32) {
      R = cmpInt(C, int32_t(Args[0]), int32_t(Args[1]));
    } else if (InstrTy == Ty::U32 || InstrTy == Ty::B32) {
      R = cmpInt(C, int64_t(uint32_t(Args[0])), int64_t(uint32_t(Args[1])));
    } else {
      return Unsupported();
    }
    if (Parts.size() >= 4 && NumArgs == 3) {
      StringRef BoolOp = Parts[2];
      bool P = Args[2] != 0;
      auto Comb = [&](bool V) {
        return BoolOp == "and" ? V && P : BoolOp == "or" ? V || P : V != P;
      };
      Res[0] = Comb(R);
      if (NumRets > 1)
        Res[1] = Comb(!R);
    } else {
      Res[0] = R;
      if (NumRets > 1)
        Res[1] = !R;
    }
  } else if (Op == "selp") {
    Res[0] = Args[2] ? Args[0] : Args[1];
  } else if (InstrTy == Ty::Pred) {
    bool X = Args[0] != 0, Y = NumArgs > 1 && Args[1] != 0;
    if (Op == "and")
      Res[0] = X && Y;
    else if (Op == "or")
      Res[0] = X || Y;
    else if (Op == "xor")
      Res[0] = X != Y;
    else if (Op == "not")
      Res[0] = !X;
    else if (Op == "mov")
      Res[0] = X;
    else
      return Unsupported();
  } else if (InstrTy == Ty::F64) {
    double X = bitsF64(Args[0]), Y = NumArgs > 1 ? bitsF64(Args[1]) : 0,
           Z = NumArgs > 2 ? bitsF64(Args[2]) : 0, R;
    if (!evalFloatCommon(Op, X, Y, Z, R))
      return Unsupported();
    Res[0] = f64Result(Op, R, Args.take_front(std::min(NumArgs, 3u)));
  } else if (InstrTy == Ty::F32) {
    auto Arg = [&](unsigned I) {
      float V = I < NumArgs ? bitsF32(Args[I]) : 0.0f;
      return IsFtz ? ftz(V) : V;
    };
    float X = Arg(0), Y = Arg(1), Z = Arg(2), R;
    if (!evalFloatCommon(Op, X, Y, Z, R) && !evalFloatApprox(Op, X, Y, R))
      return Unsupported();
    if (IsFtz)
      R = ftz(R);
    Res[0] = f32Bits(R);
    if (std::isnan(R) && Op != "mov" && Op != "copysign")
      Res[0] = CanonicalNaN32;
    if (minMaxGivesNaN(Op, IsNaNMod, std::isnan(X), std::isnan(Y)))
      Res[0] = 0x7fffffffu; // the canonical NaN
  } else if (InstrTy == Ty::F16 || InstrTy == Ty::BF16 ||
             InstrTy == Ty::F16X2 || InstrTy == Ty::BF16X2) {
    // Each lane is computed in double and rounded to the half type once:
    // sums, products and fmas through round-to-odd (exact for these
    // operands), the rest from double, whose 53 bits make one more rounding
    // of a correctly rounded quotient or root harmless.
    bool IsBf = InstrTy == Ty::BF16 || InstrTy == Ty::BF16X2;
    unsigned Lanes = InstrTy == Ty::F16X2 || InstrTy == Ty::BF16X2 ? 2 : 1;
    double MinNormal = IsBf ? 0x1p-126 : 0x1p-14;
    auto FlushHalf = [&](double V) {
      return IsFtz && std::fabs(V) < MinNormal ? std::copysign(0.0, V) : V;
    };
    for (unsigned Lane = 0; Lane != Lanes; ++Lane) {
      auto Arg = [&](unsigned I) -> double {
        if (I >= NumArgs)
          return 0.0;
        uint16_t H = uint16_t(Args[I] >> (16 * Lane));
        return FlushHalf(IsBf ? bf16ToFloat(H) : halfToFloat(H));
      };
      double X = Arg(0), Y = Arg(1), Z = Arg(2), R;
      if (Op == "add")
        R = fmaRoundToOdd(X, 1.0, Y);
      else if (Op == "sub")
        R = fmaRoundToOdd(X, 1.0, -Y);
      else if (Op == "mul")
        R = fmaRoundToOdd(X, Y, -0.0);
      else if (Op == "fma" || Op == "mad")
        R = fmaRoundToOdd(X, Y, Z);
      else if (!evalFloatCommon(Op, X, Y, Z, R) &&
               !evalFloatApprox(Op, X, Y, R))
        return Unsupported();
      uint16_t H = IsBf ? doubleToBf16(R) : doubleToHalf(R);
      if (IsFtz && (H & 0x7c00) == 0 && !IsBf)
        H &= 0x8000;
      if (IsFtz && (H & 0x7f80) == 0 && IsBf)
        H &= 0x8000;
      if (std::isnan(R) && Op != "mov")
        H = CanonicalNaN16;
      if (minMaxGivesNaN(Op, IsNaNMod, std::isnan(X), std::isnan(Y)))
        H = CanonicalNaN16;
      Res[0] |= uint64_t(H) << (16 * Lane);
    }
  } else if (InstrTy == Ty::U32 || InstrTy == Ty::S32 || InstrTy == Ty::B32) {
    uint32_t X = uint32_t(Args[0]), Y = NumArgs > 1 ? uint32_t(Args[1]) : 0,
             Z = NumArgs > 2 ? uint32_t(Args[2]) : 0, R;
    bool Sgn = InstrTy == Ty::S32;
    int32_t Sx = int32_t(X), Sy = int32_t(Y);
    bool Lo = is_contained(Parts, "lo"), Hi = is_contained(Parts, "hi");
    if (Op == "add")
      R = X + Y;
    else if (Op == "sub")
      R = X - Y;
    else if (Op == "mul" || Op == "mad") {
      if (Hi)
        R = Sgn ? uint32_t((int64_t(Sx) * int64_t(Sy)) >> 32)
                : uint32_t((uint64_t(X) * uint64_t(Y)) >> 32);
      else
        R = X * Y;
      (void)Lo;
      if (Op == "mad")
        R += Z;
    } else if (Op == "div") {
      if (Y == 0)
        R = 0xffffffffu; // all ones for u32 and s32 alike
      else if (Sgn)
        R = (Sx == INT32_MIN && Sy == -1) ? X : uint32_t(Sx / Sy);
      else
        R = X / Y;
    } else if (Op == "rem") {
      if (Y == 0)
        R = 0xffffffffu; // as div: all ones, whatever the signs
      else if (Sgn)
        R = (Sx == INT32_MIN && Sy == -1) ? 0 : uint32_t(Sx % Sy);
      else
        R = X % Y;
    } else if (Op == "min")
      R = Sgn ? uint32_t(std::min(Sx, Sy)) : std::min(X, Y);
    else if (Op == "max")
      R = Sgn ? uint32_t(std::max(Sx, Sy)) : std::max(X, Y);
    else if (Op == "abs")
      R = Sx < 0 ? 0u - X : X;
    else if (Op == "neg")
      R = 0u - X;
    else if (Op == "and" || Op == "or" || Op == "xor")
      R = bitwise(Op, X, Y);
    else if (Op == "not")
      R = ~X;
    else if (Op == "shl")
      R = Y >= 32 ? 0 : X << Y;
    else if (Op == "shr")
      R = Sgn ? uint32_t(Sx >> std::min(Y, 31u)) : (Y >= 32 ? 0 : X >> Y);
    else if (Op == "mov")
      R = X;
    else
      return Unsupported();
    Res[0] = R;
  } else if (InstrTy == Ty::U64 || InstrTy == Ty::S64 || InstrTy == Ty::B64) {
    uint64_t X = Args[0], Y = NumArgs > 1 ? Args[1] : 0, R;
    if (Op == "add")
      R = X + Y;
    else if (Op == "sub")
      R = X - Y;
    else if (Op == "mov")
      R = X;
    else if (Op == "and" || Op == "or" || Op == "xor")
      R = bitwise(Op, X, Y);
    else
      return Unsupported();
    Res[0] = R;
  } else {
    return Unsupported();
  }
  for (unsigned E = 0; E != NumRets && E != Results.size(); ++E)
    Results[E] = maskToWidth(Res[E], RetWidth(E));
  return Error::success();
}

Error expr::evaluateContracted(const InstrSet &Info, uint32_t AddInstr,
                               ArrayRef<uint64_t> MulArgs, bool NegateProduct,
                               unsigned ProductPos, uint64_t Other,
                               MutableArrayRef<uint64_t> Results) {
  StringRef Ptx = Info.InstrPtx[AddInstr];
  SmallVector<StringRef, 8> Parts;
  Ptx.split(Parts, '.');
  StringRef Op = Parts[0];
  bool IsFtz = is_contained(Parts, "ftz");
  Ty T = parseTy(Parts.back());
  if ((Op != "add" && Op != "sub") || MulArgs.size() != 2 || ProductPos > 1 ||
      Results.empty())
    return makeError("'" + Ptx + "' cannot take a product");
  // X * Y + Z, with the signs of an add or a sub with the product on either
  // side: a - b*c is (-b)*c + a, b*c - a is b*c + (-a).
  bool NegX = NegateProduct != (Op == "sub" && ProductPos == 1);
  bool NegZ = Op == "sub" && ProductPos == 0;
  if (T == Ty::F32) {
    auto Arg = [&](uint64_t V) {
      float F = bitsF32(V);
      return IsFtz ? ftz(F) : F;
    };
    float X = Arg(MulArgs[0]), Y = Arg(MulArgs[1]), Z = Arg(Other);
    float R = std::fma(NegX ? -X : X, Y, NegZ ? -Z : Z);
    if (IsFtz)
      R = ftz(R);
    Results[0] = std::isnan(R) ? CanonicalNaN32 : f32Bits(R);
    return Error::success();
  }
  if (T == Ty::F64) {
    double X = bitsF64(MulArgs[0]), Y = bitsF64(MulArgs[1]), Z = bitsF64(Other);
    double R = std::fma(NegX ? -X : X, Y, NegZ ? -Z : Z);
    uint64_t Ops[3] = {MulArgs[0], MulArgs[1], Other};
    Results[0] = f64Result("fma", R, Ops);
    return Error::success();
  }
  if (T != Ty::F16 && T != Ty::F16X2)
    return makeError("'" + Ptx + "' cannot take a product");
  unsigned Lanes = T == Ty::F16X2 ? 2 : 1;
  uint64_t Bits = 0;
  for (unsigned Lane = 0; Lane != Lanes; ++Lane) {
    auto Arg = [&](uint64_t V) -> double {
      double D = halfToFloat(uint16_t(V >> (16 * Lane)));
      return IsFtz && std::fabs(D) < 0x1p-14 ? std::copysign(0.0, D) : D;
    };
    double X = Arg(MulArgs[0]), Y = Arg(MulArgs[1]), Z = Arg(Other);
    double R = fmaRoundToOdd(NegX ? -X : X, Y, NegZ ? -Z : Z);
    uint16_t H = doubleToHalf(R);
    if (IsFtz && (H & 0x7c00) == 0)
      H &= 0x8000;
    if (std::isnan(R))
      H = CanonicalNaN16;
    Bits |= uint64_t(H) << (16 * Lane);
  }
  Results[0] = Bits;
  return Error::success();
}
