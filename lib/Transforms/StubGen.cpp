//===- StubGen.cpp - Generate stubs from Stack PTX programs ---------------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `--stub-gen NAME=PROGRAM` compiles a Stack PTX program (text format) into
/// a stub typed against inject NAME and renders it at every site of NAME.
/// A PROGRAM ending in `.ast` is an AST PTX program (mmptx/Ast/AstStub.h).
///
///  1. Find and check the injects (InjectModule); a legacy comment-form
///     site is normalised around its stub, like render does.
///  2. Parse the program with the inject's variables predeclared: one the
///     program uses by name (or stable register name) without declaring it
///     in `.registers` is declared with its type's stack and its kind.
///     `.include` files are searched in the program's directory, then in
///     the spec's include directories (--stack-include-dir).
///  3. Check every register: it must be a variable of the inject, on the
///     stack of the variable's type token and of a compatible kind (an `in`
///     register reads an in or mod variable, an `out` register writes an out
///     or mod variable). A register declared `out` (every out variable is)
///     has no value to read, so reading it is an error. Violations are
///     located in the program.
///  4. Requests are the program's `.requests`, or, without that section,
///     the registers it declares `out` or `mod`, in declaration order. Every
///     out variable of the inject that no request writes gets the zero of
///     its type (never an uninitialised register); a mod variable nothing
///     writes keeps its value.
///  5. Compile (strict mode and limits from the command line, checked
///     against StackPtxBounds first) for the module's target, the first
///     `sm_XX` of its `.target` directive (sm_90a counts as 90; none, any
///     target) unless the options name one, and warn, located at the
///     program, about every limit execution hit: the stub of a truncated
///     run is valid PTX but likely not what the author meant.
///  6. Splice the stubs (spliceStubs, the render step --inject uses too).
///
//===----------------------------------------------------------------------===//

#include "mmptx/Ast/AstStub.h"
#include "mmptx/Expr/InjectTyping.h"
#include "mmptx/IR/Module.h"
#include "mmptx/Inject/InjectModule.h"
#include "mmptx/Stack/StackCompiler.h"
#include "mmptx/Stack/StackText.h"
#include "mmptx/Support/Diagnostic.h"
#include "mmptx/Transforms/Passes.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace mmptx;
using namespace mmptx::ptx;

namespace {
class StubGenPass : public Pass {
public:
  StubGenPass(std::vector<StubGenSpec> Specs,
              const stack::StackPtxOptions &Opts)
      : Specs(std::move(Specs)), CompilerOptions(Opts) {}
  /// Compiles with the pipeline's Stack PTX options.
  explicit StubGenPass(std::vector<StubGenSpec> Specs)
      : Specs(std::move(Specs)), FromContext(true) {}
  StringRef getArgument() const override { return "stub-gen"; }
  Error run(Module &M) override;

private:
  Expected<std::string> compileFor(const InjectModule &Im, const Inject &Inj,
                                   const StubGenSpec &Spec);
  Expected<std::string> compileAstFor(const InjectModule &Im, const Inject &Inj,
                                      unsigned BufferId);
  void warnAboutLimits(unsigned BufferId, const Inject &Inj,
                       const stack::StackPtxStats &Stats);

  std::vector<StubGenSpec> Specs;
  stack::StackPtxOptions CompilerOptions;
  /// Take compilerOptions from the PassContext when run.
  bool FromContext = false;
  /// The target of the module being run on (see run()).
  uint32_t TargetSm = 0;
  std::unique_ptr<stack::StackPtxContext> Ctx;
  std::unique_ptr<ast::AstPtxContext> AstCtx;
  /// Owns the program buffers so that diagnostics can point into them.
  SourceMgr ProgramSm;
};
} // namespace

/// \returns the variables of \p inj as the expression compilers type them.
static std::vector<expr::SiteVar> getSiteVars(const InjectModule &Im,
                                              const Inject &Inj) {
  std::vector<expr::SiteVar> Vars;
  for (const InjectVariable &V : Im.getVariables(Inj))
    Vars.push_back({V.Name, V.StableRegister, V.TypeToken, V.Kind, V.RegType});
  return Vars;
}

/// \returns the mmptx-opt flag of StackPtxOptions field \p field.
static StringRef stackOptionFlag(StringRef Field) {
  return StringSwitch<StringRef>(Field)
      .Case("stackSize", "--stack-size")
      .Case("maxNodes", "--stack-node-limit")
      .Case("maxFrameDepth", "--stack-max-frame-depth")
      .Case("storeSize", "--stack-store-size")
      .Case("strict", "--stack-strict")
      .Default("--stack-execution-limit");
}

/// \returns the location of the start of buffer \p id.
static SMLoc bufferStart(const SourceMgr &Sm, unsigned Id) {
  return SMLoc::getFromPointer(Sm.getMemoryBuffer(Id)->getBufferStart());
}

void StubGenPass::warnAboutLimits(unsigned BufferID, const Inject &TheInj,
                                  const stack::StackPtxStats &Stats) {
  stack::StackPtxOptions O = CompilerOptions;
  O.TargetSm = TargetSm;
  const auto &Handler = getContext().OnWarning;
  if (!Handler)
    return;
  stack::describeLimitsHit(Stats, O, stackOptionFlag, [&](const Twine &Msg) {
    Handler(ProgramSm.GetMessage(
        bufferStart(ProgramSm, BufferID), SourceMgr::DK_Warning,
        "program for inject '" + TheInj.Name + "': " + Msg));
  });
}

/// \returns N of the first `sm_N` of the module's `.target` directive
/// (`.target sm_90a, debug` gives 90), or 0 if there is none.
static uint32_t getModuleTargetSm(const Module &M) {
  for (uint32_t I : M.headerDirectives()) {
    StringRef Text = M.getText(M.getStatement(I));
    if (!Text.consume_front(".target") || Text.empty() || !isSpace(Text[0]))
      continue;
    SmallVector<StringRef, 4> Items;
    Text.split(Items, ',');
    for (StringRef Item : Items) {
      Item = Item.trim();
      if (!Item.consume_front("sm_"))
        continue;
      uint32_t Sm = 0;
      if (!Item.take_while(isDigit).getAsInteger(10, Sm))
        return Sm;
    }
    return 0;
  }
  return 0;
}

Expected<std::string> StubGenPass::compileFor(const InjectModule &Im,
                                              const Inject &Inj,
                                              const StubGenSpec &Spec) {
  std::string Included;
  unsigned Id = ProgramSm.AddIncludeFile(Spec.ProgramFile, SMLoc(), Included);
  if (!Id) {
    // AddIncludeFile drops the reason; ask the file system for it.
    auto Buf = MemoryBuffer::getFile(Spec.ProgramFile);
    return makeError("cannot open program '" + Spec.ProgramFile + "': " +
                     (Buf ? std::string("not found in the include path")
                          : Buf.getError().message()));
  }
  if (StringRef(Spec.ProgramFile).endswith(".ast"))
    return compileAstFor(Im, Inj, Id);
  const stack::StackInfo &Info = stack::getDefaultStackInfo();
  std::vector<expr::SiteVar> Vars = getSiteVars(Im, Inj);
  auto StackOf = [&](const expr::SiteVar &V) {
    return expr::findStackOf(Info, V);
  };

  // Every variable may be used without a declaration, by name or by stable
  // register. One whose type has no one stack gets an invalid stack, so that
  // its use is reported below, located.
  std::vector<stack::RegisterDecl> Predeclared;
  for (const expr::SiteVar &V : Vars) {
    int S = StackOf(V);
    uint16_t StackIdx = S < 0 ? uint16_t(Info.NumStacks) : uint16_t(S);
    for (StringRef Name : {V.Name, V.StableRegister})
      Predeclared.push_back({Name.str(), StackIdx, V.Kind, SMLoc(), SMLoc()});
  }
  auto Prog = stack::parseStackProgram(ProgramSm, Id, Info, Predeclared,
                                       Spec.IncludeDirs);
  if (!Prog)
    return Prog.takeError();

  // Map every register onto a variable of the inject.
  std::vector<stack::Register> Regs;
  std::vector<int> VarOfReg;
  for (const stack::RegisterDecl &D : Prog->Registers) {
    const expr::SiteVar *V = expr::findSiteVar(Vars, D.Name);
    if (!V)
      return DiagnosticError::get(ProgramSm, D.Loc,
                                  "inject '" + Inj.Name +
                                      "' has no variable '" + D.Name + "'");
    std::string Misfit =
        expr::checkSiteVarUse(Info, Inj.Name, *V, D.StackIdx, D.Kind);
    if (!Misfit.empty())
      return DiagnosticError::get(ProgramSm, D.Loc, Misfit);
    // An out register has no value before the stub writes it.
    if (D.Kind == stack::RegKind::Out && D.FirstRead.isValid()) {
      if (V->Kind == stack::RegKind::Out)
        return DiagnosticError::get(ProgramSm, D.FirstRead,
                                    "the program reads '" + D.Name +
                                        "', an out variable of inject '" +
                                        Inj.Name + "', which has no value");
      return DiagnosticError::get(ProgramSm, D.FirstRead,
                                  "the program reads '" + D.Name +
                                      "', which it declares 'out'; declare "
                                      "it 'mod' to read its value");
    }
    // A mod variable keeps its value when the program leaves it alone.
    Regs.push_back({V->StableRegister, D.StackIdx, V->Kind});
    VarOfReg.push_back(int(V - Vars.data()));
  }
  // `input(N)` before the declaration of register N has no recorded read;
  // locate it at the declaration.
  stack::Program Words = Prog->getProgram();
  auto ReadsOut = [&](ArrayRef<uint64_t> Ws) {
    for (uint64_t W : Ws) {
      if (stack::getWordType(W) != stack::WordType::Input)
        continue;
      uint32_t R = stack::getWordPayload(W);
      if (R < Regs.size() && Prog->Registers[R].Kind == stack::RegKind::Out)
        return int(R);
    }
    return -1;
  };
  int OutRead = ReadsOut(Words.Main);
  for (ArrayRef<uint64_t> Routine : Words.Routines)
    if (OutRead < 0)
      OutRead = ReadsOut(Routine);
  if (OutRead >= 0)
    return DiagnosticError::get(ProgramSm, Prog->Registers[OutRead].Loc,
                                "the program reads '" +
                                    Prog->Registers[OutRead].Name +
                                    "', which is 'out' and has no value to "
                                    "read");

  // The parser refuses requests of registers declared 'in'.
  std::vector<uint32_t> Requests = Prog->Requests;
  if (!Prog->HasRequests) {
    // What the program declares it writes; a variable it does not mention
    // is not its to write.
    SmallVector<bool, 16> Requested(Vars.size(), false);
    for (uint32_t R : Prog->getDefaultRequests()) {
      if (Requested[VarOfReg[R]])
        continue;
      Requested[VarOfReg[R]] = true;
      Requests.push_back(R);
    }
  }

  // Out variables that no request writes are zeroed: a site never reads an
  // uninitialised register.
  SmallVector<bool, 16> Written(Vars.size(), false);
  for (uint32_t R : Requests)
    Written[VarOfReg[R]] = true;
  std::vector<stack::Register> ZeroRegs;
  for (size_t Vi = 0; Vi < Vars.size(); ++Vi) {
    const expr::SiteVar &V = Vars[Vi];
    if (V.Kind != InjectArgKind::Out || Written[Vi])
      continue;
    int S = StackOf(V);
    for (size_t R = 0; R != Regs.size(); ++R)
      if (VarOfReg[R] == int(Vi))
        S = Regs[R].StackIdx; // the program's own statement of it
    if (S < 0)
      return DiagnosticError::get(
          ProgramSm, bufferStart(ProgramSm, Id),
          "out variable '" + V.Name + "' of inject '" + Inj.Name +
              "' cannot be zeroed: " + expr::describeMissingStack(Info, V) +
              "; or request it");
    ZeroRegs.push_back({V.StableRegister, uint16_t(S), stack::RegKind::Out});
  }

  if (!Ctx || Ctx->getTargetSm() != TargetSm) {
    stack::StackPtxOptions O = CompilerOptions;
    O.TargetSm = TargetSm;
    Ctx = std::make_unique<stack::StackPtxContext>(Info, O);
  }
  Expected<StringRef> Text = Ctx->compile(Words, Regs, Requests, ZeroRegs);
  if (!Text)
    return DiagnosticError::get(ProgramSm, bufferStart(ProgramSm, Id),
                                "program for inject '" + Inj.Name +
                                    "': " + toString(Text.takeError()));
  warnAboutLimits(Id, Inj, Ctx->getStats());
  return Text->str();
}

/// An AST PTX program (`.ast`, see mmptx/Ast/AstStub.h): the same typing
/// against the inject's variables, one expression per out/mod variable.
Expected<std::string> StubGenPass::compileAstFor(const InjectModule &Im,
                                                 const Inject &Inj,
                                                 unsigned BufferId) {
  std::vector<expr::SiteVar> Vars = getSiteVars(Im, Inj);
  if (!AstCtx || AstCtx->getOptions().TargetSm != TargetSm) {
    ast::AstPtxOptions O;
    O.TargetSm = TargetSm;
    AstCtx =
        std::make_unique<ast::AstPtxContext>(stack::getDefaultStackInfo(), O);
  }
  return ast::compileAstStub(ProgramSm, BufferId, Inj.Name, Vars, *AstCtx);
}

Error StubGenPass::run(Module &M) {
  if (FromContext) {
    const PassContext &C = getContext();
    CompilerOptions =
        C.StackOptions ? *C.StackOptions : stack::StackPtxOptions();
    if (C.StackIncludeDirs)
      for (StubGenSpec &Spec : Specs)
        if (Spec.IncludeDirs.empty())
          Spec.IncludeDirs = *C.StackIncludeDirs;
  }
  if (Error E = stack::checkStackPtxOptions(CompilerOptions, stackOptionFlag))
    return E;
  // Stubs must assemble for the module they go into.
  TargetSm = CompilerOptions.TargetSm ? CompilerOptions.TargetSm
                                      : getModuleTargetSm(M);
  const InjectOptions *Opts = getContext().TheInjectOptions;
  auto Im = InjectModule::create(M, Opts ? *Opts : InjectOptions());
  if (!Im)
    return Im.takeError();
  std::vector<std::string> Stubs((*Im)->getNumInjects());
  std::vector<bool> Have((*Im)->getNumInjects(), false);
  for (const StubGenSpec &Spec : Specs) {
    const Inject *Inj = (*Im)->lookupInject(Spec.InjectName);
    if (!Inj)
      return makeError("--stub-gen: no inject named '" + Spec.InjectName +
                       "' in " + M.getBufferIdentifier());
    if (Have[Inj->Index])
      return makeError("--stub-gen: more than one program for inject '" +
                       Spec.InjectName + "'");
    auto Stub = compileFor(**Im, *Inj, Spec);
    if (!Stub)
      return Stub.takeError();
    Stubs[Inj->Index] = std::move(*Stub);
    Have[Inj->Index] = true;
  }
  // Creation checked every site; stubs of the Stack PTX compiler are valid
  // by construction, so they are spliced unchecked.
  std::vector<Optional<StringRef>> ToSplice((*Im)->getNumInjects());
  for (size_t I = 0; I != Stubs.size(); ++I)
    if (Have[I])
      ToSplice[I] = StringRef(Stubs[I]);
  spliceStubs(M, **Im, ToSplice);
  return Error::success();
}

std::unique_ptr<Pass> mmptx::createStubGenPass(std::vector<StubGenSpec> Specs) {
  return std::make_unique<StubGenPass>(std::move(Specs));
}

Expected<std::unique_ptr<Pass>>
mmptx::createStubGenPassFromValues(ArrayRef<std::string> Values) {
  std::vector<StubGenSpec> Specs;
  for (const std::string &V : Values) {
    auto [name, file] = StringRef(V).split('=');
    if (name.empty() || file.empty())
      return makeError("--stub-gen expects NAME=FILE, got '" + V + "'");
    Specs.push_back({name.str(), file.str(), /*includeDirs=*/{}});
  }
  return createStubGenPass(std::move(Specs));
}

std::unique_ptr<Pass>
mmptx::createStubGenPass(std::vector<StubGenSpec> Specs,
                         const stack::StackPtxOptions &Opts) {
  return std::make_unique<StubGenPass>(std::move(Specs), Opts);
}
