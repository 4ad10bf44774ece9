//===- HalfRoundingTest.cpp - Half-precision results rounded once ---------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The interpreter's f16/bf16 arithmetic against a reference computed in
// exact integer arithmetic (no floating point): a * b + c is formed as an
// integer times a power of two and rounded to nearest even once.
//
//===----------------------------------------------------------------------===//

#include "mmptx/Expr/Evaluate.h"
#include "mmptx/Stack/DefaultStackSet.h"

#include "DefaultInstrs.h"

#include "gtest/gtest.h"

#include <cmath>
#include <cstring>
#include <random>

using namespace mmptx;
using namespace mmptx::test;
using namespace mmptx::expr;

namespace {

/// A 16-bit binary format: stored significand bits and the exponent of the
/// smallest normal.
struct Format {
  unsigned ManBits;
  int MinExp;
  unsigned expBits() const { return 15 - ManBits; }
  uint32_t expMask() const { return ((1u << expBits()) - 1) << ManBits; }
  bool isFinite(uint16_t H) const { return (H & expMask()) != expMask(); }
};
const Format F16{10, -14};
const Format BF16{7, -126};

/// A finite value as Sign * Man * 2^Exp with an integer Man.
struct Exact {
  bool Neg;
  unsigned __int128 Man;
  int Exp;
};

Exact decode(Format F, uint16_t H) {
  uint32_t E = (H & F.expMask()) >> F.ManBits;
  uint32_t M = H & ((1u << F.ManBits) - 1);
  int Shift = F.MinExp - int(F.ManBits);
  if (E == 0)
    return {bool(H & 0x8000), M, Shift};
  return {bool(H & 0x8000), M | (1u << F.ManBits), int(E) - 1 + Shift};
}

/// Rounds Sign * Man * 2^Exp to \p F, to nearest even, in integers.
uint16_t roundExact(Format F, Exact V) {
  uint16_t Sign = V.Neg ? 0x8000 : 0;
  if (V.Man == 0)
    return Sign;
  unsigned Len = 0;
  for (unsigned __int128 M = V.Man; M; M >>= 1)
    ++Len;
  int Lead = V.Exp + int(Len) - 1;
  int UlpExp = std::max(Lead, F.MinExp) - int(F.ManBits);
  int Shift = UlpExp - V.Exp;
  unsigned __int128 Q;
  if (Shift <= 0) {
    Q = V.Man << -Shift;
  } else if (Shift >= 127) {
    Q = 0; // far below half an ulp
  } else {
    Q = V.Man >> Shift;
    unsigned __int128 Rem = V.Man & ((((unsigned __int128)1) << Shift) - 1);
    unsigned __int128 Half = ((unsigned __int128)1) << (Shift - 1);
    if (Rem > Half || (Rem == Half && (Q & 1)))
      ++Q;
  }
  uint64_t Bits;
  if (Lead < F.MinExp)
    Bits = uint64_t(Q);
  else
    Bits = (uint64_t(Lead - F.MinExp + 1) << F.ManBits) +
           (uint64_t(Q) - (1ull << F.ManBits));
  if (Bits >= F.expMask())
    Bits = F.expMask();
  return Sign | uint16_t(Bits);
}

/// a * b + c of finite values, exactly, then rounded once.
uint16_t exactFma(Format F, uint16_t A, uint16_t B, uint16_t C) {
  Exact X = decode(F, A), Y = decode(F, B), Z = decode(F, C);
  Exact P{X.Neg != Y.Neg, X.Man * Y.Man, X.Exp + Y.Exp};
  if (P.Man == 0)
    P.Exp = Z.Exp;
  if (Z.Man == 0)
    Z.Exp = P.Exp;
  // Align to the smaller exponent; an operand more than 100 bits below the
  // other is replaced by a unit 100 bits below it, with its sign (a sticky
  // bit: it is far under half an ulp of the larger, so only its sign counts).
  int Hi = std::max(P.Exp, Z.Exp);
  for (Exact *Small : {&P, &Z}) {
    if (Small->Man != 0 && Hi - Small->Exp > 100) {
      Small->Man = 1;
      Small->Exp = Hi - 100;
    }
  }
  int Lo = std::min(P.Exp, Z.Exp);
  unsigned __int128 Pm = P.Man << (P.Exp - Lo), Zm = Z.Man << (Z.Exp - Lo);
  Exact S;
  S.Exp = Lo;
  if (P.Neg == Z.Neg) {
    S = {P.Neg, Pm + Zm, Lo};
  } else if (Pm >= Zm) {
    S = {P.Neg, Pm - Zm, Lo};
  } else {
    S = {Z.Neg, Zm - Pm, Lo};
  }
  if (S.Man == 0) // an exact zero sum is +0, unless both addends are -0
    S.Neg = P.Neg && Z.Neg && Pm == 0 && Zm == 0;
  return roundExact(F, S);
}

uint16_t evalHalf(uint32_t Instr, std::initializer_list<uint64_t> Args) {
  uint64_t R[1] = {0};
  llvm::Error E = evaluateInstr(info(), Instr, Args, R);
  EXPECT_FALSE(bool(E)) << llvm::toString(std::move(E));
  return uint16_t(R[0]);
}

uint16_t randomFinite(Format F, std::mt19937_64 &Rng) {
  for (;;) {
    uint16_t H = uint16_t(Rng());
    if (F.isFinite(H))
      return H;
  }
}

/// Inputs near one another's scale, so that sums cancel and round often.
uint16_t randomNear(Format F, std::mt19937_64 &Rng, uint16_t Near) {
  int Spread = int(Rng() % (3u << F.ManBits)) - int(3u << (F.ManBits - 1));
  uint16_t H = uint16_t((Near & 0x7fff) + Spread) | (Rng() & 0x8000);
  return F.isFinite(H) ? H : Near;
}

void checkFmaRandom(Format F, const char *Name, unsigned N) {
  uint32_t Fma = instr(Name);
  std::mt19937_64 Rng(0x5eed + F.ManBits);
  unsigned Bad = 0;
  for (unsigned I = 0; I != N; ++I) {
    uint16_t A = randomFinite(F, Rng), B = randomFinite(F, Rng);
    uint16_t C;
    if (I % 2) {
      C = randomFinite(F, Rng);
    } else {
      // c near -(a * b): the cancelling case.
      uint16_t P = exactFma(F, A, B, 0);
      C = F.isFinite(P) ? randomNear(F, Rng, P ^ 0x8000) : B;
    }
    uint16_t Want = exactFma(F, A, B, C);
    uint16_t Got = evalHalf(Fma, {A, B, C});
    if (Got != Want && Bad++ < 5)
      ADD_FAILURE() << Name << " " << std::hex << A << " " << B << " " << C
                    << ": got 0x" << Got << ", exact 0x" << Want;
  }
  EXPECT_EQ(Bad, 0u) << Name << ": " << Bad << " of " << N;
}

TEST(HalfRounding, FmaKnownCases) {
  EXPECT_EQ(evalHalf(instr("fma.rn.bf16"), {0xd4a4, 0xd930, 0xcfbe}), 0x6e61);
  EXPECT_EQ(evalHalf(instr("fma.rn.f16"), {0x3647, 0xaaee, 0xba17}), 0xba43);
  EXPECT_EQ(exactFma(BF16, 0xd4a4, 0xd930, 0xcfbe), 0x6e61);
  EXPECT_EQ(exactFma(F16, 0x3647, 0xaaee, 0xba17), 0xba43);
}

TEST(HalfRounding, FmaF16Random) { checkFmaRandom(F16, "fma.rn.f16", 1000000); }

TEST(HalfRounding, FmaBf16Random) {
  checkFmaRandom(BF16, "fma.rn.bf16", 1000000);
}

TEST(HalfRounding, AddSubMulRandom) {
  struct Case {
    Format F;
    const char *Add, *Sub, *Mul;
  } Cases[] = {{F16, "add.f16", "sub.f16", "mul.f16"}};
  for (const Case &C : Cases) {
    uint32_t Add = instr(C.Add), Sub = instr(C.Sub), Mul = instr(C.Mul);
    uint16_t One = 0x3c00;
    std::mt19937_64 Rng(7);
    for (unsigned I = 0; I != 200000; ++I) {
      uint16_t A = randomFinite(C.F, Rng);
      uint16_t B = I % 2 ? randomFinite(C.F, Rng) : randomNear(C.F, Rng, A);
      ASSERT_EQ(evalHalf(Add, {A, B}), exactFma(C.F, A, One, B))
          << std::hex << A << " + " << B;
      ASSERT_EQ(evalHalf(Sub, {A, B}), exactFma(C.F, A, One, B ^ 0x8000))
          << std::hex << A << " - " << B;
      uint16_t WantMul = exactFma(C.F, A, B, 0x8000); // + -0 keeps -0
      ASSERT_EQ(evalHalf(Mul, {A, B}), WantMul) << std::hex << A << " * " << B;
    }
  }
}

TEST(HalfRounding, PackedLanesRoundOnce) {
  uint32_t Fma16 = instr("fma.rn.f16x2"), FmaBf = instr("fma.rn.bf16x2");
  std::mt19937_64 Rng(11);
  for (unsigned I = 0; I != 100000; ++I) {
    uint16_t A[2], B[2], C[2];
    for (unsigned L = 0; L != 2; ++L) {
      A[L] = randomFinite(BF16, Rng);
      B[L] = randomFinite(BF16, Rng);
      C[L] = randomFinite(BF16, Rng);
    }
    auto Pack = [](uint16_t *V) {
      return uint64_t(V[0]) | uint64_t(V[1]) << 16;
    };
    uint64_t R[1];
    ASSERT_FALSE(
        bool(evaluateInstr(info(), FmaBf, {Pack(A), Pack(B), Pack(C)}, R)));
    for (unsigned L = 0; L != 2; ++L)
      ASSERT_EQ(uint16_t(R[0] >> (16 * L)), exactFma(BF16, A[L], B[L], C[L]));
    for (unsigned L = 0; L != 2; ++L) {
      A[L] = randomFinite(F16, Rng);
      B[L] = randomFinite(F16, Rng);
      C[L] = randomFinite(F16, Rng);
    }
    ASSERT_FALSE(
        bool(evaluateInstr(info(), Fma16, {Pack(A), Pack(B), Pack(C)}, R)));
    for (unsigned L = 0; L != 2; ++L)
      ASSERT_EQ(uint16_t(R[0] >> (16 * L)), exactFma(F16, A[L], B[L], C[L]));
  }
}

TEST(HalfRounding, ConvertFromF32RoundsToNearestEven) {
  uint32_t ToF16 = instr("cvt.rn.f16.f32"), ToBf = instr("cvt.rn.bf16.f32");
  std::mt19937_64 Rng(3);
  for (unsigned I = 0; I != 200000; ++I) {
    uint32_t Bits = uint32_t(Rng());
    float F;
    std::memcpy(&F, &Bits, 4);
    if (!std::isfinite(F))
      continue;
    // The float as an exact integer times a power of two.
    uint32_t E = (Bits >> 23) & 0xff, M = Bits & 0x7fffff;
    Exact V{bool(Bits >> 31), E ? (M | 0x800000u) : M, (E ? int(E) : 1) - 150};
    ASSERT_EQ(evalHalf(ToF16, {Bits}), roundExact(F16, V)) << std::hex << Bits;
    ASSERT_EQ(evalHalf(ToBf, {Bits}), roundExact(BF16, V)) << std::hex << Bits;
  }
}

TEST(HalfRounding, SpecialValues) {
  uint32_t Fma = instr("fma.rn.f16"), FmaBf = instr("fma.rn.bf16");
  // Overflow to infinity, and the largest finite value kept.
  EXPECT_EQ(evalHalf(Fma, {0x7bff, 0x3c00, 0x5000}), 0x7c00); // 65504 + 32
  EXPECT_EQ(evalHalf(Fma, {0x7bff, 0x3c00, 0x4c00}), 0x7c00); // + 16: a tie
  EXPECT_EQ(evalHalf(Fma, {0x7bff, 0x3c00, 0x4bff}), 0x7bff); // + 15.99
  // inf - inf is a NaN; a zero sum of opposite zeros is +0.
  EXPECT_EQ(evalHalf(Fma, {0x7c00, 0x3c00, 0xfc00}) & 0x7c00, 0x7c00);
  EXPECT_NE(evalHalf(Fma, {0x7c00, 0x3c00, 0xfc00}) & 0x3ff, 0);
  EXPECT_EQ(evalHalf(Fma, {0x8000, 0x3c00, 0x0000}), 0x0000);
  EXPECT_EQ(evalHalf(Fma, {0x8000, 0x3c00, 0x8000}), 0x8000);
  // The smallest subnormals.
  EXPECT_EQ(evalHalf(Fma, {0x0001, 0x3800, 0x0000}), 0x0000); // tie to even
  EXPECT_EQ(evalHalf(Fma, {0x0003, 0x3800, 0x0000}), 0x0002);
  EXPECT_EQ(evalHalf(FmaBf, {0x0001, 0x3f00, 0x0000}), 0x0000);
  EXPECT_EQ(evalHalf(FmaBf, {0x7f7f, 0x4000, 0x0000}), 0x7f80);
}

/// PTX min/max: -0 is below +0 whatever the order; one NaN gives the other
/// operand, two give the canonical NaN.
TEST(MinMax, SignedZerosAndNaN) {
  const uint64_t PZ = 0, NZ = 0x80000000u, One = 0x3f800000u,
                 QNaN = 0x7fc00001u;
  for (const char *Sfx : {"f32", "ftz.f32"}) {
    std::string Min = std::string("min.") + Sfx,
                Max = std::string("max.") + Sfx;
    uint32_t MinI = instr(Min.c_str()), MaxI = instr(Max.c_str());
    auto Ev = [&](uint32_t I, uint64_t A, uint64_t B) {
      uint64_t R[1];
      EXPECT_FALSE(bool(evaluateInstr(info(), I, {A, B}, R)));
      return R[0];
    };
    EXPECT_EQ(Ev(MinI, NZ, PZ), NZ) << Min;
    EXPECT_EQ(Ev(MinI, PZ, NZ), NZ) << Min;
    EXPECT_EQ(Ev(MaxI, NZ, PZ), PZ) << Max;
    EXPECT_EQ(Ev(MaxI, PZ, NZ), PZ) << Max;
    EXPECT_EQ(Ev(MinI, QNaN, One), One) << Min;
    EXPECT_EQ(Ev(MaxI, One, QNaN), One) << Max;
    EXPECT_EQ(Ev(MinI, QNaN, QNaN), 0x7fffffffu) << Min;
    EXPECT_EQ(Ev(MaxI, QNaN, QNaN), 0x7fffffffu) << Max;
  }
  const uint64_t DPZ = 0, DNZ = 1ull << 63;
  uint32_t MinD = instr("min.f64"), MaxD = instr("max.f64");
  uint64_t R[1];
  ASSERT_FALSE(bool(evaluateInstr(info(), MinD, {DPZ, DNZ}, R)));
  EXPECT_EQ(R[0], DNZ);
  ASSERT_FALSE(bool(evaluateInstr(info(), MinD, {DNZ, DPZ}, R)));
  EXPECT_EQ(R[0], DNZ);
  ASSERT_FALSE(bool(evaluateInstr(info(), MaxD, {DNZ, DPZ}, R)));
  EXPECT_EQ(R[0], DPZ);
  ASSERT_FALSE(bool(evaluateInstr(info(), MaxD, {DPZ, DNZ}, R)));
  EXPECT_EQ(R[0], DPZ);
}

} // namespace
