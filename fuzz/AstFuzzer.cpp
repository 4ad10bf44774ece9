//===- AstFuzzer.cpp - libFuzzer target for the AST PTX compiler ----------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Feeds arbitrary bytes to the AST PTX compiler, its text parser and
/// printer, and its interpreter. Byte 0 picks the mode and small limits;
/// the rest is either text (for the parser) or 8-byte words split into two
/// expressions and two routines. Checks: no crash, hang or sanitizer report;
/// a compile either succeeds with a braced stub or fails with an AstError;
/// a parsed text prints and reads back to the same words. Build and run with
/// fuzz/run.sh ast SECONDS.
///
//===----------------------------------------------------------------------===//

#include "FuzzInput.h"
#include "mmptx/Ast/AstInterpreter.h"
#include "mmptx/Ast/AstPtx.h"
#include "mmptx/Ast/AstText.h"
#include "mmptx/Expr/Evaluate.h"
#include "mmptx/Expr/InstrSet.h"

#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

using namespace mmptx;
using namespace mmptx::ast;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  const expr::InstrSet &Info = expr::getDefaultInstrSet();
  uint8_t Mode;
  if (!fuzz::takeMode(Data, Size, Mode))
    return 0;

  if (Mode & 0x80) {
    // Text: parse; if it parses, print and parse again.
    llvm::StringRef Text(reinterpret_cast<const char *>(Data), Size);
    llvm::Expected<AstModule> M = parseAstModule(Text, Info);
    if (!M) {
      llvm::consumeError(M.takeError());
      return 0;
    }
    std::string Printed;
    llvm::raw_string_ostream Os(Printed);
    if (llvm::Error E = printAstModule(Os, *M, Info)) {
      llvm::consumeError(std::move(E));
      return 0;
    }
    llvm::Expected<AstModule> Back = parseAstModule(Os.str(), Info);
    if (!Back)
      abort(); // the printer wrote something the parser rejects
    for (size_t I = 0; I != M->Outputs.size(); ++I)
      if (Back->Outputs[I].Expr.Words != M->Outputs[I].Expr.Words)
        abort();
    AstPtxContext Ctx(Info);
    auto Stub = Ctx.compile(M->getProgram(), M->getInputs());
    if (!Stub)
      llvm::consumeError(Stub.takeError());
    return 0;
  }

  std::vector<uint64_t> Words = fuzz::readWords(Data, Size);
  size_t N = Words.size();
  // Narrow the fields so that valid words are common: small types, aux and
  // indices.
  for (uint64_t &W : Words)
    if (Mode & 1)
      W = makeAstWord(AstWordType(uint16_t(W) % 10), uint16_t(W >> 16) % 6,
                      uint32_t(W >> 32) % (Info.NumInstrs + 8));
  size_t Q = N / 4;
  std::vector<uint64_t> E0(Words.begin(), Words.begin() + Q),
      E1(Words.begin() + Q, Words.begin() + 2 * Q),
      R0(Words.begin() + 2 * Q, Words.begin() + 3 * Q),
      R1(Words.begin() + 3 * Q, Words.end());
  const AstVar Inputs[] = {{"x", 0}, {"y", 0}, {"n", 1}, {"p", 4}};
  AstOutput Outs[] = {{{"z", uint16_t((Mode >> 1) & 3)}, E0}, {{"w", 0}, E1}};
  llvm::ArrayRef<uint64_t> Routines[] = {R0, R1};
  AstProgram Prog{Outs, Routines};
  AstPtxOptions O;
  O.MaxStackDepth = 1 + ((Mode >> 3) & 7) * 8;
  O.MaxRoutineDepth = (Mode >> 6) & 1 ? 3 : 0;
  O.MaxExecutedWords = 100000;
  O.ShareSubexpressions = (Mode >> 5) & 1;
  AstPtxContext Ctx(Info, O);
  llvm::Expected<llvm::StringRef> Stub = Ctx.compile(Prog, Inputs);
  if (Stub) {
    if (!Stub->startswith("{\n") || !Stub->endswith("}"))
      abort();
  } else {
    AstResult R = takeAstResult(Stub.takeError());
    if (R == AstResult::Success || R == AstResult::Internal)
      abort();
    return 0;
  }
  const uint64_t Values[] = {expr::f32Bits(1.5f), expr::f32Bits(-2), 7, 1};
  auto V = interpretAstPtx(Ctx, Prog, Inputs, Values);
  if (!V)
    llvm::consumeError(V.takeError()); // e.g. an instruction it lacks
  return 0;
}
