//===- StackRandom.cpp - Random Stack PTX programs ------------------------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Word mix of randomWords (percent): PTX 35, input 14, constant 14, meta 10,
/// meta constant 7, special 4, store 4, load 4, routine 3, return 1, raw
/// random word 4. One index in twenty is out of range.
///
//===----------------------------------------------------------------------===//

#include "mmptx/Stack/StackRandom.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"

using namespace llvm;
using namespace mmptx;
using namespace mmptx::stack;

static uint32_t pickIndex(StackRng &rng, uint32_t n) {
  if (rng.below(20) == 0)
    return n + rng.below(1000);
  return rng.below(n ? n : 1);
}

std::vector<uint64_t> stack::randomWords(StackRng &rng, size_t n,
                                         const StackInfo &info,
                                         uint32_t numRegs,
                                         uint32_t numRoutines) {
  std::vector<uint64_t> words;
  words.reserve(n);
  while (words.size() < n) {
    uint32_t r = rng.below(100);
    uint64_t w;
    if (r < 35) {
      w = encodePtx(pickIndex(rng, info.numInstrs));
    } else if (r < 49) {
      w = encodeInput(pickIndex(rng, numRegs));
    } else if (r < 63) {
      uint32_t bits = rng.below(4) ? uint32_t(rng.next()) : rng.below(8);
      w = encodeConstant(uint16_t(pickIndex(rng, info.numStacks)), bits);
    } else if (r < 73) {
      w = encodeMeta(uint16_t(pickIndex(rng, info.numStacks)),
                     MetaOp(pickIndex(rng, NumMetaOps)));
    } else if (r < 80) {
      w = encodeMetaConstant(rng.below(6));
    } else if (r < 84) {
      w = encodeSpecial(pickIndex(rng, info.numSpecials));
    } else if (r < 88) {
      w = encodeStore(uint16_t(pickIndex(rng, info.numStacks)),
                      pickIndex(rng, 32));
    } else if (r < 92) {
      w = encodeLoad(pickIndex(rng, 32));
    } else if (r < 95) {
      w = encodeRoutine(pickIndex(rng, numRoutines));
    } else if (r < 96) {
      w = encodeReturn();
    } else {
      w = rng.next();
    }
    words.push_back(w);
  }
  return words;
}

std::vector<uint64_t> stack::randomF32Program(StackRng &rng, size_t n,
                                              const StackInfo &info,
                                              uint32_t numInputs) {
  int f32 = info.findStack("F32");
  std::vector<uint32_t> instrs;
  for (uint32_t i = 0; i != info.numInstrs; ++i) {
    const PtxInstrDesc &d = info.instrs[i];
    bool ok = d.numRets == 1;
    for (unsigned a = 0; a != d.numArgs && ok; ++a)
      ok = info.argTypes[d.args[a]].stackIdx == uint16_t(f32) &&
           info.argTypes[d.args[a]].numVecElems == 0;
    for (unsigned r = 0; r != d.numRets && ok; ++r)
      ok = info.argTypes[d.rets[r]].stackIdx == uint16_t(f32) &&
           info.argTypes[d.rets[r]].numVecElems == 0;
    if (ok)
      instrs.push_back(i);
  }
  std::vector<uint64_t> words;
  words.reserve(n);
  while (words.size() < n) {
    uint32_t r = rng.below(100);
    if (r < 30)
      words.push_back(encodeInput(rng.below(numInputs)));
    else if (r < 45)
      words.push_back(
          encodeConstant(uint16_t(f32), 0x3f800000u + (rng.below(64) << 18)));
    else if (r < 92)
      words.push_back(encodePtx(instrs[rng.below(instrs.size())]));
    else if (r < 96)
      words.push_back(encodeMeta(uint16_t(f32), MetaOp::Dup));
    else
      words.push_back(encodeMeta(uint16_t(f32), MetaOp::Swap));
  }
  return words;
}

void stack::mutateProgram(StackRng &rng, std::vector<uint64_t> &words,
                          ArrayRef<uint64_t> vocabulary, unsigned maxEdits) {
  for (unsigned k = 1 + rng.below(maxEdits); k; --k) {
    uint64_t w = vocabulary[rng.below(vocabulary.size())];
    size_t at = rng.below(words.size() + 1);
    switch (rng.below(3)) {
    case 0: // replace
      if (at < words.size()) {
        words[at] = w;
        break;
      }
      LLVM_FALLTHROUGH;
    case 1: // insert
      words.insert(words.begin() + at, w);
      break;
    default: // delete
      if (at < words.size())
        words.erase(words.begin() + at);
    }
  }
}

std::vector<RegisterDecl>
stack::makeRandomTestRegisters(const StackInfo &info) {
  std::vector<RegisterDecl> regs;
  for (RegKind kind : {RegKind::In, RegKind::Out})
    for (uint32_t s = 0; s != info.numStacks; ++s) {
      RegisterDecl d;
      d.name = ((kind == RegKind::In ? "i" : "o") + Twine(s)).str();
      d.stackIdx = uint16_t(s);
      d.kind = kind;
      regs.push_back(std::move(d));
    }
  return regs;
}

std::string stack::makeRandomKernelModule(const StackInfo &info, uint64_t seed,
                                          unsigned count, uint32_t targetSm) {
  std::vector<RegisterDecl> decls = makeRandomTestRegisters(info);
  std::vector<Register> regs;
  for (const RegisterDecl &d : decls)
    regs.push_back({d.name, d.stackIdx, d.kind});
  std::vector<uint32_t> requests;
  for (uint32_t s = 0; s != info.numStacks; ++s)
    requests.push_back(info.numStacks + s);

  StackRng rng(seed);
  // The target, not the programs, keeps out what the module's target lacks.
  StackPtxOptions opts;
  opts.targetSm = targetSm;
  StackPtxContext ctx(info, opts);
  std::string out = ".version 9.0\n.target sm_" + std::to_string(targetSm) +
                    "\n.address_size 64\n\n";
  for (unsigned k = 0; k != count; ++k) {
    std::vector<std::vector<uint64_t>> routines(3);
    for (auto &r : routines)
      r = randomWords(rng, 1 + rng.below(16), info, regs.size(), 3);
    std::vector<ArrayRef<uint64_t>> refs(routines.begin(), routines.end());
    std::vector<uint64_t> main =
        randomWords(rng, 1 + rng.below(256), info, regs.size(), 3);
    Expected<StringRef> stub = ctx.compile({main, refs}, regs, requests);
    if (!stub) {
      consumeError(stub.takeError());
      continue;
    }
    out += ".visible .entry k" + std::to_string(k) + "()\n{\n";
    for (const RegisterDecl &d : decls)
      out += std::string("\t.reg .") + info.literalPrefixes[d.stackIdx] + " %" +
             d.name + ";\n";
    for (const RegisterDecl &d : decls) {
      if (d.kind != RegKind::In)
        continue;
      StringRef p = info.literalPrefixes[d.stackIdx];
      std::string op = p == "u8" || p == "s8" ? ("cvt." + p + "." + p).str()
                                              : ("mov." + p).str();
      std::string zero = p == "f32"   ? "0f00000000"
                         : p == "f64" ? "0d0000000000000000"
                                      : "0";
      out += "\t" + op + " %" + d.name + ", " + zero + ";\n";
    }
    out += stub->str();
    out += "\n\tret;\n}\n\n";
  }
  return out;
}
