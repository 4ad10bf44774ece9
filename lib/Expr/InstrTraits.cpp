//===- InstrTraits.cpp - Decoded traits of an instruction set -------------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "mmptx/Expr/InstrTraits.h"

using namespace mmptx;
using namespace mmptx::expr;

InstrSetTraits::InstrSetTraits(const InstrSet &Info, uint32_t TargetSm)
    : Info(Info), TargetSm(TargetSm) {
  auto TypeOk = [&](uint16_t A) {
    return A < Info.NumArgTypes && Info.ArgTypes[A].StackIdx < Info.NumStacks &&
           Info.ArgTypes[A].NumVecElems <= 64;
  };
  Instrs.resize(Info.NumInstrs);
  for (uint32_t I = 0; I != Info.NumInstrs; ++I) {
    const PtxInstrDesc &D = Info.Instrs[I];
    InstrTraits &T = Instrs[I];
    T.TooNew = instrTooNewFor(I) != 0;
    if (D.NumArgs > 4 || D.NumRets < 1 || D.NumRets > 2)
      continue;
    bool Ok = true;
    for (unsigned A = 0; A != D.NumArgs; ++A)
      Ok &= TypeOk(D.Args[A]);
    for (unsigned R = 0; R != D.NumRets; ++R)
      Ok &= TypeOk(D.Rets[R]);
    if (!Ok)
      continue;
    // Appends the element stacks of types \p types; \returns whether one
    // is a vector.
    auto AddElems = [&](const uint16_t *Types, unsigned N) {
      bool Vec = false;
      for (unsigned K = 0; K != N; ++K) {
        const ArgTypeInfo &At = Info.ArgTypes[Types[K]];
        Vec |= At.NumVecElems != 0;
        ElemStacks.insert(ElemStacks.end(), At.NumVecElems ? At.NumVecElems : 1,
                          At.StackIdx);
      }
      return Vec;
    };
    T.ArgElemBegin = uint32_t(ElemStacks.size());
    T.HasVectorArgs = AddElems(D.Args, D.NumArgs);
    T.NumArgElems = uint16_t(ElemStacks.size() - T.ArgElemBegin);
    T.RetElemBegin = uint32_t(ElemStacks.size());
    T.HasVectorRets = AddElems(D.Rets, D.NumRets);
    T.NumRetElems = uint16_t(ElemStacks.size() - T.RetElemBegin);
    T.WellFormed = true;
  }
  Specials.resize(Info.NumSpecials);
  for (uint32_t I = 0; I != Info.NumSpecials; ++I) {
    SpecialTraits &S = Specials[I];
    uint16_t A = Info.Specials[I].TheArgType;
    S.TooNew = specialTooNewFor(I) != 0;
    if (!TypeOk(A) || Info.ArgTypes[A].NumVecElems > 4)
      continue;
    S.WellFormed = true;
    S.Stack = Info.ArgTypes[A].StackIdx;
    S.NumVecElems = Info.ArgTypes[A].NumVecElems;
  }
}
