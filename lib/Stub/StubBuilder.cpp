//===- StubBuilder.cpp - The stub of an inject from a program -------------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "mmptx/Stub/StubBuilder.h"
#include "mmptx/Ast/AstText.h"
#include "mmptx/Expr/InjectTyping.h"
#include "mmptx/IR/Module.h"
#include "mmptx/Support/Diagnostic.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"

#include <array>

using namespace llvm;
using namespace mmptx;
using namespace mmptx::stub;
using stack::RegKind;

ProgramKind stub::getProgramKindOfFile(StringRef Path) {
  return Path.endswith(".ast") ? ProgramKind::Ast : ProgramKind::Stack;
}

StringRef stub::getProgramKindName(ProgramKind Kind) {
  return Kind == ProgramKind::Ast ? "AST PTX" : "Stack PTX";
}

/// \returns N of the first `sm_N` of directive \p Text if it is a `.target`
/// directive: 0 if it names none, -1 if it is another statement.
static int64_t parseTargetDirective(StringRef Text) {
  if (!Text.consume_front(".target") || Text.empty() || !isSpace(Text[0]))
    return -1;
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

uint32_t stub::getModuleTargetSm(const ptx::Module &M) {
  for (uint32_t I : M.headerDirectives()) {
    int64_t Sm = parseTargetDirective(M.getText(M.getStatement(I)));
    if (Sm >= 0)
      return uint32_t(Sm);
  }
  return 0;
}

uint32_t stub::getPtxTargetSm(StringRef Ptx) {
  // The header directives come first; a `.target` line is never indented
  // inside a comment block by a compiler, but skip line comments anyway.
  while (!Ptx.empty()) {
    StringRef Line;
    std::tie(Line, Ptx) = Ptx.split('\n');
    Line = Line.trim();
    if (Line.startswith(".entry") || Line.startswith(".visible") ||
        Line.startswith(".func"))
      break;
    int64_t Sm = parseTargetDirective(
        Line.take_until([](char C) { return C == ';' || C == '/'; }));
    if (Sm >= 0)
      return uint32_t(Sm);
  }
  return 0;
}

/// \returns the variables of \p Inj as the expression compilers type them.
static std::vector<expr::SiteVar> getSiteVars(const InjectModule &Im,
                                              const Inject &Inj) {
  std::vector<expr::SiteVar> Vars;
  for (const InjectVariable &V : Im.getVariables(Inj))
    Vars.push_back({V.Name, V.StableRegister, V.TypeToken, V.Kind, V.RegType});
  return Vars;
}

/// \returns the location of the start of buffer \p Id.
static SMLoc getBufferStart(const SourceMgr &Sm, unsigned Id) {
  return SMLoc::getFromPointer(Sm.getMemoryBuffer(Id)->getBufferStart());
}

/// \returns the stack of \p V's type, or NumStacks (an invalid stack, so
/// that a use of it is reported, located) if its type has no one stack.
static uint16_t getStackOrInvalid(const stack::StackInfo &Info,
                                  const expr::SiteVar &V) {
  int S = expr::findStackOf(Info, V);
  return S < 0 ? uint16_t(Info.NumStacks) : uint16_t(S);
}

/// \returns the variable of \p Inj that a program's register \p Name
/// (declared at \p Loc, on stack \p StackIdx, of kind \p Kind) names, or a
/// located error if there is none or it does not fit.
static Expected<const expr::SiteVar *>
bindVariable(ArrayRef<expr::SiteVar> Vars, const Inject &Inj,
             const stack::StackInfo &Info, const SourceMgr &Sm, StringRef Name,
             SMLoc Loc, unsigned StackIdx, InjectArgKind Kind) {
  const expr::SiteVar *V = expr::findSiteVar(Vars, Name);
  if (!V)
    return DiagnosticError::get(
        Sm, Loc, "inject '" + Inj.Name + "' has no variable '" + Name + "'");
  std::string Misfit =
      expr::checkSiteVarUse(Info, Inj.Name, *V, StackIdx, Kind);
  if (!Misfit.empty())
    return DiagnosticError::get(Sm, Loc, Misfit);
  return V;
}

//===----------------------------------------------------------------------===//
// StackBinding
//===----------------------------------------------------------------------===//

Expected<StackBinding>
StackBinding::create(const InjectModule &Im, const Inject &Inj,
                     const stack::StackProgram &Prog, const SourceMgr &Sm,
                     unsigned BufferId, const stack::StackInfo &Info) {
  std::vector<expr::SiteVar> Vars = getSiteVars(Im, Inj);
  StackBinding B;
  // Map every register onto a variable of the inject.
  std::vector<int> VarOfReg;
  for (const stack::RegisterDecl &D : Prog.Registers) {
    Expected<const expr::SiteVar *> Found =
        bindVariable(Vars, Inj, Info, Sm, D.Name, D.Loc, D.StackIdx, D.Kind);
    if (!Found)
      return Found.takeError();
    const expr::SiteVar *V = *Found;
    // An out register has no value before the stub writes it.
    if (D.Kind == RegKind::Out && D.FirstRead.isValid()) {
      if (V->Kind == RegKind::Out)
        return DiagnosticError::get(Sm, D.FirstRead,
                                    "the program reads '" + D.Name +
                                        "', an out variable of inject '" +
                                        Inj.Name + "', which has no value");
      return DiagnosticError::get(Sm, D.FirstRead,
                                  "the program reads '" + D.Name +
                                      "', which it declares 'out'; declare "
                                      "it 'mod' to read its value");
    }
    // A mod variable keeps its value when the program leaves it alone.
    B.Regs.push_back({V->StableRegister, D.StackIdx, V->Kind});
    VarOfReg.push_back(int(V - Vars.data()));
  }
  // `input(N)` before the declaration of register N has no recorded read;
  // locate it at the declaration.
  auto ReadsOut = [&](ArrayRef<uint64_t> Words) {
    for (uint64_t W : Words) {
      if (stack::getWordType(W) != stack::WordType::Input)
        continue;
      uint32_t R = stack::getWordPayload(W);
      if (R < B.Regs.size() && Prog.Registers[R].Kind == RegKind::Out)
        return int(R);
    }
    return -1;
  };
  int OutRead = ReadsOut(Prog.Main);
  for (ArrayRef<uint64_t> Routine : Prog.Routines)
    if (OutRead < 0)
      OutRead = ReadsOut(Routine);
  if (OutRead >= 0)
    return DiagnosticError::get(Sm, Prog.Registers[OutRead].Loc,
                                "the program reads '" +
                                    Prog.Registers[OutRead].Name +
                                    "', which is 'out' and has no value to "
                                    "read");

  // The parser refuses requests of registers declared 'in'.
  B.Requests = Prog.Requests;
  if (!Prog.HasRequests) {
    // What the program declares it writes; a variable it does not mention
    // is not its to write.
    SmallVector<bool, 16> Requested(Vars.size(), false);
    for (uint32_t R : Prog.getDefaultRequests()) {
      if (Requested[VarOfReg[R]])
        continue;
      Requested[VarOfReg[R]] = true;
      B.Requests.push_back(R);
    }
  }

  // Out variables that no request writes are zeroed: a site never reads an
  // uninitialised register.
  SmallVector<bool, 16> Written(Vars.size(), false);
  for (uint32_t R : B.Requests)
    Written[VarOfReg[R]] = true;
  for (size_t Vi = 0; Vi < Vars.size(); ++Vi) {
    const expr::SiteVar &V = Vars[Vi];
    if (V.Kind != InjectArgKind::Out || Written[Vi])
      continue;
    int S = expr::findStackOf(Info, V);
    for (size_t R = 0; R != B.Regs.size(); ++R)
      if (VarOfReg[R] == int(Vi))
        S = B.Regs[R].StackIdx; // the program's own statement of it
    if (S < 0)
      return DiagnosticError::get(
          Sm, getBufferStart(Sm, BufferId),
          "out variable '" + V.Name + "' of inject '" + Inj.Name +
              "' cannot be zeroed: " + expr::describeMissingStack(Info, V) +
              "; or request it");
    B.ZeroRegs.push_back({V.StableRegister, uint16_t(S), RegKind::Out});
  }
  return std::move(B);
}

Expected<StringRef> StackBinding::compile(stack::StackPtxContext &Ctx,
                                          stack::Program Words) const {
  return Ctx.compile(Words, Regs, Requests, ZeroRegs);
}

//===----------------------------------------------------------------------===//
// StubBuilder
//===----------------------------------------------------------------------===//

StubBuilder::StubBuilder(StubOptions Opts, const stack::StackInfo *Info)
    : Opts(std::move(Opts)), Info(Info ? *Info : stack::getDefaultStackInfo()) {
}

StubBuilder::~StubBuilder() = default;

Error StubBuilder::checkOptions(
    function_ref<StringRef(StringRef)> Spelling) const {
  return stack::checkStackPtxOptions(Opts.Stack, Spelling);
}

void StubBuilder::setWarningHandler(WarningHandler Handler,
                                    std::function<StringRef(StringRef)> Spell) {
  OnWarning = std::move(Handler);
  Spelling = std::move(Spell);
}

Expected<std::string> StubBuilder::build(const InjectModule &Im,
                                         const Inject &Inj, const Program &P,
                                         uint32_t TargetSm) {
  unsigned Id = ProgramSm.AddNewSourceBuffer(
      MemoryBuffer::getMemBufferCopy(P.Text, P.Name), SMLoc());
  return buildBuffer(Im, Inj, Id, P.Kind, TargetSm);
}

Expected<std::string> StubBuilder::buildFromFile(const InjectModule &Im,
                                                 const Inject &Inj,
                                                 StringRef Path,
                                                 uint32_t TargetSm) {
  std::string Included;
  unsigned Id = ProgramSm.AddIncludeFile(Path.str(), SMLoc(), Included);
  if (!Id) {
    // AddIncludeFile drops the reason; ask the file system for it.
    auto Buf = MemoryBuffer::getFile(Path);
    return makeError("cannot open program '" + Path + "': " +
                     (Buf ? std::string("not found in the include path")
                          : Buf.getError().message()));
  }
  return buildBuffer(Im, Inj, Id, getProgramKindOfFile(Path), TargetSm);
}

Expected<std::string> StubBuilder::buildBuffer(const InjectModule &Im,
                                               const Inject &Inj,
                                               unsigned BufferId,
                                               ProgramKind Kind,
                                               uint32_t TargetSm) {
  // Stubs must assemble for the module they go into.
  if (!TargetSm)
    TargetSm = Opts.TargetSm ? Opts.TargetSm : getPtxTargetSm(Im.getTemplate());
  if (Kind == ProgramKind::Ast)
    return buildAst(Im, Inj, BufferId, TargetSm);
  return buildStack(Im, Inj, BufferId, TargetSm);
}

Expected<std::string> StubBuilder::buildStack(const InjectModule &Im,
                                              const Inject &Inj,
                                              unsigned BufferId,
                                              uint32_t TargetSm) {
  // Every variable may be used without a declaration, by name or by stable
  // register.
  std::vector<stack::RegisterDecl> Predeclared;
  for (const expr::SiteVar &V : getSiteVars(Im, Inj)) {
    uint16_t StackIdx = getStackOrInvalid(Info, V);
    for (StringRef Name : {V.Name, V.StableRegister})
      Predeclared.push_back({Name.str(), StackIdx, V.Kind, SMLoc(), SMLoc()});
  }
  auto Prog = stack::parseStackProgram(ProgramSm, BufferId, Info, Predeclared,
                                       Opts.IncludeDirs);
  if (!Prog)
    return Prog.takeError();
  auto Binding =
      StackBinding::create(Im, Inj, *Prog, ProgramSm, BufferId, Info);
  if (!Binding)
    return Binding.takeError();

  if (!StackCtx || StackCtx->getTargetSm() != TargetSm) {
    stack::StackPtxOptions O = Opts.Stack;
    O.TargetSm = TargetSm;
    StackCtx = std::make_unique<stack::StackPtxContext>(Info, O);
  }
  Expected<StringRef> Text = Binding->compile(*StackCtx, Prog->getProgram());
  if (!Text)
    return DiagnosticError::get(ProgramSm, getBufferStart(ProgramSm, BufferId),
                                "program for inject '" + Inj.Name +
                                    "': " + toString(Text.takeError()));
  if (OnWarning) {
    stack::describeLimitsHit(
        StackCtx->getStats(), StackCtx->getOptions(),
        [&](StringRef Field) { return Spelling ? Spelling(Field) : Field; },
        [&](const Twine &Msg) {
          OnWarning(ProgramSm.GetMessage(
              getBufferStart(ProgramSm, BufferId), SourceMgr::DK_Warning,
              "program for inject '" + Inj.Name + "': " + Msg));
        });
  }
  return Text->str();
}

/// An AST PTX program: the same typing against the inject's variables, one
/// expression per out/mod variable.
Expected<std::string> StubBuilder::buildAst(const InjectModule &Im,
                                            const Inject &Inj,
                                            unsigned BufferId,
                                            uint32_t TargetSm) {
  if (!AstCtx || AstCtx->getOptions().TargetSm != TargetSm) {
    ast::AstPtxOptions O = Opts.Ast;
    O.TargetSm = TargetSm;
    AstCtx = std::make_unique<ast::AstPtxContext>(Info, O);
  }
  const SourceMgr &Sm = ProgramSm;
  std::vector<expr::SiteVar> Vars = getSiteVars(Im, Inj);
  std::vector<ast::AstVarDecl> Predeclared;
  for (size_t I = 0; I != Vars.size(); ++I)
    for (StringRef Name : {Vars[I].Name, Vars[I].StableRegister})
      Predeclared.push_back({Name.str(), getStackOrInvalid(Info, Vars[I]),
                             Vars[I].Kind, SMLoc(), SMLoc(), uint32_t(I)});
  Expected<ast::AstModule> M =
      ast::parseAstModule(Sm, BufferId, Info, Predeclared);
  if (!M)
    return M.takeError();

  // Map every variable of the program onto one of the inject.
  std::vector<ast::AstVar> Inputs;
  std::vector<int> SiteVarOf;
  for (const ast::AstVarDecl &D : M->Vars) {
    Expected<const expr::SiteVar *> Found =
        bindVariable(Vars, Inj, Info, Sm, D.Name, D.Loc, D.StackIdx, D.Kind);
    if (!Found)
      return Found.takeError();
    const expr::SiteVar *V = *Found;
    Inputs.push_back({V->StableRegister, D.StackIdx});
    SiteVarOf.push_back(int(V - Vars.data()));
  }

  // One expression per variable; zero for out variables without one.
  SmallVector<bool, 16> Written(Vars.size(), false);
  std::vector<ast::AstOutput> Outputs;
  for (const ast::AstOutputDecl &O : M->Outputs) {
    int Sv = SiteVarOf[O.Var];
    if (Written[Sv])
      return DiagnosticError::get(
          Sm, O.Expr.Loc, "variable '" + Vars[Sv].Name + "' is written twice");
    Written[Sv] = true;
    Outputs.push_back({Inputs[O.Var], O.Expr.Words});
  }
  std::vector<std::array<uint64_t, 2>> ZeroWords;
  ZeroWords.reserve(Vars.size());
  for (size_t I = 0; I != Vars.size(); ++I) {
    if (Vars[I].Kind != RegKind::Out || Written[I])
      continue;
    uint16_t S = getStackOrInvalid(Info, Vars[I]);
    if (S >= Info.NumStacks)
      return DiagnosticError::get(
          Sm, getBufferStart(Sm, BufferId),
          "out variable '" + Vars[I].Name + "' of inject '" + Inj.Name +
              "' cannot be zeroed: " +
              expr::describeMissingStack(Info, Vars[I]) + "; or write it");
    ZeroWords.push_back({ast::encodeConstantBits(S, 0), ast::encodeReturn()});
    Outputs.push_back({{Vars[I].StableRegister, S}, ZeroWords.back()});
  }
  std::vector<ArrayRef<uint64_t>> Routines;
  for (const ast::AstRoutineDecl &R : M->Routines)
    Routines.push_back(R.Body.Words);
  Expected<StringRef> Stub =
      AstCtx->compile(ast::AstProgram{Outputs, Routines}, Inputs);
  if (!Stub)
    return ast::locateAstError(Stub.takeError(), Sm, *M);
  return Stub->str();
}

Expected<std::string> stub::buildStub(const InjectModule &Im, const Inject &Inj,
                                      const Program &P,
                                      const StubOptions &Opts) {
  StubBuilder B(Opts);
  if (Error E = B.checkOptions())
    return std::move(E);
  return B.build(Im, Inj, P);
}
