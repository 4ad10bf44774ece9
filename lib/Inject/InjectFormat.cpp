//===- InjectFormat.cpp - The inject-site format --------------------------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "mmptx/Inject/InjectFormat.h"

using namespace llvm;
using namespace mmptx;

StringRef mmptx::getInjectArgKindName(InjectArgKind Kind) {
  switch (Kind) {
  case InjectArgKind::Out:
    return "out";
  case InjectArgKind::Mod:
    return "mod";
  case InjectArgKind::In:
    return "in";
  }
  return "?";
}

static const ScaffoldSection Sections[] = {
    ScaffoldSection::Decls, ScaffoldSection::MovesIn, ScaffoldSection::Markers,
    ScaffoldSection::Stub, ScaffoldSection::MovesOut};

ArrayRef<ScaffoldSection> mmptx::getScaffoldSections() { return Sections; }

bool mmptx::scaffoldMovesIn(InjectArgKind Kind) {
  return Kind != InjectArgKind::Out;
}

bool mmptx::scaffoldMovesOut(InjectArgKind Kind) {
  return Kind != InjectArgKind::In;
}

void mmptx::writeScaffoldDecl(const Twine &RegType, const Twine &Stable,
                              ScaffoldLineFn Line) {
  Line(".reg ." + RegType + " " + Stable + ";");
}

void mmptx::writeScaffoldMoveIn(const Twine &MovSuffix, const Twine &Stable,
                                const Twine &Outer, ScaffoldLineFn Line) {
  Line("mov." + MovSuffix + " " + Stable + ", " + Outer + ";");
}

void mmptx::writeScaffoldMoveOut(const Twine &MovSuffix, const Twine &Outer,
                                 const Twine &Stable, ScaffoldLineFn Line) {
  Line("mov." + MovSuffix + " " + Outer + ", " + Stable + ";");
}

void mmptx::writeBeginMarker(const Twine &Name, const Twine &NumVars,
                             ScaffoldLineFn Line) {
  Line("// MMPTX_INJECT_BEGIN " + Name + " " + NumVars);
}

void mmptx::writeArgMarker(const Twine &Index, const Twine &Kind,
                           const Twine &RegType, const Twine &TypeToken,
                           const Twine &Label, ScaffoldLineFn Line) {
  Line("// MMPTX_INJECT_ARG " + Index + " " + Kind + " " + RegType + " " +
       TypeToken + " " + Label);
}

void mmptx::writeEndMarker(const Twine &Name, ScaffoldLineFn Line) {
  Line("// MMPTX_INJECT_END " + Name);
}

void mmptx::writeSiteScaffold(StringRef Name, ArrayRef<ScaffoldVar> Vars,
                              StringRef StablePrefix, bool WithMarkers,
                              ScaffoldLineFn Line,
                              function_ref<void()> AtStub) {
  size_t N = Vars.size();
  for (ScaffoldSection Section : Sections) {
    switch (Section) {
    case ScaffoldSection::Decls:
      for (size_t I = 0; I != N; ++I)
        writeScaffoldDecl(Vars[I].RegType, StablePrefix + Twine(I), Line);
      break;
    case ScaffoldSection::MovesIn:
      for (size_t I = 0; I != N; ++I)
        if (scaffoldMovesIn(Vars[I].Kind))
          writeScaffoldMoveIn(Vars[I].MovSuffix, StablePrefix + Twine(I),
                              Vars[I].Outer, Line);
      break;
    case ScaffoldSection::Markers:
      if (!WithMarkers)
        break;
      writeBeginMarker(Name, Twine(N), Line);
      for (size_t I = 0; I != N; ++I)
        writeArgMarker(Twine(I), getInjectArgKindName(Vars[I].Kind),
                       Vars[I].RegType, Vars[I].TypeToken, Vars[I].Label, Line);
      writeEndMarker(Name, Line);
      break;
    case ScaffoldSection::Stub:
      AtStub();
      break;
    case ScaffoldSection::MovesOut:
      for (size_t I = 0; I != N; ++I)
        if (scaffoldMovesOut(Vars[I].Kind))
          writeScaffoldMoveOut(Vars[I].MovSuffix, Vars[I].Outer,
                               StablePrefix + Twine(I), Line);
      break;
    }
  }
}
