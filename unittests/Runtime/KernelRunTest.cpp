//===- KernelRunTest.cpp - Text kernel arguments and runKernel ------------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "FakeCudaTestSupport.h"

#include "mmptx/Runtime/KernelRun.h"

#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

using namespace llvm;
using namespace mmptx;
using namespace mmptx::runtime;

namespace {

KernelArg parse(StringRef Text) {
  Expected<KernelArg> A = parseKernelArg(Text);
  EXPECT_TRUE(bool(A)) << toString(A.takeError());
  return A ? std::move(*A) : KernelArg();
}

std::string parseError(StringRef Text) {
  Expected<KernelArg> A = parseKernelArg(Text);
  EXPECT_FALSE(bool(A));
  return A ? "" : toString(A.takeError());
}

std::string print(ArgType T, uint64_t Bits) {
  std::string S;
  raw_string_ostream OS(S);
  printArgValue(OS, T, Bits);
  return OS.str();
}

TEST(KernelArgTest, Scalars) {
  KernelArg A = parse("f32:1.5");
  EXPECT_EQ(A.Kind, KernelArg::Scalar);
  EXPECT_EQ(A.Type, ArgType::F32);
  EXPECT_EQ(A.Values, std::vector<uint64_t>{0x3FC00000});
  EXPECT_EQ(parse("f32:0f7FC00000").Values[0], 0x7FC00000u);
  EXPECT_EQ(parse("f32:-inf").Values[0], 0xFF800000u);
  EXPECT_EQ(parse("s32:-1").Values[0], 0xFFFFFFFFu);
  EXPECT_EQ(parse("s32:-2147483648").Values[0], 0x80000000u);
  EXPECT_EQ(parse("u32:0xffffffff").Values[0], 0xFFFFFFFFu);
  EXPECT_EQ(parse("u64:18446744073709551615").Values[0], ~0ull);
  EXPECT_EQ(parse("s64:-2").Values[0], ~1ull);
  EXPECT_EQ(parse("f64:0d3FF8000000000000").Values[0], 0x3FF8000000000000ull);
}

TEST(KernelArgTest, Buffers) {
  KernelArg In = parse("in:u32:1,2,7*3");
  EXPECT_EQ(In.Kind, KernelArg::In);
  EXPECT_EQ(In.Values, (std::vector<uint64_t>{1, 2, 7, 7, 7}));
  KernelArg Out = parse("out:f32:4");
  EXPECT_EQ(Out.Kind, KernelArg::Out);
  EXPECT_EQ(Out.Values.size(), 4u);
  EXPECT_TRUE(Out.isReadBack());
  EXPECT_TRUE(parse("inout:s32:-1,1").isReadBack());
  EXPECT_FALSE(In.isReadBack());
}

TEST(KernelArgTest, Errors) {
  EXPECT_EQ(parseError("f33:1"),
            "bad kernel argument 'f33:1': unknown type 'f33' (expected f32, "
            "f64, u32, s32, u64 or s64)");
  EXPECT_EQ(parseError("buf:f32:1"),
            "bad kernel argument 'buf:f32:1': unknown buffer kind 'buf' "
            "(expected in, inout or out)");
  EXPECT_EQ(parseError("1.5"),
            "bad kernel argument '1.5': expected TYPE:VALUE, in:TYPE:VALUES, "
            "inout:TYPE:VALUES or out:TYPE:COUNT");
  EXPECT_EQ(parseError("u32:-1"),
            "bad kernel argument 'u32:-1': '-1' is not a u32 value");
  EXPECT_EQ(parseError("s32:2147483648"),
            "bad kernel argument 's32:2147483648': '2147483648' is not a s32 "
            "value");
  EXPECT_EQ(parseError("f32:1.5x"),
            "bad kernel argument 'f32:1.5x': '1.5x' is not a f32 value");
  EXPECT_EQ(parseError("f32:1e39"),
            "bad kernel argument 'f32:1e39': '1e39' is not a f32 value");
  EXPECT_EQ(parseError("f64:1e999"),
            "bad kernel argument 'f64:1e999': '1e999' is not a f64 value");
  EXPECT_EQ(parse("f64:inf").Values[0], 0x7FF0000000000000ull);
  EXPECT_EQ(parseError("f32:0f3FC0"),
            "bad kernel argument 'f32:0f3FC0': '0f3FC0' is not a f32 value");
  EXPECT_EQ(parseError("out:f32:0"),
            "bad kernel argument 'out:f32:0': expected an element count from "
            "1 to 2^26, got '0'");
  EXPECT_EQ(parseError("out:u32:67108865"),
            "bad kernel argument 'out:u32:67108865': expected an element count "
            "from 1 to 2^26, got '67108865'");
  EXPECT_EQ(parseError("in:u32:1*67108865"),
            "bad kernel argument 'in:u32:1*67108865': more than 2^26 "
            "elements");
  EXPECT_EQ(parseError("in:u32:1*x"),
            "bad kernel argument 'in:u32:1*x': bad repeat count 'x'");
  EXPECT_EQ(parseError("in:u32:1,,2"),
            "bad kernel argument 'in:u32:1,,2': '' is not a u32 value");
  EXPECT_EQ(parseError("u32:1,2"),
            "bad kernel argument 'u32:1,2': a scalar takes one value");
}

TEST(KernelArgTest, Print) {
  EXPECT_EQ(print(ArgType::F32, 0x3FC00000), "1.5 (0f3FC00000)");
  EXPECT_EQ(print(ArgType::F64, 0x3FF8000000000000ull),
            "1.5 (0d3FF8000000000000)");
  EXPECT_EQ(print(ArgType::S32, 0xFFFFFFFF), "-1");
  EXPECT_EQ(print(ArgType::U32, 0xFFFFFFFF), "4294967295 (0xffffffff)");
  EXPECT_EQ(print(ArgType::S64, ~0ull), "-1");
}

TEST(KernelRunTest, RunsOnTheFakeDriver) {
  Expected<std::unique_ptr<CudaDriver>> D = CudaDriver::load(MMPTX_FAKE_CUDA);
  ASSERT_TRUE(bool(D)) << toString(D.takeError());
  {
    auto Ctx = Context::create(**D, 0);
    ASSERT_TRUE(bool(Ctx)) << toString(Ctx.takeError());
    std::vector<KernelArg> Args = {parse("f32:0.5"), parse("in:f32:2,4,6"),
                                   parse("inout:f32:1*3"), parse("s32:3")};
    LaunchConfig Config;
    Config.Block.X = 32;
    KernelRunTimes Times;
    Error E = runKernel(**Ctx, makeFakeCubin({"fake_axpy"}), "fake_axpy",
                        Config, Args, /*Repeat=*/2, &Times);
    ASSERT_FALSE(bool(E)) << toString(std::move(E));
    // Two launches: y += 0.5 x twice.
    EXPECT_EQ(Args[2].Values,
              (std::vector<uint64_t>{0x40400000, 0x40A00000, 0x40E00000}));
    EXPECT_GE(Times.ModuleLoad, 0.0);

    Error Missing =
        runKernel(**Ctx, makeFakeCubin({"fake_axpy"}), "nope", Config, Args);
    EXPECT_EQ(toString(std::move(Missing)),
              "cuModuleGetFunction('nope'): CUDA_ERROR_NOT_FOUND (500): named "
              "symbol not found");
  }
  EXPECT_EQ(fakeLiveObjects(), 0);
}

} // namespace
