//===- ToolInit.h - What every tool's main does first -----------*- C++ -*-===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The start every mmptx tool shares, as the first line of its main:
///
///   int main(int argc, char **argv) {
///     ToolInit Init(argc, argv, "mmptx-x: what it does\n", &XCategory);
///
/// LLVM's process setup (InitLLVM: a stack trace on a crash), no error at
/// exit for a closed stderr (ToolOutput.h), `--version` printing mmptx's
/// and the CUDA libraries' versions (ToolVersion.h), then the command line,
/// parsed with only the tool's own options in `--help`.
///
//===----------------------------------------------------------------------===//

#ifndef MMPTX_SUPPORT_TOOLINIT_H
#define MMPTX_SUPPORT_TOOLINIT_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"

namespace mmptx {

/// Lives for main's whole run (its InitLLVM restores the process's state at
/// exit).
class ToolInit {
public:
  /// Sets the process up and parses \p Argv with \p Overview as the text of
  /// `--help`, which lists only \p Category's options (all where null).
  ToolInit(int &Argc, char **&Argv, llvm::StringRef Overview,
           llvm::cl::OptionCategory *Category);
  /// As above, for a tool with options registered at run time: calls
  /// \p RegisterOptions before parsing; `--help` lists \p Categories'
  /// options.
  ToolInit(int &Argc, char **&Argv, llvm::StringRef Overview,
           llvm::ArrayRef<const llvm::cl::OptionCategory *> Categories,
           llvm::function_ref<void()> RegisterOptions);

private:
  llvm::InitLLVM X;
};

/// Hides from `--help` every option outside \p Categories, except `--color`
/// (which every tool's diagnostics honour).
void hideUnrelatedToolOptions(
    llvm::ArrayRef<const llvm::cl::OptionCategory *> Categories);

} // namespace mmptx

#endif // MMPTX_SUPPORT_TOOLINIT_H
