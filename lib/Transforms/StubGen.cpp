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
  StubGenPass(std::vector<StubGenSpec> specs,
              const stack::StackPtxOptions &opts)
      : specs(std::move(specs)), compilerOptions(opts) {}
  /// Compiles with the pipeline's Stack PTX options.
  explicit StubGenPass(std::vector<StubGenSpec> specs)
      : specs(std::move(specs)), fromContext(true) {}
  StringRef getArgument() const override { return "stub-gen"; }
  StringRef getDescription() const override {
    return "compile Stack PTX programs into stubs at the sites of injects";
  }
  Error run(Module &m) override;

private:
  Expected<std::string> compileFor(const InjectModule &im, const Inject &inj,
                                   const StubGenSpec &spec);
  Expected<std::string> compileAstFor(const InjectModule &im, const Inject &inj,
                                      unsigned bufferID);
  void warnAboutLimits(unsigned bufferID, const Inject &inj,
                       const stack::StackPtxStats &stats);

  std::vector<StubGenSpec> specs;
  stack::StackPtxOptions compilerOptions;
  /// Take compilerOptions from the PassContext when run.
  bool fromContext = false;
  /// The target of the module being run on (see run()).
  uint32_t targetSm = 0;
  std::unique_ptr<stack::StackPtxContext> ctx;
  std::unique_ptr<ast::AstPtxContext> astCtx;
  /// Owns the program buffers so that diagnostics can point into them.
  SourceMgr programSM;
};
} // namespace

/// \returns the variables of \p inj as the expression compilers type them.
static std::vector<expr::SiteVar> getSiteVars(const InjectModule &im,
                                              const Inject &inj) {
  std::vector<expr::SiteVar> vars;
  for (const InjectVariable &v : im.getVariables(inj))
    vars.push_back({v.name, v.stableRegister, v.typeToken, v.kind, v.regType});
  return vars;
}

/// \returns the mmptx-opt flag of StackPtxOptions field \p field.
static StringRef stackOptionFlag(StringRef field) {
  return StringSwitch<StringRef>(field)
      .Case("stackSize", "--stack-size")
      .Case("maxNodes", "--stack-node-limit")
      .Case("maxFrameDepth", "--stack-max-frame-depth")
      .Case("storeSize", "--stack-store-size")
      .Case("strict", "--stack-strict")
      .Default("--stack-execution-limit");
}

/// \returns the location of the start of buffer \p id.
static SMLoc bufferStart(const SourceMgr &sm, unsigned id) {
  return SMLoc::getFromPointer(sm.getMemoryBuffer(id)->getBufferStart());
}

void StubGenPass::warnAboutLimits(unsigned bufferID, const Inject &inj,
                                  const stack::StackPtxStats &stats) {
  stack::StackPtxOptions o = compilerOptions;
  o.targetSm = targetSm;
  const auto &handler = getContext().onWarning;
  if (!handler)
    return;
  stack::describeLimitsHit(stats, o, stackOptionFlag, [&](const Twine &msg) {
    handler(programSM.GetMessage(
        bufferStart(programSM, bufferID), SourceMgr::DK_Warning,
        "program for inject '" + inj.name + "': " + msg));
  });
}

/// \returns N of the first `sm_N` of the module's `.target` directive
/// (`.target sm_90a, debug` gives 90), or 0 if there is none.
static uint32_t getModuleTargetSm(const Module &m) {
  for (uint32_t i : m.headerDirectives()) {
    StringRef text = m.getText(m.getStatement(i));
    if (!text.consume_front(".target") || text.empty() || !isSpace(text[0]))
      continue;
    SmallVector<StringRef, 4> items;
    text.split(items, ',');
    for (StringRef item : items) {
      item = item.trim();
      if (!item.consume_front("sm_"))
        continue;
      uint32_t sm = 0;
      if (!item.take_while(isDigit).getAsInteger(10, sm))
        return sm;
    }
    return 0;
  }
  return 0;
}

Expected<std::string> StubGenPass::compileFor(const InjectModule &im,
                                              const Inject &inj,
                                              const StubGenSpec &spec) {
  std::string included;
  unsigned id = programSM.AddIncludeFile(spec.programFile, SMLoc(), included);
  if (!id)
    return makeError("cannot open Stack PTX program '" + spec.programFile +
                     "'");
  if (StringRef(spec.programFile).endswith(".ast"))
    return compileAstFor(im, inj, id);
  const stack::StackInfo &info = stack::getDefaultStackInfo();
  std::vector<expr::SiteVar> vars = getSiteVars(im, inj);
  auto stackOf = [&](const expr::SiteVar &v) {
    return expr::findStackOf(info, v);
  };

  // Every variable may be used without a declaration, by name or by stable
  // register. One whose type has no one stack gets an invalid stack, so that
  // its use is reported below, located.
  std::vector<stack::RegisterDecl> predeclared;
  for (const expr::SiteVar &v : vars) {
    int s = stackOf(v);
    uint16_t stackIdx = s < 0 ? uint16_t(info.numStacks) : uint16_t(s);
    for (StringRef name : {v.name, v.stableRegister})
      predeclared.push_back({name.str(), stackIdx, v.kind, SMLoc(), SMLoc()});
  }
  auto prog = stack::parseStackProgram(programSM, id, info, predeclared,
                                       spec.includeDirs);
  if (!prog)
    return prog.takeError();

  // Map every register onto a variable of the inject.
  std::vector<stack::Register> regs;
  std::vector<int> varOfReg;
  for (const stack::RegisterDecl &d : prog->registers) {
    const expr::SiteVar *v = expr::findSiteVar(vars, d.name);
    if (!v)
      return DiagnosticError::get(programSM, d.loc,
                                  "inject '" + inj.name +
                                      "' has no variable '" + d.name + "'");
    std::string misfit =
        expr::checkSiteVarUse(info, inj.name, *v, d.stackIdx, d.kind);
    if (!misfit.empty())
      return DiagnosticError::get(programSM, d.loc, misfit);
    // An out register has no value before the stub writes it.
    if (d.kind == stack::RegKind::Out && d.firstRead.isValid()) {
      if (v->kind == stack::RegKind::Out)
        return DiagnosticError::get(programSM, d.firstRead,
                                    "the program reads '" + d.name +
                                        "', an out variable of inject '" +
                                        inj.name + "', which has no value");
      return DiagnosticError::get(programSM, d.firstRead,
                                  "the program reads '" + d.name +
                                      "', which it declares 'out'; declare "
                                      "it 'mod' to read its value");
    }
    // A mod variable keeps its value when the program leaves it alone.
    regs.push_back({v->stableRegister, d.stackIdx, v->kind});
    varOfReg.push_back(int(v - vars.data()));
  }
  // `input(N)` before the declaration of register N has no recorded read;
  // locate it at the declaration.
  stack::Program words = prog->getProgram();
  auto readsOut = [&](ArrayRef<uint64_t> ws) {
    for (uint64_t w : ws) {
      if (stack::getWordType(w) != stack::WordType::Input)
        continue;
      uint32_t r = stack::getWordPayload(w);
      if (r < regs.size() && prog->registers[r].kind == stack::RegKind::Out)
        return int(r);
    }
    return -1;
  };
  int outRead = readsOut(words.main);
  for (ArrayRef<uint64_t> routine : words.routines)
    if (outRead < 0)
      outRead = readsOut(routine);
  if (outRead >= 0)
    return DiagnosticError::get(programSM, prog->registers[outRead].loc,
                                "the program reads '" +
                                    prog->registers[outRead].name +
                                    "', which is 'out' and has no value to "
                                    "read");

  // The parser refuses requests of registers declared 'in'.
  std::vector<uint32_t> requests = prog->requests;
  if (!prog->hasRequests) {
    // What the program declares it writes; a variable it does not mention
    // is not its to write.
    SmallVector<bool, 16> requested(vars.size(), false);
    for (uint32_t r : prog->getDefaultRequests()) {
      if (requested[varOfReg[r]])
        continue;
      requested[varOfReg[r]] = true;
      requests.push_back(r);
    }
  }

  // Out variables that no request writes are zeroed: a site never reads an
  // uninitialised register.
  SmallVector<bool, 16> written(vars.size(), false);
  for (uint32_t r : requests)
    written[varOfReg[r]] = true;
  std::vector<stack::Register> zeroRegs;
  for (size_t vi = 0; vi < vars.size(); ++vi) {
    const expr::SiteVar &v = vars[vi];
    if (v.kind != InjectArgKind::Out || written[vi])
      continue;
    int s = stackOf(v);
    for (size_t r = 0; r != regs.size(); ++r)
      if (varOfReg[r] == int(vi))
        s = regs[r].stackIdx; // the program's own statement of it
    if (s < 0)
      return DiagnosticError::get(
          programSM, bufferStart(programSM, id),
          "out variable '" + v.name + "' of inject '" + inj.name +
              "' cannot be zeroed: " + expr::describeMissingStack(info, v) +
              "; or request it");
    zeroRegs.push_back({v.stableRegister, uint16_t(s), stack::RegKind::Out});
  }

  if (!ctx || ctx->getTargetSm() != targetSm) {
    stack::StackPtxOptions o = compilerOptions;
    o.targetSm = targetSm;
    ctx = std::make_unique<stack::StackPtxContext>(info, o);
  }
  Expected<StringRef> text = ctx->compile(words, regs, requests, zeroRegs);
  if (!text)
    return DiagnosticError::get(programSM, bufferStart(programSM, id),
                                "program for inject '" + inj.name +
                                    "': " + toString(text.takeError()));
  warnAboutLimits(id, inj, ctx->getStats());
  return text->str();
}

/// An AST PTX program (`.ast`, see mmptx/Ast/AstStub.h): the same typing
/// against the inject's variables, one expression per out/mod variable.
Expected<std::string> StubGenPass::compileAstFor(const InjectModule &im,
                                                 const Inject &inj,
                                                 unsigned bufferID) {
  std::vector<expr::SiteVar> vars = getSiteVars(im, inj);
  if (!astCtx || astCtx->getOptions().targetSm != targetSm) {
    ast::AstPtxOptions o;
    o.targetSm = targetSm;
    astCtx =
        std::make_unique<ast::AstPtxContext>(stack::getDefaultStackInfo(), o);
  }
  return ast::compileAstStub(programSM, bufferID, inj.name, vars, *astCtx);
}

Error StubGenPass::run(Module &m) {
  if (fromContext) {
    const PassContext &c = getContext();
    compilerOptions =
        c.stackOptions ? *c.stackOptions : stack::StackPtxOptions();
    if (c.stackIncludeDirs)
      for (StubGenSpec &spec : specs)
        if (spec.includeDirs.empty())
          spec.includeDirs = *c.stackIncludeDirs;
  }
  if (Error e = stack::checkStackPtxOptions(compilerOptions, stackOptionFlag))
    return e;
  // Stubs must assemble for the module they go into.
  targetSm = compilerOptions.targetSm ? compilerOptions.targetSm
                                      : getModuleTargetSm(m);
  const InjectOptions *opts = getContext().injectOptions;
  auto im = InjectModule::create(m, opts ? *opts : InjectOptions());
  if (!im)
    return im.takeError();
  std::vector<std::string> stubs((*im)->getNumInjects());
  std::vector<bool> have((*im)->getNumInjects(), false);
  for (const StubGenSpec &spec : specs) {
    const Inject *inj = (*im)->lookupInject(spec.injectName);
    if (!inj)
      return makeError("--stub-gen: no inject named '" + spec.injectName +
                       "' in " + m.getBufferIdentifier());
    if (have[inj->index])
      return makeError("--stub-gen: more than one program for inject '" +
                       spec.injectName + "'");
    auto stub = compileFor(**im, *inj, spec);
    if (!stub)
      return stub.takeError();
    stubs[inj->index] = std::move(*stub);
    have[inj->index] = true;
  }
  // Creation checked every site; stubs of the Stack PTX compiler are valid
  // by construction, so they are spliced unchecked.
  std::vector<Optional<StringRef>> toSplice((*im)->getNumInjects());
  for (size_t i = 0; i != stubs.size(); ++i)
    if (have[i])
      toSplice[i] = StringRef(stubs[i]);
  spliceStubs(m, **im, toSplice);
  return Error::success();
}

std::unique_ptr<Pass> mmptx::createStubGenPass(std::vector<StubGenSpec> specs) {
  return std::make_unique<StubGenPass>(std::move(specs));
}

Expected<std::unique_ptr<Pass>>
mmptx::createStubGenPassFromValues(ArrayRef<std::string> values) {
  std::vector<StubGenSpec> specs;
  for (const std::string &v : values) {
    auto [name, file] = StringRef(v).split('=');
    if (name.empty() || file.empty())
      return makeError("--stub-gen expects NAME=FILE, got '" + v + "'");
    specs.push_back({name.str(), file.str(), /*includeDirs=*/{}});
  }
  return createStubGenPass(std::move(specs));
}

std::unique_ptr<Pass>
mmptx::createStubGenPass(std::vector<StubGenSpec> specs,
                         const stack::StackPtxOptions &opts) {
  return std::make_unique<StubGenPass>(std::move(specs), opts);
}
