//===- InjectDeviceFormatEmitter.cpp - Device-header site format ----------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// -gen-inject-device-format: the asm template of a site, as the C
/// preprocessor macros that mmptx/cuda/ptx_inject.h builds each site's
/// `asm volatile` from. The text comes from the scaffold writers of
/// mmptx/Inject/InjectFormat.h, called with macro parameters in place of
/// values, so the device header writes what normalize, render and annotate
/// write. The records of the input file are not read.
///
///   MMPTX_FMT_DECL_(reg, i)           one line each, ending in "\n\t"
///   MMPTX_FMT_MOVIN_<kind>(mov, i, op)    (empty for kinds without it)
///   MMPTX_FMT_ARG_(i, kind, reg, T, label)
///   MMPTX_FMT_MOVOUT_<kind>(mov, i, op)
///   MMPTX_FMT_KIND_<kind>             "in", "mod", "out"
///   MMPTX_FMT_SITE_(name, n, decls, movins, args, movouts)   the template
///
/// <kind> is mmptx_in, mmptx_mod or mmptx_out; i, n and op are numbers,
/// the others string literals.
///
//===----------------------------------------------------------------------===//

#include "Emitters.h"
#include "mmptx/Inject/InjectFormat.h"

#include "llvm/TableGen/Record.h"
#include "llvm/TableGen/TableGenBackend.h"

using namespace llvm;
using namespace mmptx;

/// Marks the macro text \p Text as a parameter inside a line.
static std::string param(StringRef Text) {
  return ("\x01" + Text + "\x02").str();
}

/// A number parameter, stringified.
static std::string number(StringRef Name) {
  return param(("MMPTX_FMT_STR_(" + Name + ")").str());
}

/// \returns \p Line as C tokens: string literals for its text, the
/// parameters as they are; with the asm line separator "\n\t".
static std::string toC(StringRef Line) {
  std::string Out;
  bool InLiteral = false;
  auto Open = [&] {
    if (!InLiteral)
      Out += Out.empty() ? "\"" : " \"";
    InLiteral = true;
  };
  for (size_t I = 0, E = Line.size(); I != E; ++I) {
    char C = Line[I];
    if (C == '\x01') {
      size_t End = Line.find('\x02', I);
      if (InLiteral)
        Out += '"';
      InLiteral = false;
      Out += (Out.empty() ? "" : " ") + Line.slice(I + 1, End).str();
      I = End;
      continue;
    }
    Open();
    if (C == '"' || C == '\\')
      Out += '\\';
    Out += C;
  }
  Open();
  Out += "\\n\\t\"";
  return Out;
}

/// Writes `#define Head Body` where Body is the line \p Writer passes on.
static void defineLine(raw_ostream &OS, StringRef Head,
                       function_ref<void(ScaffoldLineFn)> Writer) {
  std::string Line;
  Writer([&](const Twine &T) { Line = T.str(); });
  OS << "#define " << Head << " " << toC(Line) << "\n";
}

void mmptx::emitInjectDeviceFormat(RecordKeeper &, raw_ostream &OS) {
  emitSourceFileHeader("Inject-site format for mmptx/cuda/ptx_inject.h", OS);
  OS << "#pragma once\n\n"
     << "#define MMPTX_FMT_STR_(x) MMPTX_FMT_STR_I_(x)\n"
     << "#define MMPTX_FMT_STR_I_(x) #x\n\n";
  // Stable registers are `%_x<i>`, with the asm template's `%%`.
  std::string Stable = "%%" + StableRegisterPrefix.str() + number("i");
  std::string Outer = "%" + number("op");
  std::string Reg = param("reg"), Mov = param("mov");
  defineLine(OS, "MMPTX_FMT_DECL_(reg, i)",
             [&](ScaffoldLineFn L) { writeScaffoldDecl(Reg, Stable, L); });
  defineLine(OS, "MMPTX_FMT_MOVIN_(mov, i, op)", [&](ScaffoldLineFn L) {
    writeScaffoldMoveIn(Mov, Stable, Outer, L);
  });
  defineLine(OS, "MMPTX_FMT_MOVOUT_(mov, i, op)", [&](ScaffoldLineFn L) {
    writeScaffoldMoveOut(Mov, Outer, Stable, L);
  });
  defineLine(OS, "MMPTX_FMT_BEGIN_(name, n)", [&](ScaffoldLineFn L) {
    writeBeginMarker(param("name"), number("n"), L);
  });
  defineLine(OS, "MMPTX_FMT_ARG_(i, kind, reg, T, label)",
             [&](ScaffoldLineFn L) {
               writeArgMarker(number("i"), param("kind"), Reg, param("T"),
                              param("label"), L);
             });
  defineLine(OS, "MMPTX_FMT_END_(name)",
             [&](ScaffoldLineFn L) { writeEndMarker(param("name"), L); });
  OS << "\n";

  for (InjectArgKind Kind :
       {InjectArgKind::In, InjectArgKind::Mod, InjectArgKind::Out}) {
    std::string K = ("mmptx_" + getInjectArgKindName(Kind)).str();
    OS << "#define MMPTX_FMT_KIND_" << K << " \"" << getInjectArgKindName(Kind)
       << "\"\n";
    OS << "#define MMPTX_FMT_MOVIN_" << K << "(mov, i, op)"
       << (scaffoldMovesIn(Kind) ? " MMPTX_FMT_MOVIN_(mov, i, op)" : "")
       << "\n";
    OS << "#define MMPTX_FMT_MOVOUT_" << K << "(mov, i, op)"
       << (scaffoldMovesOut(Kind) ? " MMPTX_FMT_MOVOUT_(mov, i, op)" : "")
       << "\n";
  }
  OS << "\n";

  // The sections in the writer's order; the stub goes in later.
  OS << "#define MMPTX_FMT_SITE_(name, n, decls, movins, args, movouts) "
        "\"{\\n\\t\"";
  for (ScaffoldSection Section : getScaffoldSections()) {
    switch (Section) {
    case ScaffoldSection::Decls:
      OS << " decls";
      break;
    case ScaffoldSection::MovesIn:
      OS << " movins";
      break;
    case ScaffoldSection::Markers:
      OS << " MMPTX_FMT_BEGIN_(name, n) args MMPTX_FMT_END_(name)";
      break;
    case ScaffoldSection::Stub:
      break;
    case ScaffoldSection::MovesOut:
      OS << " movouts";
      break;
    }
  }
  OS << " \"}\"\n";
}
