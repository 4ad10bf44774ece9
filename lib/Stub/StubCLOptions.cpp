//===- StubCLOptions.cpp - Command-line flags of StubOptions --------------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "mmptx/Stub/StubCLOptions.h"
#include "mmptx/Support/Diagnostic.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/Allocator.h"
#include "llvm/Support/StringSaver.h"

#include <memory>

using namespace llvm;
using namespace mmptx;
using namespace mmptx::stub;

namespace {
/// The flags, made by registerStubCLOptions(). Flags not given leave the
/// compilers' defaults (StackPtxOptions, AstPtxOptions): no default is
/// written here.
struct StubCLOptions {
  explicit StubCLOptions(cl::OptionCategory &Cat)
      : StackStrict("stack-strict",
                    cl::desc("Compile Stack PTX programs in strict mode: "
                             "invalid words are errors instead of no-ops"),
                    cl::cat(Cat)),
        StackExecutionLimit("stack-execution-limit",
                            cl::desc("Words a Stack PTX program may execute "
                                     "(default: the compiler's)"),
                            cl::value_desc("N"), cl::cat(Cat)),
        StackMaxFrameDepth("stack-max-frame-depth",
                           cl::desc("Frames of a Stack PTX program, the main "
                                    "program included (default: the "
                                    "compiler's)"),
                           cl::value_desc("N"), cl::cat(Cat)),
        StackSize("stack-size",
                  cl::desc("Values per stack of a Stack PTX program "
                           "(default: the compiler's)"),
                  cl::value_desc("N"), cl::cat(Cat)),
        StackStoreSize("stack-store-size",
                       cl::desc("Store slots of a Stack PTX program "
                                "(default: the compiler's)"),
                       cl::value_desc("N"), cl::cat(Cat)),
        StackNodeLimit("stack-node-limit",
                       cl::desc("DAG nodes a Stack PTX program may build "
                                "(default: the compiler's)"),
                       cl::value_desc("N"), cl::cat(Cat)),
        StackIncludeDirs("stack-include-dir",
                         cl::desc("Search DIR for a Stack PTX program's "
                                  ".include files, after the including "
                                  "file's directory (repeatable)"),
                         cl::value_desc("DIR"), cl::cat(Cat)),
        AstMaxStackDepth("ast-max-stack-depth",
                         cl::desc("Values on the stack at once of an AST PTX "
                                  "program (default: the compiler's)"),
                         cl::value_desc("N"), cl::cat(Cat)),
        AstMaxRoutineDepth("ast-max-routine-depth",
                           cl::desc("Nested routine calls of an AST PTX "
                                    "program (default: the compiler's)"),
                           cl::value_desc("N"), cl::cat(Cat)),
        AstMaxWords("ast-max-words",
                    cl::desc("Words of an expression or routine of an AST "
                             "PTX program (default: the compiler's)"),
                    cl::value_desc("N"), cl::cat(Cat)),
        AstMaxArgs("ast-max-args",
                   cl::desc("Operands of a word or routine call of an AST "
                            "PTX program (default: the compiler's)"),
                   cl::value_desc("N"), cl::cat(Cat)),
        AstMaxExecutedWords("ast-max-executed-words",
                            cl::desc("Words an AST PTX program may execute, "
                                     "routine calls included (default: the "
                                     "compiler's)"),
                            cl::value_desc("N"), cl::cat(Cat)),
        AstNoShare("ast-no-share",
                   cl::desc("Compute equal sub-expressions of an AST PTX "
                            "program once per occurrence"),
                   cl::cat(Cat)),
        TargetSm("stack-target-sm",
                 cl::desc("Build stubs for sm_N, from Stack PTX and AST PTX "
                          "programs alike: instructions and special "
                          "registers that need a newer target are invalid "
                          "(default: the module's .target)"),
                 cl::value_desc("N"), cl::cat(Cat)) {}

  cl::opt<bool> StackStrict;
  cl::opt<uint64_t> StackExecutionLimit;
  cl::opt<unsigned> StackMaxFrameDepth;
  cl::opt<unsigned> StackSize;
  cl::opt<unsigned> StackStoreSize;
  cl::opt<unsigned> StackNodeLimit;
  cl::list<std::string> StackIncludeDirs;
  cl::opt<unsigned> AstMaxStackDepth;
  cl::opt<unsigned> AstMaxRoutineDepth;
  cl::opt<unsigned> AstMaxWords;
  cl::opt<unsigned> AstMaxArgs;
  cl::opt<uint64_t> AstMaxExecutedWords;
  cl::opt<bool> AstNoShare;
  cl::opt<unsigned> TargetSm;

  /// The flags of one program kind, for checkStubCLOptionsApply().
  SmallVector<cl::Option *, 8> stackFlags() {
    return {&StackStrict,
            &StackExecutionLimit,
            &StackMaxFrameDepth,
            &StackSize,
            &StackStoreSize,
            &StackNodeLimit,
            std::addressof(StackIncludeDirs)};
  }
  SmallVector<cl::Option *, 8> astFlags() {
    return {&AstMaxStackDepth, &AstMaxRoutineDepth,  &AstMaxWords,
            &AstMaxArgs,       &AstMaxExecutedWords, &AstNoShare};
  }

  /// The other names of flags (addStubCLOptionAlias()) and the strings
  /// they point to.
  std::vector<std::unique_ptr<cl::alias>> Aliases;
  BumpPtrAllocator Alloc;
  StringSaver Saver{Alloc};
};

std::unique_ptr<StubCLOptions> &getFlags() {
  static std::unique_ptr<StubCLOptions> Flags;
  return Flags;
}
} // namespace

void stub::registerStubCLOptions(cl::OptionCategory &Category,
                                 ArrayRef<ProgramKind> Kinds) {
  assert(!getFlags() && "registerStubCLOptions() called twice");
  getFlags() = std::make_unique<StubCLOptions>(Category);
  StubCLOptions &F = *getFlags();
  // The flags of a kind the tool does not compile are never seen: an
  // unknown argument, not a flag that is silently ignored.
  if (!is_contained(Kinds, ProgramKind::Stack))
    for (cl::Option *O : F.stackFlags())
      O->removeArgument();
  if (!is_contained(Kinds, ProgramKind::Ast))
    for (cl::Option *O : F.astFlags())
      O->removeArgument();
}

void stub::addStubCLOptionAlias(StringRef Spelling, StringRef Flag,
                                bool Visible) {
  assert(getFlags() && "registerStubCLOptions() not called");
  cl::Option *Target = cl::getRegisteredOptions().lookup(Flag);
  assert(Target && "no such flag");
  StubCLOptions &F = *getFlags();
  StringRef Name = F.Saver.save(Spelling);
  cl::desc Desc(F.Saver.save("Alias for --" + Flag));
  std::unique_ptr<cl::alias> A;
  // cl::alias registers itself when made: its modifiers are fixed here.
  if (Spelling.size() == 1)
    A = std::make_unique<cl::alias>(Name, cl::aliasopt(*Target), cl::Prefix,
                                    Desc);
  else
    A = std::make_unique<cl::alias>(Name, cl::aliasopt(*Target), Desc);
  A->setHiddenFlag(Visible ? cl::NotHidden : cl::Hidden);
  F.Aliases.push_back(std::move(A));
}

/// Sets \p Field from \p Flag when the command line gave it.
template <typename T, typename FlagT>
static void override(T &Field, const FlagT &Flag) {
  if (Flag.getNumOccurrences())
    Field = Flag;
}

void stub::registerStubToolOptions(cl::OptionCategory &Category,
                                   ProgramKind Kind,
                                   ArrayRef<StringRef> Unprefixed) {
  registerStubCLOptions(Category, {Kind});
  StringRef Prefix = Kind == ProgramKind::Ast ? "ast-" : "stack-";
  for (StringRef Spelling : Unprefixed)
    addStubCLOptionAlias(Spelling, (Prefix + Spelling).str());
  addStubCLOptionAlias("target-sm", "stack-target-sm");
}

Expected<expr::Vocabulary>
stub::getRandomVocabulary(const cl::opt<std::string> &Option, bool Random,
                          StringRef RandomFlag) {
  Expected<expr::Vocabulary> Vocabulary = expr::parseVocabularyName(Option);
  if (!Vocabulary)
    return createStringError(inconvertibleErrorCode(),
                             "--vocabulary: " +
                                 toString(Vocabulary.takeError()));
  if (Option.getNumOccurrences() && !Random)
    return createStringError(inconvertibleErrorCode(),
                             "--vocabulary chooses what --" + RandomFlag +
                                 " draws from: give --" + RandomFlag +
                                 "=N too");
  return Vocabulary;
}

StubOptions stub::getStubOptionsFromCL() {
  StubCLOptions &F = *getFlags();
  StubOptions O;
  override(O.Stack.Strict, F.StackStrict);
  override(O.Stack.ExecutionLimit, F.StackExecutionLimit);
  override(O.Stack.MaxFrameDepth, F.StackMaxFrameDepth);
  override(O.Stack.StackSize, F.StackSize);
  override(O.Stack.StoreSize, F.StackStoreSize);
  override(O.Stack.MaxNodes, F.StackNodeLimit);
  O.IncludeDirs.assign(F.StackIncludeDirs.begin(), F.StackIncludeDirs.end());
  override(O.Ast.MaxStackDepth, F.AstMaxStackDepth);
  override(O.Ast.MaxRoutineDepth, F.AstMaxRoutineDepth);
  override(O.Ast.MaxWords, F.AstMaxWords);
  override(O.Ast.MaxArgs, F.AstMaxArgs);
  override(O.Ast.MaxExecutedWords, F.AstMaxExecutedWords);
  if (F.AstNoShare)
    O.Ast.ShareSubexpressions = false;
  override(O.TargetSm, F.TargetSm);
  return O;
}

Error stub::checkStubCLOptionsApply(ArrayRef<ProgramKind> Kinds,
                                    StringRef What) {
  StubCLOptions &F = *getFlags();
  auto Check = [&](ArrayRef<cl::Option *> Flags, ProgramKind Kind) -> Error {
    if (is_contained(Kinds, Kind))
      return Error::success();
    for (cl::Option *O : Flags)
      if (O->getNumOccurrences())
        return makeError("--" + O->ArgStr + " applies to " +
                         getProgramKindName(Kind) + " programs, and " + What +
                         " is given none");
    return Error::success();
  };
  if (Error E = Check(F.stackFlags(), ProgramKind::Stack))
    return E;
  if (Error E = Check(F.astFlags(), ProgramKind::Ast))
    return E;
  if (Kinds.empty() && F.TargetSm.getNumOccurrences())
    return makeError("--" + F.TargetSm.ArgStr + " applies to " + What +
                     " only");
  return Error::success();
}

StringRef stub::getStackOptionFlag(StringRef Field) {
  return StringSwitch<StringRef>(Field)
      .Case("stackSize", "--stack-size")
      .Case("maxNodes", "--stack-node-limit")
      .Case("maxFrameDepth", "--stack-max-frame-depth")
      .Case("storeSize", "--stack-store-size")
      .Case("strict", "--stack-strict")
      .Default("--stack-execution-limit");
}
