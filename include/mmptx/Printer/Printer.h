//===- Printer.h - PTX IR to text -------------------------------*- C++ -*-===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// IR → text. An unchanged module prints as its input, byte for byte; a
/// changed one prints its untouched bytes verbatim with each edit spliced in.
///
//===----------------------------------------------------------------------===//

#ifndef MMPTX_PRINTER_PRINTER_H
#define MMPTX_PRINTER_PRINTER_H

#include <string>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace mmptx {
namespace ptx {
class Module;
} // namespace ptx

/// Prints \p M, with its edits applied, to \p OS.
void printModule(const ptx::Module &M, llvm::raw_ostream &OS);

/// \returns the printed form of \p M; the string is sized exactly once.
std::string printModuleToString(const ptx::Module &M);

/// \returns the exact size in bytes of the printed form of \p M.
size_t getPrintedSize(const ptx::Module &M);

} // namespace mmptx

#endif // MMPTX_PRINTER_PRINTER_H
