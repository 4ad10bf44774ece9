//===- AstInterpreter.cpp - CPU reference for AST PTX ---------------------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "mmptx/Ast/AstInterpreter.h"

#include "mmptx/Expr/Contraction.h"
#include "mmptx/Expr/Evaluate.h"
#include "mmptx/Expr/Literal.h"

#include "llvm/ADT/SmallVector.h"

using namespace llvm;
using namespace mmptx;
using namespace mmptx::ast;

Expected<std::vector<uint64_t>>
ast::interpretAstPtx(AstPtxContext &Ctx, const AstProgram &Prog,
                     ArrayRef<AstVar> Inputs, ArrayRef<uint64_t> Values,
                     expr::SpecialValueFn Specials) {
  if (Error E = Ctx.build(Prog, Inputs))
    return E;
  const expr::InstrSet &Info = Ctx.getInfo();
  ArrayRef<AstPtxContext::Node> Nodes = Ctx.getNodes();
  ArrayRef<uint32_t> Operands = Ctx.getOperands();
  std::vector<uint8_t> Live(Nodes.size(), 0);
  for (uint32_t N : Ctx.getOutputNodes())
    Live[N] = 1;
  for (size_t N = Nodes.size(); N-- != 0;)
    if (Live[N] && Nodes[N].Kind == AstWordType::Ptx)
      for (uint32_t I = 0; I != Nodes[N].NumOps; ++I)
        Live[Operands[Nodes[N].Aux + I]] = 1;
  // The mul + add pairs ptxas fuses are computed fused.
  std::vector<expr::ContractionNode> Graph(Nodes.size());
  for (size_t N = 0; N != Nodes.size(); ++N) {
    const AstPtxContext::Node &Nd = Nodes[N];
    if (Nd.Kind == AstWordType::Ptx) {
      Graph[N].Instr = Nd.Payload;
      Graph[N].Ops = Operands.slice(Nd.Aux, Nd.NumOps);
    }
    Graph[N].IsLiteral = Nd.Kind == AstWordType::Constant;
    Graph[N].Position = uint32_t(N); // the stub is written in node order
  }
  std::vector<expr::Contraction> Fused =
      expr::planContractions(Info, Graph, Live, Ctx.getOutputNodes());
  std::vector<uint64_t> Vals(Nodes.size(), 0);
  SmallVector<uint64_t, 8> Args;
  for (size_t N = 0; N != Nodes.size(); ++N) {
    if (!Live[N])
      continue;
    const AstPtxContext::Node &Nd = Nodes[N];
    StringRef Prefix = Info.LiteralPrefixes[Nd.Stack];
    switch (Nd.Kind) {
    case AstWordType::Input: {
      uint64_t V = Nd.Payload < Values.size() ? Values[Nd.Payload] : 0;
      unsigned W = expr::getTypeWidth(Prefix);
      Vals[N] = W == 1 ? V != 0 : W == 64 ? V : V & ((1ULL << W) - 1);
      break;
    }
    case AstWordType::Constant:
      Vals[N] = expr::literalValue(Nd.Payload, Prefix);
      break;
    case AstWordType::Special:
      Vals[N] = Specials ? Specials(Nd.Payload, Nd.Aux == ~0u ? 0 : Nd.Aux) : 0;
      break;
    case AstWordType::Ptx: {
      Args.clear();
      for (uint32_t I = 0; I != Nd.NumOps; ++I)
        Args.push_back(Vals[Operands[Nd.Aux + I]]);
      if (uint32_t Mul = Fused[N].Mul; Mul != expr::ContractionNode::None) {
        const AstPtxContext::Node &M = Nodes[Mul];
        uint64_t MulArgs[2] = {Vals[Operands[M.Aux]],
                               Vals[Operands[M.Aux + 1]]};
        if (Error E = expr::evaluateContracted(
                Info, Nd.Payload, MulArgs, Fused[N].Negated, Fused[N].Pos,
                Args[1 - Fused[N].Pos], MutableArrayRef<uint64_t>(Vals[N])))
          return E;
        break;
      }
      if (Error E = expr::evaluateInstr(Info, Nd.Payload, Args,
                                        MutableArrayRef<uint64_t>(Vals[N])))
        return E;
      break;
    }
    default:
      break;
    }
  }
  std::vector<uint64_t> Out;
  for (uint32_t N : Ctx.getOutputNodes())
    Out.push_back(Vals[N]);
  return Out;
}
