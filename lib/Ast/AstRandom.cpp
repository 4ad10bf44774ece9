//===- AstRandom.cpp - Random well-typed AST PTX programs -----------------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "mmptx/Ast/AstRandom.h"

#include "mmptx/Expr/Literal.h"
#include "mmptx/Expr/PtxEmitter.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/Twine.h"

#include <cstring>

using namespace llvm;
using namespace mmptx;
using namespace mmptx::ast;
using expr::InstrSet;

namespace {
struct Gen {
  expr::Rng &Rng;
  const InstrSet &Info;
  ArrayRef<AstVar> Inputs;
  /// Per stack, the usable instructions giving a value on it.
  std::vector<std::vector<uint32_t>> ByStack;
  std::vector<SmallVector<uint16_t, 8>> OperandStacks;
  std::vector<uint64_t> Words;

  uint32_t randomBits(uint16_t S) {
    StringRef P = Info.LiteralPrefixes[S];
    if (P == "f32" || P == "f64") {
      float F = float(int(Rng.below(2001)) - 1000) / 8.0f;
      uint32_t B;
      std::memcpy(&B, &F, 4);
      return B;
    }
    unsigned W = expr::getTypeWidth(P);
    uint32_t V = uint32_t(Rng.next());
    if (W == 1)
      return V & 1;
    return W < 32 ? V & ((1u << W) - 1) : V;
  }
  void leaf(uint16_t S) {
    SmallVector<uint32_t, 4> Ins;
    for (uint32_t I = 0; I != Inputs.size(); ++I)
      if (Inputs[I].StackIdx == S)
        Ins.push_back(I);
    if (!Ins.empty() && Rng.below(2))
      Words.push_back(encodeInput(Ins[Rng.below(Ins.size())]));
    else
      Words.push_back(encodeConstantBits(S, randomBits(S)));
  }
  void gen(uint16_t S, unsigned N) {
    if (N > 1) {
      SmallVector<uint32_t, 16> Fit;
      for (uint32_t I : ByStack[S])
        if (OperandStacks[I].size() + 1 <= N)
          Fit.push_back(I);
      if (!Fit.empty()) {
        uint32_t Instr = Fit[Rng.below(Fit.size())];
        const auto &Ops = OperandStacks[Instr];
        // Split n - 1 words over the operands, at least one each.
        SmallVector<unsigned, 8> Share(Ops.size(), 1);
        for (unsigned Rest = N - 1 - Ops.size(); Rest; --Rest)
          ++Share[Rng.below(Ops.size())];
        for (size_t K = 0; K != Ops.size(); ++K)
          gen(Ops[K], Share[K]);
        Words.push_back(encodePtx(Instr, uint16_t(Ops.size())));
        return;
      }
    }
    leaf(S);
  }
};
} // namespace

std::vector<uint64_t> ast::randomAstExpr(expr::Rng &Rng, const InstrSet &Info,
                                         uint16_t Stack, unsigned Nodes,
                                         ArrayRef<AstVar> Inputs,
                                         ArrayRef<uint32_t> Instrs,
                                         uint32_t TargetSm) {
  Gen G{Rng, Info, Inputs, {}, {}, {}};
  G.ByStack.resize(Info.NumStacks);
  G.OperandStacks.resize(Info.NumInstrs);
  auto Consider = [&](uint32_t I) {
    const expr::PtxInstrDesc &D = Info.Instrs[I];
    if (D.NumRets != 1 || D.NumArgs == 0 ||
        Info.ArgTypes[D.Rets[0]].NumVecElems != 0)
      return;
    if (TargetSm && Info.InstrMinSm && Info.InstrMinSm[I] > TargetSm)
      return;
    for (unsigned A = 0; A != D.NumArgs; ++A) {
      const expr::ArgTypeInfo &T = Info.ArgTypes[D.Args[A]];
      G.OperandStacks[I].append(T.NumVecElems ? T.NumVecElems : 1, T.StackIdx);
    }
    G.ByStack[Info.ArgTypes[D.Rets[0]].StackIdx].push_back(I);
  };
  if (Instrs.empty())
    for (uint32_t I = 0; I != Info.NumInstrs; ++I)
      Consider(I);
  else
    for (uint32_t I : Instrs)
      Consider(I);
  G.gen(Stack, std::max(Nodes, 1u));
  G.Words.push_back(encodeReturn());
  return std::move(G.Words);
}

AstModule ast::makeRandomAstModule(const InstrSet &Info, uint64_t Seed,
                                   unsigned MaxNodes, uint32_t TargetSm,
                                   ArrayRef<uint16_t> Stacks,
                                   expr::Vocabulary Vocabulary) {
  std::vector<uint32_t> Instrs;
  if (Vocabulary != expr::Vocabulary::All)
    Instrs = expr::getVocabularyInstrs(Info, Vocabulary);
  SmallVector<uint16_t, 16> Chosen(Stacks.begin(), Stacks.end());
  if (Chosen.empty())
    for (uint32_t S = 0; S != Info.NumStacks; ++S)
      Chosen.push_back(uint16_t(S));
  AstModule M;
  for (InjectArgKind K : {InjectArgKind::In, InjectArgKind::Out})
    for (uint16_t S : Chosen) {
      AstVarDecl D;
      D.Name = ((K == InjectArgKind::In ? "i" : "o") + Twine(S)).str();
      D.StackIdx = S;
      D.Kind = K;
      M.Vars.push_back(std::move(D));
    }
  std::vector<AstVar> Inputs = M.getInputs();
  Inputs.resize(Chosen.size()); // only the in variables are read
  expr::Rng Rng(Seed);
  for (size_t K = 0; K != Chosen.size(); ++K) {
    AstOutputDecl O;
    O.Var = uint32_t(Chosen.size() + K);
    O.Expr.Words = randomAstExpr(Rng, Info, Chosen[K],
                                 1 + Rng.below(std::max(MaxNodes, 1u)), Inputs,
                                 Instrs, TargetSm);
    O.Expr.Locs.resize(O.Expr.Words.size());
    M.Outputs.push_back(std::move(O));
  }
  return M;
}

std::string ast::wrapAstStubInKernel(const InstrSet &Info, const AstModule &M,
                                     StringRef Stub, uint32_t TargetSm) {
  std::string Out = ".version 9.0\n.target sm_" +
                    std::to_string(TargetSm ? TargetSm : 80) +
                    "\n.address_size 64\n\n.visible .entry k()\n{\n";
  for (const AstVarDecl &D : M.Vars)
    Out += expr::ptxRegisterDecl(Info.LiteralPrefixes[D.StackIdx], D.Name);
  for (const AstVarDecl &D : M.Vars)
    if (D.Kind != InjectArgKind::Out)
      Out += expr::ptxZeroRegister(Info.LiteralPrefixes[D.StackIdx], D.Name);
  Out += Stub.str();
  Out += "\n\tret;\n}\n";
  return Out;
}
