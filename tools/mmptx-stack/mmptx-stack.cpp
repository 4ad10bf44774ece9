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
///   ... --vocabulary=fast-compile          drawing instructions from the
///                                          fast-compile subset only
///   mmptx-stack --stack-target-sm=80 p     for an sm_80 kernel: what needs
///                                          a newer target is invalid
///   mmptx-stack -I lib p                   search lib for .include files
///
/// The compiler's flags (--stack-size, --stack-node-limit, ...) are those of
/// mmptx-opt (mmptx/Stub/StubCLOptions.h), their defaults the compiler's;
/// this tool's older spellings (--max-nodes, --target-sm, ...) are hidden
/// aliases.
///
/// Without `.requests`, the registers declared out or mod are requested,
/// and a compile that hits a limit warns, as with mmptx-opt --stub-gen.
///
//===----------------------------------------------------------------------===//

#include "mmptx/Stack/StackCompiler.h"
#include "mmptx/Stack/StackInterpreter.h"
#include "mmptx/Stack/StackRandom.h"
#include "mmptx/Stack/StackText.h"
#include "mmptx/Stub/StubCLOptions.h"
#include "mmptx/Support/Diagnostic.h"
#include "mmptx/Support/ToolInit.h"
#include "mmptx/Support/ToolOutput.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/WithColor.h"

#include <cmath>
#include <cstring>

using namespace llvm;
using namespace mmptx;
using namespace mmptx::stack;

static cl::OptionCategory StackCategory("mmptx-stack Options");

enum class EmitKind { Stub, Text, Words };

static cl::opt<std::string> InputFilename(cl::Positional,
                                          cl::desc("<input .stack file>"),
                                          cl::init("-"),
                                          cl::cat(StackCategory));
static cl::opt<std::string> OutputFilename("o", cl::desc("Output file"),
                                           cl::value_desc("filename"),
                                           cl::init("-"),
                                           cl::cat(StackCategory));
static cl::opt<EmitKind> Emit(
    "emit", cl::desc("What to print"), cl::init(EmitKind::Stub),
    cl::values(clEnumValN(EmitKind::Stub, "stub", "the PTX stub (default)"),
               clEnumValN(EmitKind::Text, "text",
                          "the canonical text form, converted via the words"),
               clEnumValN(EmitKind::Words, "words",
                          "the 8-byte words in hex, one per line")),
    cl::cat(StackCategory));
static cl::opt<bool>
    NoZero("no-zero-fill", cl::desc("Leave unsatisfied out requests unwritten"),
           cl::cat(StackCategory));
static cl::opt<bool> PrintStats("print-stats",
                                cl::desc("Print compile statistics to stderr"),
                                cl::cat(StackCategory));
static cl::opt<std::string>
    Interpret("interpret",
              cl::desc("Run the CPU interpreter with inputs name=value,..."),
              cl::value_desc("x=1.5,y=2"), cl::cat(StackCategory));
static cl::opt<unsigned> RandomModule(
    "random-module",
    cl::desc("Print a PTX module of N kernels with random programs' stubs "
             "(for the ptxas acceptance test); ignores the input"),
    cl::init(0), cl::cat(StackCategory));
static cl::opt<unsigned> Randomize(
    "randomize",
    cl::desc("Replace the input's routines and program with random words "
             "(a program of 1-N words, three routines of 1-16), keeping its "
             "registers and requests: mutation-style programs typed against "
             "a site's variables"),
    cl::value_desc("N"), cl::init(0), cl::cat(StackCategory));
static cl::opt<std::string> VocabularyName(
    "vocabulary",
    cl::desc("With --randomize: draw instructions from this named subset: "
             "all (default) or fast-compile (ftz forms, no IEEE "
             "div/sqrt/rcp, no integer division)"),
    cl::value_desc("name"), cl::init("all"), cl::cat(StackCategory));
static cl::opt<WordNumbering> Numbering(
    "word-numbering",
    cl::desc("How the stack indices of the program's words are numbered "
             "(for programs written as raw word(...) words: named words are "
             "always in the examples numbering)"),
    cl::values(clEnumValN(WordNumbering::Examples, "examples",
                          "the reference's examples description (F32 U32 S32 "
                          "PRED TF32 F16 F16X2 U8 PHILOX; default)"),
               clEnumValN(WordNumbering::Tests, "tests",
                          "the reference's tests description (F32 U32 PHILOX "
                          "S32 PRED TF32 F16 F16X2 U8)")),
    cl::init(WordNumbering::Examples), cl::cat(StackCategory));
static cl::opt<uint64_t>
    RandomSeed("seed", cl::desc("Seed for --random-module and --randomize"),
               cl::init(1), cl::cat(StackCategory));

static SMLoc bufferStart(const SourceMgr &Sm, unsigned Id) {
  return SMLoc::getFromPointer(Sm.getMemoryBuffer(Id)->getBufferStart());
}

/// The largest --randomize: a program of at most this many words.
static constexpr unsigned MaxRandomWords = 1u << 20;

/// Replaces the routines and main program of \p Prog with random words over
/// its registers, as a mutation would leave them.
static void randomizeProgram(StackProgram &Prog, const StackInfo &Info,
                             expr::Vocabulary Vocabulary) {
  StackRng Rng(RandomSeed);
  uint32_t NumRegs = Prog.Registers.size();
  Prog.RoutineNames.clear();
  Prog.Routines.clear();
  for (unsigned I = 0; I != 3; ++I) {
    Prog.RoutineNames.push_back("random" + std::to_string(I));
    Prog.Routines.push_back(
        randomWords(Rng, 1 + Rng.below(16), Info, NumRegs, 3, Vocabulary));
  }
  Prog.Main =
      randomWords(Rng, 1 + Rng.below(Randomize), Info, NumRegs, 3, Vocabulary);
}

int main(int argc, char **argv) {
  // The compiler's flags are every tool's; the older spellings of this
  // tool keep working.
  ToolInit Init(
      argc, argv, "Stack PTX compiler: text program -> PTX stub\n",
      {&StackCategory, &getColorCategory()}, [] {
        stub::registerStubToolOptions(
            StackCategory, stub::ProgramKind::Stack,
            {"strict", "execution-limit", "max-frame-depth", "store-size"});
        stub::addStubCLOptionAlias("max-nodes", "stack-node-limit");
        stub::addStubCLOptionAlias("I", "stack-include-dir", /*Visible=*/true);
      });
  const stub::StubOptions StubOpts = stub::getStubOptionsFromCL();
  const uint32_t TargetSm = StubOpts.TargetSm;
  const StackInfo &Info = getDefaultStackInfo();
  if (Randomize > MaxRandomWords || RandomModule > MaxRandomWords) {
    WithColor::error(errs(), "mmptx-stack")
        << (Randomize > MaxRandomWords ? "--randomize=" : "--random-module=")
        << (Randomize > MaxRandomWords ? Randomize : RandomModule)
        << " is too large (at most " << MaxRandomWords << ")\n";
    return 1;
  }
  Expected<expr::Vocabulary> Vocabulary =
      stub::getRandomVocabulary(VocabularyName, Randomize, "randomize");
  if (!Vocabulary) {
    reportError(Vocabulary.takeError(), "mmptx-stack");
    return 1;
  }
  if (RandomModule) {
    if (Error Err = writeToolOutput(OutputFilename, [&](raw_ostream &Os) {
          Os << makeRandomKernelModule(Info, RandomSeed, RandomModule,
                                       TargetSm ? TargetSm : 80);
          return Error::success();
        })) {
      reportError(std::move(Err), "mmptx-stack");
      return 1;
    }
    return 0;
  }

  auto Buf = MemoryBuffer::getFileOrSTDIN(InputFilename);
  if (!Buf) {
    WithColor::error(errs(), "mmptx-stack")
        << "cannot read '" << InputFilename << "': " << Buf.getError().message()
        << "\n";
    return 1;
  }
  SourceMgr Sm;
  unsigned BufferId = Sm.AddNewSourceBuffer(std::move(*Buf), SMLoc());
  Expected<StackProgram> Prog =
      parseStackProgram(Sm, BufferId, Info, {}, StubOpts.IncludeDirs);
  if (!Prog) {
    reportError(Prog.takeError(), "mmptx-stack");
    return 1;
  }
  if (Randomize)
    randomizeProgram(*Prog, Info, *Vocabulary);
  if (Numbering != WordNumbering::Examples) {
    convertWordNumbering(Prog->Main, Numbering, WordNumbering::Examples);
    for (std::vector<uint64_t> &R : Prog->Routines)
      convertWordNumbering(R, Numbering, WordNumbering::Examples);
  }

  // Replaced only when complete; a failed run keeps an existing file.
  Expected<std::unique_ptr<ToolOutput>> OutOrErr =
      ToolOutput::open(OutputFilename);
  if (!OutOrErr) {
    reportError(OutOrErr.takeError(), "mmptx-stack");
    return 1;
  }
  ToolOutput &Out = **OutOrErr;
  auto Commit = [&] {
    if (Error Err = Out.commit()) {
      reportError(std::move(Err), "mmptx-stack");
      return 1;
    }
    return 0;
  };

  StackPtxOptions Opts = StubOpts.Stack;
  Opts.ZeroUnsatisfied = !NoZero;
  Opts.TargetSm = TargetSm;
  if (Error E = checkStackPtxOptions(Opts, stub::getStackOptionFlag)) {
    reportError(std::move(E), "mmptx-stack");
    return 1;
  }
  StackPtxContext Ctx(Info, Opts);
  std::vector<Register> Regs = Prog->getRegisters();
  Program P = Prog->getProgram();
  // As with --stub-gen: without `.requests`, what the program declares it
  // writes.
  std::vector<uint32_t> Requests =
      Prog->HasRequests ? Prog->Requests : Prog->getDefaultRequests();

  if (Interpret.getNumOccurrences()) {
    Expected<std::vector<uint64_t>> Vals = stub::interpretAssignments(
        Interpret, Prog->Registers, Regs.size(), Info, "register",
        [&](ArrayRef<uint64_t> Inputs) {
          return interpretStackPtx(Ctx, P, Regs, Requests, Inputs);
        });
    if (!Vals) {
      reportError(Vals.takeError(), "mmptx-stack");
      return 1;
    }
    for (size_t I = 0, E = Vals->size(); I != E; ++I) {
      stub::printInterpretValue(Out.os(), Prog->Registers[Requests[I]],
                                (*Vals)[I], Info);
    }
    return Commit();
  }

  switch (Emit) {
  case EmitKind::Text: {
    // Convert through the words: what is printed is what the words say.
    printStackProgram(Out.os(), *Prog, Info);
    break;
  }
  case EmitKind::Words: {
    auto Dump = [&](StringRef Title, ArrayRef<uint64_t> Words) {
      Out.os() << "// " << Title << " (" << Words.size() << " words)\n";
      for (uint64_t W : Words) {
        Out.os() << format_hex(W, 18) << "  // ";
        printStackWord(Out.os(), W, *Prog, Info);
        Out.os() << "\n";
      }
    };
    for (size_t I = 0, E = Prog->Routines.size(); I != E; ++I)
      Dump("routine " + Prog->RoutineNames[I], Prog->Routines[I]);
    Dump("program", Prog->Main);
    break;
  }
  case EmitKind::Stub: {
    Expected<StringRef> Text = Ctx.compile(P, Regs, Requests);
    if (!Text) {
      reportError(Text.takeError(), "mmptx-stack");
      return 1;
    }
    Out.os() << *Text << "\n";
    describeLimitsHit(
        Ctx.getStats(), Opts, stub::getStackOptionFlag, [&](const Twine &Msg) {
          printDiagnostic(Sm.GetMessage(bufferStart(Sm, BufferId),
                                        SourceMgr::DK_Warning, Msg),
                          errs());
        });
    break;
  }
  }
  if (PrintStats) {
    Out.os().flush();
    const StackPtxStats &S = Ctx.getStats();
    errs() << "executed words: " << S.ExecutedWords << "\nnodes: " << S.NumNodes
           << "\nemitted instructions: " << S.EmittedInstrs
           << "\nignored words: " << S.IgnoredWords
           << "\nno-op words: " << S.NoOpWords
           << "\ndropped pushes: " << S.DroppedPushes
           << "\nrefused calls: " << S.RefusedCalls
           << "\nunsatisfied requests: " << S.UnsatisfiedRequests
           << "\nzeroed requests: " << S.ZeroedRequests
           << "\nhit execution limit: " << S.HitExecutionLimit
           << "\nhit node limit: " << S.HitNodeLimit << "\n";
  }
  return Commit();
}
