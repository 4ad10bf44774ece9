//===- MmptxOptMain.cpp - mmptx-opt driver --------------------------------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// mmptx-opt works like mlir-opt: it always parses its input and prints its
/// output, so a test names only the passes it exercises. Every registered
/// pass is a `--<name>` flag and flag order is pipeline order.
///
//===----------------------------------------------------------------------===//

#include "mmptx/Tools/MmptxOptMain.h"
#include "mmptx/Annotate/Annotate.h"
#include "mmptx/IR/Module.h"
#include "mmptx/Inject/InjectModule.h"
#include "mmptx/Parser/Parser.h"
#include "mmptx/Printer/Printer.h"
#include "mmptx/Stub/StubCLOptions.h"
#include "mmptx/Support/Diagnostic.h"
#include "mmptx/Support/ToolInit.h"
#include "mmptx/Support/ToolOutput.h"
#include "mmptx/Support/ToolVersion.h"
#include "mmptx/Transforms/Passes.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <functional>

using namespace llvm;
using namespace mmptx;

namespace {
cl::OptionCategory OptCategory("mmptx-opt Options");

cl::opt<std::string> InputFilename(cl::Positional, cl::desc("<input .ptx>"),
                                   cl::init("-"), cl::cat(OptCategory));
cl::opt<std::string> OutputFilename("o",
                                    cl::desc("Output file (default: stdout)"),
                                    cl::value_desc("filename"), cl::init("-"),
                                    cl::cat(OptCategory));
cl::opt<bool> SplitInputFile(
    "split-input-file",
    cl::desc("Process each chunk between '// -----' lines as its own module"),
    cl::cat(OptCategory));
cl::opt<bool> VerifyEach("verify-each",
                         cl::desc("Fully re-parse the module after each pass"),
                         cl::cat(OptCategory));
cl::opt<bool> NoVerify(
    "no-verify",
    cl::desc("Only run the fast structural parse on the input (operands are "
             "not checked)"),
    cl::cat(OptCategory));

cl::opt<bool> ListInjects(
    "list-injects",
    cl::desc("After the passes, print the injects and their variables "
             "instead of the PTX"),
    cl::cat(OptCategory));
enum class ListFormat { Text, JSON };
cl::opt<ListFormat> InjectListFormat(
    "format", cl::desc("Output format of --list-injects"),
    cl::values(clEnumValN(ListFormat::Text, "text", "a readable table"),
               clEnumValN(ListFormat::JSON, "json", "one JSON object")),
    cl::init(ListFormat::Text), cl::cat(OptCategory));
/// Parser whose literals are the registered passes without values:
/// `--strip-comments` etc.
struct PassNameParser : public cl::parser<const PassInfo *> {
  PassNameParser(cl::Option &O) : cl::parser<const PassInfo *>(O) {
    for (const PassInfo &P : getRegisteredPasses())
      if (!P.ValuesFactory)
        addLiteralOption(P.Argument, &P, P.Description);
  }
};

/// The registered passes that take values (`--inject NAME=FILE`), each with
/// the list of its values; made before the command line is parsed.
std::vector<std::pair<const PassInfo *, std::unique_ptr<cl::list<std::string>>>>
    &valuePasses() {
  static std::vector<
      std::pair<const PassInfo *, std::unique_ptr<cl::list<std::string>>>>
      Lists;
  return Lists;
}

void registerValuePassOptions() {
  for (const PassInfo &P : getRegisteredPasses())
    if (P.ValuesFactory)
      valuePasses().push_back(
          {&P, std::make_unique<cl::list<std::string>>(
                   P.Argument, cl::desc(P.Description),
                   cl::value_desc(P.ValueDesc), cl::cat(OptCategory),
                   P.ValueOptional ? cl::ValueOptional : cl::ValueRequired)});
}

/// \returns the values given to registered pass \p Argument.
const cl::list<std::string> &valuesOf(StringRef Argument) {
  for (auto &[Info, List] : valuePasses())
    if (Info->Argument == Argument)
      return *List;
  llvm_unreachable("no such pass with values");
}
cl::list<const PassInfo *, bool, PassNameParser>
    PassList(cl::desc("Passes (run in command-line order):"),
             cl::cat(OptCategory));

cl::list<std::string> InjectTypeFiles(
    "inject-types",
    cl::desc("Accept the inject types of a header made by 'mmptx-tblgen "
             "-gen-inject-device-types' from a user's .td (repeatable)"),
    cl::value_desc("header"), cl::cat(OptCategory));
cl::opt<bool> AllowUnknownInjectTypes(
    "allow-unknown-inject-types",
    cl::desc("Accept any type token in mmptx and mm-ptx markers, trusting "
             "the marker's register type"),
    cl::cat(OptCategory));

/// Test-only passes (test/lib), hidden from --help.
std::vector<PassInfo> &testPasses() {
  static std::vector<PassInfo> Passes;
  return Passes;
}
/// `--test-pass`, made by the first registerTestPass(): a driver without
/// test passes (the installed mmptx-opt) has no such option at all.
std::unique_ptr<cl::list<std::string>> &testPassList() {
  static std::unique_ptr<cl::list<std::string>> List;
  return List;
}

/// The passes of the command line, test passes included, in flag order.
Expected<std::vector<std::unique_ptr<Pass>>> buildPipeline() {
  std::vector<std::pair<unsigned, std::function<std::unique_ptr<Pass>()>>>
      Ordered;
  for (unsigned I = 0; I < PassList.size(); ++I)
    Ordered.push_back({PassList.getPosition(I), PassList[I]->Factory});
  if (const auto &TestPassList = testPassList()) {
    for (unsigned I = 0; I < TestPassList->size(); ++I) {
      auto It = llvm::find_if(testPasses(), [&](const PassInfo &P) {
        return P.Argument == (*TestPassList)[I];
      });
      if (It == testPasses().end())
        return makeError("unknown test pass '" + (*TestPassList)[I] + "'");
      Ordered.push_back({TestPassList->getPosition(I), It->Factory});
    }
  }
  // A pass with values runs once, at the position of its first value.
  for (auto &[Info, List] : valuePasses()) {
    if (List->empty())
      continue;
    auto P = Info->ValuesFactory(*List);
    if (!P)
      return P.takeError();
    auto Shared = std::make_shared<std::unique_ptr<Pass>>(std::move(*P));
    Ordered.push_back(
        {List->getPosition(0), [Shared] { return std::move(*Shared); }});
  }
  llvm::stable_sort(
      Ordered, [](const auto &A, const auto &B) { return A.first < B.first; });
  std::vector<std::unique_ptr<Pass>> Out;
  for (auto &P : Ordered)
    Out.push_back(P.second());
  return Out;
}
} // namespace

void mmptx::registerTestPass(const PassInfo &Info) {
  testPasses().push_back(Info);
  if (!testPassList())
    testPassList() = std::make_unique<cl::list<std::string>>(
        "test-pass", cl::Hidden, cl::desc("Run a test-only pass"),
        cl::value_desc("name"), cl::cat(OptCategory));
}

/// --list-injects: prints the injects of \p M.
static Error listInjects(const ptx::Module &M, const InjectOptions &Opts,
                         raw_ostream &OS) {
  auto IM = InjectModule::create(M, Opts);
  if (!IM)
    return IM.takeError();
  printInjects(**IM, OS, InjectListFormat == ListFormat::JSON);
  return Error::success();
}

/// Parses, transforms and prints one module held in \p Text. \p Padding
/// leading newlines keep line numbers of split chunks absolute and are not
/// printed.
static Error processBuffer(StringRef Text, StringRef Name, size_t Padding,
                           const InjectOptions &Opts,
                           const stub::StubOptions &StubOpts, raw_ostream &OS) {
  SourceMgr SM;
  unsigned ID = SM.AddNewSourceBuffer(
      MemoryBuffer::getMemBufferCopy(Text, Name), SMLoc());
  auto M = NoVerify ? parseStructure(SM, ID) : parsePTX(SM, ID);
  if (!M)
    return M.takeError();
  PassManager PM(SM);
  PM.setVerifyEach(VerifyEach);
  PassContext Context;
  Context.InjectOpts = &Opts;
  Context.StubOpts = &StubOpts;
  Context.OnWarning = [](const SMDiagnostic &D) { printDiagnostic(D, errs()); };
  PM.setContext(Context);
  auto Pipeline = buildPipeline();
  if (!Pipeline)
    return Pipeline.takeError();
  for (std::unique_ptr<Pass> &P : *Pipeline)
    PM.addPass(std::move(P));
  if (Error E = PM.run(*M))
    return E;
  if (ListInjects)
    return listInjects(**M, Opts, OS);
  std::string Out = printModuleToString(**M);
  OS << StringRef(Out).drop_front(std::min(Padding, Out.size()));
  return Error::success();
}

int mmptx::mmptxOptMain(int argc, char **argv) {
  InitLLVM X(argc, argv);
  ignoreStderrWriteErrorsAtExit();
  installToolVersionPrinter();
  registerValuePassOptions();
  stub::registerStubCLOptions(OptCategory);
  hideUnrelatedToolOptions(&OptCategory);
  cl::ParseCommandLineOptions(
      argc, argv,
      "mmptx PTX optimizer driver\n\n"
      "  Parses a PTX module, runs the given passes in order and prints the\n"
      "  result. With no passes the output is the input, byte for byte.\n");

  // The passes with values (--inject, --stub-gen) render stubs into the
  // injects that --list-injects would list; those with options
  // (--prune-unused-globals) do not.
  for (auto &[Info, List] : valuePasses()) {
    if (!ListInjects || List->empty() || Info->ValueOptional)
      continue;
    reportError(makeError("--list-injects and --" + Info->Argument +
                          " exclude each other: the one lists the injects, "
                          "the other renders stubs into them"),
                "mmptx-opt");
    return 1;
  }
  // Each --stub-* flag must apply to one of the programs.
  std::vector<stub::ProgramKind> ProgramKinds;
  for (const std::string &V : valuesOf("stub-gen"))
    ProgramKinds.push_back(
        stub::getProgramKindOfFile(StringRef(V).split('=').second));
  if (Error E = stub::checkStubCLOptionsApply(ProgramKinds, "--stub-gen")) {
    reportError(std::move(E), "mmptx-opt");
    return 1;
  }
  const stub::StubOptions StubOpts = stub::getStubOptionsFromCL();
  if (InjectListFormat.getNumOccurrences() && !ListInjects) {
    reportError(makeError("--format applies to --list-injects only"),
                "mmptx-opt");
    return 1;
  }
  auto BufOrErr = MemoryBuffer::getFileOrSTDIN(InputFilename, /*IsText=*/false);
  if (std::error_code EC = BufOrErr.getError()) {
    reportError(
        makeError("cannot open '" + InputFilename + "': " + EC.message()),
        "mmptx-opt");
    return 1;
  }
  StringRef Input = (*BufOrErr)->getBuffer();

  // User inject types; InjectOptions refers to the strings of Types.
  SourceMgr TypeSM;
  annotate::TypeTable Types;
  for (const std::string &File : InjectTypeFiles) {
    ErrorOr<std::unique_ptr<MemoryBuffer>> Buf = MemoryBuffer::getFile(File);
    if (!Buf) {
      reportError(makeError("cannot open inject types '" + File +
                            "': " + Buf.getError().message()),
                  "mmptx-opt");
      return 1;
    }
    unsigned ID = TypeSM.AddNewSourceBuffer(std::move(*Buf), SMLoc());
    if (Error E = Types.addFromHeader(TypeSM, ID)) {
      reportError(std::move(E), "mmptx-opt");
      return 1;
    }
  }
  InjectOptions Opts;
  Opts.ExtraTypes = Types.getTypes();
  Opts.AllowUnknownTypes = AllowUnknownInjectTypes;
  StringRef Name = InputFilename == "-" ? "<stdin>" : StringRef(InputFilename);

  // Written beside the target and renamed over it on success: the input may
  // be the output (and is memory-mapped), and a failed run keeps the old
  // output.
  auto OutOrErr = ToolOutput::open(OutputFilename);
  if (!OutOrErr) {
    reportError(OutOrErr.takeError(), "mmptx-opt");
    return 1;
  }
  ToolOutput &Out = **OutOrErr;

  bool Failed = false;
  if (!SplitInputFile) {
    if (Error E = processBuffer(Input, Name, 0, Opts, StubOpts, Out.os())) {
      reportError(std::move(E), "mmptx-opt");
      Failed = true;
    }
  } else {
    // Split on lines that are exactly `// -----`; each chunk keeps its
    // absolute line numbers. Errors in one chunk do not stop the others.
    size_t Pos = 0, Line = 1;
    bool First = true;
    while (Pos <= Input.size()) {
      size_t ChunkEnd = Input.size(), Next = Input.size() + 1;
      for (size_t L = Pos; L < Input.size();) {
        size_t NL = Input.find('\n', L);
        size_t LE = NL == StringRef::npos ? Input.size() : NL;
        if (Input.substr(L, LE - L).rtrim("\r \t") == "// -----") {
          ChunkEnd = L;
          Next = NL == StringRef::npos ? Input.size() : NL + 1;
          break;
        }
        L = NL == StringRef::npos ? Input.size() : NL + 1;
      }
      StringRef Chunk = Input.substr(Pos, ChunkEnd - Pos);
      if (!First)
        Out.os() << "// -----\n";
      First = false;
      std::string Padded(Line - 1, '\n');
      Padded += Chunk;
      if (Error E =
              processBuffer(Padded, Name, Line - 1, Opts, StubOpts, Out.os())) {
        reportError(std::move(E), "mmptx-opt");
        Failed = true;
      }
      if (Next > Input.size())
        break;
      Line += Input.substr(Pos, Next - Pos).count('\n');
      Pos = Next;
    }
  }
  if (Failed)
    return 1;
  if (Error E = Out.commit()) {
    reportError(std::move(E), "mmptx-opt");
    return 1;
  }
  return 0;
}
