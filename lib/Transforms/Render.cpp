//===- Render.cpp - Splice stubs into inject sites ------------------------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The render stage of mmptx-opt. Stub generators (`--stub-gen`) and
/// hand-written stubs (`--inject NAME=FILE`) reach the sites through
/// spliceStubs(), which replaces each site's marker block with its inject's
/// stub, wrapping a legacy comment-form site in the normalised scaffold of
/// InjectFormat.h on the way (the one policy for legacy sites: they are
/// normalised, their compiler registers checked when the sites are read).
///
/// The inject pass:
///  1. reads the injects of the module (InjectModule::create: every site
///     checked);
///  2. resolves each NAME=FILE by inject name, or by index when no inject
///     has that name, and reads FILE (one trailing newline dropped);
///  3. requires a stub for every inject, reporting a missing one at the
///     inject's first site;
///  4. checks every stub (checkStub: errors located in FILE, warnings to the
///     pipeline's handler) and splices them.
///
//===----------------------------------------------------------------------===//

#include "Render.h"

#include "mmptx/IR/Module.h"
#include "mmptx/Inject/InjectModule.h"
#include "mmptx/Support/Diagnostic.h"
#include "mmptx/Transforms/Passes.h"

#include "llvm/Support/MemoryBuffer.h"

using namespace llvm;
using namespace mmptx;

void mmptx::spliceStubs(ptx::Module &M, const InjectModule &Im,
                        ArrayRef<Optional<StringRef>> Stubs) {
  for (const InjectSite &Site : Im.sites()) {
    const Optional<StringRef> &Stub = Stubs[Site.TheInject];
    if (!Stub)
      continue;
    if (Site.Format != InjectSiteFormat::Legacy) {
      M.replaceRange(Site.RemoveBegin, Site.RemoveEnd, Stub->str());
      continue;
    }
    const Inject &Inj = Im.getInject(Site.TheInject);
    std::string Text;
    size_t Pos = writeNormalizedSite(
        Text, Inj, Im.getVariables(Inj), Im.getSiteRegisters(Site),
        /*leadingTab=*/M.getBuffer()[Site.RemoveBegin] == '\t',
        /*withMarkers=*/false);
    Text.insert(Pos, Stub->data(), Stub->size());
    M.replaceRange(Site.RemoveBegin, Site.RemoveEnd, std::move(Text));
  }
}

namespace {
/// `--inject NAME=FILE`: one hand-written stub per inject.
class InjectPass : public Pass {
public:
  explicit InjectPass(std::vector<std::pair<std::string, std::string>> Specs)
      : Specs(std::move(Specs)) {}
  StringRef getArgument() const override { return "inject"; }
  Error run(ptx::Module &M) override;

private:
  /// (name or index, file), in command-line order.
  std::vector<std::pair<std::string, std::string>> Specs;
};
} // namespace

/// \returns "; its injects are 'a', 'b'" or ", which has no injects".
static std::string describeInjects(const InjectModule &Im) {
  if (!Im.getNumInjects())
    return ", which has no injects";
  std::string S = "; its injects are";
  for (const Inject &Inj : Im.injects())
    S += (Inj.Index ? ", '" : " '") + Inj.Name.str() + "'";
  return S;
}

Error InjectPass::run(ptx::Module &M) {
  const InjectOptions *Opts = getContext().InjectOpts;
  auto Im = InjectModule::create(M, Opts ? *Opts : InjectOptions());
  if (!Im)
    return Im.takeError();
  size_t NumInjects = (*Im)->getNumInjects();
  std::vector<std::unique_ptr<MemoryBuffer>> Files;
  std::vector<StringRef> Stubs(NumInjects);
  std::vector<std::string> StubNames(NumInjects);
  std::vector<bool> Given(NumInjects);
  for (const auto &[name, file] : Specs) {
    // By name, or by index when no inject has that name.
    const Inject *Inj = (*Im)->lookupInject(name);
    size_t Index;
    if (Inj)
      Index = Inj->Index;
    else if (StringRef(name).getAsInteger(10, Index) || Index >= NumInjects)
      return makeError("--inject " + name + "=" + file + ": no inject named '" +
                       name + "' in '" + M.getBufferIdentifier() + "'" +
                       describeInjects(**Im));
    if (Given[Index])
      return makeError("more than one stub for inject '" +
                       (*Im)->getInject(Index).Name + "'");
    auto Buf = MemoryBuffer::getFile(file, /*IsText=*/false,
                                     /*RequiresNullTerminator=*/false);
    if (!Buf)
      return makeError("cannot open stub file '" + file +
                       "': " + Buf.getError().message());
    StringRef Stub = (*Buf)->getBuffer();
    if (Stub.endswith("\n"))
      Stub = Stub.drop_back(Stub.endswith("\r\n") ? 2 : 1);
    Stubs[Index] = Stub;
    StubNames[Index] = file;
    Given[Index] = true;
    Files.push_back(std::move(*Buf));
  }
  for (size_t I = 0; I != NumInjects; ++I) {
    if (Given[I])
      continue;
    const Inject &Inj = (*Im)->getInject(I);
    size_t Missing = llvm::count(Given, false);
    return DiagnosticError::get(
        M.getSourceMgr(), M.getLoc(Inj.FirstSiteOffset),
        "no stub for inject '" + Inj.Name + "' (give one with --inject " +
            Inj.Name + "=FILE)" +
            (Missing > 1 ? " and " + Twine(Missing - 1) + " more" : ""));
  }
  RenderOptions Ro;
  Ro.StubNames = StubNames;
  Ro.OnWarning = getContext().OnWarning;
  if (Error E = (*Im)->checkStubs(Stubs, Ro))
    return E;
  std::vector<Optional<StringRef>> All(Stubs.begin(), Stubs.end());
  spliceStubs(M, **Im, All);
  return Error::success();
}

Expected<std::unique_ptr<Pass>>
mmptx::createInjectPass(ArrayRef<std::string> Values) {
  std::vector<std::pair<std::string, std::string>> Specs;
  for (const std::string &V : Values) {
    auto [name, file] = StringRef(V).split('=');
    if (name.empty() || file.empty())
      return makeError("--inject expects NAME=FILE, got '" + V + "'");
    Specs.push_back({name.str(), file.str()});
  }
  return std::make_unique<InjectPass>(std::move(Specs));
}
