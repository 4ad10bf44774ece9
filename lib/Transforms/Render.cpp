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

#include "mmptx/IR/Module.h"
#include "mmptx/Inject/InjectModule.h"
#include "mmptx/Support/Diagnostic.h"
#include "mmptx/Transforms/Passes.h"

#include "llvm/Support/MemoryBuffer.h"

using namespace llvm;
using namespace mmptx;

void mmptx::spliceStubs(ptx::Module &m, const InjectModule &im,
                        ArrayRef<Optional<StringRef>> stubs) {
  for (const InjectSite &site : im.sites()) {
    const Optional<StringRef> &stub = stubs[site.inject];
    if (!stub)
      continue;
    if (site.format != InjectSiteFormat::Legacy) {
      m.replaceRange(site.removeBegin, site.removeEnd, stub->str());
      continue;
    }
    const Inject &inj = im.getInject(site.inject);
    std::string text;
    size_t pos = writeNormalizedSite(
        text, inj, im.getVariables(inj), im.getSiteRegisters(site),
        /*leadingTab=*/m.getBuffer()[site.removeBegin] == '\t',
        /*withMarkers=*/false);
    text.insert(pos, stub->data(), stub->size());
    m.replaceRange(site.removeBegin, site.removeEnd, std::move(text));
  }
}

namespace {
/// `--inject NAME=FILE`: one hand-written stub per inject.
class InjectPass : public Pass {
public:
  explicit InjectPass(std::vector<std::pair<std::string, std::string>> specs)
      : specs(std::move(specs)) {}
  StringRef getArgument() const override { return "inject"; }
  StringRef getDescription() const override {
    return "render the stub in FILE at every site of inject NAME";
  }
  Error run(ptx::Module &m) override;

private:
  /// (name or index, file), in command-line order.
  std::vector<std::pair<std::string, std::string>> specs;
};
} // namespace

/// \returns "; its injects are 'a', 'b'" or ", which has no injects".
static std::string describeInjects(const InjectModule &im) {
  if (!im.getNumInjects())
    return ", which has no injects";
  std::string s = "; its injects are";
  for (const Inject &inj : im.injects())
    s += (inj.index ? ", '" : " '") + inj.name.str() + "'";
  return s;
}

Error InjectPass::run(ptx::Module &m) {
  const InjectOptions *opts = getContext().injectOptions;
  auto im = InjectModule::create(m, opts ? *opts : InjectOptions());
  if (!im)
    return im.takeError();
  size_t numInjects = (*im)->getNumInjects();
  std::vector<std::unique_ptr<MemoryBuffer>> files;
  std::vector<StringRef> stubs(numInjects);
  std::vector<std::string> stubNames(numInjects);
  std::vector<bool> given(numInjects);
  for (const auto &[name, file] : specs) {
    // By name, or by index when no inject has that name.
    const Inject *inj = (*im)->lookupInject(name);
    size_t index;
    if (inj)
      index = inj->index;
    else if (StringRef(name).getAsInteger(10, index) || index >= numInjects)
      return makeError("--inject " + name + "=" + file + ": no inject named '" +
                       name + "' in '" + m.getBufferIdentifier() + "'" +
                       describeInjects(**im));
    if (given[index])
      return makeError("more than one stub for inject '" +
                       (*im)->getInject(index).name + "'");
    auto buf = MemoryBuffer::getFile(file, /*IsText=*/false,
                                     /*RequiresNullTerminator=*/false);
    if (!buf)
      return makeError("cannot open stub file '" + file +
                       "': " + buf.getError().message());
    StringRef stub = (*buf)->getBuffer();
    if (stub.endswith("\n"))
      stub = stub.drop_back(stub.endswith("\r\n") ? 2 : 1);
    stubs[index] = stub;
    stubNames[index] = file;
    given[index] = true;
    files.push_back(std::move(*buf));
  }
  for (size_t i = 0; i != numInjects; ++i) {
    if (given[i])
      continue;
    const Inject &inj = (*im)->getInject(i);
    size_t missing = llvm::count(given, false);
    return DiagnosticError::get(
        m.getSourceMgr(), m.getLoc(inj.firstSiteOffset),
        "no stub for inject '" + inj.name + "' (give one with --inject " +
            inj.name + "=FILE)" +
            (missing > 1 ? " and " + Twine(missing - 1) + " more" : ""));
  }
  RenderOptions ro;
  ro.stubNames = stubNames;
  ro.onWarning = getContext().onWarning;
  if (Error e = (*im)->checkStubs(stubs, ro))
    return e;
  std::vector<Optional<StringRef>> all(stubs.begin(), stubs.end());
  spliceStubs(m, **im, all);
  return Error::success();
}

Expected<std::unique_ptr<Pass>>
mmptx::createInjectPass(ArrayRef<std::string> values) {
  std::vector<std::pair<std::string, std::string>> specs;
  for (const std::string &v : values) {
    auto [name, file] = StringRef(v).split('=');
    if (name.empty() || file.empty())
      return makeError("--inject expects NAME=FILE, got '" + v + "'");
    specs.push_back({name.str(), file.str()});
  }
  return std::make_unique<InjectPass>(std::move(specs));
}
