//===- Contraction.h - ptxas's mul + add contraction ------------*- C++ -*-===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// PTX lets the assembler contract a `mul` and an `add`/`sub` without a
/// rounding modifier into one fused multiply-add, which rounds once; ptxas
/// does (measured with CUDA 13.0 for sm_90). The interpreters use this plan
/// to compute the same values as the GPU. The rule, from ptxas's output:
///
/// - a product `mul.T` (T f32, ftz.f32, f64, f16 or f16x2, no rounding
///   modifier) is contracted into its users when every use of it is an
///   `add.T` or `sub.T` (the same type and `.ftz`, no rounding modifier)
///   that reads it once; bit moves (`mov.b32` between stacks) and a `neg.T`
///   between the product and its users are looked through (a negated
///   product is fused with its sign flipped);
/// - a use elsewhere (another instruction, an output, both operands of one
///   add) keeps the product rounded for all its users;
/// - an add whose two operands are both such products contracts the first;
/// - an f32 or f64 product of constants is folded by ptxas, so it rounds;
/// - the add must be in the mul's basic block: an instruction ptxas expands
///   with a branch (div.rn, rcp.rn, sqrt.rn of f32/f64, div/rem .s32)
///   emitted between them keeps the product rounded, unless the product
///   has a literal operand (ptxas moves it to its users).
///
//===----------------------------------------------------------------------===//

#ifndef MMPTX_EXPR_CONTRACTION_H
#define MMPTX_EXPR_CONTRACTION_H

#include "mmptx/Expr/InstrSet.h"

#include "llvm/ADT/ArrayRef.h"

#include <cstdint>
#include <vector>

namespace mmptx {
namespace expr {

/// One value of an interpreter's dataflow graph, operands before users.
struct ContractionNode {
  static constexpr uint32_t None = ~0u;
  /// The single-result instruction computing it, or None (an input, a
  /// constant, a special register, one result of a multi-result
  /// instruction).
  uint32_t Instr = None;
  /// Its operand values, flattened (Instr only).
  llvm::ArrayRef<uint32_t> Ops;
  /// A literal (the assembler folds what is computed from literals).
  bool IsLiteral = false;
  /// Where its instruction is emitted in the stub (Instr only): the
  /// instructions' order in the stub.
  uint32_t Position = 0;
};

/// How an add/sub is computed when it takes a product unrounded.
struct Contraction {
  /// The mul node whose product it takes, or ContractionNode::None.
  uint32_t Mul = ContractionNode::None;
  /// Which of its operands the product is (0 or 1).
  uint8_t Pos = 0;
  /// Whether a neg sits between the product and this operand.
  bool Negated = false;
};

/// Plans the contractions of \p Nodes: \p Live marks the nodes evaluated
/// (what the outputs reach), \p Outputs the nodes read as results.
/// \returns one Contraction per node.
std::vector<Contraction> planContractions(const InstrSet &Info,
                                          llvm::ArrayRef<ContractionNode> Nodes,
                                          llvm::ArrayRef<uint8_t> Live,
                                          llvm::ArrayRef<uint32_t> Outputs);

} // namespace expr
} // namespace mmptx

#endif // MMPTX_EXPR_CONTRACTION_H
