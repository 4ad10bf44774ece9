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
static_assert(d::encodeStore(d::StackType::PRED, 3) == 0x000000030004000BULL,
              "STORE");

std::string compile(const StackInfo &info, std::vector<uint64_t> main,
                    std::vector<Register> regs, std::vector<uint32_t> reqs,
                    StackPtxOptions opts = StackPtxOptions()) {
  StackPtxContext ctx(info, opts);
  llvm::Expected<llvm::StringRef> s = ctx.compile({main, {}}, regs, reqs);
  if (!s)
    return "error: " + llvm::toString(s.takeError());
  return s->str();
}

TEST(StackCompilerTest, ExampleA) {
  const StackInfo &info = getDefaultStackInfo();
  std::vector<uint64_t> prog = {encodeInput(0),
                                encodeInput(1),
                                d::encodePtx(d::PtxInstr::MUL_FTZ_F32),
                                d::encodeConstantF32(1.0f),
                                d::encodePtx(d::PtxInstr::ADD_FTZ_F32),
                                encodeReturn()};
  std::vector<Register> regs = {
      {"x", 0, RegKind::In}, {"y", 0, RegKind::In}, {"z", 0, RegKind::Out}};
  EXPECT_EQ(compile(info, prog, regs, {2}),
            "\t{\n\t.reg .f32 %_s0_<2>;\n"
            "\tmul.ftz.f32 %_s0_0, %y, %x;\n"
            "\tadd.ftz.f32 %_s0_1, 0f3F800000, %_s0_0;\n"
            "\tmov.f32 %z, %_s0_1;\n\t}");
}

// The stub-gen entry point: one call, options may change between calls.
TEST(StackCompilerTest, CompileStackPtxConvenience) {
  const StackInfo &info = getDefaultStackInfo();
  std::vector<uint64_t> prog = {encodeInput(0), encodeLoad(77)};
  std::vector<Register> regs = {{"x", 0, RegKind::In}, {"z", 0, RegKind::Out}};
  std::vector<uint32_t> reqs = {1};
  llvm::Expected<std::string> a = compileStackPtx(info, {prog, {}}, regs, reqs);
  ASSERT_TRUE(bool(a));
  EXPECT_EQ(*a, "\t{\n\tmov.f32 %z, %x;\n\t}");
  StackPtxOptions strict;
  strict.strict = true;
  llvm::Expected<std::string> b =
      compileStackPtx(info, {prog, {}}, regs, reqs, strict);
  EXPECT_EQ(llvm::toString(b.takeError()),
            "word 1 of the main program: load slot 77 out of range (32 "
            "slots)");
  StackPtxOptions big;
  big.storeSize = 100;
  llvm::Expected<std::string> c =
      compileStackPtx(info, {prog, {}}, regs, reqs, big);
  ASSERT_TRUE(bool(c));
  EXPECT_EQ(*c, "\t{\n\tmov.f32 %z, %x;\n\t}");
}

// Spec §2.12 J with its own table: F32 = 0, PRED = 1, a two-return setp.
TEST(StackCompilerTest, TwoReturnsCustomTable) {
  static const char *const stackNames[] = {"F32", "PRED"};
  static const char *const prefixes[] = {"f32", "pred"};
  static const ArgTypeInfo argTypes[] = {{0, 0}, {1, 0}};
  static const char *const argNames[] = {"F32", "PRED"};
  static const PtxInstrDesc instrs[] = {{{0, 0, 2, 2}, {1, 1}, 2, 2},
                                        {{0, 0, 1, 2}, {0, 2}, 3, 1}};
  static const char *const ptx[] = {"setp.lt.f32", "selp.f32"};
  StackInfo info = {2,       stackNames, prefixes, 2,       argTypes, argNames,
                    2,       instrs,     ptx,      ptx,     0,        nullptr,
                    nullptr, nullptr,    nullptr,  nullptr, nullptr};
  ASSERT_FALSE(bool(info.verify()));
  std::vector<uint64_t> prog = {encodeInput(0), encodeInput(1), encodePtx(0),
                                encodeInput(0), encodeInput(1), encodePtx(1)};
  std::vector<Register> regs = {
      {"a", 0, RegKind::In}, {"b", 0, RegKind::In}, {"z", 0, RegKind::Out}};
  EXPECT_EQ(compile(info, prog, regs, {2}),
            "\t{\n\t.reg .f32 %_s0_<1>;\n\t.reg .pred %_s1_<2>;\n"
            "\tsetp.lt.f32 %_s1_0|%_s1_1, %b, %a;\n"
            "\tselp.f32 %_s0_0, %b, %a, %_s1_0;\n"
            "\tmov.f32 %z, %_s0_0;\n\t}");
}

// The same, with the tables mmptx-tblgen generates from UserStack.td.
TEST(StackCompilerTest, TwoReturnsUserTdFile) {
  ASSERT_FALSE(bool(user::stackInfo.verify()));
  std::vector<uint64_t> prog = {encodeInput(0),
                                encodeInput(1),
                                user::encodePtx(user::PtxInstr::SETP_LT_F32),
                                encodeInput(0),
                                encodeInput(1),
                                user::encodePtx(user::PtxInstr::SELP_F32)};
  std::vector<Register> regs = {
      {"a", uint16_t(user::StackType::F32), RegKind::In},
      {"b", uint16_t(user::StackType::F32), RegKind::In},
      {"z", uint16_t(user::StackType::F32), RegKind::Out}};
  EXPECT_EQ(compile(user::stackInfo, prog, regs, {2}),
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
  std::vector<uint64_t> prog = {
      0x0000000000000003, // INPUT 0: a
      0x0000000100000003, // INPUT 1: b
      0x0000000000000001, // PTX 0: mul.f32
      0x0000000000000004, // SPECIAL 0: %laneid
      0x0000000200000004, // SPECIAL 2: %tid.x (tid_x)
      0x0000000200000001, // PTX 2: add.u32
      0x0000000100000001, // PTX 1: mov.b32 U32 -> F32 (u32_bits_to_f32)
      0x0000000000000001, // PTX 0: mul.f32
  };
  std::vector<Register> regs = {
      {"a", 1, RegKind::In}, {"b", 1, RegKind::In}, {"z", 1, RegKind::Out}};
  EXPECT_EQ(compile(imported::stackInfo, prog, regs, {2}),
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
  static const char *const names[] = {"F32"};
  static const char *const prefixes[] = {"f32"};
  static const ArgTypeInfo argTypes[] = {{7, 0}};
  static const PtxInstrDesc instrs[] = {{{0, 0, 0, 0}, {0, 0}, 1, 1}};
  static const char *const ptx[] = {"neg.f32"};
  StackInfo info = {1,       names,   prefixes, 1,       argTypes, names,
                    1,       instrs,  ptx,      ptx,     0,        nullptr,
                    nullptr, nullptr, nullptr,  nullptr, nullptr};
  EXPECT_EQ(llvm::toString(info.verify()),
            "arg type 0 has stack index 7 out of range");
  std::vector<Register> regs = {{"x", 0, RegKind::In}, {"z", 0, RegKind::Out}};
  EXPECT_EQ(compile(info, {encodeInput(0), encodePtx(0)}, regs, {1}),
            "\t{\n\tmov.f32 %z, %x;\n\t}");
}

TEST(StackCompilerTest, StrictErrors) {
  const StackInfo &info = getDefaultStackInfo();
  StackPtxOptions strict;
  strict.strict = true;
  std::vector<Register> regs = {{"x", 0, RegKind::In}, {"z", 0, RegKind::Out}};
  EXPECT_EQ(compile(info, {encodeInput(0), encodeLoad(99)}, regs, {1}, strict),
            "error: word 1 of the main program: load slot 99 out of range "
            "(32 slots)");
  EXPECT_EQ(compile(info, {encodeInput(0)}, regs, {5}, strict),
            "error: request 0: register index 5 out of range (2 registers)");
  // Non-strict: the same programs compile, the bad request is skipped.
  EXPECT_EQ(compile(info, {encodeInput(0), encodeLoad(99)}, regs, {1, 5}),
            "\t{\n\tmov.f32 %z, %x;\n\t}");
}

// A word that needs a newer target than StackPtxOptions::targetSm is an
// invalid word. tanh.approx (sm_75) is a simple instruction, so this also
// covers the fast path; %aggr_smem_size needs sm_90.
TEST(StackCompilerTest, TargetSm) {
  const StackInfo &info = getDefaultStackInfo();
  std::vector<Register> regs = {{"x", 0, RegKind::In}, {"z", 0, RegKind::Out}};
  std::vector<uint64_t> prog = {encodeInput(0),
                                d::encodePtx(d::PtxInstr::TANH_APPROX_F32)};
  const std::string tanh = "\t{\n\t.reg .f32 %_s0_<1>;\n"
                           "\ttanh.approx.f32 %_s0_0, %x;\n"
                           "\tmov.f32 %z, %_s0_0;\n\t}";
  StackPtxOptions opts;
  EXPECT_EQ(compile(info, prog, regs, {1}, opts), tanh);
  opts.targetSm = 75;
  EXPECT_EQ(compile(info, prog, regs, {1}, opts), tanh);
  opts.targetSm = 70;
  StackPtxContext ctx(info, opts);
  llvm::Expected<llvm::StringRef> s = ctx.compile({prog, {}}, regs, {1});
  ASSERT_TRUE(bool(s));
  EXPECT_EQ(s->str(), "\t{\n\tmov.f32 %z, %x;\n\t}");
  EXPECT_EQ(ctx.getStats().ignoredWords, 1u);
  // Changing the option afterwards does not change the built context.
  ctx.getOptions().targetSm = 0;
  EXPECT_EQ(ctx.getTargetSm(), 70u);
  opts.strict = true;
  EXPECT_EQ(compile(info, prog, regs, {1}, opts),
            "error: word 1 of the main program: PTX instruction "
            "'tanh.approx.f32' needs sm_75, the target is sm_70");
  std::vector<Register> u32 = {{"z", 1, RegKind::Out}};
  opts.targetSm = 89;
  EXPECT_EQ(compile(info, {d::encodeSpecial(d::SpecialReg::AGGR_SMEM_SIZE)},
                    u32, {0}, opts),
            "error: word 0 of the main program: special register "
            "'%aggr_smem_size' needs sm_90, the target is sm_89");
  opts.targetSm = 90;
  EXPECT_EQ(compile(info, {d::encodeSpecial(d::SpecialReg::AGGR_SMEM_SIZE)},
                    u32, {0}, opts),
            "\t{\n\t.reg .u32 %_s1_<1>;\n"
            "\tmov.u32 %_s1_0, %aggr_smem_size;\n"
            "\tmov.u32 %z, %_s1_0;\n\t}");
}

// compileStackPtx keeps one context per thread: a new target rebuilds it.
TEST(StackCompilerTest, TargetSmOneOff) {
  const StackInfo &info = getDefaultStackInfo();
  std::vector<Register> regs = {{"x", 0, RegKind::In}, {"z", 0, RegKind::Out}};
  std::vector<uint64_t> prog = {encodeInput(0),
                                d::encodePtx(d::PtxInstr::TANH_APPROX_F32)};
  StackPtxOptions sm70;
  sm70.targetSm = 70;
  for (int i = 0; i != 2; ++i) {
    llvm::Expected<std::string> a =
        compileStackPtx(info, {prog, {}}, regs, {1});
    ASSERT_TRUE(bool(a));
    EXPECT_NE(a->find("tanh"), std::string::npos);
    llvm::Expected<std::string> b =
        compileStackPtx(info, {prog, {}}, regs, {1}, sm70);
    ASSERT_TRUE(bool(b));
    EXPECT_EQ(b->find("tanh"), std::string::npos);
  }
}

// Tables without MinSm arrays (null, as written before they existed)
// restrict nothing, whatever the target.
TEST(StackCompilerTest, TargetSmWithoutMinSmTables) {
  ASSERT_NE(user::stackInfo.instrMinSm, nullptr);
  StackInfo info = user::stackInfo;
  info.instrMinSm = nullptr;
  info.specialMinSm = nullptr;
  StackPtxOptions opts;
  opts.targetSm = 20;
  opts.strict = true;
  std::vector<Register> regs = {{"a", 0, RegKind::In}, {"z", 1, RegKind::Out}};
  EXPECT_EQ(compile(info,
                    {encodeInput(0), encodeInput(0),
                     user::encodePtx(user::PtxInstr::SETP_LT_F32)},
                    regs, {1}, opts),
            "\t{\n\t.reg .pred %_s1_<2>;\n"
            "\tsetp.lt.f32 %_s1_0|%_s1_1, %a, %a;\n"
            "\tmov.pred %z, %_s1_0;\n\t}");
}

TEST(StackCompilerTest, UnsatisfiedRequests) {
  const StackInfo &info = getDefaultStackInfo();
  std::vector<Register> regs = {{"o", 1, RegKind::Out},
                                {"m", 1, RegKind::Mod},
                                {"p", 4, RegKind::Out},
                                {"d", 9, RegKind::Out}};
  EXPECT_EQ(compile(info, {}, regs, {0, 1, 2, 3}),
            "\t{\n\tmov.u32 %o, 0x00000000U;\n\tmov.pred %p, 0x00000000;\n"
            "\tmov.f64 %d, 0d0000000000000000;\n\t}");
  StackPtxOptions noZero;
  noZero.zeroUnsatisfied = false;
  EXPECT_EQ(compile(info, {}, regs, {0, 1, 2, 3}, noZero), "\t{\n\t}");
}

TEST(StackCompilerTest, HalfLiteralsGoThroughRegisters) {
  const StackInfo &info = getDefaultStackInfo();
  std::vector<Register> regs = {
      {"h", uint16_t(d::StackType::F16), RegKind::Out}};
  std::vector<uint64_t> prog = {d::encodeConstant(d::StackType::F16, 0x3C00),
                                d::encodeConstant(d::StackType::F16, 0x4000),
                                d::encodePtx(d::PtxInstr::ADD_F16)};
  EXPECT_EQ(compile(info, prog, regs, {0}),
            "\t{\n\t.reg .b16 %_s6_<3>;\n"
            "\tmov.b16 %_s6_0, 0x00004000;\n"
            "\tmov.b16 %_s6_1, 0x00003C00;\n"
            "\tadd.f16 %_s6_2, %_s6_0, %_s6_1;\n"
            "\tmov.b16 %h, %_s6_2;\n\t}");
}

static bool balanced(llvm::StringRef s) {
  int depth = 0;
  for (char c : s) {
    depth += c == '{';
    depth -= c == '}';
    if (depth < 0)
      return false;
  }
  return depth == 0;
}

// Property: any word sequence compiles (non-strict) to a braced stub.
TEST(StackCompilerTest, RandomWordsAlwaysCompile) {
  const StackInfo &info = getDefaultStackInfo();
  std::vector<RegisterDecl> decls = makeRandomTestRegisters(info);
  std::vector<Register> regs;
  for (const RegisterDecl &r : decls)
    regs.push_back({r.name, r.stackIdx, r.kind});
  std::vector<uint32_t> reqs;
  for (uint32_t i = 0; i != regs.size() + 3; ++i)
    reqs.push_back(i); // includes out-of-range requests
  StackRng rng(42);
  StackPtxContext ctx(info);
  for (unsigned iter = 0; iter != 10000; ++iter) {
    std::vector<std::vector<uint64_t>> routines(2);
    for (auto &r : routines)
      r = randomWords(rng, 1 + rng.below(8), info, regs.size(), 2);
    std::vector<llvm::ArrayRef<uint64_t>> refs(routines.begin(),
                                               routines.end());
    std::vector<uint64_t> main =
        randomWords(rng, 1 + rng.below(256), info, regs.size(), 2);
    llvm::Expected<llvm::StringRef> s = ctx.compile({main, refs}, regs, reqs);
    ASSERT_TRUE(bool(s)) << llvm::toString(s.takeError());
    ASSERT_TRUE(s->startswith("\t{\n")) << s->str();
    ASSERT_TRUE(s->endswith("\n\t}")) << s->str();
    ASSERT_TRUE(balanced(*s)) << s->str();
  }
}

// The end of a routine counts against the execution limit like an explicit
// RETURN word (the reference's routines always end in one): under any
// limit, a program compiles the same with or without the explicit returns.
TEST(StackCompilerTest, RoutineEndCountsLikeReturn) {
  const StackInfo &info = getDefaultStackInfo();
  std::vector<RegisterDecl> decls = makeRandomTestRegisters(info);
  std::vector<Register> regs;
  std::vector<uint32_t> reqs;
  for (const RegisterDecl &r : decls) {
    if (r.kind != RegKind::In)
      reqs.push_back(regs.size());
    regs.push_back({r.name, r.stackIdx, r.kind});
  }
  StackRng rng(7);
  StackPtxContext plain(info), explicitReturns(info);
  for (unsigned iter = 0; iter != 3000; ++iter) {
    std::vector<std::vector<uint64_t>> routines(3), withReturn(3);
    for (unsigned i = 0; i != 3; ++i) {
      routines[i] = randomWords(rng, 1 + rng.below(8), info, regs.size(), 3);
      withReturn[i] = routines[i];
      withReturn[i].push_back(encodeReturn());
    }
    std::vector<llvm::ArrayRef<uint64_t>> refs(routines.begin(),
                                               routines.end());
    std::vector<llvm::ArrayRef<uint64_t>> refsR(withReturn.begin(),
                                                withReturn.end());
    std::vector<uint64_t> main =
        randomWords(rng, 1 + rng.below(32), info, regs.size(), 3);
    uint64_t limit = 1 + rng.below(48);
    plain.getOptions().executionLimit = limit;
    explicitReturns.getOptions().executionLimit = limit;
    llvm::Expected<llvm::StringRef> a = plain.compile({main, refs}, regs, reqs);
    ASSERT_TRUE(bool(a)) << llvm::toString(a.takeError());
    llvm::Expected<llvm::StringRef> b =
        explicitReturns.compile({main, refsR}, regs, reqs);
    ASSERT_TRUE(bool(b)) << llvm::toString(b.takeError());
    ASSERT_EQ(a->str(), b->str())
        << "iteration " << iter << ", limit " << limit;
    ASSERT_EQ(plain.getStats().executedWords,
              explicitReturns.getStats().executedWords);
    ASSERT_EQ(plain.getStats().hitExecutionLimit,
              explicitReturns.getStats().hitExecutionLimit);
  }
}

// A size option beyond its bound is an error of the compile, not an
// allocation failure.
TEST(StackCompilerTest, OptionsAreBounded) {
  const StackInfo &info = getDefaultStackInfo();
  Register z{"z", 0, RegKind::Out};
  uint32_t req = 0;
  uint64_t w = encodeConstant(0, 0x3f800000);
  StackPtxContext ctx(info);
  auto compileWith = [&](auto set) {
    ctx.getOptions() = StackPtxOptions();
    set(ctx.getOptions());
    llvm::Expected<llvm::StringRef> s = ctx.compile({w, {}}, z, req);
    return s ? std::string("ok") : llvm::toString(s.takeError());
  };
  EXPECT_EQ(compileWith([](StackPtxOptions &o) { o.maxFrameDepth = ~0u; }),
            "maxFrameDepth = 4294967295 is too large (at most 1048576)");
  EXPECT_EQ(compileWith([](StackPtxOptions &o) { o.stackSize = ~0u; }),
            "stackSize = 4294967295 is too large (at most 1048576)");
  EXPECT_EQ(compileWith([](StackPtxOptions &o) { o.stackSize = 0; }),
            "stackSize must be at least 1");
  EXPECT_EQ(compileWith([](StackPtxOptions &o) { o.storeSize = ~0u; }),
            "storeSize = 4294967295 is too large (at most 1048576)");
  EXPECT_EQ(compileWith([](StackPtxOptions &o) { o.maxNodes = ~0u; }),
            "maxNodes = 4294967295 is too large (at most 16777216)");
  EXPECT_EQ(
      compileWith([](StackPtxOptions &o) { o.executionLimit = ~uint64_t(0); }),
      "executionLimit = 18446744073709551615 is too large (at most "
      "4294967296)");
  // The bounds themselves work, and the context is still usable.
  EXPECT_EQ(compileWith([](StackPtxOptions &o) {
              o.maxFrameDepth = StackPtxBounds::MaxFrameDepth;
              o.storeSize = StackPtxBounds::MaxStoreSize;
              o.maxNodes = StackPtxBounds::MaxNodes;
              o.executionLimit = StackPtxBounds::MaxExecutionLimit;
            }),
            "ok");
  EXPECT_EQ(compileWith([](StackPtxOptions &) {}), "ok");
}

// Zero registers are written after the requests, whatever the program
// leaves on the stacks; an 8-bit one goes through cvt.
TEST(StackCompilerTest, ZeroRegistersFollowTheRequests) {
  const StackInfo &info = getDefaultStackInfo();
  uint16_t u8 = uint16_t(info.findStack("U8"));
  std::vector<uint64_t> prog = {encodeInput(0), encodeInput(0)};
  std::vector<Register> regs = {{"x", 0, RegKind::In}, {"z", 0, RegKind::Out}};
  std::vector<Register> zeros = {{"w", 0, RegKind::Out},
                                 {"b", u8, RegKind::Out}};
  StackPtxContext ctx(info);
  llvm::Expected<llvm::StringRef> s = ctx.compile({prog, {}}, regs, {1}, zeros);
  ASSERT_TRUE(bool(s)) << llvm::toString(s.takeError());
  EXPECT_EQ(s->str(), "\t{\n\tmov.f32 %z, %x;\n\tmov.f32 %w, 0f00000000;\n"
                      "\tcvt.u8.u8 %b, 0x00000000;\n\t}");
}

// After warm-up the context reuses its buffers: compiling the same program
// again returns text in the same storage.
TEST(StackCompilerTest, ContextReusesBuffers) {
  const StackInfo &info = getDefaultStackInfo();
  StackRng rng(7);
  std::vector<uint64_t> prog = randomF32Program(rng, 64, info, 2);
  std::vector<Register> regs = {
      {"x", 0, RegKind::In}, {"y", 0, RegKind::In}, {"z", 0, RegKind::Out}};
  std::vector<uint32_t> reqs = {2};
  StackPtxContext ctx(info);
  llvm::StringRef first = cantFail(ctx.compile({prog, {}}, regs, reqs));
  const char *data = first.data();
  std::string copy = first.str();
  for (int i = 0; i != 100; ++i) {
    llvm::StringRef s = cantFail(ctx.compile({prog, {}}, regs, reqs));
    EXPECT_EQ(s.data(), data);
    EXPECT_EQ(s, copy);
  }
}

// mutateProgram: 1-3 one-word edits drawn from the vocabulary, the same for
// the same seed, and every result compiles.
TEST(StackCompilerTest, MutateProgram) {
  const StackInfo &info = getDefaultStackInfo();
  StackRng vocabRng(1);
  std::vector<uint64_t> vocabulary = randomF32Program(vocabRng, 64, info, 2);
  std::vector<uint64_t> base = randomF32Program(vocabRng, 8, info, 2);
  std::vector<Register> regs = {
      {"x", 0, RegKind::In}, {"y", 0, RegKind::In}, {"z", 0, RegKind::Out}};
  StackPtxContext ctx(info, StackPtxOptions());
  unsigned changed = 0;
  for (uint64_t seed = 0; seed != 200; ++seed) {
    std::vector<uint64_t> a = base, b = base;
    StackRng rngA(seed), rngB(seed);
    mutateProgram(rngA, a, vocabulary);
    mutateProgram(rngB, b, vocabulary);
    EXPECT_EQ(a, b);
    EXPECT_LE(a.size(), base.size() + 3);
    EXPECT_GE(a.size() + 3, base.size());
    for (uint64_t w : a)
      EXPECT_TRUE(llvm::is_contained(base, w) ||
                  llvm::is_contained(vocabulary, w));
    changed += a != base;
    EXPECT_TRUE(bool(ctx.compile({a, {}}, regs, {2})));
  }
  EXPECT_GT(changed, 150u);
}

} // namespace
