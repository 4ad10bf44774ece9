//===- AnnotateFuzzer.cpp - libFuzzer target for the annotate rewriter ----===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Feeds arbitrary bytes to mmptx::annotate::annotateSource and checks, on
/// every input:
///
/// 1. It never crashes, hangs or reads out of bounds (the buffer has no NUL
///    terminator, so AddressSanitizer sees a one-byte overread).
/// 2. Every failure is a located diagnostic inside the input.
/// 3. A success that rewrote no site reproduces the input byte for byte.
///
/// Any violation aborts, which libFuzzer reports as a crash.
///
//===----------------------------------------------------------------------===//

#include "mmptx/Annotate/Annotate.h"
#include "mmptx/Support/Diagnostic.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

using namespace llvm;
using namespace mmptx;

static void check(bool cond, const char *what) {
  if (!cond) {
    fprintf(stderr, "annotate fuzzer: %s\n", what);
    abort();
  }
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const annotate::TypeTable types = annotate::TypeTable::getDefault();
  StringRef input(reinterpret_cast<const char *>(data), size);
  SourceMgr sm;
  unsigned id = sm.AddNewSourceBuffer(
      MemoryBuffer::getMemBuffer(input, "fuzz", /*RequiresNullTerminator=*/false),
      SMLoc());
  std::string out;
  raw_string_ostream os(out);
  Expected<unsigned> numSites = annotate::annotateSource(sm, id, types, os);
  if (!numSites) {
    handleAllErrors(numSites.takeError(), [&](const DiagnosticError &diag) {
      const SMDiagnostic &d = diag.getDiagnostic();
      check(d.getLineNo() > 0, "diagnostic without a line");
      check(d.getColumnNo() >= 0, "diagnostic without a column");
    });
    return 0;
  }
  os.flush();
  if (*numSites == 0)
    check(out == input, "output differs from an input without sites");
  return 0;
}
