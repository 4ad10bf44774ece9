//===- InstrTraits.h - Decoded traits of an instruction set -----*- C++ -*-===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// What the expression compilers (Stack PTX, AST PTX) need of the
/// instructions and special registers of an instruction set (the TableGen
/// tables of mmptx/Expr/InstrSet.h), decoded once per table and target:
/// the stack of every flattened operand and result element, vector shapes,
/// and whether an entry is usable at all. An entry with a bad index is
/// marked malformed, never trusted, so a broken table cannot crash a
/// compiler.
///
//===----------------------------------------------------------------------===//

#ifndef MMPTX_EXPR_INSTRTRAITS_H
#define MMPTX_EXPR_INSTRTRAITS_H

#include "mmptx/Expr/InstrSet.h"

#include "llvm/ADT/ArrayRef.h"

#include <cstdint>
#include <vector>

namespace mmptx {
namespace expr {

/// One instruction. Element stacks are in InstrSetTraits::getElemStacks():
/// the args' at ArgElemBegin, then the rets' at RetElemBegin, each vector
/// operand flattened to its elements.
struct InstrTraits {
  /// 0-4 args and 1-2 rets whose types and stacks are in range.
  bool WellFormed = false;
  /// It needs a newer target than the one the traits were decoded for.
  bool TooNew = false;
  bool HasVectorArgs = false;
  bool HasVectorRets = false;
  uint16_t NumArgElems = 0, NumRetElems = 0;
  uint32_t ArgElemBegin = 0, RetElemBegin = 0;

  bool isUsable() const { return WellFormed && !TooNew; }
};

/// One special register.
struct SpecialTraits {
  /// Its type is in range with at most 4 elements.
  bool WellFormed = false;
  bool TooNew = false;
  uint16_t Stack = 0;
  uint16_t NumVecElems = 0; ///< 0 for a scalar

  bool isUsable() const { return WellFormed && !TooNew; }
};

/// The traits of every instruction and special register of a table, for
/// one target (`sm_XX` as XX, or 0 for none).
class InstrSetTraits {
public:
  InstrSetTraits(const InstrSet &Info, uint32_t TargetSm);

  const InstrSet &getInfo() const { return Info; }
  uint32_t getTargetSm() const { return TargetSm; }
  llvm::ArrayRef<InstrTraits> getInstrs() const { return Instrs; }
  const InstrTraits &getInstr(uint32_t I) const { return Instrs[I]; }
  llvm::ArrayRef<SpecialTraits> getSpecials() const { return Specials; }
  llvm::ArrayRef<uint16_t> getElemStacks() const { return ElemStacks; }
  const uint16_t *getArgElemStacks(uint32_t I) const {
    return ElemStacks.data() + Instrs[I].ArgElemBegin;
  }
  const uint16_t *getRetElemStacks(uint32_t I) const {
    return ElemStacks.data() + Instrs[I].RetElemBegin;
  }
  /// \returns the minimum sm of instruction \p I if it exceeds the target
  /// (the reason it is not usable), else 0.
  uint32_t instrTooNewFor(uint32_t I) const {
    return tooNewFor(Info.InstrMinSm, Info.NumInstrs, I);
  }
  uint32_t specialTooNewFor(uint32_t I) const {
    return tooNewFor(Info.SpecialMinSm, Info.NumSpecials, I);
  }

private:
  uint32_t tooNewFor(const uint16_t *MinSm, uint32_t N, uint32_t I) const {
    return TargetSm && MinSm && I < N && MinSm[I] > TargetSm ? MinSm[I] : 0;
  }

  const InstrSet &Info;
  uint32_t TargetSm;
  std::vector<InstrTraits> Instrs;
  std::vector<SpecialTraits> Specials;
  std::vector<uint16_t> ElemStacks;
};

} // namespace expr
} // namespace mmptx

#endif // MMPTX_EXPR_INSTRTRAITS_H
