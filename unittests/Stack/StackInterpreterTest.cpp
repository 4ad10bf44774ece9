//===- StackInterpreterTest.cpp - CPU reference for Stack PTX -------------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "mmptx/Stack/StackInterpreter.h"
#include "mmptx/Stack/StackText.h"

#include "llvm/Support/MemoryBuffer.h"

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
  llvm::Expected<StackProgram> p = parseStackProgram(
      ".registers { x : F32 in; z : F32 out; }\n"
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

TEST(StackInterpreterTest, PhiloxKnownAnswers) {
  auto buf = llvm::MemoryBuffer::getFile(
      MMPTX_SOURCE_DIR "/lib/Stack/Routines/Philox4x32.stack");
  ASSERT_TRUE(bool(buf));
  struct Case {
    uint64_t in[6]; // key_x key_y ctr_x..ctr_w
    uint64_t out[8];
  } cases[] = {
      {{0, 0, 0, 0, 0, 0},
       {1, 0, 0, 0, 0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}},
      {{0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff},
       {0, 0, 0, 0, 0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd}},
      {{0xa4093822, 0x299f31d0, 0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344},
       {0x243f6a89, 0x85a308d3, 0x13198a2e, 0x03707344, 0xd16cfe09, 0x94fdcceb,
        0x5001e420, 0x24126ea1}},
      // The carry stops at the first word that does not wrap.
      {{1, 2, 0xffffffff, 0xffffffff, 7, 9}, {0, 0, 8, 9}},
  };
  for (const Case &c : cases) {
    std::vector<uint64_t> in(c.in, c.in + 6);
    auto v = run((*buf)->getBuffer(), in);
    ASSERT_EQ(v.size(), 8u);
    for (unsigned i = 0; i != 8; ++i) {
      if (c.out[i] || i < 4) {
        EXPECT_EQ(v[i], c.out[i]) << "output " << i;
      }
    }
  }
}

TEST(StackInterpreterTest, PhiloxUniform) {
  auto buf = llvm::MemoryBuffer::getFile(
      MMPTX_SOURCE_DIR "/lib/Stack/Routines/Philox4x32.stack");
  ASSERT_TRUE(bool(buf));
  std::string text = (*buf)->getBuffer().str();
  text.replace(text.find(".program { call curand }"),
               strlen(".program { call curand }"),
               ".program { call curand_uniform }");
  text.replace(text.find("r0 r1 r2 r3 }"), strlen("r0 r1 r2 r3 }"),
               "u0 u1 u2 u3 }");
  auto v = run(text, {0, 0, 0, 0, 0, 0});
  ASSERT_EQ(v.size(), 8u);
  const uint32_t raw[] = {0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8};
  for (unsigned i = 0; i != 4; ++i)
    EXPECT_NEAR(bitsF32(v[4 + i]), raw[i] * 0x1p-32 + 0x1p-33, 1e-6);
}

} // namespace
