//===- Passes.h - Pass factories and registry -------------------*- C++ -*-===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef MMPTX_TRANSFORMS_PASSES_H
#define MMPTX_TRANSFORMS_PASSES_H

#include "mmptx/Transforms/Pass.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/Optional.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace mmptx {
namespace stub {
struct StubOptions;
} // namespace stub

#define MMPTX_PASS(ARG, FACTORY, DESC) std::unique_ptr<Pass> FACTORY();
#define MMPTX_PASS_WITH_VALUES(ARG, FACTORY, VALUE, DESC)                      \
  llvm::Expected<std::unique_ptr<Pass>> FACTORY(                               \
      llvm::ArrayRef<std::string> Values);
#define MMPTX_PASS_WITH_OPTIONS(ARG, FACTORY, VALUE, DESC)                     \
  llvm::Expected<std::unique_ptr<Pass>> FACTORY(                               \
      llvm::ArrayRef<std::string> Values);
#include "mmptx/Transforms/Passes.def"

class InjectModule;
namespace ptx {
class Module;
} // namespace ptx

/// One `--stub-gen NAME=PROGRAM`: a Stack PTX (or, for a `.ast` file, AST
/// PTX) program for the sites of inject NAME.
struct StubGenSpec {
  std::string InjectName;
  std::string ProgramFile;
};

/// Builds each program's stub (mmptx/Stub/StubBuilder.h) and renders it at
/// every site of its inject, with the pipeline's StubOptions
/// (PassContext::StubOpts).
std::unique_ptr<Pass> createStubGenPass(std::vector<StubGenSpec> Specs);
/// As above, building with \p Opts.
std::unique_ptr<Pass> createStubGenPass(std::vector<StubGenSpec> Specs,
                                        const stub::StubOptions &Opts);

/// A registered pass: its flag, description and factory; a pass that takes
/// values has a ValuesFactory and its ValueDesc instead; ValueOptional says
/// that its flag may also be given without a value.
struct PassInfo {
  llvm::StringRef Argument;
  llvm::StringRef Description;
  std::unique_ptr<Pass> (*Factory)();
  llvm::StringRef ValueDesc = {};
  llvm::Expected<std::unique_ptr<Pass>> (*ValuesFactory)(
      llvm::ArrayRef<std::string>) = nullptr;
  bool ValueOptional = false;
};

/// \returns every registered pass, in registry order.
llvm::ArrayRef<PassInfo> getRegisteredPasses();

/// \returns the pass registered as \p Argument, or nullptr.
const PassInfo *lookupPass(llvm::StringRef Argument);

} // namespace mmptx

#endif // MMPTX_TRANSFORMS_PASSES_H
