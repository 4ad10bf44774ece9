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

#include "FuzzInput.h"
#include "mmptx/Stack/StackCompiler.h"
#include "mmptx/Stack/StackInterpreter.h"
#include "mmptx/Stack/StackText.h"

#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

using namespace mmptx;
using namespace mmptx::stack;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  const StackInfo &Info = getDefaultStackInfo();
  uint8_t Mode;
  if (!fuzz::takeMode(Data, Size, Mode))
    return 0;

  // The parser on raw bytes.
  if (Mode & 0x80) {
    llvm::Expected<StackProgram> P = parseStackProgram(
        llvm::StringRef(reinterpret_cast<const char *>(Data), Size), Info);
    if (!P)
      llvm::consumeError(P.takeError());
    return 0;
  }

  std::vector<uint64_t> Words = fuzz::readWords(Data, Size);
  size_t N = Words.size();
  size_t A = N / 3, B = N / 3;
  StackProgram Prog;
  Prog.Main.assign(Words.begin(), Words.begin() + (N - A - B));
  Prog.Routines.push_back({Words.begin() + (N - A - B), Words.end() - B});
  Prog.Routines.push_back({Words.end() - B, Words.end()});
  Prog.RoutineNames = {"r0", "r1"};
  for (uint32_t S = 0; S != 4; ++S) {
    Prog.Registers.push_back(
        {"i" + std::to_string(S), uint16_t(S), RegKind::In});
    Prog.Registers.push_back({"o" + std::to_string(S), uint16_t(S),
                              S & 1 ? RegKind::Mod : RegKind::Out});
    Prog.Requests.push_back(2 * S + 1);
  }
  std::vector<Register> Regs = Prog.getRegisters();
  // One request out of range: skipped, or a strict error.
  std::vector<uint32_t> Reqs = Prog.Requests;
  Reqs.push_back(99);

  StackPtxOptions Opts;
  Opts.StackSize = 1 + (Mode & 7) * 4;
  Opts.StoreSize = (Mode >> 3) & 7;
  Opts.MaxFrameDepth = (Mode >> 6) & 1 ? 3 : 0;
  Opts.MaxNodes = 4096;
  Opts.ExecutionLimit = 100000;
  StackPtxContext Ctx(Info, Opts);
  llvm::Expected<llvm::StringRef> Text =
      Ctx.compile(Prog.getProgram(), Regs, Reqs);
  if (!Text)
    abort(); // non-strict never fails
  int Depth = 0;
  for (char C : *Text) {
    Depth += C == '{';
    Depth -= C == '}';
    if (Depth < 0)
      abort();
  }
  if (Depth != 0)
    abort();

  StackPtxOptions StrictOpts = Opts;
  StrictOpts.Strict = true;
  StackPtxContext StrictCtx(Info, StrictOpts);
  llvm::Expected<llvm::StringRef> StrictText =
      StrictCtx.compile(Prog.getProgram(), Regs, Reqs);
  if (!StrictText)
    llvm::consumeError(StrictText.takeError());

  std::vector<uint64_t> Inputs(Regs.size(), 0x3f800000);
  llvm::Expected<std::vector<uint64_t>> Vals =
      interpretStackPtx(Ctx, Prog.getProgram(), Regs, Prog.Requests, Inputs);
  if (!Vals)
    llvm::consumeError(Vals.takeError());

  std::string Printed;
  llvm::raw_string_ostream Os(Printed);
  printStackProgram(Os, Prog, Info);
  Os.flush();
  llvm::Expected<StackProgram> Back = parseStackProgram(Printed, Info);
  if (!Back || Back->Main != Prog.Main || Back->Routines != Prog.Routines)
    abort();
  return 0;
}
