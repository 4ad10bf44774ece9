//===- StackInfo.cpp - Stack PTX words ------------------------------------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The two numberings of the reference's stacks (the tables themselves are
/// the instruction set's, lib/Expr/InstrSet.cpp).
///
//===----------------------------------------------------------------------===//

#include "mmptx/Stack/StackInfo.h"

using namespace llvm;
using namespace mmptx;
using namespace mmptx::stack;

/// Stack index in the Examples numbering of each Tests-numbered stack.
static constexpr uint16_t TestsToExamples[] = {0, 1, 8, 2, 3, 4, 5, 6, 7};
/// The inverse.
static constexpr uint16_t ExamplesToTests[] = {0, 1, 3, 4, 5, 6, 7, 8, 2};

void stack::convertWordNumbering(MutableArrayRef<uint64_t> Words,
                                 WordNumbering From, WordNumbering To) {
  if (From == To)
    return;
  const uint16_t *Map =
      From == WordNumbering::Tests ? TestsToExamples : ExamplesToTests;
  for (uint64_t &W : Words) {
    WordType T = getWordType(W);
    if (T != WordType::Constant && T != WordType::Meta && T != WordType::Store)
      continue;
    uint16_t Aux = getWordAux(W);
    if (Aux < 9)
      W = makeWord(T, Map[Aux], getWordPayload(W));
  }
}
