//===- MmptxOptMain.h - mmptx-opt driver ------------------------*- C++ -*-===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef MMPTX_TOOLS_MMPTXOPTMAIN_H
#define MMPTX_TOOLS_MMPTXOPTMAIN_H

namespace mmptx {

struct PassInfo;

/// Makes a test-only pass available as `--test-pass=<name>`. Call before
/// mmptxOptMain(); test passes are hidden from --help.
void registerTestPass(const PassInfo &Info);

/// The whole of mmptx-opt: parses the command line, reads the input, runs
/// the passes named on the command line in order and prints the result.
/// \returns the process exit code.
int mmptxOptMain(int argc, char **argv);

} // namespace mmptx

#endif // MMPTX_TOOLS_MMPTXOPTMAIN_H
