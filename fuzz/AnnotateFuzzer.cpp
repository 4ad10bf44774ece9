//===- AnnotateFuzzer.cpp - libFuzzer target for the annotate rewriter ----===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Feeds arbitrary bytes to mmptx::annotate::annotateSource and checks, on
/// every input:
///
/// 1. It never crashes, hangs or reads out of bounds (the buffer has no NUL
///    terminator, so AddressSanitizer sees a one-byte overread).
/// 2. Every failure is a located diagnostic inside the input.
/// 3. A success that rewrote no site reproduces the input byte for byte.
/// 4. The `#line` directives map the output back to the input: one names
///    the header's line before each asm, one goes before its operand lists,
///    and every line copied from the input is the line they say it is.
/// 5. Without directives the output is the same, less the directive lines.
/// 6. Every argument marker it writes names its variable with one token
///    (checked where the input holds no marker text of its own).
///
/// Any violation aborts, which libFuzzer reports as a crash.
///
//===----------------------------------------------------------------------===//

#include "mmptx/Annotate/Annotate.h"
#include "mmptx/Support/Diagnostic.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

using namespace llvm;
using namespace mmptx;

static void check(bool Cond, const char *What) {
  if (!Cond) {
    fprintf(stderr, "annotate fuzzer: %s\n", What);
    abort();
  }
}

/// \returns the directive line number if \p Line (terminator included) is
/// `#line N "<name>"`, else 0.
static unsigned getDirectiveLine(StringRef Line, StringRef Name) {
  unsigned N;
  if (Line.consume_back("\n"))
    Line.consume_back("\r");
  if (!Line.consume_front("#line ") ||
      !Line.consume_back((" \"" + Name + "\"").str()) ||
      Line.getAsInteger(10, N))
    return 0;
  return N;
}

/// Checks 4 and 5 on the output \p Out (with directives naming \p Name) and
/// \p Plain (without) of \p Input. Each site gives `#line <header>`, the
/// asm, `#line <n>` and the two operand lines, which are lines n and n + 1;
/// then, once the line of its `*/` ends, `#line <next line>` again.
static void checkLineDirectives(StringRef Input, StringRef Out, StringRef Plain,
                                StringRef Name) {
  SmallVector<StringRef, 0> InLines;
  Input.split(InLines, '\n');
  enum { Copied, Asm, Operands } State = Copied;
  bool AfterSite = false;
  unsigned Next = 1, Header = 0, OperandLines = 0;
  std::string Stripped;
  for (StringRef Rest = Out; !Rest.empty();) {
    size_t Nl = Rest.find('\n');
    StringRef Line = Rest.substr(0, Nl == StringRef::npos ? Nl : Nl + 1);
    Rest = Rest.drop_front(Line.size());
    unsigned N = getDirectiveLine(Line, Name);
    if (!N) {
      Stripped += Line;
      if (State == Copied) {
        check(Next <= InLines.size() && Line.rtrim('\n') == InLines[Next - 1],
              "an output line is not the input line #line says it is");
        ++Next;
      } else if (State == Operands && ++OperandLines == 2) {
        State = Copied;
      }
      continue;
    }
    check(State != Operands, "a #line among the operand lists");
    if (State == Asm) {
      check(N >= Header, "the operands' #line is before the header");
      Next = N + 2;
      OperandLines = 0;
      State = Operands;
      AfterSite = true;
    } else if (AfterSite) {
      check(N == Next, "the #line after a site names the wrong line");
      AfterSite = false;
    } else {
      check(N == Next, "the #line before a site does not name its header");
      Header = N;
      State = Asm;
    }
  }
  check(State != Asm, "an asm without the #line of its operands");
  check(Stripped == Plain, "#line directives change the rest of the output");
}

/// Every argument marker of \p Out (annotated \p Input) names its variable with
/// one token, as the parser of mmptx's markers requires.
static void checkMarkerNames(StringRef Input, StringRef Out) {
  StringRef Kw = "// MMPTX_INJECT_ARG ";
  if (Input.contains("MMPTX_INJECT_ARG"))
    return;
  for (size_t At = Out.find(Kw); At != StringRef::npos;
       At = Out.find(Kw, At + 1)) {
    StringRef Marker = Out.substr(At + Kw.size());
    Marker = Marker.take_front(Marker.find("\\n\\t\""));
    // index, kind, register type, type, then the name to the end.
    for (int Field = 0; Field != 4; ++Field)
      Marker = Marker.drop_front(std::min(Marker.find(' '), Marker.size()))
                   .drop_front();
    check(!Marker.empty() && Marker.find_first_of(" \t") == StringRef::npos,
          "an argument marker whose variable name has a blank");
  }
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  static const annotate::TypeTable Types = annotate::TypeTable::getDefault();
  StringRef Input(reinterpret_cast<const char *>(Data), Size);
  // A file name the input cannot contain, so that every `#line` naming it
  // comes from the rewriter: more `f`s than its longest run of them.
  size_t Run = 0, Longest = 0;
  for (char C : Input)
    Longest = std::max(Longest, Run = C == 'f' ? Run + 1 : 0);
  std::string Name(Longest + 1, 'f');
  SourceMgr Sm;
  unsigned Id = Sm.AddNewSourceBuffer(
      MemoryBuffer::getMemBuffer(Input, Name, /*RequiresNullTerminator=*/false),
      SMLoc());
  std::string Out;
  raw_string_ostream Os(Out);
  Expected<unsigned> NumSites = annotate::annotateSource(Sm, Id, Types, Os);
  if (!NumSites) {
    handleAllErrors(
        NumSites.takeError(),
        [&](const DiagnosticError &Diag) {
          const SMDiagnostic &D = Diag.getDiagnostic();
          check(D.getLineNo() > 0, "diagnostic without a line");
          check(D.getColumnNo() >= 0, "diagnostic without a column");
        },
        // The one unlocated error: the summary after the first located ones
        // when there are too many to report.
        [&](const StringError &E) {
          check(StringRef(E.getMessage()).startswith("too many broken"),
                "an unlocated error");
        });
    return 0;
  }
  Os.flush();
  if (*NumSites == 0)
    check(Out == Input, "output differs from an input without sites");
  std::string Plain;
  raw_string_ostream PlainOs(Plain);
  annotate::AnnotateOptions Opts;
  Opts.LineDirectives = false;
  Expected<unsigned> NumPlain =
      annotate::annotateSource(Sm, Id, Types, PlainOs, Opts);
  check(NumPlain && *NumPlain == *NumSites,
        "the same input fails or succeeds differently without #line");
  PlainOs.flush();
  checkLineDirectives(Input, Out, Plain, Name);
  checkMarkerNames(Input, Plain);
  return 0;
}
