//===- StackCompilerTest.cpp - Stack PTX compiler tests -------------------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "mmptx/Stack/StackCompiler.h"
#include "mmptx/Stack/DefaultStackSet.h"
#include "mmptx/Stack/StackRandom.h"

#include "gtest/gtest.h"

using namespace mmptx;
using namespace mmptx::stack;
namespace d = mmptx::stack::defaults;

// A user's own set (UserStack.td), included the documented way.
namespace user {
#define GET_STACK_ENUMS
#define GET_STACK_ENCODERS
#define GET_STACK_TABLES
#include "UserStack.inc"
} // namespace user

// A description in the reference's JSON format (ImportedStack.json),
// through mmptx-stack-import and mmptx-tblgen.
namespace imported {
#define GET_STACK_ENUMS
#define GET_STACK_ENCODERS
#define GET_STACK_TABLES
#include "ImportedStack.inc"
} // namespace imported

namespace {

// The encoders are constexpr and follow the documented layout.
static_assert(d::encodePtx(d::PtxInstr::ADD_U32) == 0x0000000000000001ULL,
              "PTX word");
static_assert(encodeInput(1) == 0x0000000100000003ULL, "INPUT word");
static_assert(d::encodeConstantU32(2) == 0x0000000200010002ULL, "CONSTANT");
static_assert(d::encodeConstantF32(1.0f) == 0x3F80000000000002ULL, "f32");
static_assert(d::encodeDrop(d::StackType::F32) == 0x0000000500000005ULL,
              "META");
// The reference's examples numbering: PRED is stack 3, F16 stack 5 (so its
// own word 0x0000000200050005 swaps on F16), PHILOX stack 8.
static_assert(d::encodeStore(d::StackType::PRED, 3) == 0x000000030003000BULL,
              "STORE");
static_assert(d::encodeMeta(d::StackType::F16, MetaOp::Swap) ==
                  0x0000000200050005ULL,
              "META on F16");
static_assert(uint16_t(d::StackType::PHILOX) == 8, "PHILOX");

std::string compile(const StackInfo &Info, std::vector<uint64_t> Main,
                    std::vector<Register> Regs, std::vector<uint32_t> Reqs,
                    StackPtxOptions Opts = StackPtxOptions()) {
  StackPtxContext Ctx(Info, Opts);
  llvm::Expected<llvm::StringRef> S = Ctx.compile({Main, {}}, Regs, Reqs);
  if (!S)
    return "error: " + llvm::toString(S.takeError());
  return S->str();
}

/// Registers x (in) and z (out), both F32.
std::vector<Register> xToZ() {
  return {{"x", 0, RegKind::In}, {"z", 0, RegKind::Out}};
}

/// tanh.approx (sm_75) of input 0.
std::vector<uint64_t> tanhOfX() {
  return {encodeInput(0), d::encodePtx(d::PtxInstr::TANH_APPROX_F32)};
}

TEST(StackCompilerTest, ExampleA) {
  const StackInfo &Info = getDefaultStackInfo();
  std::vector<uint64_t> Prog = {encodeInput(0),
                                encodeInput(1),
                                d::encodePtx(d::PtxInstr::MUL_FTZ_F32),
                                d::encodeConstantF32(1.0f),
                                d::encodePtx(d::PtxInstr::ADD_FTZ_F32),
                                encodeReturn()};
  std::vector<Register> Regs = {
      {"x", 0, RegKind::In}, {"y", 0, RegKind::In}, {"z", 0, RegKind::Out}};
  EXPECT_EQ(compile(Info, Prog, Regs, {2}),
            "\t{\n\t.reg .f32 %_s0_<2>;\n"
            "\tmul.ftz.f32 %_s0_0, %y, %x;\n"
            "\tadd.ftz.f32 %_s0_1, 0f3F800000, %_s0_0;\n"
            "\tmov.f32 %z, %_s0_1;\n\t}");
}

// The stub-gen entry point: one call, options may change between calls.
TEST(StackCompilerTest, CompileStackPtxConvenience) {
  const StackInfo &Info = getDefaultStackInfo();
  std::vector<uint64_t> Prog = {encodeInput(0), encodeLoad(77)};
  std::vector<Register> Regs = xToZ();
  std::vector<uint32_t> Reqs = {1};
  llvm::Expected<std::string> A = compileStackPtx(Info, {Prog, {}}, Regs, Reqs);
  ASSERT_TRUE(bool(A));
  EXPECT_EQ(*A, "\t{\n\tmov.f32 %z, %x;\n\t}");
  StackPtxOptions Strict;
  Strict.Strict = true;
  llvm::Expected<std::string> B =
      compileStackPtx(Info, {Prog, {}}, Regs, Reqs, Strict);
  EXPECT_EQ(llvm::toString(B.takeError()),
            "word 1 of the main program: load slot 77 out of range (32 "
            "slots)");
  StackPtxOptions Big;
  Big.StoreSize = 100;
  llvm::Expected<std::string> C =
      compileStackPtx(Info, {Prog, {}}, Regs, Reqs, Big);
  ASSERT_TRUE(bool(C));
  EXPECT_EQ(*C, "\t{\n\tmov.f32 %z, %x;\n\t}");
}

// Spec §2.12 J with its own table: F32 = 0, PRED = 1, a two-return setp.
TEST(StackCompilerTest, TwoReturnsCustomTable) {
  static const char *const StackNames[] = {"F32", "PRED"};
  static const char *const Prefixes[] = {"f32", "pred"};
  static const ArgTypeInfo ArgTypes[] = {{0, 0}, {1, 0}};
  static const char *const ArgNames[] = {"F32", "PRED"};
  static const PtxInstrDesc Instrs[] = {{{0, 0, 2, 2}, {1, 1}, 2, 2},
                                        {{0, 0, 1, 2}, {0, 2}, 3, 1}};
  static const char *const Ptx[] = {"setp.lt.f32", "selp.f32"};
  StackInfo Info = {2,       StackNames, Prefixes, 2,       ArgTypes, ArgNames,
                    2,       Instrs,     Ptx,      Ptx,     0,        nullptr,
                    nullptr, nullptr,    nullptr,  nullptr, nullptr};
  ASSERT_FALSE(bool(Info.verify()));
  std::vector<uint64_t> Prog = {encodeInput(0), encodeInput(1), encodePtx(0),
                                encodeInput(0), encodeInput(1), encodePtx(1)};
  std::vector<Register> Regs = {
      {"a", 0, RegKind::In}, {"b", 0, RegKind::In}, {"z", 0, RegKind::Out}};
  EXPECT_EQ(compile(Info, Prog, Regs, {2}),
            "\t{\n\t.reg .f32 %_s0_<1>;\n\t.reg .pred %_s1_<2>;\n"
            "\tsetp.lt.f32 %_s1_0|%_s1_1, %b, %a;\n"
            "\tselp.f32 %_s0_0, %b, %a, %_s1_0;\n"
            "\tmov.f32 %z, %_s0_0;\n\t}");
}

// The same, with the tables mmptx-tblgen generates from UserStack.td.
TEST(StackCompilerTest, TwoReturnsUserTdFile) {
  ASSERT_FALSE(bool(user::stackInfo.verify()));
  std::vector<uint64_t> Prog = {encodeInput(0),
                                encodeInput(1),
                                user::encodePtx(user::PtxInstr::SETP_LT_F32),
                                encodeInput(0),
                                encodeInput(1),
                                user::encodePtx(user::PtxInstr::SELP_F32)};
  std::vector<Register> Regs = {
      {"a", uint16_t(user::StackType::F32), RegKind::In},
      {"b", uint16_t(user::StackType::F32), RegKind::In},
      {"z", uint16_t(user::StackType::F32), RegKind::Out}};
  EXPECT_EQ(compile(user::stackInfo, Prog, Regs, {2}),
            "\t{\n\t.reg .f32 %_s0_<1>;\n\t.reg .pred %_s1_<2>;\n"
            "\tsetp.lt.f32 %_s1_0|%_s1_1, %b, %a;\n"
            "\tselp.f32 %_s0_0, %b, %a, %_s1_0;\n"
            "\tmov.f32 %z, %_s0_0;\n\t}");
}

// The imported set numbers everything as the JSON lists it: raw words
// written against the description decode to its instructions.
TEST(StackCompilerTest, ImportedJsonKeepsItsNumbering) {
  ASSERT_FALSE(bool(imported::stackInfo.verify()));
  static_assert(uint16_t(imported::StackType::F32) == 1, "stack order");
  static_assert(uint32_t(imported::PtxInstr::F32_BITS_TO_U32) == 3,
                "instruction order");
  std::vector<uint64_t> Prog = {
      0x0000000000000003, // INPUT 0: a
      0x0000000100000003, // INPUT 1: b
      0x0000000000000001, // PTX 0: mul.f32
      0x0000000000000004, // SPECIAL 0: %laneid
      0x0000000200000004, // SPECIAL 2: %tid.x (tid_x)
      0x0000000200000001, // PTX 2: add.u32
      0x0000000100000001, // PTX 1: mov.b32 U32 -> F32 (u32_bits_to_f32)
      0x0000000000000001, // PTX 0: mul.f32
  };
  std::vector<Register> Regs = {
      {"a", 1, RegKind::In}, {"b", 1, RegKind::In}, {"z", 1, RegKind::Out}};
  EXPECT_EQ(compile(imported::stackInfo, Prog, Regs, {2}),
            "\t{\n\t.reg .u32 %_s0_<3>;\n\t.reg .f32 %_s1_<3>;\n"
            "\tmov.u32 %_s0_0, %tid.x;\n"
            "\tmov.u32 %_s0_1, %laneid;\n"
            "\tadd.u32 %_s0_2, %_s0_0, %_s0_1;\n"
            "\tmov.b32 %_s1_0, %_s0_2;\n"
            "\tmul.f32 %_s1_1, %b, %a;\n"
            "\tmul.f32 %_s1_2, %_s1_0, %_s1_1;\n"
            "\tmov.f32 %z, %_s1_2;\n\t}");
}

TEST(StackCompilerTest, BadTableEntriesAreIgnored) {
  static const char *const Names[] = {"F32"};
  static const char *const Prefixes[] = {"f32"};
  static const ArgTypeInfo ArgTypes[] = {{7, 0}};
  static const PtxInstrDesc Instrs[] = {{{0, 0, 0, 0}, {0, 0}, 1, 1}};
  static const char *const Ptx[] = {"neg.f32"};
  StackInfo Info = {1,       Names,   Prefixes, 1,       ArgTypes, Names,
                    1,       Instrs,  Ptx,      Ptx,     0,        nullptr,
                    nullptr, nullptr, nullptr,  nullptr, nullptr};
  EXPECT_EQ(llvm::toString(Info.verify()),
            "arg type 0 has stack index 7 out of range");
  std::vector<Register> Regs = xToZ();
  EXPECT_EQ(compile(Info, {encodeInput(0), encodePtx(0)}, Regs, {1}),
            "\t{\n\tmov.f32 %z, %x;\n\t}");
}

TEST(StackCompilerTest, StrictErrors) {
  const StackInfo &Info = getDefaultStackInfo();
  StackPtxOptions Strict;
  Strict.Strict = true;
  std::vector<Register> Regs = xToZ();
  EXPECT_EQ(compile(Info, {encodeInput(0), encodeLoad(99)}, Regs, {1}, Strict),
            "error: word 1 of the main program: load slot 99 out of range "
            "(32 slots)");
  EXPECT_EQ(compile(Info, {encodeInput(0)}, Regs, {5}, Strict),
            "error: request 0: register index 5 out of range (2 registers)");
  // Non-strict: the same programs compile, the bad request is skipped.
  EXPECT_EQ(compile(Info, {encodeInput(0), encodeLoad(99)}, Regs, {1, 5}),
            "\t{\n\tmov.f32 %z, %x;\n\t}");
}

// A word that needs a newer target than StackPtxOptions::TargetSm is an
// invalid word. tanh.approx (sm_75) is a simple instruction, so this also
// covers the fast path; %aggr_smem_size needs sm_90.
TEST(StackCompilerTest, TargetSm) {
  const StackInfo &Info = getDefaultStackInfo();
  std::vector<Register> Regs = xToZ();
  std::vector<uint64_t> Prog = tanhOfX();
  const std::string Tanh = "\t{\n\t.reg .f32 %_s0_<1>;\n"
                           "\ttanh.approx.f32 %_s0_0, %x;\n"
                           "\tmov.f32 %z, %_s0_0;\n\t}";
  StackPtxOptions Opts;
  EXPECT_EQ(compile(Info, Prog, Regs, {1}, Opts), Tanh);
  Opts.TargetSm = 75;
  EXPECT_EQ(compile(Info, Prog, Regs, {1}, Opts), Tanh);
  Opts.TargetSm = 70;
  StackPtxContext Ctx(Info, Opts);
  llvm::Expected<llvm::StringRef> S = Ctx.compile({Prog, {}}, Regs, {1});
  ASSERT_TRUE(bool(S));
  EXPECT_EQ(S->str(), "\t{\n\tmov.f32 %z, %x;\n\t}");
  EXPECT_EQ(Ctx.getStats().IgnoredWords, 1u);
  // Changing the option afterwards does not change the built context.
  Ctx.getOptions().TargetSm = 0;
  EXPECT_EQ(Ctx.getTargetSm(), 70u);
  Opts.Strict = true;
  EXPECT_EQ(compile(Info, Prog, Regs, {1}, Opts),
            "error: word 1 of the main program: PTX instruction "
            "'tanh.approx.f32' needs sm_75, the target is sm_70");
  std::vector<Register> U32 = {{"z", 1, RegKind::Out}};
  std::vector<uint64_t> AggrSmem = {
      d::encodeSpecial(d::SpecialReg::AGGR_SMEM_SIZE)};
  Opts.TargetSm = 89;
  EXPECT_EQ(compile(Info, AggrSmem, U32, {0}, Opts),
            "error: word 0 of the main program: special register "
            "'%aggr_smem_size' needs sm_90, the target is sm_89");
  Opts.TargetSm = 90;
  EXPECT_EQ(compile(Info, AggrSmem, U32, {0}, Opts),
            "\t{\n\t.reg .u32 %_s1_<1>;\n"
            "\tmov.u32 %_s1_0, %aggr_smem_size;\n"
            "\tmov.u32 %z, %_s1_0;\n\t}");
}

// compileStackPtx keeps one context per thread: a new target rebuilds it.
TEST(StackCompilerTest, TargetSmOneOff) {
  const StackInfo &Info = getDefaultStackInfo();
  std::vector<Register> Regs = xToZ();
  std::vector<uint64_t> Prog = tanhOfX();
  StackPtxOptions Sm70;
  Sm70.TargetSm = 70;
  for (int I = 0; I != 2; ++I) {
    llvm::Expected<std::string> A =
        compileStackPtx(Info, {Prog, {}}, Regs, {1});
    ASSERT_TRUE(bool(A));
    EXPECT_NE(A->find("tanh"), std::string::npos);
    llvm::Expected<std::string> B =
        compileStackPtx(Info, {Prog, {}}, Regs, {1}, Sm70);
    ASSERT_TRUE(bool(B));
    EXPECT_EQ(B->find("tanh"), std::string::npos);
  }
}

// Tables without MinSm arrays (null, as written before they existed)
// restrict nothing, whatever the target.
TEST(StackCompilerTest, TargetSmWithoutMinSmTables) {
  ASSERT_NE(user::stackInfo.InstrMinSm, nullptr);
  StackInfo Info = user::stackInfo;
  Info.InstrMinSm = nullptr;
  Info.SpecialMinSm = nullptr;
  StackPtxOptions Opts;
  Opts.TargetSm = 20;
  Opts.Strict = true;
  std::vector<Register> Regs = {{"a", 0, RegKind::In}, {"z", 1, RegKind::Out}};
  EXPECT_EQ(compile(Info,
                    {encodeInput(0), encodeInput(0),
                     user::encodePtx(user::PtxInstr::SETP_LT_F32)},
                    Regs, {1}, Opts),
            "\t{\n\t.reg .pred %_s1_<2>;\n"
            "\tsetp.lt.f32 %_s1_0|%_s1_1, %a, %a;\n"
            "\tmov.pred %z, %_s1_0;\n\t}");
}

TEST(StackCompilerTest, UnsatisfiedRequests) {
  const StackInfo &Info = getDefaultStackInfo();
  std::vector<Register> Regs = {{"o", 1, RegKind::Out},
                                {"m", 1, RegKind::Mod},
                                {"p", 3, RegKind::Out},
                                {"d", 9, RegKind::Out}};
  EXPECT_EQ(compile(Info, {}, Regs, {0, 1, 2, 3}),
            "\t{\n\tmov.u32 %o, 0x00000000U;\n\tmov.pred %p, 0x00000000;\n"
            "\tmov.f64 %d, 0d0000000000000000;\n\t}");
  StackPtxOptions NoZero;
  NoZero.ZeroUnsatisfied = false;
  EXPECT_EQ(compile(Info, {}, Regs, {0, 1, 2, 3}, NoZero), "\t{\n\t}");
}

TEST(StackCompilerTest, HalfLiteralsGoThroughRegisters) {
  const StackInfo &Info = getDefaultStackInfo();
  std::vector<Register> Regs = {
      {"h", uint16_t(d::StackType::F16), RegKind::Out}};
  std::vector<uint64_t> Prog = {d::encodeConstant(d::StackType::F16, 0x3C00),
                                d::encodeConstant(d::StackType::F16, 0x4000),
                                d::encodePtx(d::PtxInstr::ADD_F16)};
  EXPECT_EQ(compile(Info, Prog, Regs, {0}),
            "\t{\n\t.reg .b16 %_s5_<3>;\n"
            "\tmov.b16 %_s5_0, 0x00004000;\n"
            "\tmov.b16 %_s5_1, 0x00003C00;\n"
            "\tadd.f16 %_s5_2, %_s5_0, %_s5_1;\n"
            "\tmov.b16 %h, %_s5_2;\n\t}");
}

static bool balanced(llvm::StringRef S) {
  int Depth = 0;
  for (char C : S) {
    Depth += C == '{';
    Depth -= C == '}';
    if (Depth < 0)
      return false;
  }
  return Depth == 0;
}

// Property: any word sequence compiles (non-strict) to a braced stub.
TEST(StackCompilerTest, RandomWordsAlwaysCompile) {
  const StackInfo &Info = getDefaultStackInfo();
  std::vector<RegisterDecl> Decls = makeRandomTestRegisters(Info);
  std::vector<Register> Regs;
  for (const RegisterDecl &R : Decls)
    Regs.push_back({R.Name, R.StackIdx, R.Kind});
  std::vector<uint32_t> Reqs;
  for (uint32_t I = 0; I != Regs.size() + 3; ++I)
    Reqs.push_back(I); // includes out-of-range requests
  StackRng Rng(42);
  StackPtxContext Ctx(Info);
  for (unsigned Iter = 0; Iter != 10000; ++Iter) {
    std::vector<std::vector<uint64_t>> Routines(2);
    for (auto &R : Routines)
      R = randomWords(Rng, 1 + Rng.below(8), Info, Regs.size(), 2);
    std::vector<llvm::ArrayRef<uint64_t>> Refs(Routines.begin(),
                                               Routines.end());
    std::vector<uint64_t> Main =
        randomWords(Rng, 1 + Rng.below(256), Info, Regs.size(), 2);
    llvm::Expected<llvm::StringRef> S = Ctx.compile({Main, Refs}, Regs, Reqs);
    ASSERT_TRUE(bool(S)) << llvm::toString(S.takeError());
    ASSERT_TRUE(S->startswith("\t{\n")) << S->str();
    ASSERT_TRUE(S->endswith("\n\t}")) << S->str();
    ASSERT_TRUE(balanced(*S)) << S->str();
  }
}

// The end of a routine counts against the execution limit like an explicit
// RETURN word (the reference's routines always end in one): under any
// limit, a program compiles the same with or without the explicit returns.
TEST(StackCompilerTest, RoutineEndCountsLikeReturn) {
  const StackInfo &Info = getDefaultStackInfo();
  std::vector<RegisterDecl> Decls = makeRandomTestRegisters(Info);
  std::vector<Register> Regs;
  std::vector<uint32_t> Reqs;
  for (const RegisterDecl &R : Decls) {
    if (R.Kind != RegKind::In)
      Reqs.push_back(Regs.size());
    Regs.push_back({R.Name, R.StackIdx, R.Kind});
  }
  StackRng Rng(7);
  StackPtxContext Plain(Info), ExplicitReturns(Info);
  for (unsigned Iter = 0; Iter != 3000; ++Iter) {
    std::vector<std::vector<uint64_t>> Routines(3), WithReturn(3);
    for (unsigned I = 0; I != 3; ++I) {
      Routines[I] = randomWords(Rng, 1 + Rng.below(8), Info, Regs.size(), 3);
      WithReturn[I] = Routines[I];
      WithReturn[I].push_back(encodeReturn());
    }
    std::vector<llvm::ArrayRef<uint64_t>> Refs(Routines.begin(),
                                               Routines.end());
    std::vector<llvm::ArrayRef<uint64_t>> RefsR(WithReturn.begin(),
                                                WithReturn.end());
    std::vector<uint64_t> Main =
        randomWords(Rng, 1 + Rng.below(32), Info, Regs.size(), 3);
    uint64_t Limit = 1 + Rng.below(48);
    Plain.getOptions().ExecutionLimit = Limit;
    ExplicitReturns.getOptions().ExecutionLimit = Limit;
    llvm::Expected<llvm::StringRef> A = Plain.compile({Main, Refs}, Regs, Reqs);
    ASSERT_TRUE(bool(A)) << llvm::toString(A.takeError());
    llvm::Expected<llvm::StringRef> B =
        ExplicitReturns.compile({Main, RefsR}, Regs, Reqs);
    ASSERT_TRUE(bool(B)) << llvm::toString(B.takeError());
    ASSERT_EQ(A->str(), B->str())
        << "iteration " << Iter << ", limit " << Limit;
    ASSERT_EQ(Plain.getStats().ExecutedWords,
              ExplicitReturns.getStats().ExecutedWords);
    ASSERT_EQ(Plain.getStats().HitExecutionLimit,
              ExplicitReturns.getStats().HitExecutionLimit);
  }
}

// A size option beyond its bound is an error of the compile, not an
// allocation failure.
TEST(StackCompilerTest, OptionsAreBounded) {
  const StackInfo &Info = getDefaultStackInfo();
  Register Z{"z", 0, RegKind::Out};
  uint32_t Req = 0;
  uint64_t Word = encodeConstant(0, 0x3f800000);
  StackPtxContext Ctx(Info);
  auto CompileWith = [&](auto Set) {
    Ctx.getOptions() = StackPtxOptions();
    Set(Ctx.getOptions());
    llvm::Expected<llvm::StringRef> S = Ctx.compile({Word, {}}, Z, Req);
    return S ? std::string("ok") : llvm::toString(S.takeError());
  };
  EXPECT_EQ(CompileWith([](StackPtxOptions &o) { o.MaxFrameDepth = ~0u; }),
            "maxFrameDepth = 4294967295 is too large (at most 1048576)");
  EXPECT_EQ(CompileWith([](StackPtxOptions &o) { o.StackSize = ~0u; }),
            "stackSize = 4294967295 is too large (at most 1048576)");
  EXPECT_EQ(CompileWith([](StackPtxOptions &o) { o.StackSize = 0; }),
            "stackSize must be at least 1");
  EXPECT_EQ(CompileWith([](StackPtxOptions &o) { o.StoreSize = ~0u; }),
            "storeSize = 4294967295 is too large (at most 1048576)");
  EXPECT_EQ(CompileWith([](StackPtxOptions &o) { o.MaxNodes = ~0u; }),
            "maxNodes = 4294967295 is too large (at most 16777216)");
  EXPECT_EQ(
      CompileWith([](StackPtxOptions &o) { o.ExecutionLimit = ~uint64_t(0); }),
      "executionLimit = 18446744073709551615 is too large (at most "
      "4294967296)");
  // The bounds themselves work, and the context is still usable.
  EXPECT_EQ(CompileWith([](StackPtxOptions &o) {
              o.MaxFrameDepth = StackPtxBounds::MaxFrameDepth;
              o.StoreSize = StackPtxBounds::MaxStoreSize;
              o.MaxNodes = StackPtxBounds::MaxNodes;
              o.ExecutionLimit = StackPtxBounds::MaxExecutionLimit;
            }),
            "ok");
  EXPECT_EQ(CompileWith([](StackPtxOptions &) {}), "ok");
}

// Zero registers are written after the requests, whatever the program
// leaves on the stacks; an 8-bit one goes through cvt.
TEST(StackCompilerTest, ZeroRegistersFollowTheRequests) {
  const StackInfo &Info = getDefaultStackInfo();
  uint16_t U8 = uint16_t(Info.findStack("U8"));
  std::vector<uint64_t> Prog = {encodeInput(0), encodeInput(0)};
  std::vector<Register> Regs = xToZ();
  std::vector<Register> Zeros = {{"w", 0, RegKind::Out},
                                 {"b", U8, RegKind::Out}};
  StackPtxContext Ctx(Info);
  llvm::Expected<llvm::StringRef> S = Ctx.compile({Prog, {}}, Regs, {1}, Zeros);
  ASSERT_TRUE(bool(S)) << llvm::toString(S.takeError());
  EXPECT_EQ(S->str(), "\t{\n\tmov.f32 %z, %x;\n\tmov.f32 %w, 0f00000000;\n"
                      "\tcvt.u8.u8 %b, 0x00000000;\n\t}");
}

// After warm-up the context reuses its buffers: compiling the same program
// again returns text in the same storage.
TEST(StackCompilerTest, ContextReusesBuffers) {
  const StackInfo &Info = getDefaultStackInfo();
  StackRng Rng(7);
  std::vector<uint64_t> Prog = randomF32Program(Rng, 64, Info, 2);
  std::vector<Register> Regs = {
      {"x", 0, RegKind::In}, {"y", 0, RegKind::In}, {"z", 0, RegKind::Out}};
  std::vector<uint32_t> Reqs = {2};
  StackPtxContext Ctx(Info);
  llvm::StringRef First = cantFail(Ctx.compile({Prog, {}}, Regs, Reqs));
  const char *Data = First.data();
  std::string Copy = First.str();
  for (int I = 0; I != 100; ++I) {
    llvm::StringRef S = cantFail(Ctx.compile({Prog, {}}, Regs, Reqs));
    EXPECT_EQ(S.data(), Data);
    EXPECT_EQ(S, Copy);
  }
}

// mutateProgram: 1-3 one-word edits drawn from the vocabulary, the same for
// the same seed, and every result compiles.
TEST(StackCompilerTest, MutateProgram) {
  const StackInfo &Info = getDefaultStackInfo();
  StackRng VocabRng(1);
  std::vector<uint64_t> Vocabulary = randomF32Program(VocabRng, 64, Info, 2);
  std::vector<uint64_t> Base = randomF32Program(VocabRng, 8, Info, 2);
  std::vector<Register> Regs = {
      {"x", 0, RegKind::In}, {"y", 0, RegKind::In}, {"z", 0, RegKind::Out}};
  StackPtxContext Ctx(Info, StackPtxOptions());
  unsigned Changed = 0;
  for (uint64_t Seed = 0; Seed != 200; ++Seed) {
    std::vector<uint64_t> A = Base, B = Base;
    StackRng RngA(Seed), RngB(Seed);
    mutateProgram(RngA, A, Vocabulary);
    mutateProgram(RngB, B, Vocabulary);
    EXPECT_EQ(A, B);
    EXPECT_LE(A.size(), Base.size() + 3);
    EXPECT_GE(A.size() + 3, Base.size());
    for (uint64_t W : A)
      EXPECT_TRUE(llvm::is_contained(Base, W) ||
                  llvm::is_contained(Vocabulary, W));
    Changed += A != Base;
    EXPECT_TRUE(bool(Ctx.compile({A, {}}, Regs, {2})));
  }
  EXPECT_GT(Changed, 150u);
}

} // namespace
