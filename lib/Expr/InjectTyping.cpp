//===- InjectTyping.cpp - Typing expression programs against sites --------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "mmptx/Expr/InjectTyping.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Twine.h"

using namespace llvm;
using namespace mmptx;
using namespace mmptx::expr;
using stack::StackInfo;

StringRef expr::getStackRegType(const StackInfo &info, unsigned s) {
  StringRef name = info.stackNames[s];
  for (const InjectType &t : getBuiltinInjectTypes())
    if (t.token == name)
      return t.regType;
  return info.literalPrefixes[s];
}

int expr::findStackOf(const StackInfo &info, const SiteVar &v) {
  int s = info.findStack(v.typeToken);
  if (v.regType.empty())
    return s;
  if (s >= 0 && getStackRegType(info, s) == v.regType)
    return s;
  int found = -1;
  for (unsigned i = 0; i != info.numStacks; ++i)
    if (getStackRegType(info, i) == v.regType)
      found = found == -1 ? int(i) : -2;
  return found;
}

std::string expr::describeMissingStack(const StackInfo &info,
                                       const SiteVar &v) {
  std::string candidates;
  for (unsigned i = 0; i != info.numStacks; ++i)
    if (!v.regType.empty() && getStackRegType(info, i) == v.regType)
      candidates +=
          (candidates.empty() ? "" : ", ") + std::string(info.stackNames[i]);
  std::string what =
      ("variable '" + v.name + "' has inject type '" + v.typeToken + "'").str();
  if (!v.regType.empty())
    what += (" in a ." + v.regType + " register").str();
  if (candidates.empty())
    return what + ", which no stack of the instruction set holds";
  return what + ", which stacks " + candidates +
         " all hold: declare it in '.registers' on one of them";
}

const SiteVar *expr::findSiteVar(ArrayRef<SiteVar> vars, StringRef name) {
  auto it = find_if(vars, [&](const SiteVar &v) {
    return v.name == name || v.stableRegister == name;
  });
  return it == vars.end() ? nullptr : &*it;
}

std::string expr::checkSiteVarUse(const StackInfo &info, StringRef injectName,
                                  const SiteVar &v, unsigned stack,
                                  InjectArgKind kind) {
  if (stack >= info.numStacks) // used without a declaration
    return describeMissingStack(info, v);
  int s = findStackOf(info, v);
  if (s < 0 && v.regType.empty())
    return describeMissingStack(info, v);
  if (s >= 0 && unsigned(s) != stack &&
      (info.findStack(v.typeToken) == s ||
       v.regType.empty())) // a type with a stack of its own
    return ("variable '" + v.name + "' of inject '" + injectName + "' is " +
            v.typeToken + ", not " + info.stackNames[stack])
        .str();
  // A user type may be restated on any stack of its register type.
  if (unsigned(s) != stack && getStackRegType(info, stack) != v.regType)
    return ("variable '" + v.name + "' of inject '" + injectName +
            "' has inject type '" + v.typeToken + "' in a ." + v.regType +
            " register, but stack " + info.stackNames[stack] + " holds ." +
            getStackRegType(info, stack))
        .str();
  if (kind != v.kind && v.kind != InjectArgKind::Mod)
    return ("variable '" + v.name + "' of inject '" + injectName + "' is '" +
            getInjectArgKindName(v.kind) + "', not '" +
            getInjectArgKindName(kind) + "'")
        .str();
  return "";
}
