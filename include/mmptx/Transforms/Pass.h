//===- Pass.h - Pass interface and pass manager -----------------*- C++ -*-===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A pass is an IR → IR step that returns llvm::Error, modelled on
/// mca::Stage/Pipeline: the manager runs passes in order and stops at the
/// first failure. Passes edit the module through byte-range edits; when a
/// pass has edited the module, the manager re-parses the printed text before
/// the next pass so that every pass sees consistent statements.
///
//===----------------------------------------------------------------------===//

#ifndef MMPTX_TRANSFORMS_PASS_H
#define MMPTX_TRANSFORMS_PASS_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace llvm {
class SMDiagnostic;
class SourceMgr;
} // namespace llvm

namespace mmptx {
namespace ptx {
class Module;
} // namespace ptx
struct InjectOptions;
namespace stub {
struct StubOptions;
} // namespace stub

/// Settings that the driver gives every pass of a pipeline.
struct PassContext {
  /// Extra inject types (and tolerance of unknown ones) for the passes that
  /// read inject sites; null means the built-in types only.
  const InjectOptions *InjectOpts = nullptr;
  /// How stub-gen builds stubs (compiler options, include directories,
  /// target); null: the defaults.
  const stub::StubOptions *StubOpts = nullptr;
  /// Receives the passes' warnings (passes never print); none are reported
  /// when empty.
  std::function<void(const llvm::SMDiagnostic &)> OnWarning;
};

class Pass {
public:
  virtual ~Pass();
  /// Called by the PassManager before run().
  void setContext(const PassContext &C) { Context = &C; }
  /// The command-line flag, e.g. "normalize-injection-sites".
  virtual llvm::StringRef getArgument() const = 0;
  /// The description registered with the pass's flag (Passes.def, the one
  /// place it is written), or "" for a pass outside the registry.
  virtual llvm::StringRef getDescription() const;
  /// Transforms \p M in place.
  virtual llvm::Error run(ptx::Module &M) = 0;

protected:
  /// \returns the pipeline's context (empty when run outside a manager).
  const PassContext &getContext() const;

private:
  const PassContext *Context = nullptr;
};

class PassManager {
public:
  /// \p SM owns the buffers of re-parsed modules.
  explicit PassManager(llvm::SourceMgr &SM) : SM(SM) {}

  void addPass(std::unique_ptr<Pass> P) { Passes.push_back(std::move(P)); }
  /// Fully re-verify the module after each pass that changed it.
  void setVerifyEach(bool V) { VerifyEach = V; }
  /// Settings handed to every pass.
  void setContext(const PassContext &C) { Context = C; }
  bool empty() const { return Passes.empty(); }

  /// Runs every pass on \p M; \p M may be replaced by a re-parsed module.
  llvm::Error run(std::unique_ptr<ptx::Module> &M);

private:
  llvm::SourceMgr &SM;
  std::vector<std::unique_ptr<Pass>> Passes;
  bool VerifyEach = false;
  PassContext Context;
};

} // namespace mmptx

#endif // MMPTX_TRANSFORMS_PASS_H
