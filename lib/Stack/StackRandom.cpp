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
#include "mmptx/Expr/PtxEmitter.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"

using namespace llvm;
using namespace mmptx;
using namespace mmptx::stack;

static uint32_t pickIndex(StackRng &Rng, uint32_t N) {
  if (Rng.below(20) == 0)
    return N + Rng.below(1000);
  return Rng.below(N ? N : 1);
}

std::vector<uint64_t> stack::randomWords(StackRng &Rng, size_t N,
                                         const StackInfo &Info,
                                         uint32_t NumRegs, uint32_t NumRoutines,
                                         expr::Vocabulary Vocabulary) {
  std::vector<uint32_t> Instrs;
  if (Vocabulary != expr::Vocabulary::All)
    Instrs = expr::getVocabularyInstrs(Info, Vocabulary);
  std::vector<uint64_t> Words;
  Words.reserve(N);
  while (Words.size() < N) {
    uint32_t R = Rng.below(100);
    uint64_t W;
    if (R < 35) {
      uint32_t I = pickIndex(Rng, Vocabulary == expr::Vocabulary::All
                                      ? Info.NumInstrs
                                      : uint32_t(Instrs.size()));
      // An out-of-range pick stays out of range: the instruction set's
      // size plus the excess.
      if (Vocabulary != expr::Vocabulary::All)
        I = I < Instrs.size() ? Instrs[I]
                              : Info.NumInstrs + (I - uint32_t(Instrs.size()));
      W = encodePtx(I);
    } else if (R < 49) {
      W = encodeInput(pickIndex(Rng, NumRegs));
    } else if (R < 63) {
      uint32_t Bits = Rng.below(4) ? uint32_t(Rng.next()) : Rng.below(8);
      W = encodeConstant(uint16_t(pickIndex(Rng, Info.NumStacks)), Bits);
    } else if (R < 73) {
      W = encodeMeta(uint16_t(pickIndex(Rng, Info.NumStacks)),
                     MetaOp(pickIndex(Rng, NumMetaOps)));
    } else if (R < 80) {
      W = encodeMetaConstant(Rng.below(6));
    } else if (R < 84) {
      W = encodeSpecial(pickIndex(Rng, Info.NumSpecials));
    } else if (R < 88) {
      W = encodeStore(uint16_t(pickIndex(Rng, Info.NumStacks)),
                      pickIndex(Rng, 32));
    } else if (R < 92) {
      W = encodeLoad(pickIndex(Rng, 32));
    } else if (R < 95) {
      W = encodeRoutine(pickIndex(Rng, NumRoutines));
    } else if (R < 96) {
      W = encodeReturn();
    } else {
      W = Rng.next();
    }
    Words.push_back(W);
  }
  return Words;
}

std::vector<uint64_t> stack::randomF32Program(StackRng &Rng, size_t N,
                                              const StackInfo &Info,
                                              uint32_t NumInputs,
                                              expr::Vocabulary Vocabulary) {
  int F32 = Info.findStack("F32");
  std::vector<uint32_t> Instrs;
  for (uint32_t I = 0; I != Info.NumInstrs; ++I) {
    const PtxInstrDesc &D = Info.Instrs[I];
    bool Ok =
        D.NumRets == 1 && expr::isInVocabulary(Info.InstrPtx[I], Vocabulary);
    for (unsigned A = 0; A != D.NumArgs && Ok; ++A)
      Ok = Info.ArgTypes[D.Args[A]].StackIdx == uint16_t(F32) &&
           Info.ArgTypes[D.Args[A]].NumVecElems == 0;
    for (unsigned R = 0; R != D.NumRets && Ok; ++R)
      Ok = Info.ArgTypes[D.Rets[R]].StackIdx == uint16_t(F32) &&
           Info.ArgTypes[D.Rets[R]].NumVecElems == 0;
    if (Ok)
      Instrs.push_back(I);
  }
  std::vector<uint64_t> Words;
  Words.reserve(N);
  while (Words.size() < N) {
    uint32_t R = Rng.below(100);
    if (R < 30)
      Words.push_back(encodeInput(Rng.below(NumInputs)));
    else if (R < 45)
      Words.push_back(
          encodeConstant(uint16_t(F32), 0x3f800000u + (Rng.below(64) << 18)));
    else if (R < 92)
      Words.push_back(encodePtx(Instrs[Rng.below(Instrs.size())]));
    else if (R < 96)
      Words.push_back(encodeMeta(uint16_t(F32), MetaOp::Dup));
    else
      Words.push_back(encodeMeta(uint16_t(F32), MetaOp::Swap));
  }
  return Words;
}

void stack::mutateProgram(StackRng &Rng, std::vector<uint64_t> &Words,
                          ArrayRef<uint64_t> Vocabulary, unsigned MaxEdits) {
  for (unsigned K = 1 + Rng.below(MaxEdits); K; --K) {
    uint64_t W = Vocabulary[Rng.below(Vocabulary.size())];
    size_t At = Rng.below(Words.size() + 1);
    switch (Rng.below(3)) {
    case 0: // replace
      if (At < Words.size()) {
        Words[At] = W;
        break;
      }
      LLVM_FALLTHROUGH;
    case 1: // insert
      Words.insert(Words.begin() + At, W);
      break;
    default: // delete
      if (At < Words.size())
        Words.erase(Words.begin() + At);
    }
  }
}

std::vector<RegisterDecl>
stack::makeRandomTestRegisters(const StackInfo &Info) {
  std::vector<RegisterDecl> Regs;
  for (RegKind Kind : {RegKind::In, RegKind::Out})
    for (uint32_t S = 0; S != Info.NumStacks; ++S) {
      RegisterDecl D;
      D.Name = ((Kind == RegKind::In ? "i" : "o") + Twine(S)).str();
      D.StackIdx = uint16_t(S);
      D.Kind = Kind;
      Regs.push_back(std::move(D));
    }
  return Regs;
}

std::string stack::makeRandomKernelModule(const StackInfo &Info, uint64_t Seed,
                                          unsigned Count, uint32_t TargetSm) {
  std::vector<RegisterDecl> Decls = makeRandomTestRegisters(Info);
  std::vector<Register> Regs;
  for (const RegisterDecl &D : Decls)
    Regs.push_back({D.Name, D.StackIdx, D.Kind});
  std::vector<uint32_t> Requests;
  for (uint32_t S = 0; S != Info.NumStacks; ++S)
    Requests.push_back(Info.NumStacks + S);

  StackRng Rng(Seed);
  // The target, not the programs, keeps out what the module's target lacks.
  StackPtxOptions Opts;
  Opts.TargetSm = TargetSm;
  StackPtxContext Ctx(Info, Opts);
  std::string Out = ".version 9.0\n.target sm_" + std::to_string(TargetSm) +
                    "\n.address_size 64\n\n";
  for (unsigned K = 0; K != Count; ++K) {
    std::vector<std::vector<uint64_t>> Routines(3);
    for (auto &R : Routines)
      R = randomWords(Rng, 1 + Rng.below(16), Info, Regs.size(), 3);
    std::vector<ArrayRef<uint64_t>> Refs(Routines.begin(), Routines.end());
    std::vector<uint64_t> Main =
        randomWords(Rng, 1 + Rng.below(256), Info, Regs.size(), 3);
    Expected<StringRef> Stub = Ctx.compile({Main, Refs}, Regs, Requests);
    if (!Stub) {
      consumeError(Stub.takeError());
      continue;
    }
    Out += ".visible .entry k" + std::to_string(K) + "()\n{\n";
    for (const RegisterDecl &D : Decls)
      Out += expr::ptxRegisterDecl(Info.LiteralPrefixes[D.StackIdx], D.Name);
    for (const RegisterDecl &D : Decls)
      if (D.Kind == RegKind::In)
        Out += expr::ptxZeroRegister(Info.LiteralPrefixes[D.StackIdx], D.Name);
    Out += Stub->str();
    Out += "\n\tret;\n}\n\n";
  }
  return Out;
}
