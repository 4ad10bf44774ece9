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

StringRef expr::getStackRegType(const InstrSet &Info, unsigned S) {
  StringRef Name = Info.StackNames[S];
  for (const InjectType &T : getBuiltinInjectTypes())
    if (T.TheToken == Name)
      return T.RegType;
  return Info.LiteralPrefixes[S];
}

int expr::findStackOf(const InstrSet &Info, const SiteVar &V) {
  int S = Info.findStack(V.TypeToken);
  if (V.RegType.empty())
    return S;
  if (S >= 0 && getStackRegType(Info, S) == V.RegType)
    return S;
  int Found = -1;
  for (unsigned I = 0; I != Info.NumStacks; ++I)
    if (getStackRegType(Info, I) == V.RegType)
      Found = Found == -1 ? int(I) : -2;
  return Found;
}

std::string expr::describeMissingStack(const InstrSet &Info, const SiteVar &V) {
  std::string Candidates;
  for (unsigned I = 0; I != Info.NumStacks; ++I)
    if (!V.RegType.empty() && getStackRegType(Info, I) == V.RegType)
      Candidates +=
          (Candidates.empty() ? "" : ", ") + std::string(Info.StackNames[I]);
  std::string What =
      ("variable '" + V.Name + "' has inject type '" + V.TypeToken + "'").str();
  if (!V.RegType.empty())
    What += (" in a ." + V.RegType + " register").str();
  if (Candidates.empty())
    return What + ", which no stack of the instruction set holds";
  return What + ", which stacks " + Candidates +
         " all hold: declare it in '.registers' on one of them";
}

const SiteVar *expr::findSiteVar(ArrayRef<SiteVar> Vars, StringRef Name) {
  auto It = find_if(Vars, [&](const SiteVar &V) {
    return V.Name == Name || V.StableRegister == Name;
  });
  return It == Vars.end() ? nullptr : &*It;
}

std::string expr::checkSiteVarUse(const InstrSet &Info, StringRef InjectName,
                                  const SiteVar &V, unsigned Stack,
                                  InjectArgKind Kind) {
  if (Stack >= Info.NumStacks) // used without a declaration
    return describeMissingStack(Info, V);
  int S = findStackOf(Info, V);
  if (S < 0 && V.RegType.empty())
    return describeMissingStack(Info, V);
  if (S >= 0 && unsigned(S) != Stack &&
      (Info.findStack(V.TypeToken) == S ||
       V.RegType.empty())) // a type with a stack of its own
    return ("variable '" + V.Name + "' of inject '" + InjectName + "' is " +
            V.TypeToken + ", not " + Info.StackNames[Stack])
        .str();
  // A user type may be restated on any stack of its register type.
  if (unsigned(S) != Stack && getStackRegType(Info, Stack) != V.RegType)
    return ("variable '" + V.Name + "' of inject '" + InjectName +
            "' has inject type '" + V.TypeToken + "' in a ." + V.RegType +
            " register, but stack " + Info.StackNames[Stack] + " holds ." +
            getStackRegType(Info, Stack))
        .str();
  if (Kind != V.Kind && V.Kind != InjectArgKind::Mod)
    return ("variable '" + V.Name + "' of inject '" + InjectName + "' is '" +
            getInjectArgKindName(V.Kind) + "', not '" +
            getInjectArgKindName(Kind) + "'")
        .str();
  return "";
}
