//===- StackInterpreter.cpp - CPU reference for Stack PTX -----------------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// 1. Execute the program with the compiler's execution step.
/// 2. Mark the nodes the requests reach.
/// 3. Evaluate the marked nodes in index order (operands always have lower
///    indices) with expr::evaluateInstr.
///
//===----------------------------------------------------------------------===//

#include "mmptx/Stack/StackInterpreter.h"

#include "llvm/ADT/SmallVector.h"

using namespace llvm;
using namespace mmptx;
using namespace mmptx::stack;
using expr::getValueWidth;
using expr::maskToWidth;

namespace {
class Evaluator {
public:
  Evaluator(StackPtxContext &ctx) : ctx(ctx), info(ctx.getInfo()) {}
  Error evalInstr(uint32_t n, std::vector<uint64_t> &vals);

private:
  StackPtxContext &ctx;
  const StackInfo &info;
};
} // namespace

Error Evaluator::evalInstr(uint32_t n, std::vector<uint64_t> &vals) {
  const StackNode &in = ctx.getNodes()[n];
  unsigned numArgs = ctx.getNumArgElems(in.payload);
  SmallVector<uint64_t, 8> a;
  for (unsigned i = 0; i != numArgs; ++i)
    a.push_back(vals[ctx.getOperands()[in.aux + i]]);
  return evaluateInstr(info, in.payload, a,
                       MutableArrayRef<uint64_t>(vals).slice(n + 1));
}

Expected<std::vector<uint64_t>>
stack::interpretStackPtx(StackPtxContext &ctx, const Program &prog,
                         ArrayRef<Register> regs, ArrayRef<uint32_t> requests,
                         ArrayRef<uint64_t> inputs, SpecialValueFn specials) {
  if (Error e = ctx.execute(prog, regs, requests))
    return e;
  const StackInfo &info = ctx.getInfo();
  ArrayRef<StackNode> nodes = ctx.getNodes();
  ArrayRef<uint32_t> operands = ctx.getOperands();
  // Mark what the requests reach; operands have lower indices than users.
  std::vector<uint8_t> live(nodes.size(), 0);
  for (uint32_t n : ctx.getRequestNodes())
    if (n != StackPtxContext::None)
      live[n] = 1;
  for (size_t i = nodes.size(); i-- != 0;) {
    if (!live[i])
      continue;
    const StackNode &nd = nodes[i];
    if (nd.kind == StackNode::Result)
      live[nd.aux] = 1;
    if (nd.kind == StackNode::Instr)
      for (unsigned e = 0, c = ctx.getNumArgElems(nd.payload); e != c; ++e)
        live[operands[nd.aux + e]] = 1;
  }
  std::vector<uint64_t> vals(nodes.size(), 0);
  Evaluator ev(ctx);
  for (size_t i = 0, e = nodes.size(); i != e; ++i) {
    if (!live[i])
      continue;
    const StackNode &nd = nodes[i];
    switch (nd.kind) {
    case StackNode::Input: {
      unsigned w = getValueWidth(info.literalPrefixes[nd.stack]);
      vals[i] =
          maskToWidth(nd.payload < inputs.size() ? inputs[nd.payload] : 0, w);
      break;
    }
    case StackNode::Constant: {
      StringRef prefix = info.literalPrefixes[nd.stack];
      if (prefix == "f64")
        vals[i] = expr::f64Bits(double(bitsF32(nd.payload)));
      else
        vals[i] = maskToWidth(nd.payload, getValueWidth(prefix));
      break;
    }
    case StackNode::Special:
      vals[i] = specials
                    ? specials(nd.payload,
                               nd.aux == StackPtxContext::None ? 0 : nd.aux)
                    : 0;
      vals[i] =
          maskToWidth(vals[i], getValueWidth(info.literalPrefixes[nd.stack]));
      break;
    case StackNode::Instr:
      if (Error err = ev.evalInstr(i, vals))
        return err;
      break;
    case StackNode::Result:
      break;
    }
  }
  std::vector<uint64_t> out;
  ArrayRef<uint32_t> reqNodes = ctx.getRequestNodes();
  for (size_t i = 0, e = requests.size(); i != e; ++i) {
    uint32_t n = reqNodes[i];
    if (n != StackPtxContext::None) {
      out.push_back(vals[n]);
      continue;
    }
    uint32_t r = requests[i];
    bool mod = r < regs.size() && regs[r].kind == RegKind::Mod;
    bool keep = mod || !ctx.getOptions().zeroUnsatisfied;
    out.push_back(keep && r < inputs.size() ? inputs[r] : 0);
  }
  return out;
}
