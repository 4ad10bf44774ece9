//===- StackInterpreterTest.cpp - CPU reference for Stack PTX -------------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "mmptx/Stack/StackInterpreter.h"
#include "mmptx/Stack/StackText.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

#include "gtest/gtest.h"

#include <cmath>

using namespace mmptx;
using namespace mmptx::stack;

namespace {

std::vector<uint64_t> run(llvm::StringRef Text, std::vector<uint64_t> Inputs) {
  const StackInfo &Info = getDefaultStackInfo();
  llvm::Expected<StackProgram> P = parseStackProgram(Text, Info);
  EXPECT_TRUE(bool(P)) << llvm::toString(P.takeError());
  if (!P)
    return {};
  StackPtxContext Ctx(Info);
  std::vector<Register> Regs = P->getRegisters();
  llvm::Expected<std::vector<uint64_t>> V =
      interpretStackPtx(Ctx, P->getProgram(), Regs, P->Requests, Inputs);
  EXPECT_TRUE(bool(V)) << llvm::toString(V.takeError());
  return V ? *V : std::vector<uint64_t>();
}

TEST(StackInterpreterTest, F32Arithmetic) {
  auto V = run(".registers { x : F32 in; y : F32 in; a : F32 out; "
               "b : F32 out; c : F32 out; }\n"
               ".program { x y sub.f32 x y div.rn.f32 1.0 y x fma.rn.f32 }\n"
               ".requests { a b c }",
               {f32Bits(3.0f), f32Bits(4.0f)});
  ASSERT_EQ(V.size(), 3u);
  EXPECT_EQ(bitsF32(V[0]), 3.0f * 4.0f + 1.0f); // fma(x, y, 1)
  EXPECT_EQ(bitsF32(V[1]), 4.0f / 3.0f);        // div(y, x)
  EXPECT_EQ(bitsF32(V[2]), 4.0f - 3.0f);        // sub(y, x)
}

// The interpreter executes with the compiler's context, so a word its
// target lacks is skipped in both: z gets x, as the stub would write.
TEST(StackInterpreterTest, TargetSmAgreesWithCompiler) {
  const StackInfo &Info = getDefaultStackInfo();
  llvm::Expected<StackProgram> P =
      parseStackProgram(".registers { x : F32 in; z : F32 out; }\n"
                        ".program { x tanh.approx.f32 }\n.requests { z }",
                        Info);
  ASSERT_TRUE(bool(P)) << llvm::toString(P.takeError());
  std::vector<Register> Regs = P->getRegisters();
  for (uint32_t Target : {0u, 70u}) {
    StackPtxOptions Opts;
    Opts.TargetSm = Target;
    StackPtxContext Ctx(Info, Opts);
    llvm::Expected<std::vector<uint64_t>> V = interpretStackPtx(
        Ctx, P->getProgram(), Regs, P->Requests, {f32Bits(0.5f)});
    ASSERT_TRUE(bool(V)) << llvm::toString(V.takeError());
    ASSERT_EQ(V->size(), 1u);
    if (Target)
      EXPECT_EQ(bitsF32((*V)[0]), 0.5f);
    else
      EXPECT_NEAR(bitsF32((*V)[0]), std::tanh(0.5), 1e-3);
  }
}

TEST(StackInterpreterTest, ApproxWithinPtxBounds) {
  auto V = run(".registers { x : F32 in; s : F32 out; e : F32 out; }\n"
               ".program { x sin.approx.f32 x ex2.approx.ftz.f32 }\n"
               ".requests { e s }",
               {f32Bits(0.5f)});
  ASSERT_EQ(V.size(), 2u);
  EXPECT_NEAR(bitsF32(V[0]), std::exp2(0.5), 2 * 1.2e-7 * std::exp2(0.5));
  EXPECT_NEAR(bitsF32(V[1]), std::sin(0.5), std::ldexp(1.0, -20));
}

TEST(StackInterpreterTest, IntegersWrap) {
  auto V = run(".registers { a : U32 in; m : U32 out; h : U32 out; }\n"
               ".program { a a mul.lo.u32 a a mul.hi.u32 }\n"
               ".requests { h m }",
               {0x80000001u});
  ASSERT_EQ(V.size(), 2u);
  EXPECT_EQ(V[0], 0x40000001u); // hi(0x80000001^2)
  EXPECT_EQ(V[1], 0x00000001u); // lo
}

TEST(StackInterpreterTest, HalfPacking) {
  // 1.5 and -2 as f16, packed, added to themselves, unpacked.
  auto V = run(".registers { lo : F16 out; hi : F16 out; f : F32 out; }\n"
               ".program { -2.0 cvt.rn.f16.f32 1.5 cvt.rn.f16.f32 pack.f16x2 "
               "dup(F16X2) add.f16x2 unpack.f16x2 dup(F16) cvt.f32.f16 }\n"
               ".requests { lo hi f }",
               {});
  ASSERT_EQ(V.size(), 3u);
  EXPECT_EQ(V[0], 0x4200u); // 3.0
  EXPECT_EQ(V[1], 0xC400u); // -4.0
  EXPECT_EQ(bitsF32(V[2]), 3.0f);
}

/// Runs \p Text, which may include the routine libraries, with the
/// requests it declares (or its default ones).
std::vector<uint64_t> runWithLibraries(llvm::StringRef Text,
                                       std::vector<uint64_t> Inputs) {
  const StackInfo &Info = getDefaultStackInfo();
  llvm::SourceMgr Sm;
  unsigned Id = Sm.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(Text, "<test>"), llvm::SMLoc());
  std::string Routines = MMPTX_SOURCE_DIR "/lib/Stack/Routines";
  llvm::Expected<StackProgram> P =
      parseStackProgram(Sm, Id, Info, {}, {Routines});
  EXPECT_TRUE(bool(P)) << llvm::toString(P.takeError());
  if (!P)
    return {};
  StackPtxContext Ctx(Info);
  std::vector<Register> Regs = P->getRegisters();
  std::vector<uint32_t> Requests =
      P->HasRequests ? P->Requests : P->getDefaultRequests();
  Inputs.resize(Regs.size(), 0);
  llvm::Expected<std::vector<uint64_t>> V =
      interpretStackPtx(Ctx, P->getProgram(), Regs, Requests, Inputs);
  EXPECT_TRUE(bool(V)) << llvm::toString(V.takeError());
  return V ? *V : std::vector<uint64_t>();
}

/// A program for a PTX_PHILOX site (counter word x mod, y/z/w in) with
/// four outputs of \p Stack computed by \p Routine.
std::string philoxSiteProgram(llvm::StringRef Routine, llvm::StringRef Stack) {
  std::string Outs;
  for (int I = 0; I != 4; ++I)
    Outs += "o" + std::to_string(I) + " : " + Stack.str() + " out; ";
  return ".include \"PhiloxSite.stack\"\n.include \"Philox4x32.stack\"\n"
         ".registers { " +
         Outs + "}\n.program { call " + Routine.str() + " }\n";
}

// Random123's known answers for Philox4x32-10, which curand gives too.
struct PhiloxCase {
  uint64_t In[6]; // key_x key_y ctr_x..ctr_w
  uint32_t Out[4];
};
const PhiloxCase PhiloxCases[] = {
    {{0, 0, 0, 0, 0, 0}, {0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}},
    {{0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff},
     {0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd}},
    {{0xa4093822, 0x299f31d0, 0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344},
     {0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}},
};

/// Runs Philox routine \p Routine of a site with \p Stack outputs on
/// \p C's inputs; \returns the counter word and the four outputs, having
/// checked that the counter advanced by one.
std::vector<uint64_t> runPhiloxCase(llvm::StringRef Routine,
                                    llvm::StringRef Stack,
                                    const PhiloxCase &C) {
  auto V = runWithLibraries(philoxSiteProgram(Routine, Stack),
                            std::vector<uint64_t>(C.In, C.In + 6));
  EXPECT_EQ(V.size(), 5u);
  V.resize(5);
  EXPECT_EQ(V[0], (C.In[2] + 1) & 0xffffffff);
  return V;
}

TEST(StackInterpreterTest, PhiloxKnownAnswers) {
  // The site's kinds: only ctr_x is written back.
  for (const PhiloxCase &C : PhiloxCases) {
    auto V = runPhiloxCase("curand", "U32", C);
    for (unsigned I = 0; I != 4; ++I)
      EXPECT_EQ(V[1 + I], C.Out[I]) << "output " << I;
  }
}

TEST(StackInterpreterTest, PhiloxCarry) {
  // A site whose counter words are all mod gets the carried counter.
  const char *Text =
      ".registers { philox_key_x : PHILOX in; philox_key_y : PHILOX in;\n"
      "  philox_ctr_x : PHILOX mod; philox_ctr_y : PHILOX mod;\n"
      "  philox_ctr_z : PHILOX mod; philox_ctr_w : PHILOX mod;\n"
      "  r0 : U32 out; r1 : U32 out; r2 : U32 out; r3 : U32 out; }\n"
      ".include \"Philox4x32.stack\"\n.program { call curand }\n";
  struct Case {
    uint64_t In[6];
    uint64_t Ctr[4];
  } Cases[] = {
      {{0, 0, 0, 0, 0, 0}, {1, 0, 0, 0}},
      {{0, 0, 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff}, {0, 0, 0, 0}},
      // The carry stops at the first word that does not wrap.
      {{1, 2, 0xffffffff, 0xffffffff, 7, 9}, {0, 0, 8, 9}},
      {{1, 2, 0xffffffff, 5, 7, 9}, {0, 6, 7, 9}},
  };
  for (const Case &C : Cases) {
    auto V = runWithLibraries(Text, std::vector<uint64_t>(C.In, C.In + 6));
    ASSERT_EQ(V.size(), 8u);
    for (unsigned I = 0; I != 4; ++I)
      EXPECT_EQ(V[I], C.Ctr[I]) << "counter word " << I;
  }
}

TEST(StackInterpreterTest, PhiloxUniform) {
  for (const PhiloxCase &C : PhiloxCases) {
    auto V = runPhiloxCase("curand_uniform", "F32", C);
    for (unsigned I = 0; I != 4; ++I)
      EXPECT_EQ(bitsF32(V[1 + I]), float(C.Out[I]) * 0x1p-32f + 0x1p-33f);
  }
}

/// curand's _curand_box_muller (curand_normal.h, host branch): two u32 to
/// two normals, with its float constants.
static void curandBoxMuller(uint32_t X, uint32_t Y, float &N0, float &N1) {
  const float Inv = 2.3283064e-10f, Inv2pi = 2.3283064e-10f * 6.2831855f;
  float U = X * Inv + (Inv / 2);
  float W = Y * Inv2pi + (Inv2pi / 2);
  float S = sqrtf(-2.0f * logf(U));
  N0 = sinf(W) * S;
  N1 = cosf(W) * S;
}

TEST(StackInterpreterTest, PhiloxNormalMatchesCurandNormal4) {
  for (const PhiloxCase &C : PhiloxCases) {
    auto V = runPhiloxCase("curand_normal", "F32", C);
    // curand_normal4: Box-Muller of outputs 0, 1 and of outputs 2, 3.
    float Want[4];
    curandBoxMuller(C.Out[0], C.Out[1], Want[0], Want[1]);
    curandBoxMuller(C.Out[2], C.Out[3], Want[2], Want[3]);
    for (unsigned I = 0; I != 4; ++I)
      EXPECT_NEAR(bitsF32(V[1 + I]), Want[I], 1e-3) << "normal " << I;
  }
  // More states: the counters 0..255 under one key, so that u and the
  // angle cover their ranges.
  for (uint64_t Ctr = 0; Ctr != 256; ++Ctr) {
    std::vector<uint64_t> In = {0x12345678, 0x9abcdef0, Ctr, 0, 0, 0};
    auto Raw = runWithLibraries(philoxSiteProgram("curand", "U32"), In);
    auto V = runWithLibraries(philoxSiteProgram("curand_normal", "F32"), In);
    ASSERT_EQ(Raw.size(), 5u);
    ASSERT_EQ(V.size(), 5u);
    float Want[4];
    curandBoxMuller(Raw[1], Raw[2], Want[0], Want[1]);
    curandBoxMuller(Raw[3], Raw[4], Want[2], Want[3]);
    for (unsigned I = 0; I != 4; ++I)
      EXPECT_NEAR(bitsF32(V[1 + I]), Want[I], 1e-3)
          << "counter " << Ctr << ", normal " << I;
  }
}

} // namespace
