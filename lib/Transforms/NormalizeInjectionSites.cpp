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
///     scope before the site, with the marker's register type, that every
///     in and mod variable is set by a `mov %_x<i>, ...` before the site in
///     its scope, and that every mod and out variable is read back by a
///     `mov ..., %_x<i>` after it. Without these a stub reads garbage or its
///     results are silently dropped. verifyNormalizedSite() runs this
///     check alone for the tools that render.
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
  Error run(Module &m) override;

private:
  Error rewriteLegacySite(Module &m, const InjectModule &iM,
                          const InjectSite &site);
};
} // namespace

static const InjectType *lookupBuiltinType(StringRef token) {
  for (const InjectType &t : getBuiltinInjectTypes())
    if (t.token == token)
      return &t;
  return nullptr;
}

Error NormalizeInjectionSitesPass::rewriteLegacySite(Module &m,
                                                     const InjectModule &iM,
                                                     const InjectSite &site) {
  const Inject &inj = iM.getInject(site.inject);
  if (inj.name.find_first_of(" \t") != StringRef::npos)
    return DiagnosticError::get(
        m.getSourceMgr(), m.getLoc(site.markerOffset),
        "inject name '" + inj.name +
            "' contains blanks and cannot be written as an mmptx marker");
  ArrayRef<InjectVariable> vars = iM.getVariables(inj);
  ArrayRef<StringRef> regs = iM.getSiteRegisters(site);
  std::string s;
  if (m.getBuffer()[site.removeBegin] == '\t')
    s += '\t';
  s += "{\n";
  for (size_t i = 0; i != vars.size(); ++i)
    s += ("\t.reg ." + vars[i].regType + " %" + vars[i].stableRegister +
          ";\n")
             .str();
  auto movSuffix = [&](const InjectVariable &v) {
    const InjectType *t = lookupBuiltinType(v.typeToken);
    return t ? t->movSuffix : v.regType;
  };
  for (size_t i = 0; i != vars.size(); ++i)
    if (vars[i].kind != InjectArgKind::Out)
      s += ("\tmov." + movSuffix(vars[i]) + " %" + vars[i].stableRegister +
            ", " + regs[i] + ";\n")
               .str();
  s += ("\t// MMPTX_INJECT_BEGIN " + inj.name + " " + Twine(vars.size()) +
        "\n")
           .str();
  for (size_t i = 0; i != vars.size(); ++i)
    s += ("\t// MMPTX_INJECT_ARG " + Twine(i) + " " +
          getInjectArgKindName(vars[i].kind) + " " + vars[i].regType + " " +
          vars[i].typeToken + " " + vars[i].name + "\n")
             .str();
  s += ("\t// MMPTX_INJECT_END " + inj.name + "\n").str();
  for (size_t i = 0; i != vars.size(); ++i)
    if (vars[i].kind != InjectArgKind::In)
      s += ("\tmov." + movSuffix(vars[i]) + " " + regs[i] + ", %" +
            vars[i].stableRegister + ";\n")
               .str();
  s += "\t}";
  m.replaceRange(site.removeBegin, site.removeEnd, std::move(s));
  return Error::success();
}

/// \returns the register \p ins moves from (\p operand 1) or into
/// (\p operand 0) if \p ins is a two-operand `mov`, else "".
static StringRef movOperand(const Instruction &ins, unsigned operand) {
  if (ins.Mnemonic != "mov" || ins.Operands.size() != 2 || ins.Guard.size())
    return "";
  return ins.Operands[operand].Text;
}

/// Checks the movs around the site whose START marker is statement
/// \p markerStmt: walking its scope backwards for in/mod variables and
/// forwards from the END marker for mod/out variables. \p index maps each
/// stable register, `%_x0`, to its variable.
static Error verifyMovs(const Module &m, const InjectModule &iM,
                        const InjectSite &site, uint32_t markerStmt,
                        const StringMap<uint32_t> &index) {
  const Inject &inj = iM.getInject(site.inject);
  ArrayRef<InjectVariable> vars = iM.getVariables(inj);
  ArrayRef<Statement> stmts = m.statements();
  SmallVector<bool, 8> set(vars.size()), readBack(vars.size());
  Instruction ins;
  auto visit = [&](uint32_t j, unsigned operand,
                   SmallVectorImpl<bool> &found) {
    if (stmts[j].Kind != StmtKind::Instruction)
      return;
    ins.clear();
    if (Error e = parseInstruction(m, stmts[j], ins)) {
      consumeError(std::move(e));
      return;
    }
    auto it = index.find(movOperand(ins, operand));
    if (it != index.end())
      found[it->second] = true;
  };
  for (uint32_t j = markerStmt; j-- > 0;) {
    if (stmts[j].Kind == StmtKind::ScopeEnd) {
      j = stmts[j].Link; // a closed nested scope
      continue;
    }
    if (stmts[j].Kind == StmtKind::ScopeBegin ||
        stmts[j].Kind == StmtKind::FunctionHeader)
      break;
    visit(j, 0, set);
  }
  auto after = llvm::lower_bound(stmts, site.removeEnd,
                                 [](const Statement &s, uint32_t off) {
                                   return s.Begin < off;
                                 });
  for (uint32_t j = after - stmts.begin(); j < stmts.size(); ++j) {
    if (stmts[j].Kind == StmtKind::ScopeBegin) {
      j = stmts[j].Link;
      continue;
    }
    if (stmts[j].Kind == StmtKind::ScopeEnd ||
        stmts[j].Kind == StmtKind::FunctionHeader)
      break;
    visit(j, 1, readBack);
  }
  for (size_t i = 0; i != vars.size(); ++i) {
    const InjectVariable &v = vars[i];
    std::string reg = ("%" + v.stableRegister).str();
    if (v.kind != InjectArgKind::Out && !set[i])
      return DiagnosticError::get(
          m.getSourceMgr(), m.getLoc(site.markerOffset),
          getInjectArgKindName(v.kind) + " variable '" + v.name +
              "' of inject site '" + inj.name + "' is never set: no 'mov " +
              reg + ", ...' before the site in its scope");
    if (v.kind != InjectArgKind::In && !readBack[i])
      return DiagnosticError::get(
          m.getSourceMgr(), m.getLoc(site.markerOffset),
          getInjectArgKindName(v.kind) + " variable '" + v.name +
              "' of inject site '" + inj.name + "' is never read back: no "
              "'mov ..., " + reg + "' after the site in its scope");
  }
  return Error::success();
}

static Error verifyScaffold(const Module &m, const InjectModule &iM,
                            const InjectSite &site) {
  const Inject &inj = iM.getInject(site.inject);
  ArrayRef<InjectVariable> vars = iM.getVariables(inj);
  if (vars.empty())
    return Error::success();
  // The statement holding the START marker.
  ArrayRef<Statement> stmts = m.statements();
  auto it = llvm::upper_bound(stmts, site.markerOffset,
                              [](uint32_t off, const Statement &s) {
                                return off < s.Begin;
                              });
  if (it == stmts.begin())
    return Error::success();
  uint32_t idx = static_cast<uint32_t>(it - stmts.begin()) - 1;

  // Walk back through the enclosing scopes (skipping closed nested ones)
  // until every stable register is found.
  StringMap<uint32_t> wanted; // "%_x0" -> variable index
  for (size_t i = 0; i != vars.size(); ++i)
    wanted[("%" + vars[i].stableRegister).str()] = i;
  SmallVector<uint32_t, 8> declStmt(vars.size(), Statement::NoIndex);
  SmallVector<StringRef, 8> declType(vars.size());
  unsigned missing = vars.size();
  Declaration decl;
  for (uint32_t j = idx; j-- > 0 && missing;) {
    const Statement &s = stmts[j];
    if (s.Kind == StmtKind::ScopeEnd) {
      j = s.Link;
      continue;
    }
    if (s.Kind == StmtKind::FunctionHeader)
      break;
    if (s.Kind != StmtKind::Directive)
      continue;
    StringRef text = m.getText(s);
    if (!text.startswith(".reg") || !text.contains("%_x"))
      continue;
    decl = Declaration();
    if (Error e = parseDeclaration(m, s, decl)) {
      consumeError(std::move(e));
      continue;
    }
    for (const DeclaredName &n : decl.Names) {
      auto record = [&](StringRef regName) {
        auto w = wanted.find(regName);
        if (w == wanted.end() || declStmt[w->second] != Statement::NoIndex)
          return;
        declStmt[w->second] = j;
        declType[w->second] = decl.Type;
        --missing;
      };
      if (n.RangeCount < 0) {
        record(n.Name);
        continue;
      }
      for (int64_t k = 0; k < n.RangeCount && k < 4096; ++k)
        record((n.Name + Twine(k)).str());
    }
  }
  for (size_t i = 0; i != vars.size(); ++i) {
    const InjectVariable &v = vars[i];
    if (declStmt[i] == Statement::NoIndex)
      return DiagnosticError::get(
          m.getSourceMgr(), m.getLoc(site.markerOffset),
          "stable register '%" + v.stableRegister + "' of variable '" +
              v.name + "' is not declared in a scope enclosing inject site '" +
              inj.name + "'");
    if (declType[i] != ("." + v.regType).str())
      return DiagnosticError::getWithNote(
          m.getSourceMgr(), m.getLoc(stmts[declStmt[i]]),
          "stable register '%" + v.stableRegister + "' is declared '" +
              declType[i] + "' but variable '" + v.name + "' of inject '" +
              inj.name + "' has register type '." + v.regType + "'",
          m.getLoc(site.markerOffset), "inject site '" + inj.name + "' is here");
  }
  return verifyMovs(m, iM, site, idx, wanted);
}

Error NormalizeInjectionSitesPass::run(Module &m) {
  const InjectOptions *opts = getContext().injectOptions;
  auto iM = InjectModule::create(m, opts ? *opts : InjectOptions());
  if (!iM)
    return iM.takeError();
  for (const InjectSite &site : (*iM)->sites()) {
    Error e = site.format == InjectSiteFormat::Legacy
                  ? rewriteLegacySite(m, **iM, site)
                  : verifyScaffold(m, **iM, site);
    if (e)
      return e;
  }
  return Error::success();
}

Error mmptx::verifyNormalizedSite(const Module &m, const InjectModule &iM,
                                  const InjectSite &site) {
  if (site.format == InjectSiteFormat::Legacy)
    return Error::success();
  return verifyScaffold(m, iM, site);
}

std::unique_ptr<Pass> mmptx::createNormalizeInjectionSitesPass() {
  return std::make_unique<NormalizeInjectionSitesPass>();
}
