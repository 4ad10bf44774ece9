//===- StripComments.cpp - Remove plain comments --------------------------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Removes comments that carry no meaning, shrinking PTX before assembly:
///  1. Keep inline-asm brackets, everything inside inline-asm regions and
///     anything that may be an inject marker: later passes need them.
///  2. Remove every other comment together with the blanks before it on its
///     line; a comment alone on its line takes the line with it.
///
//===----------------------------------------------------------------------===//

#include "mmptx/IR/Module.h"
#include "mmptx/Transforms/Passes.h"

using namespace llvm;
using namespace mmptx;
using namespace mmptx::ptx;

namespace {
class StripCommentsPass : public Pass {
public:
  StringRef getArgument() const override { return "strip-comments"; }
  Error run(Module &M) override;
};
} // namespace

Error StripCommentsPass::run(Module &M) {
  constexpr uint8_t Keep =
      SF_BeginInlineAsm | SF_EndInlineAsm | SF_InInlineAsm | SF_KeywordComment;
  StringRef Buf = M.getBuffer();
  for (uint32_t I = 0, N = M.size(); I != N; ++I) {
    const Statement &S = M.getStatement(I);
    if (S.Kind != StmtKind::Comment || (S.Flags & Keep))
      continue;
    uint32_t B = S.Begin, E = S.End;
    uint32_t LineStart = B;
    while (LineStart > 0 &&
           (Buf[LineStart - 1] == ' ' || Buf[LineStart - 1] == '\t'))
      --LineStart;
    bool AloneOnLine = LineStart == 0 || Buf[LineStart - 1] == '\n';
    bool LineEnds =
        E == Buf.size() || Buf[E] == '\n' ||
        (Buf[E] == '\r' && E + 1 < Buf.size() && Buf[E + 1] == '\n');
    B = LineStart;
    if (AloneOnLine && LineEnds && E < Buf.size())
      E += Buf[E] == '\r' ? 2 : 1;
    M.replaceRange(B, E, "");
  }
  return Error::success();
}

std::unique_ptr<Pass> mmptx::createStripCommentsPass() {
  return std::make_unique<StripCommentsPass>();
}
