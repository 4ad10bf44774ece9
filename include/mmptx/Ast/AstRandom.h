//===- AstRandom.h - Random well-typed AST PTX programs ---------*- C++ -*-===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Random expression trees for property tests, benchmarks and fuzzing:
/// every tree is well typed, so it must compile, and for its target it must
/// assemble.
///
//===----------------------------------------------------------------------===//

#ifndef MMPTX_AST_ASTRANDOM_H
#define MMPTX_AST_ASTRANDOM_H

#include "mmptx/Ast/AstText.h"
#include "mmptx/Expr/InstrSet.h"
#include "mmptx/Expr/Random.h"
#include "mmptx/Expr/Vocabulary.h"

#include <string>
#include <vector>

namespace mmptx {
namespace ast {

/// \returns the words (ending at RETURN) of a random tree of exactly
/// \p Nodes words whose value is on \p Stack (fewer when no instruction
/// fits), using the instructions in \p Instrs that give one scalar value and
/// whose MinSm \p TargetSm allows (all of them if \p Instrs is empty).
/// Leaves read an input of \p Inputs with the right stack or are random
/// constants.
std::vector<uint64_t> randomAstExpr(expr::Rng &Rng, const expr::InstrSet &Info,
                                    uint16_t Stack, unsigned Nodes,
                                    llvm::ArrayRef<AstVar> Inputs,
                                    llvm::ArrayRef<uint32_t> Instrs = {},
                                    uint32_t TargetSm = 0);

/// \returns a program with an input `i<s>` and an output `o<s>` for every
/// stack s of \p Stacks (every stack if it is empty), each output a random
/// tree of 1 to \p MaxNodes words. Inner nodes may still use any stack:
/// their leaves on a stack without an input are constants.
/// Inner nodes are instructions of \p Vocabulary.
AstModule
makeRandomAstModule(const expr::InstrSet &Info, uint64_t Seed,
                    unsigned MaxNodes, uint32_t TargetSm = 0,
                    llvm::ArrayRef<uint16_t> Stacks = {},
                    expr::Vocabulary Vocabulary = expr::Vocabulary::All);

/// \returns a PTX module (`.target sm_<TargetSm>`) of one kernel that
/// declares and initialises the variables of \p M and contains \p Stub.
std::string wrapAstStubInKernel(const expr::InstrSet &Info, const AstModule &M,
                                llvm::StringRef Stub, uint32_t TargetSm);

} // namespace ast
} // namespace mmptx

#endif // MMPTX_AST_ASTRANDOM_H
