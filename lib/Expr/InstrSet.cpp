//===- InstrSet.cpp - The instruction set both front ends share -----------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Table checks and look-ups, and the default tables generated from
/// td/StackInstrs.td.
///
//===----------------------------------------------------------------------===//

#include "mmptx/Expr/InstrSet.h"

#include "mmptx/Support/Diagnostic.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"

using namespace llvm;
using namespace mmptx;
using namespace mmptx::expr;

namespace {
namespace defaults {
#define GET_STACK_TABLES
#include "mmptx/Expr/DefaultInstrSet.inc"
} // namespace defaults
} // namespace

const InstrSet &expr::getDefaultInstrSet() { return defaults::stackInfo; }

static bool nonEmpty(const char *S) { return S && *S; }

Error InstrSet::verify() const {
  if (NumStacks > 65535)
    return makeError("too many stacks (" + Twine(NumStacks) + ")");
  if (NumStacks && (!StackNames || !LiteralPrefixes))
    return makeError("stack tables are missing");
  for (uint32_t I = 0; I != NumStacks; ++I)
    if (!nonEmpty(StackNames[I]) || !nonEmpty(LiteralPrefixes[I]))
      return makeError("stack " + Twine(I) + " has no name or prefix");
  if (NumArgTypes > 65535 || (NumArgTypes && !ArgTypes))
    return makeError("bad arg type table");
  for (uint32_t I = 0; I != NumArgTypes; ++I) {
    if (ArgTypes[I].StackIdx >= NumStacks)
      return makeError("arg type " + Twine(I) + " has stack index " +
                       Twine(ArgTypes[I].StackIdx) + " out of range");
    if (ArgTypes[I].NumVecElems > 64)
      return makeError("arg type " + Twine(I) + " has more than 64 elements");
  }
  if (NumInstrs && (!Instrs || !InstrPtx || !InstrNames))
    return makeError("instruction tables are missing");
  for (uint32_t I = 0; I != NumInstrs; ++I) {
    const PtxInstrDesc &D = Instrs[I];
    if (!nonEmpty(InstrPtx[I]) || !nonEmpty(InstrNames[I]))
      return makeError("instruction " + Twine(I) + " has no opcode or name");
    if (D.NumArgs > 4 || D.NumRets < 1 || D.NumRets > 2)
      return makeError("instruction '" + Twine(InstrNames[I]) +
                       "' needs 0-4 args and 1-2 rets");
    for (unsigned A = 0; A != D.NumArgs; ++A)
      if (D.Args[A] >= NumArgTypes)
        return makeError("instruction '" + Twine(InstrNames[I]) +
                         "' has arg type " + Twine(D.Args[A]) +
                         " out of range");
    for (unsigned R = 0; R != D.NumRets; ++R)
      if (D.Rets[R] >= NumArgTypes)
        return makeError("instruction '" + Twine(InstrNames[I]) +
                         "' has ret type " + Twine(D.Rets[R]) +
                         " out of range");
  }
  if (NumSpecials && (!Specials || !SpecialPtx || !SpecialNames))
    return makeError("special register tables are missing");
  for (uint32_t I = 0; I != NumSpecials; ++I) {
    if (!nonEmpty(SpecialPtx[I]) || !nonEmpty(SpecialNames[I]))
      return makeError("special register " + Twine(I) + " has no name");
    if (Specials[I].TheArgType >= NumArgTypes ||
        ArgTypes[Specials[I].TheArgType].NumVecElems > 4)
      return makeError("special register '" + Twine(SpecialNames[I]) +
                       "' has a bad arg type");
  }
  return Error::success();
}

static int findIn(const char *const *Names, uint32_t N, StringRef Name) {
  for (uint32_t I = 0; I != N; ++I)
    if (Name == Names[I])
      return int(I);
  return -1;
}

int InstrSet::findStack(StringRef Name) const {
  return findIn(StackNames, NumStacks, Name);
}
int InstrSet::findInstr(StringRef Name) const {
  return findIn(InstrNames, NumInstrs, Name);
}
int InstrSet::findSpecial(StringRef Name) const {
  return findIn(SpecialNames, NumSpecials, Name);
}
