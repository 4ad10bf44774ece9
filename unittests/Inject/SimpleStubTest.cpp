//===- SimpleStubTest.cpp - The fast stub check agrees with the full one --===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Render accepts a stub that isSimpleStub() accepts without parsing it. That
// is only sound if the full check (checkStub) accepts every such stub with
// no warning: checked here on the Stack PTX compiler's stubs and on many
// byte-level mutations of them and of hand-written stubs.
//
//===----------------------------------------------------------------------===//

#include "MutateText.h"
#include "mmptx/Inject/InjectChecks.h"
#include "mmptx/Inject/InjectModule.h"
#include "mmptx/Stack/StackCompiler.h"
#include "mmptx/Stack/StackRandom.h"

#include "mmptx/Parser/StatementParser.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"

#include "gtest/gtest.h"

#include <random>

using namespace llvm;
using namespace mmptx;

namespace {

/// The line-by-line formulation of the simple-stub language (each line a
/// StringRef, trimmed, then matched with StringRef calls), which
/// isSimpleStub() implements as one pass over the bytes: both must accept
/// exactly the same stubs, so that no stub loses the fast path and none
/// gains it.
class LineScanner {
public:
  explicit LineScanner(ArrayRef<StringRef> InRegisters)
      : InRegisters(InRegisters) {}

  bool accepts(StringRef Stub) const {
    int Depth = 0;
    while (!Stub.empty()) {
      StringRef Line;
      std::tie(Line, Stub) = Stub.split('\n');
      Line = Line.trim(" \t\r");
      if (Line.empty())
        continue;
      if (Line == "{") {
        ++Depth;
        continue;
      }
      if (Line == "}") {
        if (--Depth < 0)
          return false;
        continue;
      }
      if (!(Line.startswith(".reg") ? declaration(Line) : instruction(Line)))
        return false;
    }
    return Depth == 0;
  }

private:
  static StringRef skipBlanks(StringRef S) { return S.ltrim(" \t\r"); }
  static bool isIdentStart(char C) { return isAlpha(C) || C == '_'; }
  static bool isIdentChar(char C) { return isAlnum(C) || C == '_' || C == '$'; }

  static bool reg(StringRef &S, StringRef &Name) {
    if (S.size() < 2 || S[0] != '%' || !isIdentStart(S[1]))
      return false;
    size_t N = 2;
    while (N < S.size() && isIdentChar(S[N]))
      ++N;
    Name = S.take_front(N);
    S = S.drop_front(N);
    return true;
  }

  static bool operand(StringRef &S, StringRef &Reg) {
    Reg = StringRef();
    if (!S.empty() && S[0] == '%')
      return reg(S, Reg);
    if (S.size() >= 2 && S[0] == '0' && (S[1] == 'f' || S[1] == 'd')) {
      size_t Digits = S[1] == 'f' ? 8 : 16;
      StringRef Hex = S.substr(2, Digits);
      if (Hex.size() != Digits || !llvm::all_of(Hex, isHexDigit))
        return false;
      S = S.drop_front(2 + Digits);
      return S.empty() || !isIdentChar(S[0]);
    }
    StringRef T = S;
    T.consume_front("-");
    size_t N = 0;
    while (N < T.size() && isDigit(T[N]))
      ++N;
    if (N == 0 || N > 18 || (N < T.size() && isIdentChar(T[N])))
      return false;
    S = T.drop_front(N);
    return true;
  }

  static bool declaration(StringRef L) {
    if (!L.consume_front(".reg") || L.empty() || !isSpace(L[0]))
      return false;
    L = skipBlanks(L);
    StringRef Type = L.take_until([](char C) { return isSpace(C); });
    if (!isPTXType(Type))
      return false;
    L = skipBlanks(L.drop_front(Type.size()));
    StringRef Name;
    if (!reg(L, Name))
      return false;
    if (L.consume_front("<")) {
      size_t N = 0;
      while (N < L.size() && isDigit(L[N]))
        ++N;
      if (N == 0 || N > 7 || L[0] == '0')
        return false;
      L = L.drop_front(N);
      if (!L.consume_front(">"))
        return false;
    }
    return L == ";";
  }

  bool instruction(StringRef L) const {
    if (L.consume_front("@")) {
      L.consume_front("!");
      StringRef Guard;
      if (!reg(L, Guard) || L.empty() || !isSpace(L[0]))
        return false;
      L = skipBlanks(L);
    }
    size_t N = 0;
    for (;;) {
      if (N >= L.size() || !isAlpha(L[N]))
        return false;
      while (N < L.size() && (isAlnum(L[N]) || L[N] == '_'))
        ++N;
      if (N < L.size() && L[N] == '.') {
        ++N;
        continue;
      }
      break;
    }
    if (N == L.size() || !isSpace(L[N]))
      return false;
    L = skipBlanks(L.drop_front(N));
    for (unsigned I = 0;; ++I) {
      StringRef Reg;
      if (!operand(L, Reg))
        return false;
      if (I == 0 && !Reg.empty() && llvm::is_contained(InRegisters, Reg))
        return false;
      L = skipBlanks(L);
      if (L == ";")
        return true;
      if (!L.consume_front(","))
        return false;
      L = skipBlanks(L);
    }
  }

  ArrayRef<StringRef> InRegisters;
};

class SimpleStubTest : public ::testing::Test {
protected:
  void SetUp() override {
    auto Buf =
        MemoryBuffer::getFile(MMPTX_CORPUS_DIR "/ptx_inject_simple_kernel.ptx");
    ASSERT_TRUE(bool(Buf));
    auto M = InjectModule::create((*Buf)->getBuffer(), "simple");
    ASSERT_TRUE(bool(M)) << toString(M.takeError());
    Module = std::move(*M);
    Inj = Module->lookupInject("func");
    ASSERT_NE(Inj, nullptr);
  }

  /// \returns "" if the full check accepts \p Stub with no warning, else
  /// its message.
  std::string fullCheck(StringRef Stub) {
    std::string Warning;
    Error E =
        checkStub(Stub, "stub", *Module, *Inj, [&](const SMDiagnostic &D) {
          Warning = "warning: " + D.getMessage().str();
        });
    if (E)
      return toString(std::move(E));
    return Warning;
  }

  std::unique_ptr<InjectModule> Module;
  const Inject *Inj = nullptr;
  /// The register of `func`'s in variable v_y.
  const SmallVector<StringRef, 1> InRegs = {"%_x2"};
};

TEST_F(SimpleStubTest, Examples) {
  EXPECT_TRUE(isSimpleStub(""));
  EXPECT_TRUE(isSimpleStub("\tadd.f32 %_x0, %_x0, %_x2;"));
  EXPECT_TRUE(isSimpleStub("{\n.reg .f32 %_a<3>;\nmul.rn.f32 %_a0, %_x2, "
                           "0f3F800000;\nmov.f32 %_x0, %_a0;\n}\n"));
  EXPECT_TRUE(isSimpleStub("@!%p1 add.s32 %r1, %r2, -17;"));
  // Not simple: the full check decides.
  EXPECT_FALSE(isSimpleStub("}"));
  EXPECT_FALSE(isSimpleStub("{"));
  EXPECT_FALSE(isSimpleStub("// PTX_INJECT_END"));
  EXPECT_FALSE(isSimpleStub(".reg .f33 %f;"));
  EXPECT_FALSE(isSimpleStub("add.f32 %f1, %f2, 0f3F80000;"));
  EXPECT_FALSE(isSimpleStub("add.s32 %r1, %r2, 1234567890123456789012;"));
  EXPECT_FALSE(isSimpleStub("ld.global.f32 %f1, [%rd1];"));
  EXPECT_FALSE(isSimpleStub("add.f32 %f1, %f2, %f3; add.f32 %f1, %f2, %f3;"));
  EXPECT_FALSE(isSimpleStub("mov.f32 %_x2, %_x0;", InRegs));
  EXPECT_TRUE(isSimpleStub("mov.f32 %_x0, %_x2;", InRegs));
}

TEST_F(SimpleStubTest, AgreesWithTheFullCheck) {
  // Seeds: the Stack PTX compiler's stubs of random programs over func's
  // variables, and hand-written ones.
  const stack::StackInfo &Info = stack::getDefaultStackInfo();
  stack::StackPtxContext Ctx(Info);
  const stack::Register Regs[] = {{"_x0", 0, stack::RegKind::Mod},
                                  {"_x2", 0, stack::RegKind::In},
                                  {"_x1", 0, stack::RegKind::Out}};
  const uint32_t Requests[] = {0, 2};
  std::vector<std::string> Seeds = {
      "\tadd.f32 %_x0, %_x0, %_x2;",
      "{\n\t.reg .pred %p<2>;\n\tsetp.lt.f32 %p1, %_x0, 0f00000000;\n"
      "\t@%p1 mov.f32 %_x1, %_x2;\n}",
      ".reg .b32 %r<4>;\nadd.s32 %r1, %r2, 7;\n"};
  stack::StackRng Rng(11);
  unsigned SimpleSeeds = 0, CompilerSeeds = 0;
  for (unsigned I = 0; I != 300; ++I) {
    std::vector<uint64_t> Words = stack::randomF32Program(Rng, 24, Info, 2);
    auto Stub = Ctx.compile({Words, {}}, Regs, Requests);
    ASSERT_TRUE(bool(Stub)) << toString(Stub.takeError());
    ++CompilerSeeds;
    if (isSimpleStub(*Stub, InRegs))
      ++SimpleSeeds;
    Seeds.push_back(Stub->str());
  }
  // The compiler's stubs are the case the fast path is for.
  EXPECT_EQ(SimpleSeeds, CompilerSeeds);

  const char Alphabet[] = " \t\n\r{}%;,.@!<>-_$[]/0123456789abcdfx";
  std::mt19937_64 Gen(5);
  unsigned Checked = 0, Simple = 0;
  for (const std::string &Seed : Seeds) {
    for (unsigned K = 0; K != 40; ++K) {
      std::string S =
          mutatetest::mutateText(Seed, Gen, Alphabet, /*LongDigits=*/false);
      ++Checked;
      if (!isSimpleStub(S, InRegs))
        continue;
      ++Simple;
      EXPECT_EQ(fullCheck(S), "") << "accepted without parsing:\n" << S;
    }
  }
  // Both verdicts occur: the test exercises the fast path.
  EXPECT_GT(Simple, Checked / 20);
  EXPECT_LT(Simple, Checked);
}

TEST_F(SimpleStubTest, SameVerdictAsTheLineScanner) {
  const stack::StackInfo &Info = stack::getDefaultStackInfo();
  stack::StackPtxContext Ctx(Info);
  const stack::Register Regs[] = {{"_x0", 0, stack::RegKind::Mod},
                                  {"_x2", 0, stack::RegKind::In},
                                  {"_x1", 0, stack::RegKind::Out}};
  const uint32_t Requests[] = {0, 2};
  std::vector<std::string> Seeds = {
      "\tmul.ftz.f32 %_x0, %_x0, 0f3F800000;",
      "{\n\t.reg .pred %p<2>;\n\tsetp.lt.f32 %p1, %_x0, 0f00000000;\n"
      "\t@%p1 mov.f32 %_x1, %_x2;\n}",
      ".reg .b32 %r<4>;\r\nadd.s32 %r1, %r2, -7; \r\n\t\n",
      "@!%p1 add.s64 %rd1, %rd2, 0d3FF0000000000000;\n{\n}\n"};
  stack::StackRng Rng(23);
  for (unsigned I = 0; I != 100; ++I) {
    std::vector<uint64_t> Words = stack::randomF32Program(Rng, 24, Info, 2);
    auto Stub = Ctx.compile({Words, {}}, Regs, Requests);
    ASSERT_TRUE(bool(Stub)) << toString(Stub.takeError());
    Seeds.push_back(Stub->str());
  }
  // The limits, on either side.
  const std::pair<const char *, bool> Limits[] = {
      {"add.s64 %rd1, %rd2, 123456789012345678;", true},
      {"add.s64 %rd1, %rd2, 1234567890123456789;", false},
      {"add.s64 %rd1, %rd2, -123456789012345678;", true},
      {"add.s64 %rd1, %rd2, -1234567890123456789;", false},
      {".reg .b32 %r<1234567>;", true},
      {".reg .b32 %r<12345678>;", false},
      {".reg .b32 %r<0>;", false},
      {"mov.f32 %f1, 0f3F800000;", true},
      {"mov.f32 %f1, 0f3F80000;", false},
      {"mov.f32 %f1, 0f3F8000000;", false},
      {"mov.f32 %f1, 0F3F800000;", false},
      {"mov.f32 %f1, 0f3F800000_;", false},
      {"mov.f64 %fd1, 0d3FF0000000000000;", true},
      {"mov.f64 %fd1, 0d3FF000000000000;", false},
      {".reg\v.f32 %f1;", false},
      {".reg .f32\v%f1;", false},
      {".reg .f32 %f1 ;", false},
      {"add\f.f32 %f1, %f2, %f3;", false},
      {"add.f32\f%f1, %f2, %f3;", false},
      {"add.f32 %f1, %f2, %f3 ;", true},
      {"add.f32 %f1 , %f2,%f3;\t\r", true},
      {"@%p1\tbra.uni %r1;", true},
      {"@%p1;", false},
      {"ret;", false},
      {"{\n}\n}", false},
      {"mov.f32 %_x2, %f1;", true}};
  for (const auto &L : Limits) {
    EXPECT_EQ(isSimpleStub(L.first), L.second) << L.first;
    EXPECT_EQ(LineScanner({}).accepts(L.first), L.second) << L.first;
    Seeds.push_back(L.first);
  }
  // Every byte class of the scanners, the blanks they tell apart ('\v',
  // '\f'), bytes in no class (NUL, 0xff) and the letters of hex floats.
  static const char Bytes[] = " \t\n\r\v\f{}%;,.@!<>-_$[]/0123456789abcdefx"
                              "ABCDEFgrFd\xff";
  const StringRef Alphabet(Bytes, sizeof(Bytes)); // with its NUL
  std::mt19937_64 Gen(17);
  unsigned Accepted = 0, Total = 0;
  for (const std::string &Seed : Seeds)
    for (unsigned K = 0; K != 60; ++K) {
      std::string S = mutatetest::mutateText(Seed, Gen, Alphabet,
                                             /*LongDigits=*/K % 4 == 0);
      for (ArrayRef<StringRef> In :
           {ArrayRef<StringRef>(), ArrayRef<StringRef>(InRegs)}) {
        bool Want = LineScanner(In).accepts(S);
        EXPECT_EQ(isSimpleStub(S, In), Want) << "stub:\n" << S;
        Accepted += Want;
        ++Total;
      }
    }
  // Both verdicts occur.
  EXPECT_GT(Accepted, Total / 20);
  EXPECT_LT(Accepted, Total);
}

} // namespace
