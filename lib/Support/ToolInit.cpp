//===- ToolInit.cpp - What every tool's main does first -------------------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "mmptx/Support/ToolInit.h"
#include "mmptx/Support/ToolOutput.h"
#include "mmptx/Support/ToolVersion.h"

using namespace llvm;
using namespace mmptx;

ToolInit::ToolInit(int &Argc, char **&Argv, StringRef Overview,
                   cl::OptionCategory *Category)
    : X(Argc, Argv) {
  ignoreStderrWriteErrorsAtExit();
  installToolVersionPrinter();
  if (Category)
    cl::HideUnrelatedOptions(*Category);
  cl::ParseCommandLineOptions(Argc, Argv, Overview);
}

ToolInit::ToolInit(int &Argc, char **&Argv, StringRef Overview,
                   ArrayRef<const cl::OptionCategory *> Categories,
                   function_ref<void()> RegisterOptions)
    : X(Argc, Argv) {
  ignoreStderrWriteErrorsAtExit();
  installToolVersionPrinter();
  RegisterOptions();
  cl::HideUnrelatedOptions(Categories);
  cl::ParseCommandLineOptions(Argc, Argv, Overview);
}
