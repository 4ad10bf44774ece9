//===- StackRandom.h - Random Stack PTX programs ----------------*- C++ -*-===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Deterministic random programs for property tests, benchmarks and the
/// ptxas acceptance test: arbitrary (mutated) word sequences, f32-only
/// arithmetic programs, and PTX modules wrapping compiled stubs in kernels.
///
//===----------------------------------------------------------------------===//

#ifndef MMPTX_STACK_STACKRANDOM_H
#define MMPTX_STACK_STACKRANDOM_H

#include "mmptx/Expr/Random.h"
#include "mmptx/Expr/Vocabulary.h"
#include "mmptx/Stack/StackCompiler.h"
#include "mmptx/Stack/StackText.h"

#include <string>
#include <vector>

namespace mmptx {
namespace stack {

using StackRng = expr::Rng;

/// \returns \p N words of every type, mostly valid, some with out-of-range
/// indices and some entirely random, as a mutation would produce. Every
/// instruction and special register may appear: compile with
/// StackPtxOptions::TargetSm to keep out what a target lacks. PTX words
/// name instructions of \p Vocabulary only (out-of-range indices aside).
std::vector<uint64_t>
randomWords(StackRng &Rng, size_t N, const StackInfo &Info, uint32_t NumRegs,
            uint32_t NumRoutines,
            expr::Vocabulary Vocabulary = expr::Vocabulary::All);

/// \returns an f32 program of \p N words: inputs 0..numInputs-1, f32
/// constants, the f32 instructions of \p Info in \p Vocabulary and a few
/// dup/swap.
std::vector<uint64_t>
randomF32Program(StackRng &Rng, size_t N, const StackInfo &Info,
                 uint32_t NumInputs,
                 expr::Vocabulary Vocabulary = expr::Vocabulary::All);

/// Applies 1 to \p MaxEdits random edits to \p Words, each replacing,
/// inserting or deleting one word; inserted and replacing words come from
/// \p Vocabulary (which must not be empty). Any word sequence compiles, so
/// the result is a valid program: the mutation step of a search.
void mutateProgram(StackRng &Rng, std::vector<uint64_t> &Words,
                   llvm::ArrayRef<uint64_t> Vocabulary, unsigned MaxEdits = 3);

/// One register per stack, in and out: `i<s>` (In) then `o<s>` (Out).
std::vector<RegisterDecl> makeRandomTestRegisters(const StackInfo &Info);

/// \returns a PTX module (`.version 9.0`, `.target sm_<TargetSm>`) with
/// \p Count kernels, each declaring and initialising the registers of
/// makeRandomTestRegisters and containing the stub of one random word
/// program of 1-256 words, compiled for \p TargetSm, that requests every
/// `o<s>`.
std::string makeRandomKernelModule(const StackInfo &Info, uint64_t Seed,
                                   unsigned Count, uint32_t TargetSm = 80);

} // namespace stack
} // namespace mmptx

#endif // MMPTX_STACK_STACKRANDOM_H
