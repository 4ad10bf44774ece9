//===- AstFuzzer.cpp - libFuzzer target for the AST PTX compiler ----------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Feeds arbitrary bytes to the AST PTX compiler, its text parser and
/// printer, and its interpreter. Byte 0 picks the mode and small limits;
/// the rest is either text (for the parser) or 8-byte words split into two
/// expressions and two routines. Checks: no crash, hang or sanitizer report;
/// a compile either succeeds with a braced stub or fails with an AstError;
/// a parsed text prints and reads back to the same words. Build and run with
/// fuzz/run.sh ast SECONDS.
///
//===----------------------------------------------------------------------===//

#include "mmptx/Ast/AstInterpreter.h"
#include "mmptx/Ast/AstPtx.h"
#include "mmptx/Ast/AstText.h"

#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <cstring>

using namespace mmptx;
using namespace mmptx::ast;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const stack::StackInfo &info = stack::getDefaultStackInfo();
  if (size < 1)
    return 0;
  uint8_t mode = data[0];
  ++data;
  --size;

  if (mode & 0x80) {
    // Text: parse; if it parses, print and parse again.
    llvm::StringRef text(reinterpret_cast<const char *>(data), size);
    llvm::Expected<AstModule> m = parseAstModule(text, info);
    if (!m) {
      llvm::consumeError(m.takeError());
      return 0;
    }
    std::string printed;
    llvm::raw_string_ostream os(printed);
    if (llvm::Error e = printAstModule(os, *m, info)) {
      llvm::consumeError(std::move(e));
      return 0;
    }
    llvm::Expected<AstModule> back = parseAstModule(os.str(), info);
    if (!back)
      abort(); // the printer wrote something the parser rejects
    for (size_t i = 0; i != m->outputs.size(); ++i)
      if (back->outputs[i].expr.words != m->outputs[i].expr.words)
        abort();
    AstPtxContext ctx(info);
    auto stub = ctx.compile(m->getProgram(), m->getInputs());
    if (!stub)
      llvm::consumeError(stub.takeError());
    return 0;
  }

  size_t n = size / 8;
  std::vector<uint64_t> words(n);
  if (n)
    std::memcpy(words.data(), data, n * 8);
  // Narrow the fields so that valid words are common: small types, aux and
  // indices.
  for (uint64_t &w : words)
    if (mode & 1)
      w = makeAstWord(AstWordType(uint16_t(w) % 10), uint16_t(w >> 16) % 6,
                      uint32_t(w >> 32) % (info.numInstrs + 8));
  size_t q = n / 4;
  std::vector<uint64_t> e0(words.begin(), words.begin() + q),
      e1(words.begin() + q, words.begin() + 2 * q),
      r0(words.begin() + 2 * q, words.begin() + 3 * q),
      r1(words.begin() + 3 * q, words.end());
  const AstVar inputs[] = {{"x", 0}, {"y", 0}, {"n", 1}, {"p", 4}};
  AstOutput outs[] = {{{"z", uint16_t((mode >> 1) & 3)}, e0}, {{"w", 0}, e1}};
  llvm::ArrayRef<uint64_t> routines[] = {r0, r1};
  AstProgram prog{outs, routines};
  AstPtxOptions o;
  o.maxStackDepth = 1 + ((mode >> 3) & 7) * 8;
  o.maxRoutineDepth = (mode >> 6) & 1 ? 3 : 0;
  o.maxExecutedWords = 100000;
  o.shareSubexpressions = (mode >> 5) & 1;
  AstPtxContext ctx(info, o);
  llvm::Expected<llvm::StringRef> stub = ctx.compile(prog, inputs);
  if (stub) {
    if (!stub->startswith("{\n") || !stub->endswith("}"))
      abort();
  } else {
    AstResult r = takeAstResult(stub.takeError());
    if (r == AstResult::Success || r == AstResult::Internal)
      abort();
    return 0;
  }
  const uint64_t values[] = {stack::f32Bits(1.5f), stack::f32Bits(-2), 7, 1};
  auto v = interpretAstPtx(ctx, prog, inputs, values);
  if (!v)
    llvm::consumeError(v.takeError()); // e.g. an instruction it lacks
  return 0;
}
