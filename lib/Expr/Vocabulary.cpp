//===- Vocabulary.cpp - Named subsets of an instruction set ---------------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "mmptx/Expr/Vocabulary.h"
#include "mmptx/Support/Diagnostic.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringSwitch.h"

using namespace llvm;
using namespace mmptx;
using namespace mmptx::expr;

StringRef expr::getVocabularyName(Vocabulary V) {
  switch (V) {
  case Vocabulary::All:
    return "all";
  case Vocabulary::FastCompile:
    return "fast-compile";
  }
  llvm_unreachable("unknown vocabulary");
}

Expected<Vocabulary> expr::parseVocabularyName(StringRef Name) {
  if (Name == "all")
    return Vocabulary::All;
  if (Name == "fast-compile")
    return Vocabulary::FastCompile;
  return makeError("unknown vocabulary '" + Name +
                   "' (expected all or fast-compile)");
}

/// The f32 operations that PTX has in an `.ftz` form.
static bool hasFtzForm(StringRef Op) {
  return StringSwitch<bool>(Op)
      .Cases("add", "sub", "mul", "fma", "mad", "min", "max", "abs", true)
      .Cases("neg", "div", "sqrt", "rcp", "rsqrt", "sin", "cos", "lg2", true)
      .Cases("ex2", "setp", "set", "testp", true)
      .Default(false);
}

static bool isFastCompile(StringRef Ptx) {
  SmallVector<StringRef, 6> Parts;
  Ptx.split(Parts, '.');
  StringRef Op = Parts.front();
  bool Approx = is_contained(Parts, "approx");
  // IEEE-rounded division, square root and reciprocal, and integer
  // division: long inline sequences.
  if ((Op == "div" || Op == "sqrt" || Op == "rcp" || Op == "rem") && !Approx)
    return false;
  if (Parts.back() == "f32" && hasFtzForm(Op) && !is_contained(Parts, "ftz"))
    return false;
  return true;
}

bool expr::isInVocabulary(StringRef PtxOpcode, Vocabulary V) {
  switch (V) {
  case Vocabulary::All:
    return true;
  case Vocabulary::FastCompile:
    return isFastCompile(PtxOpcode);
  }
  llvm_unreachable("unknown vocabulary");
}

std::vector<uint32_t> expr::getVocabularyInstrs(const InstrSet &Info,
                                                Vocabulary V) {
  std::vector<uint32_t> Out;
  for (uint32_t I = 0; I != Info.NumInstrs; ++I)
    if (Info.InstrPtx && Info.InstrPtx[I] &&
        isInVocabulary(Info.InstrPtx[I], V))
      Out.push_back(I);
  return Out;
}
