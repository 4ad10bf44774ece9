//===- ModuleTest.cpp - Tests for the PTX module and edits ----------------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "mmptx/IR/Module.h"
#include "mmptx/Parser/Parser.h"
#include "mmptx/Printer/Printer.h"

#include "gtest/gtest.h"

using namespace mmptx;
using namespace mmptx::ptx;

TEST(ModuleTest, EditsApplyInOrder) {
  auto M = parsePTXString(".version 9.0\nmov.f32 %f1, %f2;\nret;\n", "e.ptx");
  ASSERT_TRUE(bool(M)) << llvm::toString(M.takeError());
  Module &Mod = **M;
  // Added out of order on purpose.
  Mod.replaceStatements(2, 2, "exit;");
  Mod.replaceStatements(1, 1, "mov.f32 %f1, 0f00000000;");
  Mod.insertText(0, "// generated\n");
  std::string Want =
      "// generated\n.version 9.0\nmov.f32 %f1, 0f00000000;\nexit;\n";
  EXPECT_EQ(printModuleToString(Mod), Want);
  EXPECT_EQ(getPrintedSize(Mod), Want.size());
}

TEST(ModuleTest, LeadingGapsAndLines) {
  auto M = parsePTXString(".version 9.0\n\n\t  ret;", "g.ptx");
  ASSERT_TRUE(bool(M)) << llvm::toString(M.takeError());
  EXPECT_EQ((*M)->getLeadingGap(1), "\n\n\t  ");
  EXPECT_EQ((*M)->getLine((*M)->getStatement(1)), 3u);
  EXPECT_FALSE((*M)->isModified());
}
