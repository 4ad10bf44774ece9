//===- AstRandom.cpp - Random well-typed AST PTX programs -----------------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "mmptx/Ast/AstRandom.h"

#include "mmptx/Expr/Literal.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/Twine.h"

#include <cstring>

using namespace llvm;
using namespace mmptx;
using namespace mmptx::ast;
using stack::StackInfo;
using stack::StackRng;

namespace {
struct Gen {
  StackRng &rng;
  const StackInfo &info;
  ArrayRef<AstVar> inputs;
  /// Per stack, the usable instructions giving a value on it.
  std::vector<std::vector<uint32_t>> byStack;
  std::vector<SmallVector<uint16_t, 8>> operandStacks;
  std::vector<uint64_t> words;

  uint32_t randomBits(uint16_t s) {
    StringRef p = info.literalPrefixes[s];
    if (p == "f32" || p == "f64") {
      float f = float(int(rng.below(2001)) - 1000) / 8.0f;
      uint32_t b;
      std::memcpy(&b, &f, 4);
      return b;
    }
    unsigned w = expr::getTypeWidth(p);
    uint32_t v = uint32_t(rng.next());
    if (w == 1)
      return v & 1;
    return w < 32 ? v & ((1u << w) - 1) : v;
  }
  void leaf(uint16_t s) {
    SmallVector<uint32_t, 4> ins;
    for (uint32_t i = 0; i != inputs.size(); ++i)
      if (inputs[i].stackIdx == s)
        ins.push_back(i);
    if (!ins.empty() && rng.below(2))
      words.push_back(encodeInput(ins[rng.below(ins.size())]));
    else
      words.push_back(encodeConstantBits(s, randomBits(s)));
  }
  void gen(uint16_t s, unsigned n) {
    if (n > 1) {
      SmallVector<uint32_t, 16> fit;
      for (uint32_t i : byStack[s])
        if (operandStacks[i].size() + 1 <= n)
          fit.push_back(i);
      if (!fit.empty()) {
        uint32_t instr = fit[rng.below(fit.size())];
        const auto &ops = operandStacks[instr];
        // Split n - 1 words over the operands, at least one each.
        SmallVector<unsigned, 8> share(ops.size(), 1);
        for (unsigned rest = n - 1 - ops.size(); rest; --rest)
          ++share[rng.below(ops.size())];
        for (size_t k = 0; k != ops.size(); ++k)
          gen(ops[k], share[k]);
        words.push_back(encodePtx(instr, uint16_t(ops.size())));
        return;
      }
    }
    leaf(s);
  }
};
} // namespace

std::vector<uint64_t> ast::randomAstExpr(StackRng &rng, const StackInfo &info,
                                         uint16_t stack, unsigned nodes,
                                         ArrayRef<AstVar> inputs,
                                         ArrayRef<uint32_t> instrs,
                                         uint32_t targetSm) {
  Gen g{rng, info, inputs, {}, {}, {}};
  g.byStack.resize(info.numStacks);
  g.operandStacks.resize(info.numInstrs);
  auto consider = [&](uint32_t i) {
    const stack::PtxInstrDesc &d = info.instrs[i];
    if (d.numRets != 1 || d.numArgs == 0 ||
        info.argTypes[d.rets[0]].numVecElems != 0)
      return;
    if (targetSm && info.instrMinSm && info.instrMinSm[i] > targetSm)
      return;
    for (unsigned a = 0; a != d.numArgs; ++a) {
      const stack::ArgTypeInfo &t = info.argTypes[d.args[a]];
      g.operandStacks[i].append(t.numVecElems ? t.numVecElems : 1, t.stackIdx);
    }
    g.byStack[info.argTypes[d.rets[0]].stackIdx].push_back(i);
  };
  if (instrs.empty())
    for (uint32_t i = 0; i != info.numInstrs; ++i)
      consider(i);
  else
    for (uint32_t i : instrs)
      consider(i);
  g.gen(stack, std::max(nodes, 1u));
  g.words.push_back(encodeReturn());
  return std::move(g.words);
}

AstModule ast::makeRandomAstModule(const StackInfo &info, uint64_t seed,
                                   unsigned maxNodes, uint32_t targetSm,
                                   ArrayRef<uint16_t> stacks) {
  SmallVector<uint16_t, 16> chosen(stacks.begin(), stacks.end());
  if (chosen.empty())
    for (uint32_t s = 0; s != info.numStacks; ++s)
      chosen.push_back(uint16_t(s));
  AstModule m;
  for (stack::RegKind k : {stack::RegKind::In, stack::RegKind::Out})
    for (uint16_t s : chosen) {
      AstVarDecl d;
      d.name = ((k == stack::RegKind::In ? "i" : "o") + Twine(s)).str();
      d.stackIdx = s;
      d.kind = k;
      m.vars.push_back(std::move(d));
    }
  std::vector<AstVar> inputs = m.getInputs();
  inputs.resize(chosen.size()); // only the in variables are read
  StackRng rng(seed);
  for (size_t k = 0; k != chosen.size(); ++k) {
    AstOutputDecl o;
    o.var = uint32_t(chosen.size() + k);
    o.expr.words = randomAstExpr(rng, info, chosen[k],
                                 1 + rng.below(std::max(maxNodes, 1u)), inputs,
                                 {}, targetSm);
    o.expr.locs.resize(o.expr.words.size());
    m.outputs.push_back(std::move(o));
  }
  return m;
}

std::string ast::wrapAstStubInKernel(const StackInfo &info, const AstModule &m,
                                     StringRef stub, uint32_t targetSm) {
  std::string out = ".version 9.0\n.target sm_" +
                    std::to_string(targetSm ? targetSm : 80) +
                    "\n.address_size 64\n\n.visible .entry k()\n{\n";
  for (const AstVarDecl &d : m.vars)
    out += std::string("\t.reg .") + info.literalPrefixes[d.stackIdx] + " %" +
           d.name + ";\n";
  for (const AstVarDecl &d : m.vars) {
    if (d.kind == stack::RegKind::Out)
      continue;
    StringRef p = info.literalPrefixes[d.stackIdx];
    std::string op = p == "u8" || p == "s8" ? ("cvt." + p + "." + p).str()
                                            : ("mov." + p).str();
    std::string zero = p == "f32"   ? "0f00000000"
                       : p == "f64" ? "0d0000000000000000"
                                    : "0";
    out += "\t" + op + " %" + d.name + ", " + zero + ";\n";
  }
  out += stub.str();
  out += "\n\tret;\n}\n";
  return out;
}
