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
/// tables of mmptx/Stack/StackInfo.h), decoded once per table and target:
/// the stack of every flattened operand and result element, vector shapes,
/// and whether an entry is usable at all. An entry with a bad index is
/// marked malformed, never trusted, so a broken table cannot crash a
/// compiler.
///
//===----------------------------------------------------------------------===//

#ifndef MMPTX_EXPR_INSTRTRAITS_H
#define MMPTX_EXPR_INSTRTRAITS_H

#include "mmptx/Stack/StackInfo.h"

#include "llvm/ADT/ArrayRef.h"

#include <cstdint>
#include <vector>

namespace mmptx {
namespace expr {

/// One instruction. Element stacks are in InstrSetTraits::getElemStacks():
/// the args' at argElemBegin, then the rets' at retElemBegin, each vector
/// operand flattened to its elements.
struct InstrTraits {
  /// 0-4 args and 1-2 rets whose types and stacks are in range.
  bool wellFormed = false;
  /// It needs a newer target than the one the traits were decoded for.
  bool tooNew = false;
  bool hasVectorArgs = false;
  bool hasVectorRets = false;
  uint16_t numArgElems = 0, numRetElems = 0;
  uint32_t argElemBegin = 0, retElemBegin = 0;

  bool isUsable() const { return wellFormed && !tooNew; }
};

/// One special register.
struct SpecialTraits {
  /// Its type is in range with at most 4 elements.
  bool wellFormed = false;
  bool tooNew = false;
  uint16_t stack = 0;
  uint16_t numVecElems = 0; ///< 0 for a scalar

  bool isUsable() const { return wellFormed && !tooNew; }
};

/// The traits of every instruction and special register of a table, for
/// one target (`sm_XX` as XX, or 0 for none).
class InstrSetTraits {
public:
  InstrSetTraits(const stack::StackInfo &info, uint32_t targetSm);

  const stack::StackInfo &getInfo() const { return info; }
  uint32_t getTargetSm() const { return targetSm; }
  llvm::ArrayRef<InstrTraits> getInstrs() const { return instrs; }
  const InstrTraits &getInstr(uint32_t i) const { return instrs[i]; }
  llvm::ArrayRef<SpecialTraits> getSpecials() const { return specials; }
  llvm::ArrayRef<uint16_t> getElemStacks() const { return elemStacks; }
  const uint16_t *getArgElemStacks(uint32_t i) const {
    return elemStacks.data() + instrs[i].argElemBegin;
  }
  const uint16_t *getRetElemStacks(uint32_t i) const {
    return elemStacks.data() + instrs[i].retElemBegin;
  }
  /// \returns the minimum sm of instruction \p i if it exceeds the target
  /// (the reason it is not usable), else 0.
  uint32_t instrTooNewFor(uint32_t i) const {
    return tooNewFor(info.instrMinSm, info.numInstrs, i);
  }
  uint32_t specialTooNewFor(uint32_t i) const {
    return tooNewFor(info.specialMinSm, info.numSpecials, i);
  }

private:
  uint32_t tooNewFor(const uint16_t *minSm, uint32_t n, uint32_t i) const {
    return targetSm && minSm && i < n && minSm[i] > targetSm ? minSm[i] : 0;
  }

  const stack::StackInfo &info;
  uint32_t targetSm;
  std::vector<InstrTraits> instrs;
  std::vector<SpecialTraits> specials;
  std::vector<uint16_t> elemStacks;
};

} // namespace expr
} // namespace mmptx

#endif // MMPTX_EXPR_INSTRTRAITS_H
