//===- PassRegistry.cpp - Registry of mmptx passes ------------------------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "mmptx/Transforms/Passes.h"

#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace mmptx;

static const PassInfo Registry[] = {
#define MMPTX_PASS(ARG, FACTORY, DESC) {ARG, DESC, &FACTORY},
#include "mmptx/Transforms/Passes.def"
};

ArrayRef<PassInfo> mmptx::getRegisteredPasses() { return Registry; }

const PassInfo *mmptx::lookupPass(StringRef Argument) {
  for (const PassInfo &P : Registry)
    if (P.Argument == Argument)
      return &P;
  return nullptr;
}

void mmptx::printPassList(raw_ostream &OS) {
  for (const PassInfo &P : Registry)
    OS << "  --" << P.Argument << "  " << P.Description << "\n";
}
