//===- InstrTraits.cpp - Decoded traits of an instruction set -------------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "mmptx/Expr/InstrTraits.h"

using namespace mmptx;
using namespace mmptx::expr;
using stack::ArgTypeInfo;
using stack::PtxInstrDesc;
using stack::StackInfo;

InstrSetTraits::InstrSetTraits(const StackInfo &info, uint32_t targetSm)
    : info(info), targetSm(targetSm) {
  auto typeOk = [&](uint16_t a) {
    return a < info.numArgTypes && info.argTypes[a].stackIdx < info.numStacks &&
           info.argTypes[a].numVecElems <= 64;
  };
  instrs.resize(info.numInstrs);
  for (uint32_t i = 0; i != info.numInstrs; ++i) {
    const PtxInstrDesc &d = info.instrs[i];
    InstrTraits &t = instrs[i];
    t.tooNew = instrTooNewFor(i) != 0;
    if (d.numArgs > 4 || d.numRets < 1 || d.numRets > 2)
      continue;
    bool ok = true;
    for (unsigned a = 0; a != d.numArgs; ++a)
      ok &= typeOk(d.args[a]);
    for (unsigned r = 0; r != d.numRets; ++r)
      ok &= typeOk(d.rets[r]);
    if (!ok)
      continue;
    // Appends the element stacks of types \p types; \returns whether one
    // is a vector.
    auto addElems = [&](const uint16_t *types, unsigned n) {
      bool vec = false;
      for (unsigned k = 0; k != n; ++k) {
        const ArgTypeInfo &at = info.argTypes[types[k]];
        vec |= at.numVecElems != 0;
        elemStacks.insert(elemStacks.end(), at.numVecElems ? at.numVecElems : 1,
                          at.stackIdx);
      }
      return vec;
    };
    t.argElemBegin = uint32_t(elemStacks.size());
    t.hasVectorArgs = addElems(d.args, d.numArgs);
    t.numArgElems = uint16_t(elemStacks.size() - t.argElemBegin);
    t.retElemBegin = uint32_t(elemStacks.size());
    t.hasVectorRets = addElems(d.rets, d.numRets);
    t.numRetElems = uint16_t(elemStacks.size() - t.retElemBegin);
    t.wellFormed = true;
  }
  specials.resize(info.numSpecials);
  for (uint32_t i = 0; i != info.numSpecials; ++i) {
    SpecialTraits &s = specials[i];
    uint16_t a = info.specials[i].argType;
    s.tooNew = specialTooNewFor(i) != 0;
    if (!typeOk(a) || info.argTypes[a].numVecElems > 4)
      continue;
    s.wellFormed = true;
    s.stack = info.argTypes[a].stackIdx;
    s.numVecElems = info.argTypes[a].numVecElems;
  }
}
