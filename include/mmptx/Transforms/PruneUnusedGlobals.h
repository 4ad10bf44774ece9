//===- PruneUnusedGlobals.h - Remove unreferenced globals -------*- C++ -*-===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Template pruning: removes the module-scope `.global`, `.const` and
/// `.shared` variables and the `.func`s that nothing kept refers to. NVRTC
/// with `-default-device` emits thousands of unreferenced statics for a
/// CuTe kernel (`integral_constant`s, type lists) that the PTX compiler
/// would otherwise process for every variant; run this once on the
/// template, before rendering variants.
///
/// What is kept (the roots, and everything they name, transitively):
///  - every `.entry`, and every function that holds an inject site marker;
///  - unless PruneOptions::EntriesOnly, every symbol declared `.visible`,
///    `.extern`, `.weak` or `.common` (a program can look it up by name,
///    e.g. with cuModuleGetGlobal, or another module can link against it);
///  - the symbols named in PruneOptions::Keep;
///  - everything that a kept statement names: instruction operands (calls,
///    addresses, `mov` of a function's address), initializers of kept
///    variables (`generic(x)`, `{a, b+4}`), `.alias` targets, and every
///    module-scope statement that declares nothing (`.section` debug data,
///    whose references to variables and to labels inside functions keep
///    those too; `.texref`/`.samplerref`/`.surfref` declarations).
/// Everything else (`.version`, `.target`, `.file`, comments, `.pragma`)
/// is left as it is; a module with nothing to remove prints byte for byte.
///
//===----------------------------------------------------------------------===//

#ifndef MMPTX_TRANSFORMS_PRUNEUNUSEDGLOBALS_H
#define MMPTX_TRANSFORMS_PRUNEUNUSEDGLOBALS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace llvm {
class SMDiagnostic;
} // namespace llvm

namespace mmptx {
class Pass;
namespace ptx {
class Module;
} // namespace ptx

struct PruneOptions {
  /// Only entries (and functions with inject sites) are roots: unreferenced
  /// `.visible`/`.extern`/`.weak`/`.common` symbols are removed as well.
  bool EntriesOnly = false;
  /// Module-scope symbols kept, with what they refer to, whatever their
  /// linkage (e.g. a static that the host reads with cuModuleGetGlobal).
  std::vector<std::string> Keep;
};

/// What a prune removed.
struct PruneStats {
  /// Variables (`.global`, `.const`, `.shared`) removed.
  unsigned Variables = 0;
  /// Functions removed (a prototype and its definition count once).
  unsigned Functions = 0;
  /// Bytes of PTX removed.
  size_t Bytes = 0;
};

/// Parses the value of `--prune-unused-globals[=OPT,...]`: `entries-only`,
/// `keep=NAME`; an empty value is the defaults.
llvm::Expected<PruneOptions>
parsePruneOptions(llvm::ArrayRef<std::string> Values);

/// Records on \p M the edits that remove what is unreferenced. \p OnWarning,
/// if set, receives a warning for each PruneOptions::Keep name that the
/// module does not declare.
llvm::Expected<PruneStats> pruneUnusedGlobals(
    ptx::Module &M, const PruneOptions &Opts = {},
    const std::function<void(const llvm::SMDiagnostic &)> &OnWarning = {});

/// Parses \p Ptx (named \p Name in errors), prunes it and \returns the
/// printed result; \p Stats receives what was removed.
llvm::Expected<std::string> prunePTX(llvm::StringRef Ptx,
                                     const PruneOptions &Opts = {},
                                     PruneStats *Stats = nullptr,
                                     llvm::StringRef Name = "<ptx>");

/// The pass of `mmptx-opt --prune-unused-globals`.
std::unique_ptr<Pass> createPruneUnusedGlobalsPass(PruneOptions Opts = {});

} // namespace mmptx

#endif // MMPTX_TRANSFORMS_PRUNEUNUSEDGLOBALS_H
