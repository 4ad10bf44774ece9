//===- NormalizeInjectionSites.cpp - Canonicalize injection sites ---------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Gives every site of an inject the same stable register names, so that one
/// stub serves all of its copies:
///  1. Find and check all sites (InjectModule: marker syntax, known types,
///     duplicates agreeing with the first site).
///  2. Legacy comment-form sites (`// %f1 mod f32 y`) name compiler
///     registers, checked at creation (declared, of a type the variable's
///     `mov` accepts, none shared by written variables). Rewrite each
///     with writeNormalizedSite into mmptx's scoped form: `{`, one
///     `.reg .<type> %_x<i>;` per argument, `mov` in for in/mod arguments,
///     `MMPTX_INJECT_BEGIN/ARG/END` markers, `mov` out for mod/out
///     arguments, `}`. Argument i of every site is `%_x<i>`. A variable
///     name with blanks (`x[ 0 ]`) is written as mmptx-annotate names its
///     expression (`x[0]`): mmptx markers name a variable with one token.
///  3. mm-ptx and mmptx sites are already normalised: check that each
///     variable's stable register is declared by a `.reg` in an enclosing
///     scope before the site, with the marker's register type, that every
///     in and mod variable is set by a `mov %_x<i>, ...` before the site in
///     its scope, and that every mod and out variable is read back by a
///     `mov ..., %_x<i>` after it. Without these a stub reads garbage or its
///     results are silently dropped. InjectModule::create runs these
///     checks (verifyNormalizedSite in InjectChecks.cpp) for every tool.
///
//===----------------------------------------------------------------------===//

#include "mmptx/Annotate/Annotate.h"
#include "mmptx/IR/Module.h"
#include "mmptx/Inject/InjectModule.h"
#include "mmptx/Support/Diagnostic.h"
#include "mmptx/Transforms/Passes.h"

using namespace llvm;
using namespace mmptx;
using namespace mmptx::ptx;

namespace {
class NormalizeInjectionSitesPass : public Pass {
public:
  StringRef getArgument() const override { return "normalize-injection-sites"; }
  Error run(Module &M) override;

private:
  Error rewriteLegacySite(Module &M, const InjectModule &IM,
                          const InjectSite &Site);
};
} // namespace

Error NormalizeInjectionSitesPass::rewriteLegacySite(Module &M,
                                                     const InjectModule &IM,
                                                     const InjectSite &Site) {
  const Inject &Inj = IM.getInject(Site.TheInject);
  if (Inj.Name.find_first_of(" \t") != StringRef::npos)
    return DiagnosticError::get(
        M.getSourceMgr(), M.getLoc(Site.MarkerOffset),
        "inject name '" + Inj.Name +
            "' contains blanks and cannot be written as an mmptx marker");
  // mmptx markers name a variable with one token: a legacy name with
  // blanks (`x[ 0 ]`) gets the name mmptx-annotate gives its expression.
  ArrayRef<InjectVariable> LegacyVars = IM.getVariables(Inj);
  std::vector<std::string> Names;
  for (const InjectVariable &V : LegacyVars) {
    Names.push_back(annotate::getVariableName(V.Name));
    if (Names.back().find(' ') != std::string::npos)
      return DiagnosticError::get(
          M.getSourceMgr(), M.getLoc(Site.MarkerOffset),
          "variable name '" + V.Name + "' of inject '" + Inj.Name +
              "' keeps blanks and cannot be written as an mmptx marker");
  }
  std::vector<InjectVariable> Vars(LegacyVars.begin(), LegacyVars.end());
  for (size_t I = 0, E = Vars.size(); I != E; ++I)
    Vars[I].Name = Names[I];
  std::string S;
  writeNormalizedSite(S, Inj, Vars, IM.getSiteRegisters(Site),
                      /*leadingTab=*/M.getBuffer()[Site.RemoveBegin] == '\t',
                      /*withMarkers=*/true);
  M.replaceRange(Site.RemoveBegin, Site.RemoveEnd, std::move(S));
  return Error::success();
}

Error NormalizeInjectionSitesPass::run(Module &M) {
  // Creation checks every site (InjectChecks.h): scaffolds of normalised
  // sites, compiler registers of legacy ones.
  const InjectOptions *Opts = getContext().InjectOpts;
  auto IM = InjectModule::create(M, Opts ? *Opts : InjectOptions());
  if (!IM)
    return IM.takeError();
  for (const InjectSite &Site : (*IM)->sites())
    if (Site.Format == InjectSiteFormat::Legacy)
      if (Error E = rewriteLegacySite(M, **IM, Site))
        return E;
  return Error::success();
}

std::unique_ptr<Pass> mmptx::createNormalizeInjectionSitesPass() {
  return std::make_unique<NormalizeInjectionSitesPass>();
}
