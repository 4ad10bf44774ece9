//===- PassManager.cpp - Runs passes in order -----------------------------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "mmptx/IR/Module.h"
#include "mmptx/Parser/Parser.h"
#include "mmptx/Printer/Printer.h"
#include "mmptx/Support/Diagnostic.h"
#include "mmptx/Transforms/Pass.h"
#include "mmptx/Transforms/Passes.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

using namespace llvm;
using namespace mmptx;

Pass::~Pass() = default;

StringRef Pass::getDescription() const {
  const PassInfo *Info = lookupPass(getArgument());
  return Info ? Info->Description : StringRef();
}

const PassContext &Pass::getContext() const {
  static const PassContext Empty;
  return Context ? *Context : Empty;
}

Error PassManager::run(std::unique_ptr<ptx::Module> &M) {
  for (const std::unique_ptr<Pass> &P : Passes) {
    P->setContext(Context);
    if (Error E = P->run(*M))
      return E;
    if (!M->isModified())
      continue;
    // Materialise the edits so the next pass sees real statements. The new
    // buffer is named after the pass, so any diagnostic in text a pass
    // produced says where that text came from.
    std::string Text = printModuleToString(*M);
    unsigned ID = SM.AddNewSourceBuffer(
        MemoryBuffer::getMemBufferCopy(
            Text,
            (M->getBufferIdentifier() + " after --" + P->getArgument()).str()),
        SMLoc());
    auto NewM = VerifyEach ? parsePTX(SM, ID) : parseStructure(SM, ID);
    if (!NewM)
      return joinErrors(
          makeError("pass '" + P->getArgument() + "' produced malformed PTX"),
          NewM.takeError());
    M = std::move(*NewM);
  }
  return Error::success();
}
