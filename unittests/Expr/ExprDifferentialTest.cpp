//===- ExprDifferentialTest.cpp - Stub text pinned over random programs ---===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Compiles seeded random Stack PTX and AST PTX programs and hashes every stub
// and every error message. The expected hashes were recorded from the
// compilers before they moved onto the shared expression layer: any change
// of a single output byte, statistic or error changes the hash. Set
// MMPTX_DIFF_SCALE=N to run N times as many programs (a different hash,
// printed, for comparing two builds).
//
//===----------------------------------------------------------------------===//

#include "mmptx/Ast/AstPtx.h"
#include "mmptx/Ast/AstRandom.h"
#include "mmptx/Stack/DefaultStackSet.h"
#include "mmptx/Stack/StackCompiler.h"
#include "mmptx/Stack/StackRandom.h"

#include "llvm/ADT/Twine.h"

#include "gtest/gtest.h"

#include <cstdlib>

using namespace llvm;
using namespace mmptx;

namespace {

const stack::StackInfo &info() { return stack::getDefaultStackInfo(); }

/// FNV-1a over bytes: stable across hosts and library versions.
struct Hasher {
  uint64_t H = 0xcbf29ce484222325ull;
  void bytes(const void *P, size_t N) {
    const unsigned char *C = static_cast<const unsigned char *>(P);
    for (size_t I = 0; I != N; ++I)
      H = (H ^ C[I]) * 0x100000001b3ull;
  }
  void text(StringRef S) {
    uint64_t N = S.size();
    bytes(&N, 8);
    bytes(S.data(), S.size());
  }
  void num(uint64_t V) { bytes(&V, 8); }
};

/// Programs that compiled to an error, over all cases run.
unsigned ErrorsSeen = 0;

unsigned scale() {
  const char *S = std::getenv("MMPTX_DIFF_SCALE");
  unsigned N = S ? unsigned(std::atoi(S)) : 1;
  return N ? N : 1;
}

/// Hashes \p Count random Stack PTX programs compiled with \p Strict for
/// \p TargetSm, drawn from \p Seed.
uint64_t hashStackPrograms(uint64_t Seed, unsigned Count, bool Strict,
                           uint32_t TargetSm) {
  const stack::StackInfo &In = info();
  std::vector<stack::RegisterDecl> Decls = stack::makeRandomTestRegisters(In);
  std::vector<stack::Register> Regs;
  for (const stack::RegisterDecl &D : Decls)
    Regs.push_back({D.Name, D.StackIdx, D.Kind});
  // Mod registers on a few stacks, one with a long name.
  static const char *const ModNames[] = {"m0", "m1", "a_rather_long_mod_name"};
  for (uint16_t S = 0; S != 3; ++S)
    Regs.push_back({ModNames[S], S, stack::RegKind::Mod});
  std::vector<stack::Register> ZeroRegs = {{"z0", 0, stack::RegKind::Out},
                                           {"z5", 5, stack::RegKind::Out}};

  stack::StackPtxOptions Base;
  Base.Strict = Strict;
  Base.TargetSm = TargetSm;
  stack::StackPtxContext Ctx(In, Base);
  stack::StackRng Rng(Seed);
  std::vector<uint64_t> Vocab =
      stack::randomWords(Rng, 256, In, uint32_t(Regs.size()), 3);
  Hasher H;
  for (unsigned K = 0; K != Count; ++K) {
    // Every option but the target may change between compiles.
    stack::StackPtxOptions &O = Ctx.getOptions();
    O = Base;
    switch (Rng.below(8)) {
    case 0:
      O.StackSize = 1 + Rng.below(8);
      O.StoreSize = Rng.below(8);
      break;
    case 1:
      O.ExecutionLimit = Rng.below(64);
      O.MaxFrameDepth = Rng.below(4);
      break;
    case 2:
      O.MaxNodes = 1 + Rng.below(64);
      O.ZeroUnsatisfied = false;
      break;
    default:
      break;
    }
    std::vector<std::vector<uint64_t>> Routines(Rng.below(4));
    for (auto &R : Routines)
      R = stack::randomWords(Rng, 1 + Rng.below(16), In, uint32_t(Regs.size()),
                             uint32_t(Routines.size()));
    std::vector<ArrayRef<uint64_t>> Refs(Routines.begin(), Routines.end());
    std::vector<uint64_t> Main;
    if (Rng.below(5) < 3) {
      Main =
          stack::randomWords(Rng, 1 + Rng.below(256), In, uint32_t(Regs.size()),
                             uint32_t(Routines.size()));
    } else {
      Main = stack::randomF32Program(Rng, 1 + Rng.below(128), In, 8);
      stack::mutateProgram(Rng, Main, Vocab, 4);
    }
    std::vector<uint32_t> Requests;
    for (unsigned R = 1 + Rng.below(6); R; --R)
      Requests.push_back(Rng.below(20) == 0
                             ? uint32_t(Regs.size()) + Rng.below(4)
                             : In.NumStacks + Rng.below(In.NumStacks + 3));
    ArrayRef<stack::Register> Zeros;
    if (Rng.below(4) == 0)
      Zeros = ZeroRegs;
    Expected<StringRef> Stub = Ctx.compile({Main, Refs}, Regs, Requests, Zeros);
    if (!Stub) {
      ++ErrorsSeen;
      H.text("error");
      H.text(toString(Stub.takeError()));
      continue;
    }
    H.text(*Stub);
    const stack::StackPtxStats &St = Ctx.getStats();
    for (uint64_t V :
         {St.ExecutedWords, uint64_t(St.NumNodes), uint64_t(St.EmittedInstrs),
          uint64_t(St.IgnoredWords), uint64_t(St.NoOpWords),
          uint64_t(St.DroppedPushes), uint64_t(St.RefusedCalls),
          uint64_t(St.UnsatisfiedRequests), uint64_t(St.ZeroedRequests),
          uint64_t(St.HitExecutionLimit), uint64_t(St.HitNodeLimit)})
      H.num(V);
  }
  return H.H;
}

/// Hashes \p Count random AST PTX modules: well-typed trees of every stack,
/// half of them mutated with AST words (errors included), some calling
/// routines.
uint64_t hashAstPrograms(uint64_t Seed, unsigned Count, uint32_t TargetSm,
                         bool Share) {
  const stack::StackInfo &In = info();
  ast::AstPtxOptions Opts;
  Opts.TargetSm = TargetSm;
  Opts.ShareSubexpressions = Share;
  ast::AstPtxContext Ctx(In, Opts);
  stack::StackRng Rng(Seed);
  Hasher H;
  for (unsigned K = 0; K != Count; ++K) {
    ast::AstModule M =
        ast::makeRandomAstModule(In, Seed * 1000003 + K, 1 + Rng.below(48),
                                 TargetSm, {uint16_t(Rng.below(In.NumStacks))});
    std::vector<ast::AstVar> Inputs = M.getInputs();
    // Two routines over the output's stack: arguments 0 and 1 combined.
    uint16_t St = M.Vars[M.Outputs[0].Var].StackIdx;
    std::vector<std::vector<uint64_t>> Routines(2);
    for (auto &R : Routines) {
      R = ast::randomAstExpr(Rng, In, St, 1 + Rng.below(8), Inputs, {},
                             TargetSm);
      for (uint64_t &W : R)
        if (ast::getAstWordType(W) == ast::AstWordType::Input && Rng.below(2))
          W = ast::encodeRoutineArg(Rng.below(3));
    }
    std::vector<ArrayRef<uint64_t>> Refs(Routines.begin(), Routines.end());
    std::vector<uint64_t> &Words = M.Outputs[0].Expr.Words;
    switch (Rng.below(4)) {
    case 0: {
      // A call with two arguments in place of a leaf.
      size_t At = Rng.below(uint32_t(Words.size() - 1));
      std::vector<uint64_t> Call = {Words[At], Words[At],
                                    ast::encodeRoutine(Rng.below(3), 2)};
      Words.erase(Words.begin() + At);
      Words.insert(Words.begin() + At, Call.begin(), Call.end());
      break;
    }
    case 1: {
      // Random AST words: most are errors.
      uint64_t Vocab[] = {
          ast::encodeInput(Rng.below(3)),
          ast::encodeConstantBits(uint16_t(Rng.below(In.NumStacks + 1)),
                                  uint32_t(Rng.next())),
          ast::encodePtx(Rng.below(In.NumInstrs + 2), uint16_t(Rng.below(4))),
          ast::encodeRoutine(Rng.below(3), uint16_t(Rng.below(3))),
          ast::encodeRoutineArg(Rng.below(2)),
          ast::encodeReturn(),
          ast::encodeSpecial(Rng.below(In.NumSpecials + 1), Rng.below(4)),
          Rng.next()};
      for (unsigned E = 1 + Rng.below(3); E; --E) {
        size_t At = Rng.below(uint32_t(Words.size()));
        Words[At] = Vocab[Rng.below(8)];
      }
      break;
    }
    default:
      break;
    }
    ast::AstProgram Prog = M.getProgram();
    Prog.Routines = Refs;
    Expected<StringRef> Stub = Ctx.compile(Prog, Inputs);
    if (!Stub) {
      std::string Msg;
      ast::AstResult R = ast::takeAstResult(Stub.takeError(), &Msg);
      ++ErrorsSeen;
      H.text("error");
      H.num(uint64_t(R));
      H.text(Msg);
      continue;
    }
    H.text(*Stub);
    H.num(Ctx.getNumEmittedInstrs());
  }
  return H.H;
}

struct StackCase {
  uint64_t Seed;
  bool Strict;
  uint32_t TargetSm;
  uint64_t ExpectedHash;
};

// 4 x 25,000 programs: 100,000 in all.
const StackCase StackCases[] = {
    {1, false, 0, 0x806ab13295da1eabull},
    {2, true, 0, 0xaf753a72bbdf431cull},
    {3, false, 75, 0xed35f345a48648a3ull},
    {4, true, 75, 0x6c6e5b73f6375eb6ull},
};

/// Hashes \p N programs of each of \p Cases with \p Hash, prints the hash
/// (\p Kind names the front end, \p What its programs), and checks it at
/// scale 1.
template <typename CaseT, size_t NumCases, typename HashFn>
void checkHashes(const char *Kind, const char *What, unsigned N,
                 const CaseT (&Cases)[NumCases], HashFn Hash) {
  for (const CaseT &C : Cases) {
    unsigned ErrorsBefore = ErrorsSeen;
    uint64_t Got = Hash(C);
    std::printf("%s seed %llu: %016llx (%u of %u %s are errors)\n", Kind,
                (unsigned long long)C.Seed, (unsigned long long)Got,
                ErrorsSeen - ErrorsBefore, N, What);
    if (scale() == 1) {
      EXPECT_EQ(Got, C.ExpectedHash) << "seed " << C.Seed;
    }
  }
}

TEST(ExprDifferential, StackPtxStubs) {
  unsigned N = 25000 * scale();
  checkHashes("stack", "programs", N, StackCases, [&](const StackCase &C) {
    return hashStackPrograms(C.Seed, N, C.Strict, C.TargetSm);
  });
}

struct AstCase {
  uint64_t Seed;
  uint32_t TargetSm;
  bool Share;
  uint64_t ExpectedHash;
};

// 3 x 10,000 modules.
const AstCase AstCases[] = {
    {11, 0, true, 0x3513bbd807dac121ull},
    {12, 80, true, 0x53bea3f6a3740303ull},
    {13, 0, false, 0x1318ca325c697ab7ull},
};

TEST(ExprDifferential, AstPtxStubs) {
  unsigned N = 10000 * scale();
  checkHashes("ast", "modules", N, AstCases, [&](const AstCase &C) {
    return hashAstPrograms(C.Seed, N, C.TargetSm, C.Share);
  });
}

} // namespace
