//===- StackInterpreter.cpp - CPU reference for Stack PTX -----------------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// 1. Compile the program (the compiler's execution step and emission).
/// 2. Mark the nodes the requests reach.
/// 3. Evaluate the marked nodes in index order (operands always have lower
///    indices) with expr::evaluateInstr, or expr::evaluateContracted for
///    the mul + add pairs ptxas fuses (mmptx/Expr/Contraction.h), which
///    depends on the instructions' order in the stub: the program is
///    compiled, not only executed.
///
//===----------------------------------------------------------------------===//

#include "mmptx/Stack/StackInterpreter.h"

#include "mmptx/Expr/Contraction.h"

#include "llvm/ADT/SmallVector.h"

using namespace llvm;
using namespace mmptx;
using namespace mmptx::stack;
using expr::getValueWidth;
using expr::maskToWidth;

namespace {
class Evaluator {
public:
  Evaluator(StackPtxContext &Ctx, ArrayRef<expr::Contraction> Fused)
      : Ctx(Ctx), Info(Ctx.getInfo()), Fused(Fused) {}
  Error evalInstr(uint32_t N, std::vector<uint64_t> &Vals);

private:
  StackPtxContext &Ctx;
  const StackInfo &Info;
  /// Per node: for a single-result instruction's Result node, whether it
  /// takes a product unrounded.
  ArrayRef<expr::Contraction> Fused;
};
} // namespace

Error Evaluator::evalInstr(uint32_t N, std::vector<uint64_t> &Vals) {
  const StackNode &In = Ctx.getNodes()[N];
  unsigned NumArgs = Ctx.getNumArgElems(In.Payload);
  SmallVector<uint64_t, 8> A;
  for (unsigned I = 0; I != NumArgs; ++I)
    A.push_back(Vals[Ctx.getOperands()[In.Aux + I]]);
  MutableArrayRef<uint64_t> Results =
      MutableArrayRef<uint64_t>(Vals).slice(N + 1);
  const expr::Contraction &F = Fused[N + 1];
  if (F.Mul != expr::ContractionNode::None) {
    // Fused[] names the mul's Result node; its operands are its Instr's.
    const StackNode &M = Ctx.getNodes()[Ctx.getNodes()[F.Mul].Aux];
    uint64_t MulArgs[2] = {Vals[Ctx.getOperands()[M.Aux]],
                           Vals[Ctx.getOperands()[M.Aux + 1]]};
    return expr::evaluateContracted(Info, In.Payload, MulArgs, F.Negated, F.Pos,
                                    A[1 - F.Pos], Results);
  }
  return evaluateInstr(Info, In.Payload, A, Results);
}

/// The dataflow graph of the executed program for expr::planContractions:
/// a single-result instruction is its Result node.
static std::vector<expr::ContractionNode> buildGraph(StackPtxContext &Ctx) {
  ArrayRef<StackNode> Nodes = Ctx.getNodes();
  std::vector<expr::ContractionNode> Graph(Nodes.size());
  for (size_t I = 0, E = Nodes.size(); I != E; ++I) {
    const StackNode &Nd = Nodes[I];
    Graph[I].IsLiteral = Nd.Kind == StackNode::Constant;
    if (Nd.Kind != StackNode::Result || Nd.Aux + 1 != I)
      continue;
    bool Single = I + 1 == E || Nodes[I + 1].Kind != StackNode::Result ||
                  Nodes[I + 1].Aux != Nd.Aux;
    if (!Single)
      continue;
    const StackNode &In = Nodes[Nd.Aux];
    Graph[I].Instr = In.Payload;
    Graph[I].Position = In.Reg; // its place in the stub
    Graph[I].Ops =
        Ctx.getOperands().slice(In.Aux, Ctx.getNumArgElems(In.Payload));
  }
  return Graph;
}

Expected<std::vector<uint64_t>>
stack::interpretStackPtx(StackPtxContext &Ctx, const Program &Prog,
                         ArrayRef<Register> Regs, ArrayRef<uint32_t> Requests,
                         ArrayRef<uint64_t> Inputs, SpecialValueFn Specials) {
  // Compiled, not only executed: where each instruction lands in the stub
  // decides which mul + add pairs ptxas fuses.
  if (Expected<StringRef> Stub = Ctx.compile(Prog, Regs, Requests); !Stub)
    return Stub.takeError();
  const StackInfo &Info = Ctx.getInfo();
  ArrayRef<StackNode> Nodes = Ctx.getNodes();
  ArrayRef<uint32_t> Operands = Ctx.getOperands();
  // Mark what the requests reach; operands have lower indices than users.
  std::vector<uint8_t> Live(Nodes.size(), 0);
  for (uint32_t N : Ctx.getRequestNodes())
    if (N != StackPtxContext::None)
      Live[N] = 1;
  for (size_t I = Nodes.size(); I-- != 0;) {
    if (!Live[I])
      continue;
    const StackNode &Nd = Nodes[I];
    if (Nd.Kind == StackNode::Result)
      Live[Nd.Aux] = 1;
    if (Nd.Kind == StackNode::Instr)
      for (unsigned E = 0, C = Ctx.getNumArgElems(Nd.Payload); E != C; ++E)
        Live[Operands[Nd.Aux + E]] = 1;
  }
  std::vector<uint32_t> Outputs;
  for (uint32_t N : Ctx.getRequestNodes())
    if (N != StackPtxContext::None)
      Outputs.push_back(N);
  std::vector<expr::Contraction> Fused =
      expr::planContractions(Info, buildGraph(Ctx), Live, Outputs);
  std::vector<uint64_t> Vals(Nodes.size(), 0);
  Evaluator Ev(Ctx, Fused);
  for (size_t I = 0, E = Nodes.size(); I != E; ++I) {
    if (!Live[I])
      continue;
    const StackNode &Nd = Nodes[I];
    switch (Nd.Kind) {
    case StackNode::Input: {
      unsigned W = getValueWidth(Info.LiteralPrefixes[Nd.Stack]);
      Vals[I] =
          maskToWidth(Nd.Payload < Inputs.size() ? Inputs[Nd.Payload] : 0, W);
      break;
    }
    case StackNode::Constant: {
      StringRef Prefix = Info.LiteralPrefixes[Nd.Stack];
      if (Prefix == "f64")
        Vals[I] = expr::f64Bits(double(bitsF32(Nd.Payload)));
      else
        Vals[I] = maskToWidth(Nd.Payload, getValueWidth(Prefix));
      break;
    }
    case StackNode::Special:
      Vals[I] = Specials
                    ? Specials(Nd.Payload,
                               Nd.Aux == StackPtxContext::None ? 0 : Nd.Aux)
                    : 0;
      Vals[I] =
          maskToWidth(Vals[I], getValueWidth(Info.LiteralPrefixes[Nd.Stack]));
      break;
    case StackNode::Instr:
      if (Error Err = Ev.evalInstr(I, Vals))
        return Err;
      break;
    case StackNode::Result:
      break;
    }
  }
  std::vector<uint64_t> Out;
  ArrayRef<uint32_t> ReqNodes = Ctx.getRequestNodes();
  for (size_t I = 0, E = Requests.size(); I != E; ++I) {
    uint32_t N = ReqNodes[I];
    if (N != StackPtxContext::None) {
      Out.push_back(Vals[N]);
      continue;
    }
    uint32_t R = Requests[I];
    bool Mod = R < Regs.size() && Regs[R].Kind == RegKind::Mod;
    bool Keep = Mod || !Ctx.getOptions().ZeroUnsatisfied;
    Out.push_back(Keep && R < Inputs.size() ? Inputs[R] : 0);
  }
  return Out;
}
