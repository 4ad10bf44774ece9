//===- InjectFormat.cpp - The inject-site format --------------------------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "mmptx/Inject/InjectFormat.h"

using namespace llvm;
using namespace mmptx;

static const InjectType BuiltinTypes[] = {
#define GET_INJECT_TYPE_LIST
#define MMPTX_INJECT_TYPE(ID, TOKEN, REGTYPE, MOVSUFFIX, CONSTRAINT, BIND,     \
                          BITS)                                                \
  {TOKEN, REGTYPE, MOVSUFFIX, CONSTRAINT, BITS, InjectBind::BIND},
#include "mmptx/Inject/InjectTypes.inc"
};

ArrayRef<InjectType> mmptx::getBuiltinInjectTypes() { return BuiltinTypes; }

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

void mmptx::writeSiteScaffold(StringRef name, ArrayRef<ScaffoldVar> vars,
                              StringRef stablePrefix, bool withMarkers,
                              function_ref<void(const Twine &)> line,
                              function_ref<void()> atStub) {
  for (size_t i = 0, n = vars.size(); i != n; ++i)
    line(".reg ." + vars[i].regType + " " + stablePrefix + Twine(i) + ";");
  for (size_t i = 0, n = vars.size(); i != n; ++i)
    if (vars[i].kind != InjectArgKind::Out)
      line("mov." + vars[i].movSuffix + " " + stablePrefix + Twine(i) + ", " +
           vars[i].outer + ";");
  if (withMarkers) {
    line("// MMPTX_INJECT_BEGIN " + name + " " + Twine(vars.size()));
    for (size_t i = 0, n = vars.size(); i != n; ++i)
      line("// MMPTX_INJECT_ARG " + Twine(i) + " " +
           getInjectArgKindName(vars[i].kind) + " " + vars[i].regType + " " +
           vars[i].typeToken + " " + vars[i].label);
    line("// MMPTX_INJECT_END " + name);
  }
  atStub();
  for (size_t i = 0, n = vars.size(); i != n; ++i)
    if (vars[i].kind != InjectArgKind::In)
      line("mov." + vars[i].movSuffix + " " + vars[i].outer + ", " +
           stablePrefix + Twine(i) + ";");
}
