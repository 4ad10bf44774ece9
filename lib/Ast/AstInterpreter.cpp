//===- AstInterpreter.cpp - CPU reference for AST PTX ---------------------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "mmptx/Ast/AstInterpreter.h"

#include "mmptx/Expr/Evaluate.h"
#include "mmptx/Expr/Literal.h"

#include "llvm/ADT/SmallVector.h"

using namespace llvm;
using namespace mmptx;
using namespace mmptx::ast;

Expected<std::vector<uint64_t>>
ast::interpretAstPtx(AstPtxContext &ctx, const AstProgram &prog,
                     ArrayRef<AstVar> inputs, ArrayRef<uint64_t> values,
                     stack::SpecialValueFn specials) {
  if (Error e = ctx.build(prog, inputs))
    return e;
  const stack::StackInfo &info = ctx.getInfo();
  ArrayRef<AstPtxContext::Node> nodes = ctx.getNodes();
  ArrayRef<uint32_t> operands = ctx.getOperands();
  std::vector<uint8_t> live(nodes.size(), 0);
  for (uint32_t n : ctx.getOutputNodes())
    live[n] = 1;
  for (size_t n = nodes.size(); n-- != 0;)
    if (live[n] && nodes[n].kind == AstWordType::Ptx)
      for (uint32_t i = 0; i != nodes[n].numOps; ++i)
        live[operands[nodes[n].aux + i]] = 1;
  std::vector<uint64_t> vals(nodes.size(), 0);
  SmallVector<uint64_t, 8> args;
  for (size_t n = 0; n != nodes.size(); ++n) {
    if (!live[n])
      continue;
    const AstPtxContext::Node &nd = nodes[n];
    StringRef prefix = info.literalPrefixes[nd.stack];
    switch (nd.kind) {
    case AstWordType::Input: {
      uint64_t v = nd.payload < values.size() ? values[nd.payload] : 0;
      unsigned w = expr::getTypeWidth(prefix);
      vals[n] = w == 1 ? v != 0 : w == 64 ? v : v & ((1ULL << w) - 1);
      break;
    }
    case AstWordType::Constant:
      vals[n] = expr::literalValue(nd.payload, prefix);
      break;
    case AstWordType::Special:
      vals[n] = specials ? specials(nd.payload, nd.aux == ~0u ? 0 : nd.aux) : 0;
      break;
    case AstWordType::Ptx: {
      args.clear();
      for (uint32_t i = 0; i != nd.numOps; ++i)
        args.push_back(vals[operands[nd.aux + i]]);
      if (Error e = expr::evaluateInstr(info, nd.payload, args,
                                        MutableArrayRef<uint64_t>(vals[n])))
        return e;
      break;
    }
    default:
      break;
    }
  }
  std::vector<uint64_t> out;
  for (uint32_t n : ctx.getOutputNodes())
    out.push_back(vals[n]);
  return out;
}
