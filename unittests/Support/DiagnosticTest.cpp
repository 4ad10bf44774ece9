//===- DiagnosticTest.cpp - Tests for printing located errors -------------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "mmptx/Support/Diagnostic.h"

#include "llvm/Support/MemoryBuffer.h"

#include "gtest/gtest.h"

using namespace llvm;
using namespace mmptx;

namespace {
/// \returns the printed error at byte \p Offset of \p Text, with the ranges
/// \p Ranges given as byte offsets.
std::string diagAt(StringRef Text, size_t Offset, unsigned MaxWidth = 120,
                   std::vector<std::pair<size_t, size_t>> Ranges = {}) {
  SourceMgr SM;
  SM.AddNewSourceBuffer(MemoryBuffer::getMemBufferCopy(Text, "t.ptx"), SMLoc());
  const char *Base = SM.getMemoryBuffer(1)->getBufferStart();
  std::vector<SMRange> SMRanges;
  for (auto [B, E] : Ranges)
    SMRanges.emplace_back(SMLoc::getFromPointer(Base + B),
                          SMLoc::getFromPointer(Base + E));
  SMDiagnostic D = SM.GetMessage(SMLoc::getFromPointer(Base + Offset),
                                 SourceMgr::DK_Error, "bad", SMRanges);
  std::string Out;
  raw_string_ostream OS(Out);
  printDiagnostic(D, OS, MaxWidth);
  return OS.str();
}

TEST(DiagnosticTest, ShortLineLikeLLVM) {
  EXPECT_EQ(diagAt("a\nmov.f32 %f1, x;\n", 15),
            "t.ptx:2:14: error: bad\nmov.f32 %f1, x;\n             ^\n");
}

TEST(DiagnosticTest, RangesAreMarked) {
  EXPECT_EQ(diagAt("add.s32 %r1, %r2;\n", 8, 120, {{8, 11}}),
            "t.ptx:1:9: error: bad\nadd.s32 %r1, %r2;\n        ^~~\n");
}

TEST(DiagnosticTest, TabsExpandTheSameInBothLines) {
  EXPECT_EQ(diagAt("\tret\tx;\n", 5),
            "t.ptx:1:6: error: bad\n        ret     x;\n                ^\n");
}

TEST(DiagnosticTest, ControlBytesAreVisible) {
  std::string Text("mov\0x\x01;\n", 8);
  EXPECT_EQ(diagAt(Text, 6),
            "t.ptx:1:7: error: bad\nmov\\x00x\\x01;\n            ^\n");
}

TEST(DiagnosticTest, InvalidUtf8IsEscapedValidKept) {
  // \xff is no UTF-8; "é" is one column.
  EXPECT_EQ(diagAt("\xff\xc3\xa9 x\n", 4),
            "t.ptx:1:5: error: bad\n\\xff\xc3\xa9 x\n      ^\n");
}

TEST(DiagnosticTest, LongLineShowsAWindowAroundTheCaret) {
  std::string Text(1000, '{');
  Text[500] = 'X';
  std::string Out = diagAt(Text, 500, 20);
  EXPECT_EQ(Out, "t.ptx:1:501: error: bad\n..." + std::string(10, '{') + "X" +
                     std::string(9, '{') + "...\n" + std::string(13, ' ') +
                     "^\n");
}

TEST(DiagnosticTest, LongLineCutAtOneEndOnly) {
  std::string Text(100, 'a');
  EXPECT_EQ(diagAt(Text, 2, 10), "t.ptx:1:3: error: bad\naaaaaaaaaa...\n  ^\n");
  EXPECT_EQ(diagAt(Text, 100, 10),
            "t.ptx:1:101: error: bad\n...aaaaaaaaaa\n             ^\n");
}

TEST(DiagnosticTest, WindowKeepsEscapesWhole) {
  // Every byte is a 4-column escape: the window holds whole ones only.
  std::string Text(50, '\0');
  std::string Out = diagAt(Text, 25, 10);
  EXPECT_EQ(Out, "t.ptx:1:26: error: bad\n...\\x00\\x00...\n       ^\n");
}

TEST(DiagnosticTest, MessageControlBytesAreVisible) {
  SourceMgr SM;
  SM.AddNewSourceBuffer(MemoryBuffer::getMemBufferCopy("x\n", "t.ptx"),
                        SMLoc());
  SMDiagnostic D = SM.GetMessage(
      SMLoc::getFromPointer(SM.getMemoryBuffer(1)->getBufferStart()),
      SourceMgr::DK_Error, StringRef("name 'a\0b'", 10));
  std::string Out;
  raw_string_ostream OS(Out);
  printDiagnostic(D, OS);
  EXPECT_EQ(OS.str(), "t.ptx:1:1: error: name 'a\\x00b'\nx\n^\n");
}

TEST(DiagnosticTest, ErrorLogUsesTheSafePrinter) {
  SourceMgr SM;
  std::string Text(5000, '}');
  SM.AddNewSourceBuffer(MemoryBuffer::getMemBufferCopy(Text, "t.ptx"), SMLoc());
  Error E = DiagnosticError::get(
      SM, SMLoc::getFromPointer(SM.getMemoryBuffer(1)->getBufferStart() + 10),
      "unbalanced");
  std::string Out = toString(std::move(E));
  EXPECT_LT(Out.size(), 400u);
  EXPECT_EQ(Out.find("t.ptx:1:11: error: unbalanced\n"), 0u);
}
} // namespace
