//===- mmptx-stack.cpp - Stack PTX compiler driver ------------------------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Compiles a Stack PTX program in text form (see mmptx/Stack/StackText.h)
/// with the default instruction set:
///
///   mmptx-stack prog.stack                 the PTX stub
///   mmptx-stack --emit=text prog.stack     canonical text (via the words)
///   mmptx-stack --emit=words prog.stack    the words, one per line, in hex
///   mmptx-stack --interpret x=1.5,y=2 p    run the CPU interpreter
///   mmptx-stack --randomize=N --seed=S p   the same for random words over
///                                          p's registers and requests
///   mmptx-stack --target-sm=80 p           for an sm_80 kernel: what needs
///                                          a newer target is invalid
///   mmptx-stack -I lib p                   search lib for .include files
///
/// Without `.requests`, the registers declared out or mod are requested,
/// and a compile that hits a limit warns, as with mmptx-opt --stub-gen.
///
//===----------------------------------------------------------------------===//

#include "mmptx/Expr/Literal.h"
#include "mmptx/Stack/StackCompiler.h"
#include "mmptx/Stack/StackInterpreter.h"
#include "mmptx/Stack/StackRandom.h"
#include "mmptx/Stack/StackText.h"
#include "mmptx/Support/Diagnostic.h"
#include "mmptx/Support/ToolOutput.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/WithColor.h"

#include <cmath>
#include <cstring>
#include <tuple>

using namespace llvm;
using namespace mmptx;
using namespace mmptx::stack;

static cl::OptionCategory stackCategory("mmptx-stack Options");

enum class EmitKind { Stub, Text, Words };

static cl::opt<std::string> inputFilename(cl::Positional,
                                          cl::desc("<input .stack file>"),
                                          cl::init("-"),
                                          cl::cat(stackCategory));
static cl::opt<std::string> outputFilename("o", cl::desc("Output file"),
                                           cl::value_desc("filename"),
                                           cl::init("-"),
                                           cl::cat(stackCategory));
static cl::opt<EmitKind> emitKind(
    "emit", cl::desc("What to print"), cl::init(EmitKind::Stub),
    cl::values(clEnumValN(EmitKind::Stub, "stub", "the PTX stub (default)"),
               clEnumValN(EmitKind::Text, "text",
                          "the canonical text form, converted via the words"),
               clEnumValN(EmitKind::Words, "words",
                          "the 8-byte words in hex, one per line")),
    cl::cat(stackCategory));
static cl::opt<bool> strict("strict",
                            cl::desc("Report invalid words as errors"),
                            cl::cat(stackCategory));
static cl::opt<bool>
    noZero("no-zero-fill", cl::desc("Leave unsatisfied out requests unwritten"),
           cl::cat(stackCategory));
static cl::opt<bool> printStats("print-stats",
                                cl::desc("Print compile statistics to stderr"),
                                cl::cat(stackCategory));
static cl::opt<std::string>
    interpret("interpret",
              cl::desc("Run the CPU interpreter with inputs name=value,..."),
              cl::value_desc("x=1.5,y=2"), cl::cat(stackCategory));
static cl::opt<uint64_t> executionLimit("execution-limit",
                                        cl::desc("Executed words limit"),
                                        cl::init(1u << 20),
                                        cl::cat(stackCategory));
static cl::opt<unsigned>
    maxFrameDepth("max-frame-depth",
                  cl::desc("Frames including the main program"), cl::init(8),
                  cl::cat(stackCategory));
static cl::opt<unsigned> stackSize("stack-size", cl::desc("Values per stack"),
                                   cl::init(128), cl::cat(stackCategory));
static cl::opt<unsigned> storeSize("store-size", cl::desc("Store slots"),
                                   cl::init(32), cl::cat(stackCategory));
static cl::opt<unsigned> maxNodes("max-nodes", cl::desc("DAG node limit"),
                                  cl::init(1u << 16), cl::cat(stackCategory));
static cl::opt<unsigned> targetSm(
    "target-sm",
    cl::desc("The sm_XX the stub is for (80 for sm_80): instructions and "
             "special registers that need a newer target are invalid words "
             "(default 0: any; --random-module: 80)"),
    cl::value_desc("N"), cl::init(0), cl::cat(stackCategory));

static cl::opt<unsigned> randomModule(
    "random-module",
    cl::desc("Print a PTX module of N kernels with random programs' stubs "
             "(for the ptxas acceptance test); ignores the input"),
    cl::init(0), cl::cat(stackCategory));
static cl::opt<unsigned> randomize(
    "randomize",
    cl::desc("Replace the input's routines and program with random words "
             "(a program of 1-N words, three routines of 1-16), keeping its "
             "registers and requests: mutation-style programs typed against "
             "a site's variables"),
    cl::value_desc("N"), cl::init(0), cl::cat(stackCategory));
static cl::list<std::string>
    includeDirs("I",
                cl::desc("Search DIR for .include files, after the including "
                         "file's directory (repeatable)"),
                cl::value_desc("DIR"), cl::Prefix, cl::cat(stackCategory));
static cl::opt<uint64_t>
    randomSeed("seed", cl::desc("Seed for --random-module and --randomize"),
               cl::init(1), cl::cat(stackCategory));

/// \returns this tool's flag for StackPtxOptions field \p field.
static StringRef optionFlag(StringRef field) {
  return StringSwitch<StringRef>(field)
      .Case("stackSize", "--stack-size")
      .Case("maxNodes", "--max-nodes")
      .Case("maxFrameDepth", "--max-frame-depth")
      .Case("storeSize", "--store-size")
      .Case("strict", "--strict")
      .Default("--execution-limit");
}

static SMLoc bufferStart(const SourceMgr &sm, unsigned id) {
  return SMLoc::getFromPointer(sm.getMemoryBuffer(id)->getBufferStart());
}

/// The largest --randomize: a program of at most this many words.
static constexpr unsigned MaxRandomWords = 1u << 20;

/// Replaces the routines and main program of \p prog with random words over
/// its registers, as a mutation would leave them.
static void randomizeProgram(StackProgram &prog, const StackInfo &info) {
  StackRng rng(randomSeed);
  uint32_t numRegs = prog.registers.size();
  prog.routineNames.clear();
  prog.routines.clear();
  for (unsigned i = 0; i != 3; ++i) {
    prog.routineNames.push_back("random" + std::to_string(i));
    prog.routines.push_back(
        randomWords(rng, 1 + rng.below(16), info, numRegs, 3));
  }
  prog.main = randomWords(rng, 1 + rng.below(randomize), info, numRegs, 3);
}

int main(int argc, char **argv) {
  InitLLVM x(argc, argv);
  ignoreStderrWriteErrorsAtExit();
  cl::HideUnrelatedOptions(stackCategory);
  cl::ParseCommandLineOptions(argc, argv,
                              "Stack PTX compiler: text program -> PTX stub\n");
  const StackInfo &info = getDefaultStackInfo();
  if (randomize > MaxRandomWords || randomModule > MaxRandomWords) {
    WithColor::error(errs(), "mmptx-stack")
        << (randomize > MaxRandomWords ? "--randomize=" : "--random-module=")
        << (randomize > MaxRandomWords ? randomize : randomModule)
        << " is too large (at most " << MaxRandomWords << ")\n";
    return 1;
  }
  if (randomModule) {
    if (Error err = writeToolOutput(outputFilename, [&](raw_ostream &os) {
          os << makeRandomKernelModule(info, randomSeed, randomModule,
                                       targetSm ? targetSm : 80);
          return Error::success();
        })) {
      reportError(std::move(err), "mmptx-stack");
      return 1;
    }
    return 0;
  }

  auto buf = MemoryBuffer::getFileOrSTDIN(inputFilename);
  if (!buf) {
    WithColor::error(errs(), "mmptx-stack")
        << "cannot read '" << inputFilename << "': " << buf.getError().message()
        << "\n";
    return 1;
  }
  SourceMgr sm;
  unsigned id = sm.AddNewSourceBuffer(std::move(*buf), SMLoc());
  Expected<StackProgram> prog =
      parseStackProgram(sm, id, info, {}, includeDirs);
  if (!prog) {
    reportError(prog.takeError(), "mmptx-stack");
    return 1;
  }
  if (randomize)
    randomizeProgram(*prog, info);

  // Replaced only when complete; a failed run keeps an existing file.
  Expected<std::unique_ptr<ToolOutput>> outOrErr =
      ToolOutput::open(outputFilename);
  if (!outOrErr) {
    reportError(outOrErr.takeError(), "mmptx-stack");
    return 1;
  }
  ToolOutput &out = **outOrErr;
  auto commit = [&] {
    if (Error err = out.commit()) {
      reportError(std::move(err), "mmptx-stack");
      return 1;
    }
    return 0;
  };

  StackPtxOptions opts;
  opts.strict = strict;
  opts.zeroUnsatisfied = !noZero;
  opts.executionLimit = executionLimit;
  opts.maxFrameDepth = maxFrameDepth;
  opts.stackSize = stackSize;
  opts.storeSize = storeSize;
  opts.maxNodes = maxNodes;
  opts.targetSm = targetSm;
  if (Error e = checkStackPtxOptions(opts, optionFlag)) {
    reportError(std::move(e), "mmptx-stack");
    return 1;
  }
  StackPtxContext ctx(info, opts);
  std::vector<Register> regs = prog->getRegisters();
  Program p = prog->getProgram();
  // As with --stub-gen: without `.requests`, what the program declares it
  // writes.
  std::vector<uint32_t> requests =
      prog->hasRequests ? prog->requests : prog->getDefaultRequests();

  if (interpret.getNumOccurrences()) {
    std::vector<uint64_t> inputs(regs.size(), 0);
    SmallVector<StringRef, 8> items;
    StringRef(interpret).split(items, ',', -1, false);
    for (StringRef item : items) {
      StringRef name, value;
      std::tie(name, value) = item.split('=');
      name = name.trim();
      auto it = llvm::find_if(prog->registers, [&](const RegisterDecl &d) {
        return d.name == name;
      });
      if (it == prog->registers.end()) {
        WithColor::error(errs(), "mmptx-stack")
            << "--interpret: unknown register '" << name << "'\n";
        return 1;
      }
      size_t idx = it - prog->registers.begin();
      if (!expr::parseValue(value.trim(), info.literalPrefixes[it->stackIdx],
                            inputs[idx])) {
        WithColor::error(errs(), "mmptx-stack")
            << "--interpret: bad value '" << value << "' for '" << name
            << "'\n";
        return 1;
      }
    }
    Expected<std::vector<uint64_t>> vals =
        interpretStackPtx(ctx, p, regs, requests, inputs);
    if (!vals) {
      reportError(vals.takeError(), "mmptx-stack");
      return 1;
    }
    for (size_t i = 0, e = vals->size(); i != e; ++i) {
      const RegisterDecl &d = prog->registers[requests[i]];
      out.os() << d.name << " = ";
      expr::printValue(out.os(), (*vals)[i], info.literalPrefixes[d.stackIdx]);
      out.os() << "\n";
    }
    return commit();
  }

  switch (emitKind) {
  case EmitKind::Text: {
    // Convert through the words: what is printed is what the words say.
    printStackProgram(out.os(), *prog, info);
    break;
  }
  case EmitKind::Words: {
    auto dump = [&](StringRef title, ArrayRef<uint64_t> words) {
      out.os() << "// " << title << " (" << words.size() << " words)\n";
      for (uint64_t w : words) {
        out.os() << format_hex(w, 18) << "  // ";
        printStackWord(out.os(), w, *prog, info);
        out.os() << "\n";
      }
    };
    for (size_t i = 0, e = prog->routines.size(); i != e; ++i)
      dump("routine " + prog->routineNames[i], prog->routines[i]);
    dump("program", prog->main);
    break;
  }
  case EmitKind::Stub: {
    Expected<StringRef> text = ctx.compile(p, regs, requests);
    if (!text) {
      reportError(text.takeError(), "mmptx-stack");
      return 1;
    }
    out.os() << *text << "\n";
    describeLimitsHit(ctx.getStats(), opts, optionFlag, [&](const Twine &msg) {
      sm.PrintMessage(errs(), bufferStart(sm, id), SourceMgr::DK_Warning, msg);
    });
    break;
  }
  }
  if (printStats) {
    out.os().flush();
    const StackPtxStats &s = ctx.getStats();
    errs() << "executed words: " << s.executedWords << "\nnodes: " << s.numNodes
           << "\nemitted instructions: " << s.emittedInstrs
           << "\nignored words: " << s.ignoredWords
           << "\nno-op words: " << s.noOpWords
           << "\ndropped pushes: " << s.droppedPushes
           << "\nrefused calls: " << s.refusedCalls
           << "\nunsatisfied requests: " << s.unsatisfiedRequests
           << "\nzeroed requests: " << s.zeroedRequests
           << "\nhit execution limit: " << s.hitExecutionLimit
           << "\nhit node limit: " << s.hitNodeLimit << "\n";
  }
  return commit();
}
