//===- InjectFormatTest.cpp - The one writer of the site format -----------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "mmptx/Inject/InjectFormat.h"
#include "mmptx/Parser/Parser.h"

// The device header's site-format macros, generated from the writers.
#include "mmptx/cuda/PtxInjectFormat.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

#include "gtest/gtest.h"

#include <string>

using namespace llvm;
using namespace mmptx;

namespace {

/// \returns the asm template writeSiteScaffold makes of \p Vars, as the
/// annotate rewriter writes it.
std::string writeAsm(StringRef Name, ArrayRef<ScaffoldVar> Vars) {
  std::string Out = "{\n\t";
  writeSiteScaffold(
      Name, Vars, "%%_x", /*withMarkers=*/true,
      [&](const Twine &Line) { Out += (Line + "\n\t").str(); }, [] {});
  return Out + "}";
}

// The device header composes its asm from the generated line macros the
// way ptx_inject.h does; the result is what the writer writes, so a change
// of the format reaches the header through mmptx-tblgen.
TEST(InjectFormatTest, DeviceHeaderMacrosWriteTheScaffold) {
  const char *Asm = MMPTX_FMT_SITE_(
      "f", 3,
      MMPTX_FMT_DECL_("f32", 0) MMPTX_FMT_DECL_("u32", 1)
          MMPTX_FMT_DECL_("b16", 2),
      MMPTX_FMT_MOVIN_mmptx_mod("f32", 0, 0)
          MMPTX_FMT_MOVIN_mmptx_in("u32", 1, 2)
              MMPTX_FMT_MOVIN_mmptx_out("b16", 2, 1),
      MMPTX_FMT_ARG_(0, MMPTX_FMT_KIND_mmptx_mod, "f32", "F32", "acc")
          MMPTX_FMT_ARG_(1, MMPTX_FMT_KIND_mmptx_in, "u32", "U32", "v")
              MMPTX_FMT_ARG_(2, MMPTX_FMT_KIND_mmptx_out, "b16", "F16",
                             "c(i, j)"),
      MMPTX_FMT_MOVOUT_mmptx_mod("f32", 0, 0)
          MMPTX_FMT_MOVOUT_mmptx_in("u32", 1, 2)
              MMPTX_FMT_MOVOUT_mmptx_out("b16", 2, 1));
  ScaffoldVar Vars[] = {
      {InjectArgKind::Mod, "f32", "f32", "F32", "acc", "%0"},
      {InjectArgKind::In, "u32", "u32", "U32", "v", "%2"},
      {InjectArgKind::Out, "b16", "b16", "F16", "c(i, j)", "%1"},
  };
  EXPECT_EQ(Asm, writeAsm("f", Vars));
  EXPECT_STREQ(MMPTX_FMT_KIND_mmptx_in, "in");
  EXPECT_EQ(getInjectArgKindName(InjectArgKind::Out), MMPTX_FMT_KIND_mmptx_out);
}

TEST(InjectFormatTest, SectionsAndMoves) {
  std::string Lines;
  ScaffoldVar Vars[] = {{InjectArgKind::In, "f32", "f32", "F32", "x", "%f1"},
                        {InjectArgKind::Out, "f32", "f32", "F32", "y", "%f2"}};
  writeSiteScaffold(
      "g", Vars, "%_x", /*withMarkers=*/false,
      [&](const Twine &Line) { Lines += (Line + "\n").str(); },
      [&] { Lines += "STUB\n"; });
  EXPECT_EQ(Lines, ".reg .f32 %_x0;\n"
                   ".reg .f32 %_x1;\n"
                   "mov.f32 %_x0, %f1;\n"
                   "STUB\n"
                   "mov.f32 %f2, %_x1;\n");
}

// The inject layer finds markers among the comments the structural parser
// flags (SF_KeywordComment, in the parser's one walk): every marker line the
// writers write, and the legacy form's start and end, is one of them (the
// legacy variable lines are read after the start marker).
TEST(InjectFormatTest, MarkersAreKeywordComments) {
  std::string Ptx = ".version 8.0\n.target sm_80\n.address_size 64\n"
                    ".visible .entry k()\n{\n.reg .f32 %f<2>;\n"
                    "// PTX_INJECT_START g\n// %f1 mod f32 acc\n"
                    "// PTX_INJECT_END\n{\n";
  ScaffoldVar Vars[] = {{InjectArgKind::Mod, "f32", "f32", "F32", "x", "%f1"}};
  writeSiteScaffold(
      "f", Vars, "%_x", /*withMarkers=*/true,
      [&](const Twine &Line) { Ptx += (Line + "\n").str(); }, [] {});
  Ptx += "}\n// an ordinary comment\nret;\n}\n";
  SourceMgr SM;
  unsigned ID =
      SM.AddNewSourceBuffer(MemoryBuffer::getMemBuffer(Ptx, "k.ptx"), SMLoc());
  auto M = parseStructure(SM, ID);
  ASSERT_TRUE(bool(M)) << toString(M.takeError());
  unsigned NumMarkers = 0;
  for (const ptx::Statement &S : (*M)->statements()) {
    if (S.Kind != ptx::StmtKind::Comment)
      continue;
    StringRef Text = StringRef(Ptx).slice(S.Begin, S.End);
    bool IsMarker = Text.contains("INJECT");
    EXPECT_EQ(bool(S.Flags & ptx::SF_KeywordComment), IsMarker) << Text.str();
    NumMarkers += IsMarker;
  }
  EXPECT_EQ(NumMarkers, 5u); // 2 legacy, 3 mmptx
}

} // namespace
