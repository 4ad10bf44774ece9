//===- StubGen.cpp - Generate stubs from Stack PTX and AST PTX programs ---===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `--stub-gen NAME=PROGRAM` builds the stub of inject NAME from a Stack PTX
/// program (an AST PTX program if PROGRAM ends in `.ast`) and renders it at
/// every site of NAME. The stub itself is lib/Stub's (StubBuilder): this pass
/// finds and checks the injects, builds one stub per program for the
/// module's target, reports the limits a compile hit as warnings, and splices
/// the stubs through the render step that --inject uses too.
///
//===----------------------------------------------------------------------===//

#include "Render.h"

#include "mmptx/IR/Module.h"
#include "mmptx/Inject/InjectModule.h"
#include "mmptx/Stub/StubBuilder.h"
#include "mmptx/Stub/StubCLOptions.h"
#include "mmptx/Support/Diagnostic.h"
#include "mmptx/Transforms/Passes.h"

#include "llvm/ADT/StringRef.h"

using namespace llvm;
using namespace mmptx;
using namespace mmptx::ptx;

namespace {
class StubGenPass : public Pass {
public:
  StubGenPass(std::vector<StubGenSpec> Specs, const stub::StubOptions &Opts)
      : Specs(std::move(Specs)), Opts(Opts) {}
  /// Builds with the pipeline's StubOptions.
  explicit StubGenPass(std::vector<StubGenSpec> Specs)
      : Specs(std::move(Specs)), FromContext(true) {}
  StringRef getArgument() const override { return "stub-gen"; }
  Error run(Module &M) override;

private:
  std::vector<StubGenSpec> Specs;
  stub::StubOptions Opts;
  /// Take Opts from the PassContext when run.
  bool FromContext = false;
};
} // namespace

Error StubGenPass::run(Module &M) {
  if (FromContext) {
    const stub::StubOptions *C = getContext().StubOpts;
    Opts = C ? *C : stub::StubOptions();
  }
  stub::StubBuilder Builder(Opts);
  if (Error E = Builder.checkOptions(stub::getStackOptionFlag))
    return E;
  if (getContext().OnWarning)
    Builder.setWarningHandler(getContext().OnWarning, stub::getStackOptionFlag);
  // Stubs must assemble for the module they go into.
  uint32_t TargetSm =
      Opts.TargetSm ? Opts.TargetSm : stub::getModuleTargetSm(M);
  const InjectOptions *InjOpts = getContext().InjectOpts;
  auto Im = InjectModule::create(M, InjOpts ? *InjOpts : InjectOptions());
  if (!Im)
    return Im.takeError();
  std::vector<std::string> Stubs((*Im)->getNumInjects());
  std::vector<bool> Have((*Im)->getNumInjects(), false);
  for (const StubGenSpec &Spec : Specs) {
    const Inject *Inj = (*Im)->lookupInject(Spec.InjectName);
    if (!Inj)
      return makeError("--stub-gen: no inject named '" + Spec.InjectName +
                       "' in " + M.getBufferIdentifier());
    if (Have[Inj->Index])
      return makeError("--stub-gen: more than one program for inject '" +
                       Spec.InjectName + "'");
    auto Stub = Builder.buildFromFile(**Im, *Inj, Spec.ProgramFile, TargetSm);
    if (!Stub)
      return Stub.takeError();
    Stubs[Inj->Index] = std::move(*Stub);
    Have[Inj->Index] = true;
  }
  // Creation checked every site; stubs of the Stack PTX and AST PTX
  // compilers are valid by construction, so they are spliced unchecked.
  std::vector<Optional<StringRef>> ToSplice((*Im)->getNumInjects());
  for (size_t I = 0; I != Stubs.size(); ++I)
    if (Have[I])
      ToSplice[I] = StringRef(Stubs[I]);
  spliceStubs(M, **Im, ToSplice);
  return Error::success();
}

std::unique_ptr<Pass> mmptx::createStubGenPass(std::vector<StubGenSpec> Specs) {
  return std::make_unique<StubGenPass>(std::move(Specs));
}

Expected<std::unique_ptr<Pass>>
mmptx::createStubGenPassFromValues(ArrayRef<std::string> Values) {
  std::vector<StubGenSpec> Specs;
  for (const std::string &V : Values) {
    auto [Name, File] = StringRef(V).split('=');
    if (Name.empty() || File.empty())
      return makeError("--stub-gen expects NAME=FILE, got '" + V + "'");
    Specs.push_back({Name.str(), File.str()});
  }
  return createStubGenPass(std::move(Specs));
}

std::unique_ptr<Pass> mmptx::createStubGenPass(std::vector<StubGenSpec> Specs,
                                               const stub::StubOptions &Opts) {
  return std::make_unique<StubGenPass>(std::move(Specs), Opts);
}
