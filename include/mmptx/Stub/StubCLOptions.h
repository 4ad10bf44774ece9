//===- StubCLOptions.h - Command-line flags of StubOptions ------*- C++ -*-===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The flags that set StubOptions, defined once for every tool that builds
/// stubs (as CIRCT's registerFirtoolCLOptions() does for firtool's):
/// `--stack-*` for Stack PTX programs, `--ast-*` for AST PTX programs, and
/// `--stack-target-sm` for both.
/// A flag given on the command line overrides the compiler's default; one
/// that applies to no program of the run is an error.
///
//===----------------------------------------------------------------------===//

#ifndef MMPTX_STUB_STUBCLOPTIONS_H
#define MMPTX_STUB_STUBCLOPTIONS_H

#include "mmptx/Stub/StubBuilder.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Error.h"

namespace mmptx {
namespace stub {

/// Registers the flags of \p Kinds in \p Category, and `--stack-target-sm`
/// always: a tool that compiles one program kind registers that kind's
/// flags only (the other kind's are then unknown arguments). Call once,
/// before llvm::cl::ParseCommandLineOptions.
void registerStubCLOptions(llvm::cl::OptionCategory &Category,
                           llvm::ArrayRef<ProgramKind> Kinds = {
                               ProgramKind::Stack, ProgramKind::Ast});

/// Makes \p Spelling (without dashes) another name of the registered flag
/// \p Flag (`stack-size`), hidden from --help unless \p Visible: the older
/// spellings of a tool's flags keep working. A one-letter spelling also
/// takes its value attached (`-Idir`). Call after registerStubCLOptions(),
/// before parsing.
void addStubCLOptionAlias(llvm::StringRef Spelling, llvm::StringRef Flag,
                          bool Visible = false);

/// \returns the StubOptions the command line gives (the compilers' defaults
/// for flags not given). Requires registerStubCLOptions().
StubOptions getStubOptionsFromCL();

/// \returns an error naming the first flag given that applies to none of
/// \p Kinds, the kinds of the run's programs (every flag is an error when
/// there are none: \p What takes no programs).
llvm::Error checkStubCLOptionsApply(llvm::ArrayRef<ProgramKind> Kinds,
                                    llvm::StringRef What);

/// \returns the flag that sets StackPtxOptions field \p Field (`StackSize`
/// gives `--stack-size`), for messages about limits.
llvm::StringRef getStackOptionFlag(llvm::StringRef Field);

} // namespace stub
} // namespace mmptx

#endif // MMPTX_STUB_STUBCLOPTIONS_H
