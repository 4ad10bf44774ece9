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

/// Prints the kind of diagnostic \p Kind (`error: `), coloured as LLVM's
/// tools colour it when \p OS shows colours.
static void printKind(SourceMgr::DiagKind Kind, raw_ostream &OS) {
  switch (Kind) {
  case SourceMgr::DK_Error:
    WithColor::error(OS, "");
    break;
  case SourceMgr::DK_Warning:
    WithColor::warning(OS, "");
    break;
  case SourceMgr::DK_Remark:
    WithColor::remark(OS, "");
    break;
  case SourceMgr::DK_Note:
    WithColor::note(OS, "");
    break;
  }
}

void mmptx::printFormattedDiagnostics(StringRef Text, raw_ostream &OS) {
  static const std::pair<StringRef, SourceMgr::DiagKind> Kinds[] = {
      {": error: ", SourceMgr::DK_Error},
      {": warning: ", SourceMgr::DK_Warning},
      {": note: ", SourceMgr::DK_Note}};
  SmallVector<StringRef, 4> Lines;
  Text.rtrim('\n').split(Lines, '\n');
  for (StringRef Line : Lines) {
    size_t At = StringRef::npos;
    const auto *Found = std::end(Kinds);
    for (const auto *K = std::begin(Kinds); K != std::end(Kinds); ++K) {
      size_t Pos = Line.find(K->first);
      if (Pos < At) {
        At = Pos;
        Found = K;
      }
    }
    if (Found == std::end(Kinds)) {
      OS << Line << '\n';
      continue;
    }
    WithColor(OS, raw_ostream::SAVEDCOLOR, /*Bold=*/true)
        << Line.take_front(At + 2);
    printKind(Found->second, OS);
    WithColor(OS, raw_ostream::SAVEDCOLOR, /*Bold=*/true)
        << Line.drop_front(At + Found->first.size());
    OS << '\n';
  }
}

void mmptx::printDiagnostic(const SMDiagnostic &D, raw_ostream &OS,
                            unsigned MaxWidth) {
  StringRef File = D.getFilename();
  if (!File.empty()) {
    WithColor Loc(OS, raw_ostream::SAVEDCOLOR, /*Bold=*/true);
    Loc << (File == "-" ? StringRef("<stdin>") : File);
    if (D.getLineNo() != -1) {
      Loc << ':' << D.getLineNo();
      if (D.getColumnNo() != -1)
        Loc << ':' << (D.getColumnNo() + 1);
    }
    Loc << ": ";
  }
  printKind(D.getKind(), OS);
  {
    WithColor Msg(OS, raw_ostream::SAVEDCOLOR, /*Bold=*/true);
    printMessage(D.getMessage(), Msg);
  }
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
  WithColor(OS, raw_ostream::GREEN, /*Bold=*/true) << CaretLine;
  OS << '\n';
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

/// Prints \p Notes, notes printDiagnostic() printed plain, to \p OS
/// coloured as printDiagnostic() colours them: each note's heading
/// (`file:line:col: note: message`, the line that has `note: ` after a
/// location or at its start) and the caret line two lines below it (after
/// the echoed source line).
static void printNoteText(StringRef Notes, raw_ostream &OS) {
  unsigned SinceHeading = 0; // Lines since the last heading; 0: none yet.
  while (!Notes.empty()) {
    StringRef Line;
    std::tie(Line, Notes) = Notes.split('\n');
    size_t Label = Line.startswith("note: ") ? 0 : Line.find(": note: ");
    if (Label == StringRef::npos) {
      if (SinceHeading && ++SinceHeading == 3)
        WithColor(OS, raw_ostream::GREEN, /*Bold=*/true) << Line;
      else
        OS << Line;
      OS << '\n';
      continue;
    }
    SinceHeading = 1;
    if (Label != 0) {
      Label += 2;
      WithColor(OS, raw_ostream::SAVEDCOLOR, /*Bold=*/true)
          << Line.take_front(Label);
    }
    WithColor::note(OS, "");
    WithColor(OS, raw_ostream::SAVEDCOLOR, /*Bold=*/true)
        << Line.drop_front(Label + strlen("note: "));
    OS << '\n';
  }
}

void mmptx::reportError(Error E, StringRef ToolName) {
  handleAllErrors(
      std::move(E),
      [](const DiagnosticError &D) {
        // As DiagnosticError::log() prints it, to stderr, in colour on a
        // terminal (or with --color).
        printDiagnostic(D.getDiagnostic(), errs());
        printNoteText(StringRef(D.getNoteText()).rtrim('\n'), errs());
      },
      [&](const ErrorInfoBase &Info) {
        errs() << ToolName << ": ";
        WithColor::error(errs()) << Info.message() << '\n';
      });
}
