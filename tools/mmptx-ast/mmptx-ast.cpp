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
///   mmptx-ast --emit=kernel ...         the stub in a kernel that declares
///                                       the variables (for ptxas)
///
//===----------------------------------------------------------------------===//

#include "mmptx/Ast/AstInterpreter.h"
#include "mmptx/Ast/AstPtx.h"
#include "mmptx/Ast/AstRandom.h"
#include "mmptx/Ast/AstText.h"
#include "mmptx/Expr/Literal.h"
#include "mmptx/Support/Diagnostic.h"
#include "mmptx/Support/ToolOutput.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/WithColor.h"

#include <tuple>

using namespace llvm;
using namespace mmptx;
using namespace mmptx::ast;

static cl::OptionCategory astCategory("mmptx-ast Options");

enum class EmitKind { Ptx, Text, Words, Kernel };

static cl::opt<std::string> inputFilename(cl::Positional,
                                          cl::desc("<input .ast file>"),
                                          cl::init("-"), cl::cat(astCategory));
static cl::opt<std::string> outputFilename("o", cl::desc("Output file"),
                                           cl::value_desc("filename"),
                                           cl::init("-"), cl::cat(astCategory));
static cl::opt<EmitKind> emitKind(
    "emit", cl::desc("What to print"), cl::init(EmitKind::Ptx),
    cl::values(clEnumValN(EmitKind::Ptx, "ptx", "the PTX stub (default)"),
               clEnumValN(EmitKind::Text, "text",
                          "the canonical text form, converted via the words"),
               clEnumValN(EmitKind::Words, "words",
                          "the 8-byte words in hex, one per line"),
               clEnumValN(EmitKind::Kernel, "kernel",
                          "the stub in a kernel declaring the variables")),
    cl::cat(astCategory));
static cl::opt<std::string>
    interpret("interpret",
              cl::desc("Run the CPU interpreter with these input values "
                       "(name=value,...) and print the outputs"),
              cl::value_desc("x=1,y=2"), cl::cat(astCategory));
static cl::opt<unsigned> maxStackDepth("max-stack-depth",
                                       cl::desc("Values on the stack at once"),
                                       cl::init(AstPtxOptions().maxStackDepth),
                                       cl::cat(astCategory));
static cl::opt<unsigned>
    maxRoutineDepth("max-routine-depth", cl::desc("Nested routine calls"),
                    cl::init(AstPtxOptions().maxRoutineDepth),
                    cl::cat(astCategory));
static cl::opt<unsigned> maxWords("max-words",
                                  cl::desc("Words of an expression or routine"),
                                  cl::init(AstPtxOptions().maxWords),
                                  cl::cat(astCategory));
static cl::opt<unsigned> maxArgs("max-args",
                                 cl::desc("Operands of a word / routine call"),
                                 cl::init(AstPtxOptions().maxArgs),
                                 cl::cat(astCategory));
static cl::opt<uint64_t> maxExecutedWords(
    "max-executed-words", cl::desc("Words executed, routine calls included"),
    cl::init(AstPtxOptions().maxExecutedWords), cl::cat(astCategory));
static cl::opt<bool>
    noShare("no-share",
            cl::desc("Compute equal sub-expressions once per occurrence, as "
                     "the reference does"),
            cl::cat(astCategory));
static cl::opt<unsigned>
    randomNodes("random",
                cl::desc("Compile a random well-typed program (trees of up to "
                         "N words per stack) instead of the input"),
                cl::value_desc("N"), cl::init(0), cl::cat(astCategory));
static cl::list<std::string>
    randomStacks("random-stacks",
                 cl::desc("With --random: variables on these stacks only "
                          "(default: every stack)"),
                 cl::value_desc("STACK,..."), cl::CommaSeparated,
                 cl::cat(astCategory));
static cl::opt<bool>
    fromWords("from-words",
              cl::desc("The input is a word file (what --emit=words prints)"),
              cl::cat(astCategory));
static cl::opt<bool> referenceNumbering(
    "reference-numbering",
    cl::desc("Number PTX words (--from-words, --emit=words) as the "
             "reference's 18-instruction AST catalogue"),
    cl::cat(astCategory));
static cl::opt<uint64_t> randomSeed("seed", cl::desc("Seed of --random"),
                                    cl::init(1), cl::cat(astCategory));
static cl::opt<unsigned>
    targetSm("target-sm",
             cl::desc("The sm_XX the stub is for; instructions needing a "
                      "newer target are errors (0: any)"),
             cl::init(0), cl::cat(astCategory));

/// Writes \p text to the output all or nothing (a temporary renamed over
/// the target on success).
static int writeOutput(StringRef text) {
  if (Error err = writeToolOutput(outputFilename, [&](raw_ostream &os) {
        os << text;
        return Error::success();
      })) {
    reportError(std::move(err), "mmptx-ast");
    return 1;
  }
  return 0;
}

int main(int argc, char **argv) {
  InitLLVM x(argc, argv);
  ignoreStderrWriteErrorsAtExit();
  cl::HideUnrelatedOptions(astCategory);
  cl::ParseCommandLineOptions(argc, argv,
                              "AST PTX compiler: S-expression program -> PTX "
                              "stub\n");
  const stack::StackInfo &info = stack::getDefaultStackInfo();
  SourceMgr sm;
  Expected<AstModule> m = AstModule();
  if (randomNodes) {
    if (randomNodes > (1u << 20)) {
      WithColor::error(errs(), "mmptx-ast")
          << "--random=" << randomNodes << " is more than 1048576 words\n";
      return 1;
    }
    SmallVector<uint16_t, 16> stacks;
    for (const std::string &name : randomStacks) {
      int s = info.findStack(name);
      if (s < 0) {
        WithColor::error(errs(), "mmptx-ast")
            << "--random-stacks: unknown stack '" << name << "'\n";
        return 1;
      }
      if (is_contained(stacks, uint16_t(s))) {
        WithColor::error(errs(), "mmptx-ast")
            << "--random-stacks: stack '" << name << "' given twice\n";
        return 1;
      }
      stacks.push_back(uint16_t(s));
    }
    *m = makeRandomAstModule(info, randomSeed, randomNodes, targetSm, stacks);
  } else {
    auto buf = MemoryBuffer::getFileOrSTDIN(inputFilename);
    if (!buf) {
      WithColor::error(errs(), "mmptx-ast")
          << "cannot read '" << inputFilename
          << "': " << buf.getError().message() << "\n";
      return 1;
    }
    unsigned id = sm.AddNewSourceBuffer(std::move(*buf), SMLoc());
    m = fromWords ? parseAstWords(sm, id, info) : parseAstModule(sm, id, info);
    if (!m) {
      reportError(m.takeError(), "mmptx-ast");
      return 1;
    }
  }
  std::vector<uint32_t> refMap;
  if (referenceNumbering) {
    refMap = getReferenceAstInstrMap(info);
    if (refMap.empty()) {
      WithColor::error(errs(), "mmptx-ast")
          << "--reference-numbering: the instruction set lacks an instruction "
             "of the reference's catalogue\n";
      return 1;
    }
  }
  if (referenceNumbering && fromWords)
    if (Error e = renumberAstInstrs(*m, refMap, /*toMap=*/false, info, &sm)) {
      reportError(std::move(e), "mmptx-ast");
      return 1;
    }
  AstPtxOptions opts;
  opts.maxStackDepth = maxStackDepth;
  opts.maxRoutineDepth = maxRoutineDepth;
  opts.maxWords = maxWords;
  opts.maxArgs = maxArgs;
  opts.maxExecutedWords = maxExecutedWords;
  opts.shareSubexpressions = !noShare;
  opts.targetSm = targetSm;
  AstPtxContext ctx(info, opts);
  std::vector<AstVar> inputs = m->getInputs();
  AstProgram prog = m->getProgram();
  std::string text;
  raw_string_ostream os(text);

  if (interpret.getNumOccurrences()) {
    std::vector<uint64_t> values(inputs.size(), 0);
    SmallVector<StringRef, 8> items;
    StringRef(interpret).split(items, ',', -1, false);
    for (StringRef item : items) {
      StringRef name, value;
      std::tie(name, value) = item.split('=');
      name = name.trim();
      auto it =
          find_if(m->vars, [&](const AstVarDecl &d) { return d.name == name; });
      if (it == m->vars.end()) {
        WithColor::error(errs(), "mmptx-ast")
            << "--interpret: unknown variable '" << name << "'\n";
        return 1;
      }
      if (!expr::parseValue(value.trim(), info.literalPrefixes[it->stackIdx],
                            values[it - m->vars.begin()])) {
        WithColor::error(errs(), "mmptx-ast")
            << "--interpret: bad value '" << value << "' for '" << name
            << "'\n";
        return 1;
      }
    }
    Expected<std::vector<uint64_t>> vals =
        interpretAstPtx(ctx, prog, inputs, values);
    if (!vals) {
      reportError(locateAstError(vals.takeError(), sm, *m), "mmptx-ast");
      return 1;
    }
    for (size_t i = 0; i != vals->size(); ++i) {
      const AstVarDecl &d = m->vars[m->outputs[i].var];
      os << d.name << " = ";
      expr::printValue(os, (*vals)[i], info.literalPrefixes[d.stackIdx]);
      os << "\n";
    }
    return writeOutput(os.str());
  }

  switch (emitKind) {
  case EmitKind::Text:
    if (Error e = printAstModule(os, *m, info)) {
      reportError(std::move(e), "mmptx-ast");
      return 1;
    }
    break;
  case EmitKind::Words:
    if (referenceNumbering)
      if (Error e = renumberAstInstrs(*m, refMap, /*toMap=*/true, info, &sm)) {
        reportError(std::move(e), "mmptx-ast");
        return 1;
      }
    printAstWords(os, *m, info);
    break;
  case EmitKind::Ptx:
  case EmitKind::Kernel: {
    Expected<StringRef> stub = ctx.compile(prog, inputs);
    if (!stub) {
      reportError(locateAstError(stub.takeError(), sm, *m), "mmptx-ast");
      return 1;
    }
    if (emitKind == EmitKind::Kernel)
      os << wrapAstStubInKernel(info, *m, *stub, targetSm);
    else
      os << *stub << "\n";
    break;
  }
  }
  return writeOutput(os.str());
}
