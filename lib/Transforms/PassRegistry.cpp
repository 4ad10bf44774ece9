//===- PassRegistry.cpp - Registry of mmptx passes ------------------------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "mmptx/Transforms/Passes.h"

using namespace llvm;
using namespace mmptx;

ArrayRef<PassInfo> mmptx::getRegisteredPasses() {
  // Function-local so that command-line parsers built during static
  // initialisation of other translation units see it initialised.
  static const PassInfo Registry[] = {
#define MMPTX_PASS(ARG, FACTORY, DESC) {ARG, DESC, &FACTORY},
#define MMPTX_PASS_WITH_VALUES(ARG, FACTORY, VALUE, DESC)                      \
  {ARG, DESC, nullptr, VALUE, &FACTORY},
#define MMPTX_PASS_WITH_OPTIONS(ARG, FACTORY, VALUE, DESC)                     \
  {ARG, DESC, nullptr, VALUE, &FACTORY, /*ValueOptional=*/true},
#include "mmptx/Transforms/Passes.def"
  };
  return Registry;
}

const PassInfo *mmptx::lookupPass(StringRef Argument) {
  for (const PassInfo &P : getRegisteredPasses())
    if (P.Argument == Argument)
      return &P;
  return nullptr;
}
