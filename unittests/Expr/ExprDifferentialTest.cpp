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
  uint64_t h = 0xcbf29ce484222325ull;
  void bytes(const void *p, size_t n) {
    const unsigned char *c = static_cast<const unsigned char *>(p);
    for (size_t i = 0; i != n; ++i)
      h = (h ^ c[i]) * 0x100000001b3ull;
  }
  void text(StringRef s) {
    uint64_t n = s.size();
    bytes(&n, 8);
    bytes(s.data(), s.size());
  }
  void num(uint64_t v) { bytes(&v, 8); }
};

/// Programs that compiled to an error, over all cases run.
unsigned errorsSeen = 0;

unsigned scale() {
  const char *s = std::getenv("MMPTX_DIFF_SCALE");
  unsigned n = s ? unsigned(std::atoi(s)) : 1;
  return n ? n : 1;
}

/// Hashes \p count random Stack PTX programs compiled with \p strict for
/// \p targetSm, drawn from \p seed.
uint64_t hashStackPrograms(uint64_t seed, unsigned count, bool strict,
                           uint32_t targetSm) {
  const stack::StackInfo &in = info();
  std::vector<stack::RegisterDecl> decls = stack::makeRandomTestRegisters(in);
  std::vector<stack::Register> regs;
  for (const stack::RegisterDecl &d : decls)
    regs.push_back({d.name, d.stackIdx, d.kind});
  // Mod registers on a few stacks, one with a long name.
  static const char *const modNames[] = {"m0", "m1", "a_rather_long_mod_name"};
  for (uint16_t s = 0; s != 3; ++s)
    regs.push_back({modNames[s], s, stack::RegKind::Mod});
  std::vector<stack::Register> zeroRegs = {{"z0", 0, stack::RegKind::Out},
                                           {"z5", 5, stack::RegKind::Out}};

  stack::StackPtxOptions base;
  base.strict = strict;
  base.targetSm = targetSm;
  stack::StackPtxContext ctx(in, base);
  stack::StackRng rng(seed);
  std::vector<uint64_t> vocab =
      stack::randomWords(rng, 256, in, uint32_t(regs.size()), 3);
  Hasher h;
  for (unsigned k = 0; k != count; ++k) {
    // Every option but the target may change between compiles.
    stack::StackPtxOptions &o = ctx.getOptions();
    o = base;
    switch (rng.below(8)) {
    case 0:
      o.stackSize = 1 + rng.below(8);
      o.storeSize = rng.below(8);
      break;
    case 1:
      o.executionLimit = rng.below(64);
      o.maxFrameDepth = rng.below(4);
      break;
    case 2:
      o.maxNodes = 1 + rng.below(64);
      o.zeroUnsatisfied = false;
      break;
    default:
      break;
    }
    std::vector<std::vector<uint64_t>> routines(rng.below(4));
    for (auto &r : routines)
      r = stack::randomWords(rng, 1 + rng.below(16), in, uint32_t(regs.size()),
                             uint32_t(routines.size()));
    std::vector<ArrayRef<uint64_t>> refs(routines.begin(), routines.end());
    std::vector<uint64_t> main;
    if (rng.below(5) < 3) {
      main =
          stack::randomWords(rng, 1 + rng.below(256), in, uint32_t(regs.size()),
                             uint32_t(routines.size()));
    } else {
      main = stack::randomF32Program(rng, 1 + rng.below(128), in, 8);
      stack::mutateProgram(rng, main, vocab, 4);
    }
    std::vector<uint32_t> requests;
    for (unsigned r = 1 + rng.below(6); r; --r)
      requests.push_back(rng.below(20) == 0
                             ? uint32_t(regs.size()) + rng.below(4)
                             : in.numStacks + rng.below(in.numStacks + 3));
    ArrayRef<stack::Register> zeros;
    if (rng.below(4) == 0)
      zeros = zeroRegs;
    Expected<StringRef> stub = ctx.compile({main, refs}, regs, requests, zeros);
    if (!stub) {
      ++errorsSeen;
      h.text("error");
      h.text(toString(stub.takeError()));
      continue;
    }
    h.text(*stub);
    const stack::StackPtxStats &st = ctx.getStats();
    for (uint64_t v :
         {st.executedWords, uint64_t(st.numNodes), uint64_t(st.emittedInstrs),
          uint64_t(st.ignoredWords), uint64_t(st.noOpWords),
          uint64_t(st.droppedPushes), uint64_t(st.refusedCalls),
          uint64_t(st.unsatisfiedRequests), uint64_t(st.zeroedRequests),
          uint64_t(st.hitExecutionLimit), uint64_t(st.hitNodeLimit)})
      h.num(v);
  }
  return h.h;
}

/// Hashes \p count random AST PTX modules: well-typed trees of every stack,
/// half of them mutated with AST words (errors included), some calling
/// routines.
uint64_t hashAstPrograms(uint64_t seed, unsigned count, uint32_t targetSm,
                         bool share) {
  const stack::StackInfo &in = info();
  ast::AstPtxOptions opts;
  opts.targetSm = targetSm;
  opts.shareSubexpressions = share;
  ast::AstPtxContext ctx(in, opts);
  stack::StackRng rng(seed);
  Hasher h;
  for (unsigned k = 0; k != count; ++k) {
    ast::AstModule m =
        ast::makeRandomAstModule(in, seed * 1000003 + k, 1 + rng.below(48),
                                 targetSm, {uint16_t(rng.below(in.numStacks))});
    std::vector<ast::AstVar> inputs = m.getInputs();
    // Two routines over the output's stack: arguments 0 and 1 combined.
    uint16_t st = m.vars[m.outputs[0].var].stackIdx;
    std::vector<std::vector<uint64_t>> routines(2);
    for (auto &r : routines) {
      r = ast::randomAstExpr(rng, in, st, 1 + rng.below(8), inputs, {},
                             targetSm);
      for (uint64_t &w : r)
        if (ast::getAstWordType(w) == ast::AstWordType::Input && rng.below(2))
          w = ast::encodeRoutineArg(rng.below(3));
    }
    std::vector<ArrayRef<uint64_t>> refs(routines.begin(), routines.end());
    std::vector<uint64_t> &words = m.outputs[0].expr.words;
    switch (rng.below(4)) {
    case 0: {
      // A call with two arguments in place of a leaf.
      size_t at = rng.below(uint32_t(words.size() - 1));
      std::vector<uint64_t> call = {words[at], words[at],
                                    ast::encodeRoutine(rng.below(3), 2)};
      words.erase(words.begin() + at);
      words.insert(words.begin() + at, call.begin(), call.end());
      break;
    }
    case 1: {
      // Random AST words: most are errors.
      uint64_t vocab[] = {
          ast::encodeInput(rng.below(3)),
          ast::encodeConstantBits(uint16_t(rng.below(in.numStacks + 1)),
                                  uint32_t(rng.next())),
          ast::encodePtx(rng.below(in.numInstrs + 2), uint16_t(rng.below(4))),
          ast::encodeRoutine(rng.below(3), uint16_t(rng.below(3))),
          ast::encodeRoutineArg(rng.below(2)),
          ast::encodeReturn(),
          ast::encodeSpecial(rng.below(in.numSpecials + 1), rng.below(4)),
          rng.next()};
      for (unsigned e = 1 + rng.below(3); e; --e) {
        size_t at = rng.below(uint32_t(words.size()));
        words[at] = vocab[rng.below(8)];
      }
      break;
    }
    default:
      break;
    }
    ast::AstProgram prog = m.getProgram();
    prog.routines = refs;
    Expected<StringRef> stub = ctx.compile(prog, inputs);
    if (!stub) {
      std::string msg;
      ast::AstResult r = ast::takeAstResult(stub.takeError(), &msg);
      ++errorsSeen;
      h.text("error");
      h.num(uint64_t(r));
      h.text(msg);
      continue;
    }
    h.text(*stub);
    h.num(ctx.getNumEmittedInstrs());
  }
  return h.h;
}

struct StackCase {
  uint64_t seed;
  bool strict;
  uint32_t targetSm;
  uint64_t expected;
};

// 4 x 25,000 programs: 100,000 in all.
const StackCase stackCases[] = {
    {1, false, 0, 0xf022292b6d030d25ull},
    {2, true, 0, 0x9956ebe360b691a4ull},
    {3, false, 75, 0x441725dafa681c5bull},
    {4, true, 75, 0x2bf61a6949f59490ull},
};

TEST(ExprDifferential, StackPtxStubs) {
  unsigned n = 25000 * scale();
  for (const StackCase &c : stackCases) {
    unsigned errorsBefore = errorsSeen;
    uint64_t got = hashStackPrograms(c.seed, n, c.strict, c.targetSm);
    std::printf("stack seed %llu: %016llx (%u of %u programs are errors)\n",
                (unsigned long long)c.seed, (unsigned long long)got,
                errorsSeen - errorsBefore, n);
    if (scale() == 1) {
      EXPECT_EQ(got, c.expected) << "seed " << c.seed;
    }
  }
}

struct AstCase {
  uint64_t seed;
  uint32_t targetSm;
  bool share;
  uint64_t expected;
};

// 3 x 10,000 modules.
const AstCase astCases[] = {
    {11, 0, true, 0x106353fe31df19e8ull},
    {12, 80, true, 0x8821353bd8ffa87full},
    {13, 0, false, 0xaeae7071bdc7e699ull},
};

TEST(ExprDifferential, AstPtxStubs) {
  unsigned n = 10000 * scale();
  for (const AstCase &c : astCases) {
    unsigned errorsBefore = errorsSeen;
    uint64_t got = hashAstPrograms(c.seed, n, c.targetSm, c.share);
    std::printf("ast seed %llu: %016llx (%u of %u modules are errors)\n",
                (unsigned long long)c.seed, (unsigned long long)got,
                errorsSeen - errorsBefore, n);
    if (scale() == 1) {
      EXPECT_EQ(got, c.expected) << "seed " << c.seed;
    }
  }
}

} // namespace
