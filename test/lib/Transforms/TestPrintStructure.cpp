//===- TestPrintStructure.cpp - Dump the structural parse -----------------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `--test-pass=print-structure` prints one line per statement to stderr:
/// `line:col depth kind [flags] | text`, and one line per function, so lit
/// tests can check how the structural pass classified and linked the input.
///
//===----------------------------------------------------------------------===//

#include "mmptx/IR/Module.h"
#include "mmptx/Tools/MmptxOptMain.h"
#include "mmptx/Transforms/Passes.h"

#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace mmptx;
using namespace mmptx::ptx;

namespace {
class TestPrintStructurePass : public Pass {
public:
  StringRef getArgument() const override { return "print-structure"; }
  Error run(Module &M) override {
    raw_ostream &OS = errs();
    for (const Statement &S : M.statements()) {
      auto LC = M.getSourceMgr().getLineAndColumn(M.getLoc(S), M.getBufferID());
      OS << LC.first << ':' << LC.second << ' ' << S.Depth << ' '
         << getStmtKindName(S.Kind);
      if (S.Flags & SF_BeginInlineAsm)
        OS << " [asm-begin]";
      if (S.Flags & SF_EndInlineAsm)
        OS << " [asm-end]";
      if (S.Flags & SF_InInlineAsm)
        OS << " [in-asm]";
      if (S.Flags & SF_KeywordComment)
        OS << " [marker?]";
      StringRef Text = M.getText(S);
      OS << " | " << Text.take_until([](char C) { return C == '\n'; })
         << (Text.contains('\n') ? " ..." : "") << '\n';
    }
    for (const Function &F : M.functions())
      OS << (F.IsEntry ? "entry " : "func ") << F.Name
         << " header=" << M.getLine(M.getStatement(F.Header))
         << (F.isDefinition()
                 ? " body=" +
                       std::to_string(M.getLine(M.getStatement(F.BodyBegin))) +
                       "-" +
                       std::to_string(M.getLine(M.getStatement(F.BodyEnd)))
                 : std::string(" prototype"))
         << '\n';
    return Error::success();
  }
};

std::unique_ptr<Pass> createTestPrintStructurePass() {
  return std::make_unique<TestPrintStructurePass>();
}
} // namespace

namespace mmptx {
namespace test {
void registerTestPrintStructurePass() {
  registerTestPass({"print-structure",
                    "print the statements found by the structural pass",
                    &createTestPrintStructurePass});
}
} // namespace test
} // namespace mmptx
