//===- mmptx-opt.cpp - mmptx pass driver ----------------------------------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Parses PTX, runs the passes named on the command line, prints PTX. All of
/// the logic is in lib/Tools/MmptxOptMain.cpp so that other drivers can reuse
/// it.
///
//===----------------------------------------------------------------------===//

#include "mmptx/Tools/MmptxOptMain.h"

int main(int argc, char **argv) { return mmptx::mmptxOptMain(argc, argv); }
