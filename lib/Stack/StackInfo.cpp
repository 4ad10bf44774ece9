//===- StackInfo.cpp - Stack PTX tables -----------------------------------===//
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

#include "mmptx/Stack/StackInfo.h"

#include "mmptx/Support/Diagnostic.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"

using namespace llvm;
using namespace mmptx;
using namespace mmptx::stack;

namespace {
namespace defaults {
#define GET_STACK_TABLES
#include "mmptx/Stack/StackInstrs.inc"
} // namespace defaults
} // namespace

const StackInfo &stack::getDefaultStackInfo() { return defaults::stackInfo; }

static bool nonEmpty(const char *s) { return s && *s; }

Error StackInfo::verify() const {
  if (numStacks > 65535)
    return makeError("too many stacks (" + Twine(numStacks) + ")");
  if (numStacks && (!stackNames || !literalPrefixes))
    return makeError("stack tables are missing");
  for (uint32_t i = 0; i != numStacks; ++i)
    if (!nonEmpty(stackNames[i]) || !nonEmpty(literalPrefixes[i]))
      return makeError("stack " + Twine(i) + " has no name or prefix");
  if (numArgTypes > 65535 || (numArgTypes && !argTypes))
    return makeError("bad arg type table");
  for (uint32_t i = 0; i != numArgTypes; ++i) {
    if (argTypes[i].stackIdx >= numStacks)
      return makeError("arg type " + Twine(i) + " has stack index " +
                       Twine(argTypes[i].stackIdx) + " out of range");
    if (argTypes[i].numVecElems > 64)
      return makeError("arg type " + Twine(i) + " has more than 64 elements");
  }
  if (numInstrs && (!instrs || !instrPtx || !instrNames))
    return makeError("instruction tables are missing");
  for (uint32_t i = 0; i != numInstrs; ++i) {
    const PtxInstrDesc &d = instrs[i];
    if (!nonEmpty(instrPtx[i]) || !nonEmpty(instrNames[i]))
      return makeError("instruction " + Twine(i) + " has no opcode or name");
    if (d.numArgs > 4 || d.numRets < 1 || d.numRets > 2)
      return makeError("instruction '" + Twine(instrNames[i]) +
                       "' needs 0-4 args and 1-2 rets");
    for (unsigned a = 0; a != d.numArgs; ++a)
      if (d.args[a] >= numArgTypes)
        return makeError("instruction '" + Twine(instrNames[i]) +
                         "' has arg type " + Twine(d.args[a]) +
                         " out of range");
    for (unsigned r = 0; r != d.numRets; ++r)
      if (d.rets[r] >= numArgTypes)
        return makeError("instruction '" + Twine(instrNames[i]) +
                         "' has ret type " + Twine(d.rets[r]) +
                         " out of range");
  }
  if (numSpecials && (!specials || !specialPtx || !specialNames))
    return makeError("special register tables are missing");
  for (uint32_t i = 0; i != numSpecials; ++i) {
    if (!nonEmpty(specialPtx[i]) || !nonEmpty(specialNames[i]))
      return makeError("special register " + Twine(i) + " has no name");
    if (specials[i].argType >= numArgTypes ||
        argTypes[specials[i].argType].numVecElems > 4)
      return makeError("special register '" + Twine(specialNames[i]) +
                       "' has a bad arg type");
  }
  return Error::success();
}

static int findIn(const char *const *names, uint32_t n, StringRef name) {
  for (uint32_t i = 0; i != n; ++i)
    if (name == names[i])
      return int(i);
  return -1;
}

int StackInfo::findStack(StringRef name) const {
  return findIn(stackNames, numStacks, name);
}
int StackInfo::findInstr(StringRef name) const {
  return findIn(instrNames, numInstrs, name);
}
int StackInfo::findSpecial(StringRef name) const {
  return findIn(specialNames, numSpecials, name);
}
