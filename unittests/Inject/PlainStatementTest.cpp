//===- PlainStatementTest.cpp - The operand scan agrees with the parser ---===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// A checked create parses only the statements that isPlainStatement() does
// not accept. That is only sound if the statement parser accepts every
// statement the scanner accepts: checked here on every statement of the
// corpus and on byte-level mutations of them and of hand-written ones, and
// verifyOperands() must give verifyModule()'s verdict and first error on
// mutated whole modules.
//
//===----------------------------------------------------------------------===//

#include "MutateText.h"
#include "mmptx/IR/Instruction.h"
#include "mmptx/Inject/InjectChecks.h"
#include "mmptx/Parser/Parser.h"
#include "mmptx/Parser/StatementParser.h"

#include "llvm/Support/MemoryBuffer.h"

#include "gtest/gtest.h"

#include <random>
#include <set>

using namespace llvm;
using namespace mmptx;
using namespace mmptx::ptx;

namespace {

std::string readCorpus(StringRef Name) {
  auto Buf = MemoryBuffer::getFile(MMPTX_CORPUS_DIR "/" + Name);
  EXPECT_TRUE(bool(Buf)) << Name.str();
  return Buf ? (*Buf)->getBuffer().str() : std::string();
}

bool checksOperands(StmtKind K) {
  return K == StmtKind::Instruction || K == StmtKind::Directive ||
         K == StmtKind::FunctionHeader || K == StmtKind::Label;
}

/// "" when verifyOperands() and verifyModule() agree on \p Text (or it is
/// not structurally PTX), else what differs. Also checks that every
/// statement the scanner accepts, the parser accepts; \p Plain and
/// \p Statements count them from byte \p From on.
std::string compare(StringRef Text, unsigned &Plain, unsigned &Statements,
                    uint32_t From = 0) {
  auto M = parsePTXString(Text, "m", /*Verify=*/false);
  if (!M) {
    consumeError(M.takeError());
    return "";
  }
  for (const Statement &S : (*M)->statements()) {
    if (!checksOperands(S.Kind) ||
        !isPlainStatement((*M)->getText(S), S.Kind)) {
      Statements += S.Begin >= From && checksOperands(S.Kind);
      continue;
    }
    Statements += S.Begin >= From;
    Plain += S.Begin >= From;
    Error E = verifyStatement(**M, S);
    if (E)
      return "accepted without parsing: '" + (*M)->getText(S).str() +
             "': " + toString(std::move(E));
  }
  Error Fast = verifyOperands(**M);
  Error Full = verifyModule(**M);
  std::string FastMsg = Fast ? toString(std::move(Fast)) : "";
  std::string FullMsg = Full ? toString(std::move(Full)) : "";
  if (FastMsg != FullMsg)
    return "verdicts differ: '" + FastMsg + "' vs '" + FullMsg + "'";
  return "";
}

std::string mutate(std::string S, std::mt19937_64 &Gen) {
  return mutatetest::mutateText(
      std::move(S), Gen, " \t\n{}%;,.@!<>-+_$[]/\":|()*=0123456789abcdefxFUrp",
      /*LongDigits=*/true);
}

TEST(PlainStatementTest, Examples) {
  auto Yes = [](StringRef T, StmtKind K = StmtKind::Instruction) {
    return isPlainStatement(T, K);
  };
  EXPECT_TRUE(Yes("ld.param.u64 %rd1, [kernel_param_0];"));
  EXPECT_TRUE(Yes("@!%p1 bra.uni $L__BB0_2;"));
  EXPECT_TRUE(Yes("mov.u32 %r1, %tid.x;"));
  EXPECT_TRUE(Yes("st.global.v2.f32 [%rd2+-8], {%f1, %f2};"));
  EXPECT_TRUE(Yes("mov.f32 %f1, 0f3F800000;"));
  EXPECT_TRUE(Yes("ret;"));
  EXPECT_TRUE(Yes(".reg .f32 %f<5>;", StmtKind::Directive));
  EXPECT_TRUE(Yes(".shared .align 4 .b8 smem[16384];", StmtKind::Directive));
  EXPECT_TRUE(Yes(".loc 1 23 4", StmtKind::Directive));
  EXPECT_TRUE(Yes(".file 1 \"k.cu\"", StmtKind::Directive));
  EXPECT_TRUE(Yes("$L__BB0_1:", StmtKind::Label));
  // Not decided here: the parser rejects these or may.
  EXPECT_FALSE(Yes(".reg .f33 %f<5>;", StmtKind::Directive));
  EXPECT_FALSE(Yes(".reg .f32 %f<0>;", StmtKind::Directive));
  EXPECT_FALSE(Yes(".shared .align 3 .b8 s[4];", StmtKind::Directive));
  EXPECT_FALSE(
      Yes("add.s64 %rd1, %rd2, 1234567890123456789012345678901234567;"));
  EXPECT_FALSE(Yes("mov.f32 %f1, 0f3F80000;"));
  EXPECT_FALSE(Yes("add.f32 %f1 %f2;"));
  EXPECT_FALSE(Yes("add.f32 %f1, %f2 // c\n;"));
  EXPECT_FALSE(Yes("@%p1.x bra L;"));
  EXPECT_FALSE(Yes("mov.u32 %r1, sym+8;"));
  EXPECT_TRUE(Yes(".visible .entry k(\n\t.param .u64 k_param_0,\n\t.param "
                  ".align 8 .b8 k_param_1[16]\n)\n.maxntid 256, 1, 1",
                  StmtKind::FunctionHeader));
  EXPECT_TRUE(
      Yes(".func (.param .b32 r) f(.param .b32 a)", StmtKind::FunctionHeader));
  EXPECT_FALSE(Yes(".entry k(.param .u65 p)", StmtKind::FunctionHeader));
  EXPECT_FALSE(Yes(".entry k(.param .u64 p,)", StmtKind::FunctionHeader));
  EXPECT_FALSE(Yes(".extern .func f;", StmtKind::FunctionHeader));
  EXPECT_TRUE(Yes(".version 9.0", StmtKind::Directive));
  EXPECT_TRUE(Yes(".target sm_90a, texmode_independent", StmtKind::Directive));
  EXPECT_TRUE(Yes(".address_size 64", StmtKind::Directive));
  EXPECT_FALSE(Yes(".version 9", StmtKind::Directive));
  EXPECT_FALSE(Yes(".version 9.0e1", StmtKind::Directive));
  EXPECT_FALSE(Yes(".target 80", StmtKind::Directive));
  EXPECT_FALSE(Yes(".address_size 48", StmtKind::Directive));
  EXPECT_FALSE(Yes(".visible .global .f32 g = 1.0;", StmtKind::Directive));
}

TEST(PlainStatementTest, CorpusIsScanned) {
  // Compiled PTX is what the scanner is for: nearly every statement of
  // the corpus takes it, and the verdict is the parser's.
  for (StringRef Name :
       {"ptx_inject_simple_kernel.ptx", "anchor_gemm_kernel.ptx"}) {
    std::string Text = readCorpus(Name);
    unsigned Plain = 0, Statements = 0;
    EXPECT_EQ(compare(Text, Plain, Statements), "") << Name.str();
    EXPECT_GT(Statements, 10u);
    // Every statement takes the scanner.
    EXPECT_EQ(Plain, Statements) << Name.str();
  }
}

TEST(PlainStatementTest, AgreesWithTheParserOnMutatedStatements) {
  // Seeds: every distinct operand-bearing statement of the corpus, and
  // hand-written ones near the scanner's edges.
  std::vector<std::string> Seeds = {
      "add.s32 %r1, %r2, 1;",
      "add.s64 %rd1, %rd2, 0x7FFFFFFFFFFFFFFF;",
      "mov.b64 %rd1, 123456789012345678;",
      "mov.f64 %fd1, 0d3FF0000000000000;",
      "ld.shared.v4.f32 {%f1, %f2, %f3, %f4}, [%r5+16];",
      "ld.global.L2::128B.f32 %f1, [sym+-8];",
      "setp.ne.s32 %p1, %r1, -5;",
      "@!%p2 bra $L__BB0_3;",
      "selp.b32 %r1, -%r2, !%p1, %r3;",
      ".reg .b32 %r<262>;",
      ".local .align 16 .b8 __local_depot0[32];",
      ".param .b64 param0;",
      ".reg .pred %p, %q;",
      ".maxntid 256, 1, 1",
      ".pragma \"nounroll\";",
      ".loc 1 23 4, function_name $L__info_string0, inlined_at 1 10 5",
      "$L__BB0_1:",
      ".version 9.0",
      ".target sm_80",
      ".address_size 64",
      ".visible .entry k(\n\t.param .u64 k_param_0,\n\t.param .align 8 "
      ".b8 k_param_1[16]\n)\n.maxntid 256, 1, 1",
      ".func (.param .b32 r) f(.param .b32 a)",
  };
  for (StringRef Name :
       {"ptx_inject_simple_kernel.ptx", "anchor_gemm_kernel.ptx"}) {
    std::string Text = readCorpus(Name);
    auto M = parsePTXString(Text, Name, /*Verify=*/false);
    ASSERT_TRUE(bool(M)) << toString(M.takeError());
    std::set<std::string> Seen;
    for (const Statement &S : (*M)->statements())
      if (checksOperands(S.Kind) &&
          Seen.insert((*M)->getText(S).str()).second && Seen.size() < 400)
        Seeds.push_back((*M)->getText(S).str());
  }
  std::mt19937_64 Gen(7);
  unsigned Plain = 0, Statements = 0;
  for (const std::string &Seed : Seeds) {
    for (unsigned K = 0; K != 30; ++K) {
      std::string S = mutate(Seed, Gen);
      std::string Head = ".version 9.0\n.target sm_80\n.address_size 64\n"
                         ".visible .entry k()\n{\n\t";
      std::string Diff =
          compare(Head + S + "\n}\n", Plain, Statements, Head.size());
      EXPECT_EQ(Diff, "") << "mutated statement: " << S;
    }
  }
  // Both verdicts occur: the test exercises the scanner.
  EXPECT_GT(Plain, Statements / 5);
  EXPECT_LT(Plain, Statements);
}

TEST(PlainStatementTest, AgreesWithTheParserOnMutatedModules) {
  std::string Texts[] = {
      readCorpus("ptx_inject_simple_kernel.ptx"),
      ".version 9.0\n.target sm_80\n.address_size 64\n"
      ".func (.param .b32 r) f(.param .align 8 .b8 a[16], .param .u32 n)\n"
      "{\n\tld.param.u32 %r1, [n];\n\tst.param.b32 [r], %r1;\n\tret;\n}\n"
      ".visible .entry k(\n\t.param .u64 p\n)\n.maxntid 256, 1, 1\n"
      "{\n\t.reg .b32 %r<3>;\n\t.shared .align 16 .b8 s[64];\n"
      "$L__BB0_1:\n\t@%p1 bra.uni $L__BB0_1;\n\tret;\n}\n"};
  std::mt19937_64 Gen(13);
  unsigned Plain = 0, Statements = 0;
  for (const std::string &Text : Texts)
    for (unsigned K = 0; K != 2000; ++K) {
      std::string S = mutate(Text, Gen);
      EXPECT_EQ(compare(S, Plain, Statements), "") << "mutated module:\n" << S;
    }
  EXPECT_GT(Plain, Statements / 2);
}

} // namespace
