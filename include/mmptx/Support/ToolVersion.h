//===- ToolVersion.h - What `--version` prints ------------------*- C++ -*-===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Every tool's `--version`: mmptx's version, the LLVM it was built with,
/// and each CUDA library it would use, loaded for the occasion
/// (SharedLibrary.h) with its version and file, or why it is not found.
///
//===----------------------------------------------------------------------===//

#ifndef MMPTX_SUPPORT_TOOLVERSION_H
#define MMPTX_SUPPORT_TOOLVERSION_H

#include "llvm/Support/raw_ostream.h"

#include <functional>
#include <string>

namespace mmptx {

/// mmptx's version, e.g. `0.1.0`.
const char *getMmptxVersion();

/// Prints the version text (see the file comment).
void printToolVersion(llvm::raw_ostream &OS);

/// Makes printToolVersion() the printer of `--version` (call before
/// cl::ParseCommandLineOptions).
void installToolVersionPrinter();

/// Adds a line to the version text: a library linked into this program
/// (nvPTXCompiler) says what it is. \p Line is called when printing.
void addToolVersionLine(std::function<std::string()> Line);

} // namespace mmptx

#endif // MMPTX_SUPPORT_TOOLVERSION_H
