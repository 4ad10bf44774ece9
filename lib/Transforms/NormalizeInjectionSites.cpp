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
///     registers. Rewrite each into mmptx's scoped form: `{`, one
///     `.reg .<type> %_x<i>;` per argument, `mov` in for in/mod arguments,
///     `MMPTX_INJECT_BEGIN/ARG/END` markers, `mov` out for mod/out
///     arguments, `}`. Argument i of every site is `%_x<i>`.
///  3. mm-ptx and mmptx sites are already normalised: check that each
///     variable's stable register is declared by a `.reg` in an enclosing
///     scope before the site, with the marker's register type.
///
//===----------------------------------------------------------------------===//

#include "mmptx/IR/Instruction.h"
#include "mmptx/IR/Module.h"
#include "mmptx/Inject/InjectModule.h"
#include "mmptx/Parser/StatementParser.h"
#include "mmptx/Support/Diagnostic.h"
#include "mmptx/Transforms/Passes.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"

using namespace llvm;
using namespace mmptx;
using namespace mmptx::ptx;

namespace {
class NormalizeInjectionSitesPass : public Pass {
public:
  StringRef getArgument() const override {
    return "normalize-injection-sites";
  }
  StringRef getDescription() const override {
    return "give every site of an inject the same stable registers";
  }
  Error run(Module &M) override;

private:
  Error rewriteLegacySite(Module &M, const InjectModule &IM,
                          const InjectSite &Site);
  Error verifyScaffold(const Module &M, const InjectModule &IM,
                       const InjectSite &Site);
};
} // namespace

static const InjectType *lookupBuiltinType(StringRef Token) {
  for (const InjectType &T : getBuiltinInjectTypes())
    if (T.token == Token)
      return &T;
  return nullptr;
}

Error NormalizeInjectionSitesPass::rewriteLegacySite(Module &M,
                                                     const InjectModule &IM,
                                                     const InjectSite &Site) {
  const Inject &Inj = IM.getInject(Site.inject);
  if (Inj.name.find_first_of(" \t") != StringRef::npos)
    return DiagnosticError::get(
        M.getSourceMgr(), M.getLoc(Site.markerOffset),
        "inject name '" + Inj.name +
            "' contains blanks and cannot be written as an mmptx marker");
  ArrayRef<InjectVariable> Vars = IM.getVariables(Inj);
  ArrayRef<StringRef> Regs = IM.getSiteRegisters(Site);
  std::string S;
  if (M.getBuffer()[Site.removeBegin] == '\t')
    S += '\t';
  S += "{\n";
  for (size_t I = 0; I != Vars.size(); ++I)
    S += ("\t.reg ." + Vars[I].regType + " %" + Vars[I].stableRegister +
          ";\n")
             .str();
  auto MovSuffix = [&](const InjectVariable &V) {
    const InjectType *T = lookupBuiltinType(V.typeToken);
    return T ? T->movSuffix : V.regType;
  };
  for (size_t I = 0; I != Vars.size(); ++I)
    if (Vars[I].kind != InjectArgKind::Out)
      S += ("\tmov." + MovSuffix(Vars[I]) + " %" + Vars[I].stableRegister +
            ", " + Regs[I] + ";\n")
               .str();
  S += ("\t// MMPTX_INJECT_BEGIN " + Inj.name + " " + Twine(Vars.size()) +
        "\n")
           .str();
  for (size_t I = 0; I != Vars.size(); ++I)
    S += ("\t// MMPTX_INJECT_ARG " + Twine(I) + " " +
          getInjectArgKindName(Vars[I].kind) + " " + Vars[I].regType + " " +
          Vars[I].typeToken + " " + Vars[I].name + "\n")
             .str();
  S += ("\t// MMPTX_INJECT_END " + Inj.name + "\n").str();
  for (size_t I = 0; I != Vars.size(); ++I)
    if (Vars[I].kind != InjectArgKind::In)
      S += ("\tmov." + MovSuffix(Vars[I]) + " " + Regs[I] + ", %" +
            Vars[I].stableRegister + ";\n")
               .str();
  S += "\t}";
  M.replaceRange(Site.removeBegin, Site.removeEnd, std::move(S));
  return Error::success();
}

Error NormalizeInjectionSitesPass::verifyScaffold(const Module &M,
                                                  const InjectModule &IM,
                                                  const InjectSite &Site) {
  const Inject &Inj = IM.getInject(Site.inject);
  ArrayRef<InjectVariable> Vars = IM.getVariables(Inj);
  if (Vars.empty())
    return Error::success();
  // The statement holding the START marker.
  ArrayRef<Statement> Stmts = M.statements();
  auto It = llvm::upper_bound(Stmts, Site.markerOffset,
                              [](uint32_t Off, const Statement &S) {
                                return Off < S.Begin;
                              });
  if (It == Stmts.begin())
    return Error::success();
  uint32_t Idx = static_cast<uint32_t>(It - Stmts.begin()) - 1;

  // Walk back through the enclosing scopes (skipping closed nested ones)
  // until every stable register is found.
  StringMap<uint32_t> Wanted; // "%_x0" -> variable index
  for (size_t I = 0; I != Vars.size(); ++I)
    Wanted[("%" + Vars[I].stableRegister).str()] = I;
  SmallVector<uint32_t, 8> DeclStmt(Vars.size(), Statement::NoIndex);
  SmallVector<StringRef, 8> DeclType(Vars.size());
  unsigned Missing = Vars.size();
  Declaration Decl;
  for (uint32_t J = Idx; J-- > 0 && Missing;) {
    const Statement &S = Stmts[J];
    if (S.Kind == StmtKind::ScopeEnd) {
      J = S.Link;
      continue;
    }
    if (S.Kind == StmtKind::FunctionHeader)
      break;
    if (S.Kind != StmtKind::Directive)
      continue;
    StringRef Text = M.getText(S);
    if (!Text.startswith(".reg") || !Text.contains("%_x"))
      continue;
    Decl = Declaration();
    if (Error E = parseDeclaration(M, S, Decl)) {
      consumeError(std::move(E));
      continue;
    }
    for (const DeclaredName &N : Decl.Names) {
      auto Record = [&](StringRef Name) {
        auto W = Wanted.find(Name);
        if (W == Wanted.end() || DeclStmt[W->second] != Statement::NoIndex)
          return;
        DeclStmt[W->second] = J;
        DeclType[W->second] = Decl.Type;
        --Missing;
      };
      if (N.RangeCount < 0) {
        Record(N.Name);
        continue;
      }
      for (int64_t K = 0; K < N.RangeCount && K < 4096; ++K)
        Record((N.Name + Twine(K)).str());
    }
  }
  for (size_t I = 0; I != Vars.size(); ++I) {
    const InjectVariable &V = Vars[I];
    if (DeclStmt[I] == Statement::NoIndex)
      return DiagnosticError::get(
          M.getSourceMgr(), M.getLoc(Site.markerOffset),
          "stable register '%" + V.stableRegister + "' of variable '" +
              V.name + "' is not declared in a scope enclosing inject site '" +
              Inj.name + "'");
    if (DeclType[I] != ("." + V.regType).str())
      return DiagnosticError::getWithNote(
          M.getSourceMgr(), M.getLoc(Stmts[DeclStmt[I]]),
          "stable register '%" + V.stableRegister + "' is declared '" +
              DeclType[I] + "' but variable '" + V.name + "' of inject '" +
              Inj.name + "' has register type '." + V.regType + "'",
          M.getLoc(Site.markerOffset), "inject site '" + Inj.name + "' is here");
  }
  return Error::success();
}

Error NormalizeInjectionSitesPass::run(Module &M) {
  auto IM = InjectModule::create(M);
  if (!IM)
    return IM.takeError();
  for (const InjectSite &Site : (*IM)->sites()) {
    Error E = Site.format == InjectSiteFormat::Legacy
                  ? rewriteLegacySite(M, **IM, Site)
                  : verifyScaffold(M, **IM, Site);
    if (E)
      return E;
  }
  return Error::success();
}

std::unique_ptr<Pass> mmptx::createNormalizeInjectionSitesPass() {
  return std::make_unique<NormalizeInjectionSitesPass>();
}
