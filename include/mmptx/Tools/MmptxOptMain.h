//===- MmptxOptMain.h - mmptx-opt driver ------------------------*- C++ -*-===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef MMPTX_TOOLS_MMPTXOPTMAIN_H
#define MMPTX_TOOLS_MMPTXOPTMAIN_H

namespace mmptx {

/// The whole of mmptx-opt: parses the command line, reads the input, runs
/// the passes named on the command line in order and prints the result.
/// \returns the process exit code.
int mmptxOptMain(int argc, char **argv);

} // namespace mmptx

#endif // MMPTX_TOOLS_MMPTXOPTMAIN_H
