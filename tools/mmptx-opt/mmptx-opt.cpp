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
/// it; this file only adds the test passes of test/lib, in the build tree's
/// mmptx-opt (MMPTX_INCLUDE_TESTS), never in the installed one.
///
//===----------------------------------------------------------------------===//

#include "mmptx/Tools/MmptxOptMain.h"

#ifdef MMPTX_INCLUDE_TESTS
namespace mmptx {
namespace test {
// Defined in test/lib; no public header, as they are not part of the library.
void registerTestPrintStructurePass();
} // namespace test
} // namespace mmptx
#endif

int main(int argc, char **argv) {
#ifdef MMPTX_INCLUDE_TESTS
  mmptx::test::registerTestPrintStructurePass();
#endif
  return mmptx::mmptxOptMain(argc, argv);
}
