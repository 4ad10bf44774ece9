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

Expected<std::string> ast::compileAstStub(const SourceMgr &Sm,
                                          unsigned BufferId,
                                          StringRef InjectName,
                                          ArrayRef<AstSiteVar> Vars,
                                          AstPtxContext &Ctx) {
  const stack::StackInfo &Info = Ctx.getInfo();
  auto StackOf = [&](const AstSiteVar &V) {
    int S = expr::findStackOf(Info, V);
    return S < 0 ? uint16_t(Info.NumStacks) : uint16_t(S);
  };
  std::vector<AstVarDecl> Predeclared;
  for (size_t I = 0; I != Vars.size(); ++I)
    for (StringRef Name : {Vars[I].Name, Vars[I].StableRegister})
      Predeclared.push_back({Name.str(), StackOf(Vars[I]), Vars[I].Kind,
                             SMLoc(), SMLoc(), uint32_t(I)});
  Expected<AstModule> M = parseAstModule(Sm, BufferId, Info, Predeclared);
  if (!M)
    return M.takeError();

  // Map every variable of the program onto one of the inject.
  std::vector<AstVar> Inputs;
  std::vector<int> SiteVarOf;
  for (const AstVarDecl &D : M->Vars) {
    const AstSiteVar *V = expr::findSiteVar(Vars, D.Name);
    if (!V)
      return DiagnosticError::get(Sm, D.Loc,
                                  "inject '" + InjectName +
                                      "' has no variable '" + D.Name + "'");
    std::string Misfit =
        expr::checkSiteVarUse(Info, InjectName, *V, D.StackIdx, D.Kind);
    if (!Misfit.empty())
      return DiagnosticError::get(Sm, D.Loc, Misfit);
    Inputs.push_back({V->StableRegister, D.StackIdx});
    SiteVarOf.push_back(int(V - Vars.data()));
  }

  // One expression per variable; zero for out variables without one.
  SmallVector<bool, 16> Written(Vars.size(), false);
  std::vector<AstOutput> Outputs;
  for (const AstOutputDecl &O : M->Outputs) {
    int Sv = SiteVarOf[O.Var];
    if (Written[Sv])
      return DiagnosticError::get(
          Sm, O.Expr.Loc, "variable '" + Vars[Sv].Name + "' is written twice");
    Written[Sv] = true;
    Outputs.push_back({Inputs[O.Var], O.Expr.Words});
  }
  std::vector<std::array<uint64_t, 2>> ZeroWords;
  ZeroWords.reserve(Vars.size());
  for (size_t I = 0; I != Vars.size(); ++I) {
    if (Vars[I].Kind != RegKind::Out || Written[I])
      continue;
    uint16_t S = StackOf(Vars[I]);
    if (S >= Info.NumStacks)
      return DiagnosticError::get(
          Sm,
          SMLoc::getFromPointer(Sm.getMemoryBuffer(BufferId)->getBufferStart()),
          "out variable '" + Vars[I].Name + "' of inject '" + InjectName +
              "' cannot be zeroed: " +
              expr::describeMissingStack(Info, Vars[I]) + "; or write it");
    ZeroWords.push_back({encodeConstantBits(S, 0), encodeReturn()});
    Outputs.push_back({{Vars[I].StableRegister, S}, ZeroWords.back()});
  }
  std::vector<ArrayRef<uint64_t>> Routines;
  for (const AstRoutineDecl &R : M->Routines)
    Routines.push_back(R.Body.Words);
  Expected<StringRef> Stub = Ctx.compile(AstProgram{Outputs, Routines}, Inputs);
  if (!Stub)
    return locateAstError(Stub.takeError(), Sm, *M);
  return Stub->str();
}
