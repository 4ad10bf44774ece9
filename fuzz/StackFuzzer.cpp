//===- StackFuzzer.cpp - libFuzzer target for the Stack PTX compiler ------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Feeds arbitrary bytes to the Stack PTX compiler, text parser/printer and
/// interpreter. Byte 0 picks small limits; the rest is split into a main
/// program and two routines of 8-byte words. Checks: non-strict compiles
/// always succeed with balanced braces, strict compiles never crash,
/// words -> text -> words is the identity, and the text parser never
/// crashes on the raw bytes. Build by hand:
///
///   clang++ -std=c++17 -g -O1 -fsanitize=fuzzer,address,undefined \
///     -Iinclude -Ibuild/include $(llvm-config-14 --cxxflags) \
///     fuzz/StackFuzzer.cpp lib/Stack/*.cpp lib/Support/Diagnostic.cpp \
///     $(llvm-config-14 --ldflags --libs support) -o stack-fuzzer
///   ./stack-fuzzer -max_total_time=60
///
//===----------------------------------------------------------------------===//

#include "mmptx/Stack/StackCompiler.h"
#include "mmptx/Stack/StackInterpreter.h"
#include "mmptx/Stack/StackText.h"

#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <cstring>

using namespace mmptx;
using namespace mmptx::stack;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const StackInfo &info = getDefaultStackInfo();
  if (size < 1)
    return 0;
  uint8_t mode = data[0];
  ++data;
  --size;

  // The parser on raw bytes.
  if (mode & 0x80) {
    llvm::Expected<StackProgram> p = parseStackProgram(
        llvm::StringRef(reinterpret_cast<const char *>(data), size), info);
    if (!p)
      llvm::consumeError(p.takeError());
    return 0;
  }

  size_t n = size / 8;
  std::vector<uint64_t> words(n);
  if (n)
    std::memcpy(words.data(), data, n * 8);
  size_t a = n / 3, b = n / 3;
  StackProgram prog;
  prog.main.assign(words.begin(), words.begin() + (n - a - b));
  prog.routines.push_back({words.begin() + (n - a - b), words.end() - b});
  prog.routines.push_back({words.end() - b, words.end()});
  prog.routineNames = {"r0", "r1"};
  for (uint32_t s = 0; s != 4; ++s) {
    prog.registers.push_back(
        {"i" + std::to_string(s), uint16_t(s), RegKind::In});
    prog.registers.push_back({"o" + std::to_string(s), uint16_t(s),
                              s & 1 ? RegKind::Mod : RegKind::Out});
    prog.requests.push_back(2 * s + 1);
  }
  std::vector<Register> regs = prog.getRegisters();
  // One request out of range: skipped, or a strict error.
  std::vector<uint32_t> reqs = prog.requests;
  reqs.push_back(99);

  StackPtxOptions opts;
  opts.stackSize = 1 + (mode & 7) * 4;
  opts.storeSize = (mode >> 3) & 7;
  opts.maxFrameDepth = (mode >> 6) & 1 ? 3 : 0;
  opts.maxNodes = 4096;
  opts.executionLimit = 100000;
  StackPtxContext ctx(info, opts);
  llvm::Expected<llvm::StringRef> text =
      ctx.compile(prog.getProgram(), regs, reqs);
  if (!text)
    abort(); // non-strict never fails
  int depth = 0;
  for (char c : *text) {
    depth += c == '{';
    depth -= c == '}';
    if (depth < 0)
      abort();
  }
  if (depth != 0)
    abort();

  StackPtxOptions strictOpts = opts;
  strictOpts.strict = true;
  StackPtxContext strictCtx(info, strictOpts);
  llvm::Expected<llvm::StringRef> strictText =
      strictCtx.compile(prog.getProgram(), regs, reqs);
  if (!strictText)
    llvm::consumeError(strictText.takeError());

  std::vector<uint64_t> inputs(regs.size(), 0x3f800000);
  llvm::Expected<std::vector<uint64_t>> vals =
      interpretStackPtx(ctx, prog.getProgram(), regs, prog.requests, inputs);
  if (!vals)
    llvm::consumeError(vals.takeError());

  std::string printed;
  llvm::raw_string_ostream os(printed);
  printStackProgram(os, prog, info);
  os.flush();
  llvm::Expected<StackProgram> back = parseStackProgram(printed, info);
  if (!back || back->main != prog.main || back->routines != prog.routines)
    abort();
  return 0;
}
