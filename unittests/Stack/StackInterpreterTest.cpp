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

std::vector<uint64_t> run(llvm::StringRef text, std::vector<uint64_t> inputs) {
  const StackInfo &info = getDefaultStackInfo();
  llvm::Expected<StackProgram> p = parseStackProgram(text, info);
  EXPECT_TRUE(bool(p)) << llvm::toString(p.takeError());
  if (!p)
    return {};
  StackPtxContext ctx(info);
  std::vector<Register> regs = p->getRegisters();
  llvm::Expected<std::vector<uint64_t>> v =
      interpretStackPtx(ctx, p->getProgram(), regs, p->requests, inputs);
  EXPECT_TRUE(bool(v)) << llvm::toString(v.takeError());
  return v ? *v : std::vector<uint64_t>();
}

TEST(StackInterpreterTest, F32Arithmetic) {
  auto v = run(".registers { x : F32 in; y : F32 in; a : F32 out; "
               "b : F32 out; c : F32 out; }\n"
               ".program { x y sub.f32 x y div.rn.f32 1.0 y x fma.rn.f32 }\n"
               ".requests { a b c }",
               {f32Bits(3.0f), f32Bits(4.0f)});
  ASSERT_EQ(v.size(), 3u);
  EXPECT_EQ(bitsF32(v[0]), 3.0f * 4.0f + 1.0f); // fma(x, y, 1)
  EXPECT_EQ(bitsF32(v[1]), 4.0f / 3.0f);        // div(y, x)
  EXPECT_EQ(bitsF32(v[2]), 4.0f - 3.0f);        // sub(y, x)
}

// The interpreter executes with the compiler's context, so a word its
// target lacks is skipped in both: z gets x, as the stub would write.
TEST(StackInterpreterTest, TargetSmAgreesWithCompiler) {
  const StackInfo &info = getDefaultStackInfo();
  llvm::Expected<StackProgram> p =
      parseStackProgram(".registers { x : F32 in; z : F32 out; }\n"
                        ".program { x tanh.approx.f32 }\n.requests { z }",
                        info);
  ASSERT_TRUE(bool(p)) << llvm::toString(p.takeError());
  std::vector<Register> regs = p->getRegisters();
  for (uint32_t target : {0u, 70u}) {
    StackPtxOptions opts;
    opts.targetSm = target;
    StackPtxContext ctx(info, opts);
    llvm::Expected<std::vector<uint64_t>> v = interpretStackPtx(
        ctx, p->getProgram(), regs, p->requests, {f32Bits(0.5f)});
    ASSERT_TRUE(bool(v)) << llvm::toString(v.takeError());
    ASSERT_EQ(v->size(), 1u);
    if (target)
      EXPECT_EQ(bitsF32((*v)[0]), 0.5f);
    else
      EXPECT_NEAR(bitsF32((*v)[0]), std::tanh(0.5), 1e-3);
  }
}

TEST(StackInterpreterTest, ApproxWithinPtxBounds) {
  auto v = run(".registers { x : F32 in; s : F32 out; e : F32 out; }\n"
               ".program { x sin.approx.f32 x ex2.approx.ftz.f32 }\n"
               ".requests { e s }",
               {f32Bits(0.5f)});
  ASSERT_EQ(v.size(), 2u);
  EXPECT_NEAR(bitsF32(v[0]), std::exp2(0.5), 2 * 1.2e-7 * std::exp2(0.5));
  EXPECT_NEAR(bitsF32(v[1]), std::sin(0.5), std::ldexp(1.0, -20));
}

TEST(StackInterpreterTest, IntegersWrap) {
  auto v = run(".registers { a : U32 in; m : U32 out; h : U32 out; }\n"
               ".program { a a mul.lo.u32 a a mul.hi.u32 }\n"
               ".requests { h m }",
               {0x80000001u});
  ASSERT_EQ(v.size(), 2u);
  EXPECT_EQ(v[0], 0x40000001u); // hi(0x80000001^2)
  EXPECT_EQ(v[1], 0x00000001u); // lo
}

TEST(StackInterpreterTest, HalfPacking) {
  // 1.5 and -2 as f16, packed, added to themselves, unpacked.
  auto v = run(".registers { lo : F16 out; hi : F16 out; f : F32 out; }\n"
               ".program { -2.0 cvt.rn.f16.f32 1.5 cvt.rn.f16.f32 pack.f16x2 "
               "dup(F16X2) add.f16x2 unpack.f16x2 dup(F16) cvt.f32.f16 }\n"
               ".requests { lo hi f }",
               {});
  ASSERT_EQ(v.size(), 3u);
  EXPECT_EQ(v[0], 0x4200u); // 3.0
  EXPECT_EQ(v[1], 0xC400u); // -4.0
  EXPECT_EQ(bitsF32(v[2]), 3.0f);
}

/// Runs \p text, which may include the routine libraries, with the
/// requests it declares (or its default ones).
std::vector<uint64_t> runWithLibraries(llvm::StringRef text,
                                       std::vector<uint64_t> inputs) {
  const StackInfo &info = getDefaultStackInfo();
  llvm::SourceMgr sm;
  unsigned id = sm.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(text, "<test>"), llvm::SMLoc());
  std::string routines = MMPTX_SOURCE_DIR "/lib/Stack/Routines";
  llvm::Expected<StackProgram> p =
      parseStackProgram(sm, id, info, {}, {routines});
  EXPECT_TRUE(bool(p)) << llvm::toString(p.takeError());
  if (!p)
    return {};
  StackPtxContext ctx(info);
  std::vector<Register> regs = p->getRegisters();
  std::vector<uint32_t> requests =
      p->hasRequests ? p->requests : p->getDefaultRequests();
  inputs.resize(regs.size(), 0);
  llvm::Expected<std::vector<uint64_t>> v =
      interpretStackPtx(ctx, p->getProgram(), regs, requests, inputs);
  EXPECT_TRUE(bool(v)) << llvm::toString(v.takeError());
  return v ? *v : std::vector<uint64_t>();
}

/// A program for a PTX_PHILOX site (counter word x mod, y/z/w in) with
/// four outputs of \p stack computed by \p routine.
std::string philoxSiteProgram(llvm::StringRef routine, llvm::StringRef stack) {
  std::string outs;
  for (int i = 0; i != 4; ++i)
    outs += "o" + std::to_string(i) + " : " + stack.str() + " out; ";
  return ".include \"PhiloxSite.stack\"\n.include \"Philox4x32.stack\"\n"
         ".registers { " +
         outs + "}\n.program { call " + routine.str() + " }\n";
}

// Random123's known answers for Philox4x32-10, which curand gives too.
struct PhiloxCase {
  uint64_t in[6]; // key_x key_y ctr_x..ctr_w
  uint32_t out[4];
};
const PhiloxCase philoxCases[] = {
    {{0, 0, 0, 0, 0, 0}, {0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}},
    {{0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff},
     {0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd}},
    {{0xa4093822, 0x299f31d0, 0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344},
     {0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}},
};

TEST(StackInterpreterTest, PhiloxKnownAnswers) {
  // The site's kinds: only ctr_x is written back.
  for (const PhiloxCase &c : philoxCases) {
    auto v = runWithLibraries(philoxSiteProgram("curand", "U32"),
                              std::vector<uint64_t>(c.in, c.in + 6));
    ASSERT_EQ(v.size(), 5u);
    EXPECT_EQ(v[0], (c.in[2] + 1) & 0xffffffff);
    for (unsigned i = 0; i != 4; ++i)
      EXPECT_EQ(v[1 + i], c.out[i]) << "output " << i;
  }
}

TEST(StackInterpreterTest, PhiloxCarry) {
  // A site whose counter words are all mod gets the carried counter.
  const char *text =
      ".registers { philox_key_x : PHILOX in; philox_key_y : PHILOX in;\n"
      "  philox_ctr_x : PHILOX mod; philox_ctr_y : PHILOX mod;\n"
      "  philox_ctr_z : PHILOX mod; philox_ctr_w : PHILOX mod;\n"
      "  r0 : U32 out; r1 : U32 out; r2 : U32 out; r3 : U32 out; }\n"
      ".include \"Philox4x32.stack\"\n.program { call curand }\n";
  struct Case {
    uint64_t in[6];
    uint64_t ctr[4];
  } cases[] = {
      {{0, 0, 0, 0, 0, 0}, {1, 0, 0, 0}},
      {{0, 0, 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff}, {0, 0, 0, 0}},
      // The carry stops at the first word that does not wrap.
      {{1, 2, 0xffffffff, 0xffffffff, 7, 9}, {0, 0, 8, 9}},
      {{1, 2, 0xffffffff, 5, 7, 9}, {0, 6, 7, 9}},
  };
  for (const Case &c : cases) {
    auto v = runWithLibraries(text, std::vector<uint64_t>(c.in, c.in + 6));
    ASSERT_EQ(v.size(), 8u);
    for (unsigned i = 0; i != 4; ++i)
      EXPECT_EQ(v[i], c.ctr[i]) << "counter word " << i;
  }
}

TEST(StackInterpreterTest, PhiloxUniform) {
  for (const PhiloxCase &c : philoxCases) {
    auto v = runWithLibraries(philoxSiteProgram("curand_uniform", "F32"),
                              std::vector<uint64_t>(c.in, c.in + 6));
    ASSERT_EQ(v.size(), 5u);
    for (unsigned i = 0; i != 4; ++i)
      EXPECT_EQ(bitsF32(v[1 + i]), float(c.out[i]) * 0x1p-32f + 0x1p-33f);
  }
}

/// curand's _curand_box_muller (curand_normal.h, host branch): two u32 to
/// two normals, with its float constants.
static void curandBoxMuller(uint32_t x, uint32_t y, float &n0, float &n1) {
  const float inv = 2.3283064e-10f, inv2pi = 2.3283064e-10f * 6.2831855f;
  float u = x * inv + (inv / 2);
  float w = y * inv2pi + (inv2pi / 2);
  float s = sqrtf(-2.0f * logf(u));
  n0 = sinf(w) * s;
  n1 = cosf(w) * s;
}

TEST(StackInterpreterTest, PhiloxNormalMatchesCurandNormal4) {
  for (const PhiloxCase &c : philoxCases) {
    auto v = runWithLibraries(philoxSiteProgram("curand_normal", "F32"),
                              std::vector<uint64_t>(c.in, c.in + 6));
    ASSERT_EQ(v.size(), 5u);
    EXPECT_EQ(v[0], (c.in[2] + 1) & 0xffffffff);
    // curand_normal4: Box-Muller of outputs 0, 1 and of outputs 2, 3.
    float want[4];
    curandBoxMuller(c.out[0], c.out[1], want[0], want[1]);
    curandBoxMuller(c.out[2], c.out[3], want[2], want[3]);
    for (unsigned i = 0; i != 4; ++i)
      EXPECT_NEAR(bitsF32(v[1 + i]), want[i], 1e-3) << "normal " << i;
  }
  // More states: the counters 0..255 under one key, so that u and the
  // angle cover their ranges.
  for (uint64_t ctr = 0; ctr != 256; ++ctr) {
    std::vector<uint64_t> in = {0x12345678, 0x9abcdef0, ctr, 0, 0, 0};
    auto raw = runWithLibraries(philoxSiteProgram("curand", "U32"), in);
    auto v = runWithLibraries(philoxSiteProgram("curand_normal", "F32"), in);
    ASSERT_EQ(raw.size(), 5u);
    ASSERT_EQ(v.size(), 5u);
    float want[4];
    curandBoxMuller(raw[1], raw[2], want[0], want[1]);
    curandBoxMuller(raw[3], raw[4], want[2], want[3]);
    for (unsigned i = 0; i != 4; ++i)
      EXPECT_NEAR(bitsF32(v[1 + i]), want[i], 1e-3)
          << "counter " << ctr << ", normal " << i;
  }
}

} // namespace
