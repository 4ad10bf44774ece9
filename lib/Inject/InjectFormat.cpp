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

bool mmptx::scaffoldMovesIn(InjectArgKind kind) {
  return kind != InjectArgKind::Out;
}

bool mmptx::scaffoldMovesOut(InjectArgKind kind) {
  return kind != InjectArgKind::In;
}

void mmptx::writeScaffoldDecl(const Twine &regType, const Twine &stable,
                              ScaffoldLineFn line) {
  line(".reg ." + regType + " " + stable + ";");
}

void mmptx::writeScaffoldMoveIn(const Twine &movSuffix, const Twine &stable,
                                const Twine &outer, ScaffoldLineFn line) {
  line("mov." + movSuffix + " " + stable + ", " + outer + ";");
}

void mmptx::writeScaffoldMoveOut(const Twine &movSuffix, const Twine &outer,
                                 const Twine &stable, ScaffoldLineFn line) {
  line("mov." + movSuffix + " " + outer + ", " + stable + ";");
}

void mmptx::writeBeginMarker(const Twine &name, const Twine &numVars,
                             ScaffoldLineFn line) {
  line("// MMPTX_INJECT_BEGIN " + name + " " + numVars);
}

void mmptx::writeArgMarker(const Twine &index, const Twine &kind,
                           const Twine &regType, const Twine &typeToken,
                           const Twine &label, ScaffoldLineFn line) {
  line("// MMPTX_INJECT_ARG " + index + " " + kind + " " + regType + " " +
       typeToken + " " + label);
}

void mmptx::writeEndMarker(const Twine &name, ScaffoldLineFn line) {
  line("// MMPTX_INJECT_END " + name);
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
