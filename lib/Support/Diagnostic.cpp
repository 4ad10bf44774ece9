//===- Diagnostic.cpp - Located errors ------------------------------------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "mmptx/Support/Diagnostic.h"

#include "llvm/Support/ConvertUTF.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace mmptx;

namespace {
/// What one byte of a source line looks like when echoed: its text (empty
/// for the tail of a UTF-8 sequence) and the display column it starts at.
struct Cell {
  std::string Text;
  unsigned Col;
  unsigned Width;
};
} // namespace

static constexpr unsigned TabStop = 8;

/// \returns the cells of \p Line, one per byte, and one empty cell for the
/// end of the line.
static std::vector<Cell> layOutLine(StringRef Line) {
  std::vector<Cell> Cells;
  Cells.reserve(Line.size() + 1);
  unsigned Col = 0;
  auto Hex = [](unsigned char C) {
    std::string S;
    raw_string_ostream(S) << "\\x" << format_hex_no_prefix(C, 2);
    return S;
  };
  for (size_t I = 0, E = Line.size(); I != E; ++I) {
    unsigned char C = Line[I];
    Cell Out{std::string(1, char(C)), Col, 1};
    if (C == '\t') {
      Out.Width = TabStop - Col % TabStop;
      Out.Text.assign(Out.Width, ' ');
    } else if (C < 0x20 || C == 0x7f) {
      Out.Text = Hex(C);
      Out.Width = Out.Text.size();
    } else if (C >= 0x80) {
      const UTF8 *Begin = reinterpret_cast<const UTF8 *>(Line.data() + I);
      const UTF8 *End = reinterpret_cast<const UTF8 *>(Line.end());
      unsigned Len = getNumBytesForUTF8(C);
      if (Len > 1 && isLegalUTF8Sequence(Begin, End)) {
        // One column for the whole sequence; its tail bytes are empty.
        Out.Text = Line.substr(I, Len).str();
        Cells.push_back(std::move(Out));
        for (unsigned K = 1; K != Len; ++K)
          Cells.push_back(Cell{std::string(), Col + 1, 0});
        I += Len - 1;
        ++Col;
        continue;
      }
      Out.Text = Hex(C);
      Out.Width = Out.Text.size();
    }
    Col += Out.Width;
    Cells.push_back(std::move(Out));
  }
  Cells.push_back(Cell{std::string(), Col, 0});
  return Cells;
}

/// Shows control bytes of a message (a quoted name, say) as `\xNN`.
static void printMessage(StringRef Msg, raw_ostream &OS) {
  for (unsigned char C : Msg) {
    if ((C < 0x20 && C != '\n' && C != '\t') || C == 0x7f)
      OS << "\\x" << format_hex_no_prefix(C, 2);
    else
      OS << C;
  }
}

void mmptx::printDiagnostic(const SMDiagnostic &D, raw_ostream &OS,
                            unsigned MaxWidth) {
  StringRef File = D.getFilename();
  if (!File.empty()) {
    OS << (File == "-" ? StringRef("<stdin>") : File);
    if (D.getLineNo() != -1) {
      OS << ':' << D.getLineNo();
      if (D.getColumnNo() != -1)
        OS << ':' << (D.getColumnNo() + 1);
    }
    OS << ": ";
  }
  switch (D.getKind()) {
  case SourceMgr::DK_Error:
    OS << "error: ";
    break;
  case SourceMgr::DK_Warning:
    OS << "warning: ";
    break;
  case SourceMgr::DK_Remark:
    OS << "remark: ";
    break;
  case SourceMgr::DK_Note:
    OS << "note: ";
    break;
  }
  printMessage(D.getMessage(), OS);
  OS << '\n';
  if (D.getLineNo() == -1 || D.getColumnNo() == -1)
    return;

  StringRef Line = D.getLineContents();
  std::vector<Cell> Cells = layOutLine(Line);
  auto ColOf = [&](size_t Byte) {
    return Cells[std::min(Byte, Line.size())].Col;
  };
  unsigned Caret = ColOf(D.getColumnNo());
  unsigned Total = Cells.back().Col;

  // The window [Begin, End) of display columns: all of a short line, else
  // MaxWidth columns around the caret.
  unsigned Begin = 0, End = Total;
  if (Total > MaxWidth) {
    Begin = Caret > MaxWidth / 2 ? Caret - MaxWidth / 2 : 0;
    End = std::min(Total, Begin + MaxWidth);
    Begin = End - MaxWidth;
  }
  // Only whole cells are shown; a cut is marked with "...".
  std::string Text;
  unsigned First = Total, Last = 0; // Display columns actually shown.
  for (const Cell &C : Cells) {
    if (C.Col < Begin || C.Col + C.Width > End || C.Text.empty())
      continue;
    First = std::min(First, C.Col);
    Last = std::max(Last, C.Col + C.Width);
    Text += C.Text;
  }
  if (First > Last)
    First = Last = Begin;
  bool CutFront = First > 0, CutBack = Last < Total;
  unsigned Shift = CutFront ? 3 : 0;
  OS << (CutFront ? "..." : "") << Text << (CutBack ? "..." : "") << '\n';

  // The caret line, in the same columns.
  std::string CaretLine(Shift + (Last - First) + 1, ' ');
  auto Place = [&](unsigned Col) -> size_t {
    Col = std::max(std::min(Col, Last), First);
    return Shift + (Col - First);
  };
  for (const std::pair<unsigned, unsigned> &R : D.getRanges()) {
    size_t From = Place(ColOf(R.first)), To = Place(ColOf(R.second));
    for (size_t I = From; I < To; ++I)
      CaretLine[I] = '~';
  }
  CaretLine[Place(Caret)] = '^';
  CaretLine.erase(CaretLine.find_last_not_of(' ') + 1);
  OS << CaretLine << '\n';
}

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
  printDiagnostic(SM.GetMessage(NoteLoc, SourceMgr::DK_Note, Note), OS);
  return Error(std::move(E));
}

void DiagnosticError::log(raw_ostream &OS) const {
  std::string Text;
  raw_string_ostream S(Text);
  printDiagnostic(Diag, S);
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
