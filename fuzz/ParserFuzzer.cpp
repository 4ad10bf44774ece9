//===- ParserFuzzer.cpp - libFuzzer target for the PTX parser -------------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Feeds arbitrary bytes to the PTX parser and checks the promises of
/// DESIGN.md §3 and §11 on every input:
///
/// 1. Parsing never crashes, hangs or reads out of bounds. The bytes are
///    parsed in place, from a buffer with no NUL terminator, so that
///    AddressSanitizer sees a one-byte overread.
/// 2. Every failure is a located diagnostic inside the input.
/// 3. parsePTXString() agrees with parseStructure() + verifyModule(), and a
///    full parse never succeeds where the structural pass fails.
/// 4. A parsed module is well formed: statements are in order, inside the
///    buffer, separated only by blanks, and scope links are symmetric.
/// 5. Printing an unchanged module reproduces the input byte for byte.
///
/// Any violation aborts, which libFuzzer reports as a crash.
///
//===----------------------------------------------------------------------===//

#include "mmptx/IR/Module.h"
#include "mmptx/Parser/Parser.h"
#include "mmptx/Printer/Printer.h"
#include "mmptx/Support/Diagnostic.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

using namespace llvm;
using namespace mmptx;
using namespace mmptx::ptx;

static void fail(const char *What) {
  std::fprintf(stderr, "ParserFuzzer: %s\n", What);
  std::abort();
}

/// \returns the message of \p E, checking that it is a diagnostic located
/// inside the input.
static std::string checkError(Error E) {
  std::string Msg;
  handleAllErrors(
      std::move(E),
      [&](const DiagnosticError &D) {
        if (D.getDiagnostic().getLineNo() < 1)
          fail("diagnostic without a line inside the input");
        raw_string_ostream OS(Msg);
        D.log(OS);
      },
      [&](const ErrorInfoBase &Info) {
        std::fprintf(stderr, "%s\n", Info.message().c_str());
        fail("error without a source location");
      });
  return Msg;
}

static bool isBlank(char C) {
  return C == ' ' || C == '\t' || C == '\r' || C == '\n' || C == '\f' ||
         C == '\v';
}

static void checkModule(const Module &M, StringRef Input) {
  if (M.getBuffer() != Input)
    fail("module buffer differs from the input");
  ArrayRef<Statement> Stmts = M.statements();
  uint32_t Pos = 0;
  for (uint32_t I = 0; I < Stmts.size(); ++I) {
    const Statement &S = Stmts[I];
    if (S.Begin < Pos || S.End <= S.Begin || S.End > Input.size())
      fail("statement out of order or out of the buffer");
    for (char C : M.getLeadingGap(I))
      if (!isBlank(C))
        fail("non-blank byte between statements");
    // A line comment runs to the end of its line, trailing blanks included.
    if (isBlank(Input[S.Begin]) ||
        (S.Kind != StmtKind::Comment && isBlank(Input[S.End - 1])))
      fail("statement starts or ends with a blank");
    if (S.Kind == StmtKind::ScopeBegin || S.Kind == StmtKind::ScopeEnd) {
      if (S.Link >= Stmts.size() || Stmts[S.Link].Link != I)
        fail("unlinked scope");
    }
    Pos = S.End;
  }
  for (char C : Input.substr(Pos))
    if (!isBlank(C))
      fail("non-blank byte after the last statement");
  for (const Function &F : M.functions()) {
    if (F.Header >= Stmts.size() ||
        Stmts[F.Header].Kind != StmtKind::FunctionHeader)
      fail("function without a header statement");
    if (F.isDefinition() &&
        (F.BodyBegin >= Stmts.size() || F.BodyEnd >= Stmts.size() ||
         Stmts[F.BodyBegin].Link != F.BodyEnd))
      fail("function body not linked");
  }
  if (printModuleToString(M) != Input)
    fail("printing does not reproduce the input");
  if (getPrintedSize(M) != Input.size())
    fail("getPrintedSize disagrees with the input size");
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  StringRef Input(reinterpret_cast<const char *>(Data), Size);

  // In place, without a NUL terminator.
  SourceMgr SM;
  unsigned ID = SM.AddNewSourceBuffer(
      MemoryBuffer::getMemBuffer(Input, "fuzz.ptx",
                                 /*RequiresNullTerminator=*/false),
      SMLoc());
  std::string InPlaceMsg;
  bool InPlaceOK = false;
  Expected<std::unique_ptr<Module>> Structure = parseStructure(SM, ID);
  if (!Structure) {
    InPlaceMsg = checkError(Structure.takeError());
  } else {
    checkModule(**Structure, Input);
    if (Error E = verifyModule(**Structure))
      InPlaceMsg = checkError(std::move(E));
    else
      InPlaceOK = true;
  }

  // On a module with no SourceMgr until a diagnostic asks for one: the
  // same verdict and message.
  {
    Module Lazy(Input, "fuzz.ptx");
    std::string Msg;
    Error E = parseStructure(Lazy);
    if (!E) {
      checkModule(Lazy, Input);
      E = verifyModule(Lazy);
    }
    if (E)
      Msg = checkError(std::move(E));
    if (Msg.empty() != InPlaceOK)
      fail("a module without a SourceMgr gets another verdict");
    if (Msg != InPlaceMsg)
      fail("a module without a SourceMgr reports a different error");
  }

  // Through the string API, which owns a copy.
  Expected<std::unique_ptr<Module>> M = parsePTXString(Input, "fuzz.ptx");
  if (!M) {
    std::string Msg = checkError(M.takeError());
    if (InPlaceOK)
      fail("parsePTXString failed where parsePTX succeeded");
    if (Msg != InPlaceMsg)
      fail("parsePTXString reports a different error");
    return 0;
  }
  if (!InPlaceOK)
    fail("parsePTXString succeeded where parsePTX failed");
  checkModule(**M, Input);
  return 0;
}
