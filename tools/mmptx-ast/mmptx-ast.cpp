//===- mmptx-ast.cpp - AST PTX compiler driver ----------------------------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Compiles an AST PTX program in S-expression form (see
/// mmptx/Ast/AstText.h) with the default instruction set:
///
///   mmptx-ast prog.ast                  the PTX stub
///   mmptx-ast --emit=words prog.ast     the words, one per line, in hex
///   mmptx-ast --from-words w.txt ...    read such a word file instead
///   mmptx-ast --reference-numbering ... PTX words numbered as the reference
///   mmptx-ast --emit=text prog.ast      canonical text (via the words)
///   mmptx-ast --interpret x=1,y=2 p     run the CPU interpreter
///   mmptx-ast --random=N --seed=S       a random well-typed program instead
///                                       of a file: an input i<s> and an
///                                       output o<s> per stack, trees of up
///                                       to N words
///   mmptx-ast --random-stacks=F32,U32   ... on these stacks' variables only
///   mmptx-ast --vocabulary=fast-compile ... of fast-compile instructions
///   mmptx-ast --emit=kernel ...         the stub in a kernel that declares
///                                       the variables (for ptxas)
///
/// The compiler's flags (--ast-max-words, --stack-target-sm, ...) are those
/// of mmptx-opt (mmptx/Stub/StubCLOptions.h), their defaults the
/// compiler's; this tool's older spellings (--max-words, --target-sm, ...)
/// are hidden aliases.
//===----------------------------------------------------------------------===//

#include "mmptx/Ast/AstInterpreter.h"
#include "mmptx/Ast/AstPtx.h"
#include "mmptx/Ast/AstRandom.h"
#include "mmptx/Ast/AstText.h"
#include "mmptx/Stack/StackInfo.h"
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

using namespace llvm;
using namespace mmptx;
using namespace mmptx::ast;

static cl::OptionCategory AstCategory("mmptx-ast Options");

enum class EmitKind { Ptx, Text, Words, Kernel };

static cl::opt<std::string> InputFilename(cl::Positional,
                                          cl::desc("<input .ast file>"),
                                          cl::init("-"), cl::cat(AstCategory));
static cl::opt<std::string> OutputFilename("o", cl::desc("Output file"),
                                           cl::value_desc("filename"),
                                           cl::init("-"), cl::cat(AstCategory));
static cl::opt<EmitKind> Emit(
    "emit", cl::desc("What to print"), cl::init(EmitKind::Ptx),
    cl::values(clEnumValN(EmitKind::Ptx, "ptx", "the PTX stub (default)"),
               clEnumValN(EmitKind::Text, "text",
                          "the canonical text form, converted via the words"),
               clEnumValN(EmitKind::Words, "words",
                          "the 8-byte words in hex, one per line"),
               clEnumValN(EmitKind::Kernel, "kernel",
                          "the stub in a kernel declaring the variables")),
    cl::cat(AstCategory));
static cl::opt<std::string>
    Interpret("interpret",
              cl::desc("Run the CPU interpreter with these input values "
                       "(name=value,...) and print the outputs"),
              cl::value_desc("x=1,y=2"), cl::cat(AstCategory));
static cl::opt<unsigned>
    RandomNodes("random",
                cl::desc("Compile a random well-typed program (trees of up to "
                         "N words per stack) instead of the input"),
                cl::value_desc("N"), cl::init(0), cl::cat(AstCategory));
static cl::list<std::string>
    RandomStacks("random-stacks",
                 cl::desc("With --random: variables on these stacks only "
                          "(default: every stack)"),
                 cl::value_desc("STACK,..."), cl::CommaSeparated,
                 cl::cat(AstCategory));
static cl::opt<std::string> VocabularyName(
    "vocabulary",
    cl::desc("With --random: draw instructions from this named subset: all "
             "(default) or fast-compile (ftz forms, no IEEE div/sqrt/rcp, no "
             "integer division)"),
    cl::value_desc("name"), cl::init("all"), cl::cat(AstCategory));
static cl::opt<bool>
    FromWords("from-words",
              cl::desc("The input is a word file (what --emit=words prints)"),
              cl::cat(AstCategory));
static cl::opt<bool> ReferenceNumbering(
    "reference-numbering",
    cl::desc("Number PTX words (--from-words, --emit=words) as the "
             "reference's 18-instruction AST catalogue"),
    cl::cat(AstCategory));
static cl::opt<uint64_t> RandomSeed("seed", cl::desc("Seed of --random"),
                                    cl::init(1), cl::cat(AstCategory));

/// Writes \p Text to the output all or nothing (a temporary renamed over
/// the target on success).
static int writeOutput(StringRef Text) {
  if (Error Err = writeToolOutput(OutputFilename, [&](raw_ostream &Os) {
        Os << Text;
        return Error::success();
      })) {
    reportError(std::move(Err), "mmptx-ast");
    return 1;
  }
  return 0;
}

int main(int argc, char **argv) {
  // The compiler's flags are every tool's; the older spellings of this
  // tool keep working.
  ToolInit Init(argc, argv,
                "AST PTX compiler: S-expression program -> PTX stub\n",
                {&AstCategory, &getColorCategory()}, [] {
                  stub::registerStubToolOptions(
                      AstCategory, stub::ProgramKind::Ast,
                      {"max-stack-depth", "max-routine-depth", "max-words",
                       "max-args", "max-executed-words", "no-share"});
                });
  const stub::StubOptions StubOpts = stub::getStubOptionsFromCL();
  const uint32_t TargetSm = StubOpts.TargetSm;
  const stack::StackInfo &Info = stack::getDefaultStackInfo();
  Expected<expr::Vocabulary> Vocabulary =
      stub::getRandomVocabulary(VocabularyName, RandomNodes, "random");
  if (!Vocabulary) {
    reportError(Vocabulary.takeError(), "mmptx-ast");
    return 1;
  }
  SourceMgr Sm;
  Expected<AstModule> M = AstModule();
  if (RandomNodes) {
    if (RandomNodes > (1u << 20)) {
      WithColor::error(errs(), "mmptx-ast")
          << "--random=" << RandomNodes << " is more than 1048576 words\n";
      return 1;
    }
    SmallVector<uint16_t, 16> Stacks;
    for (const std::string &Name : RandomStacks) {
      int S = Info.findStack(Name);
      if (S < 0) {
        WithColor::error(errs(), "mmptx-ast")
            << "--random-stacks: unknown stack '" << Name << "'\n";
        return 1;
      }
      if (is_contained(Stacks, uint16_t(S))) {
        WithColor::error(errs(), "mmptx-ast")
            << "--random-stacks: stack '" << Name << "' given twice\n";
        return 1;
      }
      Stacks.push_back(uint16_t(S));
    }
    *M = makeRandomAstModule(Info, RandomSeed, RandomNodes, TargetSm, Stacks,
                             *Vocabulary);
  } else {
    auto Buf = MemoryBuffer::getFileOrSTDIN(InputFilename);
    if (!Buf) {
      WithColor::error(errs(), "mmptx-ast")
          << "cannot read '" << InputFilename
          << "': " << Buf.getError().message() << "\n";
      return 1;
    }
    unsigned Id = Sm.AddNewSourceBuffer(std::move(*Buf), SMLoc());
    M = FromWords ? parseAstWords(Sm, Id, Info) : parseAstModule(Sm, Id, Info);
    if (!M) {
      reportError(M.takeError(), "mmptx-ast");
      return 1;
    }
  }
  std::vector<uint32_t> RefMap;
  if (ReferenceNumbering) {
    RefMap = getReferenceAstInstrMap(Info);
    if (RefMap.empty()) {
      WithColor::error(errs(), "mmptx-ast")
          << "--reference-numbering: the instruction set lacks an instruction "
             "of the reference's catalogue\n";
      return 1;
    }
  }
  if (ReferenceNumbering && FromWords)
    if (Error E = renumberAstInstrs(*M, RefMap, /*toMap=*/false, Info, &Sm)) {
      reportError(std::move(E), "mmptx-ast");
      return 1;
    }
  AstPtxOptions Opts = StubOpts.Ast;
  Opts.TargetSm = TargetSm;
  AstPtxContext Ctx(Info, Opts);
  std::vector<AstVar> Inputs = M->getInputs();
  AstProgram Prog = M->getProgram();
  std::string Text;
  raw_string_ostream Os(Text);

  if (Interpret.getNumOccurrences()) {
    Expected<std::vector<uint64_t>> Vals = stub::interpretAssignments(
        Interpret, M->Vars, Inputs.size(), Info, "variable",
        [&](ArrayRef<uint64_t> Values) {
          return interpretAstPtx(Ctx, Prog, Inputs, Values);
        });
    if (!Vals) {
      reportError(locateAstError(Vals.takeError(), Sm, *M), "mmptx-ast");
      return 1;
    }
    for (size_t I = 0; I != Vals->size(); ++I) {
      stub::printInterpretValue(Os, M->Vars[M->Outputs[I].Var], (*Vals)[I],
                                Info);
    }
    return writeOutput(Os.str());
  }

  switch (Emit) {
  case EmitKind::Text:
    if (Error E = printAstModule(Os, *M, Info)) {
      reportError(std::move(E), "mmptx-ast");
      return 1;
    }
    break;
  case EmitKind::Words:
    if (ReferenceNumbering)
      if (Error E = renumberAstInstrs(*M, RefMap, /*toMap=*/true, Info, &Sm)) {
        reportError(std::move(E), "mmptx-ast");
        return 1;
      }
    printAstWords(Os, *M, Info);
    break;
  case EmitKind::Ptx:
  case EmitKind::Kernel: {
    Expected<StringRef> Stub = Ctx.compile(Prog, Inputs);
    if (!Stub) {
      reportError(locateAstError(Stub.takeError(), Sm, *M), "mmptx-ast");
      return 1;
    }
    if (Emit == EmitKind::Kernel)
      Os << wrapAstStubInKernel(Info, *M, *Stub, TargetSm);
    else
      Os << *Stub << "\n";
    break;
  }
  }
  return writeOutput(Os.str());
}
