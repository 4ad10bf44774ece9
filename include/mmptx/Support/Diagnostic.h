//===- Diagnostic.h - Located errors ----------------------------*- C++ -*-===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Every error a user can cause is a located diagnostic: `file:line:col:
/// error: message`, the source line and a caret. DiagnosticError carries one
/// through llvm::Error so that libraries never print and tools decide how to
/// report.
///
//===----------------------------------------------------------------------===//

#ifndef MMPTX_SUPPORT_DIAGNOSTIC_H
#define MMPTX_SUPPORT_DIAGNOSTIC_H

#include "llvm/Support/Error.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

namespace mmptx {

/// An llvm::Error payload holding a fully formatted SMDiagnostic.
class DiagnosticError : public llvm::ErrorInfo<DiagnosticError> {
public:
  static char ID;

  explicit DiagnosticError(llvm::SMDiagnostic Diag) : Diag(std::move(Diag)) {}
  /// \p NoteText: printed notes that follow the diagnostic.
  DiagnosticError(llvm::SMDiagnostic Diag, std::string NoteText)
      : Diag(std::move(Diag)), NoteText(std::move(NoteText)) {}

  /// \returns an error located at \p Loc in \p SM with message \p Msg.
  static llvm::Error get(const llvm::SourceMgr &SM, llvm::SMLoc Loc,
                         const llvm::Twine &Msg,
                         llvm::ArrayRef<llvm::SMRange> Ranges = {});

  /// \returns an error located at \p Loc, followed by a note at \p NoteLoc.
  static llvm::Error getWithNote(const llvm::SourceMgr &SM, llvm::SMLoc Loc,
                                 const llvm::Twine &Msg, llvm::SMLoc NoteLoc,
                                 const llvm::Twine &Note);

  const llvm::SMDiagnostic &getDiagnostic() const { return Diag; }
  /// The printed notes after the diagnostic ("" if none).
  const std::string &getNoteText() const { return NoteText; }

  /// Prints the diagnostic (and its note, if any) without a trailing newline.
  void log(llvm::raw_ostream &OS) const override;
  std::error_code convertToErrorCode() const override {
    return llvm::inconvertibleErrorCode();
  }

private:
  llvm::SMDiagnostic Diag;
  std::string NoteText;
};

/// Prints \p D as `file:line:col: error: message`, the source line and a
/// caret line, like SMDiagnostic::print, but safe for any input: at most
/// \p MaxWidth columns of the line are echoed, a window around the caret
/// with `...` where the line is cut; tabs are expanded to 8-column stops;
/// control bytes and bytes that are not UTF-8 are shown as `\xNN`. The caret
/// stays under its column. Ends with a newline.
void printDiagnostic(const llvm::SMDiagnostic &D, llvm::raw_ostream &OS,
                     unsigned MaxWidth = 120);

/// Prints \p Text, lines already formatted as `where: error: message` (the
/// messages of a batch's modules), with the colours printDiagnostic gives
/// where \p OS shows colours: each line's `where: ` bold, its `error: `,
/// `warning: ` or `note: ` in its colour and the message bold. Other lines
/// are printed as they are. Ends with a newline.
void printFormattedDiagnostics(llvm::StringRef Text, llvm::raw_ostream &OS);

/// \returns an error without a source location.
llvm::Error makeError(const llvm::Twine &Msg);

/// Prints \p E for a command-line tool: located diagnostics as they are,
/// anything else as `<tool>: error: <message>`.
void reportError(llvm::Error E, llvm::StringRef ToolName);

} // namespace mmptx

#endif // MMPTX_SUPPORT_DIAGNOSTIC_H
