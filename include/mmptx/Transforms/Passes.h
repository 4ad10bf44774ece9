//===- Passes.h - Pass factories and registry -------------------*- C++ -*-===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef MMPTX_TRANSFORMS_PASSES_H
#define MMPTX_TRANSFORMS_PASSES_H

#include "mmptx/Transforms/Pass.h"

#include "llvm/ADT/StringRef.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace mmptx {
namespace stack {
struct StackPtxOptions;
} // namespace stack

#define MMPTX_PASS(ARG, FACTORY, DESC) std::unique_ptr<Pass> FACTORY();
#include "mmptx/Transforms/Passes.def"

class InjectModule;
namespace ptx {
class Module;
} // namespace ptx

struct InjectSite;

/// Checks an already-normalised \p Site of \p IM, found in \p M: its stable
/// registers are declared with the marker's types in enclosing scopes, in
/// and mod variables are set before the site and mod and out variables read
/// back after it (the check of --normalize-injection-sites, for the tools
/// that render). Legacy sites pass: normalisation writes their scaffold.
llvm::Error verifyNormalizedSite(const ptx::Module &M, const InjectModule &IM,
                                 const InjectSite &Site);

/// One `--stub-gen NAME=PROGRAM`: a Stack PTX program (text format) for the
/// sites of inject NAME.
struct StubGenSpec {
  std::string injectName;
  std::string programFile;
  /// Where the program's `.include` files are searched, after the
  /// including file's directory.
  std::vector<std::string> includeDirs;
};

/// Compiles each program into a stub typed against its inject and renders
/// it at every site of that inject (see lib/Transforms/StubGen.cpp).
std::unique_ptr<Pass> createStubGenPass(std::vector<StubGenSpec> Specs);
/// As above, compiling with \p Opts (strict mode, limits). Opts.targetSm 0
/// means the module's own `.target`.
std::unique_ptr<Pass> createStubGenPass(std::vector<StubGenSpec> Specs,
                                        const stack::StackPtxOptions &Opts);

/// A registered pass: its flag, description and factory.
struct PassInfo {
  llvm::StringRef Argument;
  llvm::StringRef Description;
  std::unique_ptr<Pass> (*Factory)();
};

/// \returns every registered pass, in registry order.
llvm::ArrayRef<PassInfo> getRegisteredPasses();

/// \returns the pass registered as \p Argument, or nullptr.
const PassInfo *lookupPass(llvm::StringRef Argument);

/// Prints `--flag  description` for every registered pass.
void printPassList(llvm::raw_ostream &OS);

} // namespace mmptx

#endif // MMPTX_TRANSFORMS_PASSES_H
