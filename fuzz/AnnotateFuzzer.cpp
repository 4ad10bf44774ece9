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
/// 4. The `#line` directives map the output back to the input: one names
///    the header's line before each asm, one goes before its operand lists,
///    and every line copied from the input is the line they say it is.
/// 5. Without directives the output is the same, less the directive lines.
///
/// Any violation aborts, which libFuzzer reports as a crash.
///
//===----------------------------------------------------------------------===//

#include "mmptx/Annotate/Annotate.h"
#include "mmptx/Support/Diagnostic.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
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

/// \returns the directive line number if \p line (terminator included) is
/// `#line N "<name>"`, else 0.
static unsigned getDirectiveLine(StringRef line, StringRef name) {
  unsigned n;
  if (line.consume_back("\n"))
    line.consume_back("\r");
  if (!line.consume_front("#line ") ||
      !line.consume_back((" \"" + name + "\"").str()) ||
      line.getAsInteger(10, n))
    return 0;
  return n;
}

/// Checks 4 and 5 on the output \p out (with directives naming \p name) and
/// \p plain (without) of \p input. Each site gives `#line <header>`, the
/// asm, `#line <n>` and the two operand lines, which are lines n and n + 1;
/// then, once the line of its `*/` ends, `#line <next line>` again.
static void checkLineDirectives(StringRef input, StringRef out, StringRef plain,
                                StringRef name) {
  SmallVector<StringRef, 0> inLines;
  input.split(inLines, '\n');
  enum { Copied, Asm, Operands } state = Copied;
  bool afterSite = false;
  unsigned next = 1, header = 0, operandLines = 0;
  std::string stripped;
  for (StringRef rest = out; !rest.empty();) {
    size_t nl = rest.find('\n');
    StringRef line = rest.substr(0, nl == StringRef::npos ? nl : nl + 1);
    rest = rest.drop_front(line.size());
    unsigned n = getDirectiveLine(line, name);
    if (!n) {
      stripped += line;
      if (state == Copied) {
        check(next <= inLines.size() && line.rtrim('\n') == inLines[next - 1],
              "an output line is not the input line #line says it is");
        ++next;
      } else if (state == Operands && ++operandLines == 2) {
        state = Copied;
      }
      continue;
    }
    check(state != Operands, "a #line among the operand lists");
    if (state == Asm) {
      check(n >= header, "the operands' #line is before the header");
      next = n + 2;
      operandLines = 0;
      state = Operands;
      afterSite = true;
    } else if (afterSite) {
      check(n == next, "the #line after a site names the wrong line");
      afterSite = false;
    } else {
      check(n == next, "the #line before a site does not name its header");
      header = n;
      state = Asm;
    }
  }
  check(state != Asm, "an asm without the #line of its operands");
  check(stripped == plain, "#line directives change the rest of the output");
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const annotate::TypeTable types = annotate::TypeTable::getDefault();
  StringRef input(reinterpret_cast<const char *>(data), size);
  // A file name the input cannot contain, so that every `#line` naming it
  // comes from the rewriter: more `f`s than its longest run of them.
  size_t run = 0, longest = 0;
  for (char c : input)
    longest = std::max(longest, run = c == 'f' ? run + 1 : 0);
  std::string name(longest + 1, 'f');
  SourceMgr sm;
  unsigned id = sm.AddNewSourceBuffer(
      MemoryBuffer::getMemBuffer(input, name, /*RequiresNullTerminator=*/false),
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
  std::string plain;
  raw_string_ostream plainOS(plain);
  annotate::AnnotateOptions opts;
  opts.lineDirectives = false;
  Expected<unsigned> numPlain =
      annotate::annotateSource(sm, id, types, plainOS, opts);
  check(numPlain && *numPlain == *numSites,
        "the same input fails or succeeds differently without #line");
  plainOS.flush();
  checkLineDirectives(input, out, plain, name);
  return 0;
}
