//===- StubGen.cpp - Generate stubs from Stack PTX programs ---------------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `--stub-gen NAME=PROGRAM` compiles a Stack PTX program (text format) into
/// a stub typed against inject NAME and renders it at every site of NAME.
///
///  1. Find the injects (InjectModule); every site must be normalised, so
///     that its variables live in stable registers `%_x<i>`.
///  2. Parse the program. Each register it declares must be a variable of
///     the inject (by name, or by stable register name), declared on the
///     stack of the variable's type token and with a compatible kind: an
///     `in` register reads an in or mod variable, an `out` register writes
///     an out or mod variable. Violations are located in the program.
///  3. Compile with the registers renamed to the stable registers. Requests
///     are the program's `.requests`, or, without that section, every out
///     and mod variable in inject order (undeclared ones are added, so an
///     out variable the program never computes still gets a defined zero).
///  4. Replace each site's marker block with the stub.
///
//===----------------------------------------------------------------------===//

#include "mmptx/IR/Module.h"
#include "mmptx/Inject/InjectModule.h"
#include "mmptx/Stack/StackCompiler.h"
#include "mmptx/Stack/StackText.h"
#include "mmptx/Support/Diagnostic.h"
#include "mmptx/Transforms/Passes.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

using namespace llvm;
using namespace mmptx;
using namespace mmptx::ptx;

namespace {
class StubGenPass : public Pass {
public:
  explicit StubGenPass(std::vector<StubGenSpec> specs)
      : specs(std::move(specs)) {}
  StringRef getArgument() const override { return "stub-gen"; }
  StringRef getDescription() const override {
    return "compile Stack PTX programs into stubs at the sites of injects";
  }
  Error run(Module &m) override;

private:
  Expected<std::string> compileFor(const InjectModule &im, const Inject &inj,
                                   const StubGenSpec &spec);

  std::vector<StubGenSpec> specs;
  /// Owns the program buffers so that diagnostics can point into them.
  SourceMgr programSM;
};
} // namespace

/// \returns the stack-kind name used in messages.
static StringRef kindName(stack::RegKind k) {
  switch (k) {
  case stack::RegKind::In:
    return "in";
  case stack::RegKind::Out:
    return "out";
  case stack::RegKind::Mod:
    return "mod";
  }
  return "in";
}

static stack::RegKind toRegKind(InjectArgKind k) {
  switch (k) {
  case InjectArgKind::In:
    return stack::RegKind::In;
  case InjectArgKind::Out:
    return stack::RegKind::Out;
  case InjectArgKind::Mod:
    return stack::RegKind::Mod;
  }
  return stack::RegKind::In;
}

Expected<std::string> StubGenPass::compileFor(const InjectModule &im,
                                              const Inject &inj,
                                              const StubGenSpec &spec) {
  std::string included;
  unsigned id = programSM.AddIncludeFile(spec.programFile, SMLoc(), included);
  if (!id)
    return makeError("cannot open Stack PTX program '" + spec.programFile +
                     "'");
  const stack::StackInfo &info = stack::getDefaultStackInfo();
  auto prog = stack::parseStackProgram(programSM, id, info);
  if (!prog)
    return prog.takeError();

  ArrayRef<InjectVariable> vars = im.getVariables(inj);
  auto stackOf = [&](const InjectVariable &v) {
    return info.findStack(v.typeToken);
  };

  // Map every declared register onto a variable of the inject.
  std::vector<stack::Register> regs;
  std::vector<int> varOfReg;
  SmallVector<bool, 16> varDeclared(vars.size(), false);
  for (const stack::RegisterDecl &d : prog->registers) {
    auto it = llvm::find_if(vars, [&](const InjectVariable &v) {
      return v.name == d.name || v.stableRegister == d.name;
    });
    if (it == vars.end())
      return DiagnosticError::get(programSM, d.loc,
                                  "inject '" + inj.name +
                                      "' has no variable '" + d.name + "'");
    const InjectVariable &v = *it;
    int s = stackOf(v);
    if (s < 0)
      return DiagnosticError::get(
          programSM, d.loc,
          "variable '" + v.name + "' has inject type '" + v.typeToken +
              "', which no Stack PTX stack holds");
    if (s != d.stackIdx)
      return DiagnosticError::get(
          programSM, d.loc,
          "variable '" + v.name + "' of inject '" + inj.name + "' is " +
              v.typeToken + ", not " + info.stackNames[d.stackIdx]);
    stack::RegKind vk = toRegKind(v.kind);
    if (d.kind != vk && !(vk == stack::RegKind::Mod))
      return DiagnosticError::get(
          programSM, d.loc,
          "variable '" + v.name + "' of inject '" + inj.name + "' is '" +
              kindName(vk) + "', not '" + kindName(d.kind) + "'");
    size_t vi = it - vars.begin();
    varDeclared[vi] = true;
    // A mod variable keeps its value when the program leaves it alone.
    regs.push_back({v.stableRegister, uint16_t(s), vk});
    varOfReg.push_back(int(vi));
  }

  std::vector<uint32_t> requests = prog->requests;
  for (uint32_t r : requests)
    if (regs[r].kind == stack::RegKind::In)
      return DiagnosticError::get(programSM, prog->registers[r].loc,
                                  "request '" + prog->registers[r].name +
                                      "' is an in variable of inject '" +
                                      inj.name + "'");
  if (!prog->hasRequests) {
    for (size_t vi = 0; vi < vars.size(); ++vi) {
      const InjectVariable &v = vars[vi];
      if (v.kind == InjectArgKind::In)
        continue;
      auto r = llvm::find(varOfReg, int(vi));
      if (r != varOfReg.end()) {
        requests.push_back(r - varOfReg.begin());
        continue;
      }
      int s = stackOf(v);
      if (s < 0)
        return makeError("variable '" + v.name + "' of inject '" + inj.name +
                         "' has inject type '" + v.typeToken +
                         "', which no Stack PTX stack holds");
      requests.push_back(regs.size());
      regs.push_back({v.stableRegister, uint16_t(s), toRegKind(v.kind)});
      varOfReg.push_back(int(vi));
    }
  }

  auto stub = stack::compileStackPtx(info, prog->getProgram(), regs, requests);
  if (!stub)
    return stub.takeError();
  return std::move(*stub);
}

Error StubGenPass::run(Module &m) {
  const InjectOptions *opts = getContext().injectOptions;
  auto im = InjectModule::create(m, opts ? *opts : InjectOptions());
  if (!im)
    return im.takeError();
  std::vector<std::string> stubs((*im)->getNumInjects());
  std::vector<bool> have((*im)->getNumInjects(), false);
  for (const StubGenSpec &spec : specs) {
    const Inject *inj = (*im)->lookupInject(spec.injectName);
    if (!inj)
      return makeError("--stub-gen: no inject named '" + spec.injectName +
                       "' in " + m.getBufferIdentifier());
    if (have[inj->index])
      return makeError("--stub-gen: more than one program for inject '" +
                       spec.injectName + "'");
    auto stub = compileFor(**im, *inj, spec);
    if (!stub)
      return stub.takeError();
    stubs[inj->index] = std::move(*stub);
    have[inj->index] = true;
  }
  for (const InjectSite &site : (*im)->sites()) {
    if (!have[site.inject])
      continue;
    if (site.format == InjectSiteFormat::Legacy)
      return DiagnosticError::get(
          m.getSourceMgr(), m.getLoc(site.markerOffset),
          "inject site is not normalised; run --normalize-injection-sites "
          "before --stub-gen");
    m.replaceRange(site.removeBegin, site.removeEnd, stubs[site.inject]);
  }
  return Error::success();
}

std::unique_ptr<Pass>
mmptx::createStubGenPass(std::vector<StubGenSpec> specs) {
  return std::make_unique<StubGenPass>(std::move(specs));
}
