//===- ToolInit.cpp - What every tool's main does first -------------------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "mmptx/Support/ToolInit.h"
#include "mmptx/Support/ToolOutput.h"
#include "mmptx/Support/ToolVersion.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/WithColor.h"

using namespace llvm;
using namespace mmptx;

ToolInit::ToolInit(int &Argc, char **&Argv, StringRef Overview,
                   cl::OptionCategory *Category)
    : X(Argc, Argv) {
  ignoreStderrWriteErrorsAtExit();
  installToolVersionPrinter();
  if (Category)
    hideUnrelatedToolOptions(Category);
  cl::ParseCommandLineOptions(Argc, Argv, Overview);
}

ToolInit::ToolInit(int &Argc, char **&Argv, StringRef Overview,
                   ArrayRef<const cl::OptionCategory *> Categories,
                   function_ref<void()> RegisterOptions)
    : X(Argc, Argv) {
  ignoreStderrWriteErrorsAtExit();
  installToolVersionPrinter();
  RegisterOptions();
  hideUnrelatedToolOptions(Categories);
  cl::ParseCommandLineOptions(Argc, Argv, Overview);
}

void mmptx::hideUnrelatedToolOptions(
    ArrayRef<const cl::OptionCategory *> Categories) {
  SmallVector<const cl::OptionCategory *, 4> Shown(Categories.begin(),
                                                   Categories.end());
  Shown.push_back(&getColorCategory());
  cl::HideUnrelatedOptions(Shown);
}
