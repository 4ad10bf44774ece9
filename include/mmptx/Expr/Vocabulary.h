//===- Vocabulary.h - Named subsets of an instruction set -------*- C++ -*-===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A vocabulary is a named subset of the instructions of a Stack PTX / AST
/// PTX instruction set, for random generation (`--vocabulary=`) and for
/// programs that must stay in it.
///
///   all           every instruction.
///   fast-compile  the instructions that assemble to a few machine
///                 instructions each: no IEEE-rounded division, square root
///                 or reciprocal (`div.rn`, `sqrt.rn`, `rcp.rn`, f32 and
///                 f64: ~1 ms of ptxas each), no integer division or
///                 remainder, and every f32 operation that has an `.ftz`
///                 form in its `.ftz` form (a non-ftz approximation costs
///                 ~0.2 ms: the denormal fix-up around it).
///
/// Membership is decided from an instruction's PTX opcode text (the `ptx`
/// field of its TableGen record), so a user's own instruction set gets the
/// same vocabularies without marking its records.
///
//===----------------------------------------------------------------------===//

#ifndef MMPTX_EXPR_VOCABULARY_H
#define MMPTX_EXPR_VOCABULARY_H

#include "mmptx/Expr/InstrSet.h"

#include "llvm/ADT/Optional.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <vector>

namespace mmptx {
namespace expr {

enum class Vocabulary { All, FastCompile };

/// `all` or `fast-compile`.
llvm::StringRef getVocabularyName(Vocabulary V);
/// The vocabulary called \p Name, or an error listing the known names.
llvm::Expected<Vocabulary> parseVocabularyName(llvm::StringRef Name);

/// Whether an instruction whose PTX opcode is \p PtxOpcode (`add.ftz.f32`)
/// belongs to \p V.
bool isInVocabulary(llvm::StringRef PtxOpcode, Vocabulary V);

/// The indices of the instructions of \p Info that belong to \p V, in
/// order.
std::vector<uint32_t> getVocabularyInstrs(const InstrSet &Info, Vocabulary V);

} // namespace expr
} // namespace mmptx

#endif // MMPTX_EXPR_VOCABULARY_H
