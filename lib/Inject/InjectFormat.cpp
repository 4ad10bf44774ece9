//===- InjectFormat.cpp - The inject-site format --------------------------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "mmptx/Inject/InjectFormat.h"

using namespace llvm;
using namespace mmptx;

StringRef mmptx::getInjectArgKindName(InjectArgKind kind) {
  switch (kind) {
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

void mmptx::writeSiteScaffold(StringRef name, ArrayRef<ScaffoldVar> vars,
                              StringRef stablePrefix, bool withMarkers,
                              ScaffoldLineFn line,
                              function_ref<void()> atStub) {
  size_t n = vars.size();
  for (ScaffoldSection section : Sections) {
    switch (section) {
    case ScaffoldSection::Decls:
      for (size_t i = 0; i != n; ++i)
        writeScaffoldDecl(vars[i].regType, stablePrefix + Twine(i), line);
      break;
    case ScaffoldSection::MovesIn:
      for (size_t i = 0; i != n; ++i)
        if (scaffoldMovesIn(vars[i].kind))
          writeScaffoldMoveIn(vars[i].movSuffix, stablePrefix + Twine(i),
                              vars[i].outer, line);
      break;
    case ScaffoldSection::Markers:
      if (!withMarkers)
        break;
      writeBeginMarker(name, Twine(n), line);
      for (size_t i = 0; i != n; ++i)
        writeArgMarker(Twine(i), getInjectArgKindName(vars[i].kind),
                       vars[i].regType, vars[i].typeToken, vars[i].label, line);
      writeEndMarker(name, line);
      break;
    case ScaffoldSection::Stub:
      atStub();
      break;
    case ScaffoldSection::MovesOut:
      for (size_t i = 0; i != n; ++i)
        if (scaffoldMovesOut(vars[i].kind))
          writeScaffoldMoveOut(vars[i].movSuffix, vars[i].outer,
                               stablePrefix + Twine(i), line);
      break;
    }
  }
}
