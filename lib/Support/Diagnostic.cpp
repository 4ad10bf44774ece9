//===- Diagnostic.cpp - Located errors ------------------------------------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "mmptx/Support/Diagnostic.h"

#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace mmptx;

char DiagnosticError::ID = 0;

Error DiagnosticError::get(const SourceMgr &SM, SMLoc Loc, const Twine &Msg,
                           ArrayRef<SMRange> Ranges) {
  return make_error<DiagnosticError>(
      SM.GetMessage(Loc, SourceMgr::DK_Error, Msg, Ranges));
}

Error DiagnosticError::getWithNote(const SourceMgr &SM, SMLoc Loc,
                                   const Twine &Msg, SMLoc NoteLoc,
                                   const Twine &Note) {
  auto E = std::make_unique<DiagnosticError>(
      SM.GetMessage(Loc, SourceMgr::DK_Error, Msg));
  raw_string_ostream OS(E->NoteText);
  SM.GetMessage(NoteLoc, SourceMgr::DK_Note, Note)
      .print(nullptr, OS, /*ShowColors=*/false);
  return Error(std::move(E));
}

void DiagnosticError::log(raw_ostream &OS) const {
  std::string Text;
  raw_string_ostream S(Text);
  Diag.print(nullptr, S, /*ShowColors=*/false);
  S << NoteText;
  S.flush();
  StringRef Out(Text);
  OS << Out.rtrim('\n');
}

Error mmptx::makeError(const Twine &Msg) {
  return createStringError(inconvertibleErrorCode(), Msg);
}

void mmptx::reportError(Error E, StringRef ToolName) {
  handleAllErrors(
      std::move(E),
      [](const DiagnosticError &D) {
        D.log(errs());
        errs() << '\n';
      },
      [&](const ErrorInfoBase &Info) {
        errs() << ToolName << ": ";
        WithColor::error(errs()) << Info.message() << '\n';
      });
}
