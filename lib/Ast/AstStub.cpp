//===- AstStub.cpp - AST PTX programs typed against an inject -------------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "mmptx/Ast/AstStub.h"

#include "mmptx/Ast/AstText.h"
#include "mmptx/Support/Diagnostic.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

#include <array>

using namespace llvm;
using namespace mmptx;
using namespace mmptx::ast;
using stack::RegKind;

Expected<std::string> ast::compileAstStub(const SourceMgr &sm,
                                          unsigned bufferID,
                                          StringRef injectName,
                                          ArrayRef<AstSiteVar> vars,
                                          AstPtxContext &ctx) {
  const stack::StackInfo &info = ctx.getInfo();
  auto stackOf = [&](const AstSiteVar &v) {
    int s = expr::findStackOf(info, v);
    return s < 0 ? uint16_t(info.numStacks) : uint16_t(s);
  };
  std::vector<AstVarDecl> predeclared;
  for (size_t i = 0; i != vars.size(); ++i)
    for (StringRef name : {vars[i].name, vars[i].stableRegister})
      predeclared.push_back({name.str(), stackOf(vars[i]), vars[i].kind,
                             SMLoc(), SMLoc(), uint32_t(i)});
  Expected<AstModule> m = parseAstModule(sm, bufferID, info, predeclared);
  if (!m)
    return m.takeError();

  // Map every variable of the program onto one of the inject.
  std::vector<AstVar> inputs;
  std::vector<int> siteVarOf;
  for (const AstVarDecl &d : m->vars) {
    const AstSiteVar *v = expr::findSiteVar(vars, d.name);
    if (!v)
      return DiagnosticError::get(sm, d.loc,
                                  "inject '" + injectName +
                                      "' has no variable '" + d.name + "'");
    std::string misfit =
        expr::checkSiteVarUse(info, injectName, *v, d.stackIdx, d.kind);
    if (!misfit.empty())
      return DiagnosticError::get(sm, d.loc, misfit);
    inputs.push_back({v->stableRegister, d.stackIdx});
    siteVarOf.push_back(int(v - vars.data()));
  }

  // One expression per variable; zero for out variables without one.
  SmallVector<bool, 16> written(vars.size(), false);
  std::vector<AstOutput> outputs;
  for (const AstOutputDecl &o : m->outputs) {
    int sv = siteVarOf[o.var];
    if (written[sv])
      return DiagnosticError::get(
          sm, o.expr.loc, "variable '" + vars[sv].name + "' is written twice");
    written[sv] = true;
    outputs.push_back({inputs[o.var], o.expr.words});
  }
  std::vector<std::array<uint64_t, 2>> zeroWords;
  zeroWords.reserve(vars.size());
  for (size_t i = 0; i != vars.size(); ++i) {
    if (vars[i].kind != RegKind::Out || written[i])
      continue;
    uint16_t s = stackOf(vars[i]);
    if (s >= info.numStacks)
      return DiagnosticError::get(
          sm,
          SMLoc::getFromPointer(sm.getMemoryBuffer(bufferID)->getBufferStart()),
          "out variable '" + vars[i].name + "' of inject '" + injectName +
              "' cannot be zeroed: " +
              expr::describeMissingStack(info, vars[i]) + "; or write it");
    zeroWords.push_back({encodeConstantBits(s, 0), encodeReturn()});
    outputs.push_back({{vars[i].stableRegister, s}, zeroWords.back()});
  }
  std::vector<ArrayRef<uint64_t>> routines;
  for (const AstRoutineDecl &r : m->routines)
    routines.push_back(r.body.words);
  Expected<StringRef> stub = ctx.compile(AstProgram{outputs, routines}, inputs);
  if (!stub)
    return locateAstError(stub.takeError(), sm, *m);
  return stub->str();
}
